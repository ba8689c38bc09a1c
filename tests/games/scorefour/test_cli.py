"""``stratagem scorefour ...`` as a user runs it (through the console script's error handling)."""

from __future__ import annotations

import json

import pytest

from tests.cli_outcome import Invoked, invoke


def run(args: list[str], input: str | None = None) -> Invoked:
    """``stratagem scorefour ARGS`` as the console script runs it."""
    return invoke(["scorefour", *args], input)


def run_json(*args: str) -> dict[str, object]:
    result = run([*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["result"]  # type: ignore[no-any-return]


def test_count_prints_depth_and_leaves() -> None:
    assert run_json("count", "--depth", "3") == {"depth": 3, "leaves": 4096}
    assert run_json("count", "--depth", "6") == {"depth": 6, "leaves": 16**6 - 16 * 91}


def test_count_from_a_board_stops_at_wins() -> None:
    # X to move with d1 winning: 15 of X's 16 moves go on to O's 16 replies.
    assert run_json("count", "--depth", "2", "--board", "xxx.ooo.........")["leaves"] == 15 * 16


def test_best_finds_the_winning_peg() -> None:
    data = run_json("best", "--board", "xxx.ooo.........", "--depth", "3")
    assert data["move"] == "d1" and data["value"] == 999_999.0
    assert data["result"] == "wins in 1"  # the search's score in words


def test_best_with_a_time_budget_reports_its_depth_and_rate() -> None:
    data = run_json("best", "--board", "xxx.ooo.........", "--seconds", "0.05")
    assert data["move"] == "d1"  # the win in one is found at every depth
    assert data["depth"] >= 1 and data["nodes"] >= 1  # type: ignore[operator]
    rate = data["nodes"] / data["seconds"]  # type: ignore[operator]
    assert data["nodes_per_second"] == pytest.approx(rate)


def test_evaluate_is_zero_sum() -> None:
    data = run_json("evaluate", "--board", "x" + "." * 15)
    assert data == {"board": "x" + "." * 15 + "/" + "/".join(["." * 16] * 3), "to_move": "o",
                    "x": 7.0, "o": -7.0}  # fmt: skip


def test_a_malformed_board_is_an_error_naming_the_problem() -> None:
    result = run(["count", "--depth", "1", "--board", "xxq"])
    assert result.exit_code == 2
    assert "malformed board" in result.output and "level 1 has 3 cells" in result.output


def test_a_bad_depth_or_ai_is_refused() -> None:
    result = run(["count", "--depth", "65"])
    assert result.exit_code == 2 and "--depth must be 0..64" in result.output
    result = run(["play", "--ai", "oracle"])
    assert result.exit_code == 2 and "oracle" in result.output
    result = run(["play", "--ai", "decision-analysis:f0=3"])
    assert result.exit_code == 2 and "f0" in result.output


def test_play_reads_moves_and_quits() -> None:
    result = run(["play", "--ai", "minimax:depth=2"], input="e5\nb2\nq\n")
    assert result.exit_code == 0, result.output
    assert "unknown peg 'e5'" in result.output
    assert "your move b2: +7 points (inaccuracy, 6 points behind a1" in result.output
    assert "AI plays" in result.output and "game abandoned" in result.output


def test_play_takes_a_registry_spec_and_no_hand_assembled_flags() -> None:
    """Issue 39: `--ai` is the registry's spec; --depth, --f0 and --beta are gone."""
    for options in (["--depth", "3"], ["--f0", "0.5"], ["--beta", "0.1"]):
        result = run(["play", *options])
        assert result.exit_code == 2 and "No such option" in result.output
    result = run(["play", "--ai", "decision-analysis:depth=1,beta=0.2"], input="q\n")
    assert result.exit_code == 0 and "O: the AI (decision-analysis:depth=1,beta=0.2)" in (
        result.output
    )
