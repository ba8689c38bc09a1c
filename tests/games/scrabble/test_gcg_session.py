"""GCG records through sessions: the recorded games open as sessions, replay, and write
back the same moves and scores; what a session cannot replay is refused by name."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.core.errors import RecordError
from stratagem.core.session import Session
from stratagem.games.scrabble.gcg import GCG_LIMIT, GcgError
from stratagem.games.scrabble.gcg_session import session_from_gcg, session_to_gcg, turn_lines

DATA = Path(__file__).parent / "data"
RECORDS = sorted(DATA.glob("selfplay_*.gcg"))


def final_totals(text: str) -> dict[str, int]:
    """Each player's last running total, read from the lines (not replayed)."""
    out: dict[str, int] = {}
    for line in turn_lines(text):
        out[line[1:].split(":", 1)[0]] = int(line.split()[-1])
    return out


def test_the_five_recorded_games_are_there() -> None:
    assert len(RECORDS) == 5


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_a_recorded_game_opens_as_a_session_and_writes_back_the_same_turns(path: Path) -> None:
    text = path.read_text()
    session = session_from_gcg(text)
    assert session.over
    totals = final_totals(text)
    assert list(session.state.scores) == [totals["p1"], totals["p2"]]  # type: ignore[attr-defined]
    assert turn_lines(session_to_gcg(session)) == turn_lines(text)


@pytest.mark.parametrize("path", RECORDS[:2], ids=lambda p: p.name)
def test_an_imported_game_survives_its_json_record(path: Path) -> None:
    session = session_from_gcg(path.read_text())
    again = Session.from_json(session.to_json(), game="scrabble")
    assert again.decisions() == session.decisions()
    assert turn_lines(session_to_gcg(again)) == turn_lines(path.read_text())


def test_a_changed_recorded_deal_is_refused_naming_the_draw() -> None:
    session = session_from_gcg(RECORDS[0].read_text())
    record = session.to_record()
    record["chance"][3] = "(0, 0, 0, 0, 0, 0, 0)"
    with pytest.raises(RecordError, match=r"chance outcome 4 .*recorded deal"):
        Session.from_record(record)


def test_a_takeback_in_an_imported_game_meets_the_recorded_tiles_again() -> None:
    session = session_from_gcg(RECORDS[1].read_text())
    line = [s.text for s in session.line]
    session.takeback(10)
    rest = [s.text for s in session_from_gcg(RECORDS[1].read_text()).decision_steps()][10:]
    for text in rest:
        session.submit(text)
    assert [s.text for s in session.line] == line


def test_an_unfinished_game_exports_the_viewers_rack_only() -> None:
    session = session_from_gcg(RECORDS[0].read_text())
    session.takeback(6)  # player 0 to move, the game in progress
    mine = turn_lines(session_to_gcg(session, viewer=0))
    full = turn_lines(session_to_gcg(session))
    theirs = [line for line in mine if line.startswith(">p2:")]
    assert theirs and all(
        len(a.split()[1]) <= len(b.split()[1])
        for a, b in zip(theirs, [f for f in full if f.startswith(">p2:")])
    )
    assert [line for line in mine if line.startswith(">p1:")] == [
        line for line in full if line.startswith(">p1:")
    ]


def test_a_truncated_record_is_refused_naming_the_line() -> None:
    text = RECORDS[0].read_text()
    cut = text[: text.index("\n>", len(text) // 2) + 12]
    with pytest.raises(GcgError, match="line"):
        session_from_gcg(cut)


def test_a_record_too_large_is_refused_before_reading() -> None:
    with pytest.raises(GcgError, match="at most"):
        session_from_gcg("#note " + "x" * GCG_LIMIT)


def test_a_record_of_another_game_is_refused() -> None:
    pig = Session.new("pig", "pig", ["human", "human"]).to_json()
    with pytest.raises(GcgError, match="not a GCG game record"):
        session_from_gcg(pig)


def test_a_record_for_other_tiles_is_refused() -> None:
    text = "#tile-distribution french\n" + RECORDS[0].read_text()
    with pytest.raises(GcgError, match="french"):
        session_from_gcg(text)


def test_an_impossible_score_is_refused_naming_the_turn() -> None:
    text = RECORDS[0].read_text().replace("GRAPERY +84 84", "GRAPERY +85 85", 1)
    with pytest.raises(GcgError, match="GRAPERY"):
        session_from_gcg(text)


def test_a_rack_that_the_bag_cannot_give_is_refused() -> None:
    lines = RECORDS[0].read_text().splitlines()
    k = next(i for i, line in enumerate(lines) if line.startswith(">p2:"))
    head, _rack, rest = lines[k].split(" ", 2)
    lines[k] = f"{head} ZZZZZZZ {rest}"
    with pytest.raises(GcgError, match="ZZZZZZZ"):
        session_from_gcg("\n".join(lines))


def test_a_challenge_bonus_is_refused_as_not_replayable() -> None:
    lines = RECORDS[0].read_text().splitlines()
    k = [i for i, line in enumerate(lines) if line.startswith(">")][1]  # p2's first turn
    rack = lines[k].split()[1]
    text = "\n".join([*lines[: k + 1], f">p2: {rack} (challenge) +5 95"])
    with pytest.raises(GcgError, match="challenge"):
        session_from_gcg(text)
