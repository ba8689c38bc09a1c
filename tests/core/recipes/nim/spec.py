"""Nim for core (the "add a game" recipe, step 1)."""

from __future__ import annotations

from stratagem.core.agent import RandomAgent
from stratagem.core.registry import AgentInfo, GameSpec, Lazy, agent_table

from .coach import NimCoaching
from .players import MultipleOfFour
from .state import PRESETS, NimState

GAME = GameSpec(
    name="nim",
    summary="take 1-3 stones; the last stone wins",
    presets=tuple(PRESETS),
    default_rules="nim-7",
    min_players=2,
    max_players=2,
    rules=PRESETS.__getitem__,
    new=NimState.new,
    result="win",
    cli=Lazy("stratagem.games.nim.cli:app"),  # stratagem nim ...
    codec=Lazy("stratagem.games.nim.codec:NIM"),  # the OpenSpiel and PettingZoo adapters
    coaching=NimCoaching,
    agents=agent_table(
        AgentInfo("four", "leaves a multiple of four", lambda rules: MultipleOfFour()),
        AgentInfo("random", "uniformly random legal move", lambda rules: RandomAgent()),
    ),
)
