"""The win-seeking player against a field: its table of win shares, and its games."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from stratagem.core.errors import InvalidStateError
from stratagem.games.yahtzee import _field_kernels as FK
from stratagem.games.yahtzee import _match_kernels as MK
from stratagem.games.yahtzee.field import field_study, field_totals, seat_streams, shares
from stratagem.games.yahtzee.rules import preset

L = 40


def synthetic_tables(rng: np.random.Generator, states: int):
    """Remaining-score tables ``(sid, offsets, lows, lengths, data)`` of made-up states,
    state s at ``sid[s, 0, 0]``, each a random distribution over a few scores."""
    lengths = rng.integers(1, 6, size=states)
    lows = rng.integers(0, 8, size=states)
    offsets = np.concatenate(([0], np.cumsum(lengths)[:-1]))
    data = np.concatenate([rng.dirichlet(np.ones(n)) for n in lengths]).astype(np.float32)
    sid = np.arange(states, dtype=np.int64).reshape(states, 1, 1)
    return sid, offsets.astype(np.int64), lows.astype(np.int64), lengths.astype(np.int64), data


def final_distribution(tables, card):
    """P(final = x) of a card ``(state, 0, 0, total)``, x in 0..L-1."""
    sid, offsets, lows, lengths, data = tables
    s = sid[card[0], 0, 0]
    p = np.zeros(L)
    for j in range(lengths[s]):
        p[card[3] + lows[s] + j] = data[offsets[s] + j]
    return p


def table(tables, cards, seat):
    fw = np.empty(L)
    n = len(cards)
    FK.field_table(np.asarray(cards, dtype=np.int64), seat, *tables, fw, np.empty((n, L)),
                   np.empty((n, L)), np.empty(n + 1))  # fmt: skip
    return fw


def test_against_one_opponent_the_field_table_is_the_two_player_table():
    rng = np.random.default_rng(1)
    tables = synthetic_tables(rng, 4)
    cards = [[0, 0, 0, 3], [2, 0, 0, 5]]
    two = np.empty(L)
    MK.opponent_table(5, 2, *tables[1:], two)
    assert np.array_equal(table(tables, cards, 0), two)


@pytest.mark.parametrize("opponents", [2, 3])
def test_the_field_table_is_the_expected_share_over_every_joint_outcome(opponents):
    """Brute force: every combination of the opponents' final scores, a tie at the top
    among k + 1 players shared 1/(k + 1)."""
    rng = np.random.default_rng(opponents)
    tables = synthetic_tables(rng, 5)
    cards = [[0, 0, 0, 0]] + [[int(rng.integers(5)), 0, 0, int(rng.integers(6))]
                              for _ in range(opponents)]  # fmt: skip
    dists = [final_distribution(tables, c) for c in cards[1:]]
    fw = table(tables, cards, 0)
    for x in range(L):
        expected = 0.0
        for finals in itertools.product(range(L), repeat=opponents):
            p = np.prod([d[f] for d, f in zip(dists, finals, strict=True)])
            if p == 0 or max(finals) > x:
                continue
            expected += p / (1 + sum(f == x for f in finals))
        assert fw[x] == pytest.approx(expected, abs=1e-12)


def test_shares_split_a_tie_at_the_top():
    totals = np.array([[10, 12, 12, 3], [5, 5, 5, 5]])
    assert shares(totals).tolist() == [[0, 0.5, 0.5, 0], [0.25] * 4]


def test_a_field_of_one_or_five_is_refused():
    with pytest.raises(InvalidStateError, match="2 to 4 players"):
        field_totals(None, ["win"], seat_streams(1, 2, 1))  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match="3 or 4 players"):
        field_study(None, 2, 10, 1)  # type: ignore[arg-type]


@pytest.mark.slow
def test_with_two_seats_the_field_game_is_the_two_player_match():
    """The same dice streams give the same final totals as the two-player kernel, for the
    win-seeker against the optimum (builds the remaining-score tables, ~1 GB)."""
    from stratagem.games.yahtzee.match import Board, Match, seed_streams
    from stratagem.games.yahtzee.policy_ids import MATCH_OPTIMAL, MATCH_WIN
    from stratagem.games.yahtzee.solver import solve

    solution = solve(preset("yahtzee"))
    rng = seed_streams(5, 300)
    policy = np.tile([MATCH_WIN, MATCH_OPTIMAL], (300, 1))
    board = Match(solution).play(Board.new(policy, rng))
    totals = field_totals(solution, ["win", "optimal"], rng)
    assert np.array_equal(totals, board.totals)


@pytest.mark.slow
def test_the_field_win_table_of_two_cards_is_the_opponent_win_table():
    from stratagem.games.yahtzee.field import field_win_table
    from stratagem.games.yahtzee.match import opponent_win_table, optimal_remaining
    from stratagem.games.yahtzee.solver import solve

    tables = optimal_remaining(solve(preset("yahtzee")))
    opponent = (0b1000000000011, 9, 0, 40)  # ones, twos and chance filled
    fw = field_win_table(tables, [(0, 0, 0, 0), opponent], 0)
    assert np.array_equal(fw, opponent_win_table(tables, opponent))
