"""Numba loops for learning leaves from rack values (:mod:`.rackleaves` says what they
compute): every rack of the bag, the best equity of a rack on a board, and each leave's
expected rack value over the draws that complete it."""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from stratagem.games.scrabble._kernels import BLANK, COL, DOWN, LENGTH, ROW, SCORE
from stratagem.games.scrabble._superleave_kernels import _log_choose, subset_values


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
        row = info[k, ROW]
        col = info[k, COL]
        down = info[k, DOWN]
        kept = full
        for i in range(info[k, LENGTH]):
            r = row + i if down else row
            c = col if down else col + i
            if board[r, c] >= 0:
                continue
            code = word[k, i]
            kept -= radix[nletters] if code >= BLANK else radix[code]
        equity = info[k, SCORE] + value_of[kept]
        if equity > best:
            best = equity
    if exchange:
        for code in range(value_of.shape[0]):
            if code != full and value_of[code] > best:
                best = value_of[code]
    return best


@njit(cache=True)
def _log_choose_table(top, size):
    """``t[n, k]``: log C(n, k) for n <= ``top``, k <= ``size`` (-inf where k > n)."""
    t = np.full((top + 1, size + 1), -np.inf)
    for n in range(top + 1):
        for k in range(min(n, size) + 1):
            t[n, k] = _log_choose(n, k)
    return t


@njit(cache=True)
def leave_sums(racks, values, bag, before, out_value, out_weight):
    """For every rack (a row of ``racks``, all of one size) and every leave ``L`` of 1 to
    size - 1 of its tiles: ``out_weight[rank of L]`` += the chance ``p`` that a draw of the
    other tiles from ``bag`` less ``L`` is exactly the rest of the rack, ``out_value`` +=
    ``p * values[rack]``. Over every rack of the bag each leave's weight sums to 1, and its
    value sum is the expected value of the rack it draws to."""
    ntiles = bag.shape[0]
    total = 0
    top = 0
    for i in range(ntiles):
        total += bag[i]
        top = max(top, bag[i])
    size = 0
    if racks.shape[0]:
        for i in range(ntiles):
            size += racks[0, i]
    lc = _log_choose_table(top, size)
    lt = np.empty(size + 1)  # the log of the draws of size - k tiles from the bag less k
    for k in range(size + 1):
        lt[k] = _log_choose(total - k, size - k)
    ids = np.zeros(size, np.int64)
    caps = np.zeros(size, np.int64)
    cur = np.zeros(size, np.int64)
    for r in range(racks.shape[0]):
        m = 0
        for i in range(ntiles):
            if racks[r, i] > 0:
                ids[m] = i
                caps[m] = racks[r, i]
                m += 1
        for j in range(m):
            cur[j] = 0
        while True:
            k = 0
            log_p = 0.0
            for j in range(m):
                k += cur[j]
                log_p += lc[bag[ids[j]] - cur[j], caps[j] - cur[j]]
            if 1 <= k < size:
                rank = 0
                room = 6
                j = 0
                for i in range(ntiles):  # leave_rank over the kept counts
                    c = 0
                    if j < m and ids[j] == i:
                        c = cur[j]
                        j += 1
                    rank += before[i, room, c]
                    room -= c
                p = math.exp(log_p - lt[k])
                out_weight[rank] += p
                out_value[rank] += p * values[r]
            j = 0  # the next sub-multiset: count up in the mixed radix of the rack's copies
            while j < m:
                cur[j] += 1
                if cur[j] <= caps[j]:
                    break
                cur[j] = 0
                j += 1
            if j == m:
                break


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
