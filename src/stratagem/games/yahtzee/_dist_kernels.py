"""Numba kernels for fixed policies: their decisions, turn outcomes, moments and
remaining-score distributions; nothing else.

A *policy* fills, for one turn-start state, ``keep2[r]`` and ``keep1[r]`` (the keep
for each roll with two and one rerolls left; keeping all five means scoring now)
and ``cat[r]`` (the box for each final roll). :func:`turn_outcomes` pushes the
probability of the first throw through those choices (the transpose of the
solver's expectation step) and collects ``prob[c, t]``: the chance that the turn
ends in box c with t points (bonuses included), with the next state's upper total
and Yahtzee flag in ``nu[c, t]``, ``ny[c, t]``.

Every kernel takes the rule set and the dice tables as one named tuple ``R``, a
:class:`~stratagem.games.yahtzee.solver.KernelRules` (``solution.arrays.kernel``),
and reads its fields by name (``R.score``, ``R.straights``, ...).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from stratagem.games.yahtzee._kernels import (
    I_FLAGS,
    I_THRESHOLD,
    I_UBONUS,
    I_YCAT,
    NEG,
    NUM_KEEPS,
    ROLL_START,
    _best_keep,
    best_box,
    best_subkeep,
    category_points,
    expect,
    turn_tables,
    yahtzee_face,
)
from stratagem.games.yahtzee.policy_ids import GREEDY as GREEDY
from stratagem.games.yahtzee.policy_ids import HEURISTIC as HEURISTIC
from stratagem.games.yahtzee.policy_ids import OPTIMAL as OPTIMAL
from stratagem.games.yahtzee.policy_ids import YAHTZEE_ONLY as YAHTZEE_ONLY
from stratagem.games.yahtzee.policy_ids import YAHTZEE_STRAIGHTS as YAHTZEE_STRAIGHTS

MAX_POINTS = 256


@njit(cache=True)
def _most_common_face(counts, r):
    best_f = 0
    best_n = -1
    for f in range(5, -1, -1):  # ties go to the higher face
        if counts[r, f] > best_n:
            best_n = counts[r, f]
            best_f = f
    return best_f, best_n


@njit(cache=True)
def _keep_of(held, code_to_keep):
    code = 0
    for f in range(5, -1, -1):
        code = code * 6 + held[f]
    return code_to_keep[code]


@njit(cache=True)
def _longest_run(counts, r):
    """(start face index, length) of the longest run of distinct consecutive faces."""
    best_s = 0
    best_len = 0
    f = 0
    while f < 6:
        if counts[r, f] > 0:
            s = f
            while f < 6 and counts[r, f] > 0:
                f += 1
            if f - s > best_len:
                best_len = f - s
                best_s = s
        else:
            f += 1
    return best_s, best_len


@njit(cache=True)
def _rule_keep(pid, mask, r, counts, code_to_keep, cat_ss, cat_ls, held):
    """The keep of the rule-based policies (see strategies.PolicyAgent for the definitions)."""
    for f in range(6):
        held[f] = 0
    face, n = _most_common_face(counts, r)
    if pid == YAHTZEE_STRAIGHTS and n < 3:
        run_s, run_len = _longest_run(counts, r)
        straights_open = (cat_ss >= 0 and not (mask >> cat_ss) & 1) or (
            cat_ls >= 0 and not (mask >> cat_ls) & 1
        )
        if straights_open and run_len >= 3:
            for f in range(run_s, run_s + run_len):
                held[f] = 1
            return _keep_of(held, code_to_keep)
    held[face] = n
    return _keep_of(held, code_to_keep)


@njit(cache=True)
def most_points(mask, u, y, r, score, upper_face, joker_score, counts, ip):
    """``(box, points)``: the box where roll r scores most now (bonuses included; the
    first of equals)."""
    best_c = -1
    best = -1
    for c in range(score.shape[0]):
        pts, _nu, _ny, legal = category_points(
            mask, u, y, c, r, score, upper_face, joker_score, counts, ip
        )
        if legal and pts > best:
            best = pts
            best_c = c
    return best_c, best


class Choices(NamedTuple):
    """A policy's choices at one state, rows of 462 by keep number: the keep with two
    rerolls left (``keep2``), with one left (``keep1``), and the box scored (``cat``)."""

    keep2: np.ndarray
    keep1: np.ndarray
    cat: np.ndarray


class TurnScratch(NamedTuple):
    """Rows :func:`policy_tables` works in: the turn's expectations ``e0``, ``e1`` and
    ``w`` (462 each, as ``_kernels.turn_tables`` fills them) and the faces ``held`` (6)."""

    e0: np.ndarray
    e1: np.ndarray
    w: np.ndarray
    held: np.ndarray


class Layer(NamedTuple):
    """A layer's remaining-score distributions: state (mask, u, y) has id
    ``sid[mask, u, y]`` (-1: none), and id s the scores ``lows[s]``, ``lows[s] + 1``, ...
    with chances ``data[offsets[s] : offsets[s] + lengths[s]]``."""

    sid: np.ndarray
    offsets: np.ndarray
    lows: np.ndarray
    lengths: np.ndarray
    data: np.ndarray


class Rows(NamedTuple):
    """Distributions one per row, as :func:`distribution_layer` writes them: row i holds
    ``values[i, :lengths[i]]`` over the scores from ``lows[i]``."""

    lows: np.ndarray
    lengths: np.ndarray
    values: np.ndarray


@njit(cache=True)
def best_boxes(V, mask, u, y, R, cat, val):
    """``cat[r], val[r] = best_box(V, mask, u, y, r, ...)`` for every final roll r.

    A roll that is not five of a kind meets neither the Yahtzee bonus nor the joker
    rules, so :func:`.category_points` comes down to the box's points, the upper bonus
    and the new upper total or flag: worked out here inline, with the same sums
    (``points + bonus``, then ``+ V``) compared in the same order (boxes in turn, the
    first of equals), so the boxes and values are those of ``best_box``, which five of a
    kind still goes through. ``best_box`` for every roll and box was most of the time of
    a remaining-score build.
    """
    score, upper_face, joker_score, counts, ip = (
        R.score, R.upper_face, R.joker_score, R.counts, R.ip,
    )  # fmt: skip
    ncat = score.shape[0]
    threshold = ip[I_THRESHOLD]
    ubonus = ip[I_UBONUS]
    ycat = ip[I_YCAT]
    flag_box = ip[I_FLAGS] == 2
    for r in range(ROLL_START, NUM_KEEPS):
        if yahtzee_face(counts, r) > 0:
            c, v = best_box(V, mask, u, y, r, score, upper_face, joker_score, counts, ip)
            cat[r] = c
            val[r] = v
            continue
        best_c = -1
        best = NEG
        for c in range(ncat):
            if (mask >> c) & 1:
                continue
            pts = score[c, r]
            m2 = mask | (1 << c)
            if upper_face[c] > 0:
                nu = min(threshold, u + pts)
                bonus = ubonus if (u < threshold and u + pts >= threshold) else 0
                v = pts + bonus + V[m2, nu, y]
            elif c == ycat and flag_box:
                v = pts + V[m2, u, 1 if pts > 0 else 0]
            else:
                v = pts + V[m2, u, y]
            if v > best:
                best = v
                best_c = c
        cat[r] = best_c
        val[r] = best


@njit(cache=True)
def policy_tables(pid, V, V0, mask, u, y, R, choices, scratch):
    """Fill ``choices`` (:class:`Choices`) for every roll of the state (mask, u, y)."""
    keep2, keep1, cat = choices.keep2, choices.keep1, choices.cat
    e0, e1, w, held = scratch.e0, scratch.e1, scratch.w, scratch.held
    score, upper_face, joker_score = R.score, R.upper_face, R.joker_score
    counts, ip = R.counts, R.ip
    subkeeps, subkeep_count, code_to_keep = R.subkeeps, R.subkeep_count, R.code_to_keep
    cats = R.straights
    if pid <= GREEDY or pid == HEURISTIC:  # the best box and keeps by a value table
        table = V if pid == OPTIMAL else V0  # V0: zeros (greedy) or the heuristic's card values
        turn_tables(table, mask, u, y, R, e0, e1, w)
        best_boxes(table, mask, u, y, R, cat, w)  # turn_tables is done with w
        for r in range(ROLL_START, NUM_KEEPS):
            v = w[r]
            k = _best_keep(e1, r, subkeeps, subkeep_count)
            keep2[r] = r if v >= e1[k] else k
            k = _best_keep(e0, r, subkeeps, subkeep_count)
            keep1[r] = r if v >= e0[k] else k
        return
    for r in range(ROLL_START, NUM_KEEPS):
        k = _rule_keep(pid, mask, r, counts, code_to_keep, cats[0], cats[1], held)
        keep2[r] = k
        keep1[r] = k
        cat[r] = most_points(mask, u, y, r, score, upper_face, joker_score, counts, ip)[0]


@njit(cache=True)
def _spread(m, add):
    """Throw the dice not kept: mass on keep k moves to the rolls that complete it."""
    for k in range(ROLL_START):
        mk = m[k]
        if mk != 0.0:
            share = mk / 6.0
            for f in range(6):
                m[add[k, f]] += share
            m[k] = 0.0


@njit(cache=True)
def final_roll_chances(keep2, keep1, add, roll_prob, m1, m2):
    """``m2[r]``: the chance that the turn's final roll is ``r`` when the player keeps
    ``keep2[r]`` after the first roll and ``keep1[r]`` after the second (``m1`` is the
    second roll's chances, scratch). Shared by :func:`turn_outcomes` and
    :func:`fast_outcomes` so both sum the same products in the same order."""
    m1[:] = 0.0
    m2[:] = 0.0
    for r in range(ROLL_START, NUM_KEEPS):
        m1[keep2[r]] += roll_prob[r]
    _spread(m1, add)
    for r in range(ROLL_START, NUM_KEEPS):
        m2[keep1[r]] += m1[r]
    _spread(m2, add)


@njit(cache=True)
def turn_outcomes(mask, u, y, keep2, keep1, cat, R, prob, nu_out, ny_out, m1, m2):
    """prob[c, t]: the chance that the turn ends in box c with t points (see module doc)."""
    score, upper_face, joker_score = R.score, R.upper_face, R.joker_score
    counts, ip = R.counts, R.ip
    prob[:, :] = 0.0
    final_roll_chances(keep2, keep1, R.add, R.roll_prob, m1, m2)
    for r in range(ROLL_START, NUM_KEEPS):
        p = m2[r]
        if p == 0.0:
            continue
        c = cat[r]
        pts, nu, ny, _legal = category_points(
            mask, u, y, c, r, score, upper_face, joker_score, counts, ip
        )
        prob[c, pts] += p
        nu_out[c, pts] = nu
        ny_out[c, pts] = ny


@njit(cache=True)
def outcome_list(mask, prob, nu_out, ny_out, oc, ot, op, onu, ony):
    """The turn outcomes of ``prob`` (from :func:`turn_outcomes`) with a chance > 0,
    in the order box, then points: ``op[k]`` the chance that the turn ends in box
    ``oc[k]`` with ``ot[k]`` points, the next state's upper total and Yahtzee flag
    ``onu[k]``, ``ony[k]``. Returns how many there are.
    """
    n = 0
    for c in range(prob.shape[0]):
        if (mask >> c) & 1:
            continue
        for t in range(MAX_POINTS):
            p = prob[c, t]
            if p == 0.0:
                continue
            oc[n] = c
            ot[n] = t
            op[n] = p
            onu[n] = nu_out[c, t]
            ony[n] = ny_out[c, t]
            n += 1
    return n


@njit(cache=True)
def outcome_arrays(ncat):
    """Room for :func:`outcome_list`: ``(oc, ot, op, onu, ony)``."""
    size = ncat * MAX_POINTS
    return (
        np.empty(size, dtype=np.int64),
        np.empty(size, dtype=np.int64),
        np.empty(size),
        np.empty(size, dtype=np.int64),
        np.empty(size, dtype=np.int64),
    )


@njit(cache=True)
def workspace(ncat):
    """Scratch arrays of :func:`state_outcomes` (one set per thread)."""
    return (
        np.empty(NUM_KEEPS, dtype=np.int64),  # keep2
        np.empty(NUM_KEEPS, dtype=np.int64),  # keep1
        np.empty(NUM_KEEPS, dtype=np.int64),  # cat
        np.empty(NUM_KEEPS),  # e0
        np.empty(NUM_KEEPS),  # e1
        np.empty(NUM_KEEPS),  # w
        np.empty(NUM_KEEPS),  # mass after the first reroll
        np.empty(NUM_KEEPS),  # mass after the second
        np.zeros(6, dtype=np.int64),  # held
        np.zeros((ncat, MAX_POINTS)),  # prob
        np.zeros((ncat, MAX_POINTS), dtype=np.int64),  # nu
        np.zeros((ncat, MAX_POINTS), dtype=np.int64),  # ny
        outcome_arrays(ncat),
    )


@njit(cache=True)
def state_outcomes(pid, V, V0, mask, u, y, R, ws):
    """The policy's choices at one state, then its turn outcomes as an
    :func:`outcome_list`: returns ``(n, oc, ot, op, onu, ony)``."""
    keep2, keep1, cat, e0, e1, w, m1, m2, held, prob, nu_out, ny_out, lst = ws
    choices = Choices(keep2, keep1, cat)
    policy_tables(pid, V, V0, mask, u, y, R, choices, TurnScratch(e0, e1, w, held))
    turn_outcomes(mask, u, y, keep2, keep1, cat, R, prob, nu_out, ny_out, m1, m2)
    oc, ot, op, onu, ony = lst
    n = outcome_list(mask, prob, nu_out, ny_out, oc, ot, op, onu, ony)
    return n, oc, ot, op, onu, ony


@njit(cache=True)
def final_choices(table, mask, u, y, R, w, fin, fut, futi, opn):
    """``w[r]`` and ``fin[:, r]`` = (box, points, upper total, flag) for every final roll r:
    the box of :func:`best_boxes` (the same values, compared in the same order) with
    what :func:`.category_points` gives for it (bonuses included in the points).

    The value of each open box apart from the roll's points is worked out once per
    state (``fut[c, n]`` for an upper box with n dice of its face, the points and the
    new upper total in ``futi[:, c, n]``; ``fut[c, 0]`` for the others), as the
    solver's ``fill_final_roll_values`` does: the same sums as ``best_boxes`` (an
    upper box's points are its face times its dice), without its per-roll lookups.
    Five of a kind goes through ``best_box`` and ``category_points``. ``opn`` is
    scratch for the open boxes.
    """
    score, upper_face, joker_score, counts, ip = (
        R.score, R.upper_face, R.joker_score, R.counts, R.ip,
    )  # fmt: skip
    ncat = score.shape[0]
    threshold = ip[I_THRESHOLD]
    ubonus = ip[I_UBONUS]
    ycat = ip[I_YCAT]
    flag_box = ip[I_FLAGS] == 2
    nopen = 0
    for c in range(ncat):
        if (mask >> c) & 1:
            continue
        opn[nopen] = c
        nopen += 1
        m2 = mask | (1 << c)
        face = upper_face[c]
        if face > 0:
            for n in range(6):
                s = face * n
                nu = min(threshold, u + s)
                bonus = ubonus if (u < threshold and u + s >= threshold) else 0
                fut[c, n] = s + bonus + table[m2, nu, y]
                futi[0, c, n] = s + bonus
                futi[1, c, n] = nu
        elif c == ycat and flag_box:  # not five of a kind: the Yahtzee box scores 0
            fut[c, 0] = table[m2, u, 0]
        else:
            fut[c, 0] = table[m2, u, y]
    # Box by box (in the order best_boxes takes them) over every roll: the same
    # comparisons for each roll as there, in the same order.
    for r in range(ROLL_START, NUM_KEEPS):
        w[r] = NEG
    for j in range(nopen):
        c = opn[j]
        face = upper_face[c]
        if face > 0:
            for r in range(ROLL_START, NUM_KEEPS):
                v = fut[c, counts[r, face - 1]]
                if v > w[r]:
                    w[r] = v
                    fin[0, r] = c
        else:
            base = fut[c, 0]
            for r in range(ROLL_START, NUM_KEEPS):
                v = score[c, r] + base
                if v > w[r]:
                    w[r] = v
                    fin[0, r] = c
    for r in range(ROLL_START, NUM_KEEPS):
        c = fin[0, r]
        face = upper_face[c]
        if face > 0:
            n = counts[r, face - 1]
            fin[1, r] = futi[0, c, n]
            fin[2, r] = futi[1, c, n]
            fin[3, r] = y
        else:
            pts = score[c, r]
            fin[1, r] = pts
            fin[2, r] = u
            fin[3, r] = (1 if pts > 0 else 0) if (c == ycat and flag_box) else y
    # Five of a kind (the Yahtzee bonus and the joker rules): the full scoring instead.
    for f in range(6):  # five dice of face f + 1: the keep with code 5 * 6**f (_keep_of)
        r = R.code_to_keep[5 * 6**f]
        c, v = best_box(table, mask, u, y, r, score, upper_face, joker_score, counts, ip)
        pts, nu, ny, _legal = category_points(
            mask, u, y, c, r, score, upper_face, joker_score, counts, ip
        )
        w[r] = v
        fin[0, r] = c
        fin[1, r] = pts
        fin[2, r] = nu
        fin[3, r] = ny


@njit(cache=True)
def turn_work(ncat):
    """Scratch arrays of :func:`fast_outcomes` (one set per thread); the outcome list
    is the last item, as :func:`outcome_arrays` makes it."""
    return (
        np.empty(NUM_KEEPS, dtype=np.int64),  # keep2
        np.empty(NUM_KEEPS, dtype=np.int64),  # keep1
        np.zeros((4, NUM_KEEPS), dtype=np.int64),  # fin: box, points, upper total, flag
        np.empty(NUM_KEEPS),  # e0
        np.empty(NUM_KEEPS),  # e1
        np.empty(NUM_KEEPS),  # w: the final rolls' values
        np.empty(NUM_KEEPS),  # the best sub-keep values with one roll left
        np.empty(NUM_KEEPS),  # mass after the first reroll
        np.empty(NUM_KEEPS),  # mass after the second
        np.zeros(6, dtype=np.int64),  # held
        np.zeros((ncat, MAX_POINTS)),  # prob: zero between calls
        np.zeros((ncat, MAX_POINTS), dtype=np.int64),  # nu
        np.zeros((ncat, MAX_POINTS), dtype=np.int64),  # ny
        np.full((2, ncat), -1, dtype=np.int64),  # the least and most points in prob by box
        np.zeros((ncat, 6)),  # fut
        np.zeros((2, ncat, 6), dtype=np.int64),  # futi
        np.zeros(ncat, dtype=np.int64),  # the open boxes
        np.empty(NUM_KEEPS),  # the best sub-keep values with two rolls left
        outcome_arrays(ncat),
    )


@njit(cache=True)
def listed(tw):
    """The outcome list ``(oc, ot, op, onu, ony)`` that :func:`fast_outcomes` fills."""
    return tw[18]


@njit(cache=True)
def fast_outcomes(pid, V, V0, mask, u, y, R, tw):
    """:func:`state_outcomes` with :func:`turn_work` scratch: the same outcome list,
    the same numbers (returns its length; the list is :func:`listed`).

    Faster for the policies that decide by a value table: the final rolls' best boxes,
    values and points in one pass (:func:`final_choices`), only the expectations the
    keeps need, and the outcomes collected from the rolls' points directly, by box
    then points, with only the cells touched read and cleared (``prob`` stays zero).
    The probability of each (box, points) is summed over the rolls in the same order.
    """
    keep2, keep1, fin, e0, e1, w, best1, m1, m2, held, prob, nu_out, ny_out, span = tw[:14]
    fut, futi, opn, best2 = tw[14], tw[15], tw[16], tw[17]
    oc, ot, op, onu, ony = listed(tw)
    counts, ip = R.counts, R.ip
    if pid <= GREEDY or pid == HEURISTIC:
        table = V if pid == OPTIMAL else V0
        final_choices(table, mask, u, y, R, w, fin, fut, futi, opn)
        # _kernels.turn_tables, with the best sub-keeps found on the way
        expect(w, R.add, e0)
        best_subkeep(e0, R.sub, R.sub_count, best1)
        expect(best1, R.add, e1)
        best_subkeep(e1, R.sub, R.sub_count, best2)
        # As policy_tables decides: keep r (score now) if v >= E[k] for the sub-keep k
        # of _best_keep (the first of equals). A roll's sub-keeps are all its
        # sub-multisets in keep-number order, so E[k] is best_subkeep's most for the
        # roll, and k the first sub-keep where E reaches it (written out here: as a
        # function call it was slower than _best_keep).
        subs, nsubs = R.subkeeps, R.subkeep_count
        for r in range(ROLL_START, NUM_KEEPS):
            v = w[r]
            i = r - ROLL_START
            keep2[r] = r
            if v < best2[r]:
                most = best2[r]
                for j in range(nsubs[i]):
                    if e1[subs[i, j]] == most:
                        keep2[r] = subs[i, j]
                        break
            keep1[r] = r
            if v < best1[r]:
                most = best1[r]
                for j in range(nsubs[i]):
                    if e0[subs[i, j]] == most:
                        keep1[r] = subs[i, j]
                        break
    else:
        cats = R.straights
        for r in range(ROLL_START, NUM_KEEPS):
            k = _rule_keep(pid, mask, r, counts, R.code_to_keep, cats[0], cats[1], held)
            keep2[r] = k
            keep1[r] = k
            c = most_points(mask, u, y, r, R.score, R.upper_face, R.joker_score, counts, ip)[0]
            pts, nu, ny, _legal = category_points(
                mask, u, y, c, r, R.score, R.upper_face, R.joker_score, counts, ip
            )
            fin[0, r] = c
            fin[1, r] = pts
            fin[2, r] = nu
            fin[3, r] = ny
    final_roll_chances(keep2, keep1, R.add, R.roll_prob, m1, m2)
    for r in range(ROLL_START, NUM_KEEPS):
        p = m2[r]
        if p == 0.0:
            continue
        c = fin[0, r]
        t = fin[1, r]
        prob[c, t] += p
        nu_out[c, t] = fin[2, r]
        ny_out[c, t] = fin[3, r]
        if span[1, c] < 0:
            span[0, c] = t
            span[1, c] = t
        elif t < span[0, c]:
            span[0, c] = t
        elif t > span[1, c]:
            span[1, c] = t
    n = 0
    for c in range(prob.shape[0]):
        if span[1, c] < 0:
            continue
        for t in range(span[0, c], span[1, c] + 1):
            p = prob[c, t]
            if p == 0.0:
                continue
            oc[n] = c
            ot[n] = t
            op[n] = p
            onu[n] = nu_out[c, t]
            ony[n] = ny_out[c, t]
            prob[c, t] = 0.0
            n += 1
        span[0, c] = -1
        span[1, c] = -1
    return n


@njit(cache=True, parallel=True)
def moments_layer(pid, V, V0, M1, M2, states, R):
    """First and second moments of the remaining score under policy ``pid``."""
    n = states.shape[0]
    ncat = R.score.shape[0]
    nchunks = min(n, 128)
    for chunk in prange(nchunks):
        tw = turn_work(ncat)
        for i in range(chunk * n // nchunks, (chunk + 1) * n // nchunks):
            mask, u, y = states[i, 0], states[i, 1], states[i, 2]
            nout = fast_outcomes(pid, V, V0, mask, u, y, R, tw)
            oc, ot, op, onu, ony = listed(tw)
            s1 = 0.0
            s2 = 0.0
            for k in range(nout):
                m2 = mask | (1 << oc[k])
                t = ot[k]
                p = op[k]
                f1 = M1[m2, onu[k], ony[k]]
                f2 = M2[m2, onu[k], ony[k]]
                s1 += p * (t + f1)
                s2 += p * (t * t + 2.0 * t * f1 + f2)
            M1[mask, u, y] = s1
            M2[mask, u, y] = s2


@njit(cache=True)
def _add_row(scratch, base, data, off, n, p):
    """``scratch[base + j] += p * data[off + j]`` for j < n.

    On slices indexed from 0, so that the compiler knows no index is negative (numba
    wraps negative indices round) and can use vector instructions: the same products
    and sums, element by element, several at a time.
    """
    dst = scratch[base : base + n]
    src = data[off : off + n]
    for j in range(n):
        dst[j] += p * src[j]


@njit(cache=True, parallel=True)
def distribution_layer(pid, V, V0, states, nxt, res, R, trim):
    """Remaining-score distributions of some states of a layer from those of the next.

    The next layer's distributions are ``nxt`` (a :class:`Layer`). The distribution of
    ``states[i]`` goes to row i of ``res`` (:class:`Rows`); tails below ``trim`` in total
    on either side are cut off. Returns 0, or 1 if some distribution did not fit in a row
    of ``res.values``, or 2 if a state moves to one without a distribution (``sid`` -1).
    """
    sid, offsets, lows, lengths, data = nxt.sid, nxt.offsets, nxt.lows, nxt.lengths, nxt.data
    out_lows, out_lengths, out = res.lows, res.lengths, res.values
    n = states.shape[0]
    ncat = R.score.shape[0]
    width = out.shape[1]
    nchunks = min(n, 64)
    status = np.zeros(nchunks, dtype=np.int64)
    for chunk in prange(nchunks):
        tw = turn_work(ncat)
        scratch = np.zeros(2 * width + MAX_POINTS)
        for i in range(chunk * n // nchunks, (chunk + 1) * n // nchunks):
            mask, u, y = states[i, 0], states[i, 1], states[i, 2]
            nout = fast_outcomes(pid, V, V0, mask, u, y, R, tw)
            oc, ot, op, onu, ony = listed(tw)
            top = 0
            for k in range(nout):
                s = sid[mask | (1 << oc[k]), onu[k], ony[k]]
                if s < 0:
                    status[chunk] = 2
                    continue
                base = ot[k] + lows[s]
                _add_row(scratch, base, data, offsets[s], lengths[s], op[k])
                if base + lengths[s] > top:
                    top = base + lengths[s]
            lo = 0
            acc = 0.0
            while lo < top and acc + scratch[lo] < trim:
                acc += scratch[lo]
                lo += 1
            hi = top
            acc = 0.0
            while hi > lo and acc + scratch[hi - 1] < trim:
                acc += scratch[hi - 1]
                hi -= 1
            if hi - lo > width:
                status[chunk] = max(status[chunk], 1)
                hi = lo + width
            out_lows[i] = lo
            out_lengths[i] = hi - lo
            for j in range(lo, hi):
                out[i, j - lo] = scratch[j]
            for j in range(top):
                scratch[j] = 0.0
    return status.max()


@njit(cache=True)
def compact_unique(out, out_low, out_len, lo, first, low_l, len_l, off_l, owner, dest, used):
    """Copy the rows ``out[r, :out_len[r]]`` of layer states ``lo + r`` after ``dest[:used]``.

    A row equal (same low, length and values) to that of an earlier state of the
    same mask (``first[i]``: the layer index of the first state with state i's
    mask) is not copied again: the state gets that row's offset. Fills the
    layer's ``low_l``, ``len_l``, ``off_l`` and ``owner`` (the state's row is its
    own copy); returns the new ``used``.
    """
    for r in range(out.shape[0]):
        i = lo + r
        n = out_len[r]
        low_l[i] = out_low[r]
        len_l[i] = n
        same = -1
        for j in range(first[i], i):
            if not owner[j] or len_l[j] != n or low_l[j] != out_low[r]:
                continue
            off = off_l[j]
            k = 0
            while k < n and dest[off + k] == out[r, k]:
                k += 1
            if k == n:
                same = j
                break
        if same >= 0:
            off_l[i] = off_l[same]
            owner[i] = False
            continue
        off_l[i] = used
        owner[i] = True
        for k in range(n):
            dest[used + k] = out[r, k]
        used += n
    return used


@njit(cache=True)
def occupancy_layer(pid, V, V0, occ, seen, states, R, ycat, totals):
    """Push the probability of reaching each state of a layer to the next layer.

    ``seen`` marks the states a game can reach (a move of probability > 0 from a
    state it marks; set the start state's before the first layer). ``totals[0]``
    gathers P(the Yahtzee box scores 50), ``totals[1]`` the expected number of
    Yahtzee bonuses (a turn ending with 100 or more points holds one).
    """
    ncat = R.score.shape[0]
    tw = turn_work(ncat)
    for i in range(states.shape[0]):
        mask, u, y = states[i, 0], states[i, 1], states[i, 2]
        if not seen[mask, u, y]:
            continue
        here = occ[mask, u, y]
        nout = fast_outcomes(pid, V, V0, mask, u, y, R, tw)
        oc, ot, op, onu, ony = listed(tw)
        for k in range(nout):
            m2 = mask | (1 << oc[k])
            p = op[k]
            t = ot[k]
            occ[m2, onu[k], ony[k]] += here * p
            seen[m2, onu[k], ony[k]] = True
            if oc[k] == ycat and t == 50:
                totals[0] += here * p
            if t >= 100:
                totals[1] += here * p
