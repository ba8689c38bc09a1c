"""Scrabble in the arena: the built-in lexicons as presets; greedy, random and endgame agents.

The presets ``english`` and ``czech`` play with the built-in informal
lexicons (derived from wordfreq; see :mod:`.lexicon`).
"""

from __future__ import annotations

from functools import lru_cache

from stratagem.core.agent import Agent, RandomAgent
from stratagem.core.arena import AgentInfo, AgentSpec, ArenaError, GameSpec
from stratagem.games.scrabble.endgame import EndgameAgent
from stratagem.games.scrabble.lexicon import Lexicon, default_lexicon
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.strategies import GreedyAgent
from stratagem.games.scrabble.tiles import TILE_SETS


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
    },
)  # fmt: skip
