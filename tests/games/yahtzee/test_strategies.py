"""The optimal advisor and agent, and the simulation of optimal play."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from stratagem.core.agent import Advisor, Agent
from stratagem.core.errors import InvalidStateError
from stratagem.games.yahtzee import _kernels as K
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.solver import Solution
from stratagem.games.yahtzee.state import Keep, Roll, Score, Situation, YahtzeeState
from stratagem.games.yahtzee.strategies import OptimalStrategy, simulate


@pytest.fixture(scope="module")
def optimal(solved: Callable[[str], Solution]) -> OptimalStrategy:
    return OptimalStrategy(solved("yahtzee"))


def test_optimal_strategy_is_an_agent_and_an_advisor(optimal: OptimalStrategy) -> None:
    assert isinstance(optimal, Agent) and isinstance(optimal, Advisor)


def test_advice_for_four_ones_matches_the_peer_solver(optimal: OptimalStrategy) -> None:
    # yatzy-solver 1.0.0, variant american+forced-joker,
    # option_values("dice 1 1 1 1 4 | rolls 2 | upper 0 | filled -"):
    peer = {
        "keep 1 1 1 1": 270.2986142438951,
        "keep 1 1 1": 254.99448614470032,
        "keep 1 1 1 4": 251.93366052486132,
        "keep 4": 249.8793022353957,
        "keep -": 249.47195021161716,
        "keep 1 1": 249.16547801749246,
        "score ones": 248.06455996489635,
        "score twos": 230.92405231528005,
        "score fours": 227.49652817752394,
    }
    advice = optimal.advise_situation(Situation(preset("yahtzee"), (1, 1, 1, 1, 4), 2))
    values = {str(a.action): a.value for a in advice}
    for action, value in peer.items():
        assert values[action] == pytest.approx(value, abs=1e-9), action
    assert str(advice[0].action) == "keep 1 1 1 1" and advice[0].regret == 0.0


def test_advice_lists_every_option_once_with_nonnegative_regrets(optimal: OptimalStrategy) -> None:
    state = YahtzeeState.new(preset("yahtzee")).apply(Roll((2, 3, 3, 5, 6)))
    advice = optimal.advise(state)
    assert sorted(map(str, (a.action for a in advice))) == sorted(map(str, state.legal_actions()))
    assert advice[0].regret == 0.0
    assert all(a.regret >= 0 for a in advice)
    assert [a.value for a in advice] == sorted((a.value for a in advice), reverse=True)


def test_points_so_far_shift_every_value_equally(optimal: OptimalStrategy) -> None:
    rules = preset("yahtzee")
    base = Situation(rules, (1, 3, 4, 5, 5), 1, frozenset({"ones", "chance"}), 2, None, 20)
    # ones 2 and chance at most 30: the card holds 2..32 points
    more = Situation(rules, (1, 3, 4, 5, 5), 1, frozenset({"ones", "chance"}), 2, None, 30)
    for a, b in zip(optimal.advise_situation(base), optimal.advise_situation(more)):
        assert a.action == b.action and b.value - a.value == pytest.approx(10)


def test_on_a_tie_scoring_ranks_ahead_of_keeping_all_five(optimal: OptimalStrategy) -> None:
    advice = optimal.advise_situation(Situation(preset("yahtzee"), (6, 6, 6, 6, 6), 2))
    assert advice[0].action == Score("yahtzee")
    assert advice[1].action == Keep((6, 6, 6, 6, 6)) and advice[1].regret == 0.0


def test_the_forced_joker_limits_the_boxes_offered(optimal: OptimalStrategy) -> None:
    sit = Situation(preset("yahtzee"), (3, 3, 3, 3, 3), 0, frozenset(), 0, 50)
    assert [str(a.action) for a in optimal.advise_situation(sit)] == ["score threes"]


def test_advisor_refuses_a_situation_of_other_rules(optimal: OptimalStrategy) -> None:
    with pytest.raises(InvalidStateError, match="solved for yahtzee"):
        optimal.advise_situation(Situation(preset("yatzy"), (1, 2, 3, 4, 5), 1))


def test_simulation_with_the_same_seed_gives_the_same_games(
    solved: Callable[[str], Solution],
) -> None:
    import numba

    threads = numba.get_num_threads()
    a = simulate(solved("yahtzee"), 3000, seed=11)
    numba.set_num_threads(1)
    try:
        b = simulate(solved("yahtzee"), 3000, seed=11)  # one thread, same games
    finally:
        numba.set_num_threads(threads)
    c = simulate(solved("yahtzee"), 3000, seed=12)
    np.testing.assert_array_equal(a.scores, b.scores)
    np.testing.assert_array_equal(a.upper_bonus, b.upper_bonus)
    assert not np.array_equal(a.scores, c.scores)


@pytest.mark.parametrize("name", ["yahtzee", "yatzy"])
def test_simulated_mean_is_within_three_standard_errors_of_the_exact_value(
    solved: Callable[[str], Solution], name: str
) -> None:
    result = simulate(solved(name), 40_000, seed=5)
    summary = result.summary()
    assert abs(summary["mean"] - solved(name).expected_score) < 3 * summary["se"]
    assert summary["games"] == 40_000
    assert sum(summary["histogram"].values()) == 40_000


def test_simulation_summary_reports_the_bonus_rates(solved: Callable[[str], Solution]) -> None:
    s = simulate(solved("yahtzee"), 20_000, seed=3).summary()
    # Glenn (2006) and Verhoeff: the optimal player earns the upper bonus in about
    # 68% of games and scores a Yahtzee (50) in about a third.
    assert 0.66 < s["upper_bonus_rate"] < 0.70
    assert 0.32 < s["yahtzee_50_rate"] < 0.36
    assert s["min"] <= s["percentiles"]["50"] <= s["max"]


def test_compiled_simulation_plays_the_same_moves_as_the_protocol_agent(
    solved: Callable[[str], Solution], optimal: OptimalStrategy
) -> None:
    solution = solved("yahtzee")
    rng = np.random.default_rng(99)
    games = 300
    throws = rng.integers(1, 7, size=(games, 13, 3, 5), dtype=np.int8)
    scores = np.zeros(games, dtype=np.int64)
    scratch = [np.zeros(games, dtype=np.int8) for _ in range(3)]
    e0, e1 = solution.turn_tables(0, 0, 0)
    K.simulate_optimal(
        solution.values,
        throws,
        solution.arrays.kernel,
        e0,
        e1,
        scores,
        *scratch,
    )
    for g in range(games):
        state = YahtzeeState.new(solution.rules)
        turn, throw = 0, 0
        while not state.is_terminal():
            if state.rolling:
                n = 5 - len(state.dice)
                state = state.apply(Roll(tuple(int(x) for x in throws[g, turn, throw, :n])))
                throw += 1
                continue
            action = optimal.act(state, rng)
            if isinstance(action, Score):
                turn, throw = turn + 1, 0
            else:
                # Keeping all five at best ties with scoring now, and then the agent scores.
                assert action.dice != state.dice
            state = state.apply(action)
        assert state.returns()[0] == scores[g], g
