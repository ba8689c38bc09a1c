"""``stratagem pig ...`` as a user runs it."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stratagem.cli import app, main
from stratagem.games.pig.rules import PigRules, preset
from stratagem.games.pig.solver import PigSolution

runner = CliRunner()


@pytest.fixture(autouse=True)
def _cache(pig_solved: Callable[[PigRules], PigSolution]) -> None:
    pig_solved(preset("pig"))


def run_json(*args: str) -> dict[str, object]:
    result = runner.invoke(app, ["pig", *args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)["result"]  # type: ignore[no-any-return]


def test_solve_prints_p_start_states_sweeps_and_seconds() -> None:
    data = run_json("solve", "--rules", "pig")
    assert data["p_start"] == pytest.approx(0.530593, abs=5e-7)
    assert data["states"] == 505_000 and data["sweeps"] > 0 and data["seconds"] >= 0


def test_rule_options_apply_to_the_preset() -> None:
    data = run_json("solve", "--rules", "piglet", "--goal", "2")
    assert data["p_start"] == pytest.approx(4 / 7, abs=1e-12)
    data = run_json(
        "solve",
        "--rules",
        "pig",
        "--goal",
        "30",
        "--faces",
        "8",
        "--bust",
        "1,8",
        "--bust-scores-one",
        "--catch-up-turn",
    )
    assert data["rules"] == {
        "name": "pig",
        "goal": 30,
        "faces": 8,
        "bust_faces": [1, 8],
        "bust_scores_one": True,
        "catch_up_turn": True,
    }


def test_value_reports_roll_hold_and_the_best() -> None:
    data = run_json("value", "--rules", "pig", "--me", "0", "--opp", "0", "--turn", "21")
    assert set(data) == {"p_win", "p_roll", "p_hold", "best"}
    assert data["best"] == "hold" and data["p_win"] == data["p_hold"]
    start = run_json("value", "--me", "0", "--opp", "0", "--turn", "0")
    assert start["p_hold"] is None and start["best"] == "roll"


def test_evaluate_gives_exact_first_second_and_coin() -> None:
    data = run_json("evaluate", "--rules", "pig", "--a", "optimal", "--b", "hold:20")
    assert data["coin"] == pytest.approx((data["a_first"] + data["b_first"]) / 2)
    assert 0.5 < data["coin"] < 0.6


def test_simulate_agrees_with_evaluate_within_three_se() -> None:
    data = run_json(
        "simulate",
        "--rules",
        "pig",
        "--a",
        "optimal",
        "--b",
        "keep-pace",
        "--games",
        "100000",
        "--seed",
        "2",
    )
    assert abs(data["p_a"] - data["exact_coin"]) < 3 * data["se"]


def test_a_rule_table_file_is_a_strategy(tmp_path: Path) -> None:
    table = tmp_path / "mine.txt"
    table.write_text("me=0-99 opp=0-99 hold=20\n")
    by_table = run_json("evaluate", "--a", "optimal", "--b", f"table:{table}")
    by_rule = run_json("evaluate", "--a", "optimal", "--b", "hold:20")
    assert by_table["coin"] == pytest.approx(by_rule["coin"], abs=1e-15)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["solve", "--goal", "0"], "--goal"),  # a usage error naming the option
        (["solve", "--bust", "9"], "bust face 9 is not on a 6-faced die"),
        (["solve", "--bust", "1,2,3,4,5,6"], "every face busts"),
        (["solve", "--bust", "one"], "--bust takes faces"),
        (["solve", "--rules", "hog"], "unknown rules 'hog' for pig"),
        (["solve", "--faces", "2", "--rules", "pig-raab"], "say which face busts with --bust"),
        (["evaluate", "--b", "greedy"], "unknown agent 'greedy' for pig"),
        (["evaluate", "--b", "mcts"], "mcts has no fixed policy to evaluate"),
        (["simulate", "--b", "hold:99999999999999999999"], "n must be a whole number 1..100000"),
        (["value", "--me", "0", "--opp", "0", "--turn", "1"], "turn total of 1 cannot occur"),
    ],
)
def test_bad_input_exits_2_with_a_message(
    args: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "argv", ["stratagem", "pig", *args])
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
