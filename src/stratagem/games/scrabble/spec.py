"""Scrabble for core: the built-in lexicons as presets; greedy, random, endgame, heuristic
and equity agents.

The presets ``english`` and ``czech`` play with the built-in lexicons (ENABLE,
shipped in the package; the informal Czech list derived from wordfreq; see
:mod:`.lexicon`). Any word list plays as
the rules ``TILES:lexicon=PATH`` or ``TILES:PATH`` (``english:/data/enable1.txt``):
the file is read with a size limit, built once into a cached DAWG, and named by its
absolute path in results files. A game's rules object is its
:class:`~stratagem.games.scrabble.lexicon.Lexicon` (which holds the tile set).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from functools import lru_cache
from pathlib import Path
from typing import Any

from stratagem.core.agent import Agent, RandomAgent
from stratagem.core.errors import InvalidRulesError
from stratagem.core.registry import AgentInfo, GameSpec, Lazy, Param, WebExtras, agent_table
from stratagem.games.scrabble import sim
from stratagem.games.scrabble.challenge import CHALLENGE_RULES, ChallengingAgent, check_rule
from stratagem.games.scrabble.coach import coaching
from stratagem.games.scrabble.endgame import NODE_LIMITS, EndgameAgent
from stratagem.games.scrabble.heuristic import (
    CLOSING_CHOICES,
    DEFENCE_RANGE,
    ENDGAME_NODES,
    EquityAgent,
    HeuristicAgent,
    load_weights,
    parse_weights_text,
    shipped_weights,
)
from stratagem.games.scrabble.leaves import load_leaves, shipped_leaves
from stratagem.games.scrabble.lexicon import Lexicon, default_lexicon, load_lexicon
from stratagem.games.scrabble.sim_pool import cores
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.strategies import GreedyAgent
from stratagem.games.scrabble.tiles import TILE_SETS


@lru_cache(maxsize=4)
def lexicon(rules: str) -> Lexicon:
    """The lexicon of a preset or of ``TILES:PATH`` rules, loaded once per process."""
    tiles, sep, path = rules.partition(":")
    if sep:
        return load_lexicon(path, tiles)
    return default_lexicon(rules)


def lexicon_rules(path: str | Path, tiles: str = "english") -> str:
    """The rules string that plays on the word list at ``path`` with a tile set's tiles.

    >>> lexicon_rules("/data/enable1.txt")
    'english:/data/enable1.txt'
    """
    if tiles not in TILE_SETS:
        raise InvalidRulesError(
            f"unknown tile set {tiles!r} for a word list; the tile sets are: {', '.join(TILE_SETS)}"
        )
    text = str(path)
    if not text.strip():
        raise InvalidRulesError("the word-list path is empty; give a file, one word a line")
    return f"{tiles}:{Path(text).expanduser().absolute()}"


def _absolute(path: str) -> str:
    """A word list named by its absolute path, the same file from any folder."""
    return str(Path(path).expanduser().absolute())


def with_word_list(tiles: str, values: Mapping[str, Any]) -> Lexicon:
    """The rules ``TILES:lexicon=PATH``: the word list at ``PATH`` played with a tile set
    (read with a size limit, UTF-8, at least one playable word; cached); with
    ``challenge=single|double`` the list's game under that challenge rule."""
    path = values.get("lexicon")
    plain = lexicon(tiles if path is None else lexicon_rules(path, tiles))
    return with_challenge(plain, values.get("challenge") or "none")


@lru_cache(maxsize=16)
def with_challenge(plain: Lexicon, rule: str) -> Lexicon:
    """``plain`` under a challenge rule (one object per list and rule, sharing the list's
    arrays and move generator); ``none`` is the list itself."""
    check_rule(rule)
    if rule == "none":
        return plain
    return replace(plain, challenge=rule, plain=plain)


RULE_PARAMS = (
    Param("lexicon", str, None, "play on this word list (UTF-8, one word a line) with the "
          "preset's tile set", accepts="a word-list file", normalise=_absolute, file=True),
    Param("challenge", str, None, "the challenge rule: none (invalid words refused), single "
          "(a phony stands unless challenged) or double (a wrong challenge loses a turn)",
          choices=CHALLENGE_RULES),
)  # fmt: skip
"""``english:lexicon=FILE`` (or ``english:FILE``): any word list with a tile set's tiles;
``english:challenge=double``: the game under a challenge rule."""


def _heuristic(rules: Lexicon, weights: str, w: str | None, leaves: str | None,
               endgame: str, nodes: int, closing: str, think: float | None) -> Agent:  # fmt: skip
    tiles = rules.tiles
    if w is not None:
        chosen = parse_weights_text(w)
    elif weights in ("tuned", "source", "leave"):
        chosen = shipped_weights(weights, tiles.name)
    else:
        chosen = load_weights(weights)
    table = load_leaves(leaves, tiles) if leaves else None
    agent = HeuristicAgent(tiles, chosen, table, endgame=endgame == "on", endgame_nodes=nodes,
                           closing=closing)  # fmt: skip
    agent.think_seconds = think
    return agent


def _equity(rules: Lexicon, leaves: str | None, endgame: str, nodes: int,
            think: float | None, defence: float) -> Agent:  # fmt: skip
    agent = _static(rules, leaves, endgame == "on", nodes, defence)
    agent.think_seconds = think
    return agent


def _static(rules: Lexicon, leaves: str | None, endgame: bool, nodes: int,
            defence: float = 0.0) -> EquityAgent:  # fmt: skip
    """The equity player with a leave FILE, the shipped factored table (None) or the
    shipped superleave table (``super``; a ``.npz`` FILE or a table folder: a superleave
    table)."""
    tiles = rules.tiles
    if leaves == "super" or (leaves is not None and (leaves.endswith(".npz")
                                                     or Path(leaves).is_dir())):  # fmt: skip
        from stratagem.games.scrabble.superleaves import (
            SuperleaveEquityAgent,
            load_superleaves,
            shipped_superleaves,
        )

        table = (shipped_superleaves(tiles.name) if leaves == "super"
                 else load_superleaves(leaves, tiles))  # fmt: skip
        return SuperleaveEquityAgent(table, endgame=endgame, endgame_nodes=nodes,
                                     defence=defence)  # fmt: skip
    factored = load_leaves(leaves, tiles) if leaves else shipped_leaves(tiles)
    return EquityAgent(tiles, factored, endgame=endgame, endgame_nodes=nodes, defence=defence)


def _sim(rules: Lexicon, candidates: int, plies: int, iterations: int, seconds: float,
         draws: int, pre_endgame: str, pre_nodes: int, workers: int, leaves: str | None,
         endgame: str, nodes: int, think: float | None) -> Agent:  # fmt: skip
    from stratagem.games.scrabble.sim import SimAgent

    agent = SimAgent(_static(rules, leaves, False, nodes), candidates, plies, iterations,
                     seconds, draws, endgame == "on", nodes, pre_endgame, pre_nodes,
                     workers)  # fmt: skip
    agent.think_seconds = think
    return agent


_ENDGAME = Param("endgame", str, "on", "exact endgame solver once the bag is empty",
                 choices=("on", "off"))  # fmt: skip
_NODES = Param("nodes", int, ENDGAME_NODES, "node limit of the endgame search a move (the "
               "same move on any machine)", low=NODE_LIMITS[0], high=10**9,
               web_high=10**7)  # fmt: skip
_THINK = Param("think", float, None, "wall-clock seconds the endgame search may take a move "
               "(a person waiting: the best found by then is played; default: the node limit "
               "alone)", low=0.1, high=600.0, web_high=30.0)  # fmt: skip

_LEAVES = Param("leaves", str, None, "leave-value FILE (default: the shipped factored table), "
                "or super: the shipped superleave table (a .npz FILE or a table folder: a "
                "superleave table)",
                accepts="super or a leave-value file", file=True, named=("super",))

AGENTS = (
    AgentInfo("greedy", "highest-scoring placement; else exchange all or pass",
              lambda rules: GreedyAgent()),
    AgentInfo("random", "uniformly random legal action", lambda rules: RandomAgent()),
    AgentInfo(
        "endgame", "greedy until the bag is empty, then the exact endgame solver",
        lambda rules, time: EndgameAgent(GreedyAgent(), time_limit=time),
        (Param("time", float, 5.0, "CPU seconds a move for the solver", low=0.0, low_open=True,
               high=3600.0, web_high=30.0),),
    ),
    AgentInfo(
        "heuristic", "five heuristics weighted per game phase (GA-tuned weights shipped)",
        _heuristic,
        (Param("weights", str, "tuned", "tuned (default), source (the source's final "
               "weights), leave (tuned with the leave term, in Czech for the Czech tiles) or a "
               "weights FILE",
               accepts="tuned, source, leave or a weights file", file=True,
               named=("tuned", "source", "leave")),
         Param("w", str, None, "the weights inline, 20 or 25 numbers joined by / "
               "(phase by phase)", accepts="numbers joined by /"),
         Param("leaves", str, None, "leave-value FILE for the leave term (default: shipped)",
               accepts="a leave-value file", file=True),
         _ENDGAME, _NODES,
         Param("closing", str, "weights", "the closing phase without the solver: by its "
               "weights, or by the equity player's rule (score; going out earns twice the "
               "other rack, tiles kept cost their value)", choices=CLOSING_CHOICES),
         _THINK),
    ),
    AgentInfo(
        "equity", "score + learned leave value of the tiles kept", _equity,
        (_LEAVES, _ENDGAME, _NODES, _THINK,
         Param("defence", float, 0.0, "points a move gives up per premium square it opens to "
               "the opponent (double letter 1, triple letter 2, double word 2, triple word 3; "
               "0: none)", low=DEFENCE_RANGE[0], high=DEFENCE_RANGE[1])),
    ),
    AgentInfo(
        "sim", "simulates the equity player's top moves a few plies over sampled draws "
        "(enumerated with 1-2 tiles in the bag); ranks by win estimate, then mean spread",
        _sim,
        (Param("candidates", int, sim.CANDIDATES, "static moves simulated", low=1, high=100,
               web_high=30),
         Param("plies", int, 2, "moves simulated after the candidate", low=1, high=6),
         Param("iterations", int, sim.ITERATIONS, "deals per candidate at most", low=1,
               high=100_000,
               web_high=5_000),
         Param("seconds", float, 5.0, "wall-clock seconds a move at most", low=0.0,
               low_open=True, high=3600.0, web_high=30.0),
         Param("draws", int, 1, "enumerate the draws (pre-endgame) with at most this many "
               "tiles in the bag; 0: always sample", low=0, high=2),
         Param("pre_endgame", str, "playout", "the enumerated draws played out to the end by "
               "the equity player (playout), or until the bag is empty and then solved by "
               "the exact endgame solver (exact)", choices=("playout", "exact")),
         Param("pre_nodes", int, 20_000, "node limit of each endgame search of the exact "
               "pre-endgame (one per draw and candidate)", low=1024, high=10_000_000,
               web_high=1_000_000),
         Param("workers", int, 1, "processes that play the deals, over that many cores (the "
               "same figures as one; at most the cores this machine gives the process)",
               low=1, high=cores(), web_high=1),
         _LEAVES, _ENDGAME, _NODES, _THINK),
    ),
)  # fmt: skip


def _challenging(info: AgentInfo) -> AgentInfo:
    """``info`` whose agents, in a challenge game, challenge exactly the phonies."""
    make: Callable[..., Agent] = info.make

    def made(rules: Lexicon, **values: Any) -> Agent:
        agent = make(rules, **values)
        return agent if rules.challenge == "none" else ChallengingAgent(agent)

    return replace(info, make=made)


GAME = GameSpec(
    name="scrabble",
    summary="Scrabble with a built-in lexicon and its tile set",
    rules_text=Lazy("stratagem.games.scrabble.rules_text:all_rules"),
    cli=Lazy("stratagem.games.scrabble.cli:app"),
    codec=Lazy("stratagem.interop.codecs:SCRABBLE"),
    web=WebExtras(Lazy("stratagem.web.scrabble:router"), page="scrabble.html"),
    presets=tuple(TILE_SETS),
    default_rules="english",
    min_players=2,
    max_players=4,
    rules=lexicon,
    new=ScrabbleState.new,
    result="score",
    agents=agent_table(*(_challenging(a) for a in AGENTS)),
    rules_type=Lexicon,
    rule_params=RULE_PARAMS,
    rule_positional="lexicon",
    vary=with_word_list,
    perfect_information=False,  # the racks are hidden
    title="Scrabble",
    coaching=coaching,
)
