"""Numba kernels for two-player Yahtzee: the win-seeking and the risk-taking
players' decisions and a compiled match loop; nothing else.

A *card* is a row ``(mask, upper total capped at the threshold, Yahtzee flag,
points so far with bonuses)``. Each seat throws its own dice from its own
SplitMix64 stream (``rng[g, seat]``), so a game can be replayed, mirrored or
continued from a saved position.

The remaining-score tables ``T = (sid, offsets, lows, lengths, data)`` are those
of :func:`stratagem.games.yahtzee.distribution.remaining_distributions` under the
optimal policy; ``R`` is the rules of :mod:`._dist_kernels` (a ``KernelRules``).
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from stratagem.core._rng_kernels import below_at
from stratagem.games.yahtzee._dist_kernels import _keep_of, _most_common_face, most_points
from stratagem.games.yahtzee._kernels import (
    I_THRESHOLD,
    I_UBONUS,
    I_YCAT,
    NUM_KEEPS,
    ROLL_START,
    _best_keep,
    best_box,
    best_subkeep,
    category_points,
    expect,
    turn_tables,
)
from stratagem.games.yahtzee.policy_ids import FW_LEN
from stratagem.games.yahtzee.policy_ids import MATCH_OPTIMAL as OPTIMAL
from stratagem.games.yahtzee.policy_ids import MATCH_RISK as RISK
from stratagem.games.yahtzee.policy_ids import MATCH_WIN as WIN

__all__ = ["FW_LEN", "OPTIMAL", "RISK", "WIN"]
MAX_POINTS = 256


@njit(cache=True)
def _die(rng, g, seat):
    """One die (1..6) from the SplitMix64 stream ``rng[g, seat]``."""
    return below_at(rng, (g, seat), 6) + 1


@njit(cache=True)
def opponent_table(opp_total, opp_sid, offsets, lows, lengths, data, fw):
    """fw[x] = P(opponent's final < x) + P(opponent's final = x) / 2."""
    off = offsets[opp_sid]
    base = opp_total + lows[opp_sid]
    n = lengths[opp_sid]
    acc = 0.0
    for x in range(fw.shape[0]):
        j = x - base
        p = 0.0
        if 0 <= j < n:
            p = data[off + j]
        fw[x] = acc + 0.5 * p
        acc += p


@njit(cache=True)
def _win_value(total, s, offsets, lows, lengths, data, fw):
    """P(win) + P(tie) / 2 when our points so far are ``total`` and our state is ``s``."""
    off = offsets[s]
    base = total + lows[s]
    top = fw.shape[0]
    acc = 0.0
    for j in range(lengths[s]):
        x = base + j
        acc += data[off + j] * (fw[x] if x < top else 1.0)
    return acc


@njit(cache=True)
def win_turn_tables(mask, u, y, total, fw, T, R, tables, M, memo):
    """Win-probability tables for one turn of the win-seeking player, into the turn's
    ``tables = (W, E0, E1, ceil, cat)`` (as :func:`play_turn` reads them; ``ceil`` is the
    risk-taker's and is left alone); ``M`` and ``memo`` are scratch.

    ``W[r]``/``cat[r]``: the best box of final roll r and its win chance;
    ``E0[k]``, ``E1[k]``: the win chance of keeping k with one and two rolls
    left. After this turn both players are assumed to play the optimal
    (expected-score) strategy, whose remaining-score distributions are known.
    """
    W, E0, E1, _ceil, cat = tables
    sid, offsets, lows, lengths, data = T
    score, upper_face, joker_score = R.score, R.upper_face, R.joker_score
    counts, ip = R.counts, R.ip
    add, sub, sub_count = R.add, R.sub, R.sub_count
    memo[:, :] = -1.0
    for r in range(ROLL_START, NUM_KEEPS):
        best = -1.0
        best_c = -1
        for c in range(score.shape[0]):
            pts, nu, ny, legal = category_points(mask, u, y, c, r, score, upper_face,
                                                 joker_score, counts, ip)  # fmt: skip
            if not legal:
                continue
            v = memo[c, pts]
            if v < 0.0:
                s = sid[mask | (1 << c), nu, ny]
                v = _win_value(total + pts, s, offsets, lows, lengths, data, fw)
                memo[c, pts] = v
            if v > best:
                best = v
                best_c = c
        W[r] = best
        cat[r] = best_c
    expect(W, add, E0)
    best_subkeep(E0, sub, sub_count, M)
    expect(M, add, E1)


@njit(cache=True)
def _ceiling(mask, u, y, score, upper_face, joker_score, counts, ip, add, C):
    """C[k]: the most points (with bonuses) any completion of keep k can score now."""
    for r in range(ROLL_START, NUM_KEEPS):
        C[r] = most_points(mask, u, y, r, score, upper_face, joker_score, counts, ip)[1]
    for k in range(ROLL_START - 1, -1, -1):
        top = 0.0
        for f in range(6):
            v = C[add[k, f]]
            if v > top:
                top = v
        C[k] = top


@njit(cache=True)
def _distance(a, b, counts):
    d = 0
    for f in range(6):
        x = counts[a, f] - counts[b, f]
        d += x if x > 0 else -x
    return d


@njit(cache=True)
def max_without_yahtzee(mask, u, score, upper_face, ip):
    """The most points the open boxes other than the Yahtzee box can still add."""
    ycat = ip[I_YCAT]
    threshold = ip[I_THRESHOLD]
    total = 0
    upper = u
    for c in range(score.shape[0]):
        if (mask >> c) & 1 or c == ycat:
            continue
        best = 0
        for r in range(ROLL_START, NUM_KEEPS):
            if score[c, r] > best:
                best = score[c, r]
        total += best
        if upper_face[c] > 0:
            upper += best
    if u < threshold <= upper:
        total += ip[I_UBONUS]
    return total


@njit(cache=True)
def _risk_keep(roll, opt_keep, table, C, valence, subkeeps, subkeep_count, counts):
    """The risk-taker's keep: among keeps within ``valence`` dice of the optimal keep,
    the one whose best reachable outcome is highest (ties: higher expected value);
    it leaves the optimal keep only for a strictly higher ceiling."""
    best_k = opt_keep
    best_c = C[opt_keep]
    best_e = table[opt_keep]
    r = roll - ROLL_START
    for j in range(subkeep_count[r]):
        k = subkeeps[r, j]
        if _distance(k, opt_keep, counts) > valence:
            continue
        if C[k] > best_c or (C[k] == best_c and best_k != opt_keep and table[k] > best_e):
            best_k = k
            best_c = C[k]
            best_e = table[k]
    return best_k


@njit(cache=True)
def _most_common_keep(roll, counts, code_to_keep, held):
    """Every die of the roll's most common face (ties: the higher face)."""
    face, n = _most_common_face(counts, roll)
    for f in range(6):
        held[f] = 0
    held[face] = n
    return _keep_of(held, code_to_keep)


@njit(cache=True)
def _throw(held, nheld, rng, g, seat, code_to_keep):
    """Throw the dice not held; returns the roll (held is updated to all five)."""
    for _ in range(5 - nheld):
        held[_die(rng, g, seat) - 1] += 1
    return _keep_of(held, code_to_keep)


@njit(cache=True)
def turn_scratch(ncat):
    """One thread's buffers for its turns: ``tables = (w, e0, e1, ceil, cat)`` as
    :func:`play_turn` reads them, the dice held, and :func:`win_turn_tables`' ``m`` and
    ``memo`` and the opponents' table ``fw``."""
    tables = (
        np.empty(NUM_KEEPS),
        np.empty(NUM_KEEPS),
        np.empty(NUM_KEEPS),
        np.empty(NUM_KEEPS),
        np.empty(NUM_KEEPS, dtype=np.int64),
    )
    held = np.zeros(6, dtype=np.int64)
    return tables, held, np.empty(NUM_KEEPS), np.empty((ncat, MAX_POINTS)), np.empty(FW_LEN)


@njit(cache=True)
def play_turn(cards, g, seat, pol, chase, valence, rng, V, R, tables, held):
    """Throw up to three times and score one box: ``seat``'s turn of game ``g``, in place.

    The caller has filled the turn's ``tables = (w, e0, e1, ceil, cat)`` for the player
    ``pol``: the win-seeker reads ``w``/``cat`` (its win chance and box per final roll),
    the others ``V``; every player keeps by ``e1``/``e0`` (two / one roll left). The
    risk-taker then bends its keep within ``valence`` dice towards the highest ceiling
    ``ceil``, or, with ``chase``, keeps the roll's most common face. Both match loops
    (two players, and the field) play their turns here, so they throw the same dice
    the same way.
    """
    w, e0, e1, ceil, cat = tables
    score, upper_face, joker_score = R.score, R.upper_face, R.joker_score
    counts, ip = R.counts, R.ip
    subkeeps, subkeep_count, code_to_keep = R.subkeeps, R.subkeep_count, R.code_to_keep
    mask = cards[g, seat, 0]
    u = cards[g, seat, 1]
    y = cards[g, seat, 2]
    total = cards[g, seat, 3]
    for f in range(6):
        held[f] = 0
    nheld = 0
    roll = 0
    for j in range(3):
        roll = _throw(held, nheld, rng, g, seat, code_to_keep)
        if j == 2:
            break
        table = e1 if j == 0 else e0
        keep = _best_keep(table, roll, subkeeps, subkeep_count)
        if pol == WIN:
            now = w[roll]
        else:
            now = best_box(V, mask, u, y, roll, score, upper_face, joker_score, counts, ip)[1]
        if now >= table[keep]:
            keep = roll  # score now (a tie scores now)
        if pol == RISK:
            if chase:
                keep = _most_common_keep(roll, counts, code_to_keep, held)
            else:
                keep = _risk_keep(roll, keep, table, ceil, valence, subkeeps, subkeep_count,
                                  counts)  # fmt: skip
        if keep == roll:
            break
        nheld = 0
        for f in range(6):
            held[f] = counts[keep, f]
            nheld += held[f]
    if pol == WIN:
        c = cat[roll]
    else:
        c = best_box(V, mask, u, y, roll, score, upper_face, joker_score, counts, ip)[0]
    pts, nu, ny, _legal = category_points(
        mask, u, y, c, roll, score, upper_face, joker_score, counts, ip
    )
    cards[g, seat, 0] = mask | (1 << c)
    cards[g, seat, 1] = nu
    cards[g, seat, 2] = ny
    cards[g, seat, 3] = total + pts


@njit(cache=True, parallel=True)
def play_rounds(cards, rng, policy, valence, first_round, last_round, V, T, R, turns_out):
    """Play rounds ``first_round .. last_round - 1`` of every game in place.

    ``policy[g, seat]`` is OPTIMAL, WIN or RISK (``valence[g, seat]`` bounds the
    risk-taker's keeps); seat 0 moves first in every round. ``turns_out[g, seat]``
    counts the win-seeking turns played (its decisions' cost is timed per turn).
    """
    sid, offsets, lows, lengths, data = T
    score, upper_face, joker_score = R.score, R.upper_face, R.joker_score
    counts, ip, add = R.counts, R.ip, R.add
    ngames = cards.shape[0]
    ncat = score.shape[0]
    ycat = ip[I_YCAT]
    nchunks = min(ngames, 256)
    for chunk in prange(nchunks):
        tables, held, m, memo, fw = turn_scratch(ncat)
        w, e0, e1, ceil, _cat = tables
        lo = chunk * ngames // nchunks
        hi = (chunk + 1) * ngames // nchunks
        for g in range(lo, hi):
            for _round in range(first_round, last_round):
                for seat in range(2):
                    mask = cards[g, seat, 0]
                    u = cards[g, seat, 1]
                    y = cards[g, seat, 2]
                    total = cards[g, seat, 3]
                    pol = policy[g, seat]
                    other = 1 - seat
                    chase = False
                    if pol == WIN:
                        o = cards[g, other]
                        opponent_table(o[3], sid[o[0], o[1], o[2]], offsets, lows, lengths,
                                       data, fw)  # fmt: skip
                        win_turn_tables(mask, u, y, total, fw, T, R, tables, m, memo)
                        turns_out[g, seat] += 1
                    else:
                        turn_tables(V, mask, u, y, R, e0, e1, w)
                        if pol == RISK:
                            _ceiling(mask, u, y, score, upper_face, joker_score, counts, ip, add,
                                     ceil)  # fmt: skip
                            chase = (ycat >= 0 and not (mask >> ycat) & 1 and total
                                     + max_without_yahtzee(mask, u, score, upper_face, ip)
                                     < cards[g, other, 3])  # fmt: skip
                    play_turn(cards, g, seat, pol, chase, valence[g, seat], rng, V, R, tables,
                              held)  # fmt: skip
