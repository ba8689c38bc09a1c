"""Numba loops for the superleave table: the value of every sub-multiset of a rack, and
which sub-multiset each placement keeps (:mod:`.superleaves` says what the values are)."""

from __future__ import annotations

import numpy as np
from numba import njit

from stratagem.games.scrabble._heuristic_kernels import decode_subset, leave_value, subset_radix
from stratagem.games.scrabble._kernels import BLANK, COL, DOWN, LENGTH, ROW

KEY_BITS = 5
"""Bits per tile of a leave key: a tile is its letter index + 1 (the blank, index 26 in
English, is 27), so 0 means "no tile" and keys of different lengths never collide."""


@njit(cache=True)
def leave_key(kept, nletters):
    """The key of a leave: its tiles in letter order, ``letter + 1`` in 5 bits each, the
    first tile lowest; -1 for more than 6 tiles."""
    key = 0
    pos = 0
    for i in range(nletters + 1):
        for _ in range(kept[i]):
            if pos >= 6:
                return -1
            key |= (i + 1) << (KEY_BITS * pos)
            pos += 1
    return key


@njit(cache=True)
def lookup(keys, values, kept, nletters, per_letter, balance, pairs, vowel):
    """The learned value of ``kept`` when its key is in the sorted ``keys``, else the
    factored model's (``per_letter``, ``balance``, ``pairs``)."""
    key = leave_key(kept, nletters)
    if key > 0:
        k = np.searchsorted(keys, key)
        if k < keys.shape[0] and keys[k] == key:
            return values[k]
    return leave_value(kept, nletters, per_letter, balance, pairs, vowel)


@njit(cache=True)
def subset_values(rack, nletters, keys, values, per_letter, balance, pairs, vowel):
    """The value of every sub-multiset of the rack by mixed-radix code (``radix[letter]``
    the weight of one copy): ``(code of the whole rack, radix, values)``; at most 128."""
    full, radix, size = subset_radix(rack, nletters)
    out = np.empty(size, dtype=np.float64)
    kept = np.zeros(nletters + 1, dtype=np.int64)
    for code in range(size):
        decode_subset(code, rack, nletters, kept)
        out[code] = lookup(keys, values, kept, nletters, per_letter, balance, pairs, vowel)
    return full, radix, out


@njit(cache=True)
def placement_leaves(board, rack, info, word, count, nletters, keys, values, per_letter,
                     balance, pairs, vowel, out):  # fmt: skip
    """``out[k]``: the value of the tiles placement ``k`` keeps."""
    full, radix, value_of = subset_values(
        rack, nletters, keys, values, per_letter, balance, pairs, vowel
    )
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
        out[k] = value_of[kept]
