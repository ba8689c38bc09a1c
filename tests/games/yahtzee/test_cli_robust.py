"""``stratagem yahtzee``: one bad batch line never stops the batch; ranges come first."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.cli_types import GAMES_MAX
from stratagem.games.yahtzee.solver import Solution
from tests.cli_outcome import allowed, outcome

GOOD = json.dumps({"dice": [1, 1, 1, 1, 4], "rolls_left": 2})


@pytest.fixture(autouse=True)
def _solved_tables(solved: Callable[[str], Solution]) -> None:
    solved("yahtzee")  # into the session cache the command reads


def batch(lines: list[str]) -> list[dict[str, object]]:
    code, output = allowed(["yahtzee", "advise", "--batch"], stdin="\n".join(lines) + "\n")
    assert code == 0, output
    return [json.loads(line) for line in output.splitlines()]


def test_pathological_lines_each_get_an_error_and_the_batch_goes_on() -> None:
    bad = [
        "[" * 30_000 + "]" * 30_000,  # nested past the recursion limit
        json.dumps({"dice": "1" * 60_000, "rolls_left": 0}),
        "x" * 70_000,  # longer than a line may be
        json.dumps({"dice": [1e999, 1, 1, 1, 1], "rolls_left": 0}),
        json.dumps({"dice": [1, 1, 1, 1, 4], "rolls_left": 2, "score": 1.5}),
        json.dumps({"dice": [1, 1, 1, 1, 4], "rolls_left": 2, "upper": 10**400}),
        json.dumps({"dice": {"a": 1}, "rolls_left": 2}),
    ]
    out = batch([GOOD, *[x for line in bad for x in (line, GOOD)]])
    assert len(out) == 1 + 2 * len(bad)
    assert all("options" in o for o in out[::2])
    errors = [str(o["error"]) for o in out[1::2]]
    assert "nested too deeply" in errors[0]
    assert "expected 5 dice, got 60000" in errors[1] and len(errors[1]) < 200
    assert "longer than" in errors[2]
    assert "score must be a whole number" in errors[4]
    assert all(e.startswith(f"line {2 * i + 2}: ") for i, e in enumerate(errors))


def test_non_utf8_input_is_one_error_line() -> None:
    code, output = outcome(
        ["yahtzee", "advise", "--batch"], stdin=b"\xff\xfe{}\n" + GOOD.encode() + b"\n"
    )  # type: ignore[arg-type]
    lines = [json.loads(line) for line in output.splitlines()]
    assert code == 0 and "not UTF-8" in lines[0]["error"] and "options" in lines[1]


JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=6), inner),
    max_leaves=12,
)
FIELDS = st.fixed_dictionaries(
    {
        "dice": st.lists(st.integers(-2, 8), min_size=0, max_size=7) | JSON,
        "rolls_left": st.integers(-1, 3) | JSON,
    },
    optional={
        "filled": st.lists(st.sampled_from(["ones", "chance", "yahtzee", "sixes", "x"])) | JSON,
        "upper": st.integers(-5, 110) | JSON,
        "yahtzee_box": st.sampled_from([0, 50, 25]) | JSON,
        "score": st.integers(-5, 2000) | JSON,
    },
)


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(FIELDS.map(json.dumps) | JSON.map(json.dumps) | st.text(max_size=20), max_size=4))
def test_any_batch_answers_every_line(lines: list[str]) -> None:
    lines = [line.replace("\n", " ").replace("\r", " ") for line in lines]
    lines = [line for line in lines if line.strip()] or [GOOD]
    out = batch(lines)
    assert len(out) == len(lines)
    assert all(("options" in o) != ("error" in o) for o in out)


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "--games", "0"],
        ["simulate", "--games", str(GAMES_MAX + 1)],
        ["simulate", "--seed", "-1"],
        ["play", "--seed", "-5"],
        ["advise", "--dice", "11114", "--rolls-left", "2", "--score", "10"],
        ["advise", "--dice", "11114", "--rolls-left", "2", "--filled", "chance", "--score",
         "100000"],
    ],
)  # fmt: skip
def test_bad_numbers_are_refused_with_exit_2(args: list[str]) -> None:
    code, _ = outcome(["yahtzee", *args])
    assert code == 2


def test_a_plot_into_a_folder_or_a_missing_folder_is_refused_before_work(tmp_path: Path) -> None:
    (tmp_path / "d.png").mkdir()
    for target, message in [(tmp_path / "d.png", "is a folder"),
                            (tmp_path / "no" / "p.png", "does not exist")]:  # fmt: skip
        code, output = outcome(["yahtzee", "distribution", "--plot", str(target)])
        assert code == 2 and message in output
    assert not (tmp_path / "no").exists()


def test_one_simulated_game_has_no_spread() -> None:
    code, output = outcome(["yahtzee", "simulate", "--games", "1", "--json"])
    data = json.loads(output)["result"]
    assert code == 0 and data["sd"] is None and data["se"] is None
    code, output = outcome(["yahtzee", "simulate", "--games", "1"])
    assert code == 0 and "SD n too small" in output and "z = n too small" in output


def test_a_plot_over_a_picture_stratagem_did_not_draw_is_refused(tmp_path: Path) -> None:
    """Issue 33: --plot named an existing file (or a link) and replaced it."""
    photo = tmp_path / "photo.png"
    photo.write_bytes(b"\x89PNG\r\n\x1a\n a photo")
    link = tmp_path / "link.png"
    link.symlink_to(photo)
    for target, message in [(photo, "not a plot Stratagem wrote"), (link, "symbolic link")]:
        code, output = outcome(["yahtzee", "distribution", "--plot", str(target)])
        assert code == 2 and message in output
    assert photo.read_bytes() == b"\x89PNG\r\n\x1a\n a photo"


def test_a_plot_stratagem_drew_is_recognised_as_its_own(tmp_path: Path) -> None:
    from stratagem.games.yahtzee.plots import _pyplot, _save, is_our_plot

    fig = _pyplot().figure()
    png = _save(fig, tmp_path / "p.png")
    assert is_our_plot(png.read_bytes())
    assert not is_our_plot(b"\x89PNG\r\n\x1a\n a photo")
