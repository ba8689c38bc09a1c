"""Saving a game after every move: the SQLite games store against one JSON file per game.

The web page saves a game's record after each decision (core.store.GameStore.save of
Session.to_record). This measures what one such "move append" costs, so that the web
load benchmark (50 thinking players) can be judged with the writes in it:

* ``--players`` games of solitaire Yahtzee are played side by side by seeded random
  legal decisions (the players take turns, one decision each), each through a
  :class:`~stratagem.core.session.Session`; the record after every decision is
  produced once, then written by each contender in the same order;
* contenders: the store as shipped (WAL, ``synchronous=NORMAL``: a commit is durable
  at the next checkpoint, a crash of the process loses nothing, a power cut may lose
  the last commits); the store with ``synchronous=FULL`` (an fsync per commit, the
  durability of the peer); the peer, one JSON file per game written whole through
  ``core.files.write_atomic`` (temporary file, fsync, rename); and the store in
  memory only (the floor);
* for each: writes per second, and the median, p95 and largest latency of one write;
  also what producing the record costs (``Session.to_json`` after the move).

It prints a table and, as its last line, one JSON object with the figures.

    .venv/bin/python benchmarks/session_store.py [--players 50] [--seed 2026] [--quick]
"""

from __future__ import annotations

import argparse
import json
import platform
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.core.files import write_atomic
from stratagem.core.session import Session
from stratagem.core.store import GameStore


def records(players: int, seed: int) -> tuple[list[tuple[str, str]], list[float]]:
    """``(game id, record JSON)`` after every decision, players interleaved; and the time
    each ``to_json`` took."""
    rng = np.random.default_rng(seed)
    sessions = [Session.new("yahtzee", "yahtzee", ["human"], seed=seed + i) for i in range(players)]
    out: list[tuple[str, str]] = []
    produce: list[float] = []
    while any(not s.over for s in sessions):
        for i, s in enumerate(sessions):
            if s.over:
                continue
            texts = s.legal_texts()
            s.submit(texts[int(rng.integers(len(texts)))])
            start = time.perf_counter()
            text = s.to_json()
            produce.append(time.perf_counter() - start)
            out.append((f"game-{i}", text))
    return out, produce


def time_store(moves: list[tuple[str, str]], folder: Path | None, full_sync: bool) -> list[float]:
    store = GameStore(None if folder is None else folder / "games.sqlite3")
    if folder is not None:
        assert store.persistent, store.status.message
    if full_sync:
        store._db.execute("PRAGMA synchronous=FULL")  # the peer's durability (benchmark only)
    latencies = []
    for game_id, text in moves:
        start = time.perf_counter()
        status = store.save(game_id, text)
        latencies.append(time.perf_counter() - start)
        assert status.ok, status.message
    store.close()
    return latencies


def time_files(moves: list[tuple[str, str]], folder: Path) -> list[float]:
    latencies = []
    for game_id, text in moves:
        start = time.perf_counter()
        write_atomic(folder / f"{game_id}.json", text.encode("utf-8"))
        latencies.append(time.perf_counter() - start)
    return latencies


def summary(latencies: list[float]) -> dict[str, float]:
    arr = np.array(latencies)
    return {
        "writes": len(latencies),
        "writes_per_s": len(latencies) / float(arr.sum()),
        "p50_ms": float(np.percentile(arr, 50) * 1e3),
        "p95_ms": float(np.percentile(arr, 95) * 1e3),
        "max_ms": float(arr.max() * 1e3),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=50, help="games played side by side")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--quick", action="store_true", help="10 players")
    args = parser.parse_args()
    if not 1 <= args.players <= 1000:
        parser.error("--players must be 1..1000")
    players = 10 if args.quick else args.players

    moves, produce = records(players, args.seed)
    sizes = [len(text.encode()) for _, text in moves]
    results: dict[str, dict[str, float]] = {}
    with tempfile.TemporaryDirectory(prefix="session-store-") as tmp:
        root = Path(tmp)
        for name, run in (
            ("sqlite (WAL, synchronous=NORMAL)", lambda d: time_store(moves, d, False)),
            ("sqlite (WAL, synchronous=FULL)", lambda d: time_store(moves, d, True)),
            ("peer: JSON file per game (fsync)", lambda d: time_files(moves, d)),
        ):
            folder = root / str(len(results))
            folder.mkdir()
            results[name] = summary(run(folder))
        results["sqlite in memory (no file)"] = summary(time_store(moves, None, False))
    results["Session.to_json (producing the record)"] = summary(produce)

    print(
        f"{players} solitaire Yahtzee games, {len(moves)} moves, record "
        f"{min(sizes):,}-{max(sizes):,} bytes; sqlite {sqlite3.sqlite_version}, "
        f"{platform.python_implementation()} {platform.python_version()}"
    )
    print(
        f"{'one write after a move':<42} {'writes/s':>10} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}"
    )
    for name, r in results.items():
        print(
            f"{name:<42} {r['writes_per_s']:>10,.0f} {r['p50_ms']:>8.3f} {r['p95_ms']:>8.3f} "
            f"{r['max_ms']:>8.2f}"
        )
    shipped = results["sqlite (WAL, synchronous=NORMAL)"]
    full = results["sqlite (WAL, synchronous=FULL)"]
    peer = results["peer: JSON file per game (fsync)"]
    ratio = shipped["writes_per_s"] / peer["writes_per_s"]
    print(
        f"store as shipped / peer: {ratio:.2f}x writes per second; "
        f"same durability (FULL) / peer: {full['writes_per_s'] / peer['writes_per_s']:.2f}x"
    )
    headline: dict[str, Any] = {
        "benchmark": "session_store",
        "players": players,
        "moves": len(moves),
        "record_bytes_max": max(sizes),
        "sqlite_writes_per_s": round(shipped["writes_per_s"], 1),
        "sqlite_p95_ms": round(shipped["p95_ms"], 4),
        "sqlite_full_sync_writes_per_s": round(full["writes_per_s"], 1),
        "sqlite_full_sync_p95_ms": round(full["p95_ms"], 4),
        "peer_file_writes_per_s": round(peer["writes_per_s"], 1),
        "peer_file_p95_ms": round(peer["p95_ms"], 4),
        "ratio_sqlite_to_peer": round(ratio, 2),
        "to_json_p95_ms": round(results["Session.to_json (producing the record)"]["p95_ms"], 4),
    }
    print(json.dumps(headline))


if __name__ == "__main__":
    main()
