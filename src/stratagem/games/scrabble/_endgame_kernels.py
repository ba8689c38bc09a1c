"""Numba kernels of the exact endgame search (see :mod:`.endgame`).

Move lists are kept incrementally. A placement found on one board stays legal,
with the same score, on a later board unless a later tile fell on its main
word's squares or on the squares just before and after it, or changed the
cross-word of a square it lays a tile on. So every tile laid marks *dirty*
positions on the lines (15 rows for across moves, 15 columns for down moves):
its own square on its row and column, and, on the perpendicular lines, the
empty squares at both ends of the runs of tiles through it (where a
cross-check changed). A move whose main word, widened by one square at each
end, covers no dirty position of its line is kept from the same player's
list on the board one ply up (if the rack still holds its tiles); the moves
that do cover one are generated afresh, only from the start squares that can
reach a dirty position. The two parts never overlap, and together they are
exactly what a full generation would find (the endgame tests check the
solver's values against a plain minimax over the full generator). Each frame
that will have grandchildren keeps both players' lists on its board: the
mover's, to search, and the other player's, from which every child derives
its own after one move (built when the first child is about to be searched: a
node that cuts on a move going out never builds it). So a move is regenerated
for its own board once, not once for every reply to it, as when each list came
from the same player's list two plies up (1.16x less CPU in all on 69 benchmark
endgames, 1.24x per position at the median).

A list is a range of the move pool: per move the laid squares and codes, the
score, the line (``down * 15 + line``), the span of its main word on the
line, the tiles it needs as a packed count (4 bits per distinct letter of the
player's starting rack) and its Zobrist hash (the XOR of its laid
square-codes, which also names it in the transposition table).

The search is an iterative negamax with alpha-beta and principal-variation
null windows over an explicit stack of frames (numba cannot reload recursive
functions from its cache); frames 0 and 1 hold the two players' lists on the
starting board, the root is frame 2.

The kernels take their arrays as named tuples (numba passes one as a single argument,
without a copy, and reads its fields by name): the lexicon (:class:`Words`), the premium
squares (:class:`Squares`), the move pool (:class:`Pool`), the transposition table
(:class:`Table`), the frames of the search (:class:`Frames`), and what one search works on
(:class:`Work`). Counters and ordering options are arrays read through named slots
(:data:`NODES`, :data:`TILE_BONUS`, ...), because Python reads and sets them between calls.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from stratagem.games.scrabble._kernels import (
    BLANK,
    LENGTH,
    SCORE,
    SIZE,
    STACK_FIELDS,
    Dawg,
    Lines,
    Out,
    _walk,
    distinct_letters,
    square_anchor,
    square_check,
    start_reaches_anchor,
)
from stratagem.games.scrabble._kernels import Hand as WalkHand

MAX_FRAMES = 64 + 3
NLINES = 2 * SIZE
ROOT = 2

# status codes of :func:`search`
DONE, ABORTED, OVERFLOW = 0, 1, 2
# transposition-table flags
EXACT, LOWER, UPPER = 0, 1, 2
INF = 1 << 29
PASS_HASH = np.uint64(1)
_GUARD = 0x88888888  # the guard bit of each 4-bit count (7 counts)
_PICK_LINEAR = 4  # picks made by a linear scan before the rest of a list is sorted
OUT_BONUS = 1000
_TAKEN = -INF - 1  # the ordering key of a move already tried

# Slots of ``Control.counters`` (what a search counted; Python reads them).
NODES = 0  # nodes entered (all iterations since the counters were zeroed)
LISTS = 1  # move lists built for a node's mover
LISTED = 2  # moves in those lists
GENERATED = 3  # moves generated afresh (not inherited from a list one ply up)
DEEPEST = 4  # the deepest ply entered below the root
ETC_CUTS = 5  # enhanced transposition cutoffs
N_COUNTERS = 6

# Slots of ``Control.options`` (how moves are ordered; set by Python).
TILE_BONUS = 0  # ordering bonus per tile laid
KILLER_BONUS = 1  # ordering bonus of a killer move
ETC_DEPTH = 2  # depth from which a node looks its children up (0: never)
N_OPTIONS = 3

# Slots of ``Control.stop``.
STOP = 0  # set by another thread: abort
NODE_LIMIT = 1  # abort when the node count reaches this (0: no limit)


class Words(NamedTuple):
    """The lexicon as the move walk reads it (see :mod:`.lexicon`)."""

    child: np.ndarray
    terminal: np.ndarray
    mask: np.ndarray
    root: int
    values: np.ndarray
    """Letter values (int32), the blank's 0 at index ``nletters``."""
    slot_values: np.ndarray
    """The same as int64, to sum rack values."""
    nletters: int


class Squares(NamedTuple):
    """The premium squares, both ways round (``_t``: transposed, for down moves), the bingo
    bonus and the Zobrist keys of square-codes."""

    lm: np.ndarray
    wm: np.ndarray
    lm_t: np.ndarray
    wm_t: np.ndarray
    bingo: int
    zobrist: np.ndarray


class Pool(NamedTuple):
    """The move pool: lists of moves as ranges of it, per move the laid squares and codes,
    the score, the line (``down * 15 + line``), the span of its main word on the line, the
    tiles it needs (4 bits per distinct letter of the starting rack) and its Zobrist hash;
    a frame's list is ``list_start[f]`` .. ``+ list_count[f]``; ``key`` and ``order`` are
    the ordering keys and the sorted order of the moves."""

    sq: np.ndarray
    code: np.ndarray
    n: np.ndarray
    score: np.ndarray
    hash: np.ndarray
    need: np.ndarray
    line: np.ndarray
    lo: np.ndarray
    hi: np.ndarray
    key: np.ndarray
    order: np.ndarray
    list_start: np.ndarray
    list_count: np.ndarray


class Scratch(NamedTuple):
    """The move walk's output buffers: per move found, its fields and its word."""

    info: np.ndarray
    word: np.ndarray


class Table(NamedTuple):
    """The transposition table (a power of two entries), field by field."""

    key: np.ndarray
    value: np.ndarray
    move: np.ndarray
    depth: np.ndarray
    flag: np.ndarray
    exact: np.ndarray


class Control(NamedTuple):
    """What Python and a search exchange: ``counters`` (slots :data:`NODES` ...), ``stop``
    (:data:`STOP`, :data:`NODE_LIMIT`), ``root_best`` (the root's best move's hash),
    ``killers`` (two per frame) and the ordering ``options`` (:data:`TILE_BONUS` ...)."""

    counters: np.ndarray
    stop: np.ndarray
    root_best: np.ndarray
    killers: np.ndarray
    options: np.ndarray


class Start(NamedTuple):
    """The root of a search: the board, both racks (the mover's first), each rack's letters
    packed with ``loc`` (``loc[p, slot]``: the slot's 4-bit count), the mover, the
    scoreless turns so far and the number that ends the game, and ``board_hash``, the
    Zobrist hash of the tiles laid since the board the table was started on."""

    board: np.ndarray
    racks: np.ndarray
    loc: np.ndarray
    player: int
    scoreless: int
    limit: int
    board_hash: np.uint64


class Sides(NamedTuple):
    """Both players' racks as the search changes them: the tiles, the packed counts
    (``have``), the rack values and the tiles left."""

    racks: np.ndarray
    loc: np.ndarray
    have: np.ndarray
    rack_value: np.ndarray
    left: np.ndarray


class Checks(NamedTuple):
    """Per orientation (0: along rows, 1: down), square by square: the letters a
    cross-word allows, the cross-word's points, whether the square is an anchor."""

    cmask: np.ndarray
    csum: np.ndarray
    anchor: np.ndarray


class Work(NamedTuple):
    """Everything one search (or :func:`root_lists`) works on."""

    words: Words
    squares: Squares
    board: np.ndarray
    board_t: np.ndarray
    checks: Checks
    sides: Sides
    pool: Pool
    scratch: Scratch


class Frames(NamedTuple):
    """The search's stack, one entry per ply: the node's player, depth to go, window
    (``alpha0``: as entered), scoreless turns; the best value and move so far and whether
    it is proved (``exact``); its table key; move picking (``tried``, ``sorted``, ``pos``,
    the pass first or done); the move being searched and its score, whether in a null
    window; the positions its move made dirty and the cross-checks it changed; and the
    other player's list on its board (``other_*``, built on demand) and where the pool is
    free above its lists."""

    player: np.ndarray
    depth: np.ndarray
    alpha: np.ndarray
    beta: np.ndarray
    alpha0: np.ndarray
    scoreless: np.ndarray
    best: np.ndarray
    best_hash: np.ndarray
    exact: np.ndarray
    key: np.ndarray
    tried: np.ndarray
    sorted: np.ndarray
    pos: np.ndarray
    pass_first: np.ndarray
    pass_done: np.ndarray
    move: np.ndarray
    move_score: np.ndarray
    null_window: np.ndarray
    dirt: np.ndarray
    bound: np.ndarray
    nbound: np.ndarray
    other_start: np.ndarray
    other_count: np.ndarray
    free: np.ndarray
    other_built: np.ndarray


class Hand(NamedTuple):
    """One player's rack as the move walk reads it."""

    rack: np.ndarray
    loc: np.ndarray
    tiles: int
    letters: np.ndarray
    n_letters: int


@njit(cache=True)
def mix(x):
    """splitmix64's finaliser (a bijection of 64-bit words)."""
    z = np.uint64(x) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def node_key(board_hash, have0, have1, player, scoreless):
    """The table key of a position: the tiles laid since the start, both racks, mover, passes."""
    racks = np.uint64(have0) | (np.uint64(have1) << np.uint64(32))
    side = np.uint64(player * 8 + scoreless + 1) * np.uint64(0xD6E8FEB86659FD93)
    return np.uint64(board_hash) ^ mix(racks) ^ mix(side)


@njit(cache=True, inline="always")
def _check_arrays(work):
    """What a cross-check reads and writes, unpacked once before a loop over squares: the
    word graph's arrays, then the check masks and sums of both directions."""
    w = work.words
    ch = work.checks
    return (w.child, w.terminal, w.mask, w.root, w.values, w.nletters,
            ch.cmask[0], ch.csum[0], ch.cmask[1], ch.csum[1])  # fmt: skip


@njit(cache=True, inline="always")
def _all_checks(work, empty):
    """Cross-checks and anchors of every square, for both directions (index 0: along
    rows of the board; 1: along rows of the transposed board, that is down)."""
    an = work.checks.anchor
    board, board_t = work.board, work.board_t
    child, terminal, mask, root, values, nletters, cm0, cs0, cm1, cs1 = _check_arrays(work)
    for r in range(SIZE):
        for c in range(SIZE):
            square_check(board, r, c, child, terminal, mask, root, values, nletters, cm0, cs0)
            square_check(board_t, r, c, child, terminal, mask, root, values, nletters, cm1, cs1)
            an[0, r, c] = square_anchor(board, r, c, empty)
            an[1, c, r] = an[0, r, c]


@njit(cache=True, inline="always")
def _touched(board, pool, m, dirt, bound):
    """For move ``m`` (already on ``board``): mark the positions it makes dirty in
    ``dirt`` (30 lines) and list in ``bound`` the empty squares whose cross-check it
    changed (``orientation * 225 + square`` of the oriented board); returns their count."""
    nb = 0
    mv_sq = pool.sq
    for i in range(pool.n[m]):
        sq = mv_sq[m, i]
        r = sq // SIZE
        c = sq % SIZE
        dirt[r] |= 1 << c
        dirt[SIZE + c] |= 1 << r
        up = r
        while up > 0 and board[up - 1, c] >= 0:
            up -= 1
        if up > 0:
            dirt[up - 1] |= 1 << c
            bound[nb] = (up - 1) * SIZE + c
            nb += 1
        dn = r
        while dn < SIZE - 1 and board[dn + 1, c] >= 0:
            dn += 1
        if dn < SIZE - 1:
            dirt[dn + 1] |= 1 << c
            bound[nb] = (dn + 1) * SIZE + c
            nb += 1
        left = c
        while left > 0 and board[r, left - 1] >= 0:
            left -= 1
        if left > 0:
            dirt[SIZE + left - 1] |= 1 << r
            bound[nb] = SIZE * SIZE + (left - 1) * SIZE + r
            nb += 1
        right = c
        while right < SIZE - 1 and board[r, right + 1] >= 0:
            right += 1
        if right < SIZE - 1:
            dirt[SIZE + right + 1] |= 1 << r
            bound[nb] = SIZE * SIZE + (right + 1) * SIZE + r
            nb += 1
    return nb


@njit(cache=True, inline="always")
def _recheck(work, m, bound, nb):
    """Recompute what move ``m``'s tiles change: the listed cross-checks, and the anchors
    around its squares (after laying it, and again after taking it back)."""
    an = work.checks.anchor
    board, board_t = work.board, work.board_t
    child, terminal, mask, root, values, nletters, cm0, cs0, cm1, cs1 = _check_arrays(work)
    for k in range(nb):
        o = bound[k] // (SIZE * SIZE)
        sq = bound[k] % (SIZE * SIZE)
        if o == 0:
            square_check(board, sq // SIZE, sq % SIZE, child, terminal, mask, root, values,
                         nletters, cm0, cs0)  # fmt: skip
        else:
            square_check(board_t, sq // SIZE, sq % SIZE, child, terminal, mask, root, values,
                         nletters, cm1, cs1)  # fmt: skip
    mv_sq = work.pool.sq
    for i in range(work.pool.n[m]):
        sq = mv_sq[m, i]
        r0 = sq // SIZE
        c0 = sq % SIZE
        for k in range(5):
            r = r0 + (k == 1) - (k == 2)
            c = c0 + (k == 3) - (k == 4)
            if 0 <= r < SIZE and 0 <= c < SIZE:
                an[0, r, c] = square_anchor(board, r, c, False)
                an[1, c, r] = an[0, r, c]
        # a tile laid or lifted also changes its own square's checks (filled: none)
        square_check(board, r0, c0, child, terminal, mask, root, values, nletters, cm0, cs0)
        square_check(board_t, c0, r0, child, terminal, mask, root, values, nletters, cm1, cs1)


@njit(cache=True, inline="always")
def _gen_line(work, hand, dawg, walk_hand, out, lines, r, dirty, word, st, top):
    """Append the moves of line ``r`` of ``lines`` (a row of the board, of the transposed
    board when ``lines.down``) whose main word widened by one square meets a ``dirty``
    position; ``dawg``, ``walk_hand`` and ``out`` are what the move walk reads and fills
    (made once per :func:`_generate`). Returns the new top of the pool, or -1 when a
    buffer is too small."""
    pool = work.pool
    info, found = out.info, out.words
    board, anchor, down = lines.board, lines.anchor, lines.down
    zobrist = work.squares.zobrist
    loc = hand.loc
    tiles = hand.tiles
    nletters = dawg.nletters
    mv_sq, mv_code, mv_n, mv_score, mv_hash, mv_need, mv_line, mv_lo, mv_hi = (
        pool.sq, pool.code, pool.n, pool.score, pool.hash, pool.need, pool.line, pool.lo,
        pool.hi,
    )  # fmt: skip
    last = 0
    for i in range(SIZE + 1):
        if (dirty >> i) & 1:
            last = i
    for s in range(min(last + 2, SIZE)):
        if not start_reaches_anchor(board, anchor, r, s, tiles):
            continue
        # The word ends before the (tiles + 1)-th empty square from s: skip a start
        # whose every move, widened by one square, misses the dirty positions.
        empties = 0
        end = SIZE
        for c in range(s, SIZE):
            if board[r, c] < 0:
                empties += 1
                if empties > tiles:
                    end = c
                    break
        lo = s - 1 if s > 0 else 0
        if not dirty & (((1 << (end + 1)) - 1) ^ ((1 << lo) - 1)):
            continue
        count = _walk(dawg, lines, walk_hand, out, False, word, st, r, s, 0)
        if count > info.shape[0]:
            return -1
        for k in range(count):
            length = info[k, LENGTH]
            lo = s - 1 if s > 0 else 0
            hi = s + length
            span = ((1 << (hi + 1)) - 1) ^ ((1 << lo) - 1)
            if not dirty & span:
                continue
            if top >= mv_sq.shape[0]:
                return -1
            n = 0
            h = np.uint64(0)
            need = 0
            for i in range(length):
                c = s + i
                if board[r, c] < 0:
                    code = found[k, i]
                    sq = c * SIZE + r if down else r * SIZE + c
                    mv_sq[top, n] = sq
                    mv_code[top, n] = code
                    h ^= zobrist[sq, code]
                    slot = nletters if code >= BLANK else code
                    need += 1 << (4 * loc[slot])
                    n += 1
            mv_n[top] = n
            mv_score[top] = info[k, SCORE]
            mv_hash[top] = h
            mv_need[top] = need
            mv_line[top] = down * SIZE + r
            mv_lo[top] = s
            mv_hi[top] = s + length - 1
            top += 1
    return top


@njit(cache=True, inline="always")
def _generate(work, p, dirt, empty, top):
    """Append player ``p``'s moves that meet a dirty position of ``dirt`` (30 lines),
    by the cross-checks and anchors of ``work.checks``."""
    word = np.full(SIZE, -1, dtype=np.int8)
    st = np.zeros((SIZE + 2, STACK_FIELDS), dtype=np.int64)
    best = np.zeros(6 + SIZE, dtype=np.int32)
    rack = work.sides.racks[p]
    tiles = 0
    for i in range(rack.shape[0]):
        tiles += rack[i]
    if tiles == 0:
        return top
    w = work.words
    letters, n_letters = distinct_letters(rack, w.nletters)
    hand = Hand(rack, work.sides.loc[p], tiles, letters, n_letters)
    # the move walk's named state, made once for all the lines
    dawg = Dawg(w.child, w.terminal, w.mask, w.root, w.values, w.nletters)
    walk_hand = WalkHand(rack, tiles, letters, n_letters)
    out = Out(work.scratch.info, work.scratch.word, best)
    sqs, checks = work.squares, work.checks
    across = Lines(work.board, sqs.lm, sqs.wm, checks.cmask[0], checks.csum[0],
                   checks.anchor[0], 0, sqs.bingo)  # fmt: skip
    downs = Lines(work.board_t, sqs.lm_t, sqs.wm_t, checks.cmask[1], checks.csum[1],
                  checks.anchor[1], 1, sqs.bingo)  # fmt: skip
    for line in range(NLINES):
        if dirt[line] == 0:
            continue
        down = 1 if line >= SIZE else 0
        lines = downs if down else across
        top = _gen_line(
            work, hand, dawg, walk_hand, out, lines, line - down * SIZE, dirt[line], word, st,
            top,
        )  # fmt: skip
        if top < 0:
            return -1
    return top


@njit(cache=True, inline="always")
def _new_checks():
    return Checks(
        np.zeros((2, SIZE, SIZE), dtype=np.uint64),
        np.zeros((2, SIZE, SIZE), dtype=np.int32),
        np.zeros((2, SIZE, SIZE), dtype=np.bool_),
    )


@njit(cache=True, inline="always")
def _board_empty(board):
    for r in range(SIZE):
        for c in range(SIZE):
            if board[r, c] >= 0:
                return False
    return True


@njit(cache=True, nogil=True)
def root_lists(words, squares, board, racks, loc, pool, scratch):
    """Every move of each player's rack on the starting board, into frames 0 (player 0)
    and 1 (player 1) of ``pool``. Returns the pool's top, or -1 when a buffer is too small."""
    zero = np.zeros(2, dtype=np.int64)
    sides = Sides(racks.copy(), loc, zero, zero, zero)
    work = Work(words, squares, board, board.T.copy(), _new_checks(), sides, pool, scratch)
    empty = _board_empty(board)
    dirt = np.full(NLINES, (1 << SIZE) - 1, dtype=np.int64)
    _all_checks(work, empty)
    top = 0
    for p in range(2):
        pool.list_start[p] = top
        top = _generate(work, p, dirt, empty, top)
        if top < 0:
            return -1
        pool.list_count[p] = top - pool.list_start[p]
    return top


@njit(cache=True, inline="always")
def _lay(work, m, p, sign):
    """Lay move ``m`` of player ``p`` (``sign`` -1) or take it back (``sign`` +1)."""
    pool = work.pool
    sides = work.sides
    nletters = work.words.nletters
    board, board_t, racks, slot_values = (
        work.board,
        work.board_t,
        sides.racks,
        work.words.slot_values,
    )
    mv_sq, mv_code = pool.sq, pool.code
    value = 0
    for i in range(pool.n[m]):
        sq = mv_sq[m, i]
        code = mv_code[m, i]
        put = code if sign < 0 else -1
        board[sq // SIZE, sq % SIZE] = put
        board_t[sq % SIZE, sq // SIZE] = put
        slot = nletters if code >= BLANK else code
        racks[p, slot] += sign
        value += slot_values[slot]
    sides.rack_value[p] += sign * value
    sides.have[p] += sign * pool.need[m]
    sides.left[p] += sign * pool.n[m]


@njit(cache=True, inline="always")
def _inherit(pool, src, count, hv, dirt, top):
    """Copy to ``top`` the moves of the list at ``src`` (``count`` long) that the rack
    packed in ``hv`` still holds and whose main word, widened by one square, meets no
    position of ``dirt``. Returns the new top, or -1 when the pool is too small."""
    # The fields as locals: numba counts a reference each time a field is read from the
    # tuple, which in this loop would cost more than the copying.
    sq, code, n, score, hash_, need, line, lo_, hi = (
        pool.sq, pool.code, pool.n, pool.score, pool.hash, pool.need, pool.line, pool.lo,
        pool.hi,
    )  # fmt: skip
    for m in range(src, src + count):
        if ((hv | _GUARD) - need[m]) & _GUARD != _GUARD:
            continue
        lo = lo_[m] - 1 if lo_[m] > 0 else 0
        span = ((1 << (hi[m] + 2)) - 1) ^ ((1 << lo) - 1)
        if dirt[line[m]] & span:
            continue
        if top >= sq.shape[0]:
            return -1
        for i in range(n[m]):
            sq[top, i] = sq[m, i]
            code[top, i] = code[m, i]
        n[top] = n[m]
        score[top] = score[m]
        hash_[top] = hash_[m]
        need[top] = need[m]
        line[top] = line[m]
        lo_[top] = lo_[m]
        hi[top] = hi[m]
        top += 1
    return top


@njit(cache=True, inline="always")
def _derive(work, src, count, p, dirt, top, now_empty, counters):
    """Player ``p``'s list on the board, at ``top`` of the pool: the moves of the list at
    ``src`` (``count`` long, the same player's on an earlier board) that :func:`_inherit`
    keeps, then the moves through the positions of ``dirt``. Returns the new top (-1 when
    a buffer is too small) and counts the moves generated in ``counters[GENERATED]``."""
    top = _inherit(work.pool, src, count, work.sides.have[p], dirt, top)
    if top < 0:
        return -1
    gen_from = top
    top = _generate(work, p, dirt, now_empty, top)
    if top >= 0:
        counters[GENERATED] += top - gen_from
    return top


@njit(cache=True, inline="always")
def _tt_store(table, key, value, alpha, beta, move, depth, exact):
    """Record a finished node's ``value`` and best ``move`` in ``key``'s slot of the
    transposition table.

    ``value`` found in the window (``alpha``, ``beta``) the node was entered with is
    an upper bound at or below ``alpha``, a lower bound at or above ``beta``, else
    exact. An entry proved to the end (``exact``) of the same key is not replaced by
    one that is not. Returns ``(value, exact)``, what the node hands back to its parent."""
    idx = key & np.uint64(table.key.shape[0] - 1)
    if not (table.key[idx] == key and table.exact[idx] and not exact):
        table.key[idx] = key
        table.value[idx] = value
        table.move[idx] = move
        table.depth[idx] = depth
        table.flag[idx] = UPPER if value <= alpha else (LOWER if value >= beta else EXACT)
        table.exact[idx] = exact
    return value, exact


@njit(cache=True, inline="always")
def _build_other(work, frames, f, p, now_empty, root_empty, counters):
    """Build frame ``f``'s list of the other player's moves on its board, from the
    parent's own list, when its first child is about to be searched (a node that cuts on
    a move going out never needs it; a node with less than two plies to go never builds
    it). The cross-checks reflect ``f``'s board here. Returns False if the pool is full."""
    frames.other_built[f] = True
    pf = f - 1
    if root_empty:
        _all_checks(work, now_empty)
    pool = work.pool
    top = _derive(work, pool.list_start[pf], pool.list_count[pf], 1 - p, frames.dirt[pf],
                  frames.other_start[f], now_empty, counters)  # fmt: skip
    if top < 0:
        return False
    frames.other_count[f] = top - frames.other_start[f]
    frames.free[f] = top
    return True


@njit(cache=True, inline="always")
def _new_frames():
    F = MAX_FRAMES
    i64 = np.int64
    return Frames(
        np.zeros(F, i64), np.zeros(F, i64), np.zeros(F, i64), np.zeros(F, i64),
        np.zeros(F, i64), np.zeros(F, i64), np.zeros(F, i64), np.zeros(F, np.uint64),
        np.zeros(F, np.bool_), np.zeros(F, np.uint64), np.zeros(F, i64),
        np.zeros(F, np.bool_), np.zeros(F, i64), np.zeros(F, np.bool_),
        np.zeros(F, np.bool_), np.zeros(F, i64), np.zeros(F, i64), np.zeros(F, np.bool_),
        np.zeros((F, NLINES), i64),  # dirt: positions made dirty by the frame's move
        np.zeros((F, 4 * 7), i64),  # bound: cross-checks the frame's move changed
        np.zeros(F, i64), np.zeros(F, i64), np.zeros(F, i64), np.zeros(F, i64),
        np.zeros(F, np.bool_),
    )  # fmt: skip


@njit(cache=True, inline="always")
def _sides(racks, loc, slot_values, nletters):
    """Both racks with their packed counts, values and tile counts."""
    have = np.zeros(2, dtype=np.int64)
    rv = np.zeros(2, dtype=np.int64)
    left = np.zeros(2, dtype=np.int64)
    for p in range(2):
        for slot in range(nletters + 1):
            n = racks[p, slot]
            have[p] += n << (4 * loc[p, slot])
            rv[p] += n * slot_values[slot]
            left[p] += n
    return Sides(racks, loc, have, rv, left)


@njit(cache=True, inline="always")
def _probe(table, key, depth, alpha, beta):
    """Look ``key`` up: ``(found, move, cut, value, exact)``; ``cut`` when the entry
    settles the node in the window (``alpha``, ``beta``) at ``depth`` plies to go."""
    idx = key & np.uint64(table.key.shape[0] - 1)
    if table.key[idx] != key:
        return False, np.uint64(0), False, 0, False
    move = table.move[idx]
    if table.exact[idx] or table.depth[idx] >= depth:
        v = table.value[idx]
        fl = table.flag[idx]
        if fl == EXACT or (fl == LOWER and v >= beta) or (fl == UPPER and v <= alpha):
            return True, move, True, v, table.exact[idx]
    return True, move, False, 0, False


@njit(cache=True, inline="always")
def _refresh_checks(work, frames, chk, f, root_empty, now_empty):
    """Bring the cross-checks up to date for frame ``f`` (they reflect the moves of frames
    ROOT .. ``chk`` - 1); returns the new ``chk``. Done only where a node lists moves (a
    leaf's moves never need them)."""
    if root_empty:
        _all_checks(work, now_empty)
    else:
        for g in range(chk, f):
            if frames.move[g] >= 0:
                _recheck(work, frames.move[g], frames.bound[g], frames.nbound[g])
    return f


@njit(cache=True, inline="always")
def _list_moves(work, frames, f, p, now_empty, counters):
    """The mover's list of frame ``f``: the list the parent frame kept for this player
    (its ``other`` list) on its board, minus the moves that the parent's move touched,
    plus the moves through what it touched. Returns False if the pool is full.

    Where this node's children will need theirs (two plies or more to go), the other
    player's list on this board is built later, by :func:`_build_other`, once, from the
    parent's own list the same way (so the parent's move is regenerated once per node,
    not once per grandchild)."""
    pool = work.pool
    pf = f - 1
    start = frames.free[pf]
    top = _derive(work, frames.other_start[pf], frames.other_count[pf], p, frames.dirt[pf],
                  start, now_empty, counters)  # fmt: skip
    if top < 0:
        return False
    pool.list_start[f] = start
    pool.list_count[f] = top - start
    frames.other_start[f] = top
    frames.other_count[f] = 0
    frames.other_built[f] = frames.depth[f] < 2  # built when a child needs it
    frames.free[f] = top
    counters[LISTS] += 1
    counters[LISTED] += top - start
    return True


@njit(cache=True, inline="always")
def _order_moves(work, f, p, table_move, options, killers):
    """Ordering keys of frame ``f``'s moves: score, a bonus per tile laid, killers, going
    out (worth twice the other rack), the table's best move first."""
    pool = work.pool
    sides = work.sides
    start = pool.list_start[f]
    out_bonus = OUT_BONUS + 2 * sides.rack_value[1 - p]
    k0 = killers[f, 0]
    k1 = killers[f, 1]
    tile_bonus = options[TILE_BONUS]
    killer_bonus = options[KILLER_BONUS]
    left = sides.left[p]
    score, n, hash_, key = pool.score, pool.n, pool.hash, pool.key
    for m in range(start, start + pool.list_count[f]):
        k = score[m] + tile_bonus * n[m]
        if hash_[m] == k0 or hash_[m] == k1:
            k += killer_bonus
        if n[m] == left:
            k += out_bonus
        if table_move != 0 and hash_[m] == table_move:
            k = INF
        key[m] = k


@njit(cache=True, inline="always")
def _enhanced_cutoff(work, table, frames, f, p, board_hash, limit):
    """Enhanced transposition cutoff: the first move of frame ``f`` whose child is in the
    table at an upper bound low enough for this node to fail high, as ``(move, value,
    exact)``; move -1 if none."""
    pool = work.pool
    have0 = work.sides.have[0]
    have1 = work.sides.have[1]
    left = work.sides.left[p]
    scoreless = frames.scoreless[f]
    depth = frames.depth[f]
    beta = frames.beta[f]
    score, n, need, hash_ = pool.score, pool.n, pool.need, pool.hash
    t_key, t_exact, t_depth, t_flag, t_value = (
        table.key,
        table.exact,
        table.depth,
        table.flag,
        table.value,
    )
    ttmask = np.uint64(t_key.shape[0] - 1)
    start = pool.list_start[f]
    for m in range(start, start + pool.list_count[f]):
        s = score[m]
        ns = 0 if s > 0 else scoreless + 1
        if n[m] == left or ns >= limit:
            continue  # the game ends: no child in the table
        h0 = have0 - need[m] if p == 0 else have0
        h1 = have1 - need[m] if p == 1 else have1
        ck = node_key(board_hash ^ hash_[m], h0, h1, 1 - p, ns)
        ci = ck & ttmask
        if t_key[ci] != ck:
            continue
        deep_enough = t_exact[ci] or t_depth[ci] >= depth - 1
        if t_flag[ci] == LOWER or not deep_enough:
            continue
        if s - t_value[ci] >= beta:
            return m, s - t_value[ci], t_exact[ci]
    return -1, 0, False


@njit(cache=True, inline="always")
def _pick(key, order, start, end, f, tried, sorted_lists, positions):
    """The next move of frame ``f`` (its list: ``start`` .. ``end`` of the pool) to search,
    best ``key`` first: a linear scan for the first few, then in sorted ``order``; -1 when
    every move has been tried."""
    m = -1
    if tried[f] < _PICK_LINEAR:
        bestk = _TAKEN
        for j in range(start, end):
            if key[j] > bestk:
                bestk = key[j]
                m = j
    else:
        if not sorted_lists[f]:
            o = np.argsort(-key[start:end], kind="mergesort")
            for j in range(end - start):
                order[start + j] = start + o[j]
            sorted_lists[f] = True
            positions[f] = start
        pos = positions[f]
        while pos < end and key[order[pos]] == _TAKEN:
            pos += 1
        if pos < end:
            m = order[pos]
            pos += 1
        positions[f] = pos
    if m >= 0 and key[m] == _TAKEN:
        m = -1
    return m


ENTER, NEXT, RETURN, RESULT = 0, 1, 2, 3
"""The search loop's modes: enter a node, try its next move, hand a node's value to its
parent, take in a child's value."""


@njit(cache=True, nogil=True)
def search(words, squares, start, pool, scratch, table, control, depth, alpha, beta):
    """One iteration of the negamax to ``depth`` plies from ``start`` (frame 2), in the
    window (``alpha``, ``beta``).

    Returns ``(status, value, exact)``: the mover's net gain from here under best play (a
    value at or below ``alpha`` is only an upper bound of it, one at or above ``beta`` a
    lower bound; ``exact``: proved to the end of the game, not cut at the depth).
    ``control.counters`` counts nodes, lists built, moves in them and moves generated
    afresh, keeps the deepest ply entered and counts the enhanced transposition cutoffs;
    ``control.stop[STOP]`` set by another thread aborts the search (status ``ABORTED``),
    and so does a node count (all iterations so far) reaching ``stop[NODE_LIMIT]`` when
    that is positive (checked every 1,024 nodes, so the same search stops at the same node
    on any machine); ``control.root_best[0]`` receives the hash of the root's best move
    (``PASS_HASH`` for the pass). The killers and ``options`` steer the move ordering. A
    table kept from an earlier search of the same endgame, whose racks were packed with the
    same ``loc``, goes on serving (``start.board_hash``).
    """
    board = start.board.copy()
    sides = _sides(start.racks.copy(), start.loc, words.slot_values, words.nletters)
    work = Work(words, squares, board, board.T.copy(), _new_checks(), sides, pool, scratch)
    counters = control.counters
    stop = control.stop
    killers = control.killers
    limit = start.limit
    root_empty = _board_empty(board)
    laid_total = 0
    chk = ROOT  # the cross-checks reflect the moves of frames ROOT .. chk - 1
    _all_checks(work, root_empty)

    frames = _new_frames()
    # The arrays the loop reads as locals: numba counts a reference each time a field is
    # read from a tuple, which per node and move would cost more than the reading.
    players, depths, alphas, betas = frames.player, frames.depth, frames.alpha, frames.beta
    scoreless_turns, keys, tried = frames.scoreless, frames.key, frames.tried
    pass_first, pass_done, other_built = frames.pass_first, frames.pass_done, frames.other_built
    moves, move_scores, null_windows = frames.move, frames.move_score, frames.null_window
    dirt, bound, nbound, best_hash = frames.dirt, frames.bound, frames.nbound, frames.best_hash
    scores, laid, hashes, order_keys = pool.score, pool.n, pool.hash, pool.key
    rack_value, left, have = sides.rack_value, sides.left, sides.have
    bests, proved, alpha0s = frames.best, frames.exact, frames.alpha0
    sorted_lists, positions = frames.sorted, frames.pos
    order = pool.order
    list_start, list_count = pool.list_start, pool.list_count
    # Frame ROOT - 1 stands for the position before the root, reached by a pass: its own
    # list is the opponent's (frame 1), the list it keeps for the root's mover is frame 0.
    frames.other_start[ROOT - 1] = pool.list_start[0]
    frames.other_count[ROOT - 1] = pool.list_count[0]
    frames.free[ROOT - 1] = max(pool.list_start[0] + pool.list_count[0],
                                pool.list_start[1] + pool.list_count[1])  # fmt: skip
    bh = np.uint64(start.board_hash)

    f = ROOT
    players[f] = start.player
    depths[f] = depth
    alphas[f] = alpha
    betas[f] = beta
    scoreless_turns[f] = start.scoreless
    mode = ENTER
    ret = 0
    ret_exact = True
    val = 0
    val_exact = True
    while True:
        if mode == ENTER:
            counters[NODES] += 1
            if f - ROOT > counters[DEEPEST]:
                counters[DEEPEST] = f - ROOT
            if (counters[NODES] & 1023) == 0 and (
                stop[STOP] or (stop[NODE_LIMIT] > 0 and counters[NODES] >= stop[NODE_LIMIT])
            ):
                return ABORTED, 0, False
            p = players[f]
            key = node_key(bh, have[0], have[1], p, scoreless_turns[f])
            keys[f] = key
            found, ttm, cut, ret, ret_exact = _probe(table, key, depths[f], alphas[f], betas[f])
            if found and f == ROOT:
                control.root_best[0] = ttm
            if cut:
                mode = RETURN
                continue
            if depths[f] == 0:
                # Beyond the horizon: valued as if both passed to the end (not exact).
                ret = rack_value[1 - p] - rack_value[p]
                ret_exact = False
                mode = RETURN
                continue
            now_empty = root_empty and laid_total == 0
            chk = _refresh_checks(work, frames, chk, f, root_empty, now_empty)
            if not _list_moves(work, frames, f, p, now_empty, counters):
                return OVERFLOW, 0, False
            _order_moves(work, f, p, ttm, control.options, killers)
            if control.options[ETC_DEPTH] > 0 and depths[f] >= control.options[ETC_DEPTH]:
                m, value, exact = _enhanced_cutoff(work, table, frames, f, p, bh, limit)
                if m >= 0:
                    counters[ETC_CUTS] += 1
                    best_hash[f] = hashes[m]  # the root's best move, if the root is cut
                    ret, ret_exact = _tt_store(table, key, value, alphas[f],
                                               betas[f], hashes[m], depths[f],
                                               exact)  # fmt: skip
                    mode = RETURN
                    continue
            # start trying the moves (the pass first if the table says so)
            pass_first[f] = ttm == PASS_HASH
            pass_done[f] = False
            tried[f] = 0
            sorted_lists[f] = False
            bests[f] = -INF
            best_hash[f] = np.uint64(0)
            proved[f] = True
            alpha0s[f] = alphas[f]
            mode = NEXT
        elif mode == NEXT:
            p = players[f]
            m = -1
            if not (pass_first[f] and not pass_done[f]):
                start_f = list_start[f]
                end_f = start_f + list_count[f]
                m = _pick(order_keys, order, start_f, end_f, f, tried, sorted_lists, positions)
                if m < 0 and pass_done[f]:
                    # every move tried: store and return
                    ret, ret_exact = _tt_store(table, keys[f], bests[f], alpha0s[f], betas[f],
                                               best_hash[f], depths[f], proved[f])  # fmt: skip
                    mode = RETURN
                    continue
            tried[f] += 1
            # the child is searched unless the move ends the game or goes out
            if m < 0:
                searched = scoreless_turns[f] + 1 < limit
            else:
                searched = laid[m] != left[p] and (scores[m] > 0 or scoreless_turns[f] + 1 < limit)
            if not other_built[f] and searched:
                # the child needs this frame's list of its mover's moves
                now_empty = root_empty and laid_total == 0
                if not _build_other(work, frames, f, p, now_empty, root_empty, counters):
                    return OVERFLOW, 0, False
            if m < 0:
                # the pass
                pass_done[f] = True
                moves[f] = -1
                move_scores[f] = 0
                ns = scoreless_turns[f] + 1
                if ns >= limit:
                    val = rack_value[1 - p] - rack_value[p]
                    val_exact = True
                    mode = RESULT
                    continue
                dirt[f, :] = 0
                s = 0
            else:
                order_keys[m] = _TAKEN
                moves[f] = m
                s = scores[m]
                move_scores[f] = s
                if laid[m] == left[p]:
                    val = s + 2 * rack_value[1 - p]  # out: the game ends
                    val_exact = True
                    mode = RESULT
                    continue
                _lay(work, m, p, -1)
                bh ^= hashes[m]
                laid_total += laid[m]
                ns = 0 if s > 0 else scoreless_turns[f] + 1
                if ns >= limit:
                    val = s + rack_value[1 - p] - rack_value[p]
                    val_exact = True
                    _lay(work, m, p, 1)
                    bh ^= hashes[m]
                    laid_total -= laid[m]
                    mode = RESULT
                    continue
                dirt[f, :] = 0
                nbound[f] = _touched(board, pool, m, dirt[f], bound[f])
            # the child: the other player, a ply less, the window negated (a null window once
            # this frame has a best move, searched again in full if the value falls inside)
            a = alphas[f] - s
            b = betas[f] - s
            g = f + 1
            players[g] = 1 - p
            depths[g] = depths[f] - 1
            scoreless_turns[g] = ns
            if bests[f] != -INF and b - a > 1:
                null_windows[f] = True
                alphas[g] = -a - 1
                betas[g] = -a
            else:
                null_windows[f] = False
                alphas[g] = -b
                betas[g] = -a
            f = g
            mode = ENTER
        elif mode == RETURN:
            if f == ROOT:
                if best_hash[ROOT] != 0:
                    control.root_best[0] = best_hash[ROOT]
                return DONE, ret, ret_exact
            f -= 1
            val = move_scores[f] - ret
            val_exact = ret_exact
            if null_windows[f] and alphas[f] < val < betas[f]:
                # the null window failed high: search the move again in the full window
                null_windows[f] = False
                s = move_scores[f]
                alphas[f + 1] = -(betas[f] - s)
                betas[f + 1] = -(alphas[f] - s)
                f += 1
                mode = ENTER
                continue
            m = moves[f]
            if m >= 0:
                _lay(work, m, players[f], 1)
                bh ^= hashes[m]
                laid_total -= laid[m]
                if chk > f:
                    if not root_empty:
                        _recheck(work, m, bound[f], nbound[f])
                    chk = f
            elif chk > f:
                # A pass changes no check, but the frame's next move will: the checks
                # must not claim to reflect this frame any more (nor the frames under it,
                # all passes or already taken back).
                chk = f
            mode = RESULT
        else:  # RESULT: the frame's best so far, and a cut when it fails high
            m = moves[f]
            if val > bests[f]:
                bests[f] = val
                best_hash[f] = PASS_HASH if m < 0 else hashes[m]
                if val > alphas[f]:
                    alphas[f] = val
                    if alphas[f] >= betas[f]:
                        # A cut needs only the cutting move's value to be proved: the
                        # moves tried before it do not bound the value from below.
                        proved[f] = val_exact
                        if m >= 0 and killers[f, 0] != hashes[m]:
                            killers[f, 1] = killers[f, 0]
                            killers[f, 0] = hashes[m]
                        ret, ret_exact = _tt_store(table, keys[f], bests[f], alpha0s[f],
                                                   betas[f], best_hash[f], depths[f],
                                                   proved[f])  # fmt: skip
                        mode = RETURN
                        continue
            proved[f] = proved[f] and val_exact
            mode = NEXT
