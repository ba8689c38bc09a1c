"""A page never names a file on the server: rules and agent specs that would read one
(a word list, a leave table, a rule table) are refused before any work, at creation and
at import (found in review: english:lexicon=/path reached the server's files)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from stratagem.core.store import GameStore
from stratagem.web.app import create_app


@pytest.fixture
def client() -> TestClient:
    return TestClient(create_app(tables="off", max_mcts_sims=200, data=GameStore(None)))


@pytest.mark.parametrize(
    ("game", "rules", "seats", "named"),
    [
        ("scrabble", "english:lexicon=/etc/hostname", ["human", "greedy"], "lexicon"),
        ("scrabble", None, ["human", "equity:leaves=/etc/hostname"], "leaves"),
        ("scrabble", None, ["human", "heuristic:weights=/etc/hostname"], "weights"),
        ("pig", None, ["human", "table:/etc/hostname"], "file"),
    ],
)
def test_a_spec_naming_a_server_file_is_refused(
    client: TestClient, game: str, rules: str | None, seats: list[str], named: str
) -> None:
    body = {"game": game, "seats": seats, **({"rules": rules} if rules else {})}
    r = client.post("/api/sessions", json=body)
    assert r.status_code == 400, r.text
    assert "file on the server" in r.json()["detail"] and named in r.json()["detail"]


def test_a_shipped_table_by_name_is_still_allowed(client: TestClient) -> None:
    r = client.post(
        "/api/sessions", json={"game": "scrabble", "seats": ["human", "heuristic:weights=leave"]}
    )
    assert r.status_code == 201, r.text


def test_an_imported_record_naming_a_server_file_is_refused(
    client: TestClient, tmp_path: Path
) -> None:
    record = {
        "format": "stratagem-game", "version": 1, "game": "pig", "rules": "pig",
        "seats": [{"kind": "human"}, {"kind": "agent", "spec": "table:/etc/hostname"}],
        "seed": 1, "decisions": [],
    }  # fmt: skip
    r = client.post("/api/sessions/import", json={"record": json.dumps(record)})
    assert r.status_code == 400, r.text
    assert "file on the server" in r.json()["detail"]
    assert client.get("/api/sessions").json()["games"] == []


@pytest.mark.parametrize(
    ("game", "seat", "named"),
    [
        ("scorefour", "minimax:seconds=3600", "seconds"),
        ("scorefour", "minimax:depth=40", "depth"),
        ("pig", "mcts:sims=10000000", "sims"),
        ("scrabble", "equity:think=600", "think"),
    ],
)
def test_an_agent_asked_for_more_work_than_a_page_may_is_refused(
    client: TestClient, game: str, seat: str, named: str
) -> None:
    r = client.post("/api/sessions", json={"game": game, "seats": ["human", seat]})
    assert r.status_code == 400, r.text
    assert named in r.json()["detail"] and "at most" in r.json()["detail"]


def test_a_hidden_information_game_hides_its_deal_while_it_goes_on(client: TestClient) -> None:
    """The seed and the JSON record tell every tile still hidden (the AI's rack, the bag):
    neither is given while a Scrabble game goes on; the GCG record (racks of the person's
    seat only) is."""
    r = client.post("/api/sessions", json={"game": "scrabble", "seats": ["human", "greedy"]})
    assert r.status_code == 201, r.text
    view = r.json()
    assert view["seed"] is None
    sid = view["id"]
    r = client.get(f"/api/sessions/{sid}/record")
    assert r.status_code == 400 and "once the game is over" in r.json()["detail"]
    assert client.get(f"/api/sessions/{sid}/record?format=gcg").status_code == 200


def test_a_game_of_open_information_shows_its_seed(client: TestClient) -> None:
    r = client.post("/api/sessions", json={"game": "pig", "seats": ["human", "hold:20"], "seed": 9})
    assert r.json()["seed"] == 9
    assert client.get(f"/api/sessions/{r.json()['id']}/record").status_code == 200
