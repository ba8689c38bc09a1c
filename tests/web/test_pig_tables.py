"""Pig's solved tables on the web: one per variant for every session, none written for a
client's custom variant, and a variant too large refused before any work (issue 33: 20
sessions held 20 tables, +950 MB; the optimal AI solved each variant a second time and
wrote 64 MB into the cache)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import stratagem.games.pig.solver as pig_solver
from stratagem.web.app import create_app

CUSTOM = {"goal": 30, "faces": 7, "catch_up_turn": True, "opponent": "optimal"}


@pytest.fixture()
def solves(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[int]:
    """Counts every Pig solve (any path); the table cache is an empty folder."""
    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(tmp_path))
    calls: list[int] = []
    real = pig_solver.solve_tables

    def counted(rules: object, *args: object) -> object:
        calls.append(1)
        return real(rules, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pig_solver, "solve_tables", counted)
    return calls


def test_a_custom_variant_is_solved_once_for_every_session_and_never_cached(
    solves: list[int], tmp_path: Path
) -> None:
    client = TestClient(create_app(tables="off"))
    games = [client.post("/api/pig/games", json={**CUSTOM, "seed": s}).json() for s in range(5)]
    for g in games:
        assert client.get(f"/api/pig/games/{g['id']}/advice").status_code in (200, 400)
        assert client.post(f"/api/pig/games/{g['id']}/act", json={"action": "roll"}).status_code \
            in (200, 400)
    assert len(solves) == 1
    assert list(tmp_path.iterdir()) == []  # a client's variant is not written to the disk


def test_sessions_share_one_table(solves: list[int]) -> None:
    app = create_app(tables="off")
    client = TestClient(app)
    ids = [client.post("/api/pig/games", json={**CUSTOM, "seed": s}).json()["id"]
           for s in range(3)]  # fmt: skip
    store = app.state.sessions["pig"]
    tables = {id(store.get(sid).solution) for sid in ids}
    assert len(tables) == 1


def test_the_memo_is_bounded_in_bytes(solves: list[int]) -> None:
    """A memo of 1 MB keeps no table of 6 MB (goal 90 with a catch-up turn); the sessions
    of a variant not kept still play (solved again when asked)."""
    app = create_app(tables="off", solved_memo_bytes=1 << 20)
    client = TestClient(app)
    first = client.post("/api/pig/games", json={**CUSTOM, "goal": 90}).json()["id"]
    client.post("/api/pig/games", json={**CUSTOM, "goal": 91})
    assert app.state.solved.nbytes <= 1 << 20
    assert client.get(f"/api/pig/games/{first}").status_code == 200


def test_a_variant_too_large_is_refused_naming_its_size(solves: list[int]) -> None:
    client = TestClient(create_app(tables="off", max_pig_table_bytes=1_000_000))
    for path in ("/api/pig/games", "/api/pig/rules"):
        r = client.post(path, json={"goal": 200, "faces": 19, "catch_up_turn": True})
        assert r.status_code == 400
        assert "about 64 MB" in r.json()["detail"] and "limit of 1 MB" in r.json()["detail"]
    assert solves == []
