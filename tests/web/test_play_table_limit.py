"""Rules whose solved table is past the server's bound are refused before any work, when
a game is created and when one is imported (Pig's goal chooses the table's size)."""

from __future__ import annotations

import json

from fastapi.testclient import TestClient

from stratagem.core.store import GameStore
from stratagem.games.pig.spec import table_bytes
from stratagem.web.app import create_app


def client(limit: int) -> TestClient:
    return TestClient(
        create_app(tables="off", max_mcts_sims=200, data=GameStore(None), max_table_bytes=limit)
    )


def test_a_pig_goal_past_the_bound_is_refused_naming_its_size() -> None:
    c = client(8 << 20)
    r = c.post("/api/sessions", json={"game": "pig", "rules": "pig:goal=400",
                                      "seats": ["human", "optimal"]})  # fmt: skip
    assert r.status_code == 400, r.text
    assert "MB" in r.json()["detail"] and "limit" in r.json()["detail"]
    assert c.get("/api/sessions").json()["games"] == []


def test_a_pig_goal_within_the_bound_starts() -> None:
    r = client(8 << 20).post(
        "/api/sessions", json={"game": "pig", "rules": "pig:goal=20", "seats": ["human", "hold:5"]}
    )
    assert r.status_code == 201, r.text


def test_an_imported_record_past_the_bound_is_refused() -> None:
    record = {"format": "stratagem-game", "version": 1, "game": "pig", "rules": "pig:goal=400",
              "seats": [{"kind": "human"}, {"kind": "human"}], "seed": 1,
              "decisions": []}  # fmt: skip
    c = client(8 << 20)
    r = c.post("/api/sessions/import", json={"record": json.dumps(record)})
    assert r.status_code == 400, r.text
    assert "limit" in r.json()["detail"]


def test_the_estimate_counts_both_tables_of_a_catch_up_turn() -> None:
    from stratagem.core.registry import load_game

    spec = load_game("pig")
    plain = table_bytes(spec.rules_object("pig:goal=50"))
    catch_up = table_bytes(spec.rules_object("pig:goal=50,catch_up_turn=true"))
    assert catch_up == 2 * plain > 0
