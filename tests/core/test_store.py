"""The games store: records in SQLite, bounded, and a typed status instead of a crash."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import numpy as np
import pytest

from stratagem.core.session import Session
from stratagem.core.store import GameStore, Problem, default_store_path


def pig_record(seed: int, decisions: int = 3, finish: bool = False) -> dict[str, object]:
    session = Session.new("pig", "coin-3", ["human", "hold:2"], seed=seed)
    made = 0
    while not session.over and (finish or made < decisions):
        if session.waiting_for_human:
            session.submit("roll")
            made += 1
        else:
            session.play_agents()
    return session.to_record()


def test_a_saved_game_is_listed_and_loads_back_after_a_restart(tmp_path: Path) -> None:
    path = tmp_path / "data" / "games.sqlite3"
    store = GameStore(path)
    assert store.persistent and store.status.ok
    record = pig_record(1, finish=True)
    assert store.save("g1", record).ok
    store.close()

    again = GameStore(path)  # a server restart
    assert again.load("g1") == record
    (game,) = again.list_games()
    assert (game.id, game.game, game.rules, game.finished) == ("g1", "pig", "coin-3", True)
    assert game.result in ("1-0", "0-1") and game.date.endswith("Z")
    assert Session.from_record(again.load("g1")).over


def test_the_file_is_in_wal_mode(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    GameStore(path).save("g1", pig_record(1))
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_the_default_path_is_the_per_user_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STRATAGEM_DATA_DIR", raising=False)
    assert default_store_path().name == "games.sqlite3"
    assert "stratagem" in str(default_store_path().parent)
    monkeypatch.setenv("STRATAGEM_DATA_DIR", "/somewhere/else")
    assert default_store_path() == Path("/somewhere/else/games.sqlite3")


def test_a_data_folder_holds_the_games_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert GameStore.in_folder(tmp_path / "data").path == tmp_path / "data" / "games.sqlite3"
    monkeypatch.setenv("STRATAGEM_DATA_DIR", str(tmp_path / "user"))
    store = GameStore.in_folder(max_games=5)
    assert store.path == tmp_path / "user" / "games.sqlite3" and store.max_games == 5
    assert store.persistent


def test_a_corrupt_file_is_left_alone_and_the_store_goes_on_in_memory(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    junk = np.random.default_rng(5).integers(0, 256, size=64 * 1024, dtype=np.uint8).tobytes()
    path.write_bytes(junk)
    store = GameStore(path)
    assert store.status.problem is Problem.CORRUPT and not store.persistent
    assert "kept in memory" in store.status.message and str(path) in store.status.message
    status = store.save("g1", pig_record(2))
    assert status.problem is Problem.CORRUPT
    assert store.load("g1") is not None and [g.id for g in store.list_games()] == ["g1"]
    assert path.read_bytes() == junk


def test_a_database_of_another_program_is_left_alone(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    with sqlite3.connect(path) as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    before = path.read_bytes()
    store = GameStore(path)
    assert store.status.problem is Problem.FOREIGN and "another program" in store.status.message
    store.save("g1", pig_record(2))
    assert path.read_bytes() == before


def test_a_locked_database_keeps_the_game_in_memory_and_says_why(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    store = GameStore(path, busy_timeout=0.05)
    assert store.save("old", pig_record(1)).ok
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN EXCLUSIVE")  # another process holds the write lock
    try:
        status = store.save("g1", pig_record(2))
        assert status.problem is Problem.LOCKED and "locked by another process" in status.message
        assert not store.persistent
        assert store.load("g1") is not None  # the game goes on in memory
        assert {g.id for g in store.list_games()} == {"old", "g1"}  # older games still listed
    finally:
        other.execute("ROLLBACK")
        other.close()
    assert GameStore(path).load("g1") is None  # nothing half-written reached the file


def test_a_read_only_database_is_read_and_saves_go_to_memory(tmp_path: Path) -> None:
    path = tmp_path / "games.sqlite3"
    writer = GameStore(path)
    writer.save("old", pig_record(1))
    writer.close()
    before = path.read_bytes()

    store = GameStore(path, read_only=True)  # SQLite's mode=ro: writes fail as on a read-only disk
    assert store.status.problem is Problem.READ_ONLY
    assert store.load("old") is not None
    status = store.save("g1", pig_record(2))
    assert status.problem is Problem.READ_ONLY and "kept in memory" in status.message
    assert {g.id for g in store.list_games()} == {"old", "g1"}
    assert path.read_bytes() == before


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes through a read-only folder's mode")
def test_a_read_only_folder_is_reported(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        store = GameStore(folder / "games.sqlite3")
        assert store.status.problem in (Problem.READ_ONLY, Problem.UNAVAILABLE)
        assert store.save("g1", pig_record(1)).problem is not None
        assert store.load("g1") is not None
    finally:
        folder.chmod(0o700)


def test_a_folder_that_cannot_exist_is_reported(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    store = GameStore(blocker / "games.sqlite3")
    assert store.status.problem is Problem.UNAVAILABLE and not store.persistent
    assert store.save("g1", pig_record(1)).problem is Problem.UNAVAILABLE
    assert store.load("g1") is not None


def test_an_oversized_record_is_refused_and_nothing_changes(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3", max_record_bytes=2000)
    small = pig_record(1)
    assert store.save("g1", small).ok
    big = dict(small, decisions=["roll"] * 1000)
    status = store.save("g1", big)
    assert status.problem is Problem.TOO_LARGE and "at most 2,000" in status.message
    assert store.load("g1") == small and store.persistent


def test_past_the_game_bound_the_oldest_finished_game_goes_first(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3", max_games=3)
    store.save("finished-old", pig_record(1, finish=True))
    store.save("playing", pig_record(2))
    store.save("finished-new", pig_record(3, finish=True))
    status = store.save("another", pig_record(4))
    assert status.ok and "1 old finished games evicted" in status.message
    assert {g.id for g in store.list_games()} == {"playing", "finished-new", "another"}


def test_games_in_progress_are_never_evicted(tmp_path: Path) -> None:
    store = GameStore(tmp_path / "games.sqlite3", max_games=2)
    store.save("a", pig_record(1))
    store.save("b", pig_record(2))
    status = store.save("c", pig_record(3))
    assert status.problem is Problem.FULL and "2 games in progress" in status.message
    assert {g.id for g in store.list_games()} == {"a", "b"} and store.persistent
    assert store.save("a", pig_record(5)).ok  # a game already stored may still be saved


def test_past_the_byte_bound_finished_games_are_evicted(tmp_path: Path) -> None:
    record = pig_record(1, finish=True)
    size = len(Session.from_record(record).to_json())
    store = GameStore(tmp_path / "games.sqlite3", max_bytes=max(1024, 3 * size))
    for i in range(8):
        assert store.save(f"g{i}", pig_record(i, finish=True)).ok
    stored = store.list_games()
    assert sum(g.bytes for g in stored) <= store.max_bytes and "g7" in {g.id for g in stored}
    assert "g0" not in {g.id for g in stored}


def test_a_bad_game_id_is_refused(tmp_path: Path) -> None:
    store = GameStore(None)
    with pytest.raises(ValueError, match=r"a game id is 1\.\.64 letters"):
        store.save("../etc", pig_record(1))


def test_a_game_resumed_after_a_restart_meets_the_chance_it_would_have_met(
    tmp_path: Path,
) -> None:
    path = tmp_path / "games.sqlite3"
    played = Session.new("yahtzee", "yahtzee", ["human", "random"], seed=12)
    for _ in range(4):
        played.submit(played.legal_texts()[0])
        played.play_agents()
    GameStore(path).save("g1", played.to_record())

    resumed = Session.from_record(GameStore(path).load("g1"))  # after a restart
    for session in (played, resumed):
        for _ in range(4):
            session.submit(session.legal_texts()[-1])
            session.play_agents()
    assert resumed.line == played.line


def test_saves_from_several_threads_all_arrive(tmp_path: Path) -> None:
    import threading

    store = GameStore(tmp_path / "games.sqlite3")
    records = {f"g{i}": pig_record(i) for i in range(16)}
    threads = [
        threading.Thread(target=lambda i=i: store.save(f"g{i}", records[f"g{i}"]))
        for i in range(16)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert {g.id for g in store.list_games()} == set(records) and store.persistent
