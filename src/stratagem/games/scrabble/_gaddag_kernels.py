"""A GADDAG and the move generator that walks it (numba kernels).

The GADDAG (Gordon 1994) of a word list holds, for every word ``w`` and every
split ``w = x y`` with ``x`` not empty, the string ``rev(x) + SEP + y`` (and
``rev(w)`` alone when ``y`` is empty). Reading it from a square leftwards and
then, after ``SEP``, rightwards spells every word that passes through that
square, so a walk can begin at the letters already on the board instead of at
each square where a word might start (the DAWG generator of :mod:`._kernels`).

Built and saved like the DAWG: ``child[node, symbol]`` (int32, -1 for no
edge) over the letters and ``SEP`` (symbol ``nletters``), ``terminal[node]``,
and ``mask[node]``, the letters (not ``SEP``) leaving the node as a 64-bit set.
:func:`build` makes the minimal automaton from sorted strings with Daciuk et
al.'s incremental algorithm, in numba (the GADDAG of ENABLE has about 1.5
million strings, 400,000 nodes and 840,000 edges).

The walk reads it packed (:func:`pack`): one array with a row per edge, each
row the record of the node the edge leads to: the symbols leaving that node
as a bit set, whether a string ends there, and where its own edges begin (a
node's edges are consecutive, in symbol order, so the edge of symbol ``x`` is
found by counting the set bits below ``x``). A step of the walk then reads one
row, where ``child`` and ``mask`` were two reads far apart; the rows take 6.7
MB for ENABLE against ``child``'s 43 MB. A row is one int64 (set, end bit and
start packed, ``shift`` = symbols + 1 bits for the first two) when the edge
count fits the bits left, else two (the start in the second, ``shift`` 0).

Generation, one line at a time (across; the down pass works on the transposed
board), makes each move exactly once:

* *run mode*: for every run of tiles on the line, read the run from its last
  tile leftwards, lay rack tiles further left (never next to another tile: a
  move that meets a run further left is made from that run), then after
  ``SEP`` lay and read rightwards. Every move whose main word holds a tile of
  the line is made from the leftmost run it holds.
* *anchor mode*: for every anchor with no tile beside it on the line (its
  neighbours are above or below, or it is the centre of an empty board), lay
  a tile there and extend leftwards over squares that are neither anchors nor
  beside a tile, then rightwards, never beside a tile of the line. Every move
  whose main word holds no tile of the line is made from its leftmost anchor.

For the best-scoring move only, each walk (a run, or an anchor of anchor mode) is
first given an upper bound on its moves' scores (:func:`_bound`); the walks run best
bound first and stop at the first bound below the best score found. A walk whose
bound reaches the best found only with the bingo bonus has its bingos found from the
words its rack and line tiles spell (:func:`_bingo_spans`, from :func:`bingo_stems`)
and is then bounded without the bonus.

Moves are recorded with the same fields as :mod:`._kernels` and then sorted
into the order in which the DAWG generator finds them (across before down,
then row, first square, and the squares' letters, a tile before a blank, a
word before its extensions), so that every player that breaks ties by order
plays the same game with either generator; or left in the order found, for a
player that ranks the moves it wants with :func:`rank`, which breaks ties in that
order.

The kernels a call runs many times (the walk, the cross-checks, the bounds, the bingo
search) are compiled with ``_nrt=False`` (numba's target option for code that allocates
nothing): numba otherwise updates an array argument's reference count atomically on
every call and on every alias, 28 updates a walk and 4 a recorded move, 12-16% of an
all-moves call with a blank. They must not allocate (no ``np.empty``, no slice copies).
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np
from numba import njit

from stratagem.games.scrabble._kernels import (
    BLANK,
    COL,
    CROSS_TOTAL,
    CROSS_WORDS,
    DOWN,
    INFO_FIELDS,
    LAID,
    LENGTH,
    MAIN_SUM,
    MULTIPLIER,
    NEXT,
    NODE,
    ROW,
    SCORE,
    SIZE,
    SLOT,
    TILES,
    Lines,
    Move,
    Out,
    board_empty,
    column_word,
    lay_score,
    store_move,
)

NO_REFCOUNT: dict[str, Any] = {"cache": True, "_nrt": False}
"""The options of the kernels compiled without reference counting (module docstring)."""

# Frame fields of the walk's stack: a frame is the walk after reading square POS. The
# scoring fields and NODE, LAID, NEXT (the next candidate letter to lay on the next
# square) and SLOT (the rack slot laid on the next square, returned before the next
# candidate) are the DAWG walk's columns (both walks score a tile laid with the one
# :func:`._kernels.lay_score`); the rest are the GADDAG walk's own.
POS = 5
FORCED = 9  # 1 once the next square's tile (or the switch to the right) was tried
PHASE = 10  # 0: going left, 1: going right (after SEP)
LEFT = 11  # first square of the word (right phase)
FIELDS = 12


class Gaddag(NamedTuple):
    """The GADDAG as the walk reads it (:func:`pack`), with the letters' values."""

    rows: np.ndarray
    shift: int
    values: np.ndarray
    """Letter values (int32), the blank's 0 at index ``nletters``."""
    nletters: int


class Segment(NamedTuple):
    """One walk of a call (a row of ``segs``, :func:`_segments`): the line, the first and
    last squares of its run of tiles (in ``anchor`` mode, the anchor it lays on first)."""

    line: int
    start: int
    right: int
    anchor: bool


# ---------------------------------------------------------------------------------------
# Building


@njit(cache=True)
def gaddag_strings(words, lengths, nletters):
    """Every GADDAG string of the words (rows of letter codes, ``lengths`` each), as rows of
    ``symbol + 1`` padded with 0 (so that byte order is the automaton's sort order)."""
    total = 0
    for w in range(words.shape[0]):
        total += lengths[w]
    out = np.zeros((total, SIZE + 1), dtype=np.uint8)
    sep = nletters + 1
    k = 0
    for w in range(words.shape[0]):
        n = lengths[w]
        for i in range(1, n + 1):
            j = 0
            for p in range(i - 1, -1, -1):
                out[k, j] = words[w, p] + 1
                j += 1
            if i < n:
                out[k, j] = sep
                j += 1
                for p in range(i, n):
                    out[k, j] = words[w, p] + 1
                    j += 1
            k += 1
    return out


@njit(cache=True)
def _row_hash(row, final):
    h = np.uint64(1469598103934665603) ^ np.uint64(final)
    for x in row:
        h = (h ^ np.uint64(x + 1)) * np.uint64(1099511628211)
    return h


@njit(cache=True)
def build(strings, nsymbols):
    """Daciuk's minimal automaton of sorted, distinct strings (rows of ``symbol + 1``,
    0-padded) -> ``(child, terminal, root)``."""
    width = strings.shape[1]
    cap = 1 << 16
    child = np.full((cap, nsymbols), -1, dtype=np.int32)
    terminal = np.zeros(cap, dtype=np.bool_)
    slots = 1 << 17
    table = np.full(slots, -1, dtype=np.int64)
    n = 0
    # the unregistered path of the previous string: tmp[d] is the node after d symbols
    tmp = np.full((width + 1, nsymbols), -1, dtype=np.int32)
    tmp_final = np.zeros(width + 1, dtype=np.bool_)
    prev = np.zeros(width, dtype=np.uint8)
    prev_len = 0
    for s in range(strings.shape[0] + 1):
        last = s == strings.shape[0]
        length = 0
        common = 0
        if not last:
            while length < width and strings[s, length] != 0:
                length += 1
            while common < length and common < prev_len and strings[s, common] == prev[common]:
                common += 1
        # register the previous path below the common prefix, deepest first
        for d in range(prev_len, common, -1):
            h = _row_hash(tmp[d], tmp_final[d])
            slot = np.int64(h & np.uint64(slots - 1))
            found = -1
            while table[slot] >= 0:
                cand = table[slot]
                if terminal[cand] == tmp_final[d]:
                    same = True
                    for x in range(nsymbols):
                        if child[cand, x] != tmp[d, x]:
                            same = False
                            break
                    if same:
                        found = cand
                        break
                slot = (slot + 1) & (slots - 1)
            if found < 0:
                if n == cap:
                    bigger = np.full((2 * cap, nsymbols), -1, dtype=np.int32)
                    bigger[:cap] = child
                    child = bigger
                    bigger_t = np.zeros(2 * cap, dtype=np.bool_)
                    bigger_t[:cap] = terminal
                    terminal = bigger_t
                    cap *= 2
                child[n] = tmp[d]
                terminal[n] = tmp_final[d]
                table[slot] = n
                found = n
                n += 1
                if 2 * n > slots:  # keep the table at most half full
                    slots *= 2
                    table = np.full(slots, -1, dtype=np.int64)
                    for node in range(n):
                        h2 = _row_hash(child[node], terminal[node])
                        s2 = np.int64(h2 & np.uint64(slots - 1))
                        while table[s2] >= 0:
                            s2 = (s2 + 1) & (slots - 1)
                        table[s2] = node
            tmp[d - 1, prev[d - 1] - 1] = found
        if last:
            break
        for d in range(common + 1, length + 1):
            tmp[d, :] = -1
            tmp_final[d] = False
        tmp_final[length] = True
        for d in range(length):
            prev[d] = strings[s, d]
        prev_len = length
    # the root (depth 0) is registered as is, last
    if n == cap:
        bigger = np.full((cap + 1, nsymbols), -1, dtype=np.int32)
        bigger[:cap] = child
        child = bigger
        bigger_t = np.zeros(cap + 1, dtype=np.bool_)
        bigger_t[:cap] = terminal
        terminal = bigger_t
    child[n] = tmp[0]
    terminal[n] = tmp_final[0]
    return child[: n + 1].copy(), terminal[: n + 1].copy(), n


@njit(cache=True)
def breadth_first(child, terminal, root):
    """The same automaton with its nodes numbered breadth-first from the root (which
    becomes node 0): the nodes that walks visit most, those near the root, then share
    cache lines (a few percent faster generation on ENABLE)."""
    n = child.shape[0]
    new = np.full(n, -1, dtype=np.int32)
    queue = np.empty(n, dtype=np.int32)
    new[root] = 0
    queue[0] = root
    head = 0
    tail = 1
    while head < tail:
        v = queue[head]
        head += 1
        for x in range(child.shape[1]):
            c = child[v, x]
            if c >= 0 and new[c] < 0:
                new[c] = tail
                queue[tail] = c
                tail += 1
    out = np.full((tail, child.shape[1]), -1, dtype=np.int32)
    ends = np.zeros(tail, dtype=np.bool_)
    for i in range(tail):
        v = queue[i]
        ends[i] = terminal[v]
        for x in range(child.shape[1]):
            if child[v, x] >= 0:
                out[i, x] = new[child[v, x]]
    return out, ends


# ---------------------------------------------------------------------------------------
# Generation


@njit(cache=True)
def pack(child, terminal, wide=False):
    """The walk's rows of a GADDAG (``child``, ``terminal``, root 0 as numbered by
    :func:`breadth_first`) -> ``(rows, shift)``. Row 0 is the root's record; the edges of
    each node are consecutive rows in symbol order, each the record of the node it leads
    to: bits 0.. the symbols leaving it, bit ``symbols`` whether a string ends there, and
    the row of its first edge, ``rows[i, -1] >> shift``. One int64 a row when the rows fit
    in the bits above the record (``shift`` = symbols + 1), else (or with ``wide``) two."""
    n, nsym = child.shape
    first = np.empty(n, dtype=np.int64)
    total = 1
    for v in range(n):
        first[v] = total
        for x in range(nsym):
            if child[v, x] >= 0:
                total += 1
    shift = nsym + 1
    if wide or total >= np.int64(1) << np.int64(63 - shift):
        shift = 0
    record = np.zeros(n, dtype=np.int64)
    for v in range(n):
        bits = np.int64(terminal[v]) << np.int64(nsym)
        for x in range(nsym):
            if child[v, x] >= 0:
                bits |= np.int64(1) << np.int64(x)
        record[v] = bits
    rows = np.zeros((total, 1 if shift else 2), dtype=np.int64)
    k = 0
    for v in range(-1, n):
        for x in range(nsym):
            target = 0 if v < 0 else child[v, x]
            if target < 0:
                continue
            rows[k, 0] = record[target]
            rows[k, rows.shape[1] - 1] |= first[target] << np.int64(shift)
            k += 1
            if v < 0:
                break
    return rows, shift


@njit(cache=True, inline="always")
def _below(record, x):
    """How many of the symbols leaving a node (``record``'s low bits) come before ``x``: the
    offset of ``x``'s edge among the node's rows (a bit count, Hacker's Delight 5-2)."""
    y = np.uint64(record & ((np.int64(1) << np.int64(x)) - np.int64(1)))
    y = y - ((y >> np.uint64(1)) & np.uint64(0x5555555555555555))
    y = (y & np.uint64(0x3333333333333333)) + ((y >> np.uint64(2)) & np.uint64(0x3333333333333333))
    y = (y + (y >> np.uint64(4))) & np.uint64(0x0F0F0F0F0F0F0F0F)
    return np.int64((y * np.uint64(0x0101010101010101)) >> np.uint64(56))


@njit(cache=True, inline="always")
def _edge(rows, shift, i, x):
    """The row of the edge of symbol ``x`` leaving the node of row ``i`` (-1: none)."""
    record = rows[i, 0]
    if not (record >> np.int64(x)) & np.int64(1):
        return -1
    return (rows[i, rows.shape[1] - 1] >> np.int64(shift)) + _below(record, x)


_DE_BRUIJN = np.uint64(0x03F79D71B4CB0A89)
_DE_BRUIJN_INDEX = np.array(
    [0, 1, 48, 2, 57, 49, 28, 3, 61, 58, 50, 42, 38, 29, 17, 4, 62, 55, 59, 36, 53, 51, 43,
     22, 45, 39, 33, 30, 24, 18, 12, 5, 63, 47, 56, 27, 60, 41, 37, 16, 54, 35, 52, 21, 44,
     32, 23, 11, 46, 26, 40, 15, 34, 20, 31, 10, 25, 14, 19, 9, 13, 8, 7, 6],
    dtype=np.int64,
)  # fmt: skip


@njit(cache=True, inline="always")
def _lowest_bit(x):
    """The index of the lowest set bit of ``x`` (not 0), by a de Bruijn multiplication."""
    low = x & (~x + np.uint64(1))
    return _DE_BRUIJN_INDEX[(low * _DE_BRUIJN) >> np.uint64(58)]


@njit(cache=True)
def _take(rack, nletters, allowed, idx, held):
    """The next rack tile to lay among ``allowed`` letters from candidate ``idx`` on:
    ``(letter, blank, next idx)``; letter -1 when none is left. Without a blank the
    candidates are the letters (``held``: the set of letters on the rack); with one,
    candidate ``2 * letter + blank`` (the tile before the blank), jumping straight to the
    next allowed letter."""
    if rack[nletters] > 0:
        # one step a candidate: the blank right after its letter's tile, and a letter not
        # on the rack (``held``) straight to its blank
        cand = idx >> 1
        if idx & 1:
            if (allowed >> np.uint64(cand)) & np.uint64(1):
                return cand, 1, idx + 1
            cand += 1
        if cand >= nletters:
            return -1, 0, 2 * nletters
        rest = allowed >> np.uint64(cand)
        if rest == 0:
            return -1, 0, 2 * nletters
        cand += _lowest_bit(rest)
        if (held >> np.uint64(cand)) & np.uint64(1):
            return cand, 0, 2 * cand + 1
        return cand, 1, 2 * cand + 2
    rest = (allowed & held) >> np.uint64(idx)
    if rest == 0:
        return -1, 0, nletters
    cand = idx + _lowest_bit(rest)
    return cand, 0, cand + 1


@njit(**NO_REFCOUNT)
def _line(gaddag, lines, segment, rack, tiles, held, out, best_only, word, st, count):
    """Walk the GADDAG on a line of ``lines`` from the ``segment``'s first square (a run
    already read, or an anchor to lay on in anchor mode); records the moves in ``out``
    (the best alone with ``best_only``) after the first ``count``, returns the new count.
    ``rack`` (counts, blank last) holds ``tiles`` tiles; ``held`` is the set of letters on
    it, kept with it as tiles are laid. ``word`` receives the squares' codes."""
    rows, shift, values, nletters = gaddag
    board, lm, wm, cmask, csum, anchor, down, bingo = lines
    r, start, right, anchor_mode = segment
    out_info, out_word, best = out
    sep = nletters
    ends = np.int64(1) << np.int64(nletters + 1)  # a record's end-of-string bit
    row = board[r]
    f = 0
    st[0, :] = 0
    st[0, SLOT] = -1
    if anchor_mode:
        # a virtual frame "after the square right of the anchor": its only step is leftwards
        st[0, POS] = start + 1
        st[0, NODE] = 0  # the root's row
        st[0, MULTIPLIER] = 1
        st[0, FORCED] = 1  # no switch to the right before a tile is laid
    else:
        node = 0
        total = 0
        for c in range(right, start - 1, -1):
            code = row[c]
            node = _edge(rows, shift, node, code & (BLANK - 1))
            if node < 0:
                return count
            word[c] = code
            if code < BLANK:
                total += values[code]
        st[0, POS] = start
        st[0, NODE] = node
        st[0, MAIN_SUM] = total
        st[0, MULTIPLIER] = 1
    while f >= 0:
        pos = st[f, POS]
        node = st[f, NODE]
        laid = st[f, LAID]
        phase = st[f, PHASE]
        if st[f, SLOT] >= 0:
            rack[st[f, SLOT]] += 1
            held |= np.uint64(1) << np.uint64(st[f, SLOT])
            st[f, SLOT] = -1
        nxt_sq = pos - 1 if phase == 0 else pos + 1
        letter = -1
        blank = 0
        if 0 <= nxt_sq < SIZE and row[nxt_sq] < 0 and laid < tiles:
            if phase == 0:
                # never beside a tile further left; in anchor mode never on an anchor
                ok = not (
                    (nxt_sq > 0 and row[nxt_sq - 1] >= 0)
                    or (anchor_mode and nxt_sq < start and anchor[r, nxt_sq])
                )
            else:  # in anchor mode never beside a tile on the right
                ok = not (anchor_mode and nxt_sq < SIZE - 1 and row[nxt_sq + 1] >= 0)
            if ok:
                allowed = np.uint64(rows[node, 0]) & cmask[r, nxt_sq]
                letter, blank, idx = _take(rack, nletters, allowed, st[f, NEXT], held)
                st[f, NEXT] = idx
        if letter >= 0:
            slot = nletters if blank else letter
            rack[slot] -= 1
            if rack[slot] == 0:
                held &= ~(np.uint64(1) << np.uint64(slot))
            st[f, SLOT] = slot
            word[nxt_sq] = letter + BLANK if blank else letter
            e = f + 1
            st[e, NODE] = (rows[node, rows.shape[1] - 1] >> shift) + _below(rows[node, 0], letter)
            st[e, MAIN_SUM], st[e, MULTIPLIER], st[e, CROSS_TOTAL], st[e, CROSS_WORDS] = (
                lay_score(
                    st[f, MAIN_SUM], st[f, MULTIPLIER], st[f, CROSS_TOTAL], st[f, CROSS_WORDS],
                    0 if blank else values[letter] * lm[r, nxt_sq], wm[r, nxt_sq],
                    csum[r, nxt_sq],
                )
            )  # fmt: skip
            st[e, LAID] = laid + 1
            st[e, NEXT] = 0
            st[e, SLOT] = -1
            st[e, POS] = nxt_sq
            st[e, PHASE] = phase
            st[e, FORCED] = 0
            st[e, LEFT] = st[f, LEFT]
            f = e
        elif st[f, FORCED] == 0:
            st[f, FORCED] = 1
            e = f + 1
            nn = -1
            new_pos = points = 0
            if phase == 1:
                # a tile next on the right is read (run mode only: anchor mode never gets here)
                if nxt_sq < SIZE and row[nxt_sq] >= 0:
                    code = row[nxt_sq]
                    nn = _edge(rows, shift, node, code & (BLANK - 1))
                    if nn >= 0:
                        word[nxt_sq] = code
                        new_pos = nxt_sq
                        points = values[code] if code < BLANK else 0
            elif right < SIZE - 1 and (pos == 0 or row[pos - 1] < 0):
                # switch: the word starts at pos; go on right of the walk's first square
                nn = _edge(rows, shift, node, sep)
                new_pos = right
                points = 0
            if nn < 0:
                continue
            # the scoring fields and LAID carry over; nothing is laid
            for k in range(FIELDS):
                st[e, k] = st[f, k]
            st[e, POS] = new_pos
            st[e, MAIN_SUM] += points
            st[e, PHASE] = 1
            st[e, NODE] = nn
            st[e, NEXT] = 0
            st[e, SLOT] = -1
            st[e, FORCED] = 0
            st[e, LEFT] = pos if phase == 0 else st[f, LEFT]
            if phase == 0:
                # the switch itself records nothing; go straight to its first step
                f = e
                continue
            f = e
        else:
            f -= 1
            continue
        # a square was just read or laid at frame f: is the word complete here?
        pos = st[f, POS]
        phase = st[f, PHASE]
        placed = st[f, LAID]
        if phase == 0:
            first, last = pos, right
            open_ends = pos == 0 or row[pos - 1] < 0
        else:
            first, last = st[f, LEFT], pos
            open_ends = pos == SIZE - 1 or row[pos + 1] < 0
        if (
            open_ends
            and placed > 0
            and (phase == 1 or right == SIZE - 1 or row[right + 1] < 0)
            and rows[st[f, NODE], 0] & ends
            and not (down and placed == 1 and st[f, CROSS_WORDS] > 0)
        ):
            score = st[f, MAIN_SUM] * st[f, MULTIPLIER] + st[f, CROSS_TOTAL]
            if placed == 7:
                score += bingo
            length = last - first + 1
            better = best_only and (
                score > best[SCORE]
                or (score == best[SCORE] and _before(down, r, first, word, length, best))
            )
            # recorded here rather than by ``store_move``: its array arguments, even inlined,
            # cost four atomic reference count updates a move (a tenth of an all-moves call
            # with a blank, whose calls make five times the moves of a plain rack's)
            row_sq = first if down else r
            col_sq = r if down else first
            if best_only:
                if better:
                    best[ROW] = row_sq
                    best[COL] = col_sq
                    best[DOWN] = down
                    best[LENGTH] = length
                    best[SCORE] = score
                    best[TILES] = placed
                    for i in range(length):
                        best[INFO_FIELDS + i] = word[first + i]
            else:
                if count < out_info.shape[0]:
                    out_info[count, ROW] = row_sq
                    out_info[count, COL] = col_sq
                    out_info[count, DOWN] = down
                    out_info[count, LENGTH] = length
                    out_info[count, SCORE] = score
                    out_info[count, TILES] = placed
                    for i in range(length):
                        out_word[count, i] = word[first + i]
                count += 1
    return count


@njit(cache=True)
def _code_key(code):
    """A square's place in the DAWG generator's order: the letter, a tile before a blank."""
    return 2 * (code & (BLANK - 1)) + (1 if code >= BLANK else 0)


@njit(**NO_REFCOUNT)
def _before(down, r, first, word, length, best):
    """Whether the move (``down``, line ``r``, first square ``first``, squares
    ``word[first:first + length]``) comes before ``best`` in the DAWG generator's order."""
    if best[LENGTH] == 0:
        return True
    return _precedes(
        down, first if down else r, r if down else first, word[first:], length,
        best[DOWN], best[ROW], best[COL], best[INFO_FIELDS:], best[LENGTH],
    )  # fmt: skip


@njit(**NO_REFCOUNT)
def _precedes(a_down, a_row, a_col, a_codes, a_len, b_down, b_row, b_col, b_codes, b_len):
    """Whether move a comes before move b in the DAWG generator's order: across before
    down, then the line, the first square, and the squares' letters (a tile before a
    blank, a word before its extensions)."""
    if a_down != b_down:
        return a_down < b_down
    a_line, a_first = (a_col, a_row) if a_down else (a_row, a_col)
    b_line, b_first = (b_col, b_row) if b_down else (b_row, b_col)
    if a_line != b_line:
        return a_line < b_line
    if a_first != b_first:
        return a_first < b_first
    for k in range(min(a_len, b_len)):
        x = _code_key(a_codes[k])
        y = _code_key(b_codes[k])
        if x != y:
            return x < y
    return a_len < b_len


@njit(**NO_REFCOUNT)
def _square_check(board, r, c, rows, shift, values, nletters, cmask, csum):
    """The cross-check of empty square (r, c) with a tile above or below it, read from the
    packed GADDAG (the same sets as :func:`._kernels.square_check` reads from the DAWG).

    Why the GADDAG: the letters that may go on the square are then the edges of one node,
    whose rows lie side by side. With tiles above only (``P``), walk ``rev(P) SEP``: the
    letters whose edge ends a string. With tiles below only (``S``), walk ``rev(S)``: the
    same test. With both, walk ``rev(P) SEP`` and read ``S`` from each letter's edge. The
    DAWG walked ``S`` again for every letter in the one-sided cases, each step a read far
    away in a 43 MB table: most of the per-call cost on a board with few tiles."""
    up, down = column_word(board, r, c)
    total = 0
    for rr in range(up, down + 1):
        code = board[rr, c]
        if rr != r and code < BLANK:
            total += values[code]
    csum[r, c] = total
    ends = np.int64(1) << np.int64(nletters + 1)
    node = 0
    if up < r:
        for rr in range(r - 1, up - 1, -1):
            node = _edge(rows, shift, node, board[rr, c] & (BLANK - 1))
            if node < 0:
                break
        if node >= 0:
            node = _edge(rows, shift, node, nletters)
    else:
        for rr in range(down, r, -1):
            node = _edge(rows, shift, node, board[rr, c] & (BLANK - 1))
            if node < 0:
                break
    allowed = np.uint64(0)
    if node >= 0:
        # the node's letters (its low bits; SEP's edge comes after theirs) one by one
        rest = np.uint64(rows[node, 0]) & ((np.uint64(1) << np.uint64(nletters)) - np.uint64(1))
        n2 = (rows[node, rows.shape[1] - 1] >> np.int64(shift)) - 1
        while rest:
            letter = _lowest_bit(rest)
            rest &= rest - np.uint64(1)
            n2 += 1
            edge = n2
            if up < r:
                for rr in range(r + 1, down + 1):
                    edge = _edge(rows, shift, edge, board[rr, c] & (BLANK - 1))
                    if edge < 0:
                        break
            if edge >= 0 and rows[edge, 0] & ends:
                allowed |= np.uint64(1) << np.uint64(letter)
    cmask[r, c] = allowed


@njit(**NO_REFCOUNT)
def _checks(gaddag, lines):
    """Cross-checks (:func:`_square_check`) and anchors of every square of ``lines``, the
    squares with no tile above or below taking the full set at once."""
    rows, shift, values, nletters = gaddag
    board, cmask, csum, anchor = lines.board, lines.cmask, lines.csum, lines.anchor
    full = (np.uint64(1) << np.uint64(nletters)) - np.uint64(1)
    empty = board_empty(board)
    for r in range(SIZE):
        for c in range(SIZE):
            if board[r, c] >= 0:
                cmask[r, c] = np.uint64(0)
                csum[r, c] = -1
                anchor[r, c] = False
                continue
            vertical = (r > 0 and board[r - 1, c] >= 0) or (r < SIZE - 1 and board[r + 1, c] >= 0)
            if vertical:
                _square_check(board, r, c, rows, shift, values, nletters, cmask, csum)
                anchor[r, c] = True
            else:
                cmask[r, c] = full
                csum[r, c] = -1
                anchor[r, c] = (
                    (c > 0 and board[r, c - 1] >= 0) or (c < SIZE - 1 and board[r, c + 1] >= 0)
                    or (empty and r == SIZE // 2 and c == SIZE // 2)
                )  # fmt: skip


# ---------------------------------------------------------------------------------------
# A call: the walks ("segments") of both directions, in line order or best bound first

# A segment (a row of ``segs``): direction, line, first and last square of its run (an
# anchor in anchor mode: first = last), anchor mode (0/1).
SEG_DOWN, SEG_LINE, SEG_START, SEG_RIGHT, SEG_ANCHOR = range(5)
SEG_FIELDS = 5


@njit(**NO_REFCOUNT)
def _segments(boards, anchors, segs):
    """Every walk of a call into ``segs``, in the DAWG generator's order of the lines
    (across before down, line by line, left to right): each run of tiles, and each anchor
    with no tile beside it on its line. Returns how many."""
    n = 0
    for d in range(2):
        for r in range(SIZE):
            row = boards[d, r]
            c = 0
            while c < SIZE:
                end = c
                if row[c] >= 0:
                    while end + 1 < SIZE and row[end + 1] >= 0:
                        end += 1
                elif not (
                    anchors[d, r, c] and (c == 0 or row[c - 1] < 0)
                    and (c == SIZE - 1 or row[c + 1] < 0)
                ):  # fmt: skip
                    c += 1
                    continue
                segs[n, SEG_DOWN] = d
                segs[n, SEG_LINE] = r
                segs[n, SEG_START] = c
                segs[n, SEG_RIGHT] = end
                segs[n, SEG_ANCHOR] = 1 if row[c] < 0 else 0
                n += 1
                c = end + 1
    return n


@njit(cache=True, inline="always")
def _bound_lay(lmul, wmul, cross, k, mult, lm3, lm2, x3, x2, x1, fixed):
    """The counts of :func:`_bound` after laying a tile on a square with premiums ``lmul``,
    ``wmul`` and cross word points ``cross`` (-1: none)."""
    k += 1
    mult *= wmul
    if lmul >= 3:
        lm3 += 1
    elif lmul == 2:
        lm2 += 1
    if cross >= 0:
        fixed += cross * wmul
        x = lmul * wmul  # the tile's weight in its cross word (1-3 on the standard board)
        if x >= 3:
            x3 += 1
        elif x == 2:
            x2 += 1
        else:
            x1 += 1
    return k, mult, lm3, lm2, x3, x2, x1, fixed


@njit(**NO_REFCOUNT)
def _bound(lines, segment, tiles, held, blanks, values, top):
    """An upper bound on the score of every move the walk of a ``segment`` of ``lines``
    can make (-1: it can make none), and the same bound without the bingo bonus, for
    best-only generation, with ``tiles`` tiles on the rack, ``held`` the set of its
    letters, ``blanks`` its blanks, and ``top`` from :func:`_top_values`: the walks are
    made best bound first and stop when no bound reaches the best score found (a walk
    whose bound reaches it only with the bonus has its bingos found by
    :func:`_bingo_spans` and is then bounded without it).

    Why it holds: the walk's moves cover a span of the line, from a square ``a`` (the
    run's first square, or further left over empty squares that are not beside a tile
    further left, nor anchors in anchor mode) to a square ``b`` (right over empty squares
    and the runs met, never beside a tile on the right in anchor mode), laying a tile on
    every empty square of it, each square one where a rack tile fits its cross-check.
    For a span with ``k`` squares laid, word premium product ``M``, board tiles worth
    ``F`` and cross words worth ``C`` before the laid tiles, a move scores
    ``F M + C + sum(v_i l_i M) + sum(v_i x_i) (+ bingo)`` with ``v_i`` the values of the
    tiles laid, ``l_i`` the squares' letter premiums and ``x_i`` their weight in a cross
    word (letter times word premium, 0 without one). Each sum is at most the rack's ``k``
    highest values paired in order with the ``l_i`` (or ``x_i``) sorted downwards (the
    rearrangement inequality); with weights of 1 to 3 that pairing is
    ``top[n3] + top[n3 + n2] + top[k]``, ``top[j]`` the sum of the rack's ``j`` highest
    values and ``n3``, ``n2`` how many weights are 3 and 2. Every term grows with the
    span, so for each first square only the longest span is bounded, in O(1) as it grows
    square by square: at most 8 spans a segment."""
    r, start, right, anchor_mode = segment
    row, lmr, wmr, csr = lines.board[r], lines.lm[r], lines.wm[r], lines.csum[r]
    cmr, anc, bingo = lines.cmask[r], lines.anchor[r], lines.bingo
    k0 = 0
    m0 = 1
    l30 = l20 = x30 = x20 = x10 = 0
    c0 = 0  # cross words' board tiles
    f0 = 0  # main word's board tiles
    if anchor_mode:
        if not (blanks > 0 or (cmr[start] & held) != np.uint64(0)):
            return np.int64(-1), np.int64(-1)
        k0, m0, l30, l20, x30, x20, x10, c0 = _bound_lay(
            lmr[start], wmr[start], csr[start], k0, m0, l30, l20, x30, x20, x10, c0
        )
    else:
        for x in range(start, right + 1):
            if row[x] < BLANK:
                f0 += values[row[x]]
    a = start
    best = np.int64(-1)
    plain = np.int64(-1)  # the same without the bingo bonus
    while True:
        k, m, l3, l2, x3, x2, x1, cc, f = k0, m0, l30, l20, x30, x20, x10, c0, f0
        x = right
        # the span grows rightwards as far as it can: every term of the bound grows with
        # it, so only the last span counts (the loop stops only where the line is open
        # on the right: at its end, or before an empty square)
        while True:
            nx = x + 1
            if nx >= SIZE:
                break
            code = row[nx]
            if code >= 0:
                if code < BLANK:
                    f += values[code]
                x = nx
                continue
            if k >= tiles or not (blanks > 0 or (cmr[nx] & held) != np.uint64(0)):
                break
            if anchor_mode and nx < SIZE - 1 and row[nx + 1] >= 0:
                break
            k, m, l3, l2, x3, x2, x1, cc = _bound_lay(
                lmr[nx], wmr[nx], csr[nx], k, m, l3, l2, x3, x2, x1, cc
            )
            x = nx
        if k > 0:
            b = f * m + cc + m * (top[l3] + top[l3 + l2] + top[k])
            b += top[x3] + top[x3 + x2] + top[x3 + x2 + x1]
            if b > plain:
                plain = b
            if k == 7:
                b += bingo
            if b > best:
                best = b
        na = a - 1
        if na < 0 or k0 >= tiles or not (blanks > 0 or (cmr[na] & held) != np.uint64(0)):
            break
        if (na > 0 and row[na - 1] >= 0) or (anchor_mode and anc[na]):
            break
        k0, m0, l30, l20, x30, x20, x10, c0 = _bound_lay(
            lmr[na], wmr[na], csr[na], k0, m0, l30, l20, x30, x20, x10, c0
        )
        a = na
    return best, plain


# Bingos by anagram: a walk whose bound reaches the best score found only with the bingo
# bonus has its bingos found from the words its rack and line tiles spell, and is then
# bounded without the bonus


class Stems(NamedTuple):
    """The words of 7 letters or more by their letters' multiset (:func:`bingo_stems`)."""

    sigs: np.ndarray
    """Sorted signatures (uint64): the sum of ``hashes`` over a word's letters."""
    words: np.ndarray
    """The words' letters (int8 rows of ``SIZE``), in the order of ``sigs``."""
    lengths: np.ndarray
    hashes: np.ndarray
    """A random uint64 a letter."""
    seen: np.ndarray
    """A bit set (uint64 words) of the signatures' top :data:`SEEN_BITS` bits: most
    signatures looked up match no word, and are ruled out by one read of 128 KB (a
    binary search of ``sigs`` reads a 1 MB array 17 times)."""


SEEN_BITS = 20


@njit(cache=True)
def stems_seen(sigs):
    """The :attr:`Stems.seen` bit set of ``sigs``."""
    seen = np.zeros(1 << (SEEN_BITS - 6), dtype=np.uint64)
    for s in sigs:
        top = s >> np.uint64(64 - SEEN_BITS)
        seen[top >> np.uint64(6)] |= np.uint64(1) << (top & np.uint64(63))
    return seen


@njit(cache=True)
def bingo_stems(child, terminal, root, hashes, least):
    """``(sigs, words, lengths)`` of every word of at least ``least`` letters of a DAWG
    (``child[node, letter]``, -1 for no edge; ``terminal``), sorted by signature."""
    nletters = child.shape[1]
    sigs = np.empty(1 << 16, dtype=np.uint64)
    words = np.empty((1 << 16, SIZE), dtype=np.int8)
    lengths = np.empty(1 << 16, dtype=np.int64)
    n = 0
    node_at = np.empty(SIZE + 1, dtype=np.int64)
    next_at = np.zeros(SIZE + 1, dtype=np.int64)
    sig_at = np.zeros(SIZE + 1, dtype=np.uint64)
    path = np.zeros(SIZE, dtype=np.int8)
    node_at[0] = root
    d = 0
    while d >= 0:
        x = next_at[d]
        if x >= nletters or d == SIZE:
            d -= 1
            continue
        next_at[d] = x + 1
        c = child[node_at[d], x]
        if c < 0:
            continue
        path[d] = x
        e = d + 1
        node_at[e] = c
        next_at[e] = 0
        sig_at[e] = sig_at[d] + hashes[x]
        if terminal[c] and e >= least:
            if n == sigs.shape[0]:
                sigs2 = np.empty(2 * n, dtype=np.uint64)
                sigs2[:n] = sigs
                sigs = sigs2
                words2 = np.empty((2 * n, SIZE), dtype=np.int8)
                words2[:n] = words
                words = words2
                lengths2 = np.empty(2 * n, dtype=np.int64)
                lengths2[:n] = lengths
                lengths = lengths2
            sigs[n] = sig_at[e]
            words[n] = -1
            words[n, :e] = path[:e]
            lengths[n] = e
            n += 1
        d = e
    order = np.argsort(sigs[:n], kind="mergesort")
    return sigs[order].copy(), words[order].copy(), lengths[order].copy()


@njit(**NO_REFCOUNT)
def _bingo_spans(lines, segment, rack, nletters, values, stems, sig, blanks, word, out):
    """Record (best-only) every move of the walk of ``segment`` that lays all 7 tiles of
    ``rack`` (its letters' signature ``sig``, ``blanks`` blanks): the words whose letters
    are the rack's (a blank any letter) and the line's tiles the word would hold (in run
    mode the run and maybe runs further right, over at most 7 empty squares; in anchor
    mode none), each tried at every span of the line that lays 7 tiles and holds those
    tiles (in anchor mode, the anchor). A move found twice (from two walks) is the same
    move with the same score: harmless for the best."""
    board = lines.board
    r, start, right, anchor_mode = segment
    line = board[r]
    if anchor_mode:
        _bingo_words(lines, r, start, start, 0, rack, nletters, values, stems, sig, blanks,
                     word, out)  # fmt: skip
        return
    for c in range(start, right + 1):
        sig += stems.hashes[line[c] & (BLANK - 1)]
    _bingo_words(lines, r, start, right, 0, rack, nletters, values, stems, sig, blanks, word,
                 out)  # fmt: skip
    gaps = 0
    c = right + 1
    while c < SIZE:
        if line[c] < 0:
            gaps += 1
            if gaps > 7:
                break
            c += 1
            continue
        while c < SIZE and line[c] >= 0:
            sig += stems.hashes[line[c] & (BLANK - 1)]
            c += 1
        _bingo_words(lines, r, start, c - 1, gaps, rack, nletters, values, stems, sig, blanks,
                     word, out)  # fmt: skip


@njit(**NO_REFCOUNT)
def _bingo_words(lines, r, first, last, gaps, rack, nletters, values, stems, sig, blanks,
                 word, out):  # fmt: skip
    """The words of signature ``sig`` plus ``blanks`` letters (at most 2), each tried on the spans
    from ``first`` to ``last`` (tiles, or the anchor) extended by 7 - ``gaps`` squares
    laid on the left and right together (:func:`_bingo_at`)."""
    sigs = stems.sigs
    nx = nletters if blanks >= 1 else 1
    for x in range(nx):
        ny = nletters if blanks >= 2 else x + 1
        for y in range(x, ny):
            s = sig
            if blanks >= 1:
                s += stems.hashes[x]
            if blanks >= 2:
                s += stems.hashes[y]
            top = s >> np.uint64(64 - SEEN_BITS)
            if not (stems.seen[top >> np.uint64(6)] >> (top & np.uint64(63))) & np.uint64(1):
                continue
            i = np.searchsorted(sigs, s)
            while i < sigs.shape[0] and sigs[i] == s:
                length = stems.lengths[i]
                for left in range(8 - gaps):
                    a = first - left
                    e = a + length - 1
                    if a >= 0 and e < SIZE and e >= last:
                        _bingo_at(lines, r, a, stems.words[i], length, rack, nletters, values,
                                  word, out)  # fmt: skip
                i += 1


@njit(**NO_REFCOUNT)
def _bingo_at(lines, r, a, letters, length, rack, nletters, values, word, out):
    """Record the moves spelling ``letters`` from square ``a`` of line ``r`` that lay all 7
    tiles of ``rack``: the board's tiles must match, the 7 empty squares' cross-checks
    allow their letters, the ends be open; each way of laying the blanks is a move."""
    board, cmask = lines.board, lines.cmask
    line = board[r]
    e = a + length - 1
    if (a > 0 and line[a - 1] >= 0) or (e < SIZE - 1 and line[e + 1] >= 0):
        return
    laid = 0
    for k in range(length):
        c = a + k
        x = letters[k]
        code = line[c]
        if code >= 0:
            if (code & (BLANK - 1)) != x:
                return
        else:
            if not (cmask[r, c] >> np.uint64(x)) & np.uint64(1):
                return
            laid += 1
    if laid != 7:
        return
    # the letters short on the rack are the blanks' (exactly the rack's blanks: 7 laid):
    # each letter laid counted once, at its first square (no scratch arrays: this kernel
    # runs without reference counting)
    short0 = -1
    short1 = -1
    deficit = 0
    for k in range(length):
        if line[a + k] >= 0:
            continue
        x = letters[k]
        seen = False
        for j in range(k):
            if line[a + j] < 0 and letters[j] == x:
                seen = True
                break
        if seen:
            continue
        n = 0
        for j in range(k, length):
            if line[a + j] < 0 and letters[j] == x:
                n += 1
        d = n - rack[x]
        if d > 0:
            deficit += d
            # the lowest short letter first (the order the letters are tried in)
            if short0 < 0:
                short0 = x
            elif x < short0:
                if short1 < 0:
                    short1 = short0
                short0 = x
            elif short1 < 0 or x > short1:
                short1 = x
    if deficit != rack[nletters]:
        return
    # each way of laying the blanks: on one or two of the squares of the short letters
    for c in range(a, e + 1):
        word[c] = line[c] if line[c] >= 0 else letters[c - a]
    if deficit == 0:
        _bingo_score(lines, r, a, length, values, word, out)
        return
    if deficit == 1:
        for c in range(a, e + 1):
            if line[c] < 0 and letters[c - a] == short0:
                word[c] += BLANK
                _bingo_score(lines, r, a, length, values, word, out)
                word[c] -= BLANK
        return
    # two blanks: for one letter short twice (short1 < 0) the second blank's square comes
    # after the first's (each pair once); for two letters, any square of the other letter
    second = short0 if short1 < 0 else short1
    for c in range(a, e + 1):
        if not (line[c] < 0 and letters[c - a] == short0):
            continue
        for c2 in range(c + 1 if short1 < 0 else a, e + 1):
            if line[c2] < 0 and letters[c2 - a] == second:
                word[c] += BLANK
                word[c2] += BLANK
                _bingo_score(lines, r, a, length, values, word, out)
                word[c] -= BLANK
                word[c2] -= BLANK


@njit(**NO_REFCOUNT)
def _bingo_score(lines, r, a, length, values, word, out):
    """Score the move of ``word[a:a + length]`` on line ``r`` (7 tiles laid) as the walk
    scores it (:func:`._kernels.lay_score`) and record it if it beats the best."""
    board, lm, wm, csum = lines.board, lines.lm, lines.wm, lines.csum
    down, bingo = lines.down, lines.bingo
    line = board[r]
    main = 0
    mult = 1
    cross = 0
    words = 0
    for c in range(a, a + length):
        code = word[c]
        if line[c] >= 0:
            if code < BLANK:
                main += values[code]
            continue
        main, mult, cross, words = lay_score(
            main, mult, cross, words, 0 if code >= BLANK else values[code] * lm[r, c],
            wm[r, c], csum[r, c],
        )  # fmt: skip
    score = main * mult + cross + bingo
    best = out.best
    better = score > best[SCORE] or (score == best[SCORE] and _before(down, r, a, word, length,
                                                                        best))  # fmt: skip
    store_move(Move(r, a, down, length, score, 7), word, True, better, out.info, out.words,
               best, 0)  # fmt: skip


@njit(cache=True)
def _top_values(rack, nletters, values):
    """``top[j]``: the sum of the ``j`` highest tile values on the rack (a blank is worth
    0), for ``j`` up to 15 (the whole rack's beyond its size)."""
    held = np.zeros(16, dtype=np.int64)
    n = 0
    for letter in range(nletters + 1):
        v = values[letter] if letter < nletters else 0
        for _ in range(rack[letter]):
            if n == 16:
                break
            i = n  # insertion, highest first
            while i > 0 and held[i - 1] < v:
                held[i] = held[i - 1]
                i -= 1
            held[i] = v
            n += 1
    top = np.zeros(16, dtype=np.int64)
    for j in range(1, 16):
        top[j] = top[j - 1] + held[j - 1]
    return top


@njit(cache=True)
def _after(info, words, i, j):
    """Whether move ``i`` comes after move ``j`` in the DAWG generator's order."""
    return _precedes(
        info[j, DOWN], info[j, ROW], info[j, COL], words[j], info[j, LENGTH],
        info[i, DOWN], info[i, ROW], info[i, COL], words[i], info[i, LENGTH],
    )  # fmt: skip


@njit(cache=True)
def _key_bits(nletters):
    """The bits of a square in a packed DAWG-order key (:func:`_dawg_key`) and how many
    squares fit after the direction, line and first square (9 bits)."""
    bits = 1
    while (1 << bits) <= 2 * nletters:
        bits += 1
    return bits, (63 - 9) // bits


@njit(cache=True)
def _dawg_key(info, words, i, bits, squares):
    """Move ``i``'s packed key: (direction, line, first square, the first ``squares``
    squares' :func:`_code_key`, 0 past the word's end). Keys in increasing order are moves
    in the DAWG generator's order; equal keys (long words alike in their first squares)
    are ordered by :func:`_after`."""
    down = info[i, DOWN]
    line = info[i, COL] if down else info[i, ROW]
    first = info[i, ROW] if down else info[i, COL]
    key = np.int64((down * SIZE + line) * SIZE + first)
    length = info[i, LENGTH]
    for k in range(squares):
        code = _code_key(words[i, k]) + 1 if k < length else 0
        key = (key << bits) | code
    return key


@njit(cache=True)
def dawg_order(info, words, count, nletters, order):
    """The first ``count`` moves' DAWG generator's order into ``order[:count]`` (move
    indices): a packed key (:func:`_dawg_key`) sorts them, and runs of equal keys are
    finished by comparison. The caller permutes the moves (numpy's ``take`` does it in one
    pass, where a permutation here took as long as the sort)."""
    bits, squares = _key_bits(nletters)
    keys = np.empty(count, dtype=np.int64)
    for i in range(count):
        keys[i] = _dawg_key(info, words, i, bits, squares)
    # the order is total over distinct moves, so an unstable sort ends in the same order
    order[:count] = np.argsort(keys)
    start = 0
    while start < count:
        end = start + 1
        while end < count and keys[order[end]] == keys[order[start]]:
            end += 1
        for a in range(start + 1, end):  # insertion sort of a run of equal keys
            b = a
            while b > start and _after(info, words, order[b - 1], order[b]):
                order[b - 1], order[b] = order[b], order[b - 1]
                b -= 1
        start = end


@njit(cache=True)
def _ahead(info, words, moves, keys, first, second, p, q):
    """Whether the move at place ``p`` of ``moves`` ranks ahead of the one at ``q``
    (:func:`rank`)."""
    if first[p] != first[q]:
        return first[p] > first[q]
    if second[p] != second[q]:
        return second[p] > second[q]
    if keys[p] != keys[q]:
        return keys[p] < keys[q]
    return _after(info, words, moves[q], moves[p])


@njit(cache=True)
def rank(info, words, moves, first, second, nletters):
    """``moves`` (indices into ``info``, ``words``) sorted by ``first`` downwards, then
    ``second`` downwards (both given for each of ``moves``), then the DAWG generator's
    order: the order a player reading the DAWG-ordered moves with a stable sort by
    (``first``, ``second``) would see, without sorting every move into that order first
    (a player that wants a few best moves ranks only those that can be among them).
    A merge sort (stable; the order is total over distinct moves anyway)."""
    m = moves.shape[0]
    bits, squares = _key_bits(nletters)
    keys = np.empty(m, dtype=np.int64)
    for p in range(m):
        keys[p] = _dawg_key(info, words, moves[p], bits, squares)
    src = np.arange(m)
    dst = np.empty(m, dtype=np.int64)
    width = 1
    while width < m:
        for lo in range(0, m, 2 * width):
            mid = min(lo + width, m)
            hi = min(lo + 2 * width, m)
            a = lo
            b = mid
            for t in range(lo, hi):
                if a < mid and (
                    b >= hi or not _ahead(info, words, moves, keys, first, second, src[b], src[a])
                ):
                    dst[t] = src[a]
                    a += 1
                else:
                    dst[t] = src[b]
                    b += 1
        src, dst = dst, src
        width *= 2
    out = np.empty(m, dtype=np.int64)
    for t in range(m):
        out[t] = moves[src[t]]
    return out


@njit(cache=True)
def generate(
    gaddag, stems, board, lms, wms, rack, bingo, best_only, sort, info, words, order, best
):
    """Every legal placement of ``rack`` (counts, blank last) on ``board`` through the
    GADDAG; ``gaddag`` holds the fields of a :class:`Gaddag`, as a plain tuple or the
    named one (numba types a plain tuple argument in C, a named one in Python: 2 µs more
    a call). ``lms``, ``wms`` are the letter and word premiums across (``[0]``) and
    transposed (``[1]``). The same contract and order as :func:`._kernels.generate`,
    except that the moves in ``info``, ``words`` are in the order found and
    ``order[:count]`` holds the DAWG generator's order of them (with ``sort``; without,
    ``order`` is left as it is and a caller that needs an order ranks the moves it wants
    with :func:`rank`).

    The cross-checks and anchors of both directions are computed first, in every call
    (an empty rack stops there). All moves: the walks run line by line and the moves are
    then sorted into the DAWG generator's order (with ``sort``). Best only: each walk's
    :func:`_bound` is computed, the walks run best bound first, and they stop at the
    first bound below the best score found (equal bounds still run: a move of equal score
    may come first in the DAWG order, which breaks ties)."""
    gaddag = Gaddag(*gaddag)
    nletters = gaddag.nletters
    rack = rack.copy()
    best[LENGTH] = 0
    best[SCORE] = -1
    boards = np.empty((2, SIZE, SIZE), dtype=board.dtype)
    boards[0] = board
    boards[1] = board.T
    cmask = np.empty((2, SIZE, SIZE), dtype=np.uint64)
    csum = np.empty((2, SIZE, SIZE), dtype=np.int32)
    anchor = np.empty((2, SIZE, SIZE), dtype=np.bool_)
    across = Lines(boards[0], lms[0], wms[0], cmask[0], csum[0], anchor[0], 0, bingo)
    down = Lines(boards[1], lms[1], wms[1], cmask[1], csum[1], anchor[1], 1, bingo)
    _checks(gaddag, across)
    _checks(gaddag, down)
    tiles = 0
    for i in range(rack.shape[0]):
        tiles += rack[i]
    if tiles == 0:
        return 0
    held = np.uint64(0)
    for x in range(nletters):
        if rack[x] > 0:
            held |= np.uint64(1) << np.uint64(x)
    segs = np.empty((2 * SIZE * SIZE, SEG_FIELDS), dtype=np.int64)
    n = _segments(boards, anchor, segs)
    word = np.full(SIZE, -1, dtype=np.int8)
    st = np.zeros((2 * SIZE + 2, FIELDS), dtype=np.int64)
    out = Out(info, words, best)
    if not best_only:
        count = 0
        for i in range(n):
            lines = down if segs[i, SEG_DOWN] else across
            count = _line(
                gaddag, lines, _segment(segs, i), rack, tiles, held, out, False, word, st, count
            )
        if sort and count <= info.shape[0]:
            dawg_order(info, words, count, nletters, order)
        return count
    top = _top_values(rack, nletters, gaddag.values)
    # a max-heap of the walks by bound: (bound, walk, bound without the bingo bonus), the
    # last -1 once the walk's bingos were found (or when they are left to the walk: no
    # bingo bonus in the bound, or more than 2 blanks)
    heap = np.empty((n, 3), dtype=np.int64)
    for i in range(n):
        lines = down if segs[i, SEG_DOWN] else across
        b, p = _bound(lines, _segment(segs, i), tiles, held, rack[nletters], gaddag.values, top)
        heap[i, 0] = b
        heap[i, 1] = i
        heap[i, 2] = p if b > p and rack[nletters] <= 2 else -1
    for i in range(n // 2 - 1, -1, -1):
        _sift(heap, i, n)
    stems = Stems(*stems)
    sig = np.uint64(0)
    for x in range(nletters):
        sig += np.uint64(rack[x]) * stems.hashes[x]
    size = n
    while size > 0:
        b, i, p = heap[0, 0], heap[0, 1], heap[0, 2]
        if b < 0 or b < best[SCORE]:
            break
        segment = _segment(segs, i)
        lines = down if segs[i, SEG_DOWN] else across
        if p >= 0:
            # the bound holds a bingo: the walk's bingos are found from the words its rack
            # and tiles spell, and it goes back with its bound without the bonus
            _bingo_spans(lines, segment, rack, nletters, gaddag.values, stems, sig,
                         rack[nletters], word, out)  # fmt: skip
            heap[0, 0] = p
            heap[0, 2] = -1
            _sift(heap, 0, size)
            continue
        heap[0] = heap[size - 1]
        size -= 1
        _sift(heap, 0, size)
        _line(gaddag, lines, segment, rack, tiles, held, out, True, word, st, 0)
    return 0


@njit(cache=True)
def _sift(heap, i, size):
    """Move row ``i`` of a max-heap (by column 0) of ``size`` rows down to its place."""
    while True:
        big = i
        a = 2 * i + 1
        if a < size and heap[a, 0] > heap[big, 0]:
            big = a
        if a + 1 < size and heap[a + 1, 0] > heap[big, 0]:
            big = a + 1
        if big == i:
            return
        for j in range(3):
            heap[i, j], heap[big, j] = heap[big, j], heap[i, j]
        i = big


@njit(cache=True, inline="always")
def _segment(segs, i):
    """Row ``i`` of ``segs`` as a :class:`Segment`."""
    return Segment(
        segs[i, SEG_LINE], segs[i, SEG_START], segs[i, SEG_RIGHT], segs[i, SEG_ANCHOR] == 1
    )
