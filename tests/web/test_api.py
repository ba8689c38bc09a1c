"""The JSON API of Yahtzee and Pig through the ASGI app: games, advice, limits, errors."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from stratagem.games.yahtzee.assistant import situation_state
from stratagem.web.app import create_app
from stratagem.web.yahtzee import RulesName


def test_the_rules_literal_lists_every_preset() -> None:
    from typing import get_args

    from stratagem.games.yahtzee.rules import PRESETS

    assert set(get_args(RulesName)) == set(PRESETS)


def test_a_coach_game_prices_each_decision_against_the_best(client: TestClient) -> None:
    body = {"game": "yahtzee", "seats": ["human"], "seed": 11}
    game = client.post("/api/sessions", json=body).json()
    assert game["view"]["rolls_left"] == 2 and len(game["view"]["dice"]) == 5
    advice = client.get(f"/api/sessions/{game['id']}/advice").json()["rows"]
    assert advice[0]["cost"] == 0
    assert {o["action"] for o in advice} == set(game["legal"])
    worst = advice[-1]
    client.post(f"/api/sessions/{game['id']}/move", json={"decision": worst["action"]})
    last = client.get(f"/api/yahtzee/sessions/{game['id']}/verdicts").json()["verdicts"][-1]
    assert last["cost"] == pytest.approx(worst["cost"])
    assert last["best"] == advice[0]["action"]


def test_a_game_against_the_optimal_ai_shows_both_cards(client: TestClient) -> None:
    body = {"game": "yahtzee", "seats": ["human", "optimal"], "seed": 2}
    game = client.post("/api/sessions", json=body).json()
    assert len(game["view"]["cards"]) == 2
    assert "score chance" in game["legal"]
    after = client.post(
        f"/api/sessions/{game['id']}/move", json={"decision": "score chance"}
    ).json()
    while not after["human_to_move"]:
        after = client.post(f"/api/sessions/{game['id']}/ai", json={}).json()
    # the AI played its whole turn: one box filled on its card, logged step by step
    assert sum(v is not None for v in after["view"]["cards"][1]["boxes"].values()) == 1
    agent = [s for s in after["line"] if s["by"] == "agent"]
    assert agent and agent[-1]["text"].startswith("score ")


def test_the_win_ai_without_its_tables_is_refused_with_the_reason(client: TestClient) -> None:
    from stratagem.games.yahtzee.coach import remaining_ready
    from stratagem.games.yahtzee.rules import preset

    if remaining_ready(preset("yahtzee-no-bonus")):
        pytest.skip("this run has the yahtzee-no-bonus remaining tables")
    body = {"game": "yahtzee", "rules": "yahtzee-no-bonus", "seats": ["optimal", "win"]}
    game = client.post("/api/sessions", json=body).json()
    game = client.post(f"/api/sessions/{game['id']}/ai", json={}).json()
    while game["to_move"] == 0:
        game = client.post(f"/api/sessions/{game['id']}/ai", json={}).json()
    r = client.post(f"/api/sessions/{game['id']}/ai", json={})
    assert r.status_code == 400
    assert "remaining-score tables" in r.json()["detail"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"dice": [1, 1, 1, 1, 7], "rolls_left": 2}, 422, "less than or equal to 6"),
        ({"dice": [1, 1, 1, 1], "rolls_left": 2}, 422, "at least 5"),
        ({"dice": [1, 1, 1, 1, 4], "rolls_left": 3}, 422, "rolls_left"),
        ({"dice": [1, 2, 3, 4, 5], "rolls_left": 0, "filled": ["one_pair"]}, 400, "one_pair"),
        ({"dice": [1, 2, 3, 4, 5], "rolls_left": 0, "filled": ["ones"], "upper": 7}, 400,
         "impossible"),
        ({"dice": [1, 2, 3, 4, 5], "rolls_left": 0, "filled": ["yahtzee"]}, 400, "50 or 0"),
    ],
)  # fmt: skip
def test_bad_positions_get_a_4xx_naming_the_problem(
    client: TestClient, body: dict[str, object], status: int, words: str
) -> None:
    r = client.post("/api/yahtzee/advise", json=body)
    assert r.status_code == status
    assert words in r.json()["detail"]


def test_mcts_is_capped_by_the_server_and_flags_ties(client: TestClient) -> None:
    r = client.post("/api/yahtzee/mcts", json={"dice": [6, 6, 6, 6, 6], "rolls_left": 0,
                                               "simulations": 501})  # fmt: skip
    assert r.status_code == 400 and "at most 500" in r.json()["detail"]
    rows = client.post(
        "/api/yahtzee/mcts", json={"dice": [6, 6, 6, 6, 6], "rolls_left": 0, "simulations": 300}
    ).json()["rows"]
    assert rows[0]["action"] == "score yahtzee" and rows[0]["tied_with_best"]
    assert sum(r["n"] for r in rows) == 300
    assert all(sum(r["histogram"].values()) == r["n"] for r in rows)


def test_a_situation_state_keeps_the_totals() -> None:
    from stratagem.games.yahtzee.rules import preset
    from stratagem.games.yahtzee.state import Situation

    rules = preset("yahtzee")
    sit = Situation(rules, (1, 2, 3, 4, 5), 1, frozenset({"ones", "sixes", "chance"}), upper=20,
                    score=45)  # fmt: skip
    state = situation_state(sit)
    assert state.situation() == sit


@pytest.fixture()
def late_tables_client() -> TestClient:
    """An app whose remaining-score tables cover only the last two turns (built in seconds),
    put where the app keeps its loaded tables."""
    import numpy as np

    from stratagem.games.yahtzee.distribution import remaining_distributions
    from stratagem.web.yahtzee import solution

    app = create_app(tables="off")
    sol = solution("yahtzee")
    small = remaining_distributions(sol, "optimal", dtype=np.float64, min_filled=11)
    app.state.jobs.put("yahtzee-remaining:yahtzee", small)
    return TestClient(app)


LATE = {
    "rules": "yahtzee", "dice": [3, 3, 3, 5, 6], "rolls_left": 1,
    "filled": ["ones", "twos", "fours", "fives", "sixes", "four_of_a_kind", "full_house",
               "small_straight", "large_straight", "yahtzee", "chance"],
    "upper": 50, "yahtzee_box": 0, "score": 190,
}  # fmt: skip


def test_target_chances_and_exact_distributions(late_tables_client: TestClient) -> None:
    client = late_tables_client
    advice = client.post("/api/yahtzee/advise", json={**LATE, "target": 230}).json()
    assert "exact" in advice["target_note"]
    assert all(0 <= o["p_target"] <= 1 for o in advice["options"])
    for option in advice["options"][:4]:
        d = client.post(
            "/api/yahtzee/distribution", json={**LATE, "action": option["action"], "target": 230}
        ).json()
        assert sum(d["p"]) == pytest.approx(1.0)
        assert d["mean"] == pytest.approx(option["value"], abs=1e-9)
    best = client.post("/api/yahtzee/distribution", json=LATE).json()
    assert best["action"] == advice["options"][0]["action"]
    r = client.post("/api/yahtzee/distribution", json={**LATE, "action": "keep 1 1"})
    assert r.status_code == 400 and "not an option" in r.json()["detail"]


@pytest.mark.parametrize(
    ("rules", "target", "status", "words"),
    [
        ("yatzy", 375, 400, "1..374"),  # above Yatzy's highest final score (the check's golden)
        ("yahtzee", 1576, 400, "1..1575"),
        ("yahtzee", 0, 400, "1..1575"),  # every game reaches 0: nothing to price
        ("yahtzee", 1601, 422, "1600"),  # beyond any rules: refused by the schema
    ],
)
def test_a_target_outside_the_rules_scores_is_refused_naming_the_range(
    client: TestClient, rules: str, target: int, status: int, words: str
) -> None:
    body = {"rules": rules, "dice": [1, 2, 3, 4, 5], "rolls_left": 2, "target": target}
    for path in ("/api/yahtzee/advise", "/api/yahtzee/distribution"):
        r = client.post(path, json=body)
        assert r.status_code == status and words in r.text, (path, r.text)
