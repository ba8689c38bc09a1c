"""``stratagem arena``: ranges before work, and Ctrl-C leaves a results file that resumes."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stratagem.cli_types import GAMES_MAX
from stratagem.core import arena
from stratagem.core.arena import read_results
from tests.cli_outcome import outcome

RUN = ["arena", "run", "--game", "pig", "--rules", "coin-3", "--agents", "hold:2,random"]


@pytest.mark.parametrize(
    "extra",
    [
        ["--games", "0"],
        ["--games", str(GAMES_MAX + 1)],
        ["--seed", "-1"],
        ["--workers", "0"],
        ["--chunk", "0"],
    ],
)
def test_out_of_range_numbers_are_refused_before_the_file_is_touched(
    tmp_path: Path, extra: list[str]
) -> None:
    out = tmp_path / "r.csv"
    code, _ = outcome([*RUN, "--out", str(out), *extra])
    assert code == 2 and not out.exists()


def test_ctrl_c_leaves_a_valid_file_that_the_same_command_completes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "r.csv"
    args = [*RUN, "--games", "12", "--chunk", "4", "--workers", "1", "--out", str(out)]
    real = arena.run_task
    calls = {"n": 0}

    def interrupted(task: arena.Task) -> list[dict[str, Any]]:
        calls["n"] += 1
        if calls["n"] == 2:
            raise KeyboardInterrupt
        return real(task)

    monkeypatch.setattr(arena, "run_task", interrupted)
    code, output = outcome(args)
    assert code == 130 and "interrupted: 4 of 12 games" in output
    assert len(read_results(out)) == 4
    monkeypatch.setattr(arena, "run_task", real)
    code, _ = outcome(args)
    assert code == 0 and sorted(r["game_index"] for r in read_results(out)) == list(range(12))
