"""One client cannot stall, evict or overload everyone (issue 33's hostile run): heavy work
in its own bounded pool, reads beside it, limits per client, games that say why they ended,
cross-site requests refused, a read never sees a move half made."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from stratagem.web.app import create_app

WAIT = 10.0
"""Longest a test waits for a blocked job (it never hangs the suite)."""


@pytest.fixture()
def blocked_mcts(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[threading.Event, list[int]]]:
    """Yahtzee MCTS searches that run until ``release`` is set (a stand-in for 20,000
    simulations); ``started`` counts the searches that got a thread."""
    import stratagem.web.yahtzee as web_yahtzee

    release = threading.Event()
    started: list[int] = []

    def slow(request: Any, body: Any) -> Any:
        started.append(1)
        release.wait(WAIT)
        raise web_yahtzee.StratagemError("released")

    monkeypatch.setattr(web_yahtzee, "_mcts", slow)
    yield release, started
    release.set()


MCTS = {"dice": [1, 2, 3, 4, 6], "rolls_left": 2, "simulations": 20_000}


def _in_thread(fn: Any) -> tuple[threading.Thread, list[Any]]:
    out: list[Any] = []
    t = threading.Thread(target=lambda: out.append(fn()), daemon=True)
    t.start()
    return t, out


def _wait_for(cond: Any) -> None:
    deadline = time.monotonic() + WAIT
    while not cond():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def test_a_full_heavy_pool_answers_429_and_reads_do_not_wait(
    blocked_mcts: tuple[threading.Event, list[int]],
) -> None:
    release, started = blocked_mcts
    app = create_app(tables="off", heavy_threads=1, heavy_queue=1, heavy_per_client=5)
    client = TestClient(app)
    game = client.post(
        "/api/sessions", json={"game": "scorefour", "seats": ["human", "minimax:depth=1"]}
    ).json()
    first, _ = _in_thread(lambda: client.post("/api/yahtzee/mcts", json=MCTS))
    _wait_for(lambda: started)
    second, _ = _in_thread(lambda: client.post("/api/yahtzee/mcts", json=MCTS))  # waits
    _wait_for(lambda: app.state.pools.heavy.jobs == 2)
    refused = client.post("/api/yahtzee/mcts", json=MCTS)
    assert refused.status_code == 429
    assert int(refused.headers["Retry-After"]) >= 1
    assert "busy" in refused.json()["detail"]
    t0 = time.monotonic()
    read = client.get(f"/api/sessions/{game['id']}")
    assert read.status_code == 200 and time.monotonic() - t0 < WAIT / 2
    assert len(started) == 1  # the read did not wait for, nor take, a heavy thread
    release.set()
    first.join(WAIT)
    second.join(WAIT)


def test_one_client_has_a_bounded_share_of_heavy_jobs(
    blocked_mcts: tuple[threading.Event, list[int]],
) -> None:
    release, started = blocked_mcts
    app = create_app(tables="off", heavy_threads=2, heavy_queue=4, heavy_per_client=1)
    greedy = TestClient(app, client=("10.0.0.1", 1000))
    other = TestClient(app, client=("10.0.0.2", 1000))
    first, _ = _in_thread(lambda: greedy.post("/api/yahtzee/mcts", json=MCTS))
    _wait_for(lambda: len(started) == 1)
    r = greedy.post("/api/yahtzee/mcts", json=MCTS)
    assert r.status_code == 429 and "per client" in r.json()["detail"]
    second, _ = _in_thread(lambda: other.post("/api/yahtzee/mcts", json=MCTS))
    _wait_for(lambda: len(started) == 2)  # another client still gets a thread
    release.set()
    first.join(WAIT)
    second.join(WAIT)


PIG_GAME = {"game": "pig", "rules": "piglet", "seats": ["human", "optimal"]}


def test_one_client_cannot_evict_other_players_games() -> None:
    """A client past its share of the memory evicts its own games, never another's; an
    evicted game is read back from the store, as it was."""
    app = create_app(tables="off", max_sessions=20, sessions_per_client=3)
    victim = TestClient(app, client=("10.0.0.9", 1000))
    spammer = TestClient(app, client=("10.0.0.1", 1000))
    kept = victim.post("/api/sessions", json={**PIG_GAME, "seed": 1}).json()["id"]
    made = [spammer.post("/api/sessions", json={**PIG_GAME, "seed": i}).json() for i in range(30)]
    assert victim.get(f"/api/sessions/{kept}").status_code == 200
    back = spammer.get(f"/api/sessions/{made[0]['id']}")
    assert back.status_code == 200 and back.json()["line"] == made[0]["line"]
    assert spammer.get(f"/api/sessions/{made[-1]['id']}").status_code == 200


def test_a_game_evicted_from_a_full_server_comes_back_and_an_unknown_one_is_404() -> None:
    client = TestClient(create_app(tables="off", max_sessions=2))
    made = [client.post("/api/sessions", json={**PIG_GAME, "seed": i}).json() for i in range(3)]
    back = client.get(f"/api/sessions/{made[0]['id']}")
    assert back.status_code == 200 and back.json()["line"] == made[0]["line"]
    unknown = client.get("/api/sessions/ses-AAAAAAAAAAAAAAAAAAAAAAAA")
    assert unknown.status_code == 404 and "was ever started" in unknown.json()["detail"]


# --- cross-site requests -------------------------------------------------------------------


@pytest.fixture()
def build_calls(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Records the remaining-score builds started (never builds one)."""
    import stratagem.web.yahtzee as web_yahtzee

    calls: list[str] = []

    def fake(sol: Any, **_options: Any) -> Any:
        calls.append(sol.rules.name)
        raise web_yahtzee.StratagemError("not built in tests")

    monkeypatch.setattr(web_yahtzee, "optimal_remaining", fake)
    monkeypatch.setattr(web_yahtzee, "_remaining_cached", lambda name, cache=None: False)
    return calls


def test_a_bodyless_post_cannot_start_the_table_build(build_calls: list[str]) -> None:
    """What a cross-site form or <img>-style POST can send: no JSON body, no Origin."""
    app = create_app(tables="build")
    client = TestClient(app)
    for extra in ({}, {"content": b"remaining=true",
                       "headers": {"Content-Type": "application/x-www-form-urlencoded"}},
                  {"content": b"{}", "headers": {"Content-Type": "text/plain"}}):  # fmt: skip
        r = client.post("/api/yahtzee/tables/yahtzee", **extra)  # type: ignore[arg-type]
        assert r.status_code == 415, r.text
        assert "JSON body" in r.json()["detail"]
    time.sleep(0.2)
    assert build_calls == []
    assert app.state.jobs.status("yahtzee-remaining:yahtzee").state == "missing"


def test_another_site_s_origin_is_refused_even_with_json(build_calls: list[str]) -> None:
    client = TestClient(create_app(tables="build"))
    r = client.post("/api/yahtzee/tables/yahtzee", json={"remaining": True},
                    headers={"Origin": "https://evil.example"})  # fmt: skip
    assert r.status_code == 403 and "cross-site" in r.json()["detail"]
    r = client.post("/api/sessions", json=PIG_GAME, headers={"Origin": "null"})
    assert r.status_code == 403
    assert build_calls == []


def test_the_page_s_own_requests_pass(build_calls: list[str]) -> None:
    """Same origin (the page's fetch with a JSON body) starts the build as asked."""
    client = TestClient(create_app(tables="build"))
    r = client.post("/api/yahtzee/tables/yahtzee", json={"remaining": True},
                    headers={"Origin": "http://testserver"})  # fmt: skip
    assert r.status_code == 200
    _wait_for(lambda: build_calls == ["yahtzee"])


def test_table_builds_run_one_at_a_time() -> None:
    """A client asking for every rule set's 1 GB tables queues the builds, not runs them at
    once."""
    from stratagem.web.common import Jobs

    jobs = Jobs()
    release = threading.Event()
    running: list[str] = []
    most: list[int] = []

    def build(name: str) -> Any:
        def run(progress: Any) -> str:
            running.append(name)
            most.append(len(running))
            release.wait(WAIT)
            running.remove(name)
            return name

        return run

    jobs.start("a", build("a"))
    _wait_for(lambda: running == ["a"])
    status = jobs.start("b", build("b"))
    assert status.state == "building" and "waiting for another table build" in status.message
    time.sleep(0.2)
    assert running == ["a"]
    release.set()
    _wait_for(lambda: jobs.result("a") == "a" and jobs.result("b") == "b")
    assert max(most) == 1
