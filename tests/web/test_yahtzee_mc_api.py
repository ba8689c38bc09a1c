"""The Monte Carlo panel's jobs: progress to the end, cancel, abandon, and refusals."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient

from stratagem.web import yahtzee_mc

POSITION = {"dice": [1, 3, 4, 5, 6], "rolls_left": 2}
SAME_SITE = {"Origin": "http://testserver"}
"""What the page's DELETE sends (no body): the server's own Origin (see SameSiteOnly)."""


def _wait(client: TestClient, job_id: str) -> dict:
    for _ in range(600):
        job = client.get(f"/api/yahtzee/mcts/jobs/{job_id}").json()
        if job["state"] != "running":
            return job
        assert 0.0 <= job["fraction"] <= 1.0
        time.sleep(0.1)
    raise AssertionError("the search did not end")


def test_a_search_runs_to_the_end_with_each_option_beside_the_exact_one(
    client: TestClient,
) -> None:
    r = client.post("/api/yahtzee/mcts/jobs", json={**POSITION, "simulations": 300})
    assert r.status_code == 202 and r.json()["state"] == "running"
    job = _wait(client, r.json()["id"])
    assert job["state"] == "ready" and job["done"] == 300 and job["fraction"] == 1.0
    result = job["result"]
    exact = {
        o["action"]: o["value"]
        for o in client.post("/api/yahtzee/advise", json=POSITION).json()["options"]
    }
    assert result["exact_best"] == max(exact, key=exact.__getitem__)
    assert result["min_playouts"] == 100 and "estimated" in result["method"]
    for row in result["rows"]:
        assert row["exact_value"] == pytest.approx(exact[row["action"]])
        if row["n"]:
            assert row["distance"] == pytest.approx(row["mean"] - row["exact_value"])
        if row["n"] < result["min_playouts"] and row["verdict"] != "best":
            assert row["verdict"] == "too few" and not row["tied_with_best"]


def test_a_cancelled_search_stops_and_says_so(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each progress tick (every 50 simulations) is slowed, so that the cancel lands while
    # the search runs: with the table loaded, 500 simulations could end before the DELETE.
    from stratagem.web import yahtzee as web_yahtzee

    real = web_yahtzee._mcts

    def slowed(request, body, progress=None, cancelled=None):  # type: ignore[no-untyped-def]
        def tick(done: int, total: int) -> None:
            time.sleep(0.1)
            if progress is not None:
                progress(done, total)

        return real(request, body, tick, cancelled)

    monkeypatch.setattr(web_yahtzee, "_mcts", slowed)
    r = client.post("/api/yahtzee/mcts/jobs", json={**POSITION, "simulations": 500})
    assert r.status_code == 202, r.text
    job_id = r.json()["id"]
    assert client.delete(f"/api/yahtzee/mcts/jobs/{job_id}", headers=SAME_SITE).status_code == 200
    job = _wait(client, job_id)
    assert job["state"] == "cancelled" and job["result"] is None
    assert job["done"] < 500


def test_a_search_nobody_polls_stops_by_itself(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(yahtzee_mc, "ABANDONED_AFTER", 0.0)
    job_id = client.post("/api/yahtzee/mcts/jobs", json={**POSITION, "simulations": 500}).json()[
        "id"
    ]
    time.sleep(0.05)
    monkeypatch.setattr(yahtzee_mc, "ABANDONED_AFTER", 1e9)  # polling below must not count
    job = _wait(client, job_id)
    assert job["state"] == "cancelled" and "nobody polled" in job["message"]


def test_too_many_searches_at_once_are_refused(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(yahtzee_mc, "MAX_RUNNING", 0)
    r = client.post("/api/yahtzee/mcts/jobs", json={**POSITION, "simulations": 100})
    assert r.status_code == 429 and "searches are running" in r.json()["detail"]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "words"),
    [
        ("post", "/api/yahtzee/mcts/jobs", {**POSITION, "simulations": 501}, 400, "at most 500"),
        ("post", "/api/yahtzee/mcts/jobs", {**POSITION, "simulations": 5}, 422, "simulations"),
        ("post", "/api/yahtzee/mcts/jobs", {"dice": [7, 1, 1, 1, 1]}, 422, "dice"),
        ("get", "/api/yahtzee/mcts/jobs/mc-" + "a" * 24, None, 404, "no Monte Carlo search"),
        ("get", "/api/yahtzee/mcts/jobs/../etc", None, 404, ""),
        ("delete", "/api/yahtzee/mcts/jobs/bad", None, 422, "job_id"),
    ],
)
def test_bad_requests_are_refused_with_a_message(
    client: TestClient, method: str, path: str, body: dict | None, status: int, words: str
) -> None:
    r = client.request(method.upper(), path, json=body, headers=SAME_SITE)
    assert r.status_code == status
    assert words in r.json()["detail"]


def test_a_client_s_searches_count_against_its_share_of_heavy_work(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import threading

    from stratagem.web import yahtzee as web
    from stratagem.web.app import create_app

    release = threading.Event()
    monkeypatch.setattr(web, "_mcts", lambda *_args: release.wait(60) and None)
    app = create_app(tables="off", heavy_threads=2, heavy_queue=4, heavy_per_client=1)
    greedy = TestClient(app, client=("10.0.0.1", 1000))
    other = TestClient(app, client=("10.0.0.2", 1000))
    body = {**POSITION, "simulations": 100}
    try:
        assert greedy.post("/api/yahtzee/mcts/jobs", json=body).status_code == 202
        r = greedy.post("/api/yahtzee/mcts/jobs", json=body)
        assert r.status_code == 429 and "per client" in r.json()["detail"]
        assert other.post("/api/yahtzee/mcts/jobs", json=body).status_code == 202
        # the refused search left no job behind: two are running, not three
        jobs = yahtzee_mc._jobs(type("R", (), {"app": app})())  # type: ignore[arg-type]
        assert sum(j.state == "running" for j in jobs.jobs.values()) == 2
    finally:
        release.set()
