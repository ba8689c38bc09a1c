"""The high-score build solves each class of equivalent states once (issue 35) and
gives the same table as solving every state on its own; a cancelled build leaves
no cache file behind."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from stratagem.core.tables import TableCache
from stratagem.games.yahtzee import high_score as H
from stratagem.games.yahtzee.solver import Solution, reachable_states


@pytest.mark.parametrize("name", ["yahtzee", pytest.param("yatzy", marks=pytest.mark.slow)])
def test_shared_classes_give_the_table_of_every_state_solved_alone(
    name: str, solved: Callable[[str], Solution]
) -> None:
    """Equal element for element: bands, offsets and stored values of the last layers."""
    solution = solved(name)
    low = solution.rules.num_categories - 2
    shared = H.build_table(solution, dtype=np.float64, min_filled=low)
    alone = H.build_table(solution, dtype=np.float64, min_filled=low, share=False)
    for array in ("sid", "lo", "ln", "off"):
        assert np.array_equal(getattr(shared, array), getattr(alone, array)), array
    for filled in range(low, solution.rules.num_categories + 1):
        assert np.array_equal(shared.layers[filled], alone.layers[filled])


def test_a_class_holds_states_of_different_upper_totals(solved: Callable[[str], Solution]) -> None:
    """Classes merge states (so the equality above is tested on shared solves), and only
    states of one mask and flag whose upper totals no open upper sum separates."""
    solution = solved("yahtzee")
    rules = solution.rules
    layer = reachable_states(rules, solution.arrays)[rules.num_categories - 2]
    heads, of_class = H.bonus_classes(layer, solution.arrays.kernel, rules.upper_bonus_threshold)
    assert len(heads) < len(layer)
    head = layer[heads[of_class]]
    assert np.array_equal(head[:, [0, 2]], layer[:, [0, 2]])
    merged = head[:, 1] != layer[:, 1]
    assert merged.any()
    # Sixes alone open among the upper boxes: 1..6 short are one class, 7..12 another.
    upper = [c for c in range(rules.num_categories) if solution.arrays.kernel.upper_face[c] > 0]
    mask = sum(1 << c for c in upper if solution.arrays.kernel.upper_face[c] != 6)
    t = rules.upper_bonus_threshold
    card = np.array([[mask, t - d, 0] for d in (1, 6, 7, 12, 13)], dtype=np.int64)
    _, cls = H.bonus_classes(card, solution.arrays.kernel, t)
    assert cls[0] == cls[1] != cls[2] == cls[3] != cls[4]


def test_a_cancelled_build_leaves_no_cache_file(
    tmp_path: Path, solved: Callable[[str], Solution]
) -> None:
    """Ctrl-C (here from the progress callback) mid-build: nothing is left in the cache."""
    solution = solved("yahtzee")
    calls: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> None:
        calls.append((done, total))
        raise KeyboardInterrupt

    H._OPEN.clear()
    with pytest.raises(KeyboardInterrupt):
        H.high_score_table(solution, cache=TableCache(tmp_path), progress=progress)
    assert len(calls) == 1 and 0 < calls[0][0] < calls[0][1]
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == []


def test_shared_classes_give_the_same_remaining_distributions(
    solved: Callable[[str], Solution],
) -> None:
    """The remaining-score build shares classes for the optimum (equal element for
    element to computing every state) and not for the heuristic, whose card values
    tell the upper totals of a class apart (its numbers are equal either way)."""
    from stratagem.games.yahtzee import distribution as D

    solution = solved("yahtzee")
    low = solution.rules.num_categories - 2
    for policy in ("optimal", "heuristic"):
        shared = D.remaining_distributions(solution, policy, min_filled=low - 1, keep="last")
        alone = D.remaining_distributions(
            solution, policy, min_filled=low - 1, keep="last", share=False
        )
        for array in ("sid", "offsets", "lows", "lengths", "data"):
            assert np.array_equal(getattr(shared, array), getattr(alone, array)), array
    assert D._classes_agree(solution, reachable_states(solution.rules, solution.arrays),
                            D._Kernels(solution))  # fmt: skip
    heuristic = D._Kernels(solution, D._policy_id("heuristic"))
    assert not D._classes_agree(solution, reachable_states(solution.rules, solution.arrays),
                                heuristic)  # fmt: skip


def test_a_cancelled_remaining_score_build_leaves_no_cache_file(
    tmp_path: Path, solved: Callable[[str], Solution]
) -> None:
    """The page's remaining-score tables (built through shared classes): Ctrl-C from the
    progress callback mid-build leaves nothing in the cache and nothing remembered."""
    from stratagem.games.yahtzee import match as M

    solution = solved("yahtzee")
    calls: list[tuple[int, int]] = []

    def progress(done: int, total: int) -> None:
        calls.append((done, total))
        raise KeyboardInterrupt

    M._TABLES.pop(solution.rules.name, None)
    with pytest.raises(KeyboardInterrupt):
        M.optimal_remaining(solution, cache=TableCache(tmp_path), progress=progress)
    assert len(calls) == 1 and 0 < calls[0][0] < calls[0][1]
    assert [p.name for p in tmp_path.rglob("*") if p.is_file()] == []
    assert solution.rules.name not in M._TABLES
