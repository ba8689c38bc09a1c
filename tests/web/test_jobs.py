"""Background jobs (web.common.Jobs) can be cancelled: on request, while queued, and when
the page that polled them is gone (its lease runs out); a cancelled build unwinds and frees
what it held."""

from __future__ import annotations

import gc
import threading
import time
import weakref
from typing import Any

import numpy as np

from stratagem.web.common import JobCancelled, Jobs

WAIT = 60.0


def _until(condition: Any, what: str) -> None:
    deadline = time.monotonic() + WAIT
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.01)


class Clock:
    """A clock the test moves by hand (the leases are measured on it)."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _looping_build(held: list[Any], started: threading.Event, release: threading.Event) -> Any:
    """A build that holds a large array and reports progress until released."""

    def build(progress: Any) -> str:
        table = np.ones(2_000_000)
        held.append(weakref.ref(table))
        started.set()
        while not release.is_set():
            progress(0.5, "building")
            time.sleep(0.001)
        return "done"

    return build


def test_a_cancelled_build_stops_and_frees_its_memory() -> None:
    jobs = Jobs()
    held: list[Any] = []
    started, release = threading.Event(), threading.Event()
    jobs.start("t", _looping_build(held, started, release))
    assert started.wait(WAIT)
    status = jobs.cancel("t")
    assert status.state in ("building", "cancelled")
    _until(lambda: jobs.status("t").state == "cancelled", "the build did not stop")
    status = jobs.status("t")
    assert status.message == "cancelled on request" and jobs.result("t") is None
    gc.collect()
    assert held[0]() is None  # the build's array is gone with it
    release.set()


def test_a_queued_build_cancelled_never_runs() -> None:
    jobs = Jobs()
    held: list[Any] = []
    started, release = threading.Event(), threading.Event()
    jobs.start("first", _looping_build(held, started, release))
    assert started.wait(WAIT)
    ran: list[str] = []
    jobs.start("second", lambda progress: ran.append("second"))
    assert jobs.cancel("second").state == "cancelled"  # at once: it was only waiting
    release.set()
    _until(lambda: jobs.result("first") == "done", "the first build did not end")
    time.sleep(0.1)
    assert ran == [] and jobs.status("second").state == "cancelled"


def test_a_build_nobody_asks_about_stops_when_its_lease_runs_out() -> None:
    clock = Clock()
    jobs = Jobs(clock=clock)
    held: list[Any] = []
    started, release = threading.Event(), threading.Event()
    jobs.start("t", _looping_build(held, started, release), lease=30.0)
    assert started.wait(WAIT)
    for _ in range(5):  # a page polls it: the lease is renewed, the build goes on
        clock.now += 20.0
        assert jobs.status("t").state == "building"
    clock.now += 31.0  # the page is gone
    _until(lambda: jobs._jobs["t"].state == "cancelled", "the abandoned build did not stop")
    assert "nobody asked for it for 31 s" in jobs.status("t").message
    release.set()


def test_a_build_that_ended_is_not_cancelled_and_cancelling_nothing_is_harmless() -> None:
    jobs = Jobs()
    jobs.start("t", lambda progress: "done")
    _until(lambda: jobs.result("t") == "done", "the build did not end")
    assert jobs.cancel("t").state == "ready" and jobs.result("t") == "done"
    assert jobs.cancel("nothing").state == "missing"


def test_cancelling_raises_inside_the_build_at_its_next_progress_report() -> None:
    jobs = Jobs()
    seen: list[BaseException] = []
    inside, go = threading.Event(), threading.Event()

    def build(progress: Any) -> str:
        inside.set()
        go.wait(WAIT)
        try:
            progress(0.1, "next step")
        except JobCancelled as exc:
            seen.append(exc)
            raise
        return "finished anyway"

    jobs.start("t", build)
    assert inside.wait(WAIT)
    jobs.cancel("t", "stop it")
    go.set()
    _until(lambda: jobs.status("t").state == "cancelled", "the build did not stop")
    assert [str(e) for e in seen] == ["stop it"]


def test_the_page_s_delete_cancels_the_table_build_and_a_question_does_not_restart_it(
    monkeypatch: Any,
) -> None:
    """``DELETE /api/yahtzee/tables/{rules}`` stops the build (a stand-in that reports
    progress until stopped); a question that would use the tables then leaves it stopped."""
    from fastapi.testclient import TestClient

    import stratagem.web.yahtzee as web_yahtzee
    from stratagem.web.app import create_app

    builds: list[str] = []

    def slow_build(sol: Any, progress: Any = None, **_options: Any) -> Any:
        builds.append(sol.rules.name)
        while True:  # until the job's progress callback raises JobCancelled
            progress(1, 100)
            time.sleep(0.001)

    monkeypatch.setattr(web_yahtzee, "optimal_remaining", slow_build)
    monkeypatch.setattr(web_yahtzee, "_remaining_cached", lambda name, cache=None: False)
    client = TestClient(create_app(tables="build"))
    view = client.post("/api/yahtzee/tables/yahtzee", json={"remaining": True}).json()
    assert view["remaining"]["state"] == "building"
    _until(lambda: builds == ["yahtzee"], "the build did not start")
    own = {"Origin": "http://testserver"}  # what the page's fetch sends
    assert client.delete("/api/yahtzee/tables/yahtzee").status_code == 415  # not the page
    r = client.delete("/api/yahtzee/tables/yahtzee", headers={"Origin": "https://evil.example"})
    assert r.status_code == 403
    assert client.get("/api/yahtzee/tables/yahtzee").json()["remaining"]["state"] == "building"
    r = client.delete("/api/yahtzee/tables/yahtzee", headers=own)
    assert r.status_code == 200
    _until(
        lambda: (
            client.get("/api/yahtzee/tables/yahtzee").json()["remaining"]["state"] == "cancelled"
        ),
        "the build did not stop",
    )
    status = client.get("/api/yahtzee/tables/yahtzee").json()["remaining"]
    assert status["message"] == "cancelled by the player"
    body = {"dice": [1, 2, 3, 4, 6], "rolls_left": 2, "target": 200}
    advice = client.post("/api/yahtzee/advise", json=body).json()
    assert "cancelled" in advice["target_note"] and builds == ["yahtzee"]
    assert client.delete("/api/yahtzee/tables/no-such-rules", headers=own).status_code == 422
    again = client.post("/api/yahtzee/tables/yahtzee", json={"remaining": True}).json()
    assert again["remaining"]["state"] == "building"  # the page may start it again
    client.delete("/api/yahtzee/tables/yahtzee", headers=own)
