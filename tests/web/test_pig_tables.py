"""Pig's solved tables on the web: one per variant for every session (issue 33: 20 sessions
held 20 tables, +950 MB), now through the coach (games/pig/coach.py) and the process's one
memo of solved tables (core.tables.solved, asked by games/pig/spec.py ``solution``)."""

from __future__ import annotations

from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import stratagem.core.tables as tables
import stratagem.games.pig.solver as pig_solver
from stratagem.web.app import create_app

CUSTOM = "pig:goal=30,faces=7,catch_up_turn=true"
NEW = {"game": "pig", "rules": CUSTOM, "seats": ["human", "optimal"]}


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


def test_a_custom_variant_is_solved_once_for_every_session(solves: list[int]) -> None:
    client = TestClient(create_app(tables="off"))
    fresh = {**NEW, "rules": "pig:goal=29,faces=7,catch_up_turn=true"}  # not solved before here
    ids = [client.post("/api/sessions", json={**fresh, "seed": s}).json()["id"] for s in range(5)]
    for sid in ids:
        assert client.get(f"/api/sessions/{sid}/advice").status_code == 200
        assert client.post(f"/api/sessions/{sid}/move", json={"decision": "roll"}).status_code \
            == 200  # fmt: skip
        assert client.post(f"/api/sessions/{sid}/ai", json={}).status_code in (200, 400)
    assert len(solves) == 1


def test_sessions_share_one_table(solves: list[int]) -> None:
    from stratagem.web.play import open_session

    app = create_app(tables="off")
    client = TestClient(app)
    ids = [client.post("/api/sessions", json={**NEW, "seed": s}).json()["id"] for s in range(3)]
    tables = set()
    for sid in ids:
        client.get(f"/api/sessions/{sid}/advice")

        class Request:  # open_session reads the app from a request
            pass

        request = Request()
        request.app = app  # type: ignore[attr-defined]
        with open_session(request, sid) as play:  # type: ignore[arg-type]
            tables.add(id(play.coaching.solution))  # type: ignore[union-attr]
    assert len(tables) == 1


def test_only_presets_are_written_to_disk_from_the_web(
    solves: list[int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a client may name any variant: those stay in the process's memo, so no client fills
    # the disk cache with tables of its choosing; a preset is saved for the next start
    monkeypatch.setattr(tables, "_PROCESS_MEMO", tables.SolvedMemo(tables.DEFAULT_MEMO_BYTES))
    client = TestClient(create_app(tables="off"))
    for rules in ("piglet:goal=9", "coin-3:faces=3"):
        game = {"game": "pig", "rules": rules, "seats": ["human", "optimal"], "seed": 1}
        sid = client.post("/api/sessions", json=game).json()["id"]
        assert client.get(f"/api/sessions/{sid}/advice").status_code == 200
    assert len(solves) == 2 and list(tmp_path.iterdir()) == []
    sid = client.post("/api/sessions", json={**game, "rules": "coin-3"}).json()["id"]
    assert client.get(f"/api/sessions/{sid}/advice").status_code == 200
    assert len(solves) == 3 and len(list(tmp_path.glob("*.tbl"))) == 1


def test_a_custom_variant_outside_the_web_is_saved_as_before(
    solves: list[int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from stratagem.games.pig.rules import preset
    from stratagem.games.pig.spec import solution

    monkeypatch.setattr(tables, "_PROCESS_MEMO", tables.SolvedMemo(tables.DEFAULT_MEMO_BYTES))
    solution(preset("piglet").with_options(goal=9))  # the library and the terminal
    assert len(solves) == 1 and len(list(tmp_path.glob("*.tbl"))) == 1
