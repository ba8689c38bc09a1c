"""A numba check of one placement, for :meth:`ScrabbleState.apply`.

:func:`check_placement` applies the rules of :func:`.board.score_tiles` (and
of :func:`.board.new_tiles` and the rack check before it) square by square,
written apart from the move generator, and returns the placement's score, or
-1 when any rule is broken. It does not say which: the state then runs the
Python checks, which name the rule. A legal move therefore costs one call
here instead of the Python scorer's walk, and an illegal one gets the same
error as before.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

SIZE = 15
BLANK = 64
RACK_SIZE = 7
CENTER = 7


class Scoring(NamedTuple):
    """What a placement is checked and scored against: the tile set (``nletters`` letters,
    their ``values``), the premium squares (``lmult``, ``wmult``) and bingo bonus, and the
    lexicon's trie (``child``, ``terminal``, ``root``)."""

    nletters: int
    values: np.ndarray
    lmult: np.ndarray
    wmult: np.ndarray
    bingo: int
    child: np.ndarray
    terminal: np.ndarray
    root: int


@njit(cache=True)
def _word(after, fresh, r, c, dr, dc, n, S):
    """The points of the word of ``n`` squares from (r, c), or -1 if it is not a word."""
    values, lmult, wmult = S.values, S.lmult, S.wmult
    child, terminal, root = S.child, S.terminal, S.root
    total = 0
    mult = 1
    node = root
    for i in range(n):
        rr = r + i * dr
        cc = c + i * dc
        code = after[rr, cc]
        letter = code & (BLANK - 1)
        if node >= 0:
            node = child[node, letter]
        value = 0 if code & BLANK else values[letter]
        if fresh[rr, cc]:
            value *= lmult[rr, cc]
            mult *= wmult[rr, cc]
        total += value
    if node < 0 or not terminal[node]:
        return -1
    return total * mult


@njit(cache=True)
def _run_start(after, r, c, dr, dc):
    """The first square and the length of the line of tiles through (r, c) along (dr, dc)."""
    while 0 <= r - dr < SIZE and 0 <= c - dc < SIZE and after[r - dr, c - dc] >= 0:
        r -= dr
        c -= dc
    n = 0
    while 0 <= r + n * dr < SIZE and 0 <= c + n * dc < SIZE and after[r + n * dr, c + n * dc] >= 0:
        n += 1
    return r, c, n


@njit(cache=True)
def check_placement(board, row, col, across, codes, rack, S, new_r, new_c, new_code):
    """``(score, k)`` of laying the word ``codes`` from (row, col) under the
    :class:`Scoring` ``S``; score -1 if it breaks a rule.

    ``codes`` are the square codes of the word as written (letters already on
    the board included); ``rack`` the mover's counts (blank at ``S.nletters``).
    The ``k`` new tiles are in ``new_r/new_c/new_code[:k]`` in the word's order.
    """
    nletters = S.nletters
    dr = 0 if across else 1
    dc = 1 if across else 0
    n = codes.shape[0]
    k = 0
    used = np.zeros(nletters + 1, dtype=np.int64)
    for i in range(n):
        r = row + i * dr
        c = col + i * dc
        if r < 0 or r >= SIZE or c < 0 or c >= SIZE:
            return -1, k
        code = codes[i]
        on = board[r, c]
        if on < 0:
            if k >= RACK_SIZE:
                return -1, k
            slot = nletters if code & BLANK else code
            used[slot] += 1
            if used[slot] > rack[slot]:
                return -1, k
            new_r[k] = r
            new_c[k] = c
            new_code[k] = code
            k += 1
        elif (on & (BLANK - 1)) != (code & (BLANK - 1)):
            return -1, k
    if k == 0:
        return -1, k
    # the rules of score_tiles, on the board with the new tiles laid
    was_empty = True
    for r in range(SIZE):
        for c in range(SIZE):
            if board[r, c] >= 0:
                was_empty = False
    after = board.copy()
    fresh = np.zeros((SIZE, SIZE), dtype=np.bool_)
    one_row = True
    for j in range(k):
        after[new_r[j], new_c[j]] = new_code[j]
        fresh[new_r[j], new_c[j]] = True
        if new_r[j] != new_r[0]:
            one_row = False
    # across when the new tiles share a row and are several or make an across word
    main_across = one_row and (k > 1 or _run_start(after, new_r[0], new_c[0], 0, 1)[2] > 1)
    mr = 0 if main_across else 1
    mc = 1 if main_across else 0
    r0, c0, length = _run_start(after, new_r[0], new_c[0], mr, mc)
    for j in range(k):
        # every new tile on the main word's line, inside its run
        if main_across:
            if new_r[j] != r0 or not c0 <= new_c[j] < c0 + length:
                return -1, k
        elif new_c[j] != c0 or not r0 <= new_r[j] < r0 + length:
            return -1, k
    if length < 2:
        return -1, k
    if was_empty:
        if not fresh[CENTER, CENTER]:
            return -1, k
    else:
        touches = False
        for j in range(k):
            r = new_r[j]
            c = new_c[j]
            if (
                (r > 0 and board[r - 1, c] >= 0)
                or (r < SIZE - 1 and board[r + 1, c] >= 0)
                or (c > 0 and board[r, c - 1] >= 0)
                or (c < SIZE - 1 and board[r, c + 1] >= 0)
            ):
                touches = True
        if not touches:
            return -1, k
    score = _word(after, fresh, r0, c0, mr, mc, length, S)
    if score < 0:
        return -1, k
    for j in range(k):
        cr, cc, m = _run_start(after, new_r[j], new_c[j], mc, mr)
        if m > 1:
            points = _word(after, fresh, cr, cc, mc, mr, m, S)
            if points < 0:
                return -1, k
            score += points
    if k == RACK_SIZE:
        score += S.bingo
    return score, k
