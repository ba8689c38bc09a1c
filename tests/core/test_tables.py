"""The on-disk table cache: round trip, atomic writes, corrupt files rebuilt."""

from __future__ import annotations

import os
import time
from pathlib import Path

import numpy as np
import pytest

from stratagem.core.errors import CacheError
from stratagem.core.tables import ENV_VAR, TableCache, default_cache_dir, fingerprint


def arrays() -> dict[str, np.ndarray]:
    return {"values": np.linspace(0, 1, 12).reshape(3, 4), "flags": np.arange(5, dtype=np.int8)}


def test_round_trip_preserves_dtype_shape_and_values(tmp_path: Path) -> None:
    cache = TableCache(tmp_path)
    cache.save("demo", "k", 1, arrays())
    loaded = cache.load("demo", "k", 1)
    assert loaded is not None
    for name, array in arrays().items():
        assert loaded[name].dtype == array.dtype
        np.testing.assert_array_equal(loaded[name], array)


def test_missing_table_loads_as_none(tmp_path: Path) -> None:
    assert TableCache(tmp_path).load("demo", "k", 1) is None


def test_load_or_build_builds_once(tmp_path: Path) -> None:
    cache = TableCache(tmp_path)
    calls = []

    def build() -> dict[str, np.ndarray]:
        calls.append(1)
        return arrays()

    first, hit1 = cache.load_or_build("demo", "k", 1, build)
    second, hit2 = cache.load_or_build("demo", "k", 1, build)
    assert (hit1, hit2, len(calls)) == (False, True, 1)
    np.testing.assert_array_equal(first["values"], second["values"])


@pytest.mark.parametrize(
    "damage",
    [
        lambda b: b[:-1],  # truncated payload
        lambda b: b[:10],  # truncated header
        lambda b: b"garbage" + b[7:],  # bad magic
        lambda b: b[:-3] + bytes([b[-3] ^ 0xFF]) + b[-2:],  # flipped payload bit
        lambda b: b"",  # empty file
    ],
)
def test_corrupt_file_is_reported_and_rebuilt(tmp_path: Path, damage) -> None:  # type: ignore[no-untyped-def]
    cache = TableCache(tmp_path)
    path = cache.save("demo", "k", 1, arrays())
    path.write_bytes(damage(path.read_bytes()))
    with pytest.raises(CacheError, match="corrupt"):
        cache.load("demo", "k", 1)
    with pytest.warns(UserWarning, match="corrupt"):
        rebuilt, hit = cache.load_or_build("demo", "k", 1, arrays)
    assert not hit
    np.testing.assert_array_equal(rebuilt["values"], arrays()["values"])
    assert cache.load("demo", "k", 1) is not None  # the good table replaced the bad file


def test_a_table_renamed_to_another_key_is_rejected(tmp_path: Path) -> None:
    cache = TableCache(tmp_path)
    path = cache.save("demo", "rules-a", 1, arrays())
    os.replace(path, cache.path("demo", "rules-b", 1))
    with pytest.raises(CacheError, match="key"):
        cache.load("demo", "rules-b", 1)


def test_failed_write_keeps_the_old_table_and_leaves_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache = TableCache(tmp_path)
    cache.save("demo", "k", 1, arrays())

    def broken_replace(src: str, dst: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        cache.save("demo", "k", 1, {"values": np.zeros(2)})
    monkeypatch.undo()
    assert sorted(p.name for p in tmp_path.iterdir()) == [cache.path("demo", "k", 1).name]
    loaded = cache.load("demo", "k", 1)
    assert loaded is not None
    np.testing.assert_array_equal(loaded["values"], arrays()["values"])


def test_env_var_overrides_the_cache_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(ENV_VAR, str(tmp_path / "x"))
    assert default_cache_dir() == tmp_path / "x"


def test_fingerprint_ignores_key_order_and_sees_values() -> None:
    assert fingerprint({"a": 1, "b": 2}) == fingerprint({"b": 2, "a": 1})
    assert fingerprint({"a": 1}) != fingerprint({"a": 2})


def _mapped_build(w: object) -> None:
    from stratagem.core.tables import TableWriter

    assert isinstance(w, TableWriter)
    w.append("data", np.arange(5, dtype=np.float32))
    w.append("data", np.arange(3, dtype=np.float32))
    w.put("index", np.arange(12, dtype=np.int64).reshape(3, 4))


def test_mapped_table_round_trip_and_hit(tmp_path: Path) -> None:
    cache = TableCache(tmp_path)
    table, hit = cache.load_or_build_mapped("demo", "k", 1, _mapped_build, meta={"rules": "r"})
    assert not hit
    assert table.array("data").tolist() == [0, 1, 2, 3, 4, 0, 1, 2]
    assert table.array("index").shape == (3, 4)
    again, hit = cache.load_or_build_mapped("demo", "k", 1, _mapped_build)
    assert hit and again.header["rules"] == "r"
    assert not list(tmp_path.glob("*.tmp"))  # written to a temporary name, then renamed


def test_a_killed_build_s_temporary_file_is_removed_by_the_next_build(tmp_path: Path) -> None:
    """A build killed outright (SIGKILL, power loss) leaves its temporary file, up to a
    table's size; the next build of that table removes it once it is stale, and leaves
    a fresh one (a build still running elsewhere) and other tables' files alone."""

    from stratagem.core.tables import STALE_SECONDS

    cache = TableCache(tmp_path)
    path = cache.mapped_path("demo", "k", 1)
    stale = tmp_path / f"{path.name}abc123.tmp"
    fresh = tmp_path / f"{path.name}def456.tmp"
    other = tmp_path / "other-table.mtblxyz.tmp"
    for f in (stale, fresh, other):
        f.write_bytes(b"partial")
    old = time.time() - STALE_SECONDS - 60
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    cache.load_or_build_mapped("demo", "k", 1, _mapped_build)
    assert not stale.exists()
    assert fresh.read_bytes() == b"partial" and other.read_bytes() == b"partial"


def test_mapped_table_changed_byte_is_caught_before_it_is_used(tmp_path: Path) -> None:
    cache = TableCache(tmp_path)
    table, _ = cache.load_or_build_mapped("demo", "k", 1, _mapped_build)
    path = table.path
    blob = bytearray(path.read_bytes())
    entry = next(e for e in table.header["arrays"] if e["name"] == "data")  # type: ignore[union-attr]
    blob[int(entry["offset"]) + 4 * 6] ^= 0x01  # the second segment's first float
    path.write_bytes(bytes(blob))
    changed = cache.open_mapped("demo", "k", 1)
    assert changed is not None
    changed.verify("data", 0, 5)  # the first segment is intact
    with pytest.raises(CacheError, match="checksum"):
        changed.verify("data", 5, 6)
    with pytest.raises(CacheError, match="checksum"):
        changed.array("data")


@pytest.mark.parametrize("cut", [0, 10, 100, -1])
def test_mapped_table_truncated_is_rebuilt_with_a_warning(tmp_path: Path, cut: int) -> None:
    cache = TableCache(tmp_path)
    table, _ = cache.load_or_build_mapped("demo", "k", 1, _mapped_build)
    blob = table.path.read_bytes()
    table.path.write_bytes(blob[:cut] if cut >= 0 else blob + b"junk")
    with pytest.raises(CacheError, match="corrupt"):
        cache.open_mapped("demo", "k", 1)
    with pytest.warns(UserWarning, match="rebuilding"):
        rebuilt, hit = cache.load_or_build_mapped("demo", "k", 1, _mapped_build)
    assert not hit and rebuilt.array("data").size == 8


def test_one_memo_holds_each_solved_table_once_per_process() -> None:
    """Agents, coaches and pages ask the game's ``solution(rules)``, which asks the one
    process memo keyed by the rules' fingerprint: one table however many ask."""
    from stratagem.core.registry import load_game
    from stratagem.core.tables import solved_memo
    from stratagem.games.pig.rules import preset
    from stratagem.games.pig.spec import solution

    rules = preset("coin-3")
    table = solution(rules)
    assert solved_memo().get(("pig", rules.fingerprint)) is table
    agents = [load_game("pig").make_agent("coin-3", "optimal") for _ in range(3)]
    assert all(agent.solution is table for agent in agents)  # type: ignore[attr-defined]
    assert solution(preset("coin-3")) is table
