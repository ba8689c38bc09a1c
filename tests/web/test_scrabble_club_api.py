"""The Scrabble API as a club player uses it: unseen tiles, challenges, game records, budgets."""

from __future__ import annotations

import itertools
import time
from typing import Any

import numpy as np
from fastapi.testclient import TestClient

from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.position import write_position
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.tiles import tile_set

API = "/api/scrabble"
SESSIONS = "/api/sessions"


def start(
    client: TestClient, seed: int, rules: str = "english", ai_first: bool = False
) -> dict[str, Any]:
    """A session against greedy (the one REST shape every game plays through)."""
    seats = ["greedy", "human"] if ai_first else ["human", "greedy"]
    body = {"game": "scrabble", "rules": rules, "seats": seats, "seed": seed}
    response = client.post(SESSIONS, json=body)
    assert response.status_code == 201, response.text
    return response.json()  # type: ignore[no-any-return]


def move(client: TestClient, sid: str, decision: str) -> Any:
    return client.post(f"{SESSIONS}/{sid}/move", json={"decision": decision})


def agent(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    """Let the agent move until the person is to move or the game is over."""
    while not game["over"] and not game["human_to_move"]:
        r = client.post(f"{SESSIONS}/{game['id']}/ai", json={})
        assert r.status_code == 200, r.text
        game = r.json()
    return game


def expected_unseen(view: dict[str, Any]) -> dict[str, int]:
    """The set less the board and the rack, counted here from the rules' own bag."""
    ts = tile_set(view["tiles"])
    counts = {ch: n for ch, n in zip(ts.letters, ts.counts)} | {"?": ts.blanks}
    for row in view["board"]:
        for ch in row:
            if ch != ".":
                counts["?" if ch.islower() else ch] -= 1
    for ch in view["rack"]:
        counts[ch] -= 1
    return counts


def check_tracking(view: dict[str, Any]) -> None:
    t = view["tracking"]
    assert {x["letter"]: x["unseen"] for x in t["by_letter"]} == expected_unseen(view)
    assert t["bag"] == view["bag"] and t["opponent_tiles"] == view["rack_sizes"][1]
    assert t["vowels"] + t["consonants"] + t["blanks"] == t["unseen_total"]


def test_the_unseen_tiles_are_right_after_every_move_of_a_game(client: TestClient) -> None:
    game = start(client, seed=31)
    sid = game["id"]
    check_tracking(game["view"])
    moves = 0
    while not game["over"]:
        game = move(client, sid, game["legal"][0]).json()  # the best-scoring placement
        check_tracking(game["view"])
        game = agent(client, game)
        check_tracking(game["view"])
        moves += 1
    assert moves > 5


def a_phony(rack: str) -> str:
    lex = default_lexicon(tile_set("english"))
    letters = [ch for ch in rack if ch != "?"]
    for n in (3, 2):
        for combo in itertools.permutations(letters, n):
            if "".join(combo) not in lex:
                return "".join(combo)
    raise AssertionError(rack)


def read(client: TestClient, sid: str, typed: str) -> str:
    r = client.post(f"{API}/sessions/{sid}/read", json={"move": typed})
    assert r.status_code == 200, r.text
    return r.json()["decision"]  # type: ignore[no-any-return]


def test_double_challenge_a_phony_comes_off_and_a_wrong_challenge_loses_a_turn(
    client: TestClient,
) -> None:
    game = start(client, seed=8, rules="english:challenge=double")
    sid = game["id"]
    assert game["rules"] == "english:challenge=double"
    assert game["view"]["challenge"] == "double" and "challenge" not in game["legal"]
    early = move(client, sid, "challenge")  # nothing to challenge yet
    assert early.status_code == 400 and "no word to challenge" in early.json()["detail"]
    phony = a_phony(game["view"]["rack"])
    decision = read(client, sid, f"8H {phony}")  # the CLI notation, read into the text
    assert decision.startswith(f"8H {phony} ")
    game = move(client, sid, decision).json()
    assert game["view"]["scores"][0] > 0  # the phony stands until challenged
    game = client.post(f"{SESSIONS}/{sid}/ai", json={}).json()  # the agent challenges it
    assert game["decisions"][-1]["text"] == "challenge" and game["decisions"][-1]["by"] == "agent"
    assert game["view"]["scores"][0] == 0 and "taken back" in game["view"]["verdict"]
    assert all(ch == "." for row in game["view"]["board"] for ch in row)  # off the board
    game = agent(client, game)  # the person lost the turn: the agent plays
    assert game["human_to_move"] and "challenge" in game["legal"]
    agent_moves = sum(d["by"] == "agent" for d in game["decisions"])
    game = move(client, sid, "challenge").json()  # good words: the challenge loses a turn
    verdicts = game["view"]["challenges"]
    assert len(verdicts) == 2 and verdicts[0]["phony"] and not verdicts[1]["phony"]
    assert "good: the challenge loses a turn" in verdicts[1]["text"]
    assert not game["human_to_move"]  # the person lost the turn: the agent moves again
    game = agent(client, game)
    assert sum(d["by"] == "agent" for d in game["decisions"]) == agent_moves + 1
    assert game["human_to_move"]
    # the game's record keeps the phony and its take-back, the lost turn as a pass, and adds up
    text = client.get(f"{SESSIONS}/{sid}/record", params={"format": "gcg"}).text
    assert f" 8H {phony} " in text and " -- -" in text
    opened = client.post(f"{API}/gcg", json={"text": text}).json()
    assert opened["totals"] == game["view"]["scores"]
    assert [t["kind"] for t in opened["turns"] if t["nick"] == opened["players"][0]] == [
        "move", "withdrawn", "pass"]  # fmt: skip
    # and the session replays from its record to the same position
    again = client.get(f"{SESSIONS}/{sid}").json()
    assert again["view"]["board"] == game["view"]["board"]


def test_a_challenge_out_of_turn_is_refused_with_a_message(client: TestClient) -> None:
    game = agent(client, start(client, seed=8, rules="english:challenge=single", ai_first=True))
    sid = game["id"]
    assert "challenge" in game["legal"]  # the agent's first word may be challenged now
    game = move(client, sid, "pass").json()  # the person moves instead: the window closes
    late = move(client, sid, "challenge")  # the agent's turn: not the person's to challenge
    assert late.status_code == 400 and "agent" in late.json()["detail"]
    game = agent(client, game)
    if "challenge" in game["legal"]:  # the agent placed again: that word may be challenged
        game = move(client, sid, "challenge").json()
        assert "no penalty" in game["view"]["verdict"] and game["human_to_move"]
        again = move(client, sid, "challenge")  # one challenge a placement
        assert again.status_code == 400 and "no word to challenge" in again.json()["detail"]


def test_no_challenges_and_no_phonies_under_the_rule_none(client: TestClient) -> None:
    game = start(client, seed=8)
    sid = game["id"]
    refused = client.post(
        f"{API}/sessions/{sid}/read", json={"move": f"8H {a_phony(game['view']['rack'])}"}
    )
    assert refused.status_code == 400
    no = move(client, sid, "challenge")
    assert no.status_code == 400 and "not a legal decision" in no.json()["detail"]
    bad = client.post(SESSIONS, json={"game": "scrabble", "rules": "english:challenge=triple",
                                      "seats": ["human", "greedy"]})  # fmt: skip
    assert bad.status_code in (400, 422) and "triple" in bad.text


def finished_game(client: TestClient, seed: int) -> dict[str, Any]:
    game = start(client, seed=seed)
    while not game["over"]:
        game = agent(client, move(client, game["id"], game["legal"][0]).json())
    return game


def test_a_game_exports_to_gcg_that_opens_at_move_12_beside_the_coach(client: TestClient) -> None:
    game = finished_game(client, 44)
    exported = client.get(f"{SESSIONS}/{game['id']}/record", params={"format": "gcg"})
    assert exported.status_code == 200
    text = exported.text
    opened = client.post(f"{API}/gcg", json={"text": text}).json()
    assert opened["totals"] == game["view"]["scores"]
    review = client.post(f"{API}/gcg", json={"text": text, "at": 12, "budget": 2.0}).json()
    r = review["review"]
    assert r["turn"] == 12 and r["recorded"] == review["turns"][11]["text"]
    assert r["analysis"]["moves"] and r["analysis"]["moves"][0]["behind"] == 0
    if r["recorded_row"] is not None:
        assert r["recorded_row"]["behind"] >= 0


def test_hostile_records_are_refused_naming_the_problem(client: TestClient) -> None:
    good = ">a: ACTXYZQ 8H CAT +10 10\n>b: SEEEEEE 8H ...S +6 6\n"
    for text, message in [
        (good[:-6], "cut short"),
        (good.replace("8H ...S", "16H ...S"), "another board"),
        (good.replace("+6 6", "+9 9"), "scores 6"),
        (good.replace("SEEEEEE", "EEEEEEE"), "lacks"),
    ]:
        r = client.post(f"{API}/gcg", json={"text": text})
        assert r.status_code == 400 and message in r.json()["detail"], (text, r.text)
    huge = client.post(f"{API}/gcg", json={"text": "#note " + "x" * 70_000})
    assert huge.status_code == 413
    long = client.post(f"{API}/gcg", json={"text": "#note " + "x" * 61_000})
    assert long.status_code == 422
    beyond = client.post(f"{API}/gcg", json={"text": good, "at": 3})
    assert beyond.status_code == 400 and "turn 3" in beyond.json()["detail"]


def an_endgame(seed: int) -> ScrabbleState:
    """A position of greedy self-play just as the bag empties."""
    lex = default_lexicon(tile_set("english"))
    rng = np.random.default_rng(seed)
    state = ScrabbleState.new(lex, 2)
    while True:
        if state.current_player < 0:
            state = state.apply(state.sample_chance(rng))
            continue
        if state.bag_size() == 0:
            return state
        state = state.apply(state.legal_actions()[0])


def full_racks_endgame() -> ScrabbleState:
    """The first self-play endgame with seven tiles on each rack: the hardest kind. (With the
    built-in list of 2026-12, seed 2, IORSDGY against EAILFWZ: proved in 1.94 million nodes,
    20 CPU seconds, 112 s on the wall of the busy test machine; see docs/scrabble.md.)"""
    for seed in range(200):
        state = an_endgame(seed)
        if sum(state.racks[0]) == sum(state.racks[1]) == 7:
            return state
    raise AssertionError("no self-play endgame with two full racks in 200 games")


def test_an_endgame_answer_comes_within_its_budget(client: TestClient) -> None:
    state = full_racks_endgame()
    body = {"position": write_position(state), "budget": 1.0}
    began = time.monotonic()
    r = client.post(f"{API}/analyse", json=body)
    took = time.monotonic() - began
    assert r.status_code == 200, r.text
    answer = r.json()
    assert answer["tracking"]["bag"] == 0 and answer["endgame"] is not None
    # the search was cut by the budget (it is far from proved), and answered its best so far
    assert not answer["endgame"]["exact"] and answer["endgame"]["best_move"]
    # the page's promise: no answer takes more than its budget plus a second
    assert took < body["budget"] + 1.0, took


def test_the_assistant_checks_the_unseen_tiles_and_takes_the_scores(client: TestClient) -> None:
    rows = ["." * 15] * 7 + ["......ZEBRM...."] + ["." * 15] * 7
    position = "racks: AEINRST -\nboard:\n" + "\n".join(rows) + "\n"
    ok = client.post(f"{API}/analyse", json={"position": position, "scores": [120, 95]}).json()
    assert ok["scores"] == [120, 95] and ok["tracking"]["unseen_total"] == 100 - 5 - 7
    flagged = [p["word"] for p in ok["phonies"]]
    assert flagged == ["ZEBRM"] and len(ok["phonies"][0]["squares"]) == 5
    unseen = ok["tracking"]["unseen"]
    same = client.post(f"{API}/analyse", json={"position": position, "unseen": unseen})
    assert same.status_code == 200
    wrong = client.post(f"{API}/analyse", json={"position": position, "unseen": unseen[1:]})
    assert wrong.status_code == 400 and "missing" in wrong.json()["detail"]
    bad = client.post(f"{API}/analyse", json={"position": position, "unseen": "1234"})
    assert bad.status_code == 400
    slow = client.post(f"{API}/analyse", json={"position": position, "budget": 99})
    assert slow.status_code == 422


def test_the_ais_endgame_reply_comes_within_the_games_budget() -> None:
    from stratagem.core.registry import make_agent

    endgame = full_racks_endgame()  # the agent to move, the bag empty
    ai = make_agent("scrabble", "english", "equity:think=1")
    began = time.monotonic()
    action = ai.act(endgame, np.random.default_rng(1))
    took = time.monotonic() - began
    assert str(action) in {str(a) for a in endgame.legal_actions()}
    assert took < 1.0 + 1.0, took
