"""Numba move generation over a DAWG held in flat arrays.

The DAWG is ``child[node, letter]`` (int32, -1 for no edge), ``terminal[node]``
and ``mask[node]`` (uint64 bit set of the letters leaving the node). A board
square holds -1, a letter index, or a letter index + 64 for a blank.

Moves are generated one direction at a time on a board whose lines run
across (the down pass works on the transposed board). For every row and
every square ``s`` that can start a word (the square before it is empty or
off the board) whose first anchor lies within reach of the rack, a
depth-first walk of the DAWG lays rack tiles on empty squares (obeying the
cross-checks) and reads the tiles already there; a word is recorded when it
ends on an empty square or the edge, has laid a tile on an anchor, and is a
word of the DAWG. Because each move is generated from the first square of its
main word, no move is found twice. A single tile that also forms an across
word is recorded by the across pass only.

A move record (``info`` row) is: row, col (first square of the main word, on
the real board), down (0/1), length, score, tiles laid; ``word`` holds the
main word's square codes.

The walk takes its arrays as named tuples (:class:`Dawg`, :class:`Lines`,
:class:`Hand`, :class:`Out`) and reads their fields into locals once per
walk: numba counts a reference at every read of a tuple's field, which in the
walk's loop would cost more than the walk.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

SIZE = 15
BLANK = 64

# A move record (a row of ``out_info``, or the head of ``best``).
ROW, COL, DOWN, LENGTH, SCORE, TILES = range(6)
INFO_FIELDS = 6

# The walk's stack: ``st[d, FIELD]`` is its state on reaching square ``s + d``.
NODE = 0  # DAWG node after the letters so far
MAIN_SUM = 1  # letter values of the main word so far (letter premiums applied)
MULTIPLIER = 2  # product of the word premiums under the tiles laid
CROSS_TOTAL = 3  # points of the cross words made so far
CROSS_WORDS = 4  # tiles laid that make a cross word
ANCHORED = 5  # 1 once a tile is laid on an anchor
LAID = 6  # tiles laid from the rack
NEXT = 7  # the next candidate to try at this square (index into the letters)
SLOT = 8  # rack slot of the tile laid here (-1: none), returned on backtracking
FRESH = 9  # 1 until the square's word-end test has run
STACK_FIELDS = 10


class Dawg(NamedTuple):
    """The lexicon as the DAWG walk reads it, with the letters' values."""

    child: np.ndarray
    """``child[node, letter]`` (int32, -1: no edge)."""
    terminal: np.ndarray
    """Whether a word ends at the node."""
    mask: np.ndarray
    """The letters leaving the node (uint64 bit set)."""
    root: int
    values: np.ndarray
    """Letter values (int32), the blank's 0 at index ``nletters``."""
    nletters: int


class Lines(NamedTuple):
    """The board one way round, as a walk along its rows reads it: the down pass gets the
    transposed board and premiums (``down`` 1). ``cmask``, ``csum`` and ``anchor`` are
    the cross-checks and anchors of those rows (:func:`cross_checks`, :func:`anchors`)."""

    board: np.ndarray
    lm: np.ndarray
    """Letter premiums."""
    wm: np.ndarray
    """Word premiums."""
    cmask: np.ndarray
    csum: np.ndarray
    anchor: np.ndarray
    down: int
    bingo: int
    """The bonus for laying the whole rack (7 tiles)."""


class Hand(NamedTuple):
    """The rack on turn as the DAWG walk reads it: the counts (blank last; the walk takes
    tiles from it and puts them back), how many tiles, and its distinct letters (the
    blank left out) in letter order, the first ``n_letters`` of ``letters``."""

    rack: np.ndarray
    tiles: int
    letters: np.ndarray
    n_letters: int


class Out(NamedTuple):
    """Where a call records its moves: rows of ``info`` (the fields ``ROW`` ... ``TILES``)
    and of ``words`` (the main word's square codes), or the best one alone in ``best``
    (the fields, then the codes)."""

    info: np.ndarray
    words: np.ndarray
    best: np.ndarray


class Move(NamedTuple):
    """A move as a walk finds it, on the board the walk reads (see :class:`Lines`): its
    line, the first square of its main word on that line, whether it is down, the main
    word's length, its score and the tiles it lays."""

    line: int
    first: int
    down: int
    length: int
    score: int
    tiles: int


@njit(cache=True)
def cross_checks(board, dawg, cmask, csum):
    """For play along rows: per empty square, letters whose column word is valid, and its sum.

    ``csum`` is -1 where the square has no neighbour above or below (no cross word).
    """
    child, terminal, mask, root, values, nletters = dawg
    for r in range(SIZE):
        for c in range(SIZE):
            square_check(board, r, c, child, terminal, mask, root, values, nletters, cmask, csum)


@njit(cache=True)
def column_word(board, r, c):
    """The first and last rows of the column word a tile on square (r, c) would make: the
    tiles above and below it (``(r, r)`` when there are none)."""
    up = r
    while up > 0 and board[up - 1, c] >= 0:
        up -= 1
    down = r
    while down < SIZE - 1 and board[down + 1, c] >= 0:
        down += 1
    return up, down


@njit(cache=True)
def square_check(board, r, c, child, terminal, mask, root, values, nletters, cmask, csum):
    """The cross-check of square (r, c) for play along rows (a square of :func:`cross_checks`):
    the letters whose column word is valid, and the column word's points (-1: none)."""
    if board[r, c] >= 0:
        cmask[r, c] = np.uint64(0)
        csum[r, c] = -1
        return
    up, down = column_word(board, r, c)
    if up == r and down == r:
        full = np.uint64(0)
        for letter in range(nletters):
            full |= np.uint64(1) << np.uint64(letter)
        cmask[r, c] = full
        csum[r, c] = -1
        return
    total = 0
    node = root
    for rr in range(up, r):
        code = board[rr, c]
        if code < BLANK:
            total += values[code]
        if node >= 0:
            node = child[node, code & (BLANK - 1)]
    for rr in range(r + 1, down + 1):
        code = board[rr, c]
        if code < BLANK:
            total += values[code]
    allowed = np.uint64(0)
    if node >= 0:
        bits = mask[node]
        for letter in range(nletters):
            if (bits >> np.uint64(letter)) & np.uint64(1):
                n2 = child[node, letter]
                for rr in range(r + 1, down + 1):
                    n2 = child[n2, board[rr, c] & (BLANK - 1)]
                    if n2 < 0:
                        break
                if n2 >= 0 and terminal[n2]:
                    allowed |= np.uint64(1) << np.uint64(letter)
    cmask[r, c] = allowed
    csum[r, c] = total


@njit(cache=True)
def board_empty(board):
    """Whether no tile is on the board (then the centre is the one anchor)."""
    for r in range(SIZE):
        for c in range(SIZE):
            if board[r, c] >= 0:
                return False
    return True


@njit(cache=True)
def anchors(board, anchor):
    """Empty squares next to a tile; the centre alone on an empty board."""
    empty = board_empty(board)
    for r in range(SIZE):
        for c in range(SIZE):
            anchor[r, c] = square_anchor(board, r, c, empty)


@njit(cache=True)
def square_anchor(board, r, c, empty):
    """An empty square next to a tile (the centre alone on an empty board)."""
    if board[r, c] >= 0:
        return False
    if empty:
        return r == SIZE // 2 and c == SIZE // 2
    return (
        (r > 0 and board[r - 1, c] >= 0)
        or (r < SIZE - 1 and board[r + 1, c] >= 0)
        or (c > 0 and board[r, c - 1] >= 0)
        or (c < SIZE - 1 and board[r, c + 1] >= 0)
    )


@njit(cache=True)
def start_reaches_anchor(board, anchor, r, s, tiles):
    """Whether square ``s`` of row ``r`` can start a word (the square before it is empty or
    off the board) whose first anchor lies within reach of ``tiles`` rack tiles: fewer
    than ``tiles`` empty squares lie between ``s`` and that anchor."""
    if s > 0 and board[r, s - 1] >= 0:
        return False
    empties = 0
    for c in range(s, SIZE):
        if board[r, c] < 0:
            if anchor[r, c]:
                return empties < tiles
            empties += 1
            if empties >= tiles:
                return False
    return False


@njit(cache=True)
def distinct_letters(rack, nletters):
    """The letters on ``rack`` (counts, blank last; the blank left out), each once in
    letter order, in an array of ``nletters``, and how many there are: the walk's
    candidates for a square."""
    letters = np.zeros(nletters, dtype=np.int64)
    n = 0
    for letter in range(nletters):
        if rack[letter] > 0:
            letters[n] = letter
            n += 1
    return letters, n


@njit(cache=True, inline="always")
def store_move(move, word, best_only, better, info, words, best, count):
    """Record ``move`` (a :class:`Move`; its squares' codes in ``word[move.first:]``): into
    ``best`` when ``best_only`` and it is ``better``, else as row ``count`` of ``info`` and
    ``words`` if there is room. Returns the new count. Inlined into the walks, which pass
    their arrays unpacked (a call that passes arrays, or reads them from a named tuple,
    would cost reference counting on every move)."""
    row = move.first if move.down else move.line
    col = move.line if move.down else move.first
    if best_only:
        if better:
            best[ROW] = row
            best[COL] = col
            best[DOWN] = move.down
            best[LENGTH] = move.length
            best[SCORE] = move.score
            best[TILES] = move.tiles
            for i in range(move.length):
                best[INFO_FIELDS + i] = word[move.first + i]
        return count
    if count < info.shape[0]:
        info[count, ROW] = row
        info[count, COL] = col
        info[count, DOWN] = move.down
        info[count, LENGTH] = move.length
        info[count, SCORE] = move.score
        info[count, TILES] = move.tiles
        for i in range(move.length):
            words[count, i] = word[move.first + i]
    return count + 1


@njit(cache=True)
def lay_score(main_sum, multiplier, cross_total, cross_words, value, wmul, cross):
    """A walk's scoring fields (``MAIN_SUM``, ``MULTIPLIER``, ``CROSS_TOTAL``,
    ``CROSS_WORDS``) after laying a tile worth ``value`` (its letter premium applied) on a
    square with word premium ``wmul`` and cross word points ``cross`` (-1: no cross word).
    Shared by the DAWG walk here and the GADDAG walk; scalars only, so that the call costs
    no reference counting (LLVM inlines it)."""
    if cross >= 0:
        return (
            main_sum + value, multiplier * wmul, cross_total + (cross + value) * wmul,
            cross_words + 1,
        )  # fmt: skip
    return main_sum + value, multiplier * wmul, cross_total, cross_words


@njit(cache=True)
def _walk(dawg, lines, hand, out, best_only, word, st, r, s, count):
    """Depth-first walk of the DAWG along row ``r`` of ``lines`` from square ``s``
    (iterative: numba cannot reload recursive functions from its cache); records the
    moves in ``out`` (the best alone with ``best_only``) after the first ``count``,
    returns the new count. ``word`` receives the squares' codes as the walk goes.

    ``st[d, FIELD]`` is the walk's state on reaching square ``s + d``, with the
    fields named at the top of the module (``NODE``, ``MAIN_SUM``, ...).
    """
    child, terminal, mask, root, values, nletters = dawg
    board, lm, wm, cmask, csum, anchor, down, bingo = lines
    rack, tiles, rack_letters, n_rack_letters = hand
    info, words, best = out
    d = 0
    st[0, NODE] = root
    st[0, MAIN_SUM] = 0
    st[0, MULTIPLIER] = 1
    st[0, CROSS_TOTAL] = 0
    st[0, CROSS_WORDS] = 0
    st[0, ANCHORED] = 0
    st[0, LAID] = 0
    st[0, NEXT] = 0
    st[0, SLOT] = -1
    st[0, FRESH] = 0
    while d >= 0:
        c = s + d
        node = st[d, NODE]
        placed = st[d, LAID]
        if st[d, FRESH]:
            st[d, FRESH] = 0
            # A single tile that also makes an across word was already counted across.
            if (
                (c == SIZE or board[r, c] < 0)
                and st[d, ANCHORED]
                and placed > 0
                and d >= 2
                and terminal[node]
                and not (down and placed == 1 and st[d, CROSS_WORDS] > 0)
            ):
                score = st[d, MAIN_SUM] * st[d, MULTIPLIER] + st[d, CROSS_TOTAL]
                if placed == 7:
                    score += bingo
                count = store_move(
                    Move(r, s, down, c - s, score, placed), word, best_only,
                    best_only and score > best[SCORE], info, words, best, count,
                )  # fmt: skip
        if c == SIZE:
            d -= 1
            continue
        code = board[r, c]
        if code >= 0:
            if st[d, NEXT] == 0:
                st[d, NEXT] = 1
                nxt = child[node, code & (BLANK - 1)]
                if nxt >= 0:
                    word[c] = code
                    e = d + 1
                    st[e, NODE] = nxt
                    st[e, MAIN_SUM] = st[d, MAIN_SUM] + (values[code] if code < BLANK else 0)
                    st[e, MULTIPLIER] = st[d, MULTIPLIER]
                    st[e, CROSS_TOTAL] = st[d, CROSS_TOTAL]
                    st[e, CROSS_WORDS] = st[d, CROSS_WORDS]
                    st[e, ANCHORED] = st[d, ANCHORED]
                    st[e, LAID] = placed
                    st[e, NEXT] = 0
                    st[e, SLOT] = -1
                    st[e, FRESH] = 1
                    d = e
                    continue
            d -= 1
            continue
        if st[d, SLOT] >= 0:
            rack[st[d, SLOT]] += 1
            st[d, SLOT] = -1
        if placed >= tiles:
            d -= 1
            continue
        allowed = mask[node] & cmask[r, c]
        idx = st[d, NEXT]
        letter = -1
        blank = 0
        if rack[nletters] > 0:
            # With a blank, every letter the DAWG and the cross-check allow.
            while idx < 2 * nletters:
                cand = idx >> 1
                blank = idx & 1
                idx += 1
                if not (allowed >> np.uint64(cand)) & np.uint64(1):
                    idx += 1 - blank
                    continue
                if blank or rack[cand] > 0:
                    letter = cand
                    break
        else:
            # Without one, only the (at most 7) distinct letters of the rack.
            while idx < n_rack_letters:
                cand = rack_letters[idx]
                idx += 1
                if rack[cand] > 0 and (allowed >> np.uint64(cand)) & np.uint64(1):
                    letter = cand
                    break
        st[d, NEXT] = idx
        if letter < 0:
            d -= 1
            continue
        slot = nletters if blank else letter
        rack[slot] -= 1
        st[d, SLOT] = slot
        word[c] = letter + BLANK if blank else letter
        e = d + 1
        st[e, NODE] = child[node, letter]
        st[e, MAIN_SUM], st[e, MULTIPLIER], st[e, CROSS_TOTAL], st[e, CROSS_WORDS] = lay_score(
            st[d, MAIN_SUM], st[d, MULTIPLIER], st[d, CROSS_TOTAL], st[d, CROSS_WORDS],
            0 if blank else values[letter] * lm[r, c], wm[r, c], csum[r, c],
        )  # fmt: skip
        st[e, ANCHORED] = 1 if (st[d, ANCHORED] or anchor[r, c]) else 0
        st[e, LAID] = placed + 1
        st[e, NEXT] = 0
        st[e, SLOT] = -1
        st[e, FRESH] = 1
        d = e
    return count


@njit(cache=True)
def _generate_lines(dawg, lines, hand, out, best_only, count):
    """The moves along the rows of ``lines`` (whose cross-checks and anchors this fills)
    after the first ``count``; returns the new count."""
    cross_checks(lines.board, dawg, lines.cmask, lines.csum)
    anchors(lines.board, lines.anchor)
    board, anchor, tiles = lines.board, lines.anchor, hand.tiles
    word = np.full(SIZE, -1, dtype=np.int8)
    st = np.zeros((SIZE + 2, STACK_FIELDS), dtype=np.int64)
    for r in range(SIZE):
        for s in range(SIZE):
            if not start_reaches_anchor(board, anchor, r, s, tiles):
                continue
            count = _walk(dawg, lines, hand, out, best_only, word, st, r, s, count)
    return count


@njit(cache=True)
def generate(dawg, board, lm, wm, rack, bingo, best_only, info, words, best):
    """Every legal placement of ``rack`` (counts, blank last) on ``board``; returns the count.
    ``dawg`` holds the fields of a :class:`Dawg`, as a plain tuple or the named one
    (numba types a plain tuple argument in C, a named one in Python: 2 µs more a call).

    With ``best_only`` nothing is stored in ``info``, ``words``; ``best`` (int32, 6 + 15)
    receives the highest-scoring move (the first found among equals) and
    ``best[LENGTH]`` stays 0 when there is none. Otherwise the count may exceed
    ``info``'s rows, which then hold the first moves only: call again with
    room for all.
    """
    dawg = Dawg(*dawg)
    rack = rack.copy()
    best[LENGTH] = 0
    best[SCORE] = -1
    tiles = 0
    for i in range(rack.shape[0]):
        tiles += rack[i]
    letters, n_letters = distinct_letters(rack, dawg.nletters)
    hand = Hand(rack, tiles, letters, n_letters)
    out = Out(info, words, best)
    count = _generate_lines(dawg, _lines(board, lm, wm, 0, bingo), hand, out, best_only, 0)
    lines = _lines(board.T.copy(), lm.T.copy(), wm.T.copy(), 1, bingo)
    return _generate_lines(dawg, lines, hand, out, best_only, count)


@njit(cache=True)
def _lines(board, lm, wm, down, bingo):
    """The :class:`Lines` of ``board`` and its premiums, cross-checks and anchors to fill."""
    cmask = np.empty((SIZE, SIZE), dtype=np.uint64)
    csum = np.empty((SIZE, SIZE), dtype=np.int32)
    anchor = np.empty((SIZE, SIZE), dtype=np.bool_)
    return Lines(board, lm, wm, cmask, csum, anchor, down, bingo)
