"""Numba kernels of the two-player (duel) solver; nothing else.

A *level* is every turn-start position with the same number of turns played.
A position is a pair (mover's card ``a``, other card ``b``) and a score
difference ``d`` = mover's points - other's points. Its value is the mover's
chance to win (a draw counts half) under the strategies being evaluated.
For a pair the value is 1 for ``d > mb`` (the other cannot catch up: ``mb``
bounds the points still to come on card b) and 0 for ``d < -ma``; only the
*window* ``-ma <= d <= mb`` is stored: ``data[off[a, b] + d + ma]``.

One turn of a pair is the solitaire widget (252 rolls, 462 keeps, two
rerolls) with every table given a second axis over the window of ``d``, as in
the high-score kernels; each maximum over keeps and boxes is taken for each d
separately. After the mover scores ``p`` points, the next level's position is
(b, a') seen from b, with difference ``-(d + p)``: the mover's value is one
minus that.

How the mover chooses (``mode``):

* ``MAX``: the largest win chance (the best response to the other side);
* ``FIXED``: the per-roll choices ``keep2``, ``keep1``, ``cat`` of a fixed
  policy (the expected-score optimum, ``_dist_kernels.policy_tables``), which
  do not depend on d or on the other card;
* ``FOLLOW``: the choice that maximises a *reference* table (the win-optimal
  values), while the values carried are those of the table being evaluated.

Cards are given by their filled-box mask and upper total (capped at the bonus
threshold); ``sid[mask, u]`` is a card's index within its layer (cards with
the same number of filled boxes), -1 where it cannot occur.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from stratagem.games.yahtzee._kernels import I_THRESHOLD, I_UBONUS, NUM_KEEPS, ROLL_START

MAX = 0
FIXED = 1
FOLLOW = 2

NROLLS = NUM_KEEPS - ROLL_START
SIXTH = 1.0 / 6.0


class Cards(NamedTuple):
    """The cards of one level's pairs, travelling together into the kernels: the mover's
    layer (filled-box ``mask``, ``upper`` total, ``most_a`` points still to come per card),
    the other layer's ``most_b``, and where a scored card lands: ``sid1[mask, u]`` in the
    next layer, whose cards have ``most1`` points still to come."""

    mask: np.ndarray
    upper: np.ndarray
    most_a: np.ndarray
    most_b: np.ndarray
    sid1: np.ndarray
    most1: np.ndarray


class Next(NamedTuple):
    """The level a turn leads to: its values (``off``, ``data``), the reference table FOLLOW
    chooses by (``ref_off``, ``ref_data``: the same arrays in the other modes), whether the
    game ends after this turn (``terminal``) and whether the mover moves again (``solo``:
    the other card is full)."""

    off: np.ndarray
    data: np.ndarray
    ref_off: np.ndarray
    ref_data: np.ndarray
    terminal: bool
    solo: bool


class Policy(NamedTuple):
    """A fixed policy's per-roll choices, one row of 462 (by keep number) per card of the
    mover's layer: the keep with two rerolls left, with one left, and the box scored."""

    keep2: np.ndarray
    keep1: np.ndarray
    cat: np.ndarray


class Scratch(NamedTuple):
    """One worker's rows for a turn (reused pair after pair, so allocated once per chunk):
    expectations ``Ek``/``Ev`` and best-keep maxima ``Mk``/``Mv`` over keeps (key rows for
    FOLLOW's choice, value rows carried), the after-scoring rows ``Vk``/``Vv`` of each
    distinct (box, points), and their index ``pidx``, points ``pvals`` and count ``npv``
    per box."""

    Ek: np.ndarray
    Ev: np.ndarray
    Mk: np.ndarray
    Mv: np.ndarray
    Vk: np.ndarray
    Vv: np.ndarray
    pidx: np.ndarray
    pvals: np.ndarray
    npv: np.ndarray


@njit(cache=True)
def score_box(mask, u, c, r, score, upper_face, ip):
    """``(points incl. upper bonus, new upper total)`` of scoring roll r in open box c."""
    threshold = ip[I_THRESHOLD]
    pts = score[c, r]
    if upper_face[c] > 0 and threshold > 0:
        nu = min(threshold, u + pts)
        if u < threshold and u + pts >= threshold:
            pts += ip[I_UBONUS]
        return pts, nu
    return pts, u


@njit(cache=True)
def box_row(amask, au, c, k, score, upper_face, ip, pvals, pidx):
    """The row of the after-scoring values for roll k scored in box c (the rows are kept per
    box and per distinct score: find this score's)."""
    pts, _nu = score_box(amask, au, c, k, score, upper_face, ip)
    j = 0
    while pvals[c, j] != pts:
        j += 1
    return pidx[c, j]


@njit(cache=True)
def next_value(nxt_off, nxt_data, terminal, b, mb, a1, ma1, e):
    """The next level's value of (b, a1) at difference e, seen from b (the next mover)."""
    if terminal:
        if e > 0:
            return 1.0
        if e == 0:
            return 0.5
        return 0.0
    if e > ma1:
        return 1.0
    if e < -mb:
        return 0.0
    return nxt_data[nxt_off[b, a1] + e + mb]


@njit(cache=True)
def solo_value(nxt_off, nxt_data, terminal, a1, ma1, b, mb, e):
    """The next position's value of (a1, b) at difference e when the mover moves again
    (the other card is full: a solitaire tail, used to check against the solitaire solver):
    the same lookup as :func:`next_value` with the mover's card first."""
    return next_value(nxt_off, nxt_data, terminal, a1, ma1, b, mb, e)


@njit(cache=True)
def _expect(E, add, L):
    """Rows below ROLL_START: the mean of the six rows one die more (rolls are set)."""
    for k in range(ROLL_START - 1, -1, -1):
        for d in range(L):
            s = 0.0
            for f in range(6):
                s += E[add[k, f], d]
            E[k, d] = s * SIXTH


@njit(cache=True)
def _best_sub(Ek, Ev, Mk, Mv, sub, sub_count, L, two):
    """M[k] = E of the best sub-keep of k (k itself first; the first of equals wins).

    With ``two``, the choice is made on the key rows Ek and the value rows Ev
    follow it; otherwise Ek and Ev are the same rows and Mk, Mv too.
    """
    for k in range(NUM_KEEPS):
        for d in range(L):
            best = Ek[k, d]
            bv = Ev[k, d]
            for j in range(sub_count[k]):
                s = sub[k, j]
                if Mk[s, d] > best:
                    best = Mk[s, d]
                    if two:
                        bv = Mv[s, d]
            Mk[k, d] = best
            if two:
                Mv[k, d] = bv


@njit(cache=True)
def turn_value(mode, a, b, C, R, N, P, out, loss_out, S):
    """The window of values of one pair (card ``a`` of ``C``'s mover layer to move, card b).

    ``out[:L]`` receives the values for d = -ma .. mb. With ``loss_out`` of
    length 4 (MAX mode and a fixed policy given), it receives the largest win
    chance the fixed policy gives up at one decision of this turn against the
    best choice, with that decision's (d index, roll, rolls left).
    """
    score, upper_face, ip, add = R.score, R.upper_face, R.ip, R.add
    sub, sub_count, roll_prob = R.sub, R.sub_count, R.roll_prob
    ncat = score.shape[0]
    amask, au, ma, mb = C.mask[a], C.upper[a], C.most_a[a], C.most_b[b]
    sid1, ma1_layer = C.sid1, C.most1
    nxt_off, nxt_data, ref_off, ref_data = N.off, N.data, N.ref_off, N.ref_data
    terminal, solo = N.terminal, N.solo
    keep2, keep1, cat = P.keep2[a], P.keep1[a], P.cat[a]
    Ek, Ev, Mk, Mv, Vk, Vv = S.Ek, S.Ev, S.Mk, S.Mv, S.Vk, S.Vv
    pidx, pvals, npv = S.pidx, S.pvals, S.npv
    L = ma + mb + 1
    two = mode == FOLLOW
    track = mode == MAX and loss_out.shape[0] == 4
    # The distinct (box, points) outcomes of the last throw, each a vector over d.
    nv = 0
    for c in range(ncat):
        npv[c] = 0
        if (amask >> c) & 1:
            continue
        for r in range(NROLLS):
            pts, nu = score_box(amask, au, c, r + ROLL_START, score, upper_face, ip)
            j = 0
            while j < npv[c] and pvals[c, j] != pts:
                j += 1
            if j == npv[c]:
                pvals[c, j] = pts
                npv[c] += 1
                a1 = sid1[amask | (1 << c), nu]
                ma1 = ma1_layer[a1]
                for i in range(L):
                    if solo:
                        e = i - ma + pts
                        Vv[nv, i] = solo_value(nxt_off, nxt_data, terminal, a1, ma1, b, mb, e)
                        continue
                    e = -(i - ma + pts)
                    Vv[nv, i] = 1.0 - next_value(nxt_off, nxt_data, terminal, b, mb, a1, ma1, e)
                    if two:
                        Vk[nv, i] = 1.0 - next_value(ref_off, ref_data, terminal, b, mb, a1, ma1, e)
                pidx[c, j] = nv
                nv += 1
    # The last throw: every roll's best box (or the fixed policy's box).
    for r in range(NROLLS):
        k = r + ROLL_START
        if mode == FIXED:
            c = cat[k]
            row = box_row(amask, au, c, k, score, upper_face, ip, pvals, pidx)
            for i in range(L):
                Ev[k, i] = Vv[row, i]
            continue
        for i in range(L):
            Ek[k, i] = -1.0
        for c in range(ncat):
            if (amask >> c) & 1:
                continue
            row = box_row(amask, au, c, k, score, upper_face, ip, pvals, pidx)
            if two:
                for i in range(L):
                    if Vk[row, i] > Ek[k, i]:
                        Ek[k, i] = Vk[row, i]
                        Ev[k, i] = Vv[row, i]
            else:
                for i in range(L):
                    if Vv[row, i] > Ek[k, i]:
                        Ek[k, i] = Vv[row, i]
        if track:
            c = cat[k]
            row = box_row(amask, au, c, k, score, upper_face, ip, pvals, pidx)
            for i in range(L):
                g = Ek[k, i] - Vv[row, i]
                if g > loss_out[0]:
                    loss_out[0] = g
                    loss_out[1] = i
                    loss_out[2] = k
                    loss_out[3] = 0
    if not two and mode != FIXED:
        for k in range(ROLL_START, NUM_KEEPS):
            for i in range(L):
                Ev[k, i] = Ek[k, i]
    # Two rerolls: expectation over the dice thrown, then the best keep of each roll.
    for left in (1, 2):
        _expect(Ev, add, L)
        if two:
            _expect(Ek, add, L)
        if mode == FIXED:
            table = keep1 if left == 1 else keep2
            for r in range(NROLLS):
                k = r + ROLL_START
                kk = table[k]
                for i in range(L):
                    Mv[k, i] = Ev[kk, i]
            for r in range(NROLLS):
                k = r + ROLL_START
                for i in range(L):
                    Ev[k, i] = Mv[k, i]
            continue
        if two:
            _best_sub(Ek, Ev, Mk, Mv, sub, sub_count, L, True)
        else:
            _best_sub(Ev, Ev, Mv, Mv, sub, sub_count, L, False)
        if track:
            table = keep1 if left == 1 else keep2
            for r in range(NROLLS):
                k = r + ROLL_START
                kk = table[k]
                for i in range(L):
                    g = Mv[k, i] - Ev[kk, i]
                    if g > loss_out[0]:
                        loss_out[0] = g
                        loss_out[1] = i
                        loss_out[2] = k
                        loss_out[3] = left
        for r in range(NROLLS):
            k = r + ROLL_START
            for i in range(L):
                Ev[k, i] = Mv[k, i]
                if two:
                    Ek[k, i] = Mk[k, i]
    for i in range(L):
        s = 0.0
        for r in range(NROLLS):
            k = r + ROLL_START
            s += roll_prob[k] * Ev[k, i]
        out[i] = s


@njit(cache=True, parallel=True)
def solve_pairs(mode, pairs, C, R, off, data, N, P, loss, track):
    """Solve the pairs ``pairs[i] = (a, b)`` of one level into ``data`` at ``off[a, b]``.

    ``C`` is the level's :class:`Cards`, ``N`` the :class:`Next` level (with ``N.solo`` the
    other card is full and the mover moves again: no FOLLOW mode), ``P`` the fixed
    :class:`Policy` (read in FIXED mode and when ``track``); ``loss[i]`` receives the
    per-pair record of :func:`turn_value` when ``track``.
    """
    a_mr, b_mr = C.most_a, C.most_b
    n = pairs.shape[0]
    ncat = R.score.shape[0]
    width = 0
    for i in range(a_mr.shape[0]):
        width = max(width, a_mr[i])
    wb = 0
    for i in range(b_mr.shape[0]):
        wb = max(wb, b_mr[i])
    width += wb + 1
    nchunks = min(n, 64)
    for chunk in prange(nchunks):
        Ek = np.empty((NUM_KEEPS, width))
        Ev = np.empty((NUM_KEEPS, width))
        Mk = np.empty((NUM_KEEPS, width))
        Mv = np.empty((NUM_KEEPS, width))
        Vk = np.empty((ncat * 64, width))
        Vv = np.empty((ncat * 64, width))
        pidx = np.empty((ncat, 64), dtype=np.int64)
        pvals = np.empty((ncat, 64), dtype=np.int64)
        npv = np.empty(ncat, dtype=np.int64)
        S = Scratch(Ek, Ev, Mk, Mv, Vk, Vv, pidx, pvals, npv)
        rec = np.empty(4 if track else 0)
        nolo = np.empty(0)
        for i in range(chunk * n // nchunks, (chunk + 1) * n // nchunks):
            a = pairs[i, 0]
            b = pairs[i, 1]
            ma = a_mr[a]
            mb = b_mr[b]
            o = off[a, b]
            if track:
                rec[0] = 0.0
                rec[1] = -1.0
                rec[2] = -1.0
                rec[3] = -1.0
                turn_value(mode, a, b, C, R, N, P, data[o : o + ma + mb + 1], rec, S)
                for j in range(4):
                    loss[i, j] = rec[j]
            else:
                turn_value(mode, a, b, C, R, N, P, data[o : o + ma + mb + 1], nolo, S)
