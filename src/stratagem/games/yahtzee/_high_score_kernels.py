"""Numba kernels of the high-score strategy (maximise P(points still to come >= t)); nothing else.

``V(s, t)`` is the largest probability that the points still to come from the
turn-start state s are at least t. For a fixed s it is 1 for t below some
``lo[s]`` (those points are certain), then falls, and is stored only on its
*band* ``lo[s] <= t < lo[s] + ln[s]``: ``data[off[s] + t - lo[s]]``; above the
band it is below the cut (1e-12) and read as 0.

One turn is solved for a whole range of t at once: every table of the
expected-score widget (:mod:`._kernels`) gains a second axis over t and each
maximum over keeps and boxes is taken separately for every t. Rows of the
work arrays are keeps (numbered as in :mod:`.dice`), columns are t.

``R`` is the rules tuple of :mod:`._dist_kernels`; ``sid[mask, u, y]`` gives a
state's id (-1 if it cannot occur), ``lo``, ``ln`` and ``off`` are indexed by
id, and ``nxt`` holds the band data of the layer the turn's successors are in.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from stratagem.games.yahtzee._kernels import NUM_KEEPS, ROLL_START, category_points


@njit(cache=True)
def _expect_rows(A, add, nt):
    """Rows of the keeps that are not full hands: the mean over the six faces of the
    keep with one more die (a full hand's row is read as it is)."""
    for k in range(ROLL_START - 1, -1, -1):
        row = A[k]
        a0 = A[add[k, 0]]
        a1 = A[add[k, 1]]
        a2 = A[add[k, 2]]
        a3 = A[add[k, 3]]
        a4 = A[add[k, 4]]
        a5 = A[add[k, 5]]
        for j in range(nt):
            row[j] = (a0[j] + a1[j] + a2[j] + a3[j] + a4[j] + a5[j]) / 6.0


@njit(cache=True)
def _best_subkeep_rows(A, B, sub, sub_count, nt):
    """B[k] = the largest A over every sub-multiset of k (k included), for each t."""
    for k in range(NUM_KEEPS):
        row = B[k]
        src = A[k]
        for j in range(nt):
            row[j] = src[j]
        for i in range(sub_count[k]):
            other = B[sub[k, i]]
            for j in range(nt):
                if other[j] > row[j]:
                    row[j] = other[j]


@njit(cache=True)
def successors(mask, u, y, sid, R, pts_out, sid_out):
    """``pts_out[r, c]``, ``sid_out[r, c]``: points and next state of scoring roll r in box c
    (-1 where it is not legal); one turn's lookups, shared by every target."""
    score, upper_face, joker_score, counts, ip = R[:5]
    for r in range(ROLL_START, NUM_KEEPS):
        for c in range(score.shape[0]):
            pts, nu, ny, legal = category_points(
                mask, u, y, c, r, score, upper_face, joker_score, counts, ip
            )
            if legal:
                pts_out[r - ROLL_START, c] = pts
                sid_out[r - ROLL_START, c] = sid[mask | (1 << c), nu, ny]
            else:
                pts_out[r - ROLL_START, c] = -1
                sid_out[r - ROLL_START, c] = -1


@njit(cache=True)
def widget(t0, nt, pts, succ, nxt, lo, ln, off, R, A, B, C, out):
    """One turn for the targets t0 .. t0 + nt - 1, given its ``successors``.

    On return, for column j (t = t0 + j): ``A[r]`` (full hands r) is the best
    probability of scoring roll r now; ``A[k]`` (other keeps) is that of
    keeping k with one roll left, ``B[k]`` with two; ``C[r]`` is the value of
    roll r with two rolls left (best of scoring and every keep), and
    ``out[j] = V(t)`` at the turn's start.
    """
    add, sub, sub_count = R[5], R[6], R[7]
    roll_prob = R[11]
    ncat = pts.shape[1]
    for r in range(ROLL_START, NUM_KEEPS):
        row = A[r]
        for j in range(nt):
            row[j] = 0.0
        for c in range(ncat):
            p = pts[r - ROLL_START, c]
            if p < 0:
                continue
            s = succ[r - ROLL_START, c]
            # t' = t - p at the successor: 1 below its band, banded, then 0.
            certain = min(nt, max(0, lo[s] + p - t0))
            banded = min(nt, max(0, lo[s] + ln[s] + p - t0))
            for j in range(certain):
                row[j] = 1.0
            base = off[s] + t0 - p - lo[s]
            for j in range(certain, banded):
                v = nxt[base + j]
                if v > row[j]:
                    row[j] = v
    _expect_rows(A, add, nt)
    _best_subkeep_rows(A, B, sub, sub_count, nt)
    _expect_rows(B, add, nt)
    _best_subkeep_rows(B, C, sub, sub_count, nt)
    for j in range(nt):
        out[j] = 0.0
    for r in range(ROLL_START, NUM_KEEPS):
        p = roll_prob[r]
        row = C[r]
        for j in range(nt):
            out[j] += p * row[j]
    # All rolls certain means certain: make it exactly 1 (the sum of the roll
    # probabilities need not round to 1).
    for j in range(nt):
        sure = True
        for r in range(ROLL_START, NUM_KEEPS):
            if C[r, j] < 1.0:
                sure = False
                break
        if sure or out[j] > 1.0:
            out[j] = 1.0


@njit(cache=True)
def turn_block(mask, u, y, t0, nt, nxt, sid, lo, ln, off, R, A, B, C, out):
    """One turn from (mask, u, y) for the targets t0 .. t0 + nt - 1 (see :func:`widget`)."""
    ncat = R[0].shape[0]
    pts = np.empty((NUM_KEEPS - ROLL_START, ncat), dtype=np.int64)
    succ = np.empty((NUM_KEEPS - ROLL_START, ncat), dtype=np.int64)
    successors(mask, u, y, sid, R, pts, succ)
    widget(t0, nt, pts, succ, nxt, lo, ln, off, R, A, B, C, out)


TILE = 32
"""Targets solved together: three work arrays of 462 x TILE doubles stay in a core's L2 cache."""


@njit(cache=True, parallel=True)
def solve_block(states, nxt, sid, lo, ln, off, R, cut, out, out_lo, out_ln):
    """The band of every state of ``states`` (all of one layer; ``nxt``: the next layer).

    ``out[i, :out_ln[i]]`` receives V(states[i], t) for t = out_lo[i], ...; V is 1
    below the band and below ``cut`` above it. Returns False if a band did not
    fit in a row of ``out`` (its width bounds the targets a turn can reach).
    """
    n = states.shape[0]
    width = out.shape[1]
    ncat = R[0].shape[0]
    nchunks = min(n, 128)
    ok = np.ones(nchunks, dtype=np.bool_)
    for chunk in prange(nchunks):
        A = np.empty((NUM_KEEPS, TILE))
        B = np.empty((NUM_KEEPS, TILE))
        C = np.empty((NUM_KEEPS, TILE))
        pts = np.empty((NUM_KEEPS - ROLL_START, ncat), dtype=np.int64)
        succ = np.empty((NUM_KEEPS - ROLL_START, ncat), dtype=np.int64)
        v = np.empty(width + TILE)
        for i in range(chunk * n // nchunks, (chunk + 1) * n // nchunks):
            mask, u, y = states[i, 0], states[i, 1], states[i, 2]
            successors(mask, u, y, sid, R, pts, succ)
            top = 1
            for r in range(NUM_KEEPS - ROLL_START):
                for c in range(ncat):
                    if pts[r, c] >= 0:
                        end = pts[r, c] + lo[succ[r, c]] + ln[succ[r, c]]
                        if end > top:
                            top = end
            nt = top - 1  # t = 1 .. top - 1; V(t <= 0) = 1 and V(t >= top) = 0
            if nt > width:
                ok[chunk] = False
                nt = width
            for t0 in range(0, nt, TILE):
                widget(1 + t0, min(TILE, nt - t0), pts, succ, nxt, lo, ln, off, R, A, B, C,
                       v[t0:])  # fmt: skip
            first = 0
            while first < nt and v[first] >= 1.0:
                first += 1
            last = nt
            while last > first and v[last - 1] < cut:
                last -= 1
            out_lo[i] = first + 1
            out_ln[i] = last - first
            for j in range(first, last):
                out[i, j - first] = v[j]
    return ok.all()


@njit(cache=True)
def successor_ids(mask, u, y, sid, R, out):
    """The distinct states a turn from (mask, u, y) can end in, into ``out``; returns how many."""
    score, upper_face, joker_score, counts, ip = R[:5]
    n = 0
    for r in range(ROLL_START, NUM_KEEPS):
        for c in range(score.shape[0]):
            _pts, nu, ny, legal = category_points(
                mask, u, y, c, r, score, upper_face, joker_score, counts, ip
            )
            if not legal:
                continue
            s = sid[mask | (1 << c), nu, ny]
            seen = False
            for i in range(n):
                if out[i] == s:
                    seen = True
                    break
            if not seen:
                out[n] = s
                n += 1
    return n
