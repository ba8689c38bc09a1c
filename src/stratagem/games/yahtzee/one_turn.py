"""One turn of a Yahtzee decision in plain numpy, for advice: no numba is imported.

The kernels (:mod:`._kernels`, :mod:`._high_score_kernels`, :mod:`._match_kernels`)
solve whole tables, state after state. Advice needs one turn of one card, which
numpy does in milliseconds, vectorised over the 252 rolls and 462 keeps (and, for
the high-score strategy, over the targets): a command that only advises then
starts without paying for numba (about 1.5 s: importing it and loading its
first cached kernel).

Every function makes the same floating-point operations in the same order as
its kernel counterpart (sums are sequential, ``np.add.accumulate``), so their
values are equal bit for bit; the tests compare them.

Keeps are numbered as in :mod:`.dice`: ``A[k]`` for ``k >= ROLL_START`` is a
final roll (five dice), below it a keep of fewer dice.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee.rules import NUM_DICE
from stratagem.games.yahtzee.solver import KernelRules, RuleArrays

NUM_KEEPS = D.NUM_KEEPS
ROLL_START = D.ROLL_START
ROLLS = np.arange(ROLL_START, NUM_KEEPS)

SIXTH = 1.0 / 6.0
TIE = 1e-12
"""Options whose chances differ by at most this are tied (then the expected score decides)."""

LEVELS: tuple[np.ndarray, ...] = tuple(
    np.flatnonzero(n == D.KEEP_SIZE) for n in range(NUM_DICE + 1)
)
"""Keeps by number of dice (``LEVELS[5]`` are the final rolls)."""
_SUB_FULL = np.where(D.SUB >= 0, D.SUB, D.SUB[:, :1])
"""``SUB`` with each keep's padding repeating its first sub-keep (harmless in a maximum)."""
_FACE = np.array([int(np.flatnonzero(D.COUNTS[r] == 5)[0]) + 1 if D.COUNTS[r].max() == 5
                  else 0 for r in ROLLS], dtype=np.int64)  # fmt: skip
"""The face of each final roll if it is five of a kind, else 0."""


@dataclass(frozen=True)
class BoxOutcomes:
    """Scoring each final roll in each box from one turn-start state.

    ``pts[r - ROLL_START, c]``: points with bonuses, -1 where box c may not take
    roll r; ``nu``, ``ny``: the next state's upper total (capped) and flag.
    """

    pts: np.ndarray
    nu: np.ndarray
    ny: np.ndarray

    @property
    def legal(self) -> np.ndarray:
        return self.pts >= 0

    def next_masks(self, mask: int) -> np.ndarray:
        """The filled boxes after scoring in each box (one per column)."""
        return mask | (1 << np.arange(self.pts.shape[1], dtype=np.int64))

    def boxes(self, roll: int) -> list[tuple[int, int, int, int]]:
        """``(box, points, new upper, new flag)`` of each box that may take ``roll``."""
        i = roll - ROLL_START
        return [(int(c), int(self.pts[i, c]), int(self.nu[i, c]), int(self.ny[i, c]))
                for c in np.flatnonzero(self.pts[i] >= 0)]  # fmt: skip


def box_outcomes(arrays: RuleArrays | KernelRules, mask: int, u: int, y: int) -> BoxOutcomes:
    """Every (final roll, box) of a turn from ``(mask, u, y)`` (u capped at the threshold).

    The rules are those of :func:`._kernels.category_points`: the Yahtzee bonus,
    the forced or free joker, the upper bonus and the Yahtzee flag. ``arrays`` is a
    preset's (:class:`.solver.RuleArrays`) or a reduced card's (:attr:`.duel.Variant.kernel`).
    """
    ycat, joker, ubonus, threshold, ybonus, flags, lower = (int(v) for v in arrays.ip)
    ncat = arrays.score.shape[0]
    nr = len(ROLLS)
    pts = np.full((nr, ncat), -1, dtype=np.int64)
    nu = np.full((nr, ncat), u, dtype=np.int64)
    ny = np.full((nr, ncat), y, dtype=np.int64)
    yz = (_FACE > 0) & (ycat >= 0) & bool(ycat >= 0 and (mask >> ycat) & 1)
    own = np.maximum(_FACE - 1, 0)
    own_filled = (mask >> own) & 1
    for c in range(ncat):
        if (mask >> c) & 1:
            continue
        p = arrays.score[c, ROLL_START:].copy()
        bonus = np.where(yz & (y == 1), ybonus, 0)
        legal = np.ones(nr, dtype=np.bool_)
        face_c = int(arrays.upper_face[c])
        if joker == 1:
            legal &= ~(yz & (own_filled == 0) & (c != own))
            forced = yz & (own_filled == 1) & ((~mask) & lower != 0)
            if face_c > 0:
                legal &= ~forced
            else:
                p = np.where(forced, arrays.joker_score[c, own, 1], p)
        elif joker == 2 and face_c == 0:
            p = np.where(yz, arrays.joker_score[c, own, own_filled], p)
        if face_c > 0:
            nu[:, c] = np.minimum(threshold, u + p)
            bonus = bonus + np.where((u < threshold) & (u + p >= threshold), ubonus, 0)
        elif c == ycat and flags == 2:
            ny[:, c] = (p > 0).astype(np.int64)
        pts[:, c] = np.where(legal, p + bonus, -1)
    return BoxOutcomes(pts, nu, ny)


def expect_rows(A: np.ndarray, sixth: bool = False) -> None:
    """In place, for every keep of fewer than five dice: the mean of A over the six faces
    of one more die (as :func:`._kernels.expect` divides by 6, or as the high-score
    kernel multiplies by ``SIXTH`` when ``sixth``)."""
    add = D.ADD
    for n in range(NUM_DICE - 1, -1, -1):
        k = LEVELS[n]
        s = A[add[k, 0]] + A[add[k, 1]]
        for f in range(2, 6):
            s = s + A[add[k, f]]
        A[k] = s * SIXTH if sixth else s / 6.0


def best_subkeep_rows(A: np.ndarray) -> np.ndarray:
    """``B[k]``: the largest A over every sub-multiset of keep k (k included)."""
    B = A.copy()
    for n in range(1, NUM_DICE + 1):
        k = LEVELS[n]
        best = A[k]
        for j in range(_SUB_FULL.shape[1]):
            best = np.maximum(best, B[_SUB_FULL[k, j]])
        B[k] = best
    return B


def expected_turn(
    values: np.ndarray, arrays: RuleArrays | KernelRules, mask: int, u: int, y: int,
    boxes: BoxOutcomes | None = None,
) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Keep values ``(E0, E1)`` of the expected-score optimum (as :func:`._kernels.turn_tables`):
    the expected score still to come after keeping k with one / two rolls left."""
    b = boxes if boxes is not None else box_outcomes(arrays, mask, u, y)
    W = np.empty(NUM_KEEPS)
    W[ROLL_START:] = box_worth(values, mask, b).max(axis=1)
    expect_rows(W)
    E0 = W.copy()
    E1 = best_subkeep_rows(E0)
    expect_rows(E1)
    return E0, E1


def box_worth(values: np.ndarray, mask: int, b: BoxOutcomes) -> np.ndarray:
    """``[r, c]``: points of roll r in box c plus the expected score after it (-inf if
    illegal), the sum the optimum compares."""
    m2 = np.broadcast_to(b.next_masks(mask), b.pts.shape)
    future = np.where(b.legal, values[m2, b.nu, b.ny], 0.0)
    return np.where(b.legal, b.pts + future, -np.inf)


def band_values(
    t: np.ndarray, pts: np.ndarray, succ: np.ndarray, data: np.ndarray,
    lo: np.ndarray, ln: np.ndarray, off: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """``[r, c, j]``: V(succ[r, c], t[j] - pts[r, c]) from the stored bands (1 below a band,
    0 above it), 0 where the box is illegal (``pts < 0``)."""
    s = np.maximum(succ, 0)[:, :, None]
    need = t[None, None, :] - pts[:, :, None]
    first, length = lo[s], ln[s]
    i = need - first
    inside = (i >= 0) & (i < length) & (pts >= 0)[:, :, None]
    v = np.where((i < 0) & (pts >= 0)[:, :, None], 1.0, 0.0)
    if data.size:
        v[inside] = data[(off[s] + i)[inside]]
    return v


@dataclass(frozen=True)
class HighScoreTurn:
    """One turn of the high-score strategy for the targets ``t`` (column j: ``t[j]``).

    ``A[r]``: the best chance after scoring final roll r now; ``A[k]``/``B[k]``
    (other keeps): after keeping k with one / two rolls left; ``C[r]``: roll r with
    two rolls left; ``start[j]``: V at the turn's start (as :func:`._high_score_kernels.widget`).
    ``box[r - ROLL_START, c, j]``: scoring roll r in box c.
    """

    A: np.ndarray
    B: np.ndarray
    C: np.ndarray
    start: np.ndarray
    box: np.ndarray


def high_score_turn(
    t: Sequence[int] | np.ndarray, pts: np.ndarray, succ: np.ndarray, data: np.ndarray,
    lo: np.ndarray, ln: np.ndarray, off: np.ndarray,
) -> HighScoreTurn:  # fmt: skip
    """V of one turn for every target in ``t``, given the turn's box outcomes (``pts``,
    ``succ``: the successor's state id) and the next layer's bands."""
    tt = np.asarray(t, dtype=np.int64)
    box = band_values(tt, pts, succ, data, lo, ln, off)
    A = np.empty((NUM_KEEPS, len(tt)))
    A[ROLL_START:] = box.max(axis=1)
    expect_rows(A, sixth=True)
    B = best_subkeep_rows(A)
    expect_rows(B, sixth=True)
    C = best_subkeep_rows(B)
    p = D.ROLL_PROBABILITY[ROLL_START:, None]
    start = np.add.accumulate(p * C[ROLL_START:], axis=0)[-1]
    sure = (C[ROLL_START:] >= 1.0).all(axis=0)
    start = np.where(sure | (start > 1.0), 1.0, start)
    return HighScoreTurn(A, B, C, start, box)


def successor_ids(sid: np.ndarray, mask: int, b: BoxOutcomes) -> np.ndarray:
    """``[r, c]``: the state id after scoring roll r in box c (-1 where illegal)."""
    m2 = np.broadcast_to(b.next_masks(mask), b.pts.shape)
    return np.where(b.legal, sid[m2, b.nu, b.ny], -1)


def win_values(
    totals: np.ndarray, states: np.ndarray, offsets: np.ndarray, lows: np.ndarray,
    lengths: np.ndarray, data: np.ndarray, fw: np.ndarray,
) -> np.ndarray:  # fmt: skip
    """``sum_j P(remaining = lows[s] + j) * fw[total + lows[s] + j]`` for each pair
    ``(totals[i], states[i])`` (``fw`` read as 1 past its end), as
    :func:`._match_kernels._win_value` sums it."""
    out = np.empty(len(totals))
    top = fw.shape[0]
    for i, (total, s) in enumerate(zip(totals.tolist(), states.tolist(), strict=True)):
        off, n = int(offsets[s]), int(lengths[s])
        x = total + int(lows[s]) + np.arange(n)
        w = np.ones(n)
        w[x < top] = fw[x[x < top]]
        terms = data[off : off + n] * w  # float32 * float64: products in float64
        out[i] = np.add.accumulate(terms)[-1] if n else 0.0
    return out


def distinct(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(unique, inverse)`` of a 1-D integer array, sorted (``np.unique`` without the import
    of ``numpy.ma`` it makes, about 20 ms of a quick command's start)."""
    order = np.argsort(keys, kind="stable")
    ranked = keys[order]
    first = np.empty(len(keys), dtype=np.bool_)
    first[:1] = True
    first[1:] = ranked[1:] != ranked[:-1]
    inverse = np.empty(len(keys), dtype=np.int64)
    inverse[order] = np.cumsum(first) - 1
    return ranked[first], inverse


def rank(values: np.ndarray, expected: np.ndarray) -> np.ndarray:
    """The order of options, best first, by the shared tie rule.

    Options are taken by ``values`` (a chance), largest first; options whose value is
    within ``TIE`` of the best still unranked are tied, and among them the larger
    ``expected`` (the expected score of taking the option) comes first, then the
    earlier option. :func:`._high_score_kernels.policy_at` chooses by the same rule.
    """
    left = list(range(len(values)))
    order = []
    while left:
        top = max(values[i] for i in left)
        tied = [i for i in left if values[i] >= top - TIE]
        pick = max(tied, key=lambda i: (expected[i], -i))
        order.append(pick)
        left.remove(pick)
    return np.array(order, dtype=np.int64)
