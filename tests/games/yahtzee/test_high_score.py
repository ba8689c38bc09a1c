"""The high-score table and strategy agree with an independent brute force.

``high_score_reference.py`` enumerates every roll, keep and box of cards with
one to three open boxes for every target at once, sharing nothing with the
kernels; the table must equal it to 1e-12 when solved in double precision
and to 1e-6 as stored (single precision).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from stratagem.core.errors import InvalidStateError
from stratagem.core.tables import TableCache
from stratagem.games.yahtzee import high_score as H
from stratagem.games.yahtzee.rules import PRESETS, preset
from stratagem.games.yahtzee.solver import Solution
from stratagem.games.yahtzee.state import Keep, Score, Situation
from tests.games.yahtzee.high_score_reference import TOP, HighScoreReference
from tests.games.yahtzee.test_reference_solver import card_with_open, table_index

# (open boxes, true upper total, Yahtzee box) per preset family: bonuses, jokers, thresholds.
CARDS = {
    "yahtzee": [
        (("sixes", "full_house"), 40, 50),
        (("yahtzee", "chance", "sixes"), 45, None),
        (("ones", "twos", "threes"), 52, 50),
        (("chance",), 30, 0),
        (("full_house", "small_straight"), 63, 50),
        (("yahtzee",), 50, None),
    ],
    "yahtzee-free-joker": [
        (("ones", "large_straight"), 60, 50),
        (("twos", "small_straight", "chance"), 50, 0),
    ],
    "yahtzee-no-bonus": [(("yahtzee", "chance", "fives"), 40, None), (("sixes",), 57, 0)],
    "yatzy": [(("yatzy", "two_pairs", "sixes"), 45, None), (("ones", "chance"), 61, None)],
}


def card_table(
    solution: Solution, card: tuple[int, int, int], dtype: type[np.floating]
) -> H.HighScoreTable:
    """The table of every state a game from ``card`` can reach."""
    return H.build_table(solution, dtype=dtype, start=card)


def values_over_t(table: H.HighScoreTable, index: tuple[int, int, int]) -> np.ndarray:
    return np.array([table.value(*index, t) for t in range(TOP)])


FAST_CARDS = {("yahtzee", 0), ("yatzy", 0)}
"""One card per family in the fast suite; the rest run with the slow tests."""


@pytest.mark.parametrize(
    ("name", "card"),
    [
        pytest.param(name, card, marks=() if (name, i) in FAST_CARDS else pytest.mark.slow)
        for name, cards in CARDS.items()
        for i, card in enumerate(cards)
    ],
)
def test_table_equals_brute_force(
    solved: Callable[[str], Solution],
    name: str,
    card: tuple[tuple[str, ...], int, int | None],
) -> None:
    rules = preset(name)
    c = card_with_open(rules, *card)
    expected = HighScoreReference(rules).turn_value(c)
    assert abs(expected[0] - 1.0) < 1e-12 and expected[-1] == 0.0  # TOP is beyond every score
    index = table_index(rules, c)
    exact = values_over_t(card_table(solved(name), index, np.float64), index)
    assert np.abs(exact - expected).max() < 1e-12
    stored = values_over_t(card_table(solved(name), index, np.float32), index)
    assert np.abs(stored - expected).max() < 1e-6


def test_bands_cut_where_v_is_one_or_below_the_cut(solved: Callable[[str], Solution]) -> None:
    solution = solved("yahtzee")
    t = H.build_table(solution, dtype=np.float64, min_filled=solution.rules.num_categories - 2)
    solved_ids = np.flatnonzero(t.ln > 0)
    assert len(solved_ids) > 100
    for s in solved_ids[:: max(1, len(solved_ids) // 50)]:
        mask, u, y = (int(v[0]) for v in np.nonzero(t.sid == s))
        lo, band = t.band(mask, u, y)
        assert lo >= 1 and t.value(mask, u, y, lo - 1) == 1.0
        assert band.max() < 1.0 and band.min() >= H.CUT
        assert np.all(np.diff(band) <= 0)  # V falls as the target rises
    with pytest.raises(InvalidStateError, match="cannot occur"):
        t.value(0, 0, 0, 100)  # the empty card was not solved


def test_advice_prices_options_by_brute_force(solved: Callable[[str], Solution]) -> None:
    rules = preset("yahtzee")
    open_boxes, upper, ybox = ("sixes", "chance", "four_of_a_kind"), 35, 50
    c = card_with_open(rules, open_boxes, upper, ybox)
    sit = Situation(rules, (6, 6, 6, 2, 3), 2, c.filled, upper, ybox)
    target = sit.points + 60
    table = card_table(solved("yahtzee"), table_index(rules, c), np.float64)
    strategy = H.HighScoreStrategy(solved("yahtzee"), target, table)
    advice = strategy.advise_situation(sit)
    ref = HighScoreReference(rules)
    t = target - sit.points
    for a in advice:
        if isinstance(a.action, Score):
            want = ref.box_value(c, sit.dice, a.action.category)[t]
        else:
            assert isinstance(a.action, Keep)
            want = ref.keep_value(c, a.action.dice, 2)[t]
        assert a.value == pytest.approx(want, abs=1e-12), a.action
    assert advice[0].value == max(a.value for a in advice)


@pytest.mark.parametrize("target", [-1, 10_001, 2.5, True])
def test_bad_targets_are_named_errors(solved: Callable[[str], Solution], target: object) -> None:
    with pytest.raises(InvalidStateError, match="target"):
        H.HighScoreStrategy(solved("yatzy"), target)  # type: ignore[arg-type]


def test_finished_card_is_refused(solved: Callable[[str], Solution]) -> None:
    from stratagem.games.yahtzee.state import YahtzeeState

    rules = preset("yatzy")
    state = YahtzeeState.new(rules, 1)
    rng = np.random.default_rng(0)
    from stratagem.games.yahtzee.strategies import OptimalStrategy

    opt = OptimalStrategy(solved("yatzy"))
    from stratagem.core.game import CHANCE, sample_chance

    while not state.is_terminal():
        if state.current_player == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            state = state.apply(opt.act(state, rng))
    with pytest.raises(InvalidStateError, match="over"):
        H.HighScoreStrategy(solved("yatzy"), 200).advise(state)


def test_presets_are_covered() -> None:
    assert set(CARDS) == set(PRESETS)


def test_cached_table_is_mapped_and_checked(
    tmp_path: object, solved: Callable[[str], Solution]
) -> None:
    """The stored file opens as a memory map; a changed byte is a named error, never a value."""
    from pathlib import Path

    from stratagem.core.errors import CacheError

    assert isinstance(tmp_path, Path)
    solution = solved("yahtzee")
    cache = TableCache(tmp_path)
    ncat = solution.rules.num_categories

    def build(w: object) -> None:
        H.build_table(solution, w, min_filled=ncat - 2)  # type: ignore[arg-type]

    _, hit = cache.load_or_build_mapped("hs-test", "k", 1, build)
    assert not hit
    again, hit = cache.load_or_build_mapped("hs-test", "k", 1, build)
    assert hit
    layer = again.view(f"layer{ncat - 2:02d}")
    assert layer.size > 0
    again.verify(f"layer{ncat - 2:02d}")
    path = cache.mapped_path("hs-test", "k", 1)
    blob = bytearray(path.read_bytes())
    start = int(next(e for e in again.header["arrays"]  # type: ignore[union-attr]
                     if e["name"] == f"layer{ncat - 2:02d}")["offset"])  # fmt: skip
    blob[start + 5] ^= 0xFF
    path.write_bytes(bytes(blob))
    changed = cache.open_mapped("hs-test", "k", 1)
    assert changed is not None
    with pytest.raises(CacheError, match="checksum"):
        changed.verify(f"layer{ncat - 2:02d}")
    path.write_bytes(bytes(blob[: len(blob) // 2]))
    with pytest.raises(CacheError, match="corrupt"):
        cache.open_mapped("hs-test", "k", 1)
    with pytest.warns(UserWarning, match="rebuilding"):
        rebuilt, hit = cache.load_or_build_mapped("hs-test", "k", 1, build)
    assert not hit and rebuilt.array(f"layer{ncat - 2:02d}").size == layer.size


@pytest.mark.parametrize(
    ("name", "card", "need"),
    [
        ("yahtzee", (("sixes", "chance", "yahtzee"), 45, None), 100),
        ("yatzy", (("ones", "chance", "one_pair"), 61, None), 70),
    ],
)
def test_distribution_of_the_strategy_reaches_the_target_with_chance_v(
    solved: Callable[[str], Solution],
    name: str,
    card: tuple[tuple[str, ...], int, int | None],
    need: int,
) -> None:
    """The strategy's own turn outcomes pushed forward give P(final >= T) = V(card, T - points)."""
    rules = preset(name)
    solution = solved(name)
    c = card_with_open(rules, *card)
    mask, u, y = table_index(rules, c)
    sit = Situation(rules, (1, 2, 3, 4, 6), 2, c.filled, c.upper, c.yahtzee_box)
    points = sit.points
    target = points + need
    table = card_table(solution, (mask, u, y), np.float64)
    low, pmf = H.high_score_distribution(solution, table, target, (mask, u, y, points))
    scores = np.arange(low, low + len(pmf))
    assert pmf.sum() == pytest.approx(1.0, abs=1e-12)
    assert pmf[scores < points].sum() == 0.0
    v = table.value(mask, u, y, target - points)
    assert 0.0 < v < 1.0
    assert pmf[scores >= target].sum() == pytest.approx(v, abs=1e-12)
    # Every other target gives less than its own optimum: this is the strategy for `target`.
    for other in (target - 20, target + 20):
        best = table.value(mask, u, y, other - points)
        assert pmf[scores >= other].sum() <= best + 1e-12


@pytest.mark.parametrize(
    ("name", "card"),
    [
        ("yahtzee", (("sixes", "chance", "yahtzee"), 45, None)),
        ("yatzy", (("ones", "chance", "one_pair"), 61, None)),
    ],
)
def test_backward_means_equal_the_means_of_the_strategy_s_own_distributions(
    solved: Callable[[str], Solution],
    name: str,
    card: tuple[tuple[str, ...], int, int | None],
) -> None:
    """``high_score_means`` (one backward pass for every target) gives, for each target,
    the mean of the final-score distribution that the forward pass of the same strategy
    gives: targets already reached, certain, in reach and out of reach."""
    rules = preset(name)
    solution = solved(name)
    c = card_with_open(rules, *card)
    mask, u, y = table_index(rules, c)
    points = Situation(rules, (1, 2, 3, 4, 6), 2, c.filled, c.upper, c.yahtzee_box).points
    table = card_table(solution, (mask, u, y), np.float64)
    targets = [points - 5, points + 1, points + 40, points + 70, points + 900]
    means = H.high_score_means(solution, table, targets, (mask, u, y, points))
    optimum = points + float(solution.values[mask, u, y])
    assert means[points - 5] == pytest.approx(optimum, abs=1e-9)  # reached: the optimum
    assert table.value(mask, u, y, 900) == 0.0
    assert means[points + 900] == pytest.approx(optimum, abs=1e-9)  # out of reach
    gave_up = 0.0
    most_calls = 0
    for target in targets:
        calls: list[tuple[int, int]] = []
        low, pmf = H.high_score_distribution(
            solution, table, target, (mask, u, y, points),
            progress=lambda done, total, seen=calls: seen.append((done, total)), block=3,
        )  # fmt: skip
        if target > points:  # a pass was made: in blocks of 3 states, then done
            dones = [d for d, _ in calls]
            assert dones == sorted(dones) and calls[-1][0] == calls[-1][1]
            most_calls = max(most_calls, len(calls))
        mean = float(np.dot(np.arange(low, low + len(pmf)), pmf))
        assert means[target] == pytest.approx(mean, abs=1e-9), target
        assert means[target] <= optimum + 1e-9  # no strategy beats the optimum's mean
        gave_up = max(gave_up, optimum - means[target])
    assert gave_up > 0.01  # some target costs expected score: the cases differ
    assert most_calls > 3  # some pass went through several blocks


def test_win_plays_the_exact_target_once_the_opponent_has_finished(
    solved: Callable[[str], Solution],
) -> None:
    """Two-player ``win`` with the opponent finished and three of our boxes open: every
    option is priced by the exact chance of one point more than the opponent."""
    from stratagem.games.yahtzee.distribution import remaining_distributions
    from stratagem.games.yahtzee.state import Scorecard, YahtzeeState
    from stratagem.games.yahtzee.winning import ChanceAdvisor, WinAgent

    rules = preset("yahtzee")
    solution = solved("yahtzee")
    opponent = Scorecard(rules, (3, 6, 9, 12, 15, 18, 20, 0, 25, 30, 0, 0, 22))
    c = card_with_open(rules, ("sixes", "chance", "four_of_a_kind"), 35, 50)
    values = {"ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 5, "yahtzee": 50}
    boxes = tuple(None if n not in c.filled else values.get(n, 0) for n in rules.categories)
    state = YahtzeeState(
        rules, (opponent, Scorecard(rules, boxes)), 1, (6, 6, 6, 2, 3), 2, rolling=False
    )
    # The agent's remaining-score tables only for the states a game from this card can
    # reach (as in test_winning), not the whole 1 GB table that WinAgent(solution) builds.
    index = table_index(rules, c)
    agent = WinAgent.__new__(WinAgent)
    agent.advisor = ChanceAdvisor(solution, remaining_distributions(solution, start=index))
    agent.high_score_table = card_table(solution, index, np.float64)
    advice = agent.advise(state)
    t = opponent.total + 1 - state.situation().points
    assert t > 0
    ref = HighScoreReference(rules)
    for a in advice:
        if isinstance(a.action, Score):
            want = ref.box_value(c, (2, 3, 6, 6, 6), a.action.category)[t]
        else:
            assert isinstance(a.action, Keep)
            want = ref.keep_value(c, a.action.dice, 2)[t]
        assert a.value == pytest.approx(want, abs=1e-12), a.action


@pytest.mark.slow
def test_empty_card_distribution_reaches_the_target_with_chance_v(
    solved: Callable[[str], Solution],
) -> None:
    """The whole table (minutes to build): from the empty card the high-score strategy's
    own final-score distribution has P(final >= 300) = V(empty card, 300)."""
    solution = solved("yahtzee")
    table = H.high_score_table(solution)
    low, pmf = H.high_score_distribution(solution, table, 300)
    scores = np.arange(low, low + len(pmf))
    assert pmf.sum() == pytest.approx(1.0, abs=1e-6)
    assert pmf[scores >= 300].sum() == pytest.approx(table.value(0, 0, 0, 300), abs=1e-6)
