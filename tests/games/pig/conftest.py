"""Pig fixtures: solutions memoised per session in a private cache of the run."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from stratagem.core.tables import TableCache
from stratagem.games.pig.rules import PigRules
from stratagem.games.pig.solver import PigSolution, solve
from tests.locking import exclusive


@pytest.fixture(scope="session")
def pig_cache(table_cache: Path) -> Path:
    """The run's table cache (tests/conftest.py), exported for the CLI commands."""
    return table_cache


@pytest.fixture(scope="session")
def pig_solved(pig_cache: Path) -> Callable[[PigRules], PigSolution]:
    memo: dict[PigRules, PigSolution] = {}

    def get(rules: PigRules) -> PigSolution:
        if rules not in memo:
            with exclusive(pig_cache, f"solve-{rules.fingerprint}"):
                memo[rules] = solve(rules, cache=TableCache(pig_cache))
        return memo[rules]

    return get
