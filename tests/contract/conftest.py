"""The contract's fixtures: the run's private table cache for every factory that solves."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest


@pytest.fixture(scope="session", autouse=True)
def _private_tables(table_cache: Path) -> Iterator[None]:
    """Agents' solved tables (Pig, Yahtzee) go to the run's cache (tests/conftest.py)."""
    yield
