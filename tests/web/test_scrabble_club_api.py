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


def new(client: TestClient, **config: Any) -> dict[str, Any]:
    response = client.post(f"{API}/new", json=config)
    assert response.status_code == 200, response.text
    return response.json()  # type: ignore[no-any-return]


def expected_unseen(game: dict[str, Any]) -> dict[str, int]:
    """The set less the board and the rack, counted here from the rules' own bag."""
    ts = tile_set(game["tiles"])
    counts = {ch: n for ch, n in zip(ts.letters, ts.counts)} | {"?": ts.blanks}
    for row in game["board"]:
        for ch in row:
            if ch != ".":
                counts["?" if ch.islower() else ch] -= 1
    for ch in game["rack"]:
        counts[ch] -= 1
    return counts


def check_tracking(game: dict[str, Any]) -> None:
    t = game["tracking"]
    assert {x["letter"]: x["unseen"] for x in t["by_letter"]} == expected_unseen(game)
    assert t["bag"] == game["bag"] and t["opponent_tiles"] == game["ai_rack_size"]
    assert t["vowels"] + t["consonants"] + t["blanks"] == t["unseen_total"]


def test_the_unseen_tiles_are_right_after_every_move_of_a_game(client: TestClient) -> None:
    game = new(client, seed=31, ai="greedy")
    sid = game["id"]
    check_tracking(game)
    moves = 0
    while not game["finished"]:
        best = client.get(f"{API}/{sid}/advise", params={"top": 1}).json()["moves"][0]
        game = client.post(f"{API}/{sid}/act", json={"move": best["move"]}).json()
        check_tracking(game)
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


def test_double_challenge_a_phony_comes_off_and_a_wrong_challenge_loses_a_turn(
    client: TestClient,
) -> None:
    game = new(client, seed=8, ai="greedy", challenge="double")
    sid = game["id"]
    assert game["challenge"] == "double" and not game["can_challenge"]
    early = client.post(f"{API}/{sid}/challenge", json={})  # nothing of the AI's to challenge yet
    assert early.status_code == 400 and "no word to challenge" in early.json()["detail"]
    phony = a_phony(game["rack"])
    game = client.post(f"{API}/{sid}/act", json={"move": f"8H {phony}"}).json()
    mine = next(t for t in game["history"] if t["by"] == "you" and t["kind"] == "move")
    assert mine["withdrawn"] and game["your_score"] == 0
    verdict = next(t for t in game["history"] if t["kind"] == "challenge")
    assert verdict["by"] == "ai" and "taken back" in verdict["text"]
    assert game["your_turn"] and game["can_challenge"]  # the AI moved after the take-back
    ai_moves = sum(t["by"] == "ai" and t["kind"] == "move" for t in game["history"])
    game = client.post(f"{API}/{sid}/challenge", json={}).json()
    verdicts = [t for t in game["history"] if t["kind"] == "challenge"]
    assert len(verdicts) == 2 and verdicts[1]["by"] == "you"
    assert "good: the challenge loses a turn" in verdicts[1]["text"]
    # the person lost the turn: the AI has moved again, and the person is to move
    assert sum(t["by"] == "ai" and t["kind"] == "move" for t in game["history"]) == ai_moves + 1
    assert game["your_turn"]
    # the game's record keeps the phony and its take-back, the lost turn as a pass, and adds up
    text = client.get(f"{API}/{sid}/gcg").text
    assert f" 8H {phony} " in text and " -- -" in text
    opened = client.post(f"{API}/gcg", json={"text": text}).json()
    you = opened["players"].index("you")
    assert opened["totals"][you] == game["your_score"] == 0
    assert opened["totals"][1 - you] == game["ai_score"]
    assert [t["kind"] for t in opened["turns"] if t["nick"] == "you"] == ["move", "withdrawn",
                                                                          "pass"]  # fmt: skip


def test_no_challenges_and_no_phonies_under_the_rule_none(client: TestClient) -> None:
    game = new(client, seed=8, ai="greedy")
    sid = game["id"]
    refused = client.post(f"{API}/{sid}/act", json={"move": f"8H {a_phony(game['rack'])}"})
    assert refused.status_code == 400
    no = client.post(f"{API}/{sid}/challenge", json={})
    assert no.status_code == 400 and "no challenges" in no.json()["detail"]
    assert client.post(f"{API}/new", json={"challenge": "triple"}).status_code == 422


def finished_game(client: TestClient, seed: int) -> dict[str, Any]:
    game = new(client, seed=seed, ai="greedy")
    while not game["finished"]:
        best = client.get(f"{API}/{game['id']}/advise", params={"top": 1}).json()["moves"][0]
        game = client.post(f"{API}/{game['id']}/act", json={"move": best["move"]}).json()
    return game


def test_a_game_exports_to_gcg_that_opens_at_move_12_beside_the_coach(client: TestClient) -> None:
    game = finished_game(client, 44)
    exported = client.get(f"{API}/{game['id']}/gcg")
    assert exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
    text = exported.text
    opened = client.post(f"{API}/gcg", json={"text": text}).json()
    you = opened["players"].index("you")
    assert opened["totals"][you] == game["your_score"]
    assert opened["totals"][1 - you] == game["ai_score"]
    review = client.post(f"{API}/gcg", json={"text": text, "at": 12, "budget": 2.0}).json()
    r = review["review"]
    assert r["turn"] == 12 and r["recorded"] == review["turns"][11]["text"]
    assert r["analysis"]["moves"] and r["analysis"]["moves"][0]["behind"] == 0
    if r["recorded_row"] is not None:
        assert r["recorded_row"]["behind"] >= 0


def test_a_game_in_progress_exports_without_the_ais_tiles(client: TestClient) -> None:
    game = new(client, seed=9, ai="greedy", ai_first=True)
    text = client.get(f"{API}/{game['id']}/gcg").text
    ai_line = next(line for line in text.splitlines() if line.startswith(">ai:"))
    placed = sum(1 for sq in game["history"][0]["squares"])
    assert len(ai_line.split()[1]) == placed  # only the tiles it played, not its leave


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
    from dataclasses import replace

    from stratagem.web.scrabble import ScrabbleGame, lexicon_entry

    endgame = full_racks_endgame()
    entry = lexicon_entry("english", "builtin", None)
    game = ScrabbleGame(entry, "equity", human=1 - endgame.player, seed=1, think=1.0)
    game.state = replace(endgame, scores=endgame.scores)  # the AI to move, the bag empty
    game.history.clear()
    began = time.monotonic()
    game._advance()
    took = time.monotonic() - began
    assert game.history and game.history[-1].by_ai
    assert game.last_thought is not None and "best found" in game.last_thought
    assert took < 1.0 + 1.0, took
