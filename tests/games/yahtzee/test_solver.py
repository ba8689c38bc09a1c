"""The exact solver: published optimal values, invariants, caching."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from itertools import product
from pathlib import Path

import numpy as np
import pytest

from stratagem.core.tables import TableCache
from stratagem.games.yahtzee.rules import UPPER, preset
from stratagem.games.yahtzee.solver import FORMAT_VERSION, TABLE_KIND, Solution, solve

# Optimal expected scores from the empty card.
#   yahtzee:            254.5877287345, yatzy-solver 1.0.0 variant `american+forced-joker`
#   yahtzee-free-joker: 254.5896094820, Verhoeff's solitaire Yahtzee solver; Glenn (2006) 254.59
#   yahtzee-no-bonus:   245.8707745141, Glenn (2006) 245.87
#   yatzy:              248.4399893779, yatzy-solver `yatzy-scandinavian` (the often quoted
#                       248.63 comes from a bug that let four of a kind score as two pairs)
GOLDEN = {
    "yahtzee": 254.5877287345,
    "yahtzee-free-joker": 254.5896094820,
    "yahtzee-no-bonus": 245.8707745141,
    "yatzy": 248.4399893779,
}


@pytest.mark.parametrize("name", list(GOLDEN))
def test_expected_score_matches_the_published_value(
    solved: Callable[[str], Solution], name: str
) -> None:
    assert solved(name).expected_score == pytest.approx(GOLDEN[name], abs=1e-9)


def _reachable_upper_counts() -> int:
    """Sum over the 64 sets of filled upper boxes of the distinct capped totals they allow."""
    total = 0
    for mask in range(64):
        faces = [f for f in range(1, 7) if mask >> (f - 1) & 1]
        totals = {
            min(63, sum(f * n for f, n in zip(faces, ns)))
            for ns in product(range(6), repeat=len(faces))
        }
        total += len(totals)
    return total


def test_state_counts_follow_from_reachable_upper_totals(
    solved: Callable[[str], Solution],
) -> None:
    per_upper = _reachable_upper_counts()
    # Yahtzee: 7 lower boxes; the flag doubles the states where the Yahtzee box is filled.
    assert solved("yahtzee-no-bonus").num_states == per_upper * 2**7
    assert solved("yahtzee").num_states == per_upper * (2**6 + 2 * 2**6)
    # Yatzy: 9 lower boxes, no flag.
    assert solved("yatzy").num_states == per_upper * 2**9


def test_only_the_yatzy_box_left_is_worth_fifty_times_the_chance_of_a_yatzy(
    solved: Callable[[str], Solution],
) -> None:
    # P(five of a kind within three rolls, keeping the most common face)
    # = 2,783,176 / 6**10 (a classic result, e.g. Verhoeff's Yahtzee probability pages).
    rules = preset("yatzy")
    mask = (1 << rules.num_categories) - 1 - (1 << rules.category_index("yatzy"))
    assert solved("yatzy").state_value(mask, 63, 0) == pytest.approx(
        50 * 2_783_176 / 6**10, abs=1e-12
    )


def test_the_full_card_is_worth_nothing_more(solved: Callable[[str], Solution]) -> None:
    solution = solved("yahtzee")
    full = (1 << 13) - 1
    assert np.all(solution.values[full][~np.isnan(solution.values[full])] == 0.0)


def test_unreachable_upper_totals_are_skipped(solved: Callable[[str], Solution]) -> None:
    solution = solved("yahtzee")
    ones_only = 1 << UPPER.index("ones")
    row = solution.values[ones_only, :, 0]
    assert np.flatnonzero(~np.isnan(row)).tolist() == [0, 1, 2, 3, 4, 5]


def test_values_never_increase_when_a_box_is_filled_for_nothing(
    solved: Callable[[str], Solution],
) -> None:
    # Scratching a lower box (0 points) can only lose value.
    solution = solved("yahtzee-no-bonus")
    values = solution.values[:, :, 0]
    rng = np.random.default_rng(7)
    for mask in rng.integers(0, 1 << 13, 300):
        for c in range(6, 13):
            if not mask >> c & 1:
                u = int(rng.choice(np.flatnonzero(~np.isnan(values[mask]))))
                assert values[mask | 1 << c, u] <= values[mask, u] + 1e-9


def test_cold_solve_reports_progress_up_to_every_state(tmp_path: Path) -> None:
    seen: list[tuple[int, int]] = []
    solution = solve(
        preset("yahtzee-no-bonus"),
        cache=TableCache(tmp_path),
        progress=lambda d, t: seen.append((d, t)),
    )
    assert not solution.cached
    assert seen[-1][0] == seen[-1][1] == solution.num_states
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_second_solve_loads_the_identical_table_from_the_cache(tmp_path: Path) -> None:
    cache = TableCache(tmp_path)
    first = solve(preset("yahtzee-no-bonus"), cache=cache)
    second = solve(preset("yahtzee-no-bonus"), cache=cache)
    assert (first.cached, second.cached) == (False, True)
    np.testing.assert_array_equal(first.values, second.values)


def test_a_corrupt_cached_table_is_rebuilt_never_used(tmp_path: Path) -> None:
    cache = TableCache(tmp_path)
    rules = preset("yahtzee-no-bonus")
    solve(rules, cache=cache)
    path = cache.path(TABLE_KIND, rules.fingerprint, FORMAT_VERSION)
    blob = bytearray(path.read_bytes())
    blob[-100] ^= 0x40  # one flipped bit inside the value table
    path.write_bytes(bytes(blob))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        again = solve(rules, cache=cache)
    assert any("corrupt" in str(w.message) for w in caught)
    assert not again.cached
    assert again.expected_score == pytest.approx(GOLDEN["yahtzee-no-bonus"], abs=1e-9)
    assert solve(rules, cache=cache).cached


def test_rules_fingerprint_ignores_the_name_but_not_the_rules() -> None:
    from dataclasses import replace

    rules = preset("yahtzee")
    assert replace(rules, name="mine").fingerprint == rules.fingerprint
    assert replace(rules, upper_bonus=30).fingerprint != rules.fingerprint
    assert len({preset(n).fingerprint for n in GOLDEN}) == 4
