"""Alpha-beta: it agrees with plain minimax, finds wins, blocks, and keeps to its budget."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.errors import IllegalActionError, InvalidRulesError
from stratagem.games.scorefour.board import parse_peg
from stratagem.games.scorefour.evaluation import evaluate
from stratagem.games.scorefour.search import WIN, Minimax, value_text
from stratagem.games.scorefour.state import DRAW, ScoreFourState


def plain_minimax(state: ScoreFourState, depth: int, ply: int = 0) -> float:
    """Negamax without pruning, tables or ordering, with the kernel's scoring of wins."""
    me = state.player
    for move in state.legal_actions():
        if state.apply(move).winner == me:
            return WIN - ply - 1
    if state.plies == 64:
        return 0.0
    if depth == 0:
        return evaluate(state, me) if state.winner is None else 0.0
    return max(-plain_minimax(state.apply(m), depth - 1, ply + 1) for m in state.legal_actions())


def random_state(rng: np.random.Generator, plies: int) -> ScoreFourState:
    while True:
        state = ScoreFourState.new()
        for _ in range(plies):
            moves = state.legal_actions()
            state = state.apply(moves[int(rng.integers(len(moves)))])
            if state.is_terminal():
                break
        if not state.is_terminal():
            return state


def test_alpha_beta_values_equal_plain_minimax() -> None:
    rng = np.random.default_rng(7)
    for _ in range(6):
        state = random_state(rng, int(rng.integers(4, 30)))
        searcher = Minimax(table_bits=12)
        values = searcher.move_values(state, 2)
        for move, value in values.items():
            child = state.apply(move)
            expected = WIN - 1 if child.winner == state.player else -plain_minimax(child, 1, 1)
            assert value == pytest.approx(expected), (state.to_string(), move)
        best = searcher.search(state, depth=2)
        assert best.value == pytest.approx(max(values.values()))


def test_a_depth_3_search_equals_plain_minimax_at_depth_3() -> None:
    rng = np.random.default_rng(8)
    for _ in range(3):
        state = random_state(rng, 10)
        searcher = Minimax(table_bits=16)
        values = searcher.move_values(state, 3)
        assert max(values.values()) == pytest.approx(plain_minimax(state, 3))
        assert Minimax(table_bits=16).search(state, depth=3).value == pytest.approx(
            plain_minimax(state, 3)
        )


def test_it_takes_a_win_and_blocks_a_loss() -> None:
    win = ScoreFourState.from_string("xxx.ooo.........")  # X to move: d1 wins
    result = Minimax().search(win, depth=4)
    assert result.move == parse_peg("d1") and value_text(result.value) == "wins in 1"
    block = ScoreFourState.from_string("xxx.oo.........o").apply(parse_peg("a3"))  # O must take d1
    assert Minimax().search(block, depth=3).move == parse_peg("d1")


def test_it_sees_a_forced_win_with_two_threats() -> None:
    # X: b1 c1 and a2 a3; a1 makes two threes at once (d1 and a4 both open): win in 3.
    state = ScoreFourState.from_string(".xx.x...xoo..oo.")
    result = Minimax().search(state, depth=5)
    # three plies: X's second move completes a line
    assert result.move == parse_peg("a1") and value_text(result.value) == "wins in 2"


def test_a_time_budget_plays_the_move_of_the_last_depth_it_finished() -> None:
    # Speed is measured in benchmarks/scorefour.py, not here: whatever depth the
    # budget reached, the answer is that depth's full search.
    state = ScoreFourState.from_string(".xx.x...xoo..oo.")
    timed = Minimax().search(state, seconds=0.05)
    fixed = Minimax().search(state, depth=timed.depth)
    assert timed.depth >= 1
    assert (timed.move, timed.value) == (fixed.move, fixed.value)


def test_searching_a_finished_game_or_without_limits_is_refused() -> None:
    with pytest.raises(IllegalActionError, match="game is over"):
        Minimax().search(ScoreFourState.from_string("xxxxooo........."), depth=2)
    with pytest.raises(InvalidRulesError, match="depth"):
        Minimax().search(ScoreFourState.new(), depth=0)
    with pytest.raises(InvalidRulesError, match="give a depth"):
        Minimax().search(ScoreFourState.new())


def test_the_last_move_of_a_drawn_board() -> None:
    drawn = "ooxxxxoooooxxoox/xxxoxooxoxxxxooo/oxoxoxxoxoxxooxx/ooxoxooxooxoxxx."
    state = ScoreFourState.from_string(drawn)
    result = Minimax().search(state, depth=3)
    assert result.move == parse_peg("d4") and result.value == 0.0
    assert state.apply(result.move).winner == DRAW
