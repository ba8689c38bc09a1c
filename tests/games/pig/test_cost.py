"""Pig work is estimated before it starts; what would take hours or too much memory is
refused with the estimate; a solve reports its progress."""

from __future__ import annotations

import re
import time

import pytest

from stratagem.games.pig import cost
from stratagem.games.pig.cost import WorkTooLargeError, check_cost, solve_cost, thumb_cost
from stratagem.games.pig.rules import preset
from stratagem.games.pig.solver import solve
from tests.cli_outcome import outcome


def test_a_rule_table_search_of_days_is_refused_at_once_with_its_estimate() -> None:
    """Issue 33: `pig rules --goal 400` ran for minutes (hours with more rows)."""
    start = time.perf_counter()
    code, output = outcome(["pig", "rules", "--goal", "400", "--max-rows", "16"])
    assert code == 2
    assert re.search(r"would take about [0-9.]+ (hours|days)", output)
    assert "the limit is 60 minutes" in output
    assert "fewer rows" in output
    assert time.perf_counter() - start < 10  # refused before the solve, not after


def test_work_over_the_free_memory_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cost, "available_memory", lambda: 100 << 20)
    rules = preset("pig").with_options(goal=300)
    with pytest.raises(WorkTooLargeError, match="MB of memory and 100 MB is free"):
        solve(rules, use_cache=False)


def test_estimates_grow_with_the_work() -> None:
    small, large = preset("pig"), preset("pig").with_options(goal=200, faces=100)
    catch = large.with_options(catch_up_turn=True)
    assert solve_cost(small).seconds < solve_cost(large).seconds < solve_cost(catch).seconds
    assert thumb_cost(small, 1).seconds < thumb_cost(small, 8).seconds
    with pytest.raises(WorkTooLargeError, match="would take about"):
        check_cost(solve_cost(catch), "solving", max_seconds=60)


def test_a_solve_reports_its_progress_to_the_whole() -> None:
    seen: list[tuple[int, int]] = []
    solve(
        preset("pig").with_options(goal=30),
        use_cache=False,
        progress=lambda d, t: seen.append((d, t)),
    )
    done = [d for d, _ in seen]
    assert done == sorted(done) and seen[-1][0] == seen[-1][1] and len(seen) == 2 * 30 - 1
