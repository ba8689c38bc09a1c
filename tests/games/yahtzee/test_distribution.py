"""Exact score distributions and exact evaluation of fixed policies."""

from __future__ import annotations

import json
import mmap
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from stratagem.core.errors import InvalidStateError
from stratagem.games.yahtzee.distribution import (
    POLICIES,
    _Release,
    moment_tables,
    policy_moments,
    reached_states,
    remaining_distributions,
    score_distribution,
)
from stratagem.games.yahtzee.solver import Solution, reachable_states

LATE = 3  # open boxes: the fast tests compute the states with at most this many


@pytest.mark.parametrize("name", ["yahtzee", "yatzy"])
def test_remaining_distributions_have_the_solver_mean_and_total_one(
    solved: Callable[[str], Solution], name: str
) -> None:
    sol = solved(name)
    late = sol.rules.num_categories - LATE
    table = remaining_distributions(sol, min_filled=late)
    m1, m2 = moment_tables(sol, "optimal", min_filled=late)
    layers = reachable_states(sol.rules, sol.arrays)
    states = np.concatenate(layers[late:])
    means, squares, totals = [], [], []
    for mask, u, y in states:
        low, p = table.pmf(int(mask), int(u), int(y))
        r = np.arange(low, low + len(p), dtype=np.float64)
        means.append(float(np.dot(r, p)))
        squares.append(float(np.dot(r * r, p)))
        totals.append(float(p.sum()))
    idx = (states[:, 0], states[:, 1], states[:, 2])
    np.testing.assert_allclose(totals, 1.0, atol=1e-12)
    # Two kernels agree: the pmfs' moments are the moment tables' values...
    np.testing.assert_allclose(means, m1[idx], atol=1e-9)
    np.testing.assert_allclose(squares, m2[idx], rtol=1e-11, atol=1e-9)
    # ...and the optimal policy's mean is the solver's value.
    np.testing.assert_allclose(means, sol.values[idx], atol=1e-9)
    checked = len(states)
    assert checked > 5_000


def test_lean_layers_hold_the_same_distributions(solved: Callable[[str], Solution]) -> None:
    """keep="last" without a sink shares equal rows of one mask and hands back the pages
    of rows no longer read: the last layer's distributions are the same, bit for bit."""
    sol = solved("yahtzee")
    late = sol.rules.num_categories - LATE
    full = remaining_distributions(sol, min_filled=late)
    lean = remaining_distributions(sol, min_filled=late, keep="last")
    layer = reachable_states(sol.rules, sol.arrays)[late]
    for mask, u, y in layer:
        low, p = full.pmf(int(mask), int(u), int(y))
        low2, p2 = lean.pmf(int(mask), int(u), int(y))
        assert low == low2
        np.testing.assert_array_equal(p, p2)
    # Rows equal to an earlier one of the same mask are stored once.
    ids = lean.sid[layer[:, 0], layer[:, 1], layer[:, 2]]
    assert len(lean.data) < 0.5 * lean.lengths[ids].sum()


def test_only_the_states_a_game_reaches(solved: Callable[[str], Solution]) -> None:
    sol = solved("yatzy")
    ncat = sol.rules.num_categories
    late = ncat - LATE
    layers = reachable_states(sol.rules, sol.arrays)
    mask, u, y = (int(x) for x in layers[late][len(layers[late]) // 2])
    reached = reached_states(sol, start=(mask, u, y))
    assert reached[mask, u, y]
    assert 0 < int(reached.sum()) < sum(len(x) for x in layers[late:])
    only = remaining_distributions(sol, min_filled=late, keep="last", only=reached)
    full = remaining_distributions(sol, min_filled=late)
    low, p = only.pmf(mask, u, y)
    low2, p2 = full.pmf(mask, u, y)
    assert low == low2
    np.testing.assert_array_equal(p, p2)
    # A set that leaves out a state the policy moves to is refused, never read as garbage.
    last = layers[ncat - 1]
    gone = last[reached[last[:, 0], last[:, 1], last[:, 2]]][0]
    bad = reached.copy()
    bad[gone[0], gone[1], gone[2]] = False
    with pytest.raises(ValueError, match="leaves out a state"):
        remaining_distributions(sol, min_filled=late, keep="last", only=bad)
    with pytest.raises(InvalidStateError, match="cannot occur"):
        reached_states(sol, start=(0, 5, 0))  # nothing scored, yet 5 in the upper section


def test_rows_are_released_once_every_reader_is_done() -> None:
    """A mask's rows go back to the system when every mask one box short of it is done;
    only whole pages inside its rows (another mask's rows may share the edge pages)."""
    calls: list[tuple[int, int]] = []

    class Region:
        def madvise(self, option: int, start: int, length: int) -> None:
            assert option == mmap.MADV_DONTNEED
            calls.append((start, length))

    page = mmap.PAGESIZE
    n = page // 8  # float64 values a page holds
    groups = {0b011: (0, 2 * n), 0b101: (2 * n, 3 * n + 5), 0b110: (3 * n + 5, 6 * n)}
    # The layer being computed holds only mask 0b001: 0b110 has no reader left.
    release = _Release(Region(), 8, groups, [0b001], ncat=3)
    assert calls == [(4 * page, 2 * page)]
    release.done(0b001)
    assert calls == [(4 * page, 2 * page), (0, 2 * page), (2 * page, page)]


def test_float32_tables_stay_within_single_precision(solved: Callable[[str], Solution]) -> None:
    sol = solved("yahtzee")
    exact = remaining_distributions(sol, min_filled=11)
    small = remaining_distributions(sol, dtype=np.float32, min_filled=11)
    assert small.data.dtype == np.float32
    assert small.nbytes < exact.nbytes
    low, p = exact.pmf(0b0111_1111_1111_0, 10, 1)
    low2, p2 = small.pmf(0b0111_1111_1111_0, 10, 1)
    assert low == low2
    np.testing.assert_allclose(p2, p, rtol=1e-6, atol=1e-9)


def test_last_turn_distribution_by_hand(solved: Callable[[str], Solution]) -> None:
    """Only Chance open: the remaining score is the sum of the dice kept by the optimum.

    With one box left the optimum maximises the expected sum: keep 5s and 6s
    with two rolls left, 4s and up with one (the classic 70.2 / 3 = 23.33 game).
    """
    sol = solved("yahtzee-no-bonus")
    chance = sol.rules.categories.index("chance")
    full = (1 << sol.rules.num_categories) - 1
    mask = full & ~(1 << chance)
    table = remaining_distributions(sol, min_filled=12)
    low, p = table.pmf(mask, 63, 0)
    # Independent enumeration: one die's final value under the keep rules, per die.
    one_roll = np.full(6, 1 / 6)
    faces = np.arange(1, 7)
    after_one = np.where(faces >= 4, one_roll, 0.0)  # keep 4-6 with one roll left
    after_one = after_one + (1 / 2) * one_roll  # else reroll: uniform
    die = np.where(faces >= 5, one_roll, 0.0) + (4 / 6) * after_one  # keep 5-6, else go on
    total = np.array([1.0])
    for _ in range(5):
        total = np.convolve(total, die)  # sums 5..30 from index 0
    assert low == 5
    np.testing.assert_allclose(p, total, atol=1e-12)
    assert float(np.dot(np.arange(5, 31), p)) == pytest.approx(5 * 14 / 3, abs=1e-12)


def test_unknown_policy_and_unreachable_state_are_named(
    solved: Callable[[str], Solution],
) -> None:
    sol = solved("yatzy")
    with pytest.raises(InvalidStateError, match="unknown Yahtzee strategy 'lucky'"):
        policy_moments(sol, "lucky")
    table = remaining_distributions(sol, min_filled=14)
    with pytest.raises(InvalidStateError, match="cannot occur"):
        table.pmf(0, 0, 0)


def test_fixed_policies_are_no_better_than_the_optimum_late_in_the_game(
    solved: Callable[[str], Solution],
) -> None:
    sol = solved("yahtzee")
    late = sol.rules.num_categories - 2
    best, _ = moment_tables(sol, "optimal", min_filled=late)
    layers = reachable_states(sol.rules, sol.arrays)
    states = np.concatenate(layers[late:])
    idx = (states[:, 0], states[:, 1], states[:, 2])
    for policy in POLICIES:
        m1, m2 = moment_tables(sol, policy, min_filled=late)
        assert np.all(m1[idx] <= best[idx] + 1e-9), policy
        assert np.all(m2[idx] - m1[idx] ** 2 >= -1e-6), policy


# Published values. Optimal SD: Glenn (2006), "An optimal strategy for Yahtzee",
# yahtzee-free-joker 59.6117; Scandinavian yatzy 38.4846 (1M-game simulation quoted in
# issue 5); medians 248 and 249 from the same simulations.
@pytest.mark.slow
@pytest.mark.parametrize(
    ("name", "sd", "median"), [("yahtzee-free-joker", 59.6117, 248), ("yatzy", 38.4846, 249)]
)
def test_optimal_final_score_distribution_matches_published_values(
    solved: Callable[[str], Solution], name: str, sd: float, median: int
) -> None:
    sol = solved(name)
    dist = score_distribution(sol)
    assert dist.mean == pytest.approx(sol.expected_score, abs=1e-9)
    assert dist.sd == pytest.approx(sd, abs=0.05)  # a 1M-game simulation's SD has SE ~0.04
    assert dist.median == median
    assert policy_moments(sol)[1] == pytest.approx(dist.sd, abs=1e-9)
    assert 0.0 < dist.upper_bonus_rate < 1.0  # type: ignore[operator]


# Glenn (2006), "An optimal strategy for Yahtzee", CS-TR-0002, strategies on
# yahtzee-free-joker (mean): greedy 218.05, Yahtzees and straights 202.51, optimal 254.59.
# Our rule definitions are our own (docs/results/yahtzee_zoo.md); these two agree within 2.
@pytest.mark.slow
@pytest.mark.parametrize(
    ("policy", "mean"), [("greedy", 218.05), ("yahtzee-and-straights", 202.51)]
)
def test_zoo_means_near_glenns_table(
    solved: Callable[[str], Solution], policy: str, mean: float
) -> None:
    assert policy_moments(solved("yahtzee-free-joker"), policy)[0] == pytest.approx(mean, abs=2)


def test_a_cached_empty_card_distribution_is_printed_without_solving_or_numba(
    tmp_path: Path,
) -> None:
    """`yahtzee distribution` asked again reads the cached result: nothing solved, numba
    not even imported (the whole-process time of a repeated question is start-up)."""
    from stratagem.core.tables import TableCache
    from stratagem.games.yahtzee.distribution import SCORE_KIND, SCORE_VERSION
    from stratagem.games.yahtzee.rules import preset

    rules = preset("yatzy")
    pmf = np.zeros(301)
    pmf[[100, 300]] = 0.5  # a made-up result: the command must print this one
    TableCache(tmp_path).save(
        SCORE_KIND, f"{rules.fingerprint}-optimal", SCORE_VERSION,
        {"pmf": pmf, "facts": np.array([0.0, 0.25, 0.5, 0.0])},
    )  # fmt: skip
    probe = (
        "import sys\n"
        "sys.argv = ['stratagem', 'yahtzee', 'distribution', '--rules', 'yatzy', '--json']\n"
        "from stratagem.cli import main\n"
        "try:\n    main()\nfinally:\n    print('numba' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120,
        env={**os.environ, "STRATAGEM_CACHE_DIR": str(tmp_path)},
    )  # fmt: skip
    summary_line, numba_loaded = out.stdout.strip().splitlines()
    summary = json.loads(summary_line)["result"]  # inside the one JSON envelope
    assert summary["mean"] == 200.0
    assert summary["min"] == 100 and summary["max"] == 300
    assert numba_loaded == "False"
