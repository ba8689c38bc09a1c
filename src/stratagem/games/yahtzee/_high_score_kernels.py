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

``R`` is the rules of :mod:`._dist_kernels` (a ``KernelRules``); ``sid[mask, u, y]`` gives a
state's id (-1 if it cannot occur), ``lo``, ``ln`` and ``off`` are indexed by
id, and ``nxt`` holds the band data of the layer the turn's successors are in.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from stratagem.games.yahtzee._dist_kernels import (
    MAX_POINTS,
    OPTIMAL,
    outcome_arrays,
    outcome_list,
    state_outcomes,
    turn_outcomes,
    workspace,
)
from stratagem.games.yahtzee._kernels import NUM_KEEPS, ROLL_START, category_points, turn_tables
from stratagem.games.yahtzee.one_turn import TIE

SIXTH = 1.0 / 6.0
"""Six certain completions times SIXTH is exactly 1.0, so certainty stays exact."""


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
            row[j] = (a0[j] + a1[j] + a2[j] + a3[j] + a4[j] + a5[j]) * SIXTH


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
            for j in range(nt):  # a select, not a branch: the loop vectorises
                x = other[j]
                r = row[j]
                row[j] = x if x > r else r


@njit(cache=True)
def successors(mask, u, y, sid, R, pts_out, sid_out):
    """``pts_out[r, c]``, ``sid_out[r, c]``: points and next state of scoring roll r in box c
    (-1 where it is not legal); one turn's lookups, shared by every target."""
    score, upper_face, joker_score = R.score, R.upper_face, R.joker_score
    counts, ip = R.counts, R.ip
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
    add, sub, sub_count, roll_prob = R.add, R.sub, R.sub_count, R.roll_prob
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
                w = row[j]
                row[j] = v if v > w else w
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
    ncat = R.score.shape[0]
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
def _band_value(s, t, data, lo, ln, off):
    """V(s, t) from a state's stored band (1 below it, 0 above it)."""
    if t < lo[s]:
        return 1.0
    if t >= lo[s] + ln[s]:
        return 0.0
    return data[off[s] + t - lo[s]]


@njit(cache=True)
def box_expectations(V, mask, u, y, R, out):
    """``out[r - ROLL_START, c]``: points of final roll r in box c plus the optimum's expected
    score after it (-inf where the box may not take it): the expected score of the option."""
    score, upper_face, joker_score = R.score, R.upper_face, R.joker_score
    counts, ip = R.counts, R.ip
    for r in range(ROLL_START, NUM_KEEPS):
        for c in range(score.shape[0]):
            pts, nu, ny, legal = category_points(
                mask, u, y, c, r, score, upper_face, joker_score, counts, ip
            )
            out[r - ROLL_START, c] = pts + V[mask | (1 << c), nu, ny] if legal else -np.inf


@njit(cache=True)
def policy_at(
    t, pts, succ, nxt, lo, ln, off, R, A, B, C, v, e0, e1, keep2, keep1, cat, bev, x0, x1, xv,
):  # fmt: skip
    """The high-score decisions of one turn for target t (given the turn's ``successors``).

    The tie rule of :func:`stratagem.games.yahtzee.one_turn.rank`: among the options
    whose chance is within ``TIE`` of the best, the one with the largest expected
    score (``bev`` for boxes, from :func:`box_expectations`; ``x0``/``x1`` for keeps,
    the optimum's keep values), the first of equals (boxes before keeps).
    ``cat[r]``: the box for final roll r; ``keep2[r]``/``keep1[r]``: the keep with
    two / one rolls left, ``r`` itself meaning score now. ``xv`` is scratch (ncat).
    """
    subkeeps, subkeep_count = R.subkeeps, R.subkeep_count
    widget(t, 1, pts, succ, nxt, lo, ln, off, R, A, B, C, v)
    for k in range(NUM_KEEPS):
        e0[k] = A[k, 0]
        e1[k] = B[k, 0]
    ncat = pts.shape[1]
    for r in range(ROLL_START, NUM_KEEPS):
        i = r - ROLL_START
        best = -1.0
        for c in range(ncat):
            if pts[i, c] < 0:
                continue
            xv[c] = _band_value(succ[i, c], t - pts[i, c], nxt, lo, ln, off)
            if xv[c] > best:
                best = xv[c]
        best_c = -1
        best_e = -np.inf
        for c in range(ncat):
            if pts[i, c] >= 0 and xv[c] >= best - TIE and bev[i, c] > best_e:
                best_e = bev[i, c]
                best_c = c
        cat[r] = best_c
        keep2[r] = _tied_choice(r, best, xv, pts[i], bev[i], e1, x1, subkeeps, subkeep_count)
        keep1[r] = _tied_choice(r, best, xv, pts[i], bev[i], e0, x0, subkeeps, subkeep_count)


@njit(cache=True)
def _tied_choice(r, best, xv, pts, bev, e, x, subkeeps, subkeep_count):
    """Score now (returns r) or the keep to reroll from, by the tie rule (see policy_at)."""
    i = r - ROLL_START
    top = best
    for j in range(subkeep_count[i]):
        if e[subkeeps[i, j]] > top:
            top = e[subkeeps[i, j]]
    choice = -1
    best_e = -np.inf
    for c in range(pts.shape[0]):
        if pts[c] >= 0 and xv[c] >= top - TIE and bev[c] > best_e:
            best_e = bev[c]
            choice = r
    for j in range(subkeep_count[i]):
        k = subkeeps[i, j]
        if e[k] >= top - TIE and x[k] > best_e:
            best_e = x[k]
            choice = k
    return choice


@njit(cache=True)
def forward_layer(
    target, states, ids, mass, cur, nxt, sid, lo, ln, off, V, V0, R, cut,
    row_of, next_mass, final, rsid, roff, rlow, rlen, rdata,
):  # fmt: skip
    """Push the chance of every (state, points so far < target) of one layer through a turn.

    ``mass[i, p]``: the chance of starting a turn in ``states[i]`` with p points.
    A turn with t = target - p points still needed is played for the target,
    unless V(s, t) < ``cut`` (out of reach): then for the expected score, as
    every turn once the target is reached. Mass that reaches the target goes
    to ``final`` (final score) through the optimal policy's remaining-score
    distribution ``(rsid, roff, rlow, rlen, rdata)``; the rest to ``next_mass``
    (row ``row_of[id]`` for the next layer's state id); a full card ends in ``final``.
    """
    ncat = R.score.shape[0]
    bev = np.empty((NUM_KEEPS - ROLL_START, ncat))
    x0 = np.empty(NUM_KEEPS)
    x1 = np.empty(NUM_KEEPS)
    xw = np.empty(NUM_KEEPS)
    xv = np.empty(ncat)
    A = np.empty((NUM_KEEPS, 1))
    B = np.empty((NUM_KEEPS, 1))
    C = np.empty((NUM_KEEPS, 1))
    v = np.empty(1)
    e0 = np.empty(NUM_KEEPS)
    e1 = np.empty(NUM_KEEPS)
    keep2 = np.empty(NUM_KEEPS, dtype=np.int64)
    keep1 = np.empty(NUM_KEEPS, dtype=np.int64)
    cat = np.empty(NUM_KEEPS, dtype=np.int64)
    pts = np.empty((NUM_KEEPS - ROLL_START, ncat), dtype=np.int64)
    succ = np.empty((NUM_KEEPS - ROLL_START, ncat), dtype=np.int64)
    ws = workspace(ncat)
    m1 = np.empty(NUM_KEEPS)
    m2 = np.empty(NUM_KEEPS)
    prob = np.zeros((ncat, MAX_POINTS))
    nu_out = np.zeros((ncat, MAX_POINTS), dtype=np.int64)
    ny_out = np.zeros((ncat, MAX_POINTS), dtype=np.int64)
    own = outcome_arrays(ncat)  # the policy's own outcomes (ws holds the optimum's)
    full = (1 << ncat) - 1
    for i in range(states.shape[0]):
        mask, u, y = states[i, 0], states[i, 1], states[i, 2]
        s = ids[i]
        have_ev = False
        n_ev = 0
        have_ties = False
        successors(mask, u, y, sid, R, pts, succ)
        for p in range(target):
            w = mass[i, p]
            if w == 0.0:
                continue
            t = target - p
            if _band_value(s, t, cur, lo, ln, off) < cut:
                if not have_ev:
                    n_ev = state_outcomes(OPTIMAL, V, V0, mask, u, y, R, ws)[0]
                    have_ev = True
                nout = n_ev
                oc, ot, op, onu, ony = ws[12]  # where state_outcomes listed them
            else:
                if not have_ties:  # the expected scores that break ties (once per state)
                    box_expectations(V, mask, u, y, R, bev)
                    turn_tables(V, mask, u, y, R, x0, x1, xw)
                    have_ties = True
                policy_at(t, pts, succ, nxt, lo, ln, off, R, A, B, C, v, e0, e1, keep2, keep1,
                          cat, bev, x0, x1, xv)  # fmt: skip
                turn_outcomes(mask, u, y, keep2, keep1, cat, R, prob, nu_out, ny_out, m1, m2)
                oc, ot, op, onu, ony = own
                nout = outcome_list(mask, prob, nu_out, ny_out, oc, ot, op, onu, ony)
            for k in range(nout):
                m2c = mask | (1 << oc[k])
                q = op[k] * w
                p2 = p + ot[k]
                if m2c == full:
                    final[p2] += q
                elif p2 >= target:
                    r2 = rsid[m2c, onu[k], ony[k]]
                    base = p2 + rlow[r2]
                    o = roff[r2]
                    for j in range(rlen[r2]):
                        final[base + j] += q * rdata[o + j]
                else:
                    s2 = sid[m2c, onu[k], ony[k]]
                    next_mass[row_of[s2], p2] += q
