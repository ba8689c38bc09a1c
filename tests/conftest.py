"""Settings shared by the whole test suite."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

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
