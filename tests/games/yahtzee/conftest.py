"""Shared fixtures: every preset solved once per test session, in a private cache."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from stratagem.core.tables import TableCache
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.solver import Solution, solve


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A session cache directory, also exported for CLI subprocesses."""
    path = tmp_path_factory.mktemp("stratagem-cache")
    old = os.environ.get("STRATAGEM_CACHE_DIR")
    os.environ["STRATAGEM_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        del os.environ["STRATAGEM_CACHE_DIR"]
    else:
        os.environ["STRATAGEM_CACHE_DIR"] = old


@pytest.fixture(scope="session")
def solved(cache_dir: Path) -> Callable[[str], Solution]:
    """``solved("yatzy")``: the preset's solution, solved at most once per session."""
    cache: dict[str, Solution] = {}

    def get(name: str) -> Solution:
        if name not in cache:
            cache[name] = solve(preset(name), cache=TableCache(cache_dir))
        return cache[name]

    return get
