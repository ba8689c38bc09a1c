"""Pig fixtures: solutions memoised per session in a private cache."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from stratagem.core.tables import TableCache
from stratagem.games.pig.rules import PigRules
from stratagem.games.pig.solver import PigSolution, solve


@pytest.fixture(scope="session")
def pig_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("pig-cache")
    old = os.environ.get("STRATAGEM_CACHE_DIR")
    os.environ["STRATAGEM_CACHE_DIR"] = str(path)
    yield path
    if old is None:
        os.environ.pop("STRATAGEM_CACHE_DIR", None)
    else:
        os.environ["STRATAGEM_CACHE_DIR"] = old


@pytest.fixture(scope="session")
def pig_solved(pig_cache: Path) -> Callable[[PigRules], PigSolution]:
    memo: dict[PigRules, PigSolution] = {}

    def get(rules: PigRules) -> PigSolution:
        if rules not in memo:
            memo[rules] = solve(rules, cache=TableCache(pig_cache))
        return memo[rules]

    return get
