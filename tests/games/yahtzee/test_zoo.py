"""The strategy zoo as agents and advisors: legal play and self-consistent prices."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from stratagem.core.game import CHANCE, sample_chance
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee.distribution import POLICIES, moment_tables
from stratagem.games.yahtzee.solver import Solution
from stratagem.games.yahtzee.state import Situation, YahtzeeState
from stratagem.games.yahtzee.strategies import PolicyAgent

ZOO = [p for p in POLICIES if p != "optimal"]


@pytest.mark.parametrize("policy", ZOO)
@pytest.mark.parametrize("rules", ["yahtzee", "yatzy"])
def test_zoo_agents_play_whole_legal_games(
    solved: Callable[[str], Solution], policy: str, rules: str
) -> None:
    sol = solved(rules)
    agent = PolicyAgent(sol, policy)
    rng = np.random.default_rng(3)
    state = YahtzeeState.new(sol.rules, 1)
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            action = agent.act(state, rng)
            assert action in state.legal_actions()
            state = state.apply(action)
    assert state.cards[0].total > 0


@pytest.mark.parametrize("policy", ZOO)
def test_advice_prices_agree_with_the_policy_value_table(
    solved: Callable[[str], Solution], policy: str
) -> None:
    """Over all first throws, the price of the action the strategy takes averages to
    the strategy's exact expected remaining score from the moment kernel."""
    sol = solved("yahtzee")
    ncat = sol.rules.num_categories
    agent = PolicyAgent(sol, policy)
    agent._m1 = moment_tables(sol, policy, min_filled=ncat - 2)[0]
    filled = frozenset(sol.rules.categories[: ncat - 2])  # only chance and yahtzee open
    mask = sum(1 << i for i in range(ncat - 2))
    upper, points = 63, 200
    total = 0.0
    for r in range(D.ROLL_START, D.NUM_KEEPS):
        sit = Situation(sol.rules, D.KEEPS[r], 2, filled, upper, None, points)
        chosen = agent._decide(sit)
        advice = agent.advise_situation(sit)
        price = next(a.value for a in advice if a.action == chosen)
        total += float(D.ROLL_PROBABILITY[r]) * (price - points)
    assert total == pytest.approx(agent._m1[mask, upper, 0], abs=1e-9)
