"""Scrabble in the arena: the built-in lexicons as presets, greedy and random agents.

The presets ``english`` and ``czech`` play with the built-in informal
lexicons (derived from wordfreq; see :mod:`.lexicon`).
"""

from __future__ import annotations

from functools import lru_cache

from stratagem.core.agent import Agent, RandomAgent
from stratagem.core.arena import AgentInfo, AgentSpec, GameSpec
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
    },
)  # fmt: skip
