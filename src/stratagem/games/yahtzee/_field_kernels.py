"""Numba kernels of the 3-4 player match (the win-seeking player against a field); nothing else.

A *card* is a row ``(mask, upper total capped at the threshold, Yahtzee flag, points so
far with bonuses)``, as in :mod:`._match_kernels`; ``cards[g, seat]`` for any number of
seats. The win-seeking player prices each way its turn can end by its expected *share*
of the win against the field: every other player's final score is drawn from its optimal
remaining-score distribution (independently of the others), and a tie at the top among
k + 1 players gives each 1/(k + 1). With one opponent this is the two-player table of
:func:`._match_kernels.opponent_table` (a win, or half a tie).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from stratagem.games.yahtzee._kernels import turn_tables
from stratagem.games.yahtzee._match_kernels import (
    OPTIMAL,
    WIN,
    play_turn,
    turn_scratch,
    win_turn_tables,
)
from stratagem.games.yahtzee.policy_ids import FW_LEN

__all__ = ["FW_LEN", "OPTIMAL", "WIN"]


@njit(cache=True)
def field_table(cards_g, seat, sid, offsets, lows, lengths, data, fw, below, at, coef):
    """fw[x] = the expected share of the win of ``seat`` finishing on x points.

    ``below[i, x]`` = P(opponent i finishes below x), ``at[i, x]`` = P(exactly x); the
    product over opponents of (below + at z) counts, in the coefficient of z^k, the
    chance that all finish at most x with exactly k of them on x.
    """
    n = cards_g.shape[0]
    L = fw.shape[0]
    nopp = 0
    for o in range(n):
        if o == seat:
            continue
        s = sid[cards_g[o, 0], cards_g[o, 1], cards_g[o, 2]]
        off = offsets[s]
        base = cards_g[o, 3] + lows[s]
        ln = lengths[s]
        acc = 0.0
        for x in range(L):
            j = x - base
            p = 0.0
            if 0 <= j < ln:
                p = data[off + j]
            below[nopp, x] = acc
            at[nopp, x] = p
            acc += p
        nopp += 1
    for x in range(L):
        coef[0] = 1.0
        for k in range(1, nopp + 1):
            coef[k] = 0.0
        for i in range(nopp):
            a = below[i, x]
            b = at[i, x]
            for k in range(i + 1, 0, -1):
                coef[k] = coef[k] * a + coef[k - 1] * b
            coef[0] *= a
        v = 0.0
        for k in range(nopp + 1):
            v += coef[k] / (k + 1)
        fw[x] = v


@njit(cache=True, parallel=True)
def play_field_rounds(cards, rng, policy, first_round, last_round, V, T, R, turns_out):
    """Play rounds ``first_round .. last_round - 1`` of every game in place.

    ``policy[g, seat]`` is OPTIMAL or WIN; seat 0 moves first in every round; each seat
    throws from its own stream ``rng[g, seat]``. As :func:`._match_kernels.play_rounds`
    for two players (its turns are played by the same :func:`._match_kernels.play_turn`),
    with the win-seeking player's table against the whole field.
    """
    sid, offsets, lows, lengths, data = T
    ngames = cards.shape[0]
    nseats = cards.shape[1]
    ncat = R.score.shape[0]
    nchunks = min(ngames, 256)
    for chunk in prange(nchunks):
        tables, held, m, memo, fw = turn_scratch(ncat)
        w, e0, e1, _ceil, _cat = tables  # (no risk-taker in a field: ceil is not read)
        below = np.empty((nseats, FW_LEN))
        at = np.empty((nseats, FW_LEN))
        coef = np.empty(nseats + 1)
        lo = chunk * ngames // nchunks
        hi = (chunk + 1) * ngames // nchunks
        for g in range(lo, hi):
            for _round in range(first_round, last_round):
                for seat in range(nseats):
                    mask = cards[g, seat, 0]
                    u = cards[g, seat, 1]
                    y = cards[g, seat, 2]
                    pol = policy[g, seat]
                    if pol == WIN:
                        field_table(cards[g], seat, sid, offsets, lows, lengths, data, fw,
                                    below, at, coef)  # fmt: skip
                        win_turn_tables(mask, u, y, cards[g, seat, 3], fw, T, R, tables, m, memo)
                        turns_out[g, seat] += 1
                    else:
                        turn_tables(V, mask, u, y, R, e0, e1, w)
                    play_turn(cards, g, seat, pol, False, 0, rng, V, R, tables, held)
