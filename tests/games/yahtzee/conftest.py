"""Shared fixtures: every preset solved once per test session, in a private cache."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from stratagem.core.tables import TableCache
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.solver import Solution, solve
from tests.locking import exclusive


@pytest.fixture(scope="session")
def cache_dir(table_cache: Path) -> Path:
    """The run's table cache (tests/conftest.py), exported for CLI subprocesses."""
    return table_cache


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
