"""The two-player solver against a plain recursion, the solitaire solver, and bad input."""

from __future__ import annotations

import math
from functools import cache
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

from stratagem.core.errors import CacheError, InvalidRulesError
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee import duel
from stratagem.games.yahtzee.duel import Cards, Run, Variant, level_layers
from stratagem.games.yahtzee.rules import UPPER


def reference(variant: Variant, policy: dict[int, tuple[np.ndarray, ...]] | None = None,
              es_seats: tuple[bool, bool] = (False, False)):  # fmt: skip
    """A memoised recursion over whole positions (both cards, both totals, dice, rolls
    left), written from the rules alone: player 0 maximises and player 1 minimises
    player 0's win chance (a draw half). A seat in ``es_seats`` instead plays the
    given per-card expected-score choices (``policy[layer]`` = keep2, keep1, cat)."""
    rules = variant.rules
    boxes = variant.boxes
    n = len(boxes)
    threshold, bonus = variant.threshold, variant.bonus
    cards = Cards.build(variant)

    throws = {size: D.outcomes(size) for size in range(6)}

    @cache
    def points(mask: int, upper: int, c: int, roll: tuple[int, ...]) -> tuple[int, int]:
        pts = rules.score(boxes[c], roll)
        if threshold and boxes[c] in UPPER:
            new = min(threshold, upper + pts)
            return pts + (bonus if upper < threshold <= upper + pts else 0), new
        return pts, upper

    @cache
    def subkeeps(roll: tuple[int, ...]) -> set[tuple[int, ...]]:
        return {tuple(sorted(x)) for size in range(6) for x in combinations(roll, size)}

    @cache
    def turn(p: int, masks: tuple[int, int], uppers: tuple[int, int], diff: int) -> float:
        """Player 0's chance at the start of player p's turn; diff = total0 - total1."""
        full = (1 << n) - 1
        if masks == (full, full):
            return 1.0 if diff > 0 else 0.5 if diff == 0 else 0.0
        return sum(prob * choose(p, masks, uppers, diff, roll, 2) for roll, prob in throws[5])

    @cache
    def choose(p, masks, uppers, diff, roll, left) -> float:
        mask, upper = masks[p], uppers[p]
        options = {}
        for c in range(n):
            if not (mask >> c) & 1:
                pts, nu = points(mask, upper, c, roll)
                m2 = list(masks)
                u2 = list(uppers)
                m2[p] |= 1 << c
                u2[p] = nu
                d2 = diff + pts if p == 0 else diff - pts
                options[("box", c)] = turn(1 - p, tuple(m2), tuple(u2), d2)
        if left:
            for keep in subkeeps(roll):
                options[("keep", keep)] = kept(p, masks, uppers, diff, keep, left)
        if es_seats[p]:
            assert policy is not None
            layer = bin(mask).count("1")
            keep2, keep1, cat = policy[layer]
            a = cards.sid[mask, upper]
            k = D.KEEP_INDEX[roll]
            if left:
                chosen = D.KEEPS[(keep2 if left == 2 else keep1)[a, k]]
                if chosen != roll:
                    return options[("keep", chosen)]
            return options[("box", int(cat[a, k]))]
        return max(options.values()) if p == 0 else min(options.values())

    @cache
    def kept(p, masks, uppers, diff, keep, left) -> float:
        """Keep these dice and throw the others (``left`` throws were left before it)."""
        return sum(
            prob * choose(p, masks, uppers, diff, tuple(sorted(keep + more)), left - 1)
            for more, prob in throws[5 - len(keep)]
        )

    return turn


def es_policies(variant: Variant) -> dict[int, tuple[np.ndarray, ...]]:
    cards = Cards.build(variant)
    V = duel.es_values(variant)
    return {i: duel.es_policy(variant, cards, V, i) for i in range(variant.num_boxes)}


def check_every_position(run: Run, turn) -> int:
    """Compare every stored value of ``run`` with the recursion; returns how many."""
    cards = run.cards
    checked = 0
    for t in range(2 * run.variant.num_boxes):
        i, j = level_layers(t)
        p = t % 2
        for a, (ma_mask, ma_u) in enumerate(cards.layers[i]):
            for b, (mb_mask, mb_u) in enumerate(cards.layers[j]):
                lo, hi = -int(cards.most[i][a]), int(cards.most[j][b])
                for d in range(lo - 1, hi + 2):
                    masks = (int(ma_mask), int(mb_mask)) if p == 0 else (int(mb_mask), int(ma_mask))
                    ups = (int(ma_u), int(mb_u)) if p == 0 else (int(mb_u), int(ma_u))
                    want = turn(p, masks, ups, d if p == 0 else -d)
                    if p == 1:
                        want = 1.0 - want
                    assert run.value(t, a, b, d) == pytest.approx(want, abs=1e-12)
                    checked += 1
    return checked


TINY = [
    Variant("yahtzee", ("threes",)),
    Variant("yatzy", ("ones", "one_pair")),
    pytest.param(Variant("yahtzee", ("ones", "twos")), marks=pytest.mark.slow),
    pytest.param(Variant("yahtzee", ("twos", "full_house")), marks=pytest.mark.slow),
]


@pytest.mark.parametrize("variant", TINY, ids=lambda v: v.name)
def test_win_optimal_values_agree_with_plain_recursion_everywhere(variant, tmp_path):
    run = Run(variant, ("max", "max"), tmp_path)
    run.solve()
    assert check_every_position(run, reference(variant)) > 0


@pytest.mark.slow
def test_three_boxes_agree_with_plain_recursion_at_the_start(tmp_path):
    variant = Variant("yahtzee", ("ones", "twos", "threes"))
    value = Run(variant, ("max", "max"), tmp_path).solve()
    turn = reference(variant)
    assert value == pytest.approx(turn(0, (0, 0), (0, 0), 0), abs=1e-12)


@pytest.mark.parametrize("modes", [("es", "es"), ("max", "es"), ("es", "max")])
def test_fixed_expected_score_side_agrees_with_plain_recursion(modes, tmp_path):
    variant = Variant("yahtzee", ("twos",), upper_bonus=True)
    run = Run(variant, modes, tmp_path)
    run.solve()
    seats = (modes[0] == "es", modes[1] == "es")
    assert check_every_position(run, reference(variant, es_policies(variant), seats)) > 0


@pytest.mark.slow
@pytest.mark.parametrize("modes", [("max", "es"), ("es", "max")])
def test_two_box_best_response_agrees_with_plain_recursion_at_the_start(modes, tmp_path):
    variant = Variant("yahtzee", ("ones", "twos"), upper_bonus=True)
    value = Run(variant, modes, tmp_path).solve()
    turn = reference(variant, es_policies(variant), (modes[0] == "es", modes[1] == "es"))
    assert value == pytest.approx(turn(0, (0, 0), (0, 0), 0), abs=1e-12)


def test_expected_score_against_itself_is_even(tmp_path):
    # Both play the same strategy, blind to the other card: P(A > B) = P(B > A).
    variant = Variant("yahtzee", ("ones", "fives", "chance"), upper_bonus=True)
    value = Run(variant, ("es", "es"), tmp_path).solve()
    assert value == pytest.approx(0.5, abs=1e-12)


def test_win_optimal_side_never_does_worse_than_a_fixed_one(tmp_path):
    variant = Variant("yahtzee", ("twos", "fives", "full_house"))
    ref = Run(variant, ("max", "max"), tmp_path)
    best = Run(variant, ("max", "es"), tmp_path).solve()
    follow = Run(variant, ("win", "es"), tmp_path, reference=ref).solve()
    plain = Run(variant, ("es", "es"), tmp_path).solve()
    assert best >= follow - 1e-12
    assert best >= plain - 1e-12
    assert ref.value(0, 0, 0, 0) <= best + 1e-12


@pytest.mark.parametrize(
    "variant",
    [
        Variant("yahtzee", ("ones", "twos", "full_house"), True),
        Variant("yatzy", ("sixes", "chance")),
    ],
    ids=lambda v: v.name,
)
def test_mean_of_solo_win_chances_is_the_solitaire_expected_score(variant):
    # With the other card full, W(d) = P(X > -d) + P(X = -d)/2 for the points X still to
    # come, so the sum of W over d = -most..0 is E[X] + 1/2: E[X] from the solitaire solver.
    cards = Cards.build(variant)
    V = duel.es_values(variant)
    levels = duel.solo_tail(variant, "es")
    best = duel.solo_tail(variant, "max")
    for i in range(variant.num_boxes):
        for a, (mask, u) in enumerate(cards.layers[i]):
            o, m = int(levels[i].off[a, 0]), int(cards.most[i][a])
            w = levels[i].data[o : o + m + 1]
            assert w.sum() - 0.5 == pytest.approx(V[mask, u, 0], abs=1e-9)
            assert (best[i].data[o : o + m + 1] >= w - 1e-12).all()


@pytest.mark.slow
def test_variant_with_every_yatzy_box_and_the_bonus_is_yatzy():
    from stratagem.games.yahtzee.rules import preset
    from stratagem.games.yahtzee.solver import solve

    rules = preset("yatzy")
    variant = Variant("yatzy", rules.categories, upper_bonus=True)
    assert variant.threshold == rules.upper_bonus_threshold
    assert duel.es_values(variant)[0, 0, 0] == pytest.approx(solve(rules).expected_score, abs=1e-9)


def test_bonus_does_not_change_win_chances_on_an_upper_only_card(tmp_path):
    # The total is an increasing function of the upper total, so who wins is unchanged.
    plain = Run(Variant("yahtzee", ("twos", "threes")), ("max", "max"), tmp_path).solve()
    bonus = Run(Variant("yahtzee", ("twos", "threes"), True), ("max", "max"), tmp_path).solve()
    assert plain == pytest.approx(bonus, abs=1e-12)


@pytest.mark.parametrize(
    "boxes, message",
    [((), "at least one box"), (("ones", "bogus"), "unknown box"), (("ones", "ones"), "twice")],
)
def test_bad_box_subsets_are_refused(boxes, message):
    with pytest.raises(InvalidRulesError, match=message):
        Variant("yahtzee", boxes)


def test_bonus_without_an_upper_box_is_refused():
    with pytest.raises(InvalidRulesError, match="upper box"):
        Variant("yahtzee", ("chance",), upper_bonus=True)


def test_a_variant_too_large_is_refused_up_front_with_its_estimate(tmp_path):
    rules_boxes = Variant("yahtzee", ("ones",)).rules.categories
    run = Run(Variant("yahtzee", rules_boxes, True), ("max", "max"), tmp_path)
    with pytest.raises(InvalidRulesError, match=r"too large to solve here: about .* MiB and .* s"):
        run.solve()
    assert not any(tmp_path.rglob("*.tbl"))


def test_variant_text_is_read_and_bad_text_refused():
    v = duel.parse_variant("yahtzee:twos,ones:bonus")
    assert v.boxes == ("ones", "twos") and v.upper_bonus
    with pytest.raises(InvalidRulesError, match="cannot read variant"):
        duel.parse_variant("yahtzee:ones:extra")


def test_a_run_cut_short_resumes_from_its_last_finished_level(tmp_path):
    variant = Variant("yahtzee", ("ones", "twos", "sixes"))
    whole = Run(variant, ("max", "max"), tmp_path / "whole").solve()
    cut = Run(variant, ("max", "max"), tmp_path / "cut")
    assert math.isnan(cut.solve(stop_after=2))
    assert cut.finished_levels() == [4, 5]
    again = Run(variant, ("max", "max"), tmp_path / "cut")
    assert again.solve() == whole
    assert sorted(again.level_seconds) == [0, 1, 2, 3]


def _level_file(run: Run, t: int) -> Path:
    return run._cache().path(f"level{t:02d}", run.key, duel.FORMAT_VERSION)


def test_a_truncated_level_file_is_refused_and_left_alone(tmp_path):
    variant = Variant("yahtzee", ("ones", "twos"))
    run = Run(variant, ("max", "max"), tmp_path)
    run.solve()
    path = _level_file(run, 1)
    blob = path.read_bytes()[:-10]
    path.write_bytes(blob)
    with pytest.raises(CacheError, match="corrupt"):
        Run(variant, ("max", "max"), tmp_path).solve()
    assert path.read_bytes() == blob


def test_a_level_file_of_another_variant_is_refused(tmp_path):
    mine = Run(Variant("yahtzee", ("ones", "twos")), ("max", "max"), tmp_path / "a")
    other = Run(Variant("yahtzee", ("ones", "threes")), ("max", "max"), tmp_path / "b")
    mine.solve()
    other.solve()
    _level_file(mine, 2).write_bytes(_level_file(other, 2).read_bytes())
    with pytest.raises(CacheError, match="key"):
        Run(Variant("yahtzee", ("ones", "twos")), ("max", "max"), tmp_path / "a").solve()


def test_a_win_side_needs_the_win_optimal_run():
    with pytest.raises(InvalidRulesError, match="reference"):
        Run(Variant("yahtzee", ("ones",)), ("win", "es"), None)


def test_estimate_counts_exactly_the_values_a_run_stores(tmp_path):
    variant = Variant("yahtzee", ("ones", "chance"), upper_bonus=True)
    est = duel.estimate(variant)
    run = Run(variant, ("max", "max"), tmp_path)
    run.solve()
    stored = [len(run.load(t).data) for t in range(4)]  # type: ignore[union-attr]
    assert est.values_per_level == stored


def test_a_decision_read_from_the_tables_matches_the_kernels_record(tmp_path):
    variant = Variant("yahtzee", ("ones", "twos", "threes"))
    run = Run(variant, ("max", "max"), tmp_path, track_loss=True)
    run.solve()
    level = run.load(3)  # the second player's second turn
    assert level is not None and level.loss is not None
    p = int(np.argmax(level.loss[:, 0]))
    gain, di, roll, left = level.loss[p]
    i, j = level_layers(3)
    a, b = divmod(p, len(run.cards.layers[j]))
    d = int(di) - int(run.cards.most[i][a])
    choice = duel.decision(run, 3, a, b, d, int(roll), int(left))
    assert gain > 0.01
    assert choice["best"] != choice["es"]
    assert choice["best_chance"] - choice["es_chance"] == pytest.approx(gain, abs=1e-12)


def test_blocks_run_in_other_processes_give_the_same_tables(tmp_path, monkeypatch):
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    variant = Variant("yahtzee", ("ones", "twos", "chance"), upper_bonus=True)
    whole = Run(variant, ("max", "max"), tmp_path / "whole", track_loss=True)
    whole.solve()
    monkeypatch.setattr(duel, "BLOCK_VALUES", 500)  # many blocks per level
    seen: list[tuple[int, int]] = []
    split = Run(variant, ("max", "max"), tmp_path / "split", track_loss=True,
                block_progress=lambda done, total: seen.append((done, total)))  # fmt: skip
    spawn = multiprocessing.get_context("spawn")  # numba's OpenMP threads forbid fork
    with ProcessPoolExecutor(max_workers=2, mp_context=spawn) as pool:
        split.solve(executor=pool)
    assert max(total for _, total in seen) > 1
    for t in range(6):
        a, b = whole.load(t), split.load(t)
        assert a is not None and b is not None and a.loss is not None and b.loss is not None
        assert np.array_equal(a.data, b.data)
        assert np.array_equal(a.loss, b.loss)


def test_the_win_seeker_improves_on_the_es_optimum_and_no_more_than_a_best_response(tmp_path):
    """``seek`` is one step of policy improvement on the ES optimum against a fixed ES
    opponent (a Markov decision problem), so es-es <= seek-es <= max-es in either seat."""
    v = Variant("yahtzee", ("ones", "twos", "chance"), upper_bonus=True)
    es = Run(v, ("es", "es"), tmp_path)
    values = {
        modes: Run(v, modes, tmp_path, reference=es).solve()
        for modes in (("seek", "es"), ("es", "seek"), ("max", "es"), ("es", "max"))
    }
    assert 0.5 < values[("seek", "es")] <= values[("max", "es")] + 1e-12
    assert 0.5 > values[("es", "seek")] >= values[("es", "max")] - 1e-12


def test_a_following_side_needs_its_own_reference(tmp_path):
    v = Variant("yahtzee", ("ones", "twos"))
    with pytest.raises(InvalidRulesError, match="'seek' side needs the es/es run"):
        Run(v, ("seek", "es"), tmp_path, reference=Run(v, ("max", "max"), tmp_path))
    with pytest.raises(InvalidRulesError, match="follow different runs"):
        Run(v, ("seek", "win"), tmp_path, reference=Run(v, ("es", "es"), tmp_path))
