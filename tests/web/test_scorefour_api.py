"""The Score Four JSON API: new game, state, legal moves, act, hints, and bad input."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from stratagem.core.arena import load_game
from stratagem.games.scorefour.board import parse_peg, peg_name
from stratagem.games.scorefour.coach import advise
from stratagem.games.scorefour.play import hint_lines
from stratagem.games.scorefour.players import move_qualities
from stratagem.games.scorefour.search import Minimax
from stratagem.games.scorefour.state import ScoreFourState
from stratagem.web.scorefour import (
    HINT_DEPTH,
    MAX_DA_DEPTH,
    MAX_MCTS_SIMS,
    MAX_MINIMAX_DEPTH,
    MAX_SECONDS,
)

API = "/api/scorefour"


def new(client: TestClient, **config: Any) -> dict[str, Any]:
    response = client.post(f"{API}/new", json=config)
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def act(client: TestClient, sid: str, peg: str) -> dict[str, Any]:
    response = client.post(f"{API}/{sid}/act", json={"action": peg})
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def test_a_new_game_as_x_waits_for_the_players_first_move(client: TestClient) -> None:
    game = new(client)
    assert game["board"] == ScoreFourState.new().to_string()
    assert game["your_turn"] and game["to_move"] == "x" and len(game["legal"]) == 16
    assert game["history"] == [] and game["skill"] == 1.0


def test_as_o_the_ai_has_already_moved(client: TestClient) -> None:
    game = new(client, human="o", ai="minimax", depth=2)
    assert [m["by_ai"] for m in game["history"]] == [True]
    assert sum(game["heights"]) == 1 and game["to_move"] == "o" and game["your_turn"]
    assert game["skill"] is None  # minimax keeps no estimate of the player


def test_the_mcts_opponent_stops_a_row_on_the_bottom_level(client: TestClient) -> None:
    # The player (X) drops beads in a1, a2, a3, a4: a row of the bottom level unless the
    # compiled MCTS blocks it in time (a bead of O in that row, or one that lifts X's).
    game = new(client, ai="mcts", sims=3000, seed=2)
    assert game["skill"] is None and game["your_turn"]
    for peg in ("a1", "a2", "a3", "a4"):
        if game["winner"] is not None:
            break
        game = act(client, game["id"], peg)
    assert game["winner"] != "x", game["history"]
    assert any(m["by_ai"] and m["action"] in ("a1", "a2", "a3", "a4") for m in game["history"])


def test_a_move_gets_the_coachs_verdict_and_the_ai_replies(client: TestClient) -> None:
    game = new(client, beta=0.05)
    state = ScoreFourState.new()
    rows = advise(state, HINT_DEPTH)
    worst = rows[-1]
    after = act(client, game["id"], worst.action)
    mine, reply = after["history"]
    assert mine["action"] == worst.action and not mine["by_ai"] and reply["by_ai"]
    assert mine["quality"] == pytest.approx(worst.quality)
    assert mine["advice"]["verdict"] == worst.verdict
    assert mine["best"]["action"] == rows[0].action
    assert after["mean_quality"] == pytest.approx(worst.quality)
    # The decision-analysis AI learnt from it on its own one-ply scale: f <- (1 - b) f + b f_k.
    moves, f = move_qualities(state)
    one_ply = float(f[moves.index(worst.peg)])
    assert after["skill"] == pytest.approx(0.95 * 1.0 + 0.05 * one_ply)
    assert after["skill_trace"] == [after["skill"]]
    assert set(after["explain"]) == {"points", "quality", "ai_model"}
    assert sum(after["heights"]) == 2


def test_the_hint_ranks_every_legal_move_by_the_search(client: TestClient) -> None:
    game = new(client, human="o", ai="decision-analysis", da_depth=1)
    hint = client.get(f"{API}/{game['id']}/advise").json()
    assert hint["depth"] == HINT_DEPTH
    state = ScoreFourState.from_string(game["board"])
    values = Minimax().move_values(state, HINT_DEPTH)
    assert sorted(r["action"] for r in hint["options"]) == sorted(map(peg_name, values))
    for row in hint["options"]:
        assert row["points"] == pytest.approx(values[parse_peg(row["action"])])
    assert [r["points"] for r in hint["options"]] == sorted(values.values(), reverse=True)
    assert hint["options"][0]["quality"] == 1.0 and hint["options"][0]["verdict"] == "best"


def test_the_opponents_parameters_and_defaults_come_from_the_registry(
    client: TestClient,
) -> None:
    offered = {o["name"]: o for o in client.get(f"{API}/opponents").json()}
    assert list(offered) == ["decision-analysis", "minimax", "mcts"]
    registry = {a["name"]: a for a in load_game("scorefour").to_json()["agents"]}
    for name, entry in offered.items():
        for param in entry["params"]:
            source = next(p for p in registry[name]["params"] if p["name"] == param["name"])
            if source["default"] is not None:
                assert param["default"] == source["default"], (name, param["name"])
            assert param["high"] <= source["high"]  # the page may only cap, never widen
    da = {p["name"]: p for p in offered["decision-analysis"]["params"]}
    assert (da["beta"]["default"], da["depth"]["default"]) == (0.0, 2)
    game = new(client)  # a new game with no settings takes the same defaults
    assert game["ai"] == "decision-analysis:depth=2,f0=1.0,beta=0.0"


def test_following_the_hints_plays_a_whole_game_to_its_end(client: TestClient) -> None:
    game = new(client, ai="decision-analysis", da_depth=1, f0=0.5, beta=0.1, seed=3)
    sid = game["id"]
    while game["winner"] is None:
        best = client.get(f"{API}/{sid}/advise").json()["options"][0]["action"]
        game = act(client, sid, best)
    mine = [m for m in game["history"] if not m["by_ai"]]
    assert all(m["quality"] == 1.0 and m["advice"]["severity"] == "good" for m in mine)
    # The AI's estimate learnt from every one of the player's moves, the last included.
    assert len(game["skill_trace"]) == len(mine)
    assert game["your_turn"] is False and game["legal"] == []
    if game["winner"] != "draw":
        assert len(game["winning_cells"]) >= 4
        assert all(len(line) == 4 for line in game["winning_lines"]) and game["winning_lines"]
    state = client.get(f"{API}/{sid}").json()
    assert state["board"] == game["board"]
    again = client.post(f"{API}/{sid}/act", json={"action": "a1"})
    assert again.status_code == 400 and "game is over" in again.json()["detail"]
    assert client.get(f"{API}/{sid}/advise").status_code == 400


SENTINEL = 5000.0
"""No number a player sees comes near the search's internal score of a proven result (1e6)."""


def test_no_advice_row_or_move_shows_a_sentinel_number(client: TestClient) -> None:
    # Against minimax at depth 1 the coach's moves reach proven wins, and the AI's
    # threats give proven losses among the rows: every number in them stays small.
    game = new(client, ai="minimax", depth=1)
    sid = game["id"]
    seen = set()
    while game["winner"] is None:
        hint = client.get(f"{API}/{sid}/advise").json()
        for row in hint["options"]:
            seen.add(row["outcome"])
            for key in ("points", "behind", "moves", "quality"):
                assert row[key] is None or abs(row[key]) < SENTINEL, row
            assert "99999" not in row["value_text"] and "1000" not in row["value_text"]
        game = act(client, sid, hint["options"][0]["action"])
    assert "win" in seen and game["winner"] == "x"
    for move in game["history"]:
        for advice in (move["advice"], move["best"]):
            if advice is not None:
                assert all(
                    advice[k] is None or abs(advice[k]) < SENTINEL
                    for k in ("points", "behind", "moves")
                )


def test_a_full_peg_is_refused_naming_the_open_pegs(client: TestClient) -> None:
    game = new(client, ai="minimax", depth=1, seed=1)
    sid = game["id"]
    # Stack beads on a1 (the AI blocks the vertical three there) until the peg is full.
    for _ in range(4):
        if client.get(f"{API}/{sid}").json()["heights"][0] == 4:
            break
        act(client, sid, "a1")
    assert client.get(f"{API}/{sid}").json()["heights"][0] == 4
    response = client.post(f"{API}/{sid}/act", json={"action": "a1"})
    assert response.status_code == 400
    assert "peg a1 is full" in response.json()["detail"]


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"depth": MAX_MINIMAX_DEPTH + 1}, "depth"),
        ({"depth": 0}, "depth"),
        ({"seconds": MAX_SECONDS + 0.5}, "seconds"),
        ({"seconds": 0}, "seconds"),
        ({"da_depth": MAX_DA_DEPTH + 1}, "da_depth"),
        ({"sims": MAX_MCTS_SIMS + 1}, "sims"),
        ({"sims": 0}, "sims"),
        ({"f0": 1.5}, "f0"),
        ({"beta": -0.1}, "beta"),
        ({"ai": "alphazero"}, "ai"),
        ({"human": "z"}, "human"),
        ({"colour": "x"}, "colour"),
    ],
)
def test_bad_settings_are_refused_naming_the_field(
    client: TestClient, body: dict[str, Any], field: str
) -> None:
    response = client.post(f"{API}/new", json=body)
    assert response.status_code == 422
    assert field in response.json()["detail"]


def test_bad_moves_and_unknown_sessions_are_4xx(client: TestClient) -> None:
    sid = new(client)["id"]
    for bad in ("e1", "a5", "a", "", "a1 b2"):
        response = client.post(f"{API}/{sid}/act", json={"action": bad})
        assert response.status_code == 422, bad
        assert "action" in response.json()["detail"]
    gone = "ses-" + "A" * 24
    for method, path in (("get", ""), ("get", "/legal"), ("get", "/advise")):
        response = getattr(client, method)(f"{API}/{gone}{path}")
        assert response.status_code == 404 and "start a new game" in response.json()["detail"]
    assert client.get(f"{API}/not-a-session").status_code == 422


def test_legal_lists_the_open_pegs(client: TestClient) -> None:
    sid = new(client)["id"]
    for _ in range(2):
        act(client, sid, "b2")
    legal = client.get(f"{API}/{sid}/legal").json()["actions"]
    board = ScoreFourState.from_string(client.get(f"{API}/{sid}").json()["board"])
    assert legal == [peg_name(p) for p in board.legal_actions()]


def test_the_page_and_the_terminal_say_the_same_about_every_move(client: TestClient) -> None:
    game = new(client, human="o", ai="minimax", depth=2)
    page_rows = client.get(f"{API}/{game['id']}/advise").json()["options"]
    terminal = hint_lines(ScoreFourState.from_string(game["board"]))
    for row in page_rows:
        line = f"  {row['action']}: {row['value_text']} ({row['verdict']}"
        assert any(t.startswith(line) for t in terminal), (line, terminal)
    assert len(terminal) == 2 + len(page_rows)
