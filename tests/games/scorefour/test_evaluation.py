"""The paper's static evaluation: each line state, the formations, the kernel against Python."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.errors import InvalidRulesError
from stratagem.games.scorefour.evaluation import (
    PAPER,
    EvalParams,
    child_values,
    evaluate,
    reference_evaluate,
)
from stratagem.games.scorefour.state import ScoreFourState

# Unit weights pick out one line state at a time.
ONLY = {
    name: EvalParams(**{n: float(n == name) for n in EvalParams.names()})
    for name in EvalParams.names()
}


def board(*levels: str) -> ScoreFourState:
    return ScoreFourState.from_string("/".join(levels))


def random_states(n: int, seed: int) -> list[ScoreFourState]:
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        state = ScoreFourState.new()
        for _ in range(int(rng.integers(0, 50))):
            if state.is_terminal():
                break
            moves = state.legal_actions()
            state = state.apply(moves[int(rng.integers(len(moves)))])
        out.append(state)
    return out


def test_one_bead_scores_its_lines() -> None:
    # a1 at the bottom lies on 7 lines: X to... O moves next, X's singles are worth 1 each.
    assert evaluate(ScoreFourState.new().apply(0), 0) == 7.0
    assert evaluate(ScoreFourState.new().apply(0), 1) == -7.0


def test_u_is_antisymmetric() -> None:
    for state in random_states(50, 1):
        assert evaluate(state, 0) == pytest.approx(-evaluate(state, 1))


def test_the_kernel_matches_the_plain_python_evaluation() -> None:
    params = EvalParams(3.0, 71.0, 29.0, 17.0, 4.5, 5.5, 8.5, 1.25, 49.0, 51.0, 7.0)
    for state in random_states(300, 2):
        for player in (0, 1):
            assert evaluate(state, player) == pytest.approx(reference_evaluate(state, player))
            assert evaluate(state, player, params) == pytest.approx(
                reference_evaluate(state, player, params)
            )


def only(state: ScoreFourState, name: str) -> float:
    """How many of X's lines minus O's are in the line state ``name``."""
    return evaluate(state, 0, ONLY[name])


def test_active_three_is_worth_more_to_the_side_that_moves_next() -> None:
    # X: a1 b1 c1 with d1 open; O's b2 c3 d4 are blocked by X's a1.
    x_to_move = board("xxx..o....o....o")
    assert x_to_move.player == 0
    assert only(x_to_move, "active_three_mover") == 1.0 and only(x_to_move, "active_three") == 0.0
    o_to_move = board("xxx..o..x.o....o")
    assert o_to_move.player == 1
    assert only(o_to_move, "active_three") == 1.0 and only(o_to_move, "active_three_mover") == 0.0


def test_sleeping_three_waits_for_its_cell_to_be_playable() -> None:
    # X at level 2 of a1 b1 c1; d1 is empty at level 1, so d1 at level 2 is not playable.
    state = board("oxo........o..o.", "xxx.............")
    assert only(state, "sleeping_three") == 1.0
    assert only(state, "active_three") == only(state, "active_three_mover") == 0.0


def test_twos_are_active_half_active_or_sleeping_by_their_playable_cells() -> None:
    assert only(board("xx........o....."), "active_two") == 1.0  # c1, d1 playable
    half = board("oox........o....", "xx..............")  # level 2: c1 playable, d1 not
    assert only(half, "half_active_two") == 1.0 and only(half, "active_two") == 0.0
    sleeping = board("oo..............", "xx..............")  # level 2: c1, d1 not playable
    assert only(sleeping, "sleeping_two") == 1.0
    assert only(sleeping, "active_two") == -1.0  # O's own a1 b1 below


def test_blocked_lines_score_nothing() -> None:
    state = board("xo..............")
    # The row a1-d1 holds both colours: neither side scores it as a single.
    assert only(state, "single") == (7 - 1) - (4 - 1)  # X on 7 lines, O on 4, one shared


def test_a_t_formation_is_two_active_threes_through_one_bead() -> None:
    # X: a1 b1 c1 (d1 open) and a1 a2 a3 (a4 open) share a1.
    state = board("xxx.x...x.......", ".oo.o...o.......")
    assert only(state, "active_three") == 2.0
    assert only(state, "t_formation") == 1.0


def test_a_v_formation_stacks_an_active_three_under_a_sleeping_three() -> None:
    # X's row 1 at level 1 waits on d1 (playable) and at level 2 on d1 above it.
    state = board("xxx..o.o..o.o..o", "xxx.............")
    assert only(state, "active_three") == only(state, "sleeping_three") == 1.0
    assert only(state, "v_formation") == 1.0


def test_a_won_game_adds_the_win_bonus() -> None:
    won = board("xxxxooo.........")
    assert won.winner == 0
    assert evaluate(won, 0) - evaluate(won, 0, EvalParams(win_bonus=0.0)) == PAPER.win_bonus


def test_child_values_are_the_evaluations_after_each_move() -> None:
    for state in random_states(40, 3):
        if state.is_terminal():
            continue
        moves, values = child_values(state, 1)
        assert moves == state.legal_actions()
        assert values == pytest.approx([evaluate(state.apply(m), 1) for m in moves])


def test_constants_must_be_numbers() -> None:
    with pytest.raises(InvalidRulesError, match="four"):
        EvalParams(four=float("nan"))
