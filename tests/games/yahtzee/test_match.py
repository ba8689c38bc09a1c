"""Two-player Yahtzee: the compiled match, the win-seeking turn and the risk-taker."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from itertools import combinations_with_replacement

import numpy as np
import pytest

from stratagem.core.errors import InvalidStateError
from stratagem.games.yahtzee import _match_kernels as MK
from stratagem.games.yahtzee.distribution import remaining_distributions
from stratagem.games.yahtzee.match import (
    Board,
    Match,
    head_to_head,
    opponent_win_table,
    player_id,
    seed_streams,
    target_win_table,
    win_turn,
)
from stratagem.games.yahtzee.solver import Solution


def test_optimal_against_itself_is_exactly_even_when_mirrored(
    solved: Callable[[str], Solution],
) -> None:
    sol = solved("yatzy")
    h = head_to_head(sol, "optimal", "optimal", 500, seed=3)
    assert h.win_rate().mean == 0.5  # each pair is one game seen from both seats
    # Both players are the optimum: the mean is the expected score (5 standard errors).
    scores = np.concatenate([h.totals_a, h.totals_b])[::2]
    se = scores.std() / np.sqrt(len(scores))
    assert abs(scores.mean() - sol.expected_score) < 5 * se


def test_the_series_runner_plays_optimal_against_itself_compiled(
    solved: Callable[[str], Solution],
) -> None:
    """``run_series`` takes the compiled match for two optimal players: the seats
    alternate, each agent's return is its own final total, and the mean is the
    expected score; the generic loop gives the same shape of result."""
    from stratagem.core.series import run_series
    from stratagem.games.yahtzee.match import final_totals

    sol = solved("yatzy")
    result = run_series("yahtzee", "yatzy", ["optimal", "optimal"], games=2000, seed=5)
    assert result.compiled and result.returns.shape == (2000, 2)
    assert list(result.first[:4]) == [0, 1, 0, 1]
    totals = final_totals(sol, ["optimal", "optimal"], 2000, 5)  # [game, seat]
    assert np.array_equal(result.returns[1::2, 0], totals[1::2, 1])  # agent 0 sat second
    assert np.array_equal(result.returns[0::2, 1], totals[0::2, 1])
    scores = result.returns.ravel()
    se = scores.std() / np.sqrt(len(scores))
    assert abs(scores.mean() - sol.expected_score) < 5 * se
    generic = run_series("yahtzee", "yatzy", ["optimal", "optimal"], 2, seed=5, compiled=False)
    assert not generic.compiled and generic.returns.shape == (2, 2)
    assert list(generic.first) == [0, 1]


def test_risk_taker_with_valence_zero_is_the_optimum(solved: Callable[[str], Solution]) -> None:
    sol = solved("yahtzee")
    match = Match(sol)
    rng = seed_streams(11, 400)
    plain = match.play(Board.new(np.zeros((400, 2), dtype=np.int64), rng))
    risky = np.zeros((400, 2), dtype=np.int64)
    risky[:, 1] = MK.RISK
    zero = match.play(Board.new(risky, rng))
    # Valence 0 allows only the optimal keep, but the Yahtzee chase may still differ.
    same = np.mean(zero.totals[:, 1] == plain.totals[:, 1])
    assert same > 0.9
    # The optimal seat ignores its opponent and throws its own dice: nothing changes there.
    np.testing.assert_array_equal(zero.totals[:, 0], plain.totals[:, 0])
    val = np.zeros((400, 2), dtype=np.int64)
    val[:, 1] = 3
    bold = match.play(Board.new(risky, rng, val))
    assert bold.totals[:, 1].mean() < plain.totals[:, 1].mean()


def test_continuing_a_saved_position_replays_the_same_game(
    solved: Callable[[str], Solution],
) -> None:
    sol = solved("yahtzee")
    match = Match(sol)
    policy = np.zeros((50, 2), dtype=np.int64)
    whole = match.play(Board.new(policy, seed_streams(5, 50)))
    half = match.play(Board.new(policy, seed_streams(5, 50)), rounds=6)
    assert half.round == 6 and np.all(half.cards[:, :, 0] != 0)
    match.play(half)
    np.testing.assert_array_equal(half.cards, whole.cards)


def _best_chance_win(need: int) -> float:
    """P(the five dice end with a sum >= need) with two rerolls, played to maximise it.

    Written from scratch: a roll is a sorted tuple, a keep any sub-multiset of it.
    """

    def subkeeps(roll: tuple[int, ...]) -> set[tuple[int, ...]]:
        out = {()}
        for d in roll:
            out |= {tuple(sorted((*k, d))) for k in out}
        return {k for k in out if all(k.count(f) <= roll.count(f) for f in set(k))}

    @cache
    def throws(n: int) -> list[tuple[tuple[int, ...], float]]:
        from math import factorial

        res = []
        for t in combinations_with_replacement(range(1, 7), n):
            ways = factorial(n)
            for f in set(t):
                ways //= factorial(t.count(f))
            res.append((t, ways / 6**n))
        return res

    @cache
    def value(roll: tuple[int, ...], left: int) -> float:
        best = 1.0 if sum(roll) >= need else 0.0
        if left == 0:
            return best
        for k in subkeeps(roll):
            if len(k) == 5:
                continue
            v = sum(p * value(tuple(sorted(k + t)), left - 1) for t, p in throws(5 - len(k)))
            best = max(best, v)
        return best

    return sum(p * value(t, 2) for t, p in throws(5))


@pytest.mark.parametrize("deficit", [10, 20, 26])
def test_win_turn_matches_brute_force_on_the_last_turn(
    solved: Callable[[str], Solution], deficit: int
) -> None:
    """Only Chance is open and the opponent has finished: win by beating its total."""
    sol = solved("yahtzee-no-bonus")
    tables = remaining_distributions(sol, min_filled=sol.rules.num_categories - 1)
    chance = sol.rules.categories.index("chance")
    mask = ((1 << sol.rules.num_categories) - 1) & ~(1 << chance)
    full = (1 << sol.rules.num_categories) - 1
    opp = (full, 63, 0, 200 + deficit)
    fw = opponent_win_table(tables, opp)
    turn = win_turn(sol, tables, (mask, 63, 0, 200), fw)
    # A tie counts half: P(sum > d) + P(sum = d) / 2 = (P(>= d + 1) + P(>= d)) / 2 only
    # for a fixed policy; the best policy for the tie-aware goal is checked by bounds.
    upper = _best_chance_win(deficit)
    lower = _best_chance_win(deficit + 1)
    assert lower - 1e-12 <= turn.start <= upper + 1e-12
    # The solitaire target is exactly the brute force.
    target = win_turn(sol, tables, (mask, 63, 0, 200), target_win_table(200 + deficit))
    assert target.start == pytest.approx(_best_chance_win(deficit), abs=1e-12)


def test_bad_inputs_are_named(solved: Callable[[str], Solution]) -> None:
    sol = solved("yatzy")
    with pytest.raises(InvalidStateError, match="unknown two-player Yahtzee player 'lucky'"):
        player_id("lucky")
    with pytest.raises(InvalidStateError, match="at least one pair"):
        head_to_head(sol, "optimal", "optimal", 0, seed=1)
    with pytest.raises(InvalidStateError, match="target score"):
        target_win_table(-5)
    tables = remaining_distributions(sol, min_filled=sol.rules.num_categories - 1)
    with pytest.raises(InvalidStateError, match="not a reachable"):
        win_turn(sol, tables, (0, 0, 0, 0), target_win_table(100))


@pytest.mark.slow
def test_win_seeker_beats_the_optimum(solved: Callable[[str], Solution]) -> None:
    h = head_to_head(solved("yatzy"), "win", "optimal", 5000, seed=9)
    s = h.win_rate()
    assert s.lo > 0.5, h.summary()
