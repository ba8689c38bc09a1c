"""Score Four positions: moves, wins, draws, the board string and perft counts."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.errors import IllegalActionError, InvalidStateError
from stratagem.core.game import TERMINAL, State
from stratagem.games.scorefour import _kernels
from stratagem.games.scorefour.board import LINES, parse_peg
from stratagem.games.scorefour.state import DRAW, ScoreFourState, has_four


def play(*pegs: str) -> ScoreFourState:
    state = ScoreFourState.new()
    for peg in pegs:
        state = state.apply(parse_peg(peg))
    return state


def perft_python(state: ScoreFourState, depth: int) -> int:
    if depth == 0:
        return 1
    if state.is_terminal():
        return 0
    return sum(perft_python(state.apply(a), depth - 1) for a in state.legal_actions())


def perft_kernel(state: ScoreFourState, depth: int) -> int:
    beads = np.array(state.beads, dtype=np.uint64)
    heights = np.array(state.heights(), dtype=np.int64)
    return int(_kernels.perft(beads, heights, state.player, depth))


def test_the_state_follows_the_protocol() -> None:
    state = ScoreFourState.new()
    assert isinstance(state, State)
    assert state.num_players == 2 and state.current_player == 0
    assert state.legal_actions() == list(range(16))
    assert state.chance_outcomes() == []


def test_states_are_immutable_and_hashable() -> None:
    a, b = play("a1", "b2"), play("a1", "b2")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert play("b2", "a1") != a  # the colours differ


def test_beads_stack_on_a_peg() -> None:
    state = play("c3", "c3", "c3")
    assert state.heights()[parse_peg("c3")] == 3
    assert (
        state.to_string() == "..........x...../..........o...../..........x...../................"
    )


# Hand-checked: each ply has 16 pegs until some peg could take a fifth bead;
# sequences putting 5+ beads on one peg are illegal, and no side can win before ply 7.
# depth 5: 16^5 - 16; depth 6: 16^6 - 16 * (6 * 15 + 1);
# depth 7: 16^7 - 16 * (21 * 225 + 7 * 15 + 1).
@pytest.mark.parametrize(
    ("depth", "leaves"),
    [(0, 1), (1, 16), (2, 256), (3, 4096), (4, 65536), (5, 16**5 - 16), (6, 16**6 - 16 * 91),
     (7, 16**7 - 16 * 4831)],
)  # fmt: skip
def test_perft_matches_the_hand_count(depth: int, leaves: int) -> None:
    assert perft_kernel(ScoreFourState.new(), depth) == leaves


def test_perft_kernel_agrees_with_the_protocol_where_wins_stop_games() -> None:
    # X threatens a1-d1 and O threatens a2-d2: wins happen inside the count.
    state = play("a1", "a2", "b1", "b2", "c1", "c2")
    for depth in range(1, 4):
        assert perft_kernel(state, depth) == perft_python(state, depth)
    assert perft_kernel(state, 1) == 16
    assert perft_kernel(state, 2) == 15 * 16  # d1 wins at once and is not extended


def test_four_in_a_row_wins_for_the_first_player() -> None:
    state = play("a1", "a2", "b1", "b2", "c1", "c2", "d1")
    assert state.winner == 0 and state.is_terminal()
    assert state.current_player == TERMINAL and state.returns() == (1.0, 0.0)
    assert state.legal_actions() == []


def test_a_space_diagonal_wins() -> None:
    # O builds a1(1) b2(2) c3(3) d4(4) on pegs stacked with X's beads.
    moves = ["b2", "b2", "c3", "c4", "c3", "c3", "d4", "a1", "d4", "d3", "d4", "d4"]
    state = play(*moves)
    assert state.winner == 1, state.to_string()


def test_every_line_is_four_and_three_of_it_are_not() -> None:
    for line in LINES:
        mask = sum(1 << c for c in line)
        assert has_four(mask)
        for c in line:
            assert not has_four(mask ^ (1 << c))
            assert _kernels.wins_at(np.uint64(mask), c)
            assert not _kernels.wins_at(np.uint64(mask ^ (1 << c)), c)


# A filling with 32 beads each and no line of one colour (found by a local search).
DRAWN = "ooxxxxoooooxxoox/xxxoxooxoxxxxooo/oxoxoxxoxoxxooxx/ooxoxooxooxoxxxo"


def test_a_full_board_without_a_line_is_a_draw() -> None:
    state = ScoreFourState.from_string(DRAWN)
    assert state.winner == DRAW and state.returns() == (0.5, 0.5) and state.legal_actions() == []
    before = ScoreFourState.from_string(DRAWN[:-1] + ".")  # O's last bead on d4 removed
    assert before.winner is None and before.legal_actions() == [parse_peg("d4")]
    assert before.apply(parse_peg("d4")).winner == DRAW


def test_a_full_peg_is_refused_by_name() -> None:
    state = play("a1", "a1", "a1", "a1")
    with pytest.raises(IllegalActionError, match="peg a1 is full"):
        state.apply(parse_peg("a1"))
    assert parse_peg("a1") not in state.legal_actions()


def test_a_move_after_the_end_is_refused() -> None:
    state = play("a1", "a2", "b1", "b2", "c1", "c2", "d1")
    with pytest.raises(IllegalActionError, match="game is over"):
        state.apply(5)


@pytest.mark.parametrize("bad", [16, -1, "a1", 2.0, True])
def test_a_move_must_be_a_peg_index(bad: object) -> None:
    with pytest.raises(IllegalActionError, match=r"peg 0\.\.15"):
        ScoreFourState.new().apply(bad)


def test_the_board_string_round_trips() -> None:
    state = play("a1", "b2", "a1", "d4", "c3")
    assert ScoreFourState.from_string(state.to_string()) == state
    assert ScoreFourState.from_string("") == ScoreFourState.new()
    assert ScoreFourState.from_string("x" + "." * 15) == play("a1")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("x" * 17, "level 1 has 17 cells"),
        ("x..............?", "'\\?' at level 1"),
        ("/".join(["." * 16] * 5), "at most 4 levels"),
        ("." * 16 + "/x" + "." * 15, "floats"),
        ("xx" + "." * 14, "X has as many beads as O or one more"),
        ("xxxxooo.o" + "." * 7, "play goes on"),
    ],
)
def test_malformed_boards_are_refused_naming_the_problem(text: str, message: str) -> None:
    with pytest.raises(InvalidStateError, match=message):
        ScoreFourState.from_string(text)


def test_render_draws_four_levels_side_by_side() -> None:
    text = str(play("a1", "d4"))
    lines = text.splitlines()
    assert "level 1" in lines[0] and "level 4" in lines[0]
    assert lines[1].startswith("4  . . . o") and lines[4].startswith("1  x . . .")


@pytest.mark.slow
def test_perft_kernel_agrees_with_the_protocol_in_a_crowded_middle_game() -> None:
    rng = np.random.default_rng(11)
    for _ in range(3):
        state = ScoreFourState.new()
        while state.plies < 24 or state.is_terminal():
            state = ScoreFourState.new()
            for _ in range(24):
                moves = state.legal_actions()
                state = state.apply(moves[int(rng.integers(len(moves)))])
                if state.is_terminal():
                    break
        assert perft_kernel(state, 4) == perft_python(state, 4)
