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
"""

from __future__ import annotations

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


@njit(cache=True)
def cross_checks(board, child, terminal, mask, root, values, nletters, cmask, csum):
    """For play along rows: per empty square, letters whose column word is valid, and its sum.

    ``csum`` is -1 where the square has no neighbour above or below (no cross word).
    """
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
def store_move(
    line, first, down, length, score, placed, word, best_only, better, out_info, out_word,
    count, best,
):  # fmt: skip
    """Record a move of ``length`` squares from square ``first`` of ``line`` (its squares'
    codes in ``word[first:]``): into ``best`` when ``best_only`` and it is ``better``, else
    as row ``count`` of ``out_*`` if there is room. Returns the new count. Inlined into the
    walks (a call that passes arrays would cost reference counting on every move)."""
    row = first if down else line
    col = line if down else first
    if best_only:
        if better:
            best[ROW] = row
            best[COL] = col
            best[DOWN] = down
            best[LENGTH] = length
            best[SCORE] = score
            best[TILES] = placed
            for i in range(length):
                best[INFO_FIELDS + i] = word[first + i]
        return count
    if count < out_info.shape[0]:
        out_info[count, ROW] = row
        out_info[count, COL] = col
        out_info[count, DOWN] = down
        out_info[count, LENGTH] = length
        out_info[count, SCORE] = score
        out_info[count, TILES] = placed
        for i in range(length):
            out_word[count, i] = word[first + i]
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
def _walk(
    board, lm, wm, cmask, csum, anchor, child, terminal, mask, values, nletters, rack, root,
    r, s, tiles, down, bingo, word, best_only, out_info, out_word, count, best, st,
    rack_letters, n_rack_letters,
):  # fmt: skip
    """Depth-first walk of the DAWG along row ``r`` from square ``s`` (iterative: numba
    cannot reload recursive functions from its cache).

    ``st[d, FIELD]`` is the walk's state on reaching square ``s + d``, with the
    fields named at the top of the module (``NODE``, ``MAIN_SUM``, ...).
    """
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
                    r, s, down, c - s, score, placed, word, best_only,
                    best_only and score > best[SCORE], out_info, out_word, count, best,
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
def _generate_lines(
    board, lm, wm, child, terminal, mask, root, values, nletters, rack, down, bingo,
    best_only, out_info, out_word, count, best,
):  # fmt: skip
    cmask = np.empty((SIZE, SIZE), dtype=np.uint64)
    csum = np.empty((SIZE, SIZE), dtype=np.int32)
    anchor = np.empty((SIZE, SIZE), dtype=np.bool_)
    cross_checks(board, child, terminal, mask, root, values, nletters, cmask, csum)
    anchors(board, anchor)
    tiles = 0
    for i in range(rack.shape[0]):
        tiles += rack[i]
    word = np.full(SIZE, -1, dtype=np.int8)
    st = np.zeros((SIZE + 2, STACK_FIELDS), dtype=np.int64)
    rack_letters, n_rack_letters = distinct_letters(rack, nletters)
    for r in range(SIZE):
        for s in range(SIZE):
            if not start_reaches_anchor(board, anchor, r, s, tiles):
                continue
            count = _walk(
                board, lm, wm, cmask, csum, anchor, child, terminal, mask, values, nletters,
                rack, root, r, s, tiles, down, bingo, word, best_only, out_info, out_word, count,
                best, st, rack_letters, n_rack_letters,
            )  # fmt: skip
    return count


@njit(cache=True)
def generate(
    board, lm, wm, child, terminal, mask, root, values, nletters, rack, bingo, best_only,
    out_info, out_word, best,
):  # fmt: skip
    """Every legal placement of ``rack`` (counts, blank last) on ``board``; returns the count.

    With ``best_only`` nothing is stored in ``out_*``; ``best`` (int32, 6 + 15)
    receives the highest-scoring move (the first found among equals) and
    ``best[LENGTH]`` stays 0 when there is none. Otherwise the count may exceed
    ``out_info``'s rows, which then hold the first moves only: call again with
    room for all.
    """
    rack = rack.copy()
    best[LENGTH] = 0
    best[SCORE] = -1
    count = _generate_lines(
        board, lm, wm, child, terminal, mask, root, values, nletters, rack, 0, bingo,
        best_only, out_info, out_word, 0, best,
    )  # fmt: skip
    count = _generate_lines(
        board.T.copy(), lm.T.copy(), wm.T.copy(), child, terminal, mask, root, values,
        nletters, rack, 1, bingo, best_only, out_info, out_word, count, best,
    )  # fmt: skip
    return count
