"""``GET /api/sessions/{sid}/review`` (web/review.py): the core review of a stored game,
for the recipe game Nim, whose coaching is exact."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stratagem.core.registry import GameSpec
from stratagem.core.session import Session
from stratagem.web.app import create_app
from tests.contract.games import registered


@pytest.fixture
def nim() -> Iterator[GameSpec]:
    with registered("nim") as spec:
        yield spec


@pytest.fixture
def nim_client(nim: GameSpec) -> Iterator[TestClient]:
    with TestClient(create_app(tables="off")) as c:
        yield c


def played_game(client: TestClient, takes: tuple[str, ...] = ("1", "1")) -> dict[str, Any]:
    """nim-7 against "four", seed 3 (the die adds no stone): the person takes ``takes``."""
    game = client.post(
        "/api/sessions",
        json={"game": "nim", "rules": "nim-7", "seats": ["human", "four"], "seed": 3},
    ).json()
    for take in takes:
        game = client.post(f"/api/sessions/{game['id']}/move", json={"decision": take}).json()
        if not game["over"]:
            game = client.post(f"/api/sessions/{game['id']}/ai", json={}).json()
    return game


def test_the_review_prices_each_decision_as_the_coachs_judge(
    nim: GameSpec, nim_client: TestClient
) -> None:
    game = played_game(nim_client)
    assert game["over"]
    got = nim_client.get(f"/api/sessions/{game['id']}/review")
    assert got.status_code == 200
    data = got.json()
    assert data["id"] == game["id"] and data["page"] == "/play?game=nim" and data["title"] == "Nim"
    record = nim_client.get(f"/api/sessions/{game['id']}/record").content
    session = Session.from_json(record)
    assert nim.coaching is not None
    coaching = nim.coaching(7)
    for row in data["decisions"]:
        judged = coaching.judge(session.state_at(row["decision"]), row["played"])
        assert {k: row[k] for k in judged.to_json()} == judged.to_json()
    assert [row["decision"] for row in data["decisions"]] == [0, 2]
    assert abs(data["totals"]["cost"] - 25 / 49) < 1e-12  # tests/core/test_review.py
    assert abs(data["totals"]["luck"] - (-59 / 343)) < 1e-12


def test_a_game_in_progress_is_reviewed_so_far(nim_client: TestClient) -> None:
    game = played_game(nim_client, ("1",))
    data = nim_client.get(f"/api/sessions/{game['id']}/review").json()
    assert data["finished"] is False and len(data["decisions"]) == 1
    assert data["totals"]["luck"] is None and data["graph"][-1]["decision"] == 2


def test_an_unknown_game_is_404(nim_client: TestClient) -> None:
    got = nim_client.get("/api/sessions/ses-nosuchgame0000000000/review")
    assert got.status_code == 404 and "ses-nosuchgame" in got.json()["detail"]


def test_a_game_without_coaching_is_refused_naming_why(nim_client: TestClient) -> None:
    game = nim_client.post(
        "/api/sessions", json={"game": "scorefour", "seats": ["human", "human"], "seed": 1}
    ).json()
    got = nim_client.get(f"/api/sessions/{game['id']}/review")
    if got.status_code == 200:  # Score Four got its coaching (scorefour34): it reviews
        assert got.json()["decisions"] == []
    else:
        assert got.status_code == 400 and "has no coaching" in got.json()["detail"]
