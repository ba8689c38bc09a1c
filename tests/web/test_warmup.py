"""Kernels compile at server start in the background, never inside a request (issue 33: the
first Scrabble AI move spent about 100 s compiling while other requests waited)."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import pytest
from fastapi.testclient import TestClient

import stratagem.web.warmup as warmup
from stratagem.web.app import create_app

PIG_GAME = {"game": "pig", "rules": "piglet", "seats": ["human", "optimal"], "seed": 1}
SCRABBLE_GAME = {"game": "scrabble", "seats": ["greedy", "human"], "seed": 1}


@pytest.fixture()
def slow_scrabble(monkeypatch: pytest.MonkeyPatch) -> Iterator[threading.Event]:
    """A warm-up whose Scrabble step lasts until the event is set (the other games' steps
    do nothing)."""
    done = threading.Event()
    warmers = {game: (lambda: None) for game in warmup.WARMERS}
    warmers["scrabble"] = lambda: done.wait(30) and None  # type: ignore[func-returns-value]
    monkeypatch.setattr(warmup, "WARMERS", warmers)
    import stratagem.web.app as web_app

    monkeypatch.setattr(web_app, "WARMERS", warmers)
    yield done
    done.set()


def _wait(cond: object) -> None:
    deadline = time.monotonic() + 10
    while not cond():  # type: ignore[operator]
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_a_request_for_an_engine_still_compiling_gets_503_and_a_retry_time(
    slow_scrabble: threading.Event,
) -> None:
    client = TestClient(create_app(tables="off", warm_kernels=True))
    _wait(lambda: client.get("/api/games").json()["engines"]["scrabble"] == "warming")
    sid = client.post("/api/sessions", json=SCRABBLE_GAME).json()["id"]  # the agent to move
    r = client.post(f"/api/sessions/{sid}/ai", json={})  # its move needs the engine
    assert r.status_code == 503
    assert int(r.headers["Retry-After"]) >= 1
    assert "preparing the scrabble engine" in r.json()["detail"]
    # the other games and the reads are served meanwhile
    assert client.post("/api/sessions", json=PIG_GAME).status_code == 201
    assert client.get("/api/scrabble/options").status_code == 200
    slow_scrabble.set()
    _wait(lambda: client.get("/api/games").json()["engines"]["scrabble"] == "ready")
    r = client.post(f"/api/sessions/{sid}/ai", json={})
    assert r.status_code == 200, r.text


def test_without_warm_up_nothing_is_refused() -> None:
    client = TestClient(create_app(tables="off"))
    assert client.get("/api/games").json()["engines"] == {}
    assert client.post("/api/sessions", json=PIG_GAME).status_code == 201


def test_serve_warms_the_kernels(monkeypatch: pytest.MonkeyPatch) -> None:
    """``stratagem serve`` builds its app with the warm-up on."""
    import stratagem.web.app as web_app
    import stratagem.web.serve as serve

    seen: dict[str, object] = {}

    def fake_create_app(**kwargs: object) -> object:
        seen.update(kwargs)
        raise SystemExit(0)

    monkeypatch.setattr(web_app, "create_app", fake_create_app)
    monkeypatch.setattr(serve, "check_listen", lambda host, port: None)
    with pytest.raises(SystemExit):
        serve.serve("127.0.0.1", 8765)
    assert seen.get("warm_kernels") is True


@pytest.mark.slow
def test_every_game_s_warm_up_runs() -> None:
    """The real warm-up of every game ends ready (minutes on a fresh install, seconds when
    numba's cache is warm)."""
    client = TestClient(create_app(tables="off", warm_kernels=True))
    deadline = time.monotonic() + 900
    while True:
        engines = client.get("/api/games").json()["engines"]
        if all(s in ("ready", "failed") for s in engines.values()):
            break
        assert time.monotonic() < deadline, engines
        time.sleep(1)
    assert set(engines.values()) == {"ready"}, client.app.state.warmup.games  # type: ignore[attr-defined]


def test_the_scrabble_warm_up_moves_once_with_each_opponent_the_page_offers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the page offers the registry's agents (GET /api/games): each is warmed, none else
    from stratagem.core.registry import load_game
    from stratagem.core.session import Session

    moved: list[str | None] = []
    monkeypatch.setattr(Session, "ai_move", lambda self: moved.append(self.seats[0].agent))
    warmup.WARMERS["scrabble"]()
    assert moved == list(load_game("scrabble").agents)
