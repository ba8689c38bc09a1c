"""The one REST shape (/api/sessions) over every game of the registry and the recipe game
Nim: round trips, games that survive a restart, records in and out, hostile input, and a
games store that fails without failing a request."""

from __future__ import annotations

import json
import os
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

import stratagem.games
from stratagem.core.registry import available_games, load_game
from stratagem.core.session import MAX_RECORD_BYTES, Session
from stratagem.core.store import GameStore
from stratagem.web.app import create_app
from stratagem.web.play import _CODECS, register_record_format

RECIPES = Path(__file__).resolve().parents[1] / "core" / "recipes"
GAMES = [*available_games(), "nim"]
RULES = {"pig": "coin-3", "yahtzee": "yahtzee", "scrabble": "english", "nim": "nim-12"}
MOVES = {"scrabble": 2}  # move generation is the cost; a few moves show the behaviour


@pytest.fixture
def nim(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The recipe game, added by its folder alone (as tests/core/test_recipes.py does)."""
    monkeypatch.setattr(stratagem.games, "__path__", [*stratagem.games.__path__, str(RECIPES)])
    yield
    for module in [m for m in sys.modules if m.startswith("stratagem.games.nim")]:
        del sys.modules[module]


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest) -> str:
    name: str = request.param
    if name == "nim":
        request.getfixturevalue("nim")
    return name


def app_on(data: Path | GameStore, **kw: Any) -> TestClient:
    return TestClient(create_app(tables="off", max_mcts_sims=200, data=data, **kw))


def start(client: TestClient, game: str, seats: list[str] | None = None, **kw: Any) -> Any:
    body = {
        "game": game,
        "rules": RULES.get(game),
        "seats": seats or ["human", "random"],
        "seed": 5,
        **kw,
    }
    r = client.post("/api/sessions", json=body)
    assert r.status_code == 201, r.text
    return r.json()


def agents_move(client: TestClient, view: Any) -> Any:
    while not view["over"] and not view["human_to_move"]:
        r = client.post(f"/api/sessions/{view['id']}/ai", json={})
        assert r.status_code == 200, r.text
        view = r.json()
    return view


def play(client: TestClient, view: Any, moves: int, seed: int = 1) -> Any:
    """The person picks seeded random legal decisions by their text; agents answer."""
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        view = agents_move(client, view)
        if view["over"]:
            break
        text = view["legal"][int(rng.integers(len(view["legal"])))]
        r = client.post(f"/api/sessions/{view['id']}/move", json={"decision": text})
        assert r.status_code == 200, r.text
        view = r.json()
    return agents_move(client, view)


def test_every_game_plays_takes_back_survives_a_restart_and_round_trips_its_record(
    game: str, tmp_path: Path
) -> None:
    client = app_on(tmp_path)
    view = play(client, start(client, game), MOVES.get(game, 4))
    sid = view["id"]
    assert view["storage"] == {"persistent": True, "ok": True, "message": "saved"}
    humans = view["takeback_to"]
    assert humans, "the person made decisions"
    back = client.post(f"/api/sessions/{sid}/takeback", json={}).json()
    assert len(back["decisions"]) == humans[-1] and back["human_to_move"]

    # the server restarts: a new app on the same data folder finds the game as it was
    again = app_on(tmp_path).get(f"/api/sessions/{sid}")
    assert again.status_code == 200, again.text
    assert again.json()["line"] == back["line"] and again.json()["legal"] == back["legal"]

    record = client.get(f"/api/sessions/{sid}/record")
    if not load_game(game).perfect_information:
        # the JSON record holds the deal (every hidden tile): refused while the game goes
        # on (the GCG round trip is tests/games/scrabble/test_gcg_session.py's)
        assert record.status_code == 400 and "once the game is over" in record.json()["detail"]
        return
    assert record.headers["content-type"].startswith("application/json")
    assert "attachment" in record.headers["content-disposition"]
    imported = client.post("/api/sessions/import", json={"record": record.text, "game": game})
    assert imported.status_code == 201, imported.text
    assert imported.json()["id"] != sid and imported.json()["line"] == back["line"]


def test_a_decision_taken_again_after_a_takeback_meets_the_same_chance(tmp_path: Path) -> None:
    client = app_on(tmp_path)
    view = start(client, "pig", ["human", "hold:2"])
    first = client.post(f"/api/sessions/{view['id']}/move", json={"decision": "roll"}).json()
    client.post(f"/api/sessions/{view['id']}/takeback", json={"decision": 0})
    second = client.post(f"/api/sessions/{view['id']}/move", json={"decision": "roll"}).json()
    assert second["line"] == first["line"] and second["line"][1]["by"] == "chance"


def test_a_game_evicted_from_memory_is_read_back_from_the_store(tmp_path: Path) -> None:
    client = app_on(tmp_path, max_sessions=1)
    first = start(client, "pig")
    start(client, "pig")  # evicts the first from memory
    r = client.get(f"/api/sessions/{first['id']}")
    assert r.status_code == 200 and r.json()["line"] == first["line"]


def test_a_deleted_game_is_gone_from_memory_and_store(tmp_path: Path) -> None:
    client = app_on(tmp_path)
    sid = start(client, "pig")["id"]
    assert client.request("DELETE", f"/api/sessions/{sid}", json={}).status_code == 200
    assert client.get(f"/api/sessions/{sid}").status_code == 410
    assert app_on(tmp_path).get(f"/api/sessions/{sid}").status_code == 404
    assert sid not in [g["id"] for g in client.get("/api/sessions").json()["games"]]


def test_my_games_lists_a_finished_game_with_its_result_and_page(nim: None, tmp_path: Path) -> None:
    client = app_on(tmp_path)
    view = agents_move(client, start(client, "nim", ["four", "random"]))
    assert view["over"] and view["result"]["finished"]
    listed = client.get("/api/sessions").json()
    assert listed["storage"]["persistent"]
    (row,) = listed["games"]
    assert row["id"] == view["id"] and row["finished"] and row["seats"] == ["four", "random"]
    assert row["result"] == "-".join(f"{r:g}" for r in view["result"]["returns"])
    assert row["page"] == "/play?game=nim" and row["title"] == "Nim"


def test_branch_opens_the_first_decisions_with_every_seat_human(tmp_path: Path) -> None:
    client = app_on(tmp_path)
    view = play(client, start(client, "pig", ["human", "hold:2"], coach="optimal"), 5)
    r = client.post(f"/api/sessions/{view['id']}/branch", json={"at": 2})
    assert r.status_code == 201, r.text
    branch = r.json()
    assert branch["seats"] == ["human", "human"] and branch["coach"] == "optimal"
    assert [d["text"] for d in branch["decisions"]] == [d["text"] for d in view["decisions"][:2]]
    too_far = client.post(f"/api/sessions/{view['id']}/branch", json={"at": 10_000})
    assert too_far.status_code == 400 and "branch at 0.." in too_far.json()["detail"]


def test_a_coach_that_cannot_price_options_is_refused_when_asked(tmp_path: Path) -> None:
    client = app_on(tmp_path)
    view = start(client, "pig", coach="random")
    r = client.get(f"/api/sessions/{view['id']}/advice")
    if view["has_coaching"]:  # the game's own coaching answers, whatever the coach spec
        assert r.status_code == 200
    else:
        assert r.status_code == 400 and "cannot coach" in r.json()["detail"]


def test_advice_needs_coaching_or_a_coach(tmp_path: Path) -> None:
    client = app_on(tmp_path)
    coached = start(client, "pig", ["human", "hold:2"], coach="optimal")
    r = client.get(f"/api/sessions/{coached['id']}/advice")
    assert r.status_code == 200, r.text
    assert {row["action"] for row in r.json()["rows"]} <= set(coached["legal"]) | {"roll", "hold"}
    if not coached["has_coaching"]:
        bare = start(client, "pig")
        r = client.get(f"/api/sessions/{bare['id']}/advice")
        assert r.status_code == 400 and "coach" in r.json()["detail"]


@pytest.mark.parametrize(
    ("body", "status", "named"),
    [
        ({"game": "chess", "seats": ["human"]}, 400, "the games are"),
        ({"game": "pig", "seats": ["human", "hold:999999"]}, 400, "seat 1"),
        ({"game": "pig", "seats": ["human", "alphazero"]}, 400, "seat 1"),
        ({"game": "pig", "seats": ["human", "random"], "coach": "hold:0"}, 400, "coach"),
        ({"game": "pig", "seats": ["human"]}, 400, "2-2 players"),
        ({"game": "pig", "rules": "pig:goal=0", "seats": ["human", "random"]}, 400, "goal"),
        ({"game": "pig", "seats": ["human", "random"], "seed": -1}, 422, "seed"),
        ({"game": "pig", "seats": ["human", "random"], "seed": 2**63}, 422, "seed"),
        ({"game": "pig", "seats": []}, 422, "seats"),
    ],
)
def test_a_bad_new_game_is_refused_naming_the_problem(
    body: dict[str, Any], status: int, named: str, tmp_path: Path
) -> None:
    client = app_on(tmp_path)
    r = client.post("/api/sessions", json=body)
    assert r.status_code == status and named in r.json()["detail"], r.text
    assert client.get("/api/sessions").json()["games"] == []


def test_bad_moves_and_takebacks_are_refused_and_change_nothing(tmp_path: Path) -> None:
    client = app_on(tmp_path)
    view = start(client, "pig", ["human", "hold:2"])
    sid = view["id"]
    r = client.post(f"/api/sessions/{sid}/move", json={"decision": "fly"})
    assert r.status_code == 400 and "legal ones are: roll" in r.json()["detail"]
    r = client.post(f"/api/sessions/{sid}/takeback", json={})
    assert r.status_code == 400 and "no decision of a person" in r.json()["detail"]
    r = client.post(f"/api/sessions/{sid}/takeback", json={"decision": -1})
    assert r.status_code == 422
    r = client.post(f"/api/sessions/{sid}/ai", json={})
    assert r.status_code == 400 and "is a person" in r.json()["detail"]
    assert client.get(f"/api/sessions/{sid}").json()["line"] == view["line"]


def _record(client: TestClient) -> str:
    view = play(client, start(client, "pig", ["human", "hold:2"]), 4)
    return str(client.get(f"/api/sessions/{view['id']}/record").text)


def _impossible(text: str) -> str:
    data = json.loads(text)
    data["decisions"][0] = "hold"  # nothing to hold before the first roll
    return json.dumps(data)


def _changed_dice(text: str) -> str:
    data = json.loads(text)
    data["chance"][0] = "6" if data["chance"][0] != "6" else "5"
    return json.dumps(data)


@pytest.mark.parametrize(
    ("make", "extra", "status", "named"),
    [
        (lambda t: t[: len(t) // 2], {}, 400, "truncated"),
        (lambda t: t, {"game": "yahtzee"}, 400, "not of yahtzee"),
        (_impossible, {}, 400, "impossible"),
        (_changed_dice, {}, 400, "chance outcome 1"),
        (lambda t: "x" * (MAX_RECORD_BYTES + 1), {}, 400, "at most 1,000,000"),
        (lambda t: "[]", {}, 400, "JSON object"),
        # Scrabble reads gcg (a JSON record given as GCG: tests/web/test_scrabble_sessions_api.py)
        (lambda t: t, {"format": "pgn"}, 400, "no game reads records in format 'pgn'"),
        (lambda t: t, {"format": "gcg"}, 400, "not a GCG game record"),
    ],
)
def test_a_hostile_record_is_refused_naming_the_problem_and_nothing_is_stored(
    make: Any, extra: dict[str, str], status: int, named: str, tmp_path: Path
) -> None:
    client = app_on(tmp_path)
    text = _record(client)
    before = client.get("/api/sessions").json()["games"]
    data_file = (tmp_path / "games.sqlite3").read_bytes()
    r = client.post("/api/sessions/import", json={"record": make(text), **extra})
    assert r.status_code == status and named in r.json()["detail"], r.text
    assert client.get("/api/sessions").json()["games"] == before
    assert (tmp_path / "games.sqlite3").read_bytes() == data_file


def test_an_import_body_past_its_limit_is_a_413(tmp_path: Path) -> None:
    client = app_on(tmp_path)
    huge = json.dumps({"record": "x" * (3 * MAX_RECORD_BYTES)})
    r = client.post(
        "/api/sessions/import", content=huge, headers={"content-type": "application/json"}
    )
    assert r.status_code == 413 and "bytes" in r.json()["detail"]


class NimText:
    """A toy text format of Nim records (one decision a line), to test the codec hook."""

    media_type = "text/plain"

    def write(self, session: Session) -> str:
        return f"{session.seed}\n" + "\n".join(session.decisions()) + "\n"

    def read(self, text: str) -> Session:
        seed, *decisions = text.split()
        record = {
            "format": "stratagem-game",
            "version": 1,
            "game": "nim",
            "rules": "nim-12",
            "seats": [{"kind": "human"}] * 2,
            "seed": int(seed),
            "coach": None,
            "decisions": decisions,
        }
        return Session.from_record(record)


def test_a_game_offers_its_own_record_format_through_the_hook(nim: None, tmp_path: Path) -> None:
    client = app_on(tmp_path)
    view = play(client, start(client, "nim", ["human", "human"]), 3)
    r = client.get(f"/api/sessions/{view['id']}/record?format=nimtext")
    assert r.status_code == 400 and "nim records come as json, not 'nimtext'" in r.text
    register_record_format("nim", "nimtext", NimText())
    try:
        r = client.get(f"/api/sessions/{view['id']}/record?format=nimtext")
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/plain")
        back = client.post("/api/sessions/import", json={"record": r.text, "format": "nimtext"})
        assert back.status_code == 201 and back.json()["line"] == view["line"]
    finally:
        _CODECS.pop("nim", None)


def test_a_corrupt_games_file_is_left_as_it_is_and_games_go_on_in_memory(tmp_path: Path) -> None:
    junk = b"this is not a database" * 100
    (tmp_path / "games.sqlite3").write_bytes(junk)
    client = app_on(tmp_path)
    view = play(client, start(client, "pig"), 3)
    assert not view["storage"]["persistent"] and not view["storage"]["ok"]
    assert "in memory" in view["storage"]["message"]
    assert client.get(f"/api/sessions/{view['id']}").status_code == 200
    assert (tmp_path / "games.sqlite3").read_bytes() == junk
    listed = client.get("/api/sessions").json()
    assert "in memory" in listed["storage"]["message"] and len(listed["games"]) == 1


@pytest.mark.skipif(hasattr(os, "geteuid") and os.geteuid() == 0, reason="root writes anywhere")
def test_a_read_only_data_folder_keeps_games_in_memory_and_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        client = app_on(folder)
        view = play(client, start(client, "pig"), 2)
        assert view["storage"]["ok"] is False and "in memory" in view["storage"]["message"]
        assert client.post(f"/api/sessions/{view['id']}/takeback", json={}).status_code == 200
    finally:
        folder.chmod(0o700)


def test_a_store_failing_during_a_game_fails_no_request(tmp_path: Path) -> None:
    store = GameStore.in_folder(tmp_path)
    client = app_on(store)
    view = start(client, "pig", ["human", "hold:2"])
    assert view["storage"]["persistent"]
    store._db.close()  # the file goes away under the server (as a failing disk would)
    r = client.post(f"/api/sessions/{view['id']}/move", json={"decision": "roll"})
    assert r.status_code == 200
    assert not r.json()["storage"]["persistent"] and "in memory" in r.json()["storage"]["message"]


def test_a_stored_record_that_cannot_be_replayed_is_a_410_naming_why(tmp_path: Path) -> None:
    client = app_on(tmp_path)
    sid = start(client, "pig")["id"]
    with sqlite3.connect(tmp_path / "games.sqlite3") as db:
        db.execute(
            "UPDATE games SET record=? WHERE id=?",
            (json.dumps({"format": "stratagem-game", "game": "pig"}), sid),
        )
    r = app_on(tmp_path).get(f"/api/sessions/{sid}")
    assert r.status_code == 410 and "cannot be replayed" in r.json()["detail"]


def test_the_games_list_gives_every_game_its_page_agents_and_typed_parameters(nim: None) -> None:
    games = {g["name"]: g for g in app_on(GameStore(None)).get("/api/games").json()["games"]}
    assert set(games) == set(available_games()) and "nim" in games
    assert games["nim"]["page"] == "/play?game=nim" and games["nim"]["api"] == "/api/sessions"
    assert games["pig"]["page"] == "/pig"
    hold = next(a for a in games["pig"]["agents"] if a["name"] == "hold")
    (n,) = hold["params"]
    assert n["type"] == "int" and n["min"] is not None and n["max"] is not None
    assert games["pig"]["rule_params"] and games["pig"]["default_rules"] in games["pig"]["presets"]


def test_the_schema_links_a_new_game_to_its_operations() -> None:
    schema = create_app(tables="off").openapi()
    links = schema["paths"]["/api/sessions"]["post"]["responses"]["201"]["links"]
    assert {
        "POST /api/sessions/{sid}/move",
        "GET /api/sessions/{sid}",
        "DELETE /api/sessions/{sid}",
    } <= set(links)


def test_a_games_file_opened_read_only_keeps_new_games_in_memory_and_says_so(
    tmp_path: Path,
) -> None:
    GameStore.in_folder(tmp_path).close()  # an existing, healthy file
    before = (tmp_path / "games.sqlite3").read_bytes()
    client = app_on(GameStore(tmp_path / "games.sqlite3", read_only=True))
    view = play(client, start(client, "pig"), 2)
    assert not view["storage"]["persistent"] and "read-only" in view["storage"]["message"]
    assert client.post(f"/api/sessions/{view['id']}/takeback", json={}).status_code == 200
    assert (tmp_path / "games.sqlite3").read_bytes() == before


def test_a_games_file_locked_by_another_process_fails_no_request(tmp_path: Path) -> None:
    client = app_on(tmp_path)
    view = start(client, "pig", ["human", "hold:2"])
    other = sqlite3.connect(tmp_path / "games.sqlite3", isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        r = client.post(f"/api/sessions/{view['id']}/move", json={"decision": "roll"})
        assert r.status_code == 200 and "locked" in r.json()["storage"]["message"]
        assert "in memory" in r.json()["storage"]["message"]
    finally:
        other.execute("ROLLBACK")
        other.close()


def test_a_position_of_the_past_is_shown_read_only(tmp_path: Path) -> None:
    client = app_on(tmp_path)
    view = play(client, start(client, "pig", ["human", "hold:2"]), 4)
    total = len(view["decisions"])
    r = client.get(f"/api/sessions/{view['id']}?at=1")
    assert r.status_code == 200, r.text
    past = r.json()
    assert past["replay_at"] == 1 and past["total_decisions"] == total
    assert past["decisions"] == view["decisions"][:1] and past["legal"] == []
    assert not past["human_to_move"] and past["takeback_to"] == []
    assert past["line"] == view["line"][: len(past["line"])] and past["line"][-1]["by"] == "chance"
    assert client.get(f"/api/sessions/{view['id']}?at={total + 1}").status_code == 400
    assert client.get(f"/api/sessions/{view['id']}?at=-1").status_code == 422
    now = client.get(f"/api/sessions/{view['id']}?at={total}").json()
    assert now["replay_at"] is None and now["line"] == view["line"]


def test_a_games_extras_module_may_declare_its_own_warm_up(monkeypatch: pytest.MonkeyPatch) -> None:
    import stratagem.web.pig as pig_web
    from stratagem.web.app import game_routers, game_warmers

    def warm() -> None:
        """Pig's own warm-up."""

    monkeypatch.setattr(pig_web, "warm", warm, raising=False)
    warmers = game_warmers(game_routers())
    from stratagem.web.warmup import WARMERS

    # and a game without an extras router (Score Four) keeps its WARMERS entry
    assert warmers["pig"] is warm and set(warmers) == set(game_routers()) | set(WARMERS)
