"""The terminal renders a Scrabble session: the coach's rows, a judged move, a takeback that
meets the same tiles again, and the end with its rack adjustments."""

from __future__ import annotations

from stratagem.core.session import Session
from stratagem.games.scrabble.play import play_session
from tests.terminal import Terminal


def test_a_move_taken_back_in_the_terminal_meets_the_same_tiles_again() -> None:
    session = Session.new("scrabble", "english", ["human", "greedy"], seed=4)
    first = session.legal_texts()[0].rsplit(" ", 1)[0]  # the best-scoring placement, typed
    term = Terminal.scripted(["?", first, "u", first, "q"])
    assert play_session(session, read=term.read, write=term.write) is False  # left, not over
    out = term.transcript
    assert "the coach's best moves, in points of equity" in out
    assert "taken back: 2 moves" in out
    plays = [line for line in out.splitlines() if line.startswith("AI plays ")]
    assert len(plays) == 2 and plays[0] == plays[1]  # the same reply to the same move
    assert len(session.decisions()) == 2 and session.takebacks


def test_a_game_of_passes_ends_with_the_racks_taken_off() -> None:
    session = Session.new("scrabble", "english", ["human", "greedy"], seed=9)
    term = Terminal.scripted(["pass"] * 40)
    assert play_session(session, read=term.read, write=term.write) is True
    assert session.over
    out = term.transcript
    assert "end of game: you, tiles left" in out
    you = session.state.scores[0]  # type: ignore[attr-defined]
    assert f"final score: you {you}," in out
