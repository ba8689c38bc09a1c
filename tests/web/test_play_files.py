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
