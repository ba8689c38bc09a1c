"""Numba kernels for Score Four: perft, the paper's static evaluation, alpha-beta, and
the compiled game interface for MCTS (``fast_*``).

Boards are ``uint64[2]`` bead masks indexed by player, with ``heights[peg]``
(beads on each peg) kept beside them. Every bit operation stays in uint64:
numba turns mixed signed/unsigned arithmetic into floats.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from stratagem.core._rng_kernels import below
from stratagem.games.scorefour.board import (
    LINE_COUNT,
    LINE_MASKS,
    LINES_THROUGH,
    SYM_CELL,
    SYM_PEG,
    SYM_PEG_INV,
)

N_LINES = len(LINE_MASKS)
WIN = 1_000_000.0
"""Score of a won position in the search (less the plies it takes)."""
MATE_ZONE = WIN - 1000.0
EXACT, LOWER, UPPER = 0, 1, 2
ZOBRIST = np.random.default_rng(20261201).integers(
    0, np.iinfo(np.uint64).max, size=(64, 2), dtype=np.uint64, endpoint=True
)
CENTRALITY = np.array([LINE_COUNT[p::16].sum() for p in range(16)], dtype=np.float64)
"""Lines through a peg's four cells: the static move order (centre and corners first)."""

U0 = np.uint64(0)
U1 = np.uint64(1)
U16 = np.uint64(16)
LEVEL0 = np.uint64(0xFFFF)
FULL = np.uint64(0xFFFFFFFFFFFFFFFF)
M1 = np.uint64(0x5555555555555555)
M2 = np.uint64(0x3333333333333333)
M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
H01 = np.uint64(0x0101010101010101)
U56 = np.uint64(56)


@njit(cache=True, nogil=True)
def popcount(x):
    x = x - ((x >> U1) & M1)
    x = (x & M2) + ((x >> np.uint64(2)) & M2)
    x = (x + (x >> np.uint64(4))) & M4
    return np.int64((x * H01) >> U56)


@njit(cache=True, nogil=True)
def playable(occupied):
    return ~occupied & ((occupied << U16) | LEVEL0)


@njit(cache=True, nogil=True)
def wins_at(mine, c):
    """True if ``mine`` (which holds cell ``c``) completes a line through ``c``."""
    for j in range(7):
        i = LINES_THROUGH[c, j]
        if i < 0:
            break
        m = LINE_MASKS[i]
        if mine & m == m:
            return True
    return False


@njit(cache=True, nogil=True)
def side_score(mine, theirs, free, mine_to_move, params, scratch):
    """The paper's sum over lines for one side (``free``: cells playable now)."""
    total = 0.0
    n_active = 0
    active_empty = U0
    sleeping_empty = U0
    for i in range(N_LINES):
        m = LINE_MASKS[i]
        if theirs & m:
            continue  # blocked
        a = mine & m
        if a == U0:
            continue
        k = popcount(a)
        if k == 4:
            total += params[0]
        elif k == 3:
            e = m & ~a
            if e & free:
                total += params[1] if mine_to_move else params[2]
                scratch[n_active] = i
                n_active += 1
                active_empty |= e
            else:
                total += params[3]
                sleeping_empty |= e
        elif k == 2:
            pf = popcount(m & ~a & free)
            total += params[4] if pf == 2 else (params[5] if pf == 1 else params[6])
        else:
            total += params[7]
    # V-formation: an active three's empty cell right under a sleeping three's.
    total += params[9] * popcount((active_empty << U16) & sleeping_empty)
    # T-formation: two active threes with different empty cells sharing a bead.
    for x in range(n_active):
        mx = LINE_MASKS[scratch[x]]
        for y in range(x + 1, n_active):
            my = LINE_MASKS[scratch[y]]
            if (mx & my & mine) != U0 and (mx & ~mine) != (my & ~mine):
                total += params[8]
    return total


@njit(cache=True, nogil=True)
def static_value(mine, theirs, mine_to_move, params, scratch):
    """U = own sum - opponent's sum, for the side owning ``mine``."""
    free = playable(mine | theirs)
    return side_score(mine, theirs, free, mine_to_move, params, scratch) - side_score(
        theirs, mine, free, not mine_to_move, params, scratch
    )


@njit(cache=True, nogil=True)
def child_values(b0, b1, player, perspective, params, out):
    """U for ``perspective`` after each move of ``player`` (NaN for a full peg).

    A move that wins also scores ``params[10]`` (the win bonus) for the winner.
    """
    scratch = np.empty(N_LINES, dtype=np.int64)
    occ = b0 | b1
    free = playable(occ)
    for p in range(16):
        c = -1
        for z in range(4):
            if (free >> np.uint64(z * 16 + p)) & U1:
                c = z * 16 + p
        if c < 0:
            out[p] = np.nan
            continue
        cellbit = U1 << np.uint64(c)
        n0 = b0 | cellbit if player == 0 else b0
        n1 = b1 | cellbit if player == 1 else b1
        mine = n0 if perspective == 0 else n1
        theirs = n1 if perspective == 0 else n0
        won = wins_at(n0 if player == 0 else n1, c)
        v = static_value(mine, theirs, perspective != player, params, scratch)
        if won:
            v += params[10] if perspective == player else -params[10]
        out[p] = v


@njit(cache=True, nogil=True)
def perft(beads, heights, player, depth):
    """Move sequences of exactly ``depth`` plies; a won game is not extended."""
    if depth == 0:
        return 1
    n = 0
    for p in range(16):
        h = heights[p]
        if h >= 4:
            continue
        if depth == 1:
            n += 1
            continue
        c = h * 16 + p
        bit = U1 << np.uint64(c)
        beads[player] |= bit
        if not wins_at(beads[player], c):
            heights[p] = h + 1
            n += perft(beads, heights, 1 - player, depth - 1)
            heights[p] = h
        beads[player] ^= bit
    return n


@njit(cache=True, nogil=True)
def _toggle(hashes, c, colour):
    for k in range(8):
        hashes[k] ^= ZOBRIST[SYM_CELL[k, c], colour]


@njit(cache=True, nogil=True)
def hashes_of(beads):
    hashes = np.zeros(8, dtype=np.uint64)
    for colour in range(2):
        for c in range(64):
            if (beads[colour] >> np.uint64(c)) & U1:
                _toggle(hashes, c, colour)
    return hashes


@njit(cache=True, nogil=True)
def _canonical(hashes):
    best = 0
    for k in range(1, 8):
        if hashes[k] < hashes[best]:
            best = k
    return best, hashes[best]


@njit(cache=True, nogil=True)
def _order(moves, n, scores):
    for i in range(1, n):
        m = moves[i]
        s = scores[i]
        j = i - 1
        while j >= 0 and scores[j] < s:
            moves[j + 1] = moves[j]
            scores[j + 1] = scores[j]
            j -= 1
        moves[j + 1] = m
        scores[j + 1] = s


class Table(NamedTuple):
    """What the search keeps between calls: the symmetric transposition table (one slot per
    masked key: the canonical hash ``key``, value ``val``, ``depth`` searched, bound ``flag``
    and best ``move`` in canonical orientation; the length a power of two) and the history
    heuristic's counts ``history[player, peg]`` that order moves."""

    key: np.ndarray
    val: np.ndarray
    depth: np.ndarray
    flag: np.ndarray
    move: np.ndarray
    history: np.ndarray


@njit(cache=True, nogil=True)
def _store(T, slot, key, k, best, best_move, alpha0, beta, depth, ply):
    stored = best
    if stored > MATE_ZONE:
        stored += ply  # mate scores are kept relative to the stored position
    elif stored < -MATE_ZONE:
        stored -= ply
    T.key[slot] = key
    T.val[slot] = stored
    T.depth[slot] = depth
    T.flag[slot] = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
    T.move[slot] = SYM_PEG[k, best_move]


MAX_PLY = 65


@njit(cache=True, nogil=True)
def negamax(beads, heights, player0, depth0, alpha, beta, ply0, params, hashes, T, stats, scratch):
    """Alpha-beta value for ``player0`` to move; ``stats`` = [nodes, node limit, aborted];
    ``T`` is the :class:`Table` read and written.

    Written with an explicit stack, not recursion: numba's on-disk cache of
    recursive functions that call others crashes when it is loaded again.
    On an abort the boards are left mid-search (the caller discards them).
    """
    moves = np.empty((MAX_PLY, 16), dtype=np.int64)
    scores = np.empty(16, dtype=np.float64)
    n_moves = np.zeros(MAX_PLY, dtype=np.int64)
    next_i = np.zeros(MAX_PLY, dtype=np.int64)
    lo = np.empty(MAX_PLY, dtype=np.float64)
    hi = np.empty(MAX_PLY, dtype=np.float64)
    lo0 = np.empty(MAX_PLY, dtype=np.float64)
    best = np.empty(MAX_PLY, dtype=np.float64)
    best_move = np.zeros(MAX_PLY, dtype=np.int64)
    slots = np.zeros(MAX_PLY, dtype=np.int64)
    syms = np.zeros(MAX_PLY, dtype=np.int64)
    keys = np.zeros(MAX_PLY, dtype=np.uint64)
    played = np.zeros(MAX_PLY, dtype=np.int64)
    tt_key, tt_val, tt_depth, tt_flag, tt_move, history = T
    mask = np.uint64(len(tt_key) - 1)
    sp = 0
    lo[0] = alpha
    hi[0] = beta
    mode = 0  # 0: enter node sp; 2: next child of sp; 3: node sp's value is ``value``
    value = 0.0
    while True:
        if mode == 0:
            player = player0 ^ (sp & 1)
            depth = depth0 - sp
            ply = ply0 + sp
            stats[0] += 1
            if stats[0] > stats[1]:
                stats[2] = 1
                return 0.0
            me = beads[player]
            opp = beads[1 - player]
            mode = 2
            if (me | opp) == FULL:
                value = 0.0
                mode = 3
            else:
                # A move that wins at once is the best move; no search needed.
                for p in range(16):
                    h = heights[p]
                    if h < 4:
                        c = h * 16 + p
                        if wins_at(me | (U1 << np.uint64(c)), c):
                            value = WIN - ply - 1
                            mode = 3
                            break
            if mode == 2 and depth <= 0:
                value = static_value(me, opp, True, params, scratch)
                mode = 3
            if mode == 2:
                k, key = _canonical(hashes)
                slot = np.int64(key & mask)
                first = -1
                if tt_key[slot] == key:
                    first = SYM_PEG_INV[k, tt_move[slot]]
                    if tt_depth[slot] >= depth:
                        v = tt_val[slot]
                        if v > MATE_ZONE:
                            v -= ply
                        elif v < -MATE_ZONE:
                            v += ply
                        f = tt_flag[slot]
                        if f == EXACT:
                            value = v
                            mode = 3
                        else:
                            if f == LOWER and v > lo[sp]:
                                lo[sp] = v
                            elif f == UPPER and v < hi[sp]:
                                hi[sp] = v
                            if lo[sp] >= hi[sp]:
                                value = v
                                mode = 3
            if mode == 2:
                n = 0
                for p in range(16):
                    if heights[p] < 4:
                        moves[sp, n] = p
                        scores[n] = 1e12 if p == first else history[player, p] + CENTRALITY[p]
                        n += 1
                _order(moves[sp], n, scores)
                n_moves[sp] = n
                next_i[sp] = 0
                lo0[sp] = lo[sp]
                best[sp] = -np.inf
                best_move[sp] = moves[sp, 0]
                slots[sp] = slot
                syms[sp] = k
                keys[sp] = key
        elif mode == 2:
            i = next_i[sp]
            if i >= n_moves[sp]:
                _store(T, slots[sp], keys[sp], syms[sp], best[sp], best_move[sp], lo0[sp], hi[sp],
                       depth0 - sp, ply0 + sp)  # fmt: skip
                value = best[sp]
                mode = 3
            else:
                next_i[sp] = i + 1
                player = player0 ^ (sp & 1)
                p = moves[sp, i]
                h = heights[p]
                c = h * 16 + p
                beads[player] |= U1 << np.uint64(c)
                heights[p] = h + 1
                _toggle(hashes, c, player)
                played[sp] = p
                sp += 1
                lo[sp] = -hi[sp - 1]
                hi[sp] = -lo[sp - 1]
                mode = 0
        else:
            if sp == 0:
                return value
            sp -= 1
            player = player0 ^ (sp & 1)
            p = played[sp]
            h = heights[p] - 1
            c = h * 16 + p
            beads[player] ^= U1 << np.uint64(c)
            heights[p] = h
            _toggle(hashes, c, player)
            v = -value
            mode = 2
            if v > best[sp]:
                best[sp] = v
                best_move[sp] = p
            if v > lo[sp]:
                lo[sp] = v
            if lo[sp] >= hi[sp]:
                depth = depth0 - sp
                history[player, p] += depth * depth
                _store(T, slots[sp], keys[sp], syms[sp], best[sp], best_move[sp], lo0[sp], hi[sp],
                       depth, ply0 + sp)  # fmt: skip
                value = best[sp]
                mode = 3


@njit(cache=True, nogil=True)
def search_root(beads, heights, player, depth, params, T, max_nodes, out_values):
    """Search to ``depth`` plies with the :class:`Table` ``T``; returns (best peg, value,
    nodes, aborted).

    ``out_values[peg]`` gets each root move's value when ``out_values`` is not
    empty (a full-window search of every move, for advice), else moves are
    searched with alpha-beta and symmetric duplicates of a move are skipped.
    """
    tt_key, tt_val, tt_depth, tt_flag, tt_move, history = T
    stats = np.zeros(3, dtype=np.int64)
    stats[1] = max_nodes
    scratch = np.empty(N_LINES, dtype=np.int64)
    hashes = hashes_of(beads)
    me = beads[player]
    exact = len(out_values) == 16
    # TT move first, then the usual order.
    k, key = _canonical(hashes)
    slot = np.int64(key & np.uint64(len(tt_key) - 1))
    first = SYM_PEG_INV[k, tt_move[slot]] if tt_key[slot] == key else -1
    moves = np.empty(16, dtype=np.int64)
    scores = np.empty(16, dtype=np.float64)
    n = 0
    for p in range(16):
        if heights[p] < 4:
            moves[n] = p
            scores[n] = 1e12 if p == first else history[player, p] + CENTRALITY[p]
            n += 1
    _order(moves, n, scores)
    seen = np.zeros(16, dtype=np.uint64)
    n_seen = 0
    alpha = -np.inf
    best = -np.inf
    best_move = moves[0] if n > 0 else -1
    for i in range(n):
        p = moves[i]
        h = heights[p]
        c = h * 16 + p
        bit = U1 << np.uint64(c)
        if wins_at(me | bit, c):
            v = WIN - 1.0
        else:
            beads[player] |= bit
            heights[p] = h + 1
            _toggle(hashes, c, player)
            ck = _canonical(hashes)[1]
            duplicate = False
            for j in range(n_seen):
                if seen[j] == ck:
                    duplicate = True
            seen[n_seen] = ck
            n_seen += 1
            if duplicate and not exact:
                v = -np.inf
            else:
                hi = np.inf if exact else -alpha
                v = -negamax(beads, heights, 1 - player, depth - 1, -np.inf, hi, 1, params,
                             hashes, T, stats, scratch)  # fmt: skip
            _toggle(hashes, c, player)
            heights[p] = h
            beads[player] ^= bit
            if stats[2]:
                return best_move, best, stats[0], True
        if exact:
            out_values[p] = v
        if v > best:
            best = v
            best_move = p
        if v > alpha:
            alpha = v
    if best_move >= 0:
        tt_key[slot] = key
        tt_val[slot] = best
        tt_depth[slot] = depth
        tt_flag[slot] = EXACT
        tt_move[slot] = SYM_PEG[k, best_move]
    return best_move, best, stats[0], False


# ---------------------------------------------------------------------------
# The compiled game interface of :mod:`stratagem.games.scorefour.fast` (for
# :mod:`stratagem.algorithms.mcts_compiled`): a ``ScoreFourState`` as an int64
# array and the moves of ``ScoreFourState.apply`` over it. They live in this
# file, beside ``wins_at``, because numba's cache and the compiled search's
# pinned kernel keys track a kernel's own file only: a change to the win test
# must recompile the search that inlines it.

FAST_BEADS0 = 0  # X's beads, the uint64 mask's bits as an int64
FAST_BEADS1 = 1  # O's beads
FAST_WINNER = 2  # FAST_IN_PLAY, 0 or 1, or FAST_DRAW
FAST_SIZE = 3
FAST_IN_PLAY = -1
FAST_DRAW = 2

ROLLOUT_RANDOM = 0
ROLLOUT_TACTICAL = 1
TOP_LEVEL = 48
"""The first cell of the top level: a peg is full when its top cell is taken."""


@njit(cache=True, nogil=True)
def fast_occupied(s):
    return np.uint64(s[FAST_BEADS0]) | np.uint64(s[FAST_BEADS1])


@njit(cache=True, nogil=True)
def fast_player(s):
    """The side to move (beads on the board, mod 2), -2 once the game is over."""
    if s[FAST_WINNER] != FAST_IN_PLAY:
        return -2
    return popcount(fast_occupied(s)) & 1


@njit(cache=True, nogil=True)
def fast_legal(s, out):
    """The pegs that are not full, in increasing order (``ScoreFourState.legal_actions``)."""
    if s[FAST_WINNER] != FAST_IN_PLAY:
        return 0
    occ = fast_occupied(s)
    n = 0
    for p in range(16):
        if (occ >> np.uint64(TOP_LEVEL + p)) & U1 == U0:
            out[n] = p
            n += 1
    return n


@njit(cache=True, nogil=True)
def fast_apply(s, code, out):
    """``ScoreFourState.apply``: drop the mover's bead on peg ``code`` (not full)."""
    for i in range(FAST_SIZE):
        out[i] = s[i]
    occ = fast_occupied(s)
    c = code
    while (occ >> np.uint64(c)) & U1:
        c += 16
    bit = U1 << np.uint64(c)
    player = popcount(occ) & 1
    mine = np.uint64(s[FAST_BEADS0 + player]) | bit
    out[FAST_BEADS0 + player] = np.int64(mine)
    if wins_at(mine, c):
        out[FAST_WINNER] = player
    elif occ | bit == FULL:
        out[FAST_WINNER] = FAST_DRAW


@njit(cache=True, nogil=True)
def fast_sample(s, rng):
    """Never called: Score Four has no chance node (the search needs the signature)."""
    return np.int64(0)


@njit(cache=True, nogil=True)
def fast_outcome_index(s, outcome):
    """Never called, as :func:`fast_sample`."""
    return np.int64(0)


@njit(cache=True, nogil=True)
def _write_returns(winner, out):
    if winner == 0 or winner == 1:
        out[winner] = 1.0
        out[1 - winner] = 0.0
    elif winner == FAST_DRAW:
        out[0] = 0.5
        out[1] = 0.5
    else:
        out[0] = 0.0
        out[1] = 0.0


@njit(cache=True, nogil=True)
def fast_returns(s, out):
    """1 to the winner and 0 to the loser, 0.5 each for a draw (0 to both before the end)."""
    _write_returns(s[FAST_WINNER], out)


@njit(cache=True, nogil=True)
def _add_threats(mine, theirs, c, threats):
    """``threats`` (cells where ``mine`` would complete a line) with the lines through ``c``."""
    for j in range(7):
        i = LINES_THROUGH[c, j]
        if i < 0:
            break
        m = LINE_MASKS[i]
        if theirs & m == U0 and popcount(mine & m) == 3:
            threats |= m & ~mine
    return threats


@njit(cache=True, nogil=True)
def _pick(pegs, n, heights, start, cells):
    """The index in ``pegs[:n]`` of the first peg, from ``start`` on, whose drop cell is in
    ``cells`` (-1 if none)."""
    for k in range(n):
        j = start + k
        if j >= n:
            j -= n
        p = pegs[j]
        if (cells >> np.uint64(heights[p] * 16 + p)) & U1:
            return j
    return -1


@njit(cache=True, nogil=True)
def fast_rollout(s, rng, policy, out):
    """Play the encoded state to the end, drawing from ``rng``; write the returns to ``out``.

    ``policy[0]`` is ``ROLLOUT_RANDOM``: a uniformly random open peg, or
    ``ROLLOUT_TACTICAL``: a peg that wins at once, else one that takes a cell
    where the opponent would win at once, else a random peg (the open pegs are
    scanned from a random one, so ties fall at random). The tactical playout
    keeps each side's threats, the empty cells that would complete one of its
    lines, as a mask updated with the lines through each new bead.
    """
    winner = s[FAST_WINNER]
    if winner == FAST_IN_PLAY:
        tactical = policy[0] == ROLLOUT_TACTICAL
        beads = np.empty(2, dtype=np.uint64)
        beads[0] = np.uint64(s[FAST_BEADS0])
        beads[1] = np.uint64(s[FAST_BEADS1])
        occ = beads[0] | beads[1]
        heights = np.empty(16, dtype=np.int64)
        pegs = np.empty(16, dtype=np.int64)  # the open pegs, in no particular order
        n = 0
        for p in range(16):
            h = 0
            while h < 4 and (occ >> np.uint64(h * 16 + p)) & U1:
                h += 1
            heights[p] = h
            if h < 4:
                pegs[n] = p
                n += 1
        threats = np.zeros(2, dtype=np.uint64)
        if tactical:
            for i in range(N_LINES):
                m = LINE_MASKS[i]
                for side in range(2):
                    if beads[1 - side] & m == U0 and popcount(beads[side] & m) == 3:
                        threats[side] |= m & ~beads[side]
        player = popcount(occ) & 1
        while True:
            if n == 0:
                winner = FAST_DRAW
                break
            i = below(rng, n)
            if tactical:
                free = ~occ & ((occ << U16) | LEVEL0)
                if threats[player] & free:
                    i = _pick(pegs, n, heights, i, threats[player])
                elif threats[1 - player] & free:
                    i = _pick(pegs, n, heights, i, threats[1 - player])
            p = pegs[i]
            c = heights[p] * 16 + p
            bit = U1 << np.uint64(c)
            beads[player] |= bit
            occ |= bit
            if wins_at(beads[player], c):
                winner = player
                break
            if tactical:
                threats[0] &= ~bit
                threats[1] &= ~bit
                threats[player] = _add_threats(beads[player], beads[1 - player], c, threats[player])
            heights[p] += 1
            if heights[p] == 4:
                n -= 1
                pegs[i] = pegs[n]
            player = 1 - player
    _write_returns(winner, out)
