"""Numba loops that compute the heuristic terms of every candidate move.

The terms are defined in :mod:`stratagem.games.scrabble.heuristic`; this
module only computes them, for all placements of a move list (``info`` and
``word`` arrays from :class:`~stratagem.games.scrabble.movegen.MoveGenerator`)
and for all exchanges and the pass. A feature row is
``[expensive, blank, identical, premium, score, leave]`` (columns :data:`EXPENSIVE` ..
:data:`LEAVE`); a move row's columns are :mod:`._kernels`' ``ROW`` .. ``TILES``.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from stratagem.games.scrabble._kernels import BLANK, COL, DOWN, LENGTH, ROW, SCORE, SIZE

# The columns of a feature row (``FEATURE_NAMES`` of :mod:`.heuristic`, in this order).
EXPENSIVE, BLANKS, IDENTICAL, PREMIUM, POINTS, LEAVE = range(6)
FEATURES = 6


class LeaveArrays(NamedTuple):
    """A leave table as the kernels read it (:class:`.leaves.LeaveTable`'s arrays) and which
    letters are vowels."""

    per_letter: np.ndarray
    balance: np.ndarray
    pairs: np.ndarray
    vowel: np.ndarray


REACH = 2
"""How far (in squares along a row or column, over empty squares) a tile makes a square open."""


@njit(cache=True)
def premium_weights(lm, wm, out):
    """Weight of each premium square when opened: DL 1, TL 2, DW 2, TW 3, plain 0."""
    for r in range(SIZE):
        for c in range(SIZE):
            w = 0.0
            if wm[r, c] == 3:
                w = 3.0
            elif wm[r, c] == 2 or lm[r, c] == 3:
                w = 2.0
            elif lm[r, c] == 2:
                w = 1.0
            out[r, c] = w


@njit(cache=True, inline="always")
def _along(r, c, d, step):
    """The square ``step`` squares from (r, c) in direction d (down, up, right, left),
    or (-1, -1) off the board."""
    rr = r + (step if d == 0 else (-step if d == 1 else 0))
    cc = c + (step if d == 2 else (-step if d == 3 else 0))
    if rr < 0 or rr >= SIZE or cc < 0 or cc >= SIZE:
        return -1, -1
    return rr, cc


@njit(cache=True)
def _reachable(board, reach):
    """Empty squares within REACH steps (over empty squares, in line) of a tile."""
    for r in range(SIZE):
        for c in range(SIZE):
            reach[r, c] = False
    for r in range(SIZE):
        for c in range(SIZE):
            if board[r, c] < 0:
                continue
            for d in range(4):
                for step in range(1, REACH + 1):
                    rr, cc = _along(r, c, d, step)
                    if rr < 0 or board[rr, cc] >= 0:
                        break
                    reach[rr, cc] = True


@njit(cache=True)
def leave_value(kept, nletters, leave_v, leave_vc, leave_pair, vowel):
    """Value of the kept tiles: per (letter, copies), plus the vowel/consonant balance,
    plus ``leave_pair[i, j]`` (``i < j``) for every two distinct letters both kept."""
    total = 0.0
    tiles = 0
    nv = 0
    nc = 0
    for i in range(nletters + 1):
        n = kept[i]
        if n <= 0:
            continue
        tiles += n
        total += leave_v[i, min(n, leave_v.shape[1] - 1)]
        for j in range(i + 1, nletters + 1):
            if kept[j] > 0:
                total += leave_pair[i, j]
        if i < nletters:
            if vowel[i]:
                nv += n
            else:
                nc += n
    if tiles == 0:
        return 0.0
    return total + leave_vc[min(nv, leave_vc.shape[0] - 1), min(nc, leave_vc.shape[1] - 1)]


@njit(cache=True)
def _identical(kept, nletters):
    dup = 0
    for i in range(nletters):
        if kept[i] > 1:
            dup += kept[i] - 1
    return dup


@njit(cache=True)
def subset_radix(rack, nletters):
    """The mixed-radix code of the rack's sub-multisets (``radix[letter]`` is the weight of
    one copy of the letter): ``(code of the whole rack, radix, how many codes)``."""
    radix = np.empty(nletters + 1, dtype=np.int64)
    full = 0
    size = 1
    for i in range(nletters + 1):
        radix[i] = size
        full += rack[i] * size
        size *= rack[i] + 1
    return full, radix, size


@njit(cache=True)
def decode_subset(code, rack, nletters, kept):
    """``kept[i]``: the copies of letter i in the sub-multiset of the rack coded ``code``."""
    rest = code
    for i in range(nletters + 1):
        if rack[i] > 0:
            kept[i] = rest % (rack[i] + 1)
            rest //= rack[i] + 1


@njit(cache=True)
def _subset_tables(rack, nletters, leaves):
    """Leave value and duplicate count of every sub-multiset of the rack, indexed by a
    mixed-radix code (``radix[letter]`` is the weight of one copy of the letter):
    ``(code of the whole rack, radix, leave values, duplicate counts)``."""
    full, radix, size = subset_radix(rack, nletters)
    leave_of = np.empty(size, dtype=np.float64)
    dup_of = np.empty(size, dtype=np.int64)
    kept = np.zeros(nletters + 1, dtype=np.int64)
    for code in range(size):
        decode_subset(code, rack, nletters, kept)
        leave_of[code] = leave_value(
            kept, nletters, leaves.per_letter, leaves.balance, leaves.pairs, leaves.vowel
        )
        dup_of[code] = _identical(kept, nletters)
    return full, radix, leave_of, dup_of


@njit(cache=True)
def placement_features(
    board, rack, info, word, count, values, nletters, expensive_min, pweight, leaves, feats
):
    """Fill ``feats[k]`` for the first ``count`` moves of ``info``/``word``.

    A rack holds at most 7 tiles, so it has at most 128 sub-multisets: their leave values
    and duplicate counts are computed once, and each move only finds its leave's code.
    """
    reach = np.empty((SIZE, SIZE), dtype=np.bool_)
    _reachable(board, reach)
    stamp = np.zeros((SIZE, SIZE), dtype=np.int64)  # k + 1 on squares counted for move k
    new = np.zeros((SIZE, SIZE), dtype=np.int64)  # k + 1 on move k's new tiles
    full, radix, leave_of, dup_of = _subset_tables(rack, nletters, leaves)
    rows = np.empty(7, dtype=np.int64)
    cols = np.empty(7, dtype=np.int64)
    for k in range(count):
        row = info[k, ROW]
        col = info[k, COL]
        down = info[k, DOWN]
        length = info[k, LENGTH]
        kept = full
        expensive = 0.0
        blanks = 0
        laid = 0
        for i in range(length):
            r = row + i if down else row
            c = col if down else col + i
            if board[r, c] >= 0:
                continue
            code = word[k, i]
            if code >= BLANK:
                kept -= radix[nletters]
                blanks += 1
            else:
                kept -= radix[code]
                if values[code] >= expensive_min:
                    expensive += values[code]
            new[r, c] = k + 1
            if laid < 7:
                rows[laid] = r
                cols[laid] = c
            laid += 1
        opened = 0.0
        for t in range(min(laid, 7)):
            r = rows[t]
            c = cols[t]
            for d in range(4):
                for step in range(1, REACH + 1):
                    rr, cc = _along(r, c, d, step)
                    if rr < 0 or board[rr, cc] >= 0 or new[rr, cc] == k + 1:
                        break
                    if pweight[rr, cc] > 0 and not reach[rr, cc] and stamp[rr, cc] != k + 1:
                        stamp[rr, cc] = k + 1
                        opened += pweight[rr, cc]
        feats[k, EXPENSIVE] = expensive
        feats[k, BLANKS] = -blanks
        feats[k, IDENTICAL] = -dup_of[kept]
        feats[k, PREMIUM] = -opened
        feats[k, POINTS] = info[k, SCORE]
        feats[k, LEAVE] = leave_of[kept]


@njit(cache=True)
def exchange_features(rack, nletters, values, expensive_min, leaves, allow, gives, feats):
    """The pass (row 0) and, if ``allow``, every distinct exchange; returns the row count.

    ``gives[j]`` holds the tiles given back (all zero for the pass).
    """
    kinds = np.zeros(nletters + 1, dtype=np.int64)
    nk = 0
    for i in range(nletters + 1):
        if rack[i] > 0:
            kinds[nk] = i
            nk += 1
    give = np.zeros(nletters + 1, dtype=np.int64)
    kept = np.empty(nletters + 1, dtype=np.int64)
    j = 0
    while True:
        for i in range(nletters + 1):
            kept[i] = rack[i] - give[i]
            gives[j, i] = give[i]
        expensive = 0.0
        for i in range(nletters):
            if give[i] > 0 and values[i] >= expensive_min:
                expensive += values[i] * give[i]
        feats[j, EXPENSIVE] = expensive
        feats[j, BLANKS] = -give[nletters]
        feats[j, IDENTICAL] = -_identical(kept, nletters)
        feats[j, PREMIUM] = 0.0
        feats[j, POINTS] = 0.0
        feats[j, LEAVE] = leave_value(
            kept, nletters, leaves.per_letter, leaves.balance, leaves.pairs, leaves.vowel
        )
        j += 1
        if not allow:
            break
        # next give vector in mixed radix over the rack's letters
        pos = 0
        while pos < nk:
            letter = kinds[pos]
            if give[letter] < rack[letter]:
                give[letter] += 1
                break
            give[letter] = 0
            pos += 1
        if pos == nk:
            break
    return j


@njit(cache=True)
def laid_values(board, info, word, n, values, out):
    """Face value of the tiles each placement lays (a blank counts 0)."""
    for k in range(n):
        r, c, down, length = info[k, ROW], info[k, COL], info[k, DOWN], info[k, LENGTH]
        v = 0
        for i in range(length):
            rr = r + i if down else r
            cc = c if down else c + i
            if board[rr, cc] < 0:
                code = word[k, i]
                if code < BLANK:
                    v += values[code]
        out[k] = v
