"""Scrabble in the arena: the built-in lexicons as presets; greedy, random, endgame,
heuristic and equity agents.

The presets ``english`` and ``czech`` play with the built-in informal
lexicons (derived from wordfreq; see :mod:`.lexicon`).
"""

from __future__ import annotations

from functools import lru_cache

from stratagem.core.agent import Agent, RandomAgent
from stratagem.core.arena import AgentInfo, AgentSpec, ArenaError, GameSpec
from stratagem.games.scrabble.endgame import EndgameAgent
from stratagem.games.scrabble.heuristic import (
    EquityAgent,
    HeuristicAgent,
    load_weights,
    parse_weights_text,
    shipped_weights,
)
from stratagem.games.scrabble.leaves import load_leaves, shipped_leaves
from stratagem.games.scrabble.lexicon import Lexicon, default_lexicon
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.strategies import GreedyAgent
from stratagem.games.scrabble.tiles import TILE_SETS, TileSet, tile_set


@lru_cache(maxsize=4)
def _lexicon(rules: str) -> Lexicon:
    return default_lexicon(rules)


def _greedy(rules: str, spec: AgentSpec) -> Agent:
    return GreedyAgent()


def _random(rules: str, spec: AgentSpec) -> Agent:
    return RandomAgent()


def _endgame(rules: str, spec: AgentSpec) -> Agent:
    text = spec.param("time", "5")
    try:
        seconds = float(text or "")
    except ValueError:
        seconds = float("nan")
    if not 0 < seconds <= 3600:
        raise ArenaError(f"endgame: time is CPU seconds a move, 0-3600; got {text!r}")
    return EndgameAgent(GreedyAgent(), time_limit=seconds)


def _tiles(rules: str) -> TileSet:
    return tile_set(rules) if rules in TILE_SETS else _lexicon(rules).tiles


def _endgame_on(spec: AgentSpec) -> bool:
    value = spec.param("endgame", "on")
    if value not in ("on", "off"):
        raise ArenaError(f"endgame takes on or off, got {value!r}")
    return value == "on"


def _heuristic(rules: str, spec: AgentSpec) -> Agent:
    tiles = _tiles(rules)
    source = spec.param("weights")
    inline = spec.param("w")
    if source is not None and inline is not None:
        raise ArenaError("give weights=FILE or w=..., not both")
    if inline is not None:
        weights = parse_weights_text(inline)
    elif source in (None, "tuned", "source", "leave"):
        weights = shipped_weights(source or "tuned")
    else:
        weights = load_weights(source)
    leaves_file = spec.param("leaves")
    leaves = load_leaves(leaves_file, tiles) if leaves_file else None
    return HeuristicAgent(tiles, weights, leaves, endgame=_endgame_on(spec))


def _equity(rules: str, spec: AgentSpec) -> Agent:
    tiles = _tiles(rules)
    leaves_file = spec.param("leaves")
    leaves = load_leaves(leaves_file, tiles) if leaves_file else shipped_leaves(tiles)
    return EquityAgent(tiles, leaves, endgame=_endgame_on(spec))


GAME = GameSpec(
    name="scrabble",
    presets=tuple(TILE_SETS),
    default_rules="english",
    min_players=2,
    max_players=4,
    new_state=lambda rules, players: ScrabbleState.new(_lexicon(rules), players),
    result="score",
    agents={
        "greedy": AgentInfo("greedy", "highest-scoring placement; else exchange all or pass",
                            _greedy),
        "random": AgentInfo("random", "uniformly random legal action", _random),
        "endgame": AgentInfo(
            "endgame", "greedy until the bag is empty, then the exact endgame solver", _endgame,
            params={"time": "CPU seconds a move for the solver (default 5, at most 3600)"},
        ),
        "heuristic": AgentInfo(
            "heuristic",
            "five heuristics weighted per game phase (GA-tuned weights shipped)",
            _heuristic,
            params={
                "weights": "tuned (default), source (the source's final weights), leave "
                           "(tuned with the leave term) or a weights FILE",
                "w": "the weights inline, 20 or 25 numbers joined by / (phase by phase)",
                "leaves": "leave-value FILE for the leave term (default: shipped)",
                "endgame": "on (default: exact endgame solver when the bag is empty) or off",
            },
        ),
        "equity": AgentInfo(
            "equity",
            "score + learned leave value of the tiles kept",
            _equity,
            params={
                "leaves": "leave-value FILE (default: the shipped table)",
                "endgame": "on (default) or off",
            },
        ),
    },
)  # fmt: skip
