"""Numba-compiled hot loops of the Pig solver and policy evaluator; nothing else.

Tables are ragged: the state (i, j, k), my score i, the opponent's score j and
my turn total k with i, j < goal and i + k < goal, lives at
``base[i] + j * (goal - i) + k``.

Two tables take part: side A (the player to move is A) and side B. For the
optimal strategy without a catch-up turn both players are the same, and A and
B are one array. A side either maximises (``mode`` 0) or follows a fixed
policy (``mode`` 1): ``roll[idx]`` is 1 to roll, 0 to hold, and past the goal
(catch-up turn, starter only) ``thresh[i, j, :]`` lists, in increasing order, the
totals at which its choice changes: it rolls below the first, holds from the first,
rolls again from the second, and so on (padded with :data:`NO_CHANGE`); a plain
threshold is one number. The optimum past the goal is a threshold in most variants,
but not in all (a d9 with faces 4..8 busting, a bust scoring one, goal 30).

``reach[d]`` is the probability of adding at least d points in one turn by
rolling until they are reached (1 for d <= 0): the chance that the last player
of a catch-up turn beats a total.

The solver's kernels take the variant as one argument ``G``, a
:class:`~stratagem.games.pig.solver.KernelRules` named tuple (``G.goal``,
``G.base``, ``G.adds``, ``G.faces``, ``G.bust_scores_one``, ``G.catch_up``,
``G.reach``, ``G.over_len``), and each side's policy as ``(mode, roll, thresh)``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from stratagem.core._rng_kernels import below

OPTIMIZE = 0
FIXED = 1
NO_CHANGE = 1 << 62
"""Padding of a policy's list of totals past the goal where its choice changes."""


@njit(cache=True)
def holds_past(changes, t):
    """Whether a policy whose choice past the goal changes at the totals ``changes``
    (increasing; it rolls below the first) holds at total ``t``: when an odd number of
    them are at most ``t``."""
    n = 0
    for c in changes:
        if c > t:
            break
        n += 1
    return n % 2 == 1


@njit(cache=True)
def hold_from(changes, goal, limit):
    """The total from which the policy holds for good (its last change), at most ``limit``."""
    last = goal
    for c in changes:
        if c >= NO_CHANGE:
            break
        last = c
    return min(last, limit)


@njit(cache=True, error_model="numpy")
def one_turn_reach(adds, faces, length):
    """reach[d] = P(a turn that rolls until it has d points gets there), d = 0..length-1."""
    reach = np.empty(length)
    reach[0] = 1.0
    for d in range(1, length):
        s = 0.0
        for a in adds:
            s += reach[d - a] if d - a > 0 else 1.0
        reach[d] = s / faces
    return reach


@njit(cache=True, error_model="numpy")
def beat_probability(reach, j, total):
    """P(the last player, on j, ends a catch-up turn strictly above ``total``)."""
    d = total - j + 1
    if d <= 0:
        return 1.0
    if d >= reach.shape[0]:
        return 0.0
    return reach[d]


@njit(cache=True, error_model="numpy")
def bust_chance(G):
    """P(a throw busts): the share of faces that add nothing."""
    return (G.faces - G.adds.shape[0]) / G.faces


@njit(cache=True, error_model="numpy")
def overshoot_values(i, j, G, bust_val, mode, thresh, out):
    """Values of the starter on i (opponent on j) with totals t = goal .. goal+len(out)-1.

    At t >= goal holding ends the game but for the opponent's last turn:
    ``1 - beat(j, t)``. Rolling risks the bust (``bust_val``). Once
    ``beat(j, t) <= pb * (1 - bust_val)`` holding is optimal there and above.
    """
    goal, adds, faces, reach = G.goal, G.adds, G.faces, G.reach
    pb = bust_chance(G)
    n = out.shape[0]
    bound = pb * (1.0 - bust_val)
    for idx in range(n - 1, -1, -1):
        t = goal + idx
        c = beat_probability(reach, j, t)
        hold = 1.0 - c
        if mode == FIXED:
            if holds_past(thresh[i, j], t):
                out[idx] = hold
                continue
        elif c <= bound:
            out[idx] = hold
            continue
        roll = pb * bust_val
        for a in adds:
            nxt = idx + a
            if nxt < n:
                roll += out[nxt] / faces
            else:
                roll += (1.0 - beat_probability(reach, j, t + a)) / faces
        if mode == FIXED:
            out[idx] = roll
        else:
            out[idx] = roll if roll > hold else hold


@njit(cache=True, error_model="numpy")
def bust_value(i, j, G, other, starter):
    """What busting is worth to the player to move on i against j (``other``: the
    opponent's table; ``starter``: the mover started a catch-up game)."""
    goal, base = G.goal, G.base
    if not G.bust_scores_one:
        return 1.0 - other[base[j] + i * (goal - j)]
    i1 = i + 1
    if i1 >= goal:
        return 1.0 - beat_probability(G.reach, j, i1) if starter else 1.0
    return 1.0 - other[base[j] + i1 * (goal - j)]


@njit(cache=True, error_model="numpy")
def sweep(table, other, i, j, G, bust_val, starter, side, over):
    """One backward pass over k for side ``table`` at scores (i, j); returns the max change.

    ``side`` is ``(mode, roll, thresh)``: maximise (``OPTIMIZE``) or follow the
    fixed policy (``FIXED``) of ``roll`` and ``thresh``.
    """
    goal, base, adds, faces = G.goal, G.base, G.adds, G.faces
    mode, roll_pol, thresh = side
    pb = bust_chance(G)
    if starter:
        overshoot_values(i, j, G, bust_val, mode, thresh, over)
    row = base[i] + j * (goal - i)
    change = 0.0
    for k in range(goal - 1 - i, -1, -1):
        roll = pb * bust_val
        for a in adds:
            t = i + k + a
            if t >= goal:
                roll += (over[t - goal] if starter else 1.0) / faces
            else:
                roll += table[row + k + a] / faces
        if k == 0:
            val = roll
        else:
            hold = 1.0 - other[base[j] + (i + k) * (goal - j)]
            if mode == FIXED:
                val = roll if roll_pol[row + k] else hold
            else:
                val = roll if roll > hold else hold
        d = abs(val - table[row + k])
        if d > change:
            change = d
        table[row + k] = val
    return change


@njit(cache=True, error_model="numpy")
def solve_stage(s, G, a_table, b_table, a_side, b_side, symmetric, a_starter, tol, max_sweeps,
                sweeps_out):  # fmt: skip
    """Solve every pair {A at (i, j), B at (j, i)} with i + j = s; sweeps per pair out."""
    goal, base, catch_up = G.goal, G.base, G.catch_up
    lo = max(0, s - (goal - 1))
    hi = min(s, goal - 1)
    if symmetric:
        hi = min(hi, s // 2)
    npairs = hi - lo + 1
    for p in range(npairs):
        i = lo + p
        j = s - i
        over = np.empty(G.over_len if catch_up else 1)
        a_is_starter = catch_up and a_starter
        b_is_starter = catch_up and not a_starter
        n = 0
        b0 = base[j] + i * (goal - j)
        # Aitken's delta-squared on P_B(j, i, 0), the one number the next A sweep reads:
        # with the actions fixed a pair sweep maps it affinely (y -> c + r y), so three
        # iterates give the fixed point.
        x1 = np.nan
        x2 = np.nan
        while True:
            bv = bust_value(i, j, G, b_table, a_is_starter)
            c1 = sweep(a_table, b_table, i, j, G, bv, a_is_starter, a_side, over)
            bv = bust_value(j, i, G, a_table, b_is_starter)
            c2 = sweep(b_table, a_table, j, i, G, bv, b_is_starter, b_side, over)
            n += 1
            if G.bust_scores_one and n >= 1:
                break  # no cycle: one pass is exact
            if (c1 if c1 > c2 else c2) < tol or n >= max_sweeps:
                break
            # Stop only on a plain sweep that changed nothing; extrapolation just
            # moves the start of the next one.
            x3 = b_table[b0]
            d1 = x2 - x1
            d2 = x3 - x2
            if d1 != 0.0 and abs(d2) > tol:
                ratio = d2 / d1
                if 0.0 < ratio < 0.98:
                    b_table[b0] = x3 + d2 * ratio / (1.0 - ratio)
                    x1 = np.nan
                    x2 = np.nan
                    continue
            x1 = x2
            x2 = x3
        sweeps_out[p] = n


@njit(cache=True, error_model="numpy")
def solve_all(G, a_table, b_table, a_side, b_side, symmetric, a_starter, tol, max_sweeps):
    """Every stage, from the highest score sum down; returns (total sweeps, most for a pair).

    One thread on purpose: the 2 * goal - 1 stages depend on each other, and a
    parallel loop per stage meant as many thread barriers, which stalled for a
    scheduler time slice each whenever another process used a core (Pig to
    100 went from 0.06 s to 1.5 s). Serially it takes about 0.1 s, loaded or not.
    """
    goal = G.goal
    sweeps = np.zeros(goal, dtype=np.int64)
    total = 0
    most = 0
    for s in range(2 * (goal - 1), -1, -1):
        sweeps[:] = 0
        solve_stage(s, G, a_table, b_table, a_side, b_side, symmetric, a_starter, tol,
                    max_sweeps, sweeps)  # fmt: skip
        total += sweeps.sum()
        m = sweeps.max()
        if m > most:
            most = m
    return total, most


@njit(cache=True, error_model="numpy")
def optimal_policy(table, other, G, starter, roll_out, thresh_out, bad_out):
    """The fixed policy that plays as the solved table says (hold on ties).

    Past the goal (catch-up turn, starter) ``thresh_out[i, j, :]`` gets the totals where
    the optimal choice changes (see the module doc); ``bad_out[0]`` gets the most changes
    any (i, j) needs, so that a caller whose ``thresh_out`` is too short can call again.
    """
    goal, base, over_len = G.goal, G.base, G.over_len
    over = np.empty(over_len)
    for i in range(goal):
        for j in range(goal):
            row = base[i] + j * (goal - i)
            bv = bust_value(i, j, G, other, starter)
            is_starter = G.catch_up and starter
            if is_starter:
                overshoot_values(i, j, G, bv, OPTIMIZE, thresh_out, over)
            for k in range(goal - 1 - i, -1, -1):
                if k == 0:
                    roll_out[row] = 1
                    continue
                hold = 1.0 - other[base[j] + (i + k) * (goal - j)]
                roll_out[row + k] = 1 if table[row + k] > hold else 0
            width = thresh_out.shape[2]
            for m in range(width):
                thresh_out[i, j, m] = NO_CHANGE
            thresh_out[i, j, 0] = goal
            if is_starter:
                # the totals where the choice changes, from the goal up (holding from
                # goal + over_len on, where the values stop)
                n = 0
                rolling = True  # below the first change the policy rolls
                for idx in range(over_len):
                    t = goal + idx
                    hold = 1.0 - beat_probability(G.reach, j, t)
                    rolls = over[idx] > hold
                    if rolls != rolling:
                        if n < width:
                            thresh_out[i, j, n] = t
                        n += 1
                        rolling = rolls
                if rolling:  # hold where the values stop
                    if n < width:
                        thresh_out[i, j, n] = goal + over_len
                    n += 1
                if n > bad_out[0]:
                    bad_out[0] = n


@njit(cache=True, error_model="numpy")
def _wants_roll(roll_pol, thresh, base, goal, me, opp, turn, starter_past_goal):
    if turn == 0:
        return True
    total = me + turn
    if total >= goal:
        return starter_past_goal and not holds_past(thresh[me, opp], total)
    return roll_pol[base[me] + opp * (goal - me) + turn] == 1


@njit(cache=True)
def _after_bank(total, mover, target, goal, catch_up):
    """``(winner or -1, target, next mover)`` once ``mover`` (0: the starter) has banked
    to ``total``: the last turn of a catch-up game is won by beating ``target``; reaching
    the goal wins, except for the catch-up starter, who sets the target instead."""
    if target >= 0:
        return (1 if total > target else 0), target, mover
    if total >= goal:
        if catch_up and mover == 0:
            return -1, total, 1
        return mover, target, mover
    return -1, target, 1 - mover


class Roles(NamedTuple):
    """A player's fixed policy in both roles (``solver.Policy`` tables): as the starter
    (``roll_first``, ``thresh_first``) and as the second player."""

    roll_first: np.ndarray
    thresh_first: np.ndarray
    roll_second: np.ndarray
    thresh_second: np.ndarray


@njit(cache=True, parallel=True)
def simulate_games(seeds, G, adds_mask, A, B, a_starts, winner_is_a, turns):
    """Play one game per seed between fixed policies A and B (their :class:`Roles`).

    ``G`` is the variant (``solver.KernelRules``); ``a_starts[g]`` says who starts game g;
    each player uses its policy for its role (starter or second). ``adds_mask[f]`` is 1
    when face f adds.
    """
    goal, faces, base = G.goal, G.faces, G.base
    bust_scores_one, catch_up = G.bust_scores_one, G.catch_up
    a_roll_first, a_thresh_first = A.roll_first, A.thresh_first
    a_roll_second, a_thresh_second = A.roll_second, A.thresh_second
    b_roll_first, b_thresh_first = B.roll_first, B.thresh_first
    b_roll_second, b_thresh_second = B.roll_second, B.thresh_second
    n = seeds.shape[0]
    for g in prange(n):
        np.random.seed(seeds[g])
        scores = np.zeros(2, dtype=np.int64)
        mover = 0  # index 0 = the starter
        a_is_starter = a_starts[g]
        target = -1
        winner = -1
        nturns = 0
        while winner < 0:
            nturns += 1
            is_a = (mover == 0) == a_is_starter
            if is_a:
                roll_pol = a_roll_first if mover == 0 else a_roll_second
                thr = a_thresh_first if mover == 0 else a_thresh_second
            else:
                roll_pol = b_roll_first if mover == 0 else b_roll_second
                thr = b_thresh_first if mover == 0 else b_thresh_second
            me = scores[mover]
            opp = scores[1 - mover]
            last_turn = target >= 0
            past_ok = catch_up and mover == 0
            turn = 0
            banked = -1
            while True:
                if (
                    turn > 0
                    and not last_turn
                    and not _wants_roll(roll_pol, thr, base, goal, me, opp, turn, past_ok)
                ):
                    banked = turn
                    break
                face = np.random.randint(1, faces + 1)
                if adds_mask[face] == 0:
                    banked = 1 if bust_scores_one else 0
                    break
                turn += face
                if last_turn:
                    if me + turn > target:
                        banked = turn
                        break
                elif me + turn >= goal and not past_ok:
                    banked = turn
                    break
            scores[mover] += banked
            winner, target, mover = _after_bank(scores[mover], mover, target, goal, catch_up)
        winner_is_a[g] = (winner == 0) == a_is_starter
        turns[g] = nturns


# ---------------------------------------------------------------------------
# Compiled playouts for MCTS (``fast_rollout`` below; see :mod:`stratagem.games.pig.rollout`).
#
# Random numbers come from the shared SplitMix64 (``core._rng_kernels``),
# seeded per call: seeding numba's own Mersenne Twister costs more than a
# whole playout of Pig.

ROLLOUT_RANDOM = 0
ROLLOUT_HOLD = 1


# ---------------------------------------------------------------------------
# The compiled game interface of :mod:`stratagem.games.pig.fast` (for
# :mod:`stratagem.algorithms.mcts_compiled`): a ``PigState`` as an int64
# array, its rules included, and the moves of ``PigState.apply`` over it.

FAST_SCORE0 = 0
FAST_SCORE1 = 1
FAST_PLAYER = 2
FAST_TURN = 3
FAST_ROLLING = 4
FAST_TARGET = 5  # the catch-up turn's total to beat, -1 when none
FAST_WINNER = 6  # -1 while the game goes on
FAST_TURNS = 7
FAST_ROLLS = 8
FAST_GOAL = 9
FAST_FACES = 10
FAST_BUSTS = 11  # two words: bit f of word f // 64 is set when face f busts
FAST_BUST_SCORES_ONE = 13
FAST_CATCH_UP = 14
FAST_SIZE = 15

FAST_ROLL = 0  # PigAction.ROLL
FAST_HOLD = 1  # PigAction.HOLD


@njit(cache=True)
def fast_busts(s, face):
    return (s[FAST_BUSTS + (face >> 6)] >> (face & 63)) & 1 == 1


@njit(cache=True)
def fast_player(s):
    """The player to move, -1 at a roll, -2 once the game is over."""
    if s[FAST_WINNER] >= 0:
        return -2
    if s[FAST_ROLLING] != 0:
        return -1
    return s[FAST_PLAYER]


@njit(cache=True)
def fast_legal(s, out):
    """Roll, and hold once the turn total is above 0; none at a roll or the end."""
    if s[FAST_ROLLING] != 0 or s[FAST_WINNER] >= 0:
        return 0
    out[0] = FAST_ROLL
    if s[FAST_TURN] == 0:
        return 1
    out[1] = FAST_HOLD
    return 2


@njit(cache=True)
def _fast_end_turn(out):
    out[FAST_TURN] = 0
    out[FAST_TURNS] += 1
    out[FAST_ROLLS] = 0


@njit(cache=True)
def _fast_bank(out, points):
    """``PigState._bank``: end the mover's turn with ``points`` added."""
    p = out[FAST_PLAYER]
    out[FAST_SCORE0 + p] += points
    total = out[FAST_SCORE0 + p]
    _fast_end_turn(out)
    winner, target, mover = _after_bank(
        total, p, out[FAST_TARGET], out[FAST_GOAL], out[FAST_CATCH_UP] != 0
    )
    out[FAST_WINNER] = winner
    out[FAST_TARGET] = target
    out[FAST_PLAYER] = mover


@njit(cache=True)
def fast_apply(s, code, out):
    """``PigState.apply``: ``code`` is an action (0 roll, 1 hold) or, at a roll, the face."""
    for i in range(FAST_SIZE):
        out[i] = s[i]
    if out[FAST_ROLLING] == 0:
        if code == FAST_ROLL:
            out[FAST_ROLLING] = 1
        else:
            _fast_bank(out, out[FAST_TURN])
        return
    out[FAST_ROLLING] = 0
    p = out[FAST_PLAYER]
    if fast_busts(out, code):
        if out[FAST_BUST_SCORES_ONE] != 0:
            _fast_bank(out, 1)
        else:
            _fast_end_turn(out)
            if out[FAST_TARGET] >= 0:
                out[FAST_WINNER] = 0
            else:
                out[FAST_PLAYER] = 1 - p
        return
    turn = out[FAST_TURN] + code
    total = out[FAST_SCORE0 + p] + turn
    target = out[FAST_TARGET]
    if target >= 0:
        won = total > target
    else:
        won = total >= out[FAST_GOAL] and not (out[FAST_CATCH_UP] != 0 and p == 0)
    if won:  # the winning total is banked at once
        out[FAST_SCORE0 + p] = total
        _fast_end_turn(out)
        out[FAST_WINNER] = p
    else:
        out[FAST_TURN] = turn
        out[FAST_ROLLS] += 1


@njit(cache=True)
def fast_sample(s, rng):
    """A face of the die, uniform on 1..faces."""
    return 1 + below(rng, s[FAST_FACES])


@njit(cache=True)
def fast_outcome_index(s, face):
    return face - 1


@njit(cache=True)
def fast_returns(s, out):
    """1 to the winner, 0 to the other (0 to both before the end)."""
    w = s[FAST_WINNER]
    out[0] = 1.0 if w == 0 else 0.0
    out[1] = 1.0 if w == 1 else 0.0


@njit(cache=True)
def fast_rollout(s, rng, policy, out):
    """Play the encoded state to the end, drawing from ``rng``; write the returns to ``out``.

    ``policy`` is ``(ROLLOUT_RANDOM, _)``: roll or hold with equal chance whenever
    holding is legal, or ``(ROLLOUT_HOLD, hold_at)``: hold once the turn total
    reaches ``hold_at`` or the goal, and always roll on a last catch-up turn, as
    ``strategies.HoldAt``. Transitions follow ``PigState.apply``.
    """
    winner = s[FAST_WINNER]
    if winner < 0:
        code = policy[0]
        hold_at = policy[1]
        goal = s[FAST_GOAL]
        faces = s[FAST_FACES]
        bust_scores_one = s[FAST_BUST_SCORES_ONE] != 0
        catch_up = s[FAST_CATCH_UP] != 0
        target = s[FAST_TARGET]
        score0 = s[FAST_SCORE0]
        score1 = s[FAST_SCORE1]
        p = s[FAST_PLAYER]
        turn = s[FAST_TURN]
        rolling = s[FAST_ROLLING] != 0
        while winner < 0:
            bank = -1
            if rolling:
                rolling = False
                face = 1 + below(rng, faces)
                if fast_busts(s, face):
                    if bust_scores_one:
                        bank = 1
                    else:
                        if target >= 0:
                            winner = 0
                            break
                        p = 1 - p
                        turn = 0
                        continue
                else:
                    turn += face
                    total = (score0 if p == 0 else score1) + turn
                    if target >= 0:
                        if total > target:
                            winner = p
                            break
                    elif total >= goal and not (catch_up and p == 0):
                        winner = p
                        break
                    continue
            else:
                roll = True
                if turn > 0:
                    if code == ROLLOUT_RANDOM:
                        roll = below(rng, 2) == 0
                    elif target < 0:
                        roll = turn < hold_at and (score0 if p == 0 else score1) + turn < goal
                if roll:
                    rolling = True
                    continue
                bank = turn
            # The turn ends with ``bank`` points added to the mover's score.
            if p == 0:
                score0 += bank
                total = score0
            else:
                score1 += bank
                total = score1
            turn = 0
            winner, target, p = _after_bank(total, p, target, goal, catch_up)
    out[0] = 1.0 if winner == 0 else 0.0
    out[1] = 1.0 if winner == 1 else 0.0
