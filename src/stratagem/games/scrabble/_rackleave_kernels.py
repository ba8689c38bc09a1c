"""Numba loops for learning leaves from rack values (:mod:`.rackleaves` says what they
compute): every rack of the bag, the best equity of a rack on a board, and the chance of
drawing each rack (each leave's expected rack value over the draws is
:func:`._superleave_kernels.leave_sums`)."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from stratagem.games.scrabble._kernels import SCORE
from stratagem.games.scrabble._superleave_kernels import _log_choose, kept_code, subset_values


@njit(cache=True)
def count_racks(caps, size):
    """How many distinct racks of ``size`` tiles the bag ``caps`` (copies per tile) holds."""
    ways = np.zeros(size + 1, np.int64)
    ways[0] = 1
    for i in range(caps.shape[0]):
        nxt = np.zeros(size + 1, np.int64)
        for k in range(size + 1):
            for c in range(min(caps[i], k) + 1):
                nxt[k] += ways[k - c]
        ways = nxt
    return ways[size]


@njit(cache=True)
def enumerate_racks(caps, size, out):
    """Every rack of ``size`` tiles into the rows of ``out`` (counts, blank last), ordered
    by their counts tile by tile, the first tile's copies descending; returns the count."""
    m = caps.shape[0]
    cur = np.zeros(m, np.int64)
    room = np.zeros(m + 1, np.int64)  # room[i]: tiles still to place from tile i on
    tail = np.zeros(m + 1, np.int64)  # tail[i]: how many the tiles from i on can hold
    for i in range(m - 1, -1, -1):
        tail[i] = tail[i + 1] + caps[i]
    n = 0
    i = 0
    room[0] = size
    cur[0] = min(caps[0], size) + 1  # the first step below lowers it to the largest count
    while i >= 0:
        cur[i] -= 1
        if cur[i] < 0 or room[i] - cur[i] > tail[i + 1]:
            cur[i] = 0
            i -= 1
            continue
        room[i + 1] = room[i] - cur[i]
        if i == m - 1:
            if room[m] == 0:
                for j in range(m):
                    out[n, j] = cur[j]
                n += 1
            continue
        i += 1
        cur[i] = min(caps[i], room[i]) + 1
    return n


@njit(cache=True)
def best_equity(board, rack, info, word, count, nletters, arrays, exchange):
    """The best equity (score + value of the tiles kept) of the rack on the board over the
    ``count`` placements in ``info``/``word`` and, with ``exchange``, every exchange of 1-7
    tiles (score 0, the tiles kept valued); -inf when nothing is legal."""
    full, radix, value_of = subset_values(rack, nletters, arrays)
    best = -np.inf
    for k in range(count):
        kept = kept_code(board, info, word, k, full, radix, nletters)
        equity = info[k, SCORE] + value_of[kept]
        if equity > best:
            best = equity
    if exchange:
        for code in range(value_of.shape[0]):
            if code != full and value_of[code] > best:
                best = value_of[code]
    return best


@njit(cache=True)
def rack_chances(racks, bag):
    """The chance of drawing each rack (a row of ``racks``) from a full ``bag``."""
    ntiles = bag.shape[0]
    total = 0
    for i in range(ntiles):
        total += bag[i]
    out = np.empty(racks.shape[0])
    for r in range(racks.shape[0]):
        size = 0
        log_p = 0.0
        for i in range(ntiles):
            size += racks[r, i]
            log_p += _log_choose(bag[i], racks[r, i])
        out[r] = math.exp(log_p - _log_choose(total, size))
    return out
