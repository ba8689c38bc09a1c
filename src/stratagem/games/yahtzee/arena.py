"""Yahtzee in the arena: presets and agent factories (``stratagem arena agents --game yahtzee``).

Every player has their own card and their own dice; a game has 1 to 4 players.
"""

from __future__ import annotations

from stratagem.core.agent import Agent, RandomAgent
from stratagem.core.arena import AgentInfo, AgentSpec, GameSpec
from stratagem.games.yahtzee.rules import PRESETS, preset
from stratagem.games.yahtzee.solver import solve
from stratagem.games.yahtzee.state import YahtzeeState
from stratagem.games.yahtzee.strategies import OptimalStrategy


def _optimal(rules: str, spec: AgentSpec) -> Agent:
    return OptimalStrategy(solve(preset(rules)))


def _random(rules: str, spec: AgentSpec) -> Agent:
    return RandomAgent()


GAME = GameSpec(
    name="yahtzee",
    presets=tuple(PRESETS),
    default_rules="yahtzee",
    min_players=1,
    max_players=4,
    new_state=lambda rules, players: YahtzeeState.new(preset(rules), players),
    result="score",
    agents={
        "optimal": AgentInfo("optimal", "maximises the expected final score (exact)", _optimal),
        "random": AgentInfo("random", "uniformly random legal action", _random),
    },
)
