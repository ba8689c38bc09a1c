"""Scrabble for core: the built-in lexicons as presets; greedy, random and endgame agents.

The presets ``english`` and ``czech`` play with the built-in informal
lexicons (derived from wordfreq; see :mod:`.lexicon`). A game's rules object
is its :class:`~stratagem.games.scrabble.lexicon.Lexicon` (which holds the tile set).
"""

from __future__ import annotations

from functools import lru_cache

from stratagem.core.agent import RandomAgent
from stratagem.core.registry import AgentInfo, GameSpec, Param, agent_table
from stratagem.games.scrabble.endgame import EndgameAgent
from stratagem.games.scrabble.lexicon import Lexicon, default_lexicon
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.strategies import GreedyAgent
from stratagem.games.scrabble.tiles import TILE_SETS


@lru_cache(maxsize=4)
def lexicon(rules: str) -> Lexicon:
    """The built-in lexicon of a preset, loaded once per process."""
    return default_lexicon(rules)


AGENTS = (
    AgentInfo("greedy", "highest-scoring placement; else exchange all or pass",
              lambda rules: GreedyAgent()),
    AgentInfo("random", "uniformly random legal action", lambda rules: RandomAgent()),
    AgentInfo(
        "endgame", "greedy until the bag is empty, then the exact endgame solver",
        lambda rules, time: EndgameAgent(GreedyAgent(), time_limit=time),
        (Param("time", float, 5.0, "CPU seconds a move for the solver", low=0.0, low_open=True,
               high=3600.0),),
    ),
)  # fmt: skip

GAME = GameSpec(
    name="scrabble",
    summary="Scrabble with a built-in lexicon and its tile set",
    presets=tuple(TILE_SETS),
    default_rules="english",
    min_players=2,
    max_players=4,
    rules=lexicon,
    new=ScrabbleState.new,
    result="score",
    agents=agent_table(*AGENTS),
    rules_type=Lexicon,
)
