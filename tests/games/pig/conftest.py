"""Pig fixtures: solutions memoised per session in a private cache of the run."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from stratagem.core.tables import TableCache
from stratagem.games.pig.rules import PigRules
from stratagem.games.pig.solver import PigSolution, solve
from tests.locking import exclusive


@pytest.fixture(scope="session")
def pig_cache(run_tmp: Path) -> Iterator[Path]:
    path = run_tmp / "pig-cache"
    path.mkdir(exist_ok=True)
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
            with exclusive(pig_cache, f"solve-{rules.fingerprint}"):
                memo[rules] = solve(rules, cache=TableCache(pig_cache))
        return memo[rules]

    return get
