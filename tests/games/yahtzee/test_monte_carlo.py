"""The Monte Carlo panel's computation: estimates beside exact values, a minimum of
playouts before two options are compared, progress and cancelling."""

from __future__ import annotations

import pytest

from stratagem.games.yahtzee.monte_carlo import (
    MIN_PLAYOUTS,
    SearchCancelled,
    estimate_options,
)
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.solver import solve
from stratagem.games.yahtzee.state import Situation, YahtzeeState
from stratagem.games.yahtzee.strategies import OptimalStrategy


@pytest.fixture(scope="module")
def late_position() -> tuple[YahtzeeState, dict[str, float]]:
    """Three open boxes, no reroll left: three options, cheap to search."""
    from stratagem.games.yahtzee.assistant import situation_state

    rules = preset("yahtzee")
    open_boxes = {"fives", "full_house", "chance"}
    filled = frozenset(c for c in rules.categories if c not in open_boxes)
    sit = Situation(rules, (5, 5, 5, 2, 2), 0, filled, upper=40, score=150, yahtzee_box=0)
    exact = {str(a.action): a.value for a in OptimalStrategy(solve(rules)).advise_situation(sit)}
    return situation_state(sit), exact


def test_each_row_is_its_estimate_and_its_distance_from_the_exact_value(
    late_position: tuple[YahtzeeState, dict[str, float]],
) -> None:
    state, exact = late_position
    report = estimate_options(state, exact, simulations=400, rollout="greedy", seed=3)
    assert {r.action for r in report.rows} == set(exact)
    assert sum(r.n for r in report.rows) == 400
    for r in report.rows:
        assert r.exact_value == exact[r.action]
        assert r.mean is not None and r.distance == pytest.approx(r.mean - exact[r.action])
    assert report.exact_best == max(exact, key=exact.__getitem__)
    assert report.pick_cost == pytest.approx(exact[report.exact_best] - exact[report.search_best])
    assert report.min_playouts == MIN_PLAYOUTS and "estimated" in report.method


def test_options_with_fewer_than_the_minimum_of_playouts_are_never_called_tied(
    late_position: tuple[YahtzeeState, dict[str, float]],
) -> None:
    state, exact = late_position
    for sims in (30, 150, 600):
        report = estimate_options(state, exact, simulations=sims, seed=1)
        best, *others = report.rows
        assert best.verdict == "best"
        for r in others:
            if r.n < MIN_PLAYOUTS or best.n < MIN_PLAYOUTS:
                assert r.verdict == "too few"
            else:
                assert r.verdict in ("tied", "worse")
    # 30 simulations over three options cannot give any option the minimum
    few = estimate_options(state, exact, simulations=30, seed=1)
    assert all(r.verdict == "too few" for r in few.rows[1:])


def test_progress_is_reported_and_a_cancel_stops_the_search(
    late_position: tuple[YahtzeeState, dict[str, float]],
) -> None:
    state, exact = late_position
    seen: list[int] = []
    estimate_options(state, exact, simulations=300, seed=1, progress=lambda d, n: seen.append(d))
    assert seen[0] == 0 and seen[-1] == 300 and seen == sorted(seen) and len(seen) > 3
    calls: list[int] = []

    def stop_after_two() -> bool:
        calls.append(1)
        return len(calls) > 2

    with pytest.raises(SearchCancelled, match="after 100 simulations"):
        estimate_options(state, exact, simulations=5000, seed=1, cancelled=stop_after_two)
