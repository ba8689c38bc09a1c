"""Shared fixtures: every preset solved once per test session, in a private cache."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from stratagem.core.tables import TableCache
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.solver import Solution, solve
from tests.locking import exclusive


@pytest.fixture(scope="session")
def cache_dir(run_tmp: Path) -> Iterator[Path]:
    """A cache directory of this run (shared by xdist workers), also exported for CLI
    subprocesses."""
    path = run_tmp / "stratagem-cache"
    path.mkdir(exist_ok=True)
    old = os.environ.get("STRATAGEM_CACHE_DIR")
    os.environ["STRATAGEM_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        del os.environ["STRATAGEM_CACHE_DIR"]
    else:
        os.environ["STRATAGEM_CACHE_DIR"] = old


@pytest.fixture(scope="session")
def solved(cache_dir: Path) -> Callable[[str], Solution]:
    """``solved("yatzy")``: the preset's solution, solved at most once per run (loaded from
    the run's cache by the other workers)."""
    cache: dict[str, Solution] = {}

    def get(name: str) -> Solution:
        if name not in cache:
            with exclusive(cache_dir, f"solve-{name}"):
                cache[name] = solve(preset(name), cache=TableCache(cache_dir))
        return cache[name]

    return get
