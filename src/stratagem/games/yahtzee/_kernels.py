"""Numba-compiled hot loops of the Yahtzee solver and simulator; nothing else.

The kernels called from Python take the rule set and the dice tables as one
argument ``R``, a :class:`~stratagem.games.yahtzee.solver.KernelRules` named
tuple (``R.score``, ``R.add``, ...; built by ``solver.RuleArrays.kernel``); the
innermost helpers take the few arrays they read:

* ``score[c, k]``: points of roll ``k`` in box ``c`` by the box's own rule;
* ``upper_face[c]``: 1..6 for the upper boxes, 0 for the others;
* ``joker_score[c, f-1, upper_filled]``: a Yahtzee of face ``f`` scored as a joker;
* ``ip``: ``[yahtzee box (-1 if none), joker mode (0 none, 1 forced, 2 free),
  upper bonus, upper threshold T, Yahtzee bonus, flag count Y, lower-box mask]``.

``V[mask, u, y]`` is the expected score still to come from the start of a turn
with boxes ``mask`` filled, upper total ``u`` (capped at T) and ``y`` = 1 when
the Yahtzee box holds 50. Keeps are numbered as in :mod:`.dice`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from stratagem.core._rng_kernels import below

NUM_KEEPS = 462
ROLL_START = 210
NEG = -1e300

# Indices into the ``ip`` array.
I_YCAT = 0
I_JOKER = 1
I_UBONUS = 2
I_THRESHOLD = 3
I_YBONUS = 4
I_FLAGS = 5
I_LOWER = 6


@njit(cache=True)
def yahtzee_face(counts: np.ndarray, k: int) -> int:
    """The face of roll ``k`` if it is five of a kind, else 0."""
    for f in range(6):
        if counts[k, f] == 5:
            return f + 1
    return 0


@njit(cache=True)
def category_points(mask, u, y, c, k, score, upper_face, joker_score, counts, ip):
    """Points, new upper total, new flag and legality of scoring roll ``k`` in box ``c``.

    Returns ``(points_including_bonuses, new_u, new_y, legal)``; this is the one
    place where the Yahtzee bonus and the joker rules live.
    """
    if (mask >> c) & 1:
        return 0, u, y, False
    ycat = ip[I_YCAT]
    threshold = ip[I_THRESHOLD]
    pts = score[c, k]
    bonus = 0
    face = yahtzee_face(counts, k)
    if face > 0 and ycat >= 0 and (mask >> ycat) & 1:
        if y == 1:
            bonus += ip[I_YBONUS]
        mode = ip[I_JOKER]
        own_upper = face - 1
        own_filled = (mask >> own_upper) & 1
        if mode == 1:
            if own_filled == 0:
                if c != own_upper:
                    return 0, u, y, False
            elif (~mask) & ip[I_LOWER] != 0:
                if upper_face[c] > 0:
                    return 0, u, y, False
                pts = joker_score[c, face - 1, 1]
        elif mode == 2 and upper_face[c] == 0:
            pts = joker_score[c, face - 1, own_filled]
    new_u = u
    new_y = y
    if upper_face[c] > 0:
        new_u = min(threshold, u + pts)
        if u < threshold and u + pts >= threshold:
            bonus += ip[I_UBONUS]
    elif c == ycat and ip[I_FLAGS] == 2:
        new_y = 1 if pts > 0 else 0
    return pts + bonus, new_u, new_y, True


@njit(cache=True)
def fill_final_roll_values(V, mask, u, y, score, upper_face, joker_score, counts, ip, W):
    """W[r] = best value of roll r with no rolls left: points now plus V afterwards."""
    ncat = score.shape[0]
    threshold = ip[I_THRESHOLD]
    ubonus = ip[I_UBONUS]
    ycat = ip[I_YCAT]
    # Future values that do not depend on the roll (all but Yahtzees).
    fut = np.empty(ncat)
    fut_up = np.empty((ncat, 6))
    open_cats = np.empty(ncat, dtype=np.int64)
    nopen = 0
    for c in range(ncat):
        if (mask >> c) & 1:
            continue
        open_cats[nopen] = c
        nopen += 1
        m2 = mask | (1 << c)
        face = upper_face[c]
        if face > 0:
            for n in range(6):
                s = face * n
                nu = min(threshold, u + s)
                b = ubonus if (u < threshold and u + s >= threshold) else 0
                fut_up[c, n] = s + b + V[m2, nu, y]
        elif c == ycat:
            fut[c] = V[m2, u, 0]
        else:
            fut[c] = V[m2, u, y]
    for k in range(ROLL_START, NUM_KEEPS):
        best = NEG
        if yahtzee_face(counts, k) > 0:  # the bonus and joker rules: the full scoring
            best = best_box(V, mask, u, y, k, score, upper_face, joker_score, counts, ip)[1]
        else:
            for j in range(nopen):
                c = open_cats[j]
                face = upper_face[c]
                v = fut_up[c, counts[k, face - 1]] if face > 0 else score[c, k] + fut[c]
                if v > best:
                    best = v
        W[k] = best


@njit(cache=True)
def expect(W, add, E):
    """E[k] = expected W over the rolls that complete keep k (E = W on full rolls)."""
    for k in range(ROLL_START, NUM_KEEPS):
        E[k] = W[k]
    for k in range(ROLL_START - 1, -1, -1):
        s = 0.0
        for f in range(6):
            s += E[add[k, f]]
        E[k] = s / 6.0


@njit(cache=True)
def best_subkeep(E, sub, sub_count, M):
    """M[k] = max of E over every sub-multiset of k (k itself included)."""
    M[0] = E[0]
    for k in range(1, NUM_KEEPS):
        best = E[k]
        for j in range(sub_count[k]):
            v = M[sub[k, j]]
            if v > best:
                best = v
        M[k] = best


@njit(cache=True)
def turn_tables(V, mask, u, y, R, E0, E1, W):
    """Keep values for one turn-start state.

    E0[k]: expected final value of keeping k with one roll left (so no more
    rerolls after it); E1[k]: the same with two rolls left. W is scratch; on
    return W holds the roll values with two rolls left.
    """
    fill_final_roll_values(V, mask, u, y, R.score, R.upper_face, R.joker_score, R.counts, R.ip, W)
    expect(W, R.add, E0)
    best_subkeep(E0, R.sub, R.sub_count, W)
    expect(W, R.add, E1)
    best_subkeep(E1, R.sub, R.sub_count, W)


@njit(cache=True)
def turn_start_value(V, mask, u, y, R, E, W):
    """Expected remaining score at the start of a turn in state (mask, u, y)."""
    turn_tables(V, mask, u, y, R, E, E, W)
    total = 0.0
    for k in range(ROLL_START, NUM_KEEPS):
        total += R.roll_prob[k] * W[k]
    return total


@njit(cache=True, parallel=True)
def solve_layer(V, states, R):
    """Fill V for every (mask, u, y) row of ``states``; all their successors are solved."""
    n = states.shape[0]
    nchunks = min(n, 256)
    for chunk in prange(nchunks):
        E = np.empty(NUM_KEEPS)
        W = np.empty(NUM_KEEPS)
        lo = chunk * n // nchunks
        hi = (chunk + 1) * n // nchunks
        for i in range(lo, hi):
            mask = states[i, 0]
            u = states[i, 1]
            y = states[i, 2]
            V[mask, u, y] = turn_start_value(V, mask, u, y, R, E, W)


@njit(cache=True)
def _best_keep(E, roll, subkeeps, subkeep_count):
    """The sub-keep of ``roll`` with the highest E (the first of equals)."""
    r = roll - ROLL_START
    best_k = subkeeps[r, 0]
    best = E[best_k]
    for j in range(1, subkeep_count[r]):
        k = subkeeps[r, j]
        if E[k] > best:
            best = E[k]
            best_k = k
    return best_k


@njit(cache=True)
def best_box(V, mask, u, y, roll, score, upper_face, joker_score, counts, ip):
    """``(box, value)``: where to score ``roll`` now (the first of equals) and its worth."""
    best_c = -1
    best = NEG
    for c in range(score.shape[0]):
        pts, nu, ny, legal = category_points(
            mask, u, y, c, roll, score, upper_face, joker_score, counts, ip
        )
        if legal:
            v = pts + V[mask | (1 << c), nu, ny]
            if v > best:
                best = v
                best_c = c
    return best_c, best


@njit(cache=True, parallel=True)
def simulate_optimal(
    V, throws, R, first_e0, first_e1, out_score, out_upper_bonus, out_yahtzee_50,
    out_yahtzee_bonuses,
):  # fmt: skip
    """Play ``throws.shape[0]`` games optimally with the given dice.

    ``throws[g, t, j, i]`` is the i-th die thrown at throw j of turn t of game g;
    a throw of n dice uses the first n; ``first_e0``, ``first_e1`` are the keep
    values of the first turn (:func:`turn_tables` of the empty card). Results go
    to the ``out_*`` arrays.
    """
    score, upper_face, joker_score = R.score, R.upper_face, R.joker_score
    counts, ip = R.counts, R.ip
    subkeeps, subkeep_count, code_to_keep = R.subkeeps, R.subkeep_count, R.code_to_keep
    ngames = throws.shape[0]
    ncat = score.shape[0]
    threshold = ip[I_THRESHOLD]
    ycat = ip[I_YCAT]
    nchunks = min(ngames, 64)
    for chunk in prange(nchunks):
        e0 = np.empty(NUM_KEEPS)
        e1 = np.empty(NUM_KEEPS)
        w = np.empty(NUM_KEEPS)
        held = np.zeros(6, dtype=np.int64)
        lo = chunk * ngames // nchunks
        hi = (chunk + 1) * ngames // nchunks
        for g in range(lo, hi):
            mask = 0
            u = 0
            y = 0
            total = 0
            bonuses = 0
            fifty = 0
            for t in range(ncat):
                if t == 0:
                    t0 = first_e0
                    t1 = first_e1
                else:
                    turn_tables(V, mask, u, y, R, e0, e1, w)
                    t0 = e0
                    t1 = e1
                for f in range(6):
                    held[f] = 0
                nheld = 0
                roll = 0
                for j in range(3):
                    for i in range(5 - nheld):
                        held[throws[g, t, j, i] - 1] += 1
                    code = 0
                    for f in range(5, -1, -1):
                        code = code * 6 + held[f]
                    roll = code_to_keep[code]
                    if j == 2:
                        break
                    table = t1 if j == 0 else t0
                    keep = _best_keep(table, roll, subkeeps, subkeep_count)
                    # On a tie, score now rather than reroll (the advisor's order too).
                    c, v = best_box(V, mask, u, y, roll, score, upper_face, joker_score, counts, ip)
                    if v >= table[keep]:
                        break
                    nheld = 0
                    for f in range(6):
                        held[f] = counts[keep, f]
                        nheld += held[f]
                c, v = best_box(V, mask, u, y, roll, score, upper_face, joker_score, counts, ip)
                if yahtzee_face(counts, roll) > 0 and ycat >= 0 and (mask >> ycat) & 1 and y == 1:
                    bonuses += 1
                pts, nu, ny, _ = category_points(
                    mask, u, y, c, roll, score, upper_face, joker_score, counts, ip
                )
                if c == ycat and score[c, roll] > 0:
                    fifty = 1
                total += pts
                mask |= 1 << c
                u = nu
                y = ny
            out_score[g] = total
            out_upper_bonus[g] = 1 if u >= threshold else 0
            out_yahtzee_50[g] = fifty
            out_yahtzee_bonuses[g] = bonuses


# ---------------------------------------------------------------------------
# Compiled playouts for MCTS (see :mod:`stratagem.games.yahtzee.rollout`).
#
# Random numbers come from the shared SplitMix64 (``core._rng_kernels``),
# seeded per call: seeding numba's own Mersenne Twister would cost more than
# the call overhead budget.

ROLLOUT_RANDOM = 0
ROLLOUT_GREEDY = 1

# Columns of the ``cards`` array a playout takes: one row per player.
CARD_MASK = 0
CARD_UPPER = 1
CARD_FLAG = 2
CARD_TOTAL = 3


@njit(cache=True)
def chase_tables(R, chase1, chase2, par):
    """Per box c, the points of chasing c alone (keeping dice to maximise c).

    ``chase1[c, k]``: expected points in c after keeping k and throwing the
    rest once; ``chase2[c, k]``: the same with a second reroll played to
    maximise c; ``par[c]``: expected points in c when a whole turn chases it.
    Box rules only (no joker, no bonus); the greedy playout's yardsticks.
    """
    score, add, sub, sub_count, roll_prob = R.score, R.add, R.sub, R.sub_count, R.roll_prob
    w = np.zeros(NUM_KEEPS)
    m = np.empty(NUM_KEEPS)
    e = np.empty(NUM_KEEPS)
    for c in range(score.shape[0]):
        for k in range(ROLL_START, NUM_KEEPS):
            w[k] = score[c, k]
        expect(w, add, e)
        chase1[c, :] = e
        best_subkeep(e, sub, sub_count, m)
        expect(m, add, e)
        chase2[c, :] = e
        best_subkeep(e, sub, sub_count, m)
        total = 0.0
        for k in range(ROLL_START, NUM_KEEPS):
            total += roll_prob[k] * m[k]
        par[c] = total


@njit(cache=True)
def _greedy_choice(mask, u, y, roll, rolls_left, R, chase1, chase2, par, upper_weight):
    """``(is_keep, keep or box)`` of the greedy playout policy at one decision (rules ``R``).

    Every option is valued against par (what a whole turn chasing that box
    is expected to score): scoring box c now is worth ``points - par[c]``;
    keeping k to chase c is worth ``chase[c, k] - par[c]``. While the upper
    bonus is still open and reachable, an upper box also earns
    ``upper_weight * (points - 3 * face)``: credit for staying on the
    three-of-each pace to 63. The best option is played; a tie scores now.
    """
    score, upper_face, joker_score = R.score, R.upper_face, R.joker_score
    counts, ip = R.counts, R.ip
    subkeeps, subkeep_count = R.subkeeps, R.subkeep_count
    ncat = score.shape[0]
    threshold = ip[I_THRESHOLD]
    reachable = u
    for c in range(ncat):
        if upper_face[c] > 0 and not (mask >> c) & 1:
            reachable += 5 * upper_face[c]
    weight = upper_weight if (ip[I_UBONUS] > 0 and u < threshold <= reachable) else 0.0
    best = NEG
    choice = -1
    for c in range(ncat):
        pts, _, _, legal = category_points(
            mask, u, y, c, roll, score, upper_face, joker_score, counts, ip
        )
        if not legal:
            continue
        v = pts - par[c]
        f = upper_face[c]
        if f > 0:
            v += weight * (score[c, roll] - 3 * f)
        if v > best:
            best = v
            choice = c
    if rolls_left == 0:
        return False, choice
    chase = chase1 if rolls_left == 1 else chase2
    r = roll - ROLL_START
    keep = -1
    best_keep = best
    for c in range(ncat):
        if (mask >> c) & 1:
            continue
        f = upper_face[c]
        for j in range(subkeep_count[r]):
            k = subkeeps[r, j]
            e = chase[c, k]
            v = e - par[c]
            if f > 0:
                v += weight * (e - 3 * f)
            if v > best_keep:
                best_keep = v
                keep = k
    if keep >= 0:
        return True, keep
    return False, choice


@njit(cache=True)
def playout(
    R, chase1, chase2, par, upper_weight, cards, player, dice, rolls_left, rolling, policy, seed
):
    """Play a game to the end from one position; final totals land in ``cards``.

    ``cards[p]`` holds player p's (filled-box mask, upper total capped at the
    threshold, Yahtzee flag, points so far with bonuses); ``dice`` is the keep
    number of the dice kept (at a pending roll) or of the roll showing (at a
    decision). ``policy`` is ``ROLLOUT_RANDOM`` (a uniform choice among the
    protocol's legal actions: every distinct keep while rerolls are left, and
    every legal box) or ``ROLLOUT_GREEDY`` (:func:`_greedy_choice`).
    """
    score, upper_face, joker_score = R.score, R.upper_face, R.joker_score
    counts, ip = R.counts, R.ip
    add, subkeeps, subkeep_count = R.add, R.subkeeps, R.subkeep_count
    rng_state = np.empty(1, dtype=np.uint64)
    rng_state[0] = seed
    ncat = score.shape[0]
    full = (1 << ncat) - 1
    nplayers = cards.shape[0]
    boxes = np.empty(ncat, dtype=np.int64)
    p = player
    k = dice
    left = rolls_left
    while cards[nplayers - 1, CARD_MASK] != full:
        if rolling:
            held = 0
            for f in range(6):
                held += counts[k, f]
            for _ in range(5 - held):
                k = add[k, below(rng_state, 6)]
            left -= 1
            rolling = False
            continue
        mask = cards[p, CARD_MASK]
        u = cards[p, CARD_UPPER]
        y = cards[p, CARD_FLAG]
        is_keep = False
        choice = -1
        if policy == ROLLOUT_GREEDY:
            is_keep, choice = _greedy_choice(
                mask, u, y, k, left, R, chase1, chase2, par, upper_weight
            )
        else:
            nboxes = 0
            for c in range(ncat):
                if category_points(mask, u, y, c, k, score, upper_face, joker_score, counts, ip)[3]:
                    boxes[nboxes] = c
                    nboxes += 1
            nkeeps = subkeep_count[k - ROLL_START] if left > 0 else 0
            j = below(rng_state, nkeeps + nboxes)
            if j < nkeeps:
                is_keep = True
                choice = subkeeps[k - ROLL_START, j]
            else:
                choice = boxes[j - nkeeps]
        if is_keep:
            k = choice
            rolling = True
            continue
        pts, nu, ny, _ = category_points(
            mask, u, y, choice, k, score, upper_face, joker_score, counts, ip
        )
        cards[p, CARD_MASK] = mask | (1 << choice)
        cards[p, CARD_UPPER] = nu
        cards[p, CARD_FLAG] = ny
        cards[p, CARD_TOTAL] += pts
        p = (p + 1) % nplayers
        k = 0
        left = 3
        rolling = True
