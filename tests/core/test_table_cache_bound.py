"""The table cache is bounded on disk: least recently used tables go first (issue 33: a
web client could write 64 MB per Pig variant, over 15,000 variants)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

from stratagem.core.errors import CacheError
from stratagem.core.tables import DEFAULT_MAX_BYTES, SolvedMemo, TableCache, default_max_bytes


def _table(n: int) -> dict[str, np.ndarray]:
    return {"v": np.zeros(n)}


def _age(path: Path, seconds: float) -> None:
    t = time.time() - seconds
    os.utime(path, (t, t))


def test_writing_past_the_bound_deletes_the_least_recently_used(tmp_path: Path) -> None:
    cache = TableCache(tmp_path, max_bytes=20_000)  # room for two tables of 1,000 doubles
    a = cache.save("demo", "a", 1, _table(1000))
    b = cache.save("demo", "b", 1, _table(1000))
    _age(a, 30)
    _age(b, 20)
    assert cache.load("demo", "a", 1) is not None  # reading a makes it recent
    cache.save("demo", "c", 1, _table(1000))
    assert a.exists() and not b.exists()
    assert cache.nbytes() <= 20_000


def test_a_table_larger_than_the_bound_is_used_but_not_kept(tmp_path: Path) -> None:
    cache = TableCache(tmp_path, max_bytes=1000)
    arrays, hit = cache.load_or_build("demo", "big", 1, lambda: _table(1000))
    assert not hit and arrays["v"].shape == (1000,)
    assert cache.nbytes() == 0


def test_the_bound_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STRATAGEM_CACHE_MAX_BYTES", raising=False)
    assert default_max_bytes() == DEFAULT_MAX_BYTES
    monkeypatch.setenv("STRATAGEM_CACHE_MAX_BYTES", "500M")
    assert default_max_bytes() == 500 << 20
    monkeypatch.setenv("STRATAGEM_CACHE_MAX_BYTES", "lots")
    with pytest.raises(CacheError, match="STRATAGEM_CACHE_MAX_BYTES must be a size"):
        default_max_bytes()


def test_the_memo_solves_a_key_once_and_drops_the_least_recently_used() -> None:
    memo = SolvedMemo(max_bytes=250)
    solved: list[str] = []

    def solve(key: str) -> np.ndarray:
        solved.append(key)
        return np.zeros(10)  # 80 bytes

    for key in ("a", "b", "c", "a", "d", "b"):
        memo.get_or_solve(key, lambda k=key: solve(k))  # type: ignore[misc]
    assert solved == ["a", "b", "c", "d", "b"]  # a was kept (recently used), b was dropped
    assert memo.nbytes <= 250
