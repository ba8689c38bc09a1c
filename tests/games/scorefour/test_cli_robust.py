"""``stratagem scorefour``: ranges checked before work; any board text answers or is refused."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli_outcome import allowed, outcome


@pytest.mark.parametrize(
    "args",
    [
        ["best", "--depth", "100"],
        ["best", "--depth", "0"],
        ["best", "--seconds", "inf"],
        ["best", "--seconds", "nan"],
        ["best", "--seconds", "-1"],
        ["best", "--seconds", "0"],
        ["play", "--ai", "minimax:depth=0"],
        ["play", "--ai", "minimax:seconds=-1"],
        ["play", "--ai", "minimax:seconds=nan"],
        ["play", "--ai", "minimax:depth=65"],
        ["play", "--ai", "decision-analysis:depth=9"],  # decision analysis: 1..4
        ["play", "--ai", "decision-analysis:f0=nan"],
        ["play", "--ai", "decision-analysis:beta=2"],
        ["play", "--seed", "-1"],
        ["count", "--depth", "65"],
        ["count", "--depth", "20"],  # 16**20 sequences: refused, not left running
    ],
)
def test_bad_numbers_are_refused_before_the_first_move(args: list[str]) -> None:
    code, output = outcome(["scorefour", *args], stdin="a1\n" * 40)
    assert code == 2, output
    assert "your move" not in output.lower() and "x to move" not in output.lower()


@pytest.mark.parametrize(
    ("depth", "bound"),
    [
        # 64!/(4!)**16 orders of filling every peg (1.05e67) and the shorter ones before
        # them; it said "up to 16^64 = 1.2e+77", ignoring that a peg takes four beads.
        ("64", "2.92e+67 move sequences of 1..64 plies"),
        ("9", "7.32e+10 move sequences of 1..9 plies"),  # 16 + 16**2 + ... less overfull pegs
    ],
)
def test_count_names_the_number_of_sequences_it_refuses(depth: str, bound: str) -> None:
    code, output = outcome(["scorefour", "count", "--depth", depth])
    assert code == 2
    assert (
        f"error: --depth {depth} from this position means up to {bound} to visit (the orders "
        "in which its 16 open pegs can fill; wins cut some short); at most 1e+10 are counted"
    ) in output


def test_a_depth_only_search_is_bounded_in_depth() -> None:
    code, output = outcome(["scorefour", "best", "--depth", "2", "--json"])
    assert code == 0 and json.loads(output)["result"]["depth"] == 2


CELLS = st.text(alphabet="xo.", min_size=0, max_size=64)


@settings(max_examples=40)
@given(
    board=CELLS.map(lambda t: "/".join(t[i : i + 16] for i in range(0, len(t), 16)))
    | st.text(max_size=70),
)
def test_any_board_text_gives_a_move_or_a_named_error(board: str) -> None:
    code, output = allowed(["scorefour", "best", "--board", board, "--seconds", "0.01", "--json"])
    if code == 0:
        assert json.loads(output)["result"]["move"]


@settings(max_examples=30)
@given(depth=st.integers(-(10**20), -1) | st.integers(65, 10**20) | st.integers(0, 3), board=CELLS)
def test_count_answers_small_depths_or_refuses(depth: int, board: str) -> None:
    allowed(["scorefour", "count", "--depth", str(depth), "--board", board, "--json"])
