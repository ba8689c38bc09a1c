"""CLI of the players: moves --explain, tune and learn-leaves option errors."""

from __future__ import annotations

import json

import pytest

from tests.cli_outcome import Invoked, invoke

from .conftest import SMALL_WORDS


def run(args: list[str], input: str | None = None) -> Invoked:
    """``stratagem scrabble ARGS`` as the console script runs it."""
    return invoke(["scrabble", *args], input)


@pytest.fixture()
def words(tmp_path, monkeypatch):  # type: ignore[no-untyped-def]
    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "words.txt"
    path.write_text("\n".join([*SMALL_WORDS, "quiz"]) + "\n")
    return path


def test_explain_shows_every_term(words) -> None:  # type: ignore[no-untyped-def]
    result = run(
        ["moves", "--lexicon", str(words), "--rack", "QUIZ?EE", "--explain", "--json",
              "--player", "heuristic:weights=source"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)["result"]
    assert data["phase"] == "opening"
    top = data["moves"][0]
    names = [t["term"] for t in top["terms"]]
    assert names == ["expensive", "blank", "identical", "premium", "score", "leave"]
    total = sum(t["contribution"] for t in top["terms"]) / 1000
    assert abs(total - top["value"]) < 1e-9
    assert top["explanation"].startswith("opening: scores")
    text = run(["moves", "--lexicon", str(words), "--rack", "QUIZ?EE",
                               "--explain", "--top", "3"])  # fmt: skip
    assert text.exit_code == 0 and "phase: opening" in text.stdout


def test_explain_refuses_other_players(words) -> None:  # type: ignore[no-untyped-def]
    result = run(["moves", "--lexicon", str(words), "--rack", "QUIZ",
                                 "--explain", "--player", "greedy"])  # fmt: skip
    assert result.exit_code == 2 and "heuristic" in result.output


def test_tune_refuses_odd_games(tmp_path) -> None:  # type: ignore[no-untyped-def]
    result = run(["tune", "--out", str(tmp_path / "ga"), "--games", "3"])
    assert result.exit_code == 2 and "even" in result.output
    assert not (tmp_path / "ga" / "checkpoint.json").exists()


def test_a_player_without_explain_is_refused(words) -> None:  # type: ignore[no-untyped-def]
    """`moves --player X` without --explain listed the moves by score and ignored X."""
    for player in ("equity", "heuristic"):
        result = run(["moves", "--lexicon", str(words), "--rack", "QUIZ", "--player", player])
        assert result.exit_code == 2, result.output
        assert "error: --player ranks the moves with --explain; without it moves are listed " in (
            result.stderr
        )
