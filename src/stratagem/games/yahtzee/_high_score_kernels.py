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
from stratagem.games.yahtzee._kernels import (
    I_FLAGS,
    I_THRESHOLD,
    I_UBONUS,
    I_YCAT,
    NUM_KEEPS,
    ROLL_START,
    category_points,
    turn_tables,
    yahtzee_face,
)
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
def _roll_mean(C, roll_prob, nt, out):
    """``out[j]``: the mean of ``C[r, j]`` over the first roll r of a turn."""
    for j in range(nt):
        out[j] = 0.0
    for r in range(ROLL_START, NUM_KEEPS):
        p = roll_prob[r]
        row = C[r]
        for j in range(nt):
            out[j] += p * row[j]


@njit(cache=True)
def successors(mask, u, y, sid, R, pts_out, sid_out):
    """``pts_out[r, c]``, ``sid_out[r, c]``: points and next state of scoring roll r in box c
    (-1 where it is not legal); one turn's lookups, shared by every target."""
    score, upper_face, joker_score = R.score, R.upper_face, R.joker_score
    counts, ip = R.counts, R.ip
    threshold, ubonus, ycat, flag_box = ip[I_THRESHOLD], ip[I_UBONUS], ip[I_YCAT], ip[I_FLAGS] == 2
    for r in range(ROLL_START, NUM_KEEPS):
        five = yahtzee_face(counts, r) > 0
        for c in range(score.shape[0]):
            if five:  # the Yahtzee bonus and joker rules: category_points
                pts, nu, ny, legal = category_points(
                    mask, u, y, c, r, score, upper_face, joker_score, counts, ip
                )
            else:  # what category_points comes down to without five of a kind
                legal = not (mask >> c) & 1
                pts, nu, ny = score[c, r], u, y
                if upper_face[c] > 0:
                    nu = min(threshold, u + pts)
                    if u < threshold and u + pts >= threshold:
                        pts += ubonus
                elif c == ycat and flag_box:
                    ny = 1 if pts > 0 else 0
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
    _roll_mean(C, roll_prob, nt, out)
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
def pack_rows(out, lens, dest, dest_off):
    """``dest[dest_off[i] : dest_off[i] + lens[i]] = out[i, :lens[i]]`` for every row i:
    the bands :func:`solve_block` left in the rows of ``out``, one after another (a plain
    copy; numpy's masked indexing of the whole block cost a fifth of the build)."""
    for i in range(lens.shape[0]):
        o = dest_off[i]
        row = out[i]
        for j in range(lens[i]):
            dest[o + j] = row[j]


@njit(cache=True)
def copy_bands(src, src_off, lens, dest, dest_off):
    """``dest[dest_off[i] : dest_off[i] + lens[i]] = src[src_off[i] : src_off[i] + lens[i]]``
    for every i: each state's band copied from its class's."""
    for i in range(lens.shape[0]):
        a = src_off[i]
        b = dest_off[i]
        for j in range(lens[i]):
            dest[b + j] = src[a + j]


@njit(cache=True)
def certain_below(pts, succ, lo):
    """The least t at which :func:`widget` can give V(t) < 1, given the turn's
    ``successors``: below it every final roll has a box whose successor is certain of
    the rest (t - points < lo there), so every row of the widget is exactly 1 (six ones
    times ``SIXTH`` round to 1, maxima of ones are 1) and V(t) is 1 without solving.
    The build skips those targets; the values it stores are the same."""
    least = 1 << 62
    for r in range(pts.shape[0]):
        best = 0
        for c in range(pts.shape[1]):
            if pts[r, c] >= 0:
                x = pts[r, c] + lo[succ[r, c]]
                if x > best:
                    best = x
        if best < least:
            least = best
    return least


TILE = 32
"""Targets decided together (:func:`decide_tile`): three work arrays of 462 x TILE doubles
stay in a core's L2 cache."""

SOLVE_TILE = 128
"""Targets :func:`solve_block` solves together: a wider tile spreads each roll's and box's
set-up over more targets (about a tenth less time than 32); 3 x 462 x 128 doubles is
1.4 MB, in a 2 MB L2. Every target's numbers are computed alike whatever the width."""


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
        A = np.empty((NUM_KEEPS, SOLVE_TILE))
        B = np.empty((NUM_KEEPS, SOLVE_TILE))
        C = np.empty((NUM_KEEPS, SOLVE_TILE))
        pts = np.empty((NUM_KEEPS - ROLL_START, ncat), dtype=np.int64)
        succ = np.empty((NUM_KEEPS - ROLL_START, ncat), dtype=np.int64)
        v = np.empty(width + SOLVE_TILE)
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
            skip = min(nt, max(0, certain_below(pts, succ, lo) - 1))
            for j in range(skip):
                v[j] = 1.0
            for t0 in range(skip, nt, SOLVE_TILE):
                widget(1 + t0, min(SOLVE_TILE, nt - t0), pts, succ, nxt, lo, ln, off, R, A, B, C,
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
def box_expectations(pts, succ, ev, out):
    """``out[r - ROLL_START, c]``: points of final roll r in box c plus the optimum's expected
    score after it (``ev`` by state id; -inf where the box may not take it), given the
    turn's :func:`successors`: the expected score of the option."""
    for i in range(pts.shape[0]):
        for c in range(pts.shape[1]):
            out[i, c] = pts[i, c] + ev[succ[i, c]] if pts[i, c] >= 0 else -np.inf


@njit(cache=True)
def keep_order(x, R, order):
    """``order[i, :n]``: the sub-keeps of roll i by expected score ``x``, largest first,
    equals in the order of ``R.subkeeps`` (so the first tied one is the tie rule's)."""
    subkeeps, subkeep_count = R.subkeeps, R.subkeep_count
    for i in range(subkeeps.shape[0]):
        n = subkeep_count[i]
        for q in range(n):  # insertion sort: stable, and n <= 32
            k = subkeeps[i, q]
            p = q
            while p > 0 and x[order[i, p - 1]] < x[k]:
                order[i, p] = order[i, p - 1]
                p -= 1
            order[i, p] = k


@njit(cache=True)
def policy_workspace(ncat, nsub):
    """Scratch of :func:`prepare_turn` and :func:`decide_tile` for one thread: ``(A, B, C,
    v, box_e, row_e, row_c, cat, keep1, keep2, order0, order1, bev, x0, x1, xw, pts,
    succ)``; ``nsub`` is ``R.subkeeps.shape[1]``."""
    rolls = NUM_KEEPS - ROLL_START
    return (
        np.empty((NUM_KEEPS, TILE)),
        np.empty((NUM_KEEPS, TILE)),
        np.empty((NUM_KEEPS, TILE)),
        np.empty(TILE),
        np.empty((rolls, TILE)),
        np.empty(TILE),
        np.empty(TILE, dtype=np.int64),
        np.empty((TILE, NUM_KEEPS), dtype=np.int64),
        np.empty((TILE, NUM_KEEPS), dtype=np.int64),
        np.empty((TILE, NUM_KEEPS), dtype=np.int64),
        np.empty((rolls, nsub), dtype=np.int64),
        np.empty((rolls, nsub), dtype=np.int64),
        np.empty((rolls, ncat)),
        np.empty(NUM_KEEPS),
        np.empty(NUM_KEEPS),
        np.empty(NUM_KEEPS),
        np.empty((rolls, ncat), dtype=np.int64),
        np.empty((rolls, ncat), dtype=np.int64),
    )


@njit(cache=True)
def prepare_turn(mask, u, y, sid, V, ev, R, ws):
    """What the decisions of one turn-start state share for every target: its
    ``successors``, the expected scores that break ties (``bev`` for boxes, from
    :func:`box_expectations`; ``x0``/``x1``, the optimum's keep values) and each
    roll's sub-keeps ordered by them (:func:`keep_order`)."""
    order0, order1, bev, x0, x1, xw, pts, succ = ws[10:]
    successors(mask, u, y, sid, R, pts, succ)
    box_expectations(pts, succ, ev, bev)
    turn_tables(V, mask, u, y, R, x0, x1, xw)
    keep_order(x0, R, order0)
    keep_order(x1, R, order1)


@njit(cache=True)
def decide_tile(t0, nt, nxt, lo, ln, off, R, ws):
    """The high-score decisions of one turn (after :func:`prepare_turn`) for the targets
    t = t0 + j, j < nt: ``cat[j, r]`` the box for final roll r, ``keep1[j, r]`` /
    ``keep2[j, r]`` the keep with one / two rolls left (``r`` itself: keep all five).

    The chances come from :func:`widget`; the tie rule is that of
    :func:`stratagem.games.yahtzee.one_turn.rank`: among the options whose chance is
    within ``TIE`` of the best, the one with the largest expected score, the first of
    equals (boxes before keeps, keeps in the order of ``R.subkeeps``). The best chance
    of final roll r is ``A[r]`` scoring now, ``B[r]`` with one roll left, ``C[r]``
    with two (maxima over its sub-keeps, r included). Scoring now ties at a keep stage
    with the boxes that tied with no roll left when that best equals ``A[r]``, with
    none when it exceeds ``A[r]`` by more than the tie, and is worked out box by box
    otherwise. The first sub-keep within the tie in ``order`` has the largest
    expected score of the tied keeps; it wins if that beats the tied boxes'.
    """
    A, B, C, v, box_e, row_e, row_c, cat, keep1, keep2, order0, order1, bev, x0, x1 = ws[:15]
    pts, succ = ws[16], ws[17]
    subkeep_count = R.subkeep_count
    widget(t0, nt, pts, succ, nxt, lo, ln, off, R, A, B, C, v)
    ncat = pts.shape[1]
    for r in range(ROLL_START, NUM_KEEPS):  # no roll left: the box
        i = r - ROLL_START
        best = A[r]
        for j in range(nt):
            row_e[j] = -np.inf
            row_c[j] = -1
        for c in range(ncat):
            p = pts[i, c]
            if p < 0:
                continue
            s2 = succ[i, c]
            e = bev[i, c]
            certain = min(nt, max(0, lo[s2] + p - t0))
            banded = min(nt, max(0, lo[s2] + ln[s2] + p - t0))
            base = off[s2] + t0 - p - lo[s2]
            for j in range(certain):  # selects, not branches: the loops vectorise
                ok = (best[j] - TIE <= 1.0) & (e > row_e[j])
                row_e[j] = e if ok else row_e[j]
                row_c[j] = c if ok else row_c[j]
            for j in range(certain, banded):
                ok = (nxt[base + j] >= best[j] - TIE) & (e > row_e[j])
                row_e[j] = e if ok else row_e[j]
                row_c[j] = c if ok else row_c[j]
            for j in range(banded, nt):
                ok = (best[j] - TIE <= 0.0) & (e > row_e[j])
                row_e[j] = e if ok else row_e[j]
                row_c[j] = c if ok else row_c[j]
        for j in range(nt):
            box_e[i, j] = row_e[j]
            cat[j, r] = row_c[j]
    for stage in range(2):  # one roll left (keep1, chances A), then two (keep2, chances B)
        E = A if stage == 0 else B
        TOP = B if stage == 0 else C
        X = x0 if stage == 0 else x1
        order = order0 if stage == 0 else order1
        keep = keep1 if stage == 0 else keep2
        for r in range(ROLL_START, NUM_KEEPS):
            i = r - ROLL_START
            top = TOP[r]
            best = A[r]
            for j in range(nt):
                th = top[j] - TIE
                if top[j] == best[j]:
                    be = box_e[i, j]
                elif th > best[j]:
                    be = -np.inf
                else:  # a keep above scoring now, by no more than the tie
                    be = _box_tie(i, t0 + j, top[j], pts, succ, bev, nxt, lo, ln, off)
                choice = r
                for q in range(subkeep_count[i]):
                    k = order[i, q]
                    if E[k, j] >= th:
                        if X[k] > be:
                            choice = k
                        break
                keep[j, r] = choice


@njit(cache=True)
def _box_tie(i, t, top, pts, succ, bev, nxt, lo, ln, off):
    """The largest expected score of the boxes of roll i whose chance is within the tie
    of ``top`` (-inf if none), for one t."""
    chosen = -np.inf
    for c in range(pts.shape[1]):
        p = pts[i, c]
        if (p >= 0 and bev[i, c] > chosen
                and _band_value(succ[i, c], t - p, nxt, lo, ln, off) >= top - TIE):  # fmt: skip
            chosen = bev[i, c]
    return chosen


@njit(cache=True)
def forward_layer(
    target, states, ids, mass, cur, nxt, sid, lo, ln, off, V, V0, ev, R, cut,
    row_of, next_mass, final, rsid, roff, rlow, rlen, rdata,
):  # fmt: skip
    """Push the chance of every (state, points so far < target) of one layer through a turn.

    ``mass[i, p]``: the chance of starting a turn in ``states[i]`` with p points.
    A turn with t = target - p points still needed is played for the target
    (:func:`decide_tile`, TILE values of t at once), unless V(s, t) < ``cut`` (out of
    reach): then for the expected score, as every turn once the target is reached.
    Mass that reaches the target goes to ``final`` (final score) through the optimal
    policy's remaining-score distribution ``(rsid, roff, rlow, rlen, rdata)``; the rest
    to ``next_mass`` (row ``row_of[id]`` for the next layer's state id); a full card
    ends in ``final``. The points so far are taken in increasing order.
    """
    ncat = R.score.shape[0]
    ws = policy_workspace(ncat, R.subkeeps.shape[1])
    cat, keep1, keep2 = ws[7], ws[8], ws[9]
    m1 = np.empty(NUM_KEEPS)
    m2 = np.empty(NUM_KEEPS)
    prob = np.zeros((ncat, MAX_POINTS))
    nu_out = np.zeros((ncat, MAX_POINTS), dtype=np.int64)
    ny_out = np.zeros((ncat, MAX_POINTS), dtype=np.int64)
    opt = workspace(ncat)  # the optimum's outcomes (state_outcomes)
    own = outcome_arrays(ncat)  # the strategy's own outcomes
    full = (1 << ncat) - 1
    for i in range(states.shape[0]):
        mask, u, y = states[i, 0], states[i, 1], states[i, 2]
        s = ids[i]
        have_ev = False
        n_ev = 0
        prepared = False
        pmin = 0
        while pmin < target and mass[i, pmin] == 0.0:
            pmin += 1
        # Tiles of targets from the largest t (the fewest points so far) down.
        t_hi = target - pmin
        t_lo = 1
        while t_hi >= t_lo:
            t0 = max(t_lo, t_hi - TILE + 1)
            nt = t_hi - t0 + 1
            decided = False
            for j in range(nt - 1, -1, -1):
                t = t0 + j
                p = target - t
                w = mass[i, p]
                if w == 0.0:
                    continue
                if _band_value(s, t, cur, lo, ln, off) < cut:
                    if not have_ev:
                        n_ev = state_outcomes(OPTIMAL, V, V0, mask, u, y, R, opt)[0]
                        have_ev = True
                    nout = n_ev
                    oc, ot, op, onu, ony = opt[12]  # where state_outcomes listed them
                else:
                    if not prepared:
                        prepare_turn(mask, u, y, sid, V, ev, R, ws)
                        prepared = True
                    if not decided:
                        decide_tile(t0, nt, nxt, lo, ln, off, R, ws)
                        decided = True
                    turn_outcomes(mask, u, y, keep2[j], keep1[j], cat[j], R, prob, nu_out,
                                  ny_out, m1, m2)  # fmt: skip
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
                        for jj in range(rlen[r2]):
                            final[base + jj] += q * rdata[o + jj]
                    else:
                        s2 = sid[m2c, onu[k], ony[k]]
                        next_mass[row_of[s2], p2] += q
            t_hi = t0 - 1


@njit(cache=True)
def mean_tile(t0, nt, nxt, lo, ln, off, R, ws, MA, MB, MC, mrows, row_of, ev, out):
    """``out[j]``: the expected points still to come when the turn is played by the
    high-score strategy for t = t0 + j points still needed (columns j < nt), by the
    decisions of :func:`decide_tile` (after :func:`prepare_turn`).

    ``MA``, ``MB``, ``MC`` carry the expected points as :func:`widget`'s ``A``, ``B``,
    ``C`` carry the chances (no roll left, one, two); ``mrows[row_of[s], t - 1]`` is M
    of the next layer's state s, ``ev[s]`` the optimum's expected points (what the
    strategy scores once the target is reached).
    """
    add, roll_prob = R.add, R.roll_prob
    decide_tile(t0, nt, nxt, lo, ln, off, R, ws)
    cat, keep1, keep2, pts, succ = ws[7], ws[8], ws[9], ws[16], ws[17]
    ncat = pts.shape[1]
    for r in range(ROLL_START, NUM_KEEPS):  # the box's points and M after it
        i = r - ROLL_START
        row = MA[r]
        for c in range(ncat):
            p = pts[i, c]
            if p < 0:
                continue
            s2 = succ[i, c]
            reached = min(nt, max(0, p - t0 + 1))  # t - p <= 0: the target is reached
            for j in range(reached):
                row[j] = p + ev[s2] if cat[j, r] == c else row[j]
            if reached < nt:
                mr = mrows[row_of[s2]]
                base = t0 - p - 1
                for j in range(reached, nt):
                    row[j] = p + mr[base + j] if cat[j, r] == c else row[j]
    _expect_rows(MA, add, nt)
    for r in range(ROLL_START, NUM_KEEPS):
        for j in range(nt):
            MB[r, j] = MA[keep1[j, r], j]
    _expect_rows(MB, add, nt)
    for r in range(ROLL_START, NUM_KEEPS):
        for j in range(nt):
            MC[r, j] = MB[keep2[j, r], j]
    _roll_mean(MC, roll_prob, nt, out)


@njit(cache=True, parallel=True)
def mean_block(states, ids, cur, nxt, sid, lo, ln, off, R, cut, V, ev, mrows, row_of, out):
    """``out[i, t - 1]``: M(states[i], t) for t = 1 .. out.shape[1], the expected points
    still to come when the high-score strategy needs t more (one layer's states; ``cur``
    their band data, ``nxt``/``mrows``/``row_of`` the next layer's, ``ev[id]`` the
    optimum's expected points, ``V`` its table). As in :func:`forward_layer`, a turn
    whose V is below ``cut`` is played for the expected score: M is then ``ev``.
    """
    n = states.shape[0]
    tmax = out.shape[1]
    ncat = R.score.shape[0]
    nchunks = min(n, 128)
    for chunk in prange(nchunks):
        ws = policy_workspace(ncat, R.subkeeps.shape[1])
        MA = np.empty((NUM_KEEPS, TILE))
        MB = np.empty((NUM_KEEPS, TILE))
        MC = np.empty((NUM_KEEPS, TILE))
        m = np.empty(TILE)
        for i in range(chunk * n // nchunks, (chunk + 1) * n // nchunks):
            mask, u, y = states[i, 0], states[i, 1], states[i, 2]
            s = ids[i]
            row = out[i]
            tend = min(tmax, lo[s] + ln[s] - 1)  # V is 0 above the band
            if tend >= 1:
                prepare_turn(mask, u, y, sid, V, ev, R, ws)
            for t0 in range(1, tend + 1, TILE):
                nt = min(TILE, tend - t0 + 1)
                mean_tile(t0, nt, nxt, lo, ln, off, R, ws, MA, MB, MC, mrows, row_of, ev, m)
                for j in range(nt):
                    row[t0 - 1 + j] = m[j]
            for t in range(1, tmax + 1):
                if _band_value(s, t, cur, lo, ln, off) < cut:
                    row[t - 1] = ev[s]
