"""Pig through the one REST shape (``/api/sessions``) and Pig's extras (``/api/pig``):
the coach's view, advice and map; the review's numbers are the coach's."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from stratagem.core.session import Session
from stratagem.games.pig.coach import PigCoaching
from stratagem.games.pig.rules import preset


def new(client: TestClient, rules: str, seats: list[str], seed: int) -> dict:  # type: ignore[type-arg]
    r = client.post(
        "/api/sessions", json={"game": "pig", "rules": rules, "seats": seats, "seed": seed}
    )
    assert r.status_code == 201, r.text
    return r.json()  # type: ignore[no-any-return]


def play_out(client: TestClient, game: dict, choose: object) -> dict:  # type: ignore[type-arg]
    """Play to the end: agents by /ai, the person by ``choose(rows)``."""
    sid = game["id"]
    while not game["over"]:
        if not game["human_to_move"]:
            game = client.post(f"/api/sessions/{sid}/ai", json={}).json()
            continue
        rows = client.get(f"/api/sessions/{sid}/advice").json()["rows"]
        decision = choose(rows)  # type: ignore[operator]
        game = client.post(f"/api/sessions/{sid}/move", json={"decision": decision}).json()
    return game


def test_a_game_by_the_hints_gives_nothing_away_in_its_review(client: TestClient) -> None:
    game = play_out(
        client, new(client, "piglet", ["human", "optimal"], 3), lambda r: r[0]["action"]
    )
    assert game["view"]["rules"]["description"].startswith("piglet: coin")
    assert game["view"]["chances"] == game["result"]["returns"]
    review = client.get(f"/api/sessions/{game['id']}/review").json()
    assert review["totals"]["cost"] == 0.0
    assert {d["label"] for d in review["decisions"]} == {"best"}


def test_the_review_prices_each_decision_as_the_coach_judges_it(client: TestClient) -> None:
    """Against hold:2 in coin-3, always rolling: the review's cost, best and label of every
    decision of the person are the coach's judge in that position, and its graph the
    coach's evaluation."""
    game = play_out(client, new(client, "coin-3", ["human", "hold:2"], 5), lambda r: "roll")
    record = client.get(f"/api/sessions/{game['id']}/record").text
    session = Session.from_json(record)
    review = client.get(f"/api/sessions/{game['id']}/review").json()
    coach = PigCoaching(preset("coin-3"), ["human", "hold:2"])
    assert review["decisions"], "the person decided"
    for d in review["decisions"]:
        judged = coach.judge(session.state_at(d["decision"]), d["played"])
        assert (d["cost"], d["best"], d["label"], d["exact"]) == (
            judged.cost, judged.best, judged.label, True,
        )  # fmt: skip
    for point in review["graph"]:
        state = session.state_at(point["decision"])
        assert point["value"] == pytest.approx(coach.evaluation(state, 0), abs=1e-12)


def test_against_hold_25_advice_is_the_best_reply_with_the_optimum_beside(
    client: TestClient,
) -> None:
    game = new(client, "pig", ["human", "hold:25"], 4)
    client.post(f"/api/sessions/{game['id']}/move", json={"decision": "roll"})
    advice = client.get(f"/api/sessions/{game['id']}/advice").json()
    assert advice["unit"]["name"] == "chance of winning"
    assert all("optimal_value" in row for row in advice["rows"])
    view = client.get(f"/api/sessions/{game['id']}").json()["view"]
    assert view["coach"]["against"] == "hold:25" and view["coach"]["kind"] == "best reply"


def test_the_map_is_the_coachs_and_shows_the_opponents_rule(client: TestClient) -> None:
    game = new(client, "pig", ["human", "hold:20"], 1)
    m = client.get(f"/api/pig/sessions/{game['id']}/map").json()
    assert m["goal"] == 100 and len(m["roll"]) == 100
    assert [len(col) for col in m["roll"][:3]] == [100, 99, 98]
    assert m["roll"][0][0] == 1  # a turn always starts with a roll
    assert m["rule_hold_at"][0] == 20 and m["kind"] == "best reply"
    assert client.get(f"/api/pig/sessions/{game['id']}/map?player=2").status_code == 422


def test_the_map_of_another_game_is_refused(client: TestClient) -> None:
    r = client.post("/api/sessions", json={"game": "yahtzee", "seats": ["human"], "seed": 1})
    assert r.status_code == 201
    m = client.get(f"/api/pig/sessions/{r.json()['id']}/map")
    assert m.status_code == 400 and "not a Pig game" in m.json()["detail"]


@pytest.mark.parametrize(
    ("rules", "seat", "message"),
    [
        ("pig:faces=3,bust_faces=4", "optimal", "not on"),
        ("pig:goal=401", "optimal", "goal"),
        ("pig", "hold:150", "1..100"),
    ],
)
def test_bad_variants_and_opponents_are_refused_naming_why(
    client: TestClient, rules: str, seat: str, message: str
) -> None:
    r = client.post("/api/sessions", json={"game": "pig", "rules": rules, "seats": ["human", seat]})
    assert r.status_code in (400, 422) and message in str(r.json()["detail"])


def test_presets_give_the_starters_optimal_chance(client: TestClient) -> None:
    presets = {p["name"]: p for p in client.get("/api/pig/presets").json()}
    assert set(presets) == {"pig", "pig-raab", "piglet", "coin-3"}
    # Neller & Presser (2004): the starter wins 53.06% of optimal pig games
    assert presets["pig"]["p_start"] == pytest.approx(0.5306, abs=1e-4)
