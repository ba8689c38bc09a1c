"""Scrabble through the one REST shape: a game against an agent keeps the agent's rack
hidden, GCG is the game's record format both ways, and a hostile GCG is refused by name."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stratagem.games.scrabble.gcg_session import turn_lines
from stratagem.games.scrabble.state import ScrabbleState

DATA = Path(__file__).resolve().parents[1] / "games" / "scrabble" / "data"
RECORDS = sorted(DATA.glob("selfplay_*.gcg"))


def start(client: Any, seats: list[str]) -> dict[str, Any]:
    r = client.post("/api/sessions", json={"game": "scrabble", "seats": seats, "seed": 11})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def test_a_game_against_an_agent_never_shows_the_agents_rack(client: Any) -> None:
    game = start(client, ["human", "greedy"])
    assert game["human_to_move"] and game["view"]["racks"][1] is None
    assert game["unit"]["name"] == "points of equity"
    first = game["legal"][0]  # the best-scoring placement
    after = client.post(f"/api/sessions/{game['id']}/move", json={"decision": first}).json()
    # the agent is to move: the view is still the person's, with no legal moves and no draws
    assert after["to_move"] == 1 and not after["human_to_move"]
    assert after["view"]["viewer"] == 0 and after["view"]["racks"][1] is None
    assert after["legal"] == []
    assert all(step["text"] == "" for step in after["line"] if step["by"] == "chance")
    assert client.get(f"/api/sessions/{game['id']}/advice").status_code == 400
    replied = client.post(f"/api/sessions/{game['id']}/ai", json={}).json()
    assert replied["human_to_move"] and len(replied["decisions"]) == 2


def test_the_legal_moves_of_a_position_are_listed_once_and_not_for_the_agents_turn(
    client: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a rack with blanks has tens of thousands of moves (most of a second to list): a view
    # asked again, and the move that follows, reuse the list; the agent's are never shown
    game = start(client, ["human", "greedy"])
    listed: list[ScrabbleState] = []
    real = ScrabbleState.legal_actions

    def counted(state: ScrabbleState) -> Any:
        listed.append(state)
        return real(state)

    monkeypatch.setattr(ScrabbleState, "legal_actions", counted)
    for _ in range(3):
        assert client.get(f"/api/sessions/{game['id']}").json()["legal"] == game["legal"]
    after = client.post(f"/api/sessions/{game['id']}/move", json={"decision": game["legal"][0]})
    assert after.json()["to_move"] == 1 and after.json()["legal"] == []
    assert client.get(f"/api/sessions/{game['id']}").json()["legal"] == []
    assert listed == []


def test_advice_rows_are_the_coachs_in_points_of_equity(client: Any) -> None:
    game = start(client, ["human", "greedy"])
    advice = client.get(f"/api/sessions/{game['id']}/advice").json()
    assert advice["unit"]["thresholds"] == {"inaccuracy": 3.0, "mistake": 8.0, "blunder": 15.0}
    rows = advice["rows"]
    assert rows[0]["cost"] == 0 and all(r["action"] in game["legal"] for r in rows[:5])


@pytest.mark.parametrize("path", RECORDS[:2], ids=lambda p: p.name)
def test_a_gcg_record_imports_and_exports_with_the_same_turns(client: Any, path: Path) -> None:
    text = path.read_text()
    r = client.post("/api/sessions/import", json={"record": text, "format": "gcg"})
    assert r.status_code == 201, r.text
    game = r.json()
    assert game["over"] and game["game"] == "scrabble"
    out = client.get(f"/api/sessions/{game['id']}/record", params={"format": "gcg"})
    assert out.status_code == 200
    assert turn_lines(out.text) == turn_lines(text)


@pytest.mark.parametrize(
    ("record", "named"),
    [
        (">p1: EARRGPY 8F GRAPERY +84 84\n>p2: EEINTSC K5 SEC", "line 2"),
        (">p1: EARRGPY 8F GRAPERY +85 85\n", "GRAPERY"),
        ('{"format": "stratagem-game", "game": "pig"}', "not a GCG game record"),
        ("#tile-distribution french\n>p1: EARRGPY 8F GRAPERY +84 84\n", "french"),
    ],
    ids=["truncated", "impossible", "another game", "other tiles"],
)
def test_a_hostile_gcg_is_refused_naming_the_problem(client: Any, record: str, named: str) -> None:
    before = client.get("/api/sessions").json()["games"]
    r = client.post("/api/sessions/import", json={"record": record, "format": "gcg"})
    assert r.status_code in (400, 422) and named in r.json()["detail"]
    assert client.get("/api/sessions").json()["games"] == before


def test_a_game_in_progress_exports_gcg_with_the_agents_tiles_played_only(client: Any) -> None:
    game = start(client, ["human", "greedy"])
    sid = game["id"]
    client.post(f"/api/sessions/{sid}/move", json={"decision": game["legal"][0]})
    client.post(f"/api/sessions/{sid}/ai", json={})
    text = client.get(f"/api/sessions/{sid}/record", params={"format": "gcg"}).text
    lines = turn_lines(text)
    assert len(lines) == 2
    agent_rack = lines[1].split()[1]
    assert len(agent_rack) < 7 or lines[1].split()[2].startswith("-")  # the tiles it laid


def test_a_move_in_the_cli_notation_is_read_into_the_sessions_text(client: Any) -> None:
    game = start(client, ["human", "greedy"])
    sid = game["id"]
    best = game["legal"][0]
    typed = best.rsplit(" ", 1)[0]
    read = client.post(f"/api/scrabble/sessions/{sid}/read", json={"move": typed})
    assert read.status_code == 200 and read.json()["decision"] == best
    bad = client.post(f"/api/scrabble/sessions/{sid}/read", json={"move": "8H QQQQQ"})
    assert bad.status_code == 400 and "QQQQQ" in bad.json()["detail"]
    client.post(f"/api/sessions/{sid}/move", json={"decision": best})
    agents_turn = client.post(f"/api/scrabble/sessions/{sid}/read", json={"move": "pass"})
    assert agents_turn.status_code == 400 and "agent" in agents_turn.json()["detail"]


def test_an_agents_position_is_hidden_until_the_game_is_over(client: Any) -> None:
    game = start(client, ["human", "greedy"])
    sid = game["id"]
    client.post(f"/api/sessions/{sid}/move", json={"decision": game["legal"][0]})
    own = client.get(f"/api/scrabble/sessions/{sid}/position", params={"at": 0})
    assert own.status_code == 200 and own.json()["judged"]["played"] == game["legal"][0]
    assert "racks" not in own.json()["position"]  # no other rack in a game going on
    theirs = client.get(f"/api/scrabble/sessions/{sid}/position", params={"at": 1})
    assert theirs.status_code == 400 and "hidden" in theirs.json()["detail"]
