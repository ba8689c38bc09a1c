"""The Pig solver: published values, an independent oracle, caching, evaluation."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from stratagem.core.errors import InvalidStateError
from stratagem.core.tables import TableCache
from stratagem.games.pig.rules import PigRules, preset
from stratagem.games.pig.solver import FORMAT_VERSION, TABLE_KIND, PigSolution, evaluate, solve
from stratagem.games.pig.state import check_position

from .reference import beat, solve_reference

Solved = Callable[[PigRules], PigSolution]


def test_pig_to_100_matches_neller_and_presser(pig_solved: Solved) -> None:
    # Neller & Presser (2004), "Optimal Play of the Dice Game Pig": the first
    # player wins 53.06% with optimal play, and at 0-0 holds at a turn total of 21.
    sol = pig_solved(preset("pig"))
    assert sol.p_start == pytest.approx(0.530593, abs=5e-7)
    assert sol.best_action(0, 0, 20) == "roll"
    assert sol.best_action(0, 0, 21) == "hold"
    assert sol.num_states == 505_000


@pytest.mark.parametrize(
    ("state", "exact"),
    [
        ((0, 0, 0), Fraction(4, 7)),
        ((0, 0, 1), Fraction(5, 7)),
        ((0, 1, 0), Fraction(2, 5)),
        ((0, 1, 1), Fraction(3, 5)),
        ((1, 0, 0), Fraction(4, 5)),
        ((1, 1, 0), Fraction(2, 3)),
    ],
)
def test_piglet_to_two_matches_the_paper(
    pig_solved: Solved, state: tuple[int, int, int], exact: Fraction
) -> None:
    # Neller & Presser (2004), Piglet to 2: the exact solution of the 2x2 system.
    sol = pig_solved(preset("piglet").with_options(goal=2))
    assert sol.p_win(*state) == pytest.approx(float(exact), abs=1e-13)


VARIANTS = [
    preset("coin-3"),
    preset("piglet").with_options(goal=5),
    preset("pig").with_options(goal=9),
    preset("pig-raab").with_options(goal=8),
    preset("pig").with_options(goal=8, faces=4, bust_faces=(1, 4)),
    preset("pig").with_options(goal=9, bust_scores_one=True),
    preset("coin-3").with_options(catch_up_turn=True),
    preset("pig-raab").with_options(goal=7, catch_up_turn=True),
    preset("pig").with_options(goal=8, catch_up_turn=True, bust_scores_one=True),
]


@pytest.mark.parametrize("rules", VARIANTS, ids=lambda r: r.describe())
def test_every_state_matches_a_plain_value_iteration(pig_solved: Solved, rules: PigRules) -> None:
    sol = pig_solved(rules)
    ref = solve_reference(rules)
    g = rules.goal
    checked = 0
    for (role, i, j, k), value in ref.items():
        if i + k >= g and not (rules.catch_up_turn and role == 0):
            continue
        if k > 3 * g:
            continue  # far past the goal the oracle's cap matters
        try:
            check_position(rules, i, j, k)
        except InvalidStateError:
            continue  # the oracle also iterates positions that cannot occur
        assert sol.p_win(i, j, k, starter=role == 0) == pytest.approx(value, abs=1e-12), (
            role,
            i,
            j,
            k,
        )
        checked += 1
    assert checked > 20


def test_a_catch_up_turn_gives_the_second_player_the_edge(pig_solved: Solved) -> None:
    plain = pig_solved(preset("pig-raab"))
    catch = pig_solved(preset("pig-raab").with_options(catch_up_turn=True))
    assert plain.p_start > 0.5 > catch.p_start
    # The starter on 49 with 6 in hand (55 >= 50) may roll on to set a higher bar.
    p_roll, p_hold = catch.action_values(49, 40, 6)
    assert p_hold == pytest.approx(1 - beat(catch.rules, 40, 55), abs=1e-15)
    assert p_roll is not None


def test_bust_scores_one_needs_a_single_sweep_per_pair(pig_solved: Solved) -> None:
    sol = pig_solved(preset("pig").with_options(bust_scores_one=True))
    assert sol.max_sweeps == 1
    assert sol.sweeps == 100 * 101 // 2  # one per pair {(i, j), (j, i)}


def test_optimal_policy_evaluated_against_itself_gives_back_the_values(
    pig_solved: Solved,
) -> None:
    for rules in (preset("pig-raab"), preset("pig-raab").with_options(catch_up_turn=True)):
        sol = pig_solved(rules)
        both = (sol.policy(True), sol.policy(False))
        e = evaluate(rules, both, both)
        assert e.a_first == pytest.approx(sol.p_start, abs=1e-12)
        assert e.coin == pytest.approx(0.5, abs=1e-12)


def test_the_optimum_wins_at_least_half_against_any_rule(pig_solved: Solved) -> None:
    from stratagem.games.pig.strategies import HoldAt, KeepPace, OptimalAgent, agent_policies

    rules = preset("pig-raab")
    opt = agent_policies(OptimalAgent(pig_solved(rules)))
    for agent in (HoldAt(rules, 10), HoldAt(rules, 15), HoldAt(rules, 20), KeepPace(rules)):
        assert evaluate(rules, opt, agent.policy()).coin > 0.5


def test_second_solve_loads_the_cached_table(tmp_path: Path) -> None:
    rules = preset("pig").with_options(goal=30)
    cache = TableCache(tmp_path)
    first = solve(rules, cache=cache)
    second = solve(rules, cache=cache)
    assert (first.cached, second.cached) == (False, True)
    np.testing.assert_array_equal(first.first, second.first)
    assert second.sweeps == first.sweeps


def test_a_corrupt_cached_table_is_rebuilt(tmp_path: Path) -> None:
    rules = preset("pig").with_options(goal=30, catch_up_turn=True)
    cache = TableCache(tmp_path)
    good = solve(rules, cache=cache).p_start
    path = cache.path(TABLE_KIND, rules.fingerprint, FORMAT_VERSION)
    path.write_bytes(path.read_bytes()[:-8] + b"\x00" * 8)
    with pytest.warns(UserWarning, match="corrupt"):
        again = solve(rules, cache=cache)
    assert not again.cached and again.p_start == good


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((100, 0, 0), "my score must be 0..99"),
        ((0, -1, 0), "opponent's score must be 0..99"),
        ((0, 0, -2), "turn total must be a whole number"),
        ((0, 0, 1), "turn total of 1 cannot occur"),
        ((1, 0, 0), "my score of 1 cannot occur"),
    ],
)
def test_impossible_positions_are_refused(
    pig_solved: Solved, args: tuple[int, int, int], message: str
) -> None:
    with pytest.raises(InvalidStateError, match=message):
        pig_solved(preset("pig")).p_win(*args)


def test_two_players_that_rarely_bank_are_evaluated_exactly_in_one_pass() -> None:
    """Issue 33: hold:goal against hold:goal on a coin ran for minutes and ended with "did
    not converge" (value iteration, whose sweeps shrink the error by 1 - 2**-20 each).
    Each turn banks the goal only after 20 heads in a row (q = 2**-20), otherwise scores
    nothing, so the starter wins with probability q + (1 - q)(1 - P): P = 1 / (2 - q)."""
    from stratagem.games.pig.strategies import HoldAt

    rules = preset("piglet").with_options(goal=40, bust_faces=[1])  # face 2 adds 2
    hold = HoldAt(rules, 40).policy()
    e = evaluate(rules, hold, hold)
    q = 2.0**-20
    assert e.a_first == pytest.approx(1 / (2 - q), abs=1e-12)
    assert e.b_first == pytest.approx(1 - 1 / (2 - q), abs=1e-12)


@pytest.mark.parametrize("options", [{}, {"catch_up_turn": True}, {"bust_scores_one": True}])
def test_the_one_pass_evaluation_agrees_with_value_iteration(options: dict[str, bool]) -> None:
    from stratagem.games.pig.solver import evaluate_by_iteration
    from stratagem.games.pig.strategies import HoldAt, OptimalAgent, agent_policies

    rules = preset("pig").with_options(goal=30, **options)
    opt = agent_policies(OptimalAgent(solve(rules, use_cache=False)))
    hold = HoldAt(rules, 12).policy()
    one, iterated = evaluate(rules, opt, hold), evaluate_by_iteration(rules, opt, hold)
    assert one.a_first == pytest.approx(iterated.a_first, abs=1e-12)
    assert one.b_first == pytest.approx(iterated.b_first, abs=1e-12)
