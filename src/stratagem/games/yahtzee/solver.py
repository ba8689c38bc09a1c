"""The exact optimal solitaire strategy (Glenn's dynamic programme).

The value of a turn-start state (boxes filled, upper total capped at the bonus
threshold, whether the Yahtzee box holds 50) is the expected score still to
come under optimal play. States are solved by backward induction over the
number of filled boxes; each state's *widget* (252 rolls, 462 keeps, two
rerolls) runs in numba, the states of one layer in parallel. Upper totals that
the filled upper boxes cannot produce are skipped.

>>> from stratagem.games.yahtzee.rules import preset
>>> solution = solve(preset("yatzy"))          # doctest: +SKIP
>>> round(solution.expected_score, 4)           # doctest: +SKIP
248.44
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from stratagem.core.lazy import LazyModule
from stratagem.core.tables import TableCache
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee.rules import UPPER, YahtzeeRules, _score_for

if TYPE_CHECKING:
    from stratagem.games.yahtzee.one_turn import BoxOutcomes

K = LazyModule("stratagem.games.yahtzee._kernels")

FORMAT_VERSION = 1
TABLE_KIND = "yahtzee"
_JOKER_MODE = {"none": 0, "forced": 1, "free": 2}


class KernelRules(NamedTuple):
    """The rule set and the dice tables as one kernel argument, read by field name.

    numba passes a named tuple of arrays to a compiled function as one value
    (no copy), so a kernel takes ``R`` and reads ``R.score``, ``R.add``, ...
    instead of a dozen positional arrays. Built by :attr:`RuleArrays.kernel`.
    """

    score: np.ndarray
    """``score[c, k]``: points of roll k in box c by the box's own rule."""
    upper_face: np.ndarray
    """1..6 for the upper boxes, 0 for the others."""
    joker_score: np.ndarray
    """``joker_score[c, f-1, upper_filled]``: a Yahtzee of face f scored as a joker."""
    counts: np.ndarray
    """``counts[k, f]``: dice showing face f+1 in keep k (:data:`.dice.COUNTS`)."""
    ip: np.ndarray
    """The integer rule parameters (indices ``I_*`` of :mod:`._kernels`)."""
    add: np.ndarray
    """``add[k, f]``: keep k with one more die of face f+1."""
    sub: np.ndarray
    """``sub[k, j]``: keep k with one die less (``sub_count[k]`` of them)."""
    sub_count: np.ndarray
    subkeeps: np.ndarray
    """``subkeeps[r - ROLL_START, j]``: the distinct keeps of roll r (``subkeep_count``)."""
    subkeep_count: np.ndarray
    code_to_keep: np.ndarray
    """A keep's number from its face counts in base 6."""
    roll_prob: np.ndarray
    """``roll_prob[k]``: the chance of throwing the dice of k (a roll of n dice)."""
    straights: np.ndarray
    """The small and large straight boxes (-1 where the rules have none)."""


@dataclass(frozen=True)
class RuleArrays:
    """A rule set flattened into the arrays the kernels take (see :mod:`._kernels`)."""

    score: np.ndarray
    upper_face: np.ndarray
    joker_score: np.ndarray
    ip: np.ndarray
    reach: np.ndarray
    straights: np.ndarray

    @cached_property
    def kernel(self) -> KernelRules:
        """These arrays and the dice tables as the kernels' one rules argument."""
        return KernelRules(self.score, self.upper_face, self.joker_score, D.COUNTS, self.ip,
                           D.ADD, D.SUB, D.SUB_COUNT, D.SUBKEEPS, D.SUBKEEP_COUNT,
                           D.CODE_TO_KEEP, D.ROLL_PROBABILITY, self.straights)  # fmt: skip

    @classmethod
    def build(cls, rules: YahtzeeRules) -> RuleArrays:
        cats = rules.categories
        score = np.zeros((len(cats), D.NUM_KEEPS), dtype=np.int64)
        for c, name in enumerate(cats):  # rules.score without its checks: the rolls are valid
            for k in range(D.ROLL_START, D.NUM_KEEPS):
                score[c, k] = _score_for(rules.family, name, D.KEEPS[k])
        upper_face = np.array(
            [UPPER.index(n) + 1 if n in UPPER else 0 for n in cats], dtype=np.int64
        )
        joker_score = np.zeros((len(cats), 6, 2), dtype=np.int64)
        for c, name in enumerate(cats):
            for f in range(1, 7):
                for filled in (0, 1):
                    joker_score[c, f - 1, filled] = rules.joker_score(name, (f,) * 5, bool(filled))
        lower_mask = sum(1 << c for c, n in enumerate(cats) if n not in UPPER)
        ycat = cats.index(rules.yahtzee_category)
        ip = np.array(
            [
                ycat,
                _JOKER_MODE[rules.joker],
                rules.upper_bonus,
                rules.upper_bonus_threshold,
                rules.yahtzee_bonus,
                2 if rules.has_yahtzee_bonus else 1,
                lower_mask,
            ],
            dtype=np.int64,
        )
        straights = np.array(
            [cats.index(n) if n in cats else -1 for n in ("small_straight", "large_straight")],
            dtype=np.int64,
        )
        return cls(score, upper_face, joker_score, ip, upper_reachability(rules), straights)


def upper_reachability(rules: YahtzeeRules) -> np.ndarray:
    """``reach[upper_mask, u]``: can the filled upper boxes total u (capped at T)?"""
    threshold = rules.upper_bonus_threshold
    reach = np.zeros((64, threshold + 1), dtype=np.bool_)
    for upper_mask in range(64):
        totals = {0}
        for face in range(1, 7):
            if (upper_mask >> (face - 1)) & 1:
                totals = {t + face * n for t in totals for n in range(6)}
        for t in totals:
            reach[upper_mask, min(t, threshold)] = True
    return reach


def reachable_states(rules: YahtzeeRules, arrays: RuleArrays | None = None) -> list[np.ndarray]:
    """Turn-start states ``(mask, u, y)`` grouped by number of filled boxes."""
    arrays = arrays or RuleArrays.build(rules)
    ncat = rules.num_categories
    ycat = rules.categories.index(rules.yahtzee_category)
    flags = 2 if rules.has_yahtzee_bonus else 1
    masks = np.arange(1 << ncat, dtype=np.int64)
    popcount = np.array([bin(m).count("1") for m in range(1 << ncat)])
    layers: list[np.ndarray] = []
    for filled in range(ncat + 1):
        rows = []
        for mask in masks[popcount == filled]:
            us = np.flatnonzero(arrays.reach[mask & 63])
            ys = (0, 1) if flags == 2 and (mask >> ycat) & 1 else (0,)
            for y in ys:
                block = np.empty((len(us), 3), dtype=np.int64)
                block[:, 0] = mask
                block[:, 1] = us
                block[:, 2] = y
                rows.append(block)
        layers.append(np.concatenate(rows) if rows else np.empty((0, 3), dtype=np.int64))
    return layers


Progress = Callable[[int, int], None]
"""Called as ``progress(states_done, states_total)`` while solving."""


def solve_values(
    rules: YahtzeeRules, progress: Progress | None = None, block: int = 40_000
) -> np.ndarray:
    """Solve from scratch (no cache): ``V[mask, u, y]``, NaN where unreachable."""
    arrays = RuleArrays.build(rules)
    ncat = rules.num_categories
    flags = 2 if rules.has_yahtzee_bonus else 1
    values = np.full((1 << ncat, rules.upper_bonus_threshold + 1, flags), np.nan)
    layers = reachable_states(rules, arrays)
    total = sum(len(layer) for layer in layers)
    full = layers[ncat]
    values[full[:, 0], full[:, 1], full[:, 2]] = 0.0
    done = len(full)
    for filled in range(ncat - 1, -1, -1):
        layer = layers[filled]
        for start in range(0, len(layer), block):
            part = layer[start : start + block]
            K.solve_layer(values, part, arrays.kernel)
            done += len(part)
            if progress is not None:
                progress(done, total)
    return values


@dataclass(frozen=True)
class Solution:
    """The solved value table of one rule set, with its keep and box values."""

    rules: YahtzeeRules
    values: np.ndarray
    seconds: float = 0.0
    cached: bool = False
    arrays: RuleArrays = field(init=False, repr=False, compare=False)
    _boxes: dict[tuple[int, int, int], BoxOutcomes] = field(
        init=False, repr=False, compare=False, default_factory=dict
    )

    def __post_init__(self) -> None:
        object.__setattr__(self, "arrays", RuleArrays.build(self.rules))

    @property
    def expected_score(self) -> float:
        """Expected final score from the empty card under optimal play."""
        return float(self.values[0, 0, 0])

    @cached_property
    def num_states(self) -> int:
        """Reachable turn-start states (the table's non-NaN entries)."""
        return int(np.count_nonzero(~np.isnan(self.values)))

    def state_value(self, mask: int, upper: int, flag: int) -> float:
        """Expected score still to come from the start of a turn (capped upper total)."""
        return float(self.values[mask, min(upper, self.rules.upper_bonus_threshold), flag])

    def turn_tables(self, mask: int, upper: int, flag: int) -> tuple[np.ndarray, np.ndarray]:
        """Keep values ``(E0, E1)`` of one turn: with one roll left and with two (numpy,
        equal bit for bit to the kernels' :func:`._kernels.turn_tables`)."""
        from stratagem.games.yahtzee.one_turn import expected_turn

        upper = min(upper, self.rules.upper_bonus_threshold)
        return expected_turn(self.values, self.arrays, mask, upper, flag,
                             self.box_outcomes(mask, upper, flag))  # fmt: skip

    def box_outcomes(self, mask: int, upper: int, flag: int) -> BoxOutcomes:
        """Every (final roll, box) of a turn from this state (:func:`.one_turn.box_outcomes`);
        the last few states asked are remembered."""
        from stratagem.games.yahtzee.one_turn import box_outcomes

        key = (mask, min(upper, self.rules.upper_bonus_threshold), flag)
        memo = self._boxes
        hit = memo.get(key)
        if hit is None:
            if len(memo) >= 64:
                memo.clear()
            hit = memo[key] = box_outcomes(self.arrays, *key)
        return hit

    def legal_boxes(
        self, mask: int, upper: int, flag: int, roll: int
    ) -> list[tuple[int, int, int, int]]:
        """``(box, points incl. bonuses, new upper, new flag)`` of each box that may take
        ``roll`` (:meth:`score_option` of every box, the illegal ones left out)."""
        return self.box_outcomes(mask, upper, flag).boxes(roll)

    def score_option(
        self, mask: int, upper: int, flag: int, category: int, roll: int
    ) -> tuple[int, int, int, bool]:
        """``(points incl. bonuses, new upper, new flag, legal)`` of scoring a roll in a box."""
        b = self.box_outcomes(mask, upper, flag)
        i = roll - D.ROLL_START
        pts = int(b.pts[i, category])
        if pts < 0:
            return 0, min(upper, self.rules.upper_bonus_threshold), flag, False
        return pts, int(b.nu[i, category]), int(b.ny[i, category]), True


def solve(
    rules: YahtzeeRules,
    cache: TableCache | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
) -> Solution:
    """The solution for ``rules``, from the table cache when it holds it.

    A cache miss solves (a few seconds) and writes the table atomically; a
    corrupt cached file is rebuilt with a warning, never used.
    """
    start = time.perf_counter()
    if not use_cache:
        values = solve_values(rules, progress)
        return Solution(rules, values, time.perf_counter() - start, cached=False)
    cache = cache or TableCache()
    arrays, hit = cache.load_or_build(
        TABLE_KIND,
        rules.fingerprint,
        FORMAT_VERSION,
        lambda: {"values": solve_values(rules, progress)},
        meta={"rules": rules.name},
    )
    values = arrays["values"]
    expected_shape = (
        1 << rules.num_categories,
        rules.upper_bonus_threshold + 1,
        2 if rules.has_yahtzee_bonus else 1,
    )
    if values.shape != expected_shape or values.dtype != np.float64:
        values = solve_values(rules, progress)
        cache.save(TABLE_KIND, rules.fingerprint, FORMAT_VERSION, {"values": values})
        hit = False
    return Solution(rules, values, time.perf_counter() - start, cached=hit)
