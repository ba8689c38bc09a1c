"""``stratagem review RECORD.json``: the core review of a record in the terminal, with the
recipe game Nim (exact chances, worked out by hand in tests/core/test_review.py)."""

from __future__ import annotations

import dataclasses
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from stratagem.core.registry import GameSpec
from stratagem.core.review import review
from stratagem.core.session import MAX_RECORD_BYTES, Session
from tests.cli_outcome import invoke
from tests.contract.games import registered


@pytest.fixture
def nim() -> Iterator[GameSpec]:
    with registered("nim") as spec:
        yield spec


def nim_record(tmp_path: Path) -> Path:
    """nim-7 against "four", seed 3 (the die adds no stone): the person takes 1 of 7 (3 was
    best), then 1 of 4."""
    s = Session.new("nim", "nim-7", ["human", "four"], seed=3)
    for take in ("1", "1"):
        s.submit(take)
        s.play_agents()
    path = tmp_path / "nim.json"
    path.write_text(s.to_json(), encoding="utf-8")
    return path


def test_the_review_is_printed_as_a_table(nim: GameSpec, tmp_path: Path) -> None:
    done = invoke(["review", str(nim_record(tmp_path))])
    assert done.exit_code == 0, done.output
    rows = [line for line in done.stdout.splitlines() if "│ blunder │" in line]
    assert len(rows) == 1 and "51.0" in rows[0] and "exact" in rows[0]  # 25/49
    assert "inaccuracy (from 2.0), mistake (from 5.0)" in " ".join(done.stdout.split())
    assert "-17.2" in done.stdout and "Result: player 2 won." in done.stdout  # luck -59/343


def test_json_is_the_core_review_in_the_envelope(nim: GameSpec, tmp_path: Path) -> None:
    path = nim_record(tmp_path)
    done = invoke(["review", str(path), "--json"])
    assert done.exit_code == 0, done.output
    data = json.loads(done.stdout)
    assert data["command"] == "review" and data["inputs"] == {"record": str(path)}
    session = Session.from_json(path.read_bytes())
    assert nim.coaching is not None
    assert data["result"] == review(session, nim.coaching(7)).to_json()


def test_a_truncated_record_is_refused_naming_the_problem(nim: GameSpec, tmp_path: Path) -> None:
    path = nim_record(tmp_path)
    path.write_bytes(path.read_bytes()[:100])
    done = invoke(["review", str(path)])
    assert done.exit_code == 2 and "not complete JSON (truncated?)" in done.stderr
    assert str(path) in done.stderr


def test_a_record_too_large_is_refused_unread_and_left_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "big.json"
    path.write_bytes(b" " * (MAX_RECORD_BYTES + 1))
    done = invoke(["review", str(path)])
    assert done.exit_code == 2 and "larger than a game record may be" in done.stderr
    assert path.stat().st_size == MAX_RECORD_BYTES + 1


def test_a_missing_file_is_exit_2(tmp_path: Path) -> None:
    done = invoke(["review", str(tmp_path / "none.json")])
    assert done.exit_code == 2 and "cannot read the record" in done.stderr


def test_an_impossible_game_is_refused_naming_the_decision(nim: GameSpec, tmp_path: Path) -> None:
    path = nim_record(tmp_path)
    data = json.loads(path.read_text())
    data["decisions"][1] = "3"  # "four" took 2 of 6; 3 is legal, but then the rest is not
    data.pop("chance")
    data.pop("result")
    path.write_text(json.dumps(data))
    done = invoke(["review", str(path)])
    assert done.exit_code == 2 and "decision" in done.stderr and "impossible" in done.stderr


def test_a_game_without_coaching_cannot_be_reviewed(
    nim: GameSpec, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = nim_record(tmp_path)
    module = next(m for m in list(sys.modules.values()) if getattr(m, "GAME", None) is nim)
    monkeypatch.setattr(module, "GAME", dataclasses.replace(nim, coaching=None))
    done = invoke(["review", str(path)])
    assert done.exit_code == 2 and "Nim has no coaching" in done.stderr


def scorefour_record(tmp_path: Path) -> Path:
    """Score Four between two people: X takes a1 b1 c1 d1 while O plays a2 b2 c2."""
    from stratagem.games.scorefour.board import parse_peg

    s = Session.new("scorefour", "scorefour", ["human", "human"], seed=1)
    for peg in ("a1", "a2", "b1", "b2", "c1", "c2", "d1"):
        s.submit(str(parse_peg(peg)))
    path = tmp_path / "scorefour.json"
    path.write_text(s.to_json(), encoding="utf-8")
    return path


def test_a_proven_win_is_said_in_words_in_the_terminal_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Score Four: X takes a1 b1 c1 d1 while O plays a2 b2 c2; before X's last move the
    # coach proves the win, said as such, not as the cost scale's 999 (issue 35)
    monkeypatch.setenv("COLUMNS", "160")  # one line a row
    done = invoke(["review", str(scorefour_record(tmp_path))])
    assert done.exit_code == 0, done.output
    last = next(line for line in done.stdout.splitlines() if line.lstrip("│ ").startswith("7 "))
    assert "wins in 1" in last and "999" not in last and "500" not in last


def test_a_thrown_away_result_is_said_and_capped_in_the_terminal_review(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the same game: O's c2 (move 6) leaves X's d1 open. It showed a cost of 1012 and a
    # total of 1047 (issue 35); now the cap, in words, and counted apart from the total
    import re

    from stratagem.games.scorefour.coach import EVAL_CAP

    monkeypatch.setenv("COLUMNS", "200")  # one line a row
    done = invoke(["review", str(scorefour_record(tmp_path))])
    assert done.exit_code == 0, done.output
    sixth = next(line for line in done.stdout.splitlines() if line.lstrip("│ ").startswith("6 "))
    assert "turned an open game into a loss in 1" in sixth and "blunder" in sixth
    numbers = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", done.stdout)]
    assert max(numbers) <= EVAL_CAP
    flat = " ".join(done.stdout.split())
    assert "proven results thrown away │ 1" in flat
    assert "total cost of the other decisions" in flat and "count such moves apart" in flat
