"""A reduced Yahtzee card through /api/sessions: started against duel-optimal, coached
in exact chances of winning, and refused up front (a 4xx naming why) when its boxes are
unknown or it is too large to solve inside a web request."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from stratagem.core.registry import load_game
from stratagem.core.session import Session
from stratagem.games.yahtzee.duel import Variant
from stratagem.games.yahtzee.duel_play import DuelOptimalAgent, solved_run
from stratagem.web.app import create_app

SMALL = "yahtzee:boxes=ones+twos+chance,bonus=true"
TOO_LARGE_FOR_THE_WEB = "yahtzee:boxes=ones+threes+fives+chance,bonus=true"


@pytest.fixture()
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tables="off", data=tmp_path / "data")) as c:
        yield c


def _new(client: TestClient, rules: str, seats: list[str]) -> tuple[int, dict]:
    r = client.post("/api/sessions", json={"game": "yahtzee", "rules": rules, "seats": seats,
                                           "seed": 5})  # fmt: skip
    return r.status_code, r.json()


def test_a_reduced_card_is_played_against_duel_optimal_with_exact_chances(
    client: TestClient,
) -> None:
    status, view = _new(client, SMALL, ["human", "duel-optimal:solve=true"])
    assert status == 201, view
    sid = view["id"]
    assert view["unit"]["name"] == "chance of winning"
    assert view["view"]["categories"] == ["ones", "twos", "chance"]
    assert view["view"]["upper_bonus_on"] is True and view["view"]["exact"] is True
    rows = client.get(f"/api/sessions/{sid}/advice").json()["rows"]
    variant = load_game("yahtzee").rules_object(SMALL)
    assert isinstance(variant, Variant)
    state = Session.from_json(client.get(f"/api/sessions/{sid}/record").content).state
    solver = DuelOptimalAgent(solved_run(variant)).advise(state)
    assert [r["action"] for r in rows] == [str(a.action) for a in solver]
    assert [r["value"] for r in rows] == pytest.approx([a.value for a in solver], abs=1e-15)
    # the person plays the best until the agent has played a turn
    while not any(d["by"] == "agent" for d in view["decisions"]):
        if view["human_to_move"]:
            best = client.get(f"/api/sessions/{sid}/advice").json()["rows"][0]["action"]
            r = client.post(f"/api/sessions/{sid}/move", json={"decision": best})
        else:
            r = client.post(f"/api/sessions/{sid}/ai", json={})
        assert r.status_code == 200, r.json()
        view = r.json()
    verdicts = client.get(f"/api/yahtzee/sessions/{sid}/verdicts").json()
    assert {v["label"] for v in verdicts["verdicts"]} == {"best"}


@pytest.mark.parametrize(
    "rules, seats, words",
    [
        ("yahtzee:boxes=ones+sevens", ["human", "optimal"], "unknown box"),
        (TOO_LARGE_FOR_THE_WEB, ["human", "optimal"], "too large to solve here"),
        (TOO_LARGE_FOR_THE_WEB, ["human", "duel-optimal:solve=true"], "too large to solve here"),
        (TOO_LARGE_FOR_THE_WEB, ["human", "duel-optimal"], "no solved two-player table"),
        (SMALL, ["human", "greedy"], "full card"),
    ],
)
def test_a_reduced_card_that_cannot_be_played_here_is_refused_naming_why(
    client: TestClient, rules: str, seats: list[str], words: str
) -> None:
    status, answer = _new(client, rules, seats)
    assert 400 <= status < 500 and words in answer["detail"], answer
    assert client.get("/api/sessions").json()["games"] == []  # nothing was kept


def test_alone_on_a_large_reduced_card_the_coach_prices_expected_points(
    client: TestClient,
) -> None:
    """No two-player table is needed alone: the card's solitaire optimum prices it."""
    status, view = _new(client, TOO_LARGE_FOR_THE_WEB, ["human"])
    assert status == 201, view
    assert view["unit"]["name"] == "expected points"
    rows = client.get(f"/api/sessions/{view['id']}/advice").json()["rows"]
    assert rows[0]["value"] == max(r["value"] for r in rows) > 0
