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

``R`` is the rules of :mod:`._dist_kernels` (a ``KernelRules``); ``index`` (a
:class:`BandIndex`) says where each state's band lies, and ``nxt`` holds the band data
of the layer the turn's successors are in. As the rules, the arrays a kernel shares
with its callers travel as named tuples of arrays (:class:`BandIndex`, :class:`Stages`,
:class:`Optimum`, ...), so no kernel takes more than a dozen arguments.
"""

from __future__ import annotations

from typing import NamedTuple

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


class BandIndex(NamedTuple):
    """Where each state's band of V lies (:class:`.high_score.HighScoreTable`'s arrays)."""

    sid: np.ndarray
    """``sid[mask, u, y]``: the state's id, -1 if it cannot occur."""
    lo: np.ndarray
    """``lo[id]``: the first t with V < 1."""
    ln: np.ndarray
    """``ln[id]``: the band's length."""
    off: np.ndarray
    """``off[id]``: where the band starts in its layer's data."""


class Stages(NamedTuple):
    """One turn's work rows, keep by target (rows: keeps as numbered in :mod:`.dice`;
    columns: targets): what :func:`widget` leaves in them, chances (or, in
    :func:`mean_tile`, expected points)."""

    A: np.ndarray
    """Full hands r: scoring r now; other keeps k: keeping k with one roll left."""
    B: np.ndarray
    """Full hands: the best with one roll left; other keeps: keeping k with two left."""
    C: np.ndarray
    """Full hands: the best with two rolls left (other rows: scratch)."""


class Optimum(NamedTuple):
    """The expected-score optimum, which plays once a target is reached or out of reach."""

    V: np.ndarray
    """Its expected points still to come, by ``[mask, u, y]`` (``solution.values``)."""
    V0: np.ndarray
    """The policy table :func:`._dist_kernels.state_outcomes` takes beside ``V``."""
    ev: np.ndarray
    """``V`` by state id (of a :class:`BandIndex`)."""


class Front(NamedTuple):
    """The (state, points so far) pairs of one layer that :func:`forward_layer` pushes on."""

    states: np.ndarray
    """``states[i] = (mask, u, y)``."""
    ids: np.ndarray
    """Their ids."""
    mass: np.ndarray
    """``mass[i, p]``: the chance of starting a turn in ``states[i]`` with p points."""


class NextRows(NamedTuple):
    """One row per state of the next layer: ``rows[row_of[id]]``."""

    row_of: np.ndarray
    rows: np.ndarray


class Remaining(NamedTuple):
    """The optimum's remaining-score distributions (those of :mod:`.distribution`): state
    ``sid[mask, u, y]`` has ``P(remaining = lows[s] + j) = data[offsets[s] + j]`` for
    ``j < lengths[s]``."""

    sid: np.ndarray
    offsets: np.ndarray
    lows: np.ndarray
    lengths: np.ndarray
    data: np.ndarray


class PolicyWork(NamedTuple):
    """Scratch of :func:`prepare_turn` and :func:`decide_tile` for one thread
    (:func:`policy_workspace`)."""

    rows: Stages
    """:func:`widget`'s rows for a tile of targets."""
    v: np.ndarray
    """V at the turn's start, by target."""
    box_e: np.ndarray
    """``box_e[r - ROLL_START, j]``: the expected score of final roll r's tied best box."""
    row_e: np.ndarray
    row_c: np.ndarray
    cat: np.ndarray
    """``cat[j, r]``: the box of final roll r (target column j)."""
    keep1: np.ndarray
    """``keep1[j, r]``: the keep of roll r with one roll left."""
    keep2: np.ndarray
    """``keep2[j, r]``: the keep of roll r with two rolls left."""
    order0: np.ndarray
    """``order0[r - ROLL_START]``: roll r's sub-keeps by ``x0``, best first."""
    order1: np.ndarray
    """The same by ``x1``."""
    bev: np.ndarray
    """:func:`box_expectations` of the turn."""
    x0: np.ndarray
    """The optimum's keep values with one roll left."""
    x1: np.ndarray
    """With two rolls left."""
    xw: np.ndarray
    pts: np.ndarray
    """``pts[r - ROLL_START, c]``: the turn's :func:`successors`."""
    succ: np.ndarray


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
def widget(t0, nt, pts, succ, nxt, index, R, rows, out):
    """One turn for the targets t0 .. t0 + nt - 1, given its ``successors``.

    On return, for column j (t = t0 + j): ``A[r]`` (full hands r) is the best
    probability of scoring roll r now; ``A[k]`` (other keeps) is that of
    keeping k with one roll left, ``B[k]`` with two; ``C[r]`` is the value of
    roll r with two rolls left (best of scoring and every keep), and
    ``out[j] = V(t)`` at the turn's start (``A``, ``B``, ``C``: the :class:`Stages`
    ``rows``).
    """
    add, sub, sub_count, roll_prob = R.add, R.sub, R.sub_count, R.roll_prob
    lo, ln, off = index.lo, index.ln, index.off
    A, B, C = rows
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
            # Slices indexed from 0 by the loop counter: an index such as base + j,
            # which numba must check for a negative value (counted from the end),
            # keeps the loop from vectorising (four times slower).
            base = off[s] + t0 - p - lo[s]
            band = nxt[base + certain : base + banded]
            dest = row[certain:banded]
            for j in range(banded - certain):
                v = band[j]
                w = dest[j]
                dest[j] = v if v > w else w
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
        dest[o : o + lens[i]] = out[i, : lens[i]]


@njit(cache=True)
def copy_bands(src, src_off, lens, dest, dest_off):
    """``dest[dest_off[i] : dest_off[i] + lens[i]] = src[src_off[i] : src_off[i] + lens[i]]``
    for every i: each state's band copied from its class's."""
    for i in range(lens.shape[0]):
        a = src_off[i]
        b = dest_off[i]
        dest[b : b + lens[i]] = src[a : a + lens[i]]


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
def solve_block(states, nxt, index, R, cut, out, out_lo, out_ln):
    """The band of every state of ``states`` (all of one layer; ``nxt``: the next layer).

    ``out[i, :out_ln[i]]`` receives V(states[i], t) for t = out_lo[i], ...; V is 1
    below the band and below ``cut`` above it. Returns False if a band did not
    fit in a row of ``out`` (its width bounds the targets a turn can reach).
    """
    n = states.shape[0]
    width = out.shape[1]
    ncat = R.score.shape[0]
    sid, lo, ln = index.sid, index.lo, index.ln
    nchunks = min(n, 128)
    ok = np.ones(nchunks, dtype=np.bool_)
    for chunk in prange(nchunks):
        rows = Stages(
            np.empty((NUM_KEEPS, SOLVE_TILE)),
            np.empty((NUM_KEEPS, SOLVE_TILE)),
            np.empty((NUM_KEEPS, SOLVE_TILE)),
        )
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
                widget(1 + t0, min(SOLVE_TILE, nt - t0), pts, succ, nxt, index, R, rows, v[t0:])
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
def _band_value(s, t, data, index):
    """V(s, t) from a state's stored band (1 below it, 0 above it)."""
    lo, ln, off = index.lo, index.ln, index.off
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
    """A :class:`PolicyWork` for one thread; ``nsub`` is ``R.subkeeps.shape[1]``."""
    rolls = NUM_KEEPS - ROLL_START
    return PolicyWork(
        Stages(
            np.empty((NUM_KEEPS, TILE)),
            np.empty((NUM_KEEPS, TILE)),
            np.empty((NUM_KEEPS, TILE)),
        ),
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
def prepare_turn(mask, u, y, index, optimum, R, ws):
    """What the decisions of one turn-start state share for every target: its
    ``successors``, the expected scores that break ties (``bev`` for boxes, from
    :func:`box_expectations`; ``x0``/``x1``, the optimum's keep values) and each
    roll's sub-keeps ordered by them (:func:`keep_order`)."""
    successors(mask, u, y, index.sid, R, ws.pts, ws.succ)
    box_expectations(ws.pts, ws.succ, optimum.ev, ws.bev)
    turn_tables(optimum.V, mask, u, y, R, ws.x0, ws.x1, ws.xw)
    keep_order(ws.x0, R, ws.order0)
    keep_order(ws.x1, R, ws.order1)


@njit(cache=True)
def decide_tile(t0, nt, nxt, index, R, ws):
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
    A, B, C = ws.rows
    box_e, row_e, row_c, cat = ws.box_e, ws.row_e, ws.row_c, ws.cat
    bev, pts, succ = ws.bev, ws.pts, ws.succ
    lo, ln, off = index.lo, index.ln, index.off
    subkeep_count = R.subkeep_count
    widget(t0, nt, pts, succ, nxt, index, R, ws.rows, ws.v)
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
        X = ws.x0 if stage == 0 else ws.x1
        order = ws.order0 if stage == 0 else ws.order1
        keep = ws.keep1 if stage == 0 else ws.keep2
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
                    be = _box_tie(i, t0 + j, top[j], pts, succ, bev, nxt, index)
                choice = r
                for q in range(subkeep_count[i]):
                    k = order[i, q]
                    if E[k, j] >= th:
                        if X[k] > be:
                            choice = k
                        break
                keep[j, r] = choice


@njit(cache=True)
def _box_tie(i, t, top, pts, succ, bev, nxt, index):
    """The largest expected score of the boxes of roll i whose chance is within the tie
    of ``top`` (-inf if none), for one t."""
    chosen = -np.inf
    for c in range(pts.shape[1]):
        p = pts[i, c]
        if (p >= 0 and bev[i, c] > chosen
                and _band_value(succ[i, c], t - p, nxt, index) >= top - TIE):  # fmt: skip
            chosen = bev[i, c]
    return chosen


@njit(cache=True)
def forward_layer(target, front, cur, nxt, index, optimum, R, cut, onward, final, rest):
    """Push the chance of every (state, points so far < target) of one layer through a turn.

    ``front`` (a :class:`Front`) holds the layer's states and ``mass[i, p]``, the chance
    of starting a turn in ``states[i]`` with p points; ``cur`` is their band data.
    A turn with t = target - p points still needed is played for the target
    (:func:`decide_tile`, TILE values of t at once), unless V(s, t) < ``cut`` (out of
    reach): then for the expected score (the :class:`Optimum`), as every turn once the
    target is reached. Mass that reaches the target goes to ``final`` (final score)
    through the optimum's remaining-score distributions ``rest`` (a :class:`Remaining`);
    the rest to the next layer's rows ``onward`` (a :class:`NextRows` of masses by
    points so far); a full card ends in ``final``. The points so far are taken in
    increasing order.
    """
    states, ids, mass = front
    sid = index.sid
    next_mass, row_of = onward.rows, onward.row_of
    ncat = R.score.shape[0]
    ws = policy_workspace(ncat, R.subkeeps.shape[1])
    cat, keep1, keep2 = ws.cat, ws.keep1, ws.keep2
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
                if _band_value(s, t, cur, index) < cut:
                    if not have_ev:
                        n_ev = state_outcomes(OPTIMAL, optimum.V, optimum.V0, mask, u, y, R,
                                              opt)[0]  # fmt: skip
                        have_ev = True
                    nout = n_ev
                    oc, ot, op, onu, ony = opt[12]  # where state_outcomes listed them
                else:
                    if not prepared:
                        prepare_turn(mask, u, y, index, optimum, R, ws)
                        prepared = True
                    if not decided:
                        decide_tile(t0, nt, nxt, index, R, ws)
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
                        r2 = rest.sid[m2c, onu[k], ony[k]]
                        base = p2 + rest.lows[r2]
                        o = rest.offsets[r2]
                        for jj in range(rest.lengths[r2]):
                            final[base + jj] += q * rest.data[o + jj]
                    else:
                        s2 = sid[m2c, onu[k], ony[k]]
                        next_mass[row_of[s2], p2] += q
            t_hi = t0 - 1


@njit(cache=True)
def mean_tile(t0, nt, nxt, index, R, ws, M, later, ev, out):
    """``out[j]``: the expected points still to come when the turn is played by the
    high-score strategy for t = t0 + j points still needed (columns j < nt), by the
    decisions of :func:`decide_tile` (after :func:`prepare_turn`).

    ``M`` (a :class:`Stages`) carries the expected points as :func:`widget`'s rows carry
    the chances (no roll left, one, two); ``later.rows[later.row_of[s], t - 1]`` is M of
    the next layer's state s (a :class:`NextRows`), ``ev[s]`` the optimum's expected
    points (what the strategy scores once the target is reached).
    """
    add, roll_prob = R.add, R.roll_prob
    MA, MB, MC = M
    mrows, row_of = later.rows, later.row_of
    decide_tile(t0, nt, nxt, index, R, ws)
    cat, keep1, keep2, pts, succ = ws.cat, ws.keep1, ws.keep2, ws.pts, ws.succ
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
def mean_block(states, ids, cur, nxt, index, R, cut, optimum, later, out):
    """``out[i, t - 1]``: M(states[i], t) for t = 1 .. out.shape[1], the expected points
    still to come when the high-score strategy needs t more (one layer's states; ``cur``
    their band data, ``nxt`` and ``later`` (a :class:`NextRows` of M) the next layer's;
    ``optimum.ev[id]`` the optimum's expected points). As in :func:`forward_layer`, a
    turn whose V is below ``cut`` is played for the expected score: M is then ``ev``.
    """
    n = states.shape[0]
    tmax = out.shape[1]
    ncat = R.score.shape[0]
    lo, ln, ev = index.lo, index.ln, optimum.ev
    nchunks = min(n, 128)
    for chunk in prange(nchunks):
        ws = policy_workspace(ncat, R.subkeeps.shape[1])
        M = Stages(np.empty((NUM_KEEPS, TILE)), np.empty((NUM_KEEPS, TILE)),
                   np.empty((NUM_KEEPS, TILE)))  # fmt: skip
        m = np.empty(TILE)
        for i in range(chunk * n // nchunks, (chunk + 1) * n // nchunks):
            mask, u, y = states[i, 0], states[i, 1], states[i, 2]
            s = ids[i]
            row = out[i]
            tend = min(tmax, lo[s] + ln[s] - 1)  # V is 0 above the band
            if tend >= 1:
                prepare_turn(mask, u, y, index, optimum, R, ws)
            for t0 in range(1, tend + 1, TILE):
                nt = min(TILE, tend - t0 + 1)
                mean_tile(t0, nt, nxt, index, R, ws, M, later, ev, m)
                for j in range(nt):
                    row[t0 - 1 + j] = m[j]
            for t in range(1, tmax + 1):
                if _band_value(s, t, cur, index) < cut:
                    row[t - 1] = ev[s]
