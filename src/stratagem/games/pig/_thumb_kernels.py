"""Numba-compiled hot loops of the rule-of-thumb search; nothing else.

Tables are ragged as in :mod:`stratagem.games.pig._kernels`: the state (i, j, k)
lives at ``base[i] + j * (goal - i) + k``. Player A follows a hold grid
(hold once the turn total k >= 1 reaches ``grid[i, j]``, roll on otherwise, and
as the catch-up starter hold as soon as the goal is reached); player B follows
a fixed roll table and, past the goal as the catch-up starter, holds or rolls as
the totals ``thresh[i, j, :]`` where its choice changes say: the same semantics as
the solver's ``FIXED`` mode, so the numbers agree with
:func:`stratagem.games.pig.solver.evaluate_by_iteration`.

Both players' policies are fixed, so within a pair of positions {A at (i, j),
B at (j, i)} every value is affine in the two unknown turn-start values (a bust
hands the turn over with both scores unchanged). One backward pass per side
gives the coefficients and a 2x2 solve closes the cycle: exact, with no
sweeping to convergence.

The variant comes as one argument ``G``, the solver's
:class:`~stratagem.games.pig.solver.KernelRules`.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from stratagem.games.pig._kernels import (
    beat_probability,
    bust_chance,
    bust_value,
    hold_from,
    holds_past,
)


@njit(cache=True)
def _side(i, j, G, is_starter, use_grid, hold_at, roll, changes, other, over, coef):
    """Coefficients ``coef[0, k] + coef[1, k] * bust`` of the mover on i against j,
    k = 0..goal-1-i.

    ``changes``: the totals past the goal where the mover's choice changes (the
    catch-up starter's; see :mod:`stratagem.games.pig._kernels`); ``over``: the same
    two rows of coefficients for the totals past the goal (scratch)."""
    goal, base, adds, faces, reach, over_len = G.goal, G.base, G.adds, G.faces, G.reach, G.over_len
    pb = bust_chance(G)
    th = goal
    if is_starter:
        th = hold_from(changes, goal, goal + over_len)  # it holds from here on
        for idx in range(th - goal - 1, -1, -1):
            t = goal + idx
            if holds_past(changes, t):
                over[0, idx] = 1.0 - beat_probability(reach, j, t)
                over[1, idx] = 0.0
                continue
            s0 = 0.0
            s1 = pb
            for a in adds:
                if t + a >= th:
                    s0 += (1.0 - beat_probability(reach, j, t + a)) / faces
                else:
                    s0 += over[0, idx + a] / faces
                    s1 += over[1, idx + a] / faces
            over[0, idx] = s0
            over[1, idx] = s1
    row = base[i] + j * (goal - i)
    for k in range(goal - 1 - i, -1, -1):
        holds = False
        if k > 0:
            holds = k >= hold_at if use_grid else roll[row + k] == 0
        if holds:
            coef[0, k] = 1.0 - other[base[j] + (i + k) * (goal - j)]
            coef[1, k] = 0.0
            continue
        s0 = 0.0
        s1 = pb
        for a in adds:
            t = i + k + a
            if t < goal:
                s0 += coef[0, k + a] / faces
                s1 += coef[1, k + a] / faces
            elif not is_starter:
                s0 += 1.0 / faces
            elif t >= th:
                s0 += (1.0 - beat_probability(reach, j, t)) / faces
            else:
                s0 += over[0, t - goal] / faces
                s1 += over[1, t - goal] / faces
        coef[0, k] = s0
        coef[1, k] = s1


@njit(cache=True)
def _duel(use_grid, grid, a_roll, a_thresh, b_roll, b_thresh, a_starter, G, a_table, b_table):
    """Fill A's and B's win-probability tables; B plays its fixed policy, A the hold grid
    (``use_grid``) or a fixed policy of its own (``a_roll``, ``a_thresh``)."""
    goal, base, catch_up = G.goal, G.base, G.catch_up
    at_goal = np.full(1, goal, dtype=np.int64)  # a grid holds once it reaches the goal
    a_is_starter = catch_up and a_starter
    b_is_starter = catch_up and not a_starter
    over = np.zeros((2, G.over_len + G.faces + 1))
    a_coef = np.zeros((2, goal))
    b_coef = np.zeros((2, goal))
    for s in range(2 * (goal - 1), -1, -1):
        lo = max(0, s - (goal - 1))
        hi = min(s, goal - 1)
        for i in range(lo, hi + 1):
            j = s - i
            if use_grid:
                _side(i, j, G, a_is_starter, True, grid[i, j], a_roll, at_goal, b_table, over,
                      a_coef)  # fmt: skip
            else:
                _side(i, j, G, a_is_starter, False, 0, a_roll, a_thresh[i, j], b_table, over,
                      a_coef)  # fmt: skip
            _side(j, i, G, b_is_starter, False, 0, b_roll, b_thresh[j, i], a_table, over, b_coef)
            if G.bust_scores_one:  # a bust banks a point: a later stage, already known
                a_bust = bust_value(i, j, G, b_table, a_is_starter)
                b_bust = bust_value(j, i, G, a_table, b_is_starter)
            else:
                # x = A(i, j, 0) = ac0 + ac1 * (1 - y), y = B(j, i, 0) = bc0 + bc1 * (1 - x)
                ac0, ac1, bc0, bc1 = a_coef[0, 0], a_coef[1, 0], b_coef[0, 0], b_coef[1, 0]
                x = (ac0 + ac1 - ac1 * (bc0 + bc1)) / (1.0 - ac1 * bc1)
                y = bc0 + bc1 * (1.0 - x)
                a_bust = 1.0 - y
                b_bust = 1.0 - x
            a_row = base[i] + j * (goal - i)
            for k in range(goal - i):
                a_table[a_row + k] = a_coef[0, k] + a_coef[1, k] * a_bust
            b_row = base[j] + i * (goal - j)
            for k in range(goal - j):
                b_table[b_row + k] = b_coef[0, k] + b_coef[1, k] * b_bust


@njit(cache=True)
def duel(grid, b_roll, b_thresh, a_starter, G, a_table, b_table):
    """Fill A's and B's win-probability tables; A plays ``grid``, B the fixed policy."""
    _duel(True, grid, b_roll, b_thresh, b_roll, b_thresh, a_starter, G, a_table, b_table)


@njit(cache=True)
def duel_policies(a_roll, a_thresh, b_roll, b_thresh, a_starter, G, a_table, b_table):
    """:func:`duel` with A following a fixed roll table and threshold too: both tables of
    two fixed policies, exactly, in one pass (no sweeps, whatever the policies)."""
    grid = np.zeros((1, 1), dtype=np.int64)  # not read: A follows its roll table
    _duel(False, grid, a_roll, a_thresh, b_roll, b_thresh, a_starter, G, a_table, b_table)


@njit(cache=True, parallel=True)
def duel_batch(grids, first_roll, first_thresh, second_roll, second_thresh, run_first,
               run_second, G, out):  # fmt: skip
    """``out[m] = (A wins moving first, A wins moving second)`` for each hold grid.

    B plays ``second_*`` when A starts and ``first_*`` when B starts. Without a
    catch-up turn one run gives both numbers; with one, each role is a run of
    its own, made only when asked for (the other number is left NaN).
    """
    goal, catch_up = G.goal, G.catch_up
    n = G.base[goal - 1] + goal
    for m in prange(grids.shape[0]):
        a_table = np.empty(n)
        b_table = np.empty(n)
        out[m, 0] = np.nan
        out[m, 1] = np.nan
        if run_first or not catch_up:
            duel(grids[m], second_roll, second_thresh, True, G, a_table, b_table)
            out[m, 0] = a_table[0]
            if not catch_up:
                out[m, 1] = 1.0 - b_table[0]
        if catch_up and run_second:
            duel(grids[m], first_roll, first_thresh, False, G, a_table, b_table)
            out[m, 1] = 1.0 - b_table[0]


@njit(cache=True)
def _turn_outcomes(i, G, use_grid, hold_at, roll, row, is_starter, changes, mass, over, held):
    """One turn from (i, j, 0): ``held[k]`` = P(hold at k < goal - i); returns P(bust).

    The catch-up starter past the goal rolls on where ``changes`` say so and may
    still bust (handing the turn back with both scores unchanged).
    """
    goal, adds, faces = G.goal, G.adds, G.faces
    pb = bust_chance(G)
    width = goal - i
    for k in range(width):
        mass[k] = 0.0
        held[k] = 0.0
    for k in range(over.shape[0]):
        over[k] = 0.0
    mass[0] = 1.0
    bust = 0.0
    for k in range(width):
        p = mass[k]
        if p == 0.0:
            continue
        holds = False
        if k > 0:
            holds = k >= hold_at if use_grid else roll[row + k] == 0
        if holds:
            held[k] = p
            continue
        bust += p * pb
        for a in adds:
            if k + a < width:
                mass[k + a] += p / faces
            elif is_starter:
                over[i + k + a - goal] += p / faces
    if is_starter:
        th = hold_from(changes, goal, goal + G.over_len)
        for idx in range(th - goal):
            p = over[idx]
            if p == 0.0 or holds_past(changes, goal + idx):
                continue
            bust += p * pb
            for a in adds:
                over[idx + a] += p / faces
    return bust


@njit(cache=True)
def occupancy(grid, b_roll, b_thresh, a_starter, G, out_a):
    """Expected number of turns A starts at each (i, j) when A plays ``grid`` against B.

    ``a_starter`` says who moves first. A's turns past the goal (holding there,
    or the last catch-up turn) start no further turns and are not counted.
    """
    goal, base, catch_up, over_len = G.goal, G.base, G.catch_up, G.over_len
    at_goal = np.full(1, goal, dtype=np.int64)
    in_a = np.zeros((goal, goal))
    in_b = np.zeros((goal, goal))
    if a_starter:
        in_a[0, 0] = 1.0
    else:
        in_b[0, 0] = 1.0
    b_is_starter = catch_up and not a_starter
    mass = np.zeros(goal)
    over = np.zeros(over_len + G.faces + 1)
    a_held = np.zeros(goal)
    b_held = np.zeros(goal)
    for s in range(0, 2 * goal - 1):
        lo = max(0, s - (goal - 1))
        hi = min(s, goal - 1)
        for i in range(lo, hi + 1):
            j = s - i
            # A on (i, j) and B on (j, i) hand the turn to each other by busting.
            # A holds as soon as it reaches the goal, so only B can roll past it.
            pa = _turn_outcomes(i, G, True, grid[i, j], b_roll, 0, False, at_goal, mass, over,
                                a_held)  # fmt: skip
            pbb = _turn_outcomes(j, G, False, 0, b_roll, base[j] + i * (goal - j), b_is_starter,
                                 b_thresh[j, i], mass, over, b_held)  # fmt: skip
            if G.bust_scores_one:
                da = in_a[i, j]
                db = in_b[j, i]
                if i + 1 < goal:
                    in_b[j, i + 1] += da * pa
                if j + 1 < goal:
                    in_a[i, j + 1] += db * pbb
            else:
                da = (in_a[i, j] + in_b[j, i] * pbb) / (1.0 - pa * pbb)
                db = in_b[j, i] + da * pa
            out_a[i, j] = da
            for k in range(1, goal - i):
                if a_held[k] > 0.0:
                    in_b[j, i + k] += da * a_held[k]
            for k in range(1, goal - j):
                if b_held[k] > 0.0:
                    in_a[i, j + k] += db * b_held[k]


@njit(cache=True, parallel=True)
def turn_losses(table, other, G, starter, out):
    """``out[t - 1, i, j]``: win probability lost by playing one turn from (i, j, 0) as
    "hold at t" and optimally afterwards, instead of optimally throughout.

    ``table``/``other`` are the solved tables of the mover and of the opponent
    (``starter``: the mover started a catch-up game, and holds as soon as it
    reaches the goal).
    """
    goal, base, adds, faces, reach = G.goal, G.base, G.adds, G.faces, G.reach
    pb = bust_chance(G)
    for i in prange(goal):
        val = np.zeros(goal)
        for j in range(goal):
            bust = bust_value(i, j, G, other, starter)
            best = table[base[i] + j * (goal - i)]
            width = goal - i
            for t in range(1, goal + 1):
                if t > width and t > 1:
                    out[t - 1, i, j] = out[t - 2, i, j]
                    continue
                for k in range(width - 1, -1, -1):
                    if k > 0 and k >= t:
                        val[k] = 1.0 - other[base[j] + (i + k) * (goal - j)]
                        continue
                    r = pb * bust
                    for a in adds:
                        tot = i + k + a
                        if tot < goal:
                            r += val[k + a] / faces
                        elif starter:
                            r += (1.0 - beat_probability(reach, j, tot)) / faces
                        else:
                            r += 1.0 / faces
                    val[k] = r
                out[t - 1, i, j] = best - val[0]
