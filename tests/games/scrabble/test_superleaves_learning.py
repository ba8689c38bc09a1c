"""Superleave learning runs: chunks of self-play that reproduce from the seed on every
executor (inline, a process pool that loses a worker, Ray), resume after an interruption
without losing a saved chunk, and refuse to mix runs with other settings."""

from __future__ import annotations

import sys
import types
from concurrent.futures import Future
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from stratagem.games.scrabble import superleaves as sl
from stratagem.games.scrabble.superleaves import (
    ChunkTask,
    InlineChunks,
    LearningRun,
    LocalChunks,
    RayChunks,
    SuperleavesError,
)

GAMES = 4
CHUNK = 2


def _run(folder: Path, seed: int = 7) -> LearningRun:
    return LearningRun(folder, "english", None, seed, CHUNK)


def _chunks(run: LearningRun) -> list[dict[str, np.ndarray]]:
    out = []
    for c in range(GAMES // CHUNK):
        with np.load(run.path(c)) as d:
            out.append({k: d[k] for k in d.files})
    return out


def _same(a: list[dict[str, np.ndarray]], b: list[dict[str, np.ndarray]]) -> bool:
    return len(a) == len(b) and all(
        x.keys() == y.keys() and all(np.array_equal(x[k], y[k]) for k in x)
        for x, y in zip(a, b, strict=True)
    )


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> list[dict[str, np.ndarray]]:  # type: ignore[no-untyped-def]
    run = _run(tmp_path_factory.mktemp("ref") / "run")
    assert run.train(GAMES, InlineChunks()) == GAMES // CHUNK
    return _chunks(run)


class _Interrupted(InlineChunks):
    """Plays one chunk, then the user presses Ctrl-C."""

    def map(self, tasks: list[ChunkTask]) -> Any:
        yield from super().map(tasks[:1])
        raise KeyboardInterrupt


def test_an_interrupted_run_resumes_and_ends_as_an_uninterrupted_one(tmp_path, reference) -> None:  # type: ignore[no-untyped-def]
    run = _run(tmp_path / "run")
    with pytest.raises(KeyboardInterrupt):
        run.train(GAMES, _Interrupted())
    assert run.path(0).exists() and not run.path(1).exists()
    saved = run.path(0).read_bytes()
    assert [t.index for t in run.tasks(GAMES)] == [1]  # only the missing chunk is played
    assert run.train(GAMES, InlineChunks()) == 1
    assert run.path(0).read_bytes() == saved  # the saved chunk is not played again
    assert _same(_chunks(run), reference)
    assert run.train(GAMES, InlineChunks()) == 0  # nothing left
    samples, games = run.samples(GAMES)
    assert games == GAMES and len(samples) == sum(len(c["ranks"]) for c in reference)


def test_the_same_seed_gives_the_same_samples_and_another_seed_others(tmp_path, reference) -> None:  # type: ignore[no-untyped-def]
    again = _run(tmp_path / "again")
    again.train(GAMES, InlineChunks())
    assert _same(_chunks(again), reference)
    other = _run(tmp_path / "other", seed=8)
    other.train(GAMES, InlineChunks())
    assert not _same(_chunks(other), reference)


def test_a_run_with_other_settings_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    _run(tmp_path / "run").open()
    with pytest.raises(SuperleavesError, match="other settings"):
        _run(tmp_path / "run", seed=99).open()
    with pytest.raises(SuperleavesError, match="part must be"):
        _run(tmp_path / "run").tasks(GAMES, 2, 2)
    with pytest.raises(SuperleavesError, match="games must be"):
        _run(tmp_path / "run").tasks(0)
    with pytest.raises(SuperleavesError, match="games must be"):
        _run(tmp_path / "fresh").train(0, InlineChunks())
    assert not (tmp_path / "fresh").exists()  # refused before anything was written
    with pytest.raises(SuperleavesError, match="chunk must be"):
        LearningRun(tmp_path / "fresh", "english", None, 7, 0)


def test_a_damaged_chunk_is_named(tmp_path) -> None:  # type: ignore[no-untyped-def]
    run = _run(tmp_path / "run")
    run.open()
    run.path(0).write_bytes(b"PK\x03\x04 cut short")
    with pytest.raises(SuperleavesError, match=r"chunk0000\.npz is not a chunk"):
        run.samples(CHUNK)
    run.path(0).unlink()
    with pytest.raises(SuperleavesError, match=r"chunk0000\.npz is missing"):
        run.samples(GAMES)


class _FakeRay(types.ModuleType):
    """Ray's task API played in this process: remote functions run when fetched."""

    def __init__(self) -> None:
        super().__init__("ray")
        self.retries: list[int] = []

    def is_initialized(self) -> bool:
        return True

    def remote(self, max_retries: int) -> Any:
        self.retries.append(max_retries)

        def wrap(fn: Any) -> Any:
            return types.SimpleNamespace(remote=lambda task: (fn, task))

        return wrap

    def wait(self, pending: list[Any], num_returns: int) -> tuple[list[Any], list[Any]]:
        return pending[-num_returns:], pending[:-num_returns]  # out of order, as Ray may

    def get(self, ref: Any) -> Any:
        fn, task = ref
        return fn(task)


def test_ray_tasks_give_the_same_chunks_and_are_retried(tmp_path, monkeypatch, reference) -> None:  # type: ignore[no-untyped-def]
    fake = _FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    run = _run(tmp_path / "run")
    assert run.train(GAMES, RayChunks(retries=3)) == GAMES // CHUNK
    assert _same(_chunks(run), reference)
    assert fake.retries == [3]  # Ray plays a killed worker's task again


def test_without_ray_the_backend_says_what_to_install(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(SuperleavesError, match="needs ray"):
        sl.chunk_executor("ray")
    with pytest.raises(SuperleavesError, match="unknown backend"):
        sl.chunk_executor("spark")


class _Pool:
    """A process pool whose worker dies after ``ok`` chunks (the pool breaks, as a
    killed worker breaks a ProcessPoolExecutor)."""

    def __init__(self, ok: int) -> None:
        self.ok = ok
        self.shutdowns: list[tuple[bool, bool]] = []

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        self.shutdowns.append((wait, cancel_futures))

    def __enter__(self) -> _Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        return None

    def submit(self, fn: Any, task: ChunkTask) -> Future[Any]:
        future: Future[Any] = Future()
        if self.ok > 0:
            self.ok -= 1
            future.set_result(fn(task))
        else:
            future.set_exception(BrokenProcessPool("a worker died"))
        return future


def test_a_killed_worker_costs_only_its_chunk(tmp_path, monkeypatch, reference) -> None:  # type: ignore[no-untyped-def]
    pools = iter([_Pool(1), _Pool(10)])
    played: list[int] = []
    real = sl.play_chunk

    def counted(task: ChunkTask) -> dict[str, np.ndarray]:
        played.append(task.index)
        return real(task)

    monkeypatch.setattr(sl, "play_chunk", counted)
    local = LocalChunks(2)
    monkeypatch.setattr(local, "_pool", lambda: next(pools))
    run = _run(tmp_path / "run")
    assert run.train(GAMES, local) == GAMES // CHUNK
    assert _same(_chunks(run), reference)
    assert sorted(played) == [0, 1]  # the chunk that came back was not played again

    broken = LocalChunks(2, retries=0)
    monkeypatch.setattr(broken, "_pool", lambda: _Pool(0))
    with pytest.raises(SuperleavesError, match="broke 1 times; 2 chunks left"):
        _run(tmp_path / "b").train(GAMES, broken)


def test_ctrl_c_drops_the_chunks_not_started(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A Ctrl-C left the pool to shut down by itself, which played every queued chunk
    (unsaved: nobody collected them) for as long as the whole run would have taken."""
    pools = [_Pool(10), _Pool(10)]
    local = LocalChunks(2)
    monkeypatch.setattr(local, "_pool", lambda: pools.pop(0))

    def interrupt(done: int, total: int, index: int) -> None:
        raise KeyboardInterrupt

    first = pools[0]
    run = _run(tmp_path / "run")
    with pytest.raises(KeyboardInterrupt):
        run.train(GAMES, local, progress=interrupt)
    # the chunk that came back first is saved (both futures finish at once here, and which
    # one wait() hands back first depends on the set's order), the other is not
    assert [run.path(c).exists() for c in (0, 1)].count(True) == 1
    assert first.shutdowns == [(False, True)]  # queued chunks cancelled, no wait
    second = pools[0]
    assert run.train(GAMES, local) == 1  # resumed: the missing chunk only
    assert second.shutdowns == [(True, True)]  # a finished run waits for its workers


def test_real_ray_gives_the_same_chunks(tmp_path: Path, reference) -> None:  # type: ignore[no-untyped-def]
    # the stand-in above checks the retries; this runs the chunks on a real local Ray
    # (installed with the distributed extra; checked by hand on a two-node cluster with a
    # worker and a node killed mid-run: docs/results/scrabble_strength.md)
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    try:
        run = _run(tmp_path / "ray")
        assert run.train(GAMES, RayChunks()) == GAMES // CHUNK
        assert _same(_chunks(run), reference)
    finally:
        ray.shutdown()
