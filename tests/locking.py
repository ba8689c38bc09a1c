"""A lock shared by the pytest-xdist workers of a run (see ``run_tmp`` in conftest.py)."""

from __future__ import annotations

import fcntl
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def exclusive(directory: Path, name: str) -> Iterator[None]:
    """Held by one process at a time: one worker builds ``name`` while the others wait, then
    find it in the cache."""
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)
