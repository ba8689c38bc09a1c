"""Settings shared by the whole test suite."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from tests.locking import one_compile_at_a_time

# No per-example deadline: the first call into a numba kernel compiles it (or
# loads it from the on-disk cache), which can take seconds inside an example.
settings.register_profile("default", deadline=None)
# `HYPOTHESIS_PROFILE=ci`: the same examples on every run, and more of them.
settings.register_profile("ci", deadline=None, derandomize=True, max_examples=300)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


@pytest.fixture(scope="session")
def run_tmp(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A temporary directory of this run, shared by the pytest-xdist workers (``make test``
    runs them), so that a table solved or a lexicon built by one worker is loaded by the
    others. Without xdist, the session's own temporary directory."""
    base = tmp_path_factory.getbasetemp()
    return base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base


@pytest.fixture(scope="session")
def table_cache(run_tmp: Path) -> Iterator[Path]:
    """The solved-table cache of this run (every game's tables, keyed by kind and rules),
    also exported as ``$STRATAGEM_CACHE_DIR`` for the commands the tests run. One directory
    for every game, so that the variable means the same whichever fixture set it first."""
    path = run_tmp / "stratagem-cache"
    path.mkdir(exist_ok=True)
    old = os.environ.get("STRATAGEM_CACHE_DIR")
    os.environ["STRATAGEM_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("STRATAGEM_CACHE_DIR", None)
    else:
        os.environ["STRATAGEM_CACHE_DIR"] = old


@pytest.fixture(scope="session", autouse=True)
def _one_numba_compile_at_a_time(run_tmp: Path) -> Iterator[None]:
    """pytest-xdist workers compile each kernel once between them (tests/locking.py)."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        yield
        return
    undo = one_compile_at_a_time(run_tmp / "numba-locks")
    yield
    undo()
