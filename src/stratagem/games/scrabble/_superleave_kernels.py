"""Numba loops for the superleave table: the index of a leave in the complete table, the
value of every sub-multiset of a rack, and which sub-multiset each placement keeps
(:mod:`.superleaves` says what the values are)."""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np
from numba import njit

from stratagem.games.scrabble._heuristic_kernels import decode_subset, leave_value, subset_radix
from stratagem.games.scrabble._kernels import BLANK, COL, DOWN, LENGTH, ROW

KEY_BITS = 5
"""Bits per tile of a version-1 leave key: a tile is its letter index + 1 (the blank, index
26 in English, is 27), so 0 means "no tile" and keys of different lengths never collide."""
MAX_LEAVE = 6


class LeaveArrays(NamedTuple):
    """What the lookup reads. ``before`` ranks a leave (:func:`.superleaves.rank_table`); a complete
    table has one value per rank in ``values`` (``learned`` and ``fallback_*`` unused);
    otherwise ``values[k]`` is the value of the leave ranked ``learned[k]`` and every other
    leave is valued by the factored model (``per_letter``, ``balance``, ``pairs``)."""

    before: np.ndarray
    complete: bool
    learned: np.ndarray
    values: np.ndarray
    per_letter: np.ndarray
    balance: np.ndarray
    pairs: np.ndarray
    vowel: np.ndarray


@njit(cache=True)
def leave_key(kept, nletters):
    """The version-1 key of a leave: its tiles in letter order, ``letter + 1`` in 5 bits
    each, the first tile lowest; -1 for more than 6 tiles."""
    key = 0
    pos = 0
    for i in range(nletters + 1):
        for _ in range(kept[i]):
            if pos >= MAX_LEAVE:
                return -1
            key |= (i + 1) << (KEY_BITS * pos)
            pos += 1
    return key


@njit(cache=True)
def leave_rank(kept, before):
    """The rank of ``kept`` (counts, blank last) in the complete table; -1 for more than 6
    tiles (the caller keeps counts within the bag)."""
    room = MAX_LEAVE
    rank = 0
    for i in range(before.shape[0]):
        c = kept[i]
        if c > room:
            return -1
        rank += before[i, room, c]
        room -= c
    return rank


@njit(cache=True)
def lookup(arrays, kept, nletters):
    """The table's value of ``kept``: the complete table's entry, else the learned value
    when the leave is among ``learned``, else the factored model's; 0 for nothing kept."""
    rank = leave_rank(kept, arrays.before)
    if rank == 0:
        return 0.0
    if rank > 0:
        if arrays.complete:
            return np.float64(arrays.values[rank])
        k = np.searchsorted(arrays.learned, rank)
        if k < arrays.learned.shape[0] and arrays.learned[k] == rank:
            return np.float64(arrays.values[k])
    return leave_value(kept, nletters, arrays.per_letter, arrays.balance, arrays.pairs,
                       arrays.vowel)  # fmt: skip


@njit(cache=True)
def complete_values(counts, nletters, per_letter, balance, pairs, vowel):
    """The factored model's value of each row of ``counts`` (as :func:`lookup` computes
    it, so a completed table repeats its numbers)."""
    out = np.empty(counts.shape[0], dtype=np.float64)
    for k in range(counts.shape[0]):
        out[k] = leave_value(counts[k], nletters, per_letter, balance, pairs, vowel)
    return out


@njit(cache=True)
def subset_values(rack, nletters, arrays):
    """The value of every sub-multiset of the rack by mixed-radix code (``radix[letter]``
    the weight of one copy): ``(code of the whole rack, radix, values)``; at most 128."""
    full, radix, size = subset_radix(rack, nletters)
    out = np.empty(size, dtype=np.float64)
    kept = np.zeros(nletters + 1, dtype=np.int64)
    for code in range(size):
        decode_subset(code, rack, nletters, kept)
        out[code] = lookup(arrays, kept, nletters)
    return full, radix, out


@njit(cache=True, inline="always")
def kept_code(board, info, word, k, full, radix, nletters):
    """The sub-multiset code (:func:`subset_values`) of the tiles placement ``k`` keeps:
    the whole rack's code less each tile it lays on an empty square."""
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
    return kept


@njit(cache=True)
def placement_leaves(board, rack, info, word, count, nletters, arrays, out):
    """``out[k]``: the value of the tiles placement ``k`` keeps."""
    full, radix, value_of = subset_values(rack, nletters, arrays)
    for k in range(count):
        out[k] = value_of[kept_code(board, info, word, k, full, radix, nletters)]


@njit(cache=True)
def _log_choose(n, k):
    if k < 0 or k > n:
        return -np.inf
    return math.lgamma(n + 1) - math.lgamma(k + 1) - math.lgamma(n - k + 1)


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
    kept = np.zeros(ntiles, np.int64)
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
                for j in range(m):
                    kept[ids[j]] = cur[j]
                rank = leave_rank(kept, before)
                for j in range(m):
                    kept[ids[j]] = 0
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
