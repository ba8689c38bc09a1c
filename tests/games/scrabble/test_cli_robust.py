"""``stratagem scrabble``: odd files and numbers give a named error (exit 2), never a crash."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.cli_outcome import allowed, outcome
from tests.games.scrabble.conftest import SMALL_WORDS


@pytest.fixture()
def words(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "words.txt"
    path.write_text("\n".join(SMALL_WORDS) + "\n")
    return path


def test_odd_files_are_named_errors(words: Path, tmp_path: Path) -> None:
    (tmp_path / "latin1.txt").write_bytes("racks: AB CD\nboard:\ncaf\xe9\n".encode("latin-1"))
    os.mkfifo(tmp_path / "fifo")
    cases = [
        (["--position", str(tmp_path)], "it is a folder"),
        (["--position", str(tmp_path / "latin1.txt")], "not UTF-8"),
        (["--position", "/dev/zero"], "larger than"),
        (["--position", str(tmp_path / "fifo")], "no 'board:' section"),
        (["--position", str(words / "x")], "not a folder"),
        (["--lexicon", str(tmp_path), "--rack", "CAT"], "it is a folder"),
        (["--top", "0", "--rack", "CAT"], "--top"),
    ]
    for args, message in cases:
        base = [] if "--lexicon" in args else ["--lexicon", str(words)]
        code, output = outcome(["scrabble", "moves", *base, *args])
        assert code == 2 and message in " ".join(output.split()), (args, output)  # any width


@pytest.mark.parametrize("args", [["--games", "0"], ["--games", "10000000"], ["--seed", "-1"]])
def test_selfplay_numbers_have_ranges(words: Path, args: list[str]) -> None:
    code, _ = outcome(["scrabble", "selfplay", "--lexicon", str(words), *args])
    assert code == 2


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rack=st.text(max_size=10), top=st.integers(-3, 30) | st.integers())
def test_moves_answer_any_rack_and_top(words: Path, rack: str, top: int) -> None:
    if not rack or rack.startswith("-"):
        rack = "x" + rack  # an option-like value is the shell's business, not ours
    code, output = allowed(
        ["scrabble", "moves", "--lexicon", str(words), "--rack", rack, "--top", str(top),
         "--json"]
    )  # fmt: skip
    if code == 0:
        assert len(json.loads(output)["result"]["moves"]) <= top
