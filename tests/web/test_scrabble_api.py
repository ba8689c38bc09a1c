"""The Scrabble JSON API: games against the registry's AI (sessions), the assistant, bad input."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from stratagem.core.arena import load_game, parse_spec
from stratagem.core.errors import IllegalActionError
from stratagem.games.scrabble.board import PREMIUM_ROWS, board_from_text
from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.movegen import generate_moves
from stratagem.games.scrabble.play import parse_move
from stratagem.games.scrabble.position import read_position
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.tiles import tile_set
from stratagem.web.app import create_app
from stratagem.web.scrabble import MAX_TOP, read_move

API = "/api/scrabble"
EMPTY = ["." * 15] * 15


def position(rows: list[str], racks: str = "- -") -> str:
    return f"racks: {racks}\nboard:\n" + "\n".join(rows) + "\n"


def with_row(row: int, text: str) -> list[str]:
    rows = list(EMPTY)
    rows[row] = text
    return rows


SESSIONS = "/api/sessions"


def new(
    client: TestClient, seed: int, ai_first: bool = False, ai: str = "greedy"
) -> dict[str, Any]:
    """A game against an agent: a session of the one REST shape."""
    seats = [ai, "human"] if ai_first else ["human", ai]
    body = {"game": "scrabble", "rules": "english", "seats": seats, "seed": seed}
    response = client.post(SESSIONS, json=body)
    assert response.status_code == 201, response.text
    return agent(client, response.json())


def agent(client: TestClient, game: dict[str, Any]) -> dict[str, Any]:
    """Let the agent move until the person is to move or the game is over."""
    while not game["over"] and not game["human_to_move"]:
        game = client.post(f"{SESSIONS}/{game['id']}/ai", json={}).json()
    return game


def read(client: TestClient, sid: str, typed: str) -> Any:
    """A move in the CLI's notation read into the session's text (the Scrabble extra)."""
    return client.post(f"{API}/sessions/{sid}/read", json={"move": typed})


def play(client: TestClient, game: dict[str, Any], typed: str) -> dict[str, Any]:
    decision = read(client, game["id"], typed)
    assert decision.status_code == 200, decision.text
    r = client.post(f"{SESSIONS}/{game['id']}/move", json={"decision": decision.json()["decision"]})
    assert r.status_code == 200, r.text
    return agent(client, r.json())


def test_a_new_game_deals_seven_tiles_each(client: TestClient) -> None:
    game = new(client, seed=5)
    v = game["view"]
    assert v["board"] == EMPTY and len(v["rack"]) == 7 and v["rack_sizes"][1] == 7
    assert v["bag"] == tile_set("english").total_tiles - 14
    assert game["human_to_move"] and not game["over"] and game["decisions"] == []
    # The same seed deals the same rack.
    assert new(client, seed=5)["view"]["rack"] == v["rack"]


def test_when_the_ai_starts_it_has_moved_already(client: TestClient) -> None:
    game = new(client, seed=2, ai_first=True)
    first = game["decisions"][0]
    assert first["by"] == "agent" and game["human_to_move"]
    assert game["view"]["scores"][0] == int(first["text"].rsplit(" ", 1)[1]) > 0
    assert game["view"]["board"][7][7] != "."  # the first word covers the centre


def test_playing_the_top_scoring_move_scores_it_and_the_ai_replies(client: TestClient) -> None:
    game = new(client, seed=11)
    # The legal list is the library's own move list for this rack on an empty board.
    lex = default_lexicon("english")
    own = generate_moves(
        board_from_text(EMPTY, lex.tiles), lex.tiles.rack_counts(game["view"]["rack"]), lex
    )
    placements = [t for t in game["legal"] if not t.startswith(("exchange", "pass"))]
    assert placements == [str(m) for m in own] and game["legal"][-1] == "pass"
    top = own[0]
    after = play(client, game, str(top).rsplit(" ", 1)[0])
    mine, reply = after["decisions"][0], after["decisions"][1]
    assert (mine["by"], mine["text"]) == ("human", str(top)) and reply["by"] == "agent"
    assert after["view"]["scores"][0] == top.score and len(after["view"]["rack"]) == 7
    rows = [row for row in after["view"]["board"]]
    assert sum(ch != "." for row in rows for ch in row) >= len(top.word)


def test_the_coach_ranks_by_score_and_leave_and_judges_your_move(client: TestClient) -> None:
    game = new(client, seed=9)
    sid = game["id"]
    advice = client.get(f"{SESSIONS}/{sid}/advice").json()
    rows = advice["rows"]
    values = [m["value"] for m in rows]
    assert values == sorted(values, reverse=True) and rows[0]["cost"] == 0
    for m in rows:
        assert m["value"] == pytest.approx(m["score"] + m["leave"] + m["closing"], abs=0.02)
        assert m["cost"] == pytest.approx(values[0] - m["value"], abs=0.02)
        assert m["why"].startswith("opening: scores ")
    # The last move listed, played: the coach says what it gave up, and its own choice.
    worst = rows[-1]
    r = client.post(f"{SESSIONS}/{sid}/move", json={"decision": worst["action"]})
    assert r.status_code == 200, r.text
    judged = client.get(f"{API}/sessions/{sid}/position", params={"at": 0}).json()["judged"]
    assert worst["cost"] > 0 and judged["cost"] == pytest.approx(worst["cost"], abs=0.02)
    assert judged["best"] == rows[0]["action"]


def test_illegal_moves_are_refused_saying_why(client: TestClient) -> None:
    sid = new(client, seed=3)["id"]
    cases = {
        "A1 QI": "centre",  # the first word must cover 8H
        "8H": "cannot read",
        "Z9 CAT": "cannot read square",
        "x": "tiles to give back",
    }
    for typed, words in cases.items():
        response = read(client, sid, typed)
        assert response.status_code == 400, typed
        assert words in response.json()["detail"], (typed, response.json())
    too_long = read(client, sid, "8H " + "A" * 40)
    assert too_long.status_code == 422 and "move" in too_long.json()["detail"]
    gone = client.get(f"{SESSIONS}/ses-{'B' * 24}")
    assert gone.status_code == 404


def test_exchange_and_pass_are_moves_too(client: TestClient) -> None:
    game = new(client, seed=7)
    rack = game["view"]["rack"]
    after = play(client, game, f"x {rack[:3]}")
    assert after["decisions"][0]["text"] == f"exchange {rack[:3]}"
    assert len(after["view"]["rack"]) == 7
    passed = play(client, after, "pass")
    assert passed["decisions"][2]["text"] == "pass"


def test_a_game_played_by_the_advice_reaches_its_end(client: TestClient) -> None:
    game = new(client, seed=21)
    sid = game["id"]
    while not game["over"]:
        best = client.get(f"{SESSIONS}/{sid}/advice").json()["rows"][0]["action"]
        r = client.post(f"{SESSIONS}/{sid}/move", json={"decision": best})
        game = agent(client, r.json())
    assert game["over"] and not game["human_to_move"]
    assert game["result"]  # the session's result: the final scores
    assert client.get(f"{SESSIONS}/{sid}/advice").status_code == 400
    late = client.post(f"{SESSIONS}/{sid}/move", json={"decision": "pass"})
    assert late.status_code == 400 and "over" in late.json()["detail"]


def test_the_assistant_lists_the_top_moves_of_a_position(client: TestClient) -> None:
    rows = with_row(7, "......CAT......")
    body = {"position": position(rows), "rack": "SERTIAN", "top": 4}
    by_score = client.post(f"{API}/analyse", json={**body, "rank": "score"})
    assert by_score.status_code == 200, by_score.text
    result = by_score.json()
    lex = default_lexicon("english")
    own = generate_moves(board_from_text(rows, lex.tiles), lex.tiles.rack_counts("SERTIAN"), lex)
    assert [m["action"] for m in result["moves"]] == [str(m) for m in own[:4]]
    assert result["total"] == len(own) and result["board"] == rows and result["rank"] == "score"
    for move in result["moves"]:
        for tile in move["tiles"]:
            assert rows[tile["row"]][tile["col"]] == "."  # only new tiles are listed
    # By default the coach ranks them: the equity player's own list for this rack.
    coached = client.post(f"{API}/analyse", json=body).json()
    state = read_position(position(rows, "SERTIAN -"), lex)
    coach = load_game("scrabble").make_agent("english", parse_spec("equity:endgame=off"))
    mine, total = coach.ranked(state, 4)  # type: ignore[attr-defined]
    assert [m["action"] for m in coached["moves"]] == [str(c.action) for c in mine]
    assert coached["total"] == total == len(own) and coached["rank"] == "value"
    assert [m["value"] for m in coached["moves"]] == [round(c.value / 1000, 2) for c in mine]
    # Each row by score carries the coach's value and what it gives up against the coach's best.
    for m in result["moves"]:
        assert m["behind"] == pytest.approx(coached["moves"][0]["value"] - m["value"], abs=0.02)


def test_ranked_by_score_once_the_bag_is_empty_rows_carry_the_closing_points(
    client: TestClient,
) -> None:
    # The bag is empty: the coach adds going out (twice the other rack: Q and Z, 2 x 20) or
    # takes the tiles kept; ranked by score, every row must still carry those points.
    rows = with_row(7, "......CAT......")
    text = "bag:\n" + position(rows, "AST QZ")
    result = client.post(f"{API}/analyse", json={"position": text, "rank": "score", "top": 20})
    assert result.status_code == 200, result.text
    moves = result.json()["moves"]
    assert result.json()["phase"] == "closing" and len(moves) > 3
    assert [m["score"] for m in moves] == sorted((m["score"] for m in moves), reverse=True)
    values = {"A": 1, "S": 1, "T": 1}
    for m in moves:
        laid = sorted(t["letter"] for t in m["tiles"])
        kept = sum(values.values()) - sum(values[ch] for ch in laid)
        assert m["closing"] == (40 if len(laid) == 3 else -kept), m
        assert m["value"] == pytest.approx(m["score"] + m["closing"], abs=0.02)
    best = client.post(f"{API}/analyse", json={"position": text, "top": 1}).json()["moves"][0]
    assert best["closing"] == 40  # the coach goes out
    for m in moves:
        assert m["behind"] == pytest.approx(max(0.0, best["value"] - m["value"]), abs=0.02)


def test_a_blank_is_played_as_a_lower_case_letter(client: TestClient) -> None:
    rows = with_row(7, "......CAT......")
    body = {"position": position(rows), "rack": "SERTIA?", "top": 50, "rank": "score"}
    result = client.post(f"{API}/analyse", json=body).json()
    assert result["total"] > 10_000 and len(result["moves"]) == 50
    blanks = [t for m in result["moves"] for t in m["tiles"] if t["letter"].islower()]
    assert blanks  # the best moves with seven tiles use the blank


def test_the_assistant_reads_the_rack_from_the_position(client: TestClient) -> None:
    rows = with_row(7, ".......QI......")
    text = position(rows, "EAT -")
    result = client.post(f"{API}/analyse", json={"position": text}).json()
    assert result["rack"] == "EAT" and result["moves"]


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"position": "board:\n" + "\n".join(EMPTY[:14])}, 400, "14 rows"),
        ({"position": position(with_row(3, "..1............"))}, 400, "row 4"),
        ({"position": position(EMPTY), "rack": "QQ"}, 400, "more Q tiles"),
        ({"position": position(with_row(7, "......QAT......")), "rack": "Q"}, 400, "2 Q tiles"),
        ({"position": position(EMPTY), "rack": "ABCDEFGH"}, 422, "rack"),
        ({"position": position(EMPTY), "top": MAX_TOP + 1}, 422, "top"),
        ({"position": position(EMPTY), "rank": "luck"}, 422, "rank"),
        ({"position": position(EMPTY), "lexicon": "server"}, 400, "without a word list"),
        ({"position": position(EMPTY), "tiles": "klingon"}, 422, "tiles"),
        ({"position": ""}, 422, "position"),
    ],
)
def test_bad_assistant_queries_are_4xx_naming_the_problem(
    client: TestClient, body: dict[str, Any], status: int, words: str
) -> None:
    response = client.post(f"{API}/analyse", json=body)
    assert response.status_code == status, response.text
    assert words in response.json()["detail"]


def test_the_servers_word_list_is_used_when_chosen(tmp_path: Path) -> None:
    words = tmp_path / "words.txt"
    words.write_text("ŽÁBA\nBÁBA\nŽÁBY\n", encoding="utf-8")
    client = TestClient(create_app(lexicon=words))
    result = client.post(
        f"{API}/analyse",
        json={"tiles": "czech", "lexicon": "server", "position": position(EMPTY), "rack": "ŽÁBAY"},
    ).json()
    placed = {m["move"].split()[1] for m in result["moves"] if m["kind"] == "placement"}
    assert placed == {"ŽÁBA", "ŽÁBY"}
    status = client.get(f"{API}/options").json()
    server = [x for x in status["lexicons"] if x["tiles"] == "czech" and x["lexicon"] == "server"]
    assert server[0]["available"] and server[0]["words"] == 3


def test_bad_new_game_settings_are_refused_naming_them(client: TestClient) -> None:
    for rules, seats, words in (
        ("english", ["human", "deep-blue"], "deep-blue"),
        ("latin", ["human", "greedy"], "latin"),
        ("english:lexicon=/nonexistent/words.txt", ["human", "greedy"], "words.txt"),
    ):
        body = {"game": "scrabble", "rules": rules, "seats": seats}
        response = client.post(SESSIONS, json=body)
        assert 400 <= response.status_code < 500 and words in response.text, body


def test_the_tile_set_and_the_premium_squares(client: TestClient) -> None:
    info = client.get(f"{API}/tiles/czech").json()
    czech = tile_set("czech")
    assert info["letters"] == list(czech.letters) and info["values"] == list(czech.values)
    assert info["premium"] == list(PREMIUM_ROWS) and info["bingo"] == 50
    assert client.get(f"{API}/tiles/french").status_code == 422


def test_reading_a_move_agrees_with_the_cli_parser() -> None:
    # read_move looks up only the placements on the typed square; the CLI lists every move.
    lex = default_lexicon("english")
    state = read_position(position(with_row(7, "......CAT......"), "SERTIAE -"), lex)
    legal = 0
    # (9G ATE forms CA, a word of the informal list but not of ENABLE, the default since)
    for text in ("9G ATE", "8G CATS", "8G CATES", "8F ECAT", "G7 ACE", "8G ATE", "G5 STACKS",
                 "H1 TZAR", "G5 S1", "x AB", "pass", "8H", "Q9 AT"):  # fmt: skip
        outcomes: list[str] = []
        for parse in (read_move, parse_move):
            try:
                outcomes.append(str(parse(text, state)))
            except IllegalActionError as exc:
                outcomes.append(f"error: {exc}")
        assert outcomes[0] == outcomes[1], text
        legal += not outcomes[0].startswith("error")
    assert legal >= 5  # placements, an exchange and a pass among them


@pytest.mark.parametrize("tiles", ["english", "czech"])
def test_every_opponent_offered_is_a_registry_agent_that_plays(tiles: str) -> None:
    # The page offers the registry's agents (GET /api/games); each plays a legal move.
    lex = default_lexicon(tiles)
    rng = np.random.default_rng(1)
    game = load_game("scrabble")
    for name in game.agents:
        agent = game.make_agent(tiles, parse_spec(name))
        state = ScrabbleState.new(lex, 2)
        while state.current_player < 0:
            state = state.apply(state.sample_chance(rng))
        action = agent.act(state, rng)
        assert action in state.legal_actions(), name


def test_the_options_name_the_lexicons_and_leave_the_opponents_to_the_registry(
    client: TestClient,
) -> None:
    # the page lists the registry's agents (GET /api/games); no list of its own here
    assert set(client.get(f"{API}/options").json()) == {"lexicons"}
