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
"""

from __future__ import annotations

import numpy as np
from numba import njit

from stratagem.games.scrabble._kernels import (
    BLANK,
    LENGTH,
    SCORE,
    SIZE,
    STACK_FIELDS,
    _walk,
    distinct_letters,
    square_anchor,
    square_check,
    start_reaches_anchor,
)

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


@njit(cache=True)
def _all_checks(board, board_t, child, terminal, mask, root, values, nletters, empty, cm, cs,
                an):  # fmt: skip
    """Cross-checks and anchors of every square, for both directions (index 0: along
    rows of ``board``; 1: along rows of ``board_t``, that is down)."""
    for r in range(SIZE):
        for c in range(SIZE):
            square_check(board, r, c, child, terminal, mask, root, values, nletters, cm[0],
                          cs[0])  # fmt: skip
            square_check(board_t, r, c, child, terminal, mask, root, values, nletters, cm[1],
                          cs[1])  # fmt: skip
            an[0, r, c] = square_anchor(board, r, c, empty)
            an[1, c, r] = an[0, r, c]


@njit(cache=True)
def _touched(board, m, mv_sq, mv_n, dirt, bound, nb):
    """For move ``m`` (already on ``board``): mark the positions it makes dirty in
    ``dirt`` (30 lines) and list in ``bound`` the empty squares whose cross-check it
    changed (``orientation * 225 + square`` of the oriented board); returns their count."""
    for i in range(mv_n[m]):
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


@njit(cache=True)
def _recheck(board, board_t, m, mv_sq, mv_n, bound, nb, child, terminal, mask, root, values,
             nletters, empty, cm, cs, an):  # fmt: skip
    """Recompute what a move's tiles change: the listed cross-checks, and the anchors
    around its squares (after laying it, and again after taking it back)."""
    for k in range(nb):
        o = bound[k] // (SIZE * SIZE)
        sq = bound[k] % (SIZE * SIZE)
        if o == 0:
            square_check(board, sq // SIZE, sq % SIZE, child, terminal, mask, root, values,
                          nletters, cm[0], cs[0])  # fmt: skip
        else:
            square_check(board_t, sq // SIZE, sq % SIZE, child, terminal, mask, root, values,
                          nletters, cm[1], cs[1])  # fmt: skip
    for i in range(mv_n[m]):
        sq = mv_sq[m, i]
        r0 = sq // SIZE
        c0 = sq % SIZE
        for k in range(5):
            r = r0 + (k == 1) - (k == 2)
            c = c0 + (k == 3) - (k == 4)
            if 0 <= r < SIZE and 0 <= c < SIZE:
                an[0, r, c] = square_anchor(board, r, c, empty)
                an[1, c, r] = an[0, r, c]
        # a tile laid or lifted also changes its own square's checks (filled: none)
        square_check(board, r0, c0, child, terminal, mask, root, values, nletters, cm[0],
                      cs[0])  # fmt: skip
        square_check(board_t, c0, r0, child, terminal, mask, root, values, nletters, cm[1],
                      cs[1])  # fmt: skip


@njit(cache=True)
def _gen_line(
    board, lm, wm, r, down, dirty, child, terminal, mask, root, values, nletters, rack, tiles,
    rack_letters, n_rack_letters, bingo, empty, loc, zb, cmask, csum, anchor, word, st, best,
    tmp_info, tmp_word, mv_sq, mv_code, mv_n, mv_score, mv_hash, mv_need, mv_line, mv_lo, mv_hi,
    top,
):  # fmt: skip
    """Append the moves of line ``r`` (a row of ``board``, the transposed board when
    ``down``) whose main word widened by one square meets a ``dirty`` position.
    Returns the new top of the pool, or -1 when a buffer is too small."""
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
        count = _walk(
            board, lm, wm, cmask, csum, anchor, child, terminal, mask, values, nletters, rack,
            root, r, s, tiles, down, bingo, word, False, tmp_info, tmp_word, 0, best, st,
            rack_letters, n_rack_letters,
        )  # fmt: skip
        if count > tmp_info.shape[0]:
            return -1
        for k in range(count):
            length = tmp_info[k, LENGTH]
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
                    code = tmp_word[k, i]
                    sq = c * SIZE + r if down else r * SIZE + c
                    mv_sq[top, n] = sq
                    mv_code[top, n] = code
                    h ^= zb[sq, code]
                    slot = nletters if code >= BLANK else code
                    need += 1 << (4 * loc[slot])
                    n += 1
            mv_n[top] = n
            mv_score[top] = tmp_info[k, SCORE]
            mv_hash[top] = h
            mv_need[top] = need
            mv_line[top] = down * SIZE + r
            mv_lo[top] = s
            mv_hi[top] = s + length - 1
            top += 1
    return top


@njit(cache=True)
def _generate(
    board, board_t, lm, wm, lm_t, wm_t, dirt, child, terminal, mask, root, values, nletters,
    rack, bingo, empty, loc, zb, cm, cs, an, tmp_info, tmp_word, mv_sq, mv_code, mv_n,
    mv_score, mv_hash, mv_need, mv_line, mv_lo, mv_hi, top,
):  # fmt: skip
    """Append the moves of ``rack`` that meet a dirty position of ``dirt`` (30 lines);
    ``cm``, ``cs``, ``an`` are the cross-checks and anchors of :func:`_all_checks`."""
    word = np.full(SIZE, -1, dtype=np.int8)
    st = np.zeros((SIZE + 2, STACK_FIELDS), dtype=np.int64)
    best = np.zeros(6 + SIZE, dtype=np.int32)
    tiles = 0
    for i in range(rack.shape[0]):
        tiles += rack[i]
    if tiles == 0:
        return top
    rack_letters, n_rack_letters = distinct_letters(rack, nletters)
    for line in range(NLINES):
        if dirt[line] == 0:
            continue
        if line < SIZE:
            top = _gen_line(
                board, lm, wm, line, 0, dirt[line], child, terminal, mask, root, values,
                nletters, rack, tiles, rack_letters, n_rack_letters, bingo, empty, loc, zb,
                cm[0], cs[0], an[0], word, st, best, tmp_info, tmp_word, mv_sq, mv_code, mv_n,
                mv_score, mv_hash, mv_need, mv_line, mv_lo, mv_hi, top,
            )  # fmt: skip
        else:
            top = _gen_line(
                board_t, lm_t, wm_t, line - SIZE, 1, dirt[line], child, terminal, mask, root,
                values, nletters, rack, tiles, rack_letters, n_rack_letters, bingo, empty, loc,
                zb, cm[1], cs[1], an[1], word, st, best, tmp_info, tmp_word, mv_sq, mv_code,
                mv_n, mv_score, mv_hash, mv_need, mv_line, mv_lo, mv_hi, top,
            )  # fmt: skip
        if top < 0:
            return -1
    return top


@njit(cache=True, nogil=True)
def root_lists(
    board, lm, wm, child, terminal, mask, root, values, nletters, racks, bingo, loc, zb,
    tmp_info, tmp_word, mv_sq, mv_code, mv_n, mv_score, mv_hash, mv_need, mv_line, mv_lo,
    mv_hi, f_start, f_count,
):  # fmt: skip
    """Every move of each player's rack on the starting board, into frames 0 (player 0)
    and 1 (player 1). Returns the pool's top, or -1 when a buffer is too small."""
    board_t = board.T.copy()
    lm_t = lm.T.copy()
    wm_t = wm.T.copy()
    empty = True
    for r in range(SIZE):
        for c in range(SIZE):
            if board[r, c] >= 0:
                empty = False
    dirt = np.full(NLINES, (1 << SIZE) - 1, dtype=np.int64)
    cm = np.zeros((2, SIZE, SIZE), dtype=np.uint64)
    cs = np.zeros((2, SIZE, SIZE), dtype=np.int32)
    an = np.zeros((2, SIZE, SIZE), dtype=np.bool_)
    _all_checks(board, board_t, child, terminal, mask, root, values, nletters, empty, cm, cs, an)
    top = 0
    for p in range(2):
        rack = racks[p].copy()
        f_start[p] = top
        top = _generate(
            board, board_t, lm, wm, lm_t, wm_t, dirt, child, terminal, mask, root, values,
            nletters, rack, bingo, empty, loc[p], zb, cm, cs, an, tmp_info, tmp_word, mv_sq,
            mv_code, mv_n, mv_score, mv_hash, mv_need, mv_line, mv_lo, mv_hi, top,
        )  # fmt: skip
        if top < 0:
            return -1
        f_count[p] = top - f_start[p]
    return top


@njit(cache=True)
def _lay(m, p, sign, board, board_t, racks, rv, have, left, slot_values, nletters, mv_sq,
         mv_code, mv_n, mv_need):  # fmt: skip
    """Lay move ``m`` of player ``p`` (``sign`` -1) or take it back (``sign`` +1)."""
    for i in range(mv_n[m]):
        sq = mv_sq[m, i]
        code = mv_code[m, i]
        put = code if sign < 0 else -1
        board[sq // SIZE, sq % SIZE] = put
        board_t[sq % SIZE, sq // SIZE] = put
        slot = nletters if code >= BLANK else code
        racks[p, slot] += sign
        rv[p] += sign * slot_values[slot]
    have[p] += sign * mv_need[m]
    left[p] += sign * mv_n[m]


@njit(cache=True)
def _inherit(src, count, hv, dirt, mv_sq, mv_code, mv_n, mv_score, mv_hash, mv_need, mv_line,
             mv_lo, mv_hi, top):  # fmt: skip
    """Copy to ``top`` the moves of the list at ``src`` (``count`` long) that the rack
    packed in ``hv`` still holds and whose main word, widened by one square, meets no
    position of ``dirt``. Returns the new top, or -1 when the pool is too small."""
    for m in range(src, src + count):
        if ((hv | _GUARD) - mv_need[m]) & _GUARD != _GUARD:
            continue
        lo = mv_lo[m] - 1 if mv_lo[m] > 0 else 0
        span = ((1 << (mv_hi[m] + 2)) - 1) ^ ((1 << lo) - 1)
        if dirt[mv_line[m]] & span:
            continue
        if top >= mv_sq.shape[0]:
            return -1
        for i in range(mv_n[m]):
            mv_sq[top, i] = mv_sq[m, i]
            mv_code[top, i] = mv_code[m, i]
        mv_n[top] = mv_n[m]
        mv_score[top] = mv_score[m]
        mv_hash[top] = mv_hash[m]
        mv_need[top] = mv_need[m]
        mv_line[top] = mv_line[m]
        mv_lo[top] = mv_lo[m]
        mv_hi[top] = mv_hi[m]
        top += 1
    return top


@njit(cache=True)
def _derive(
    src, count, p, dirt, top, board, board_t, lm, wm, lm_t, wm_t, child, terminal, mask, root,
    values, nletters, racks, have, bingo, now_empty, loc, zb, cm, cs, an, tmp_info, tmp_word,
    mv_sq, mv_code, mv_n, mv_score, mv_hash, mv_need, mv_line, mv_lo, mv_hi, counters,
):  # fmt: skip
    """Player ``p``'s list on ``board``, at ``top`` of the pool: the moves of the list at
    ``src`` (``count`` long, the same player's on an earlier board) that :func:`_inherit`
    keeps, then the moves through the positions of ``dirt``. Returns the new top (-1 when
    a buffer is too small) and counts the moves generated in ``counters[3]``."""
    top = _inherit(src, count, have[p], dirt, mv_sq, mv_code, mv_n, mv_score, mv_hash, mv_need,
                   mv_line, mv_lo, mv_hi, top)  # fmt: skip
    if top < 0:
        return -1
    gen_from = top
    top = _generate(
        board, board_t, lm, wm, lm_t, wm_t, dirt, child, terminal, mask, root, values, nletters,
        racks[p], bingo, now_empty, loc[p], zb, cm, cs, an, tmp_info, tmp_word, mv_sq, mv_code,
        mv_n, mv_score, mv_hash, mv_need, mv_line, mv_lo, mv_hi, top,
    )  # fmt: skip
    if top >= 0:
        counters[3] += top - gen_from
    return top


@njit(cache=True)
def _tt_store(tt_key, tt_value, tt_move, tt_depth, tt_flag, tt_exact, key, value, alpha, beta,
              move, depth, exact):  # fmt: skip
    """Record a finished node's ``value`` and best ``move`` in ``key``'s slot of the
    transposition table.

    ``value`` found in the window (``alpha``, ``beta``) the node was entered with is
    an upper bound at or below ``alpha``, a lower bound at or above ``beta``, else
    exact. An entry proved to the end (``exact``) of the same key is not replaced by
    one that is not. Returns ``(value, exact)``, what the node hands back to its parent."""
    idx = key & np.uint64(tt_key.shape[0] - 1)
    if not (tt_key[idx] == key and tt_exact[idx] and not exact):
        tt_key[idx] = key
        tt_value[idx] = value
        tt_move[idx] = move
        tt_depth[idx] = depth
        tt_flag[idx] = UPPER if value <= alpha else (LOWER if value >= beta else EXACT)
        tt_exact[idx] = exact
    return value, exact


@njit(cache=True)
def _build_other(
    f, p, MS, MC, FREE, MBUILT, f_start, f_count, DIRT, board, board_t, lm, wm, lm_t, wm_t,
    child, terminal, mask, root, values, nletters, racks, have, bingo, now_empty, root_empty,
    loc, zb, cm, cs, an, tmp_info, tmp_word, mv_sq, mv_code, mv_n, mv_score, mv_hash, mv_need,
    mv_line, mv_lo, mv_hi, counters,
):  # fmt: skip
    """Build frame ``f``'s list of the other player's moves on its board (``M``), from the
    parent's own list, when its first child is about to be searched (a node that cuts on
    a move going out never needs it; a node with less than two plies to go never builds
    it). The cross-checks reflect ``f``'s board here. Returns False if the pool is full."""
    MBUILT[f] = True
    pf = f - 1
    if root_empty:
        _all_checks(board, board_t, child, terminal, mask, root, values, nletters, now_empty,
                    cm, cs, an)  # fmt: skip
    top = _derive(
        f_start[pf], f_count[pf], 1 - p, DIRT[pf], MS[f], board, board_t, lm, wm, lm_t, wm_t,
        child, terminal, mask, root, values, nletters, racks, have, bingo, now_empty, loc, zb,
        cm, cs, an, tmp_info, tmp_word, mv_sq, mv_code, mv_n, mv_score, mv_hash, mv_need,
        mv_line, mv_lo, mv_hi, counters,
    )  # fmt: skip
    if top < 0:
        return False
    MC[f] = top - MS[f]
    FREE[f] = top
    return True


@njit(cache=True, nogil=True)
def search(
    depth0, root_player, scoreless0, limit, board, lm, wm, child, terminal, mask, root, values,
    slot_values, nletters, racks, bingo, loc, zb, tmp_info, tmp_word, mv_sq, mv_code, mv_n,
    mv_score, mv_hash, mv_need, mv_line, mv_lo, mv_hi, okey, order, f_start, f_count,
    tt_key, tt_value, tt_move, tt_depth, tt_flag, tt_exact, counters, stop, root_best,
    killers, options, bh0, alpha0, beta0,
):  # fmt: skip
    """One iteration of the negamax to ``depth0`` plies from the root (frame 2), in the
    window (``alpha0``, ``beta0``).

    ``limit`` is the number of scoreless turns that ends the game. Returns
    ``(status, value, exact)``: the mover's net gain from here under best play (a value
    at or below ``alpha0`` is only an upper bound of it, one at or above ``beta0`` a lower
    bound; ``exact``: proved to the end of the game, not cut at the depth).
    ``counters`` counts nodes, lists built, moves in them and moves generated
    afresh, keeps the deepest ply entered (``counters[4]``) and counts the enhanced
    transposition cutoffs (``counters[5]``, ``options[2]``); ``stop[0]`` set by
    another thread aborts the search (status ``ABORTED``), and so does a node count
    (all iterations so far) reaching ``stop[1]`` when that is positive (checked every
    1,024 nodes, so the same search stops at the same node on any machine);
    ``root_best[0]`` receives the hash of the root's best move (``PASS_HASH`` for the
    pass). ``killers`` (two per frame) and ``options``
    (bonus per tile laid, bonus of a killer, depth of the enhanced cutoffs) steer the
    move ordering. ``bh0`` is the
    Zobrist hash of the tiles laid between the board the table was started on and
    ``board`` (0 for a fresh table): a table kept from an earlier search of the same
    endgame, whose ``racks`` were packed with the same ``loc``, goes on serving.
    """
    board = board.copy()
    board_t = board.T.copy()
    lm_t = lm.T.copy()
    wm_t = wm.T.copy()
    racks = racks.copy()
    ttmask = np.uint64(tt_key.shape[0] - 1)
    have = np.zeros(2, dtype=np.int64)
    rv = np.zeros(2, dtype=np.int64)
    left = np.zeros(2, dtype=np.int64)
    for p in range(2):
        for slot in range(nletters + 1):
            n = racks[p, slot]
            have[p] += n << (4 * loc[p, slot])
            rv[p] += n * slot_values[slot]
            left[p] += n
    root_empty = True
    for r in range(SIZE):
        for c in range(SIZE):
            if board[r, c] >= 0:
                root_empty = False
    laid_total = 0
    chk = ROOT  # the cross-checks reflect the moves of frames ROOT .. chk - 1
    cm = np.zeros((2, SIZE, SIZE), dtype=np.uint64)
    cs = np.zeros((2, SIZE, SIZE), dtype=np.int32)
    an = np.zeros((2, SIZE, SIZE), dtype=np.bool_)
    _all_checks(board, board_t, child, terminal, mask, root, values, nletters, root_empty, cm,
                cs, an)  # fmt: skip

    F = MAX_FRAMES
    P = np.zeros(F, dtype=np.int64)
    D = np.zeros(F, dtype=np.int64)
    A = np.zeros(F, dtype=np.int64)
    B = np.zeros(F, dtype=np.int64)
    A0 = np.zeros(F, dtype=np.int64)
    SL = np.zeros(F, dtype=np.int64)
    BEST = np.zeros(F, dtype=np.int64)
    BESTH = np.zeros(F, dtype=np.uint64)
    EX = np.zeros(F, dtype=np.bool_)
    KEY = np.zeros(F, dtype=np.uint64)
    TRIED = np.zeros(F, dtype=np.int64)
    SORTED = np.zeros(F, dtype=np.bool_)
    POS = np.zeros(F, dtype=np.int64)
    PASSFIRST = np.zeros(F, dtype=np.bool_)
    PASSDONE = np.zeros(F, dtype=np.bool_)
    CUR = np.zeros(F, dtype=np.int64)
    CURSCORE = np.zeros(F, dtype=np.int64)
    NULLW = np.zeros(F, dtype=np.bool_)
    DIRT = np.zeros((F, NLINES), dtype=np.int64)  # positions made dirty by the frame's move
    BOUND = np.zeros((F, 4 * 7), dtype=np.int64)  # cross-checks the frame's move changed
    NB = np.zeros(F, dtype=np.int64)
    MS = np.zeros(F, dtype=np.int64)  # the other player's list on the frame's board
    MC = np.zeros(F, dtype=np.int64)
    FREE = np.zeros(F, dtype=np.int64)  # where the pool is free above the frame's lists
    MBUILT = np.zeros(F, dtype=np.bool_)  # the frame's M list is built (or not needed)
    # Frame ROOT - 1 stands for the position before the root, reached by a pass: its own
    # list is the opponent's (frame 1), the list it keeps for the root's mover is frame 0.
    MS[ROOT - 1] = f_start[0]
    MC[ROOT - 1] = f_count[0]
    FREE[ROOT - 1] = max(f_start[0] + f_count[0], f_start[1] + f_count[1])
    bh = np.uint64(bh0)

    f = ROOT
    P[f] = root_player
    D[f] = depth0
    A[f] = alpha0
    B[f] = beta0
    SL[f] = scoreless0
    ENTER, NEXT, RETURN, RESULT = 0, 1, 2, 3
    mode = ENTER
    ret = 0
    ret_exact = True
    val = 0
    val_exact = True
    while True:
        if mode == ENTER:
            counters[0] += 1
            if f - ROOT > counters[4]:
                counters[4] = f - ROOT
            if (counters[0] & 1023) == 0 and (stop[0] or (stop[1] > 0 and counters[0] >= stop[1])):
                return ABORTED, 0, False
            p = P[f]
            q = 1 - p
            key = node_key(bh, have[0], have[1], p, SL[f])
            KEY[f] = key
            idx = key & ttmask
            ttm = np.uint64(0)
            if tt_key[idx] == key:
                ttm = tt_move[idx]
                if f == ROOT:
                    root_best[0] = ttm
                if tt_exact[idx] or tt_depth[idx] >= D[f]:
                    v = tt_value[idx]
                    fl = tt_flag[idx]
                    if fl == EXACT or (fl == LOWER and v >= B[f]) or (fl == UPPER and v <= A[f]):
                        ret = v
                        ret_exact = tt_exact[idx]
                        mode = RETURN
                        continue
            if D[f] == 0:
                # Beyond the horizon: valued as if both passed to the end (not exact).
                ret = rv[q] - rv[p]
                ret_exact = False
                mode = RETURN
                continue
            # The lists, from the parent's: the mover's (``L``) is the list the parent
            # frame kept for this player (``M``) on its board, minus the moves that the
            # parent's move touched, plus the moves through what it touched; and where
            # this node's children will need theirs (two plies or more to go), the other
            # player's list on this board (``M``), from the parent's own list the same way.
            # Built once here, ``M`` serves every child (the parent's move is regenerated
            # once per node, not once per grandchild).
            pf = f - 1
            dirt = DIRT[pf]
            now_empty = root_empty and laid_total == 0
            # The cross-checks are brought up to date only here, where they are used
            # (a leaf's moves never need them).
            if root_empty:
                _all_checks(board, board_t, child, terminal, mask, root, values, nletters,
                            now_empty, cm, cs, an)  # fmt: skip
            else:
                for g in range(chk, f):
                    if CUR[g] >= 0:
                        _recheck(
                            board, board_t, CUR[g], mv_sq, mv_n, BOUND[g], NB[g], child,
                            terminal, mask, root, values, nletters, False, cm, cs, an,
                        )  # fmt: skip
            chk = f
            start = FREE[pf]
            top = _derive(
                MS[pf], MC[pf], p, dirt, start, board, board_t, lm, wm, lm_t, wm_t, child,
                terminal, mask, root, values, nletters, racks, have, bingo, now_empty, loc, zb,
                cm, cs, an, tmp_info, tmp_word, mv_sq, mv_code, mv_n, mv_score, mv_hash, mv_need,
                mv_line, mv_lo, mv_hi, counters,
            )  # fmt: skip
            if top < 0:
                return OVERFLOW, 0, False
            f_start[f] = start
            f_count[f] = top - start
            MS[f] = top
            MC[f] = 0
            MBUILT[f] = D[f] < 2  # the other player's list is built when a child needs it
            FREE[f] = top
            start = f_start[f]
            top = start + f_count[f]
            counters[1] += 1
            counters[2] += top - start
            out_bonus = OUT_BONUS + 2 * rv[q]
            k0 = killers[f, 0]
            k1 = killers[f, 1]
            for m in range(start, top):
                k = mv_score[m] + options[0] * mv_n[m]
                if mv_hash[m] == k0 or mv_hash[m] == k1:
                    k += options[1]
                if mv_n[m] == left[p]:
                    k += out_bonus
                if ttm != 0 and mv_hash[m] == ttm:
                    k = INF
                okey[m] = k
            if options[2] > 0 and D[f] >= options[2]:
                # Enhanced transposition cutoff: a child already in the table at an
                # upper bound low enough for this node to fail high cuts it unsearched.
                cut = -1
                cut_value = 0
                cut_exact = False
                for m in range(start, top):
                    s = mv_score[m]
                    ns = 0 if s > 0 else SL[f] + 1
                    if mv_n[m] == left[p] or ns >= limit:
                        continue  # the game ends: no child in the table
                    h0 = have[0] - mv_need[m] if p == 0 else have[0]
                    h1 = have[1] - mv_need[m] if p == 1 else have[1]
                    ck = node_key(bh ^ mv_hash[m], h0, h1, q, ns)
                    ci = ck & ttmask
                    if tt_key[ci] != ck:
                        continue
                    if tt_flag[ci] == LOWER or not (tt_exact[ci] or tt_depth[ci] >= D[f] - 1):
                        continue
                    if s - tt_value[ci] >= B[f]:
                        cut = m
                        cut_value = s - tt_value[ci]
                        cut_exact = tt_exact[ci]
                        break
                if cut >= 0:
                    counters[5] += 1
                    BESTH[f] = mv_hash[cut]  # the root's best move, if the root is cut
                    ret, ret_exact = _tt_store(
                        tt_key, tt_value, tt_move, tt_depth, tt_flag, tt_exact, key, cut_value,
                        A[f], B[f], mv_hash[cut], D[f], cut_exact)  # fmt: skip
                    mode = RETURN
                    continue
            PASSFIRST[f] = ttm == PASS_HASH
            PASSDONE[f] = False
            TRIED[f] = 0
            SORTED[f] = False
            BEST[f] = -INF
            BESTH[f] = np.uint64(0)
            EX[f] = True
            A0[f] = A[f]
            mode = NEXT
        elif mode == NEXT:
            p = P[f]
            q = 1 - p
            start = f_start[f]
            end = start + f_count[f]
            m = -1
            if not (PASSFIRST[f] and not PASSDONE[f]):
                if TRIED[f] < _PICK_LINEAR:
                    bestk = -INF - 1
                    for j in range(start, end):
                        if okey[j] > bestk:
                            bestk = okey[j]
                            m = j
                else:
                    if not SORTED[f]:
                        o = np.argsort(-okey[start:end], kind="mergesort")
                        for j in range(end - start):
                            order[start + j] = start + o[j]
                        SORTED[f] = True
                        POS[f] = start
                    while POS[f] < end and okey[order[POS[f]]] == -INF - 1:
                        POS[f] += 1
                    if POS[f] < end:
                        m = order[POS[f]]
                        POS[f] += 1
                if m >= 0 and okey[m] == -INF - 1:
                    m = -1
                if m < 0 and PASSDONE[f]:
                    # every move tried: store and return
                    ret, ret_exact = _tt_store(
                        tt_key, tt_value, tt_move, tt_depth, tt_flag, tt_exact, KEY[f], BEST[f],
                        A0[f], B[f], BESTH[f], D[f], EX[f])  # fmt: skip
                    mode = RETURN
                    continue
            TRIED[f] += 1
            if not MBUILT[f]:
                # the child will be searched (the move neither ends the game nor goes
                # out): it needs this frame's list of its mover's moves
                if m < 0:
                    searched = SL[f] + 1 < limit
                else:
                    searched = mv_n[m] != left[p] and (mv_score[m] > 0 or SL[f] + 1 < limit)
                if searched:
                    now_empty = root_empty and laid_total == 0
                    if not _build_other(
                        f, p, MS, MC, FREE, MBUILT, f_start, f_count, DIRT, board, board_t,
                        lm, wm, lm_t, wm_t, child, terminal, mask, root, values, nletters,
                        racks, have, bingo, now_empty, root_empty, loc, zb, cm, cs, an,
                        tmp_info, tmp_word, mv_sq, mv_code, mv_n, mv_score, mv_hash, mv_need,
                        mv_line, mv_lo, mv_hi, counters,
                    ):  # fmt: skip
                        return OVERFLOW, 0, False
            if m < 0:
                # the pass
                PASSDONE[f] = True
                CUR[f] = -1
                CURSCORE[f] = 0
                ns = SL[f] + 1
                if ns >= limit:
                    val = rv[q] - rv[p]
                    val_exact = True
                    mode = RESULT
                    continue
                for line in range(NLINES):
                    DIRT[f, line] = 0
                s = 0
            else:
                okey[m] = -INF - 1
                CUR[f] = m
                s = mv_score[m]
                CURSCORE[f] = s
                if mv_n[m] == left[p]:
                    val = s + 2 * rv[q]  # out: the game ends
                    val_exact = True
                    mode = RESULT
                    continue
                _lay(m, p, -1, board, board_t, racks, rv, have, left, slot_values, nletters,
                     mv_sq, mv_code, mv_n, mv_need)  # fmt: skip
                bh ^= mv_hash[m]
                laid_total += mv_n[m]
                ns = 0 if s > 0 else SL[f] + 1
                if ns >= limit:
                    val = s + rv[q] - rv[p]
                    val_exact = True
                    _lay(m, p, 1, board, board_t, racks, rv, have, left, slot_values, nletters,
                         mv_sq, mv_code, mv_n, mv_need)  # fmt: skip
                    bh ^= mv_hash[m]
                    laid_total -= mv_n[m]
                    mode = RESULT
                    continue
                for line in range(NLINES):
                    DIRT[f, line] = 0
                NB[f] = _touched(board, m, mv_sq, mv_n, DIRT[f], BOUND[f], 0)
            a = A[f] - s
            b = B[f] - s
            g = f + 1
            P[g] = q
            D[g] = D[f] - 1
            SL[g] = ns
            if BEST[f] != -INF and b - a > 1:
                NULLW[f] = True
                A[g] = -a - 1
                B[g] = -a
            else:
                NULLW[f] = False
                A[g] = -b
                B[g] = -a
            f = g
            mode = ENTER
        elif mode == RETURN:
            if f == ROOT:
                if BESTH[ROOT] != 0:
                    root_best[0] = BESTH[ROOT]
                return DONE, ret, ret_exact
            f -= 1
            val = CURSCORE[f] - ret
            val_exact = ret_exact
            if NULLW[f] and A[f] < val < B[f]:
                NULLW[f] = False
                s = CURSCORE[f]
                g = f + 1
                A[g] = -(B[f] - s)
                B[g] = -(A[f] - s)
                f = g
                mode = ENTER
                continue
            m = CUR[f]
            if m >= 0:
                _lay(m, P[f], 1, board, board_t, racks, rv, have, left, slot_values, nletters,
                     mv_sq, mv_code, mv_n, mv_need)  # fmt: skip
                bh ^= mv_hash[m]
                laid_total -= mv_n[m]
                if chk > f:
                    if not root_empty:
                        _recheck(
                            board, board_t, m, mv_sq, mv_n, BOUND[f], NB[f], child, terminal,
                            mask, root, values, nletters, False, cm, cs, an,
                        )  # fmt: skip
                    chk = f
            elif chk > f:
                # A pass changes no check, but the frame's next move will: the checks
                # must not claim to reflect this frame any more (nor the frames under it,
                # all passes or already taken back).
                chk = f
            mode = RESULT
        else:  # RESULT
            if val > BEST[f]:
                BEST[f] = val
                BESTH[f] = PASS_HASH if CUR[f] < 0 else mv_hash[CUR[f]]
                if val > A[f]:
                    A[f] = val
                    if A[f] >= B[f]:
                        # A cut needs only the cutting move's value to be proved: the
                        # moves tried before it do not bound the value from below.
                        EX[f] = val_exact
                        if CUR[f] >= 0 and killers[f, 0] != mv_hash[CUR[f]]:
                            killers[f, 1] = killers[f, 0]
                            killers[f, 0] = mv_hash[CUR[f]]
                        ret, ret_exact = _tt_store(
                            tt_key, tt_value, tt_move, tt_depth, tt_flag, tt_exact, KEY[f], BEST[f],
                            A0[f], B[f], BESTH[f], D[f], EX[f])  # fmt: skip
                        mode = RETURN
                        continue
            EX[f] = EX[f] and val_exact
            mode = NEXT
