"""``stratagem yahtzee ...`` as a user runs it: JSON schemas, batch mode, errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from stratagem.cli import app, main
from stratagem.games.yahtzee.solver import Solution

runner = CliRunner()


@pytest.fixture(autouse=True)
def _solved_tables(solved: Callable[[str], Solution]) -> None:
    """Solve into the session cache first, so commands below load tables."""
    for name in ("yahtzee", "yatzy"):
        solved(name)


def run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """The real console entry point in a child process (exit codes, stderr)."""
    return subprocess.run(
        [sys.executable, "-m", "stratagem", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=os.environ.copy(),
        timeout=300,
    )


def test_solve_json_reports_the_expected_score_from_the_cache() -> None:
    result = runner.invoke(app, ["yahtzee", "solve", "--rules", "yatzy", "--json"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.output)["result"]
    assert set(data) >= {"rules", "expected_score", "seconds", "cached"}
    assert data["rules"] == "yatzy" and data["cached"] is True
    assert data["expected_score"] == pytest.approx(248.4399893779, abs=1e-9)


def test_advise_json_lists_every_option_with_value_and_regret() -> None:
    result = runner.invoke(
        app, ["yahtzee", "advise", "--dice", "11114", "--rolls-left", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    options = json.loads(result.output)["result"]["options"]
    assert options[0] == {
        "action": "keep 1 1 1 1",
        "value": pytest.approx(270.2986142438951),
        "regret": 0.0,
    }
    assert {"keep -", "score chance", "score yahtzee"} <= {o["action"] for o in options}
    assert len(options) == 10 + 13  # distinct keeps of 1 1 1 1 4, then every box


def test_advise_with_a_partly_filled_card_adds_the_points_so_far() -> None:
    args = [
        "yahtzee",
        "advise",
        "--dice",
        "6,6,6,6,6",
        "--rolls-left",
        "0",
        "--filled",
        "ones,sixes",
        "--upper",
        "27",
        "--yahtzee-box",
        "50",
        "--json",
    ]
    options = json.loads(runner.invoke(app, args).output)["result"]["options"]
    # Forced joker: sixes is filled, so a lower box at joker value; +100 bonus.
    assert all(o["action"].split()[1] not in ("twos", "threes") for o in options)
    assert options[0]["value"] > 27 + 50 + 100


def test_advise_table_for_people(capsys: pytest.CaptureFixture[str]) -> None:
    result = runner.invoke(app, ["yahtzee", "advise", "--dice", "11114", "--rolls-left", "1"])
    assert result.exit_code == 0
    assert "keep 1 1 1 1" in result.output and "regret" in result.output


def test_batch_answers_every_line_in_order_and_survives_bad_lines() -> None:
    lines = [
        {"dice": [1, 1, 1, 1, 4], "rolls_left": 2},
        "not json",
        {"rules": "yatzy", "dice": [1, 2, 3, 4, 5], "rolls_left": 0, "filled": ["chance"]},
        {"dice": [1, 1, 1, 1, 1, 1], "rolls_left": 0},
        {"dice": [1, 2, 3, 4, 5], "rolls_left": 1, "filled": ["ones"], "upper": 7},
        {"dice": [1, 2, 3, 4, 5]},
        {
            "dice": [3, 3, 3, 3, 3],
            "rolls_left": 0,
            "filled": ["yahtzee"],
            "yahtzee_box": 50,
            "score": 50,  # only the Yahtzee box is filled: 50 is the one score it allows
        },
    ]
    stdin = "\n".join(x if isinstance(x, str) else json.dumps(x) for x in lines) + "\n"
    result = runner.invoke(app, ["yahtzee", "advise", "--batch"], input=stdin)
    assert result.exit_code == 0, result.output
    out = [json.loads(line) for line in result.output.splitlines()]
    assert len(out) == len(lines)
    assert out[0]["options"][0]["action"] == "keep 1 1 1 1"
    assert out[1]["error"].startswith("line 2: not JSON")
    assert out[2]["options"][0]["action"] == "score small_straight"
    assert "expected 5 dice, got 6" in out[3]["error"]
    assert "upper total of 7 is impossible" in out[4]["error"]
    assert "missing field 'rolls_left'" in out[5]["error"]
    assert [o["action"] for o in out[6]["options"]] == ["score threes"]
    # 50 so far + 15 in threes + the 100-point Yahtzee bonus, plus what is still to come.
    assert out[6]["options"][0]["value"] > 50 + 15 + 100


def test_simulate_json_is_reproducible_and_close_to_the_exact_mean() -> None:
    args = ["yahtzee", "simulate", "--games", "20000", "--seed", "4", "--json"]
    first = json.loads(runner.invoke(app, args).output)["result"]
    second = json.loads(runner.invoke(app, args).output)["result"]
    assert first["mean"] == second["mean"] and first["histogram"] == second["histogram"]
    assert abs(first["mean"] - first["exact_mean"]) < 3 * first["se"]
    for key in (
        "sd",
        "se",
        "min",
        "max",
        "percentiles",
        "upper_bonus_rate",
        "yahtzee_bonus_rate",
        "histogram",
    ):
        assert key in first


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--dice", "111114", "--rolls-left", "1"], "expected 5 dice, got 6"),
        (["--dice", "11117", "--rolls-left", "1"], "a die shows 1..6, got 7"),
        (["--dice", "11111", "--rolls-left", "3"], "rolls left must be 0, 1 or 2"),
        (
            ["--dice", "11111", "--rolls-left", "1", "--filled", "ones,pairs"],
            "unknown category 'pairs'",
        ),
        (
            ["--dice", "11111", "--rolls-left", "1", "--filled", "ones,ones"],
            "listed as filled twice",
        ),
        (
            ["--dice", "11111", "--rolls-left", "1", "--upper", "70"],
            "upper total of 70 is impossible",
        ),
        (["--dice", "11111", "--rolls-left", "1", "--rules", "kniffel"], "unknown Yahtzee rules"),
        (["--dice", "1x111", "--rolls-left", "1"], "cannot read dice"),
    ],
)
def test_bad_input_exits_2_with_a_message_naming_the_problem(
    args: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # main() is what the console script calls; run it in-process for speed.
    monkeypatch.setattr(sys, "argv", ["stratagem", "yahtzee", "advise", *args])
    with pytest.raises(SystemExit) as exit_info:
        main()
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_the_console_script_reports_errors_on_stderr_with_status_2() -> None:
    result = run("yahtzee", "advise", "--dice", "111114", "--rolls-left", "1")
    assert result.returncode == 2
    assert result.stderr.strip() == "error: expected 5 dice, got 6: [1, 1, 1, 1, 1, 4]"


def test_a_corrupt_cache_file_is_rebuilt_by_the_command(
    tmp_path: Path, solved: Callable[[str], Solution], cache_dir: Path
) -> None:
    from stratagem.core.tables import TableCache
    from stratagem.games.yahtzee.solver import FORMAT_VERSION, TABLE_KIND

    env_dir = tmp_path / "cache"
    env = {**os.environ, "STRATAGEM_CACHE_DIR": str(env_dir)}
    args = [
        sys.executable,
        "-m",
        "stratagem",
        "yahtzee",
        "solve",
        "--rules",
        "yahtzee-no-bonus",
        "--json",
    ]
    # The table as `solve` wrote it (solved once per run in the session cache), cut short.
    solution = solved("yahtzee-no-bonus")
    key = solution.rules.fingerprint
    cached = TableCache(cache_dir).path(TABLE_KIND, key, FORMAT_VERSION)
    env_dir.mkdir()
    table = TableCache(env_dir).path(TABLE_KIND, key, FORMAT_VERSION)
    table.write_bytes(cached.read_bytes()[:-10])
    second = subprocess.run(args, capture_output=True, text=True, env=env)
    assert "corrupt" in second.stderr
    data = json.loads(second.stdout)["result"]
    assert data["cached"] is False
    assert data["expected_score"] == float(solution.expected_score)
    third = json.loads(subprocess.run(args, capture_output=True, text=True, env=env).stdout)[
        "result"
    ]
    assert third["cached"] is True


LATE_CARD = [
    "yahtzee", "distribution", "--filled",
    "ones,twos,threes,fours,fives,sixes,three_of_a_kind,four_of_a_kind,full_house,small_straight",
    "--upper", "63",
]  # fmt: skip


def test_distribution_reports_progress_on_stderr() -> None:
    result = runner.invoke(app, LATE_CARD)
    assert result.exit_code == 0, result.output
    assert "building the optimal score distribution of yahtzee:" in result.stderr
    assert "states" in result.stderr and "mean" in result.stdout


def test_distribution_stops_on_ctrl_c_without_a_traceback_or_a_plot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from stratagem.games.yahtzee import _dist_kernels as DK

    real = DK.distribution_layer
    calls = {"n": 0}

    def interrupted(*args: object) -> object:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt  # the user pressed Ctrl-C between two chunks
        return real(*args)

    monkeypatch.setattr(DK, "distribution_layer", interrupted)
    plot = tmp_path / "d.png"
    result = runner.invoke(app, [*LATE_CARD, "--plot", str(plot)])
    assert result.exit_code == 130 and calls["n"] == 2
    assert "Traceback" not in result.output and result.stdout == ""
    assert list(tmp_path.iterdir()) == []  # no plot, no temporary file
