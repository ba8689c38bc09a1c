"""The Scrabble assistant's deep analysis jobs: a ranking with standard errors, progress,
cancel, a job nobody polls stopping by itself, the pre-endgame solved, and refusals."""

from __future__ import annotations

import time
from dataclasses import replace
from typing import Any

import numpy as np
import pytest
from fastapi.testclient import TestClient

from stratagem.core.errors import StratagemError
from stratagem.games.scrabble import sim_pool
from stratagem.games.scrabble.heuristic import make_coach
from stratagem.games.scrabble.position import write_position
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.web import scrabble_deep
from stratagem.web.app import create_app
from tests.games.scrabble.test_superleaves import _position as self_play

JOBS = "/api/scrabble/deep/jobs"
SAME_SITE = {"Origin": "http://testserver"}
"""What the page's DELETE sends (no body): the server's own Origin (see SameSiteOnly)."""


@pytest.fixture(scope="module")
def middle() -> ScrabbleState:
    return self_play(5, 6)


def _wait(client: TestClient, job_id: str, limit: float = 120.0) -> dict[str, Any]:
    end = time.monotonic() + limit
    while time.monotonic() < end:
        job = client.get(f"{JOBS}/{job_id}").json()
        if job["state"] != "running":
            return job
        assert 0.0 <= job["fraction"] <= 1.0
        time.sleep(0.1)
    raise AssertionError("the analysis did not end")


def test_an_analysis_ranks_the_coachs_top_moves_with_standard_errors(
    client: TestClient, middle: ScrabbleState
) -> None:
    r = client.post(JOBS, json={"position": write_position(middle), "candidates": 3,
                                "seconds": 2.0})  # fmt: skip
    assert r.status_code == 202, r.text
    job = _wait(client, r.json()["id"])
    assert job["state"] == "ready" and job["fraction"] == 1.0, job
    result = job["result"]
    assert result["stopped"] in ("finished", "budget") and not result["pre_endgame"]
    rows = result["moves"]
    top = {str(c.action) for c in make_coach("english").ranked(middle, 3)[0]}
    assert {row["action"] for row in rows} == top
    wins = [row["win"] for row in rows]
    assert wins == sorted(wins, reverse=True)
    assert result["deals"] == max(row["deals"] for row in rows) >= 2
    for row in rows:
        assert not row["exact"] and row["endgames"] == 0
        assert row["win_se"] > 0 and row["spread_se"] > 0
        assert row["kind"] != "placement" or row["tiles"]


def test_a_cancelled_analysis_stops_and_keeps_its_ranking_so_far(
    client: TestClient, middle: ScrabbleState
) -> None:
    r = client.post(JOBS, json={"position": write_position(middle), "seconds": 60.0})
    job_id = r.json()["id"]
    for _ in range(600):  # a deal or more done
        if client.get(f"{JOBS}/{job_id}").json()["done"] >= 1:
            break
        time.sleep(0.1)
    began = time.monotonic()
    assert client.delete(f"{JOBS}/{job_id}", headers=SAME_SITE).status_code == 200
    job = _wait(client, job_id)
    assert time.monotonic() - began < 30  # at its next deal, not at the budget's end
    assert job["state"] == "cancelled" and job["result"]["stopped"] == "cancelled"
    assert job["result"]["deals"] >= 1 and job["result"]["seconds"] < 60


def test_an_analysis_nobody_polls_stops_and_drops_its_result(
    client: TestClient, middle: ScrabbleState, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scrabble_deep, "ABANDONED_AFTER", 0.5)
    r = client.post(JOBS, json={"position": write_position(middle), "seconds": 60.0})
    job_id = r.json()["id"]
    jobs = client.app.state.scrabble_deep_jobs  # type: ignore[attr-defined]
    job = jobs.jobs[job_id]
    for _ in range(600):  # watched without polling (a poll would renew it)
        if job.finished is not None:
            break
        time.sleep(0.1)
    assert job.state == "cancelled" and job.result is None
    assert "nobody asked" in job.message
    assert job.finished - job.started < 30


def test_with_one_tile_in_the_bag_every_draw_is_enumerated_and_each_endgame_solved(
    client: TestClient,
) -> None:
    s = one_tile_left()
    r = client.post(JOBS, json={"position": write_position(s), "candidates": 2,
                                "seconds": 60.0})  # fmt: skip
    assert r.status_code == 202, r.text
    job = _wait(client, r.json()["id"])
    assert job["state"] == "ready", job
    result = job["result"]
    assert result["pre_endgame"] and result["stopped"] == "finished"
    draws = len({i for i, n in enumerate(np.array(s.bag) + np.array(s.racks[1 - s.player]))
                 if n})  # fmt: skip
    for row in result["moves"]:
        assert row["exact"] and row["deals"] == draws and row["win_se"] == 0.0
        assert 0 <= row["proved"] <= row["endgames"] <= draws


def one_tile_left(seed: int = 9, moves: int = 16) -> ScrabbleState:
    s = self_play(seed, moves)
    one = [0] * len(s.bag)
    one[next(i for i, n in enumerate(s.bag) if n)] = 1
    return replace(s, bag=tuple(one))


@pytest.mark.skipif(sim_pool.cores() < 2, reason="needs two cores")
def test_a_server_with_deep_workers_gives_the_ranking_of_one_process(client: TestClient) -> None:
    body = {"position": write_position(one_tile_left()), "candidates": 3, "seconds": 60.0}
    views = []
    with TestClient(create_app(tables="off", deep_workers=2)) as parallel:
        for c in (client, parallel):  # one process, then two workers
            r = c.post(JOBS, json=body)
            assert r.status_code == 202, r.text
            job = _wait(c, r.json()["id"])
            assert job["state"] == "ready", job
            views.append(job["result"])
    for view in views:
        del view["seconds"]  # the wall clock is all that may differ
    assert views[0] == views[1] and views[0]["pre_endgame"]


@pytest.mark.parametrize("workers", [0, 10**6])
def test_deep_workers_out_of_range_refuse_the_app(workers: int) -> None:
    with pytest.raises(StratagemError, match="workers must be"):  # named, with the range
        create_app(tables="off", deep_workers=workers)


def test_too_many_analyses_at_once_are_refused(
    client: TestClient, middle: ScrabbleState, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scrabble_deep, "MAX_RUNNING", 0)
    r = client.post(JOBS, json={"position": write_position(middle)})
    assert r.status_code == 429 and "deep analyses are running" in r.json()["detail"]


EMPTY_BAG = "racks: AB CD\nbag:\nboard:\n" + "\n".join(["." * 15] * 7 + [".......CAT....."]
                                                         + ["." * 15] * 7)  # fmt: skip


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ({"candidates": 1}, 422, "candidates"),
        ({"candidates": 31}, 422, "candidates"),
        ({"seconds": 0.5}, 422, "seconds"),
        ({"seconds": 61}, 422, "seconds"),
        ({"seconds": "5"}, 422, "seconds"),
        ({"budget": 5}, 422, "budget"),
        ({"rack": "ABCDEFGH"}, 422, "rack"),
        ({"scores": [1, 2, 3]}, 422, "scores"),
        ({"position": EMPTY_BAG}, 400, "the bag is empty"),
        ({"position": "board:\nxyz"}, 400, "row"),
    ],
)
def test_bad_requests_are_refused_with_a_message(
    client: TestClient, middle: ScrabbleState, body: dict[str, Any], status: int, words: str
) -> None:
    r = client.post(JOBS, json={"position": write_position(middle), **body})
    assert r.status_code == status, r.text
    assert words in str(r.json()["detail"])


@pytest.mark.parametrize(
    ("method", "path", "status", "words"),
    [
        ("get", f"{JOBS}/deep-" + "a" * 24, 404, "no deep analysis"),
        ("delete", f"{JOBS}/deep-" + "a" * 24, 404, "no deep analysis"),
        ("get", f"{JOBS}/bad", 422, "job_id"),
    ],
)
def test_unknown_jobs_are_refused_with_a_message(
    client: TestClient, method: str, path: str, status: int, words: str
) -> None:
    r = client.request(method.upper(), path, headers=SAME_SITE)
    assert r.status_code == status
    assert words in str(r.json()["detail"])
