"""The one REST shape under load: 50 thinking players through /api/sessions, every change
written to the SQLite games store.

As ``web_load.py`` (whose client, statistics and report it uses), but every request goes
through the sessions API that every page now uses, and the server runs with
``stratagem serve --data DIR`` on a fresh folder, so each move, agent move and takeback
is a write to ``DIR/games.sqlite3``. Half the players play solitaire Yahtzee with the
optimal coach, half Pig against the optimum with the optimal coach; per decision: think,
``GET /advice``, ``POST /move`` with the best row, then ``POST /ai`` until the person is
to move again. Goal: advice p95 < 50 ms for both games with 0 errors, as before.

Each player connects from its own loopback address (127.0.x.y), as people do from their
own machines: the server's per-client shares (2 heavy jobs: advice and agent moves run
in the heavy pool) then apply per player, not to all fifty at once.

    python benchmarks/web_load_sessions.py [--clients 50] [--seconds 60] [--think 1]
                                           [--markdown docs/results/web_load_sessions.md]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import (
    GOAL_P95_MS,
    Connection,
    Phase,
    Stats,
    call,
    cpu_seconds,
    free_port,
    pct,
    peak_rss_mb,
    thinks,
)

NEW: dict[str, dict[str, Any]] = {
    "yahtzee": {"game": "yahtzee", "rules": "yahtzee", "seats": ["human"], "coach": "optimal"},
    "pig": {"game": "pig", "rules": "pig", "seats": ["human", "optimal"], "coach": "optimal"},
}
"""What each player starts: a game of the registry, seats and coach as registry specs."""


async def player(
    conn: Connection, stats: Stats, game_name: str, stop: float, seed: int, think: float
) -> None:
    """Play games of one kind until ``stop``, pausing ``think`` s on average per decision."""
    rng = np.random.default_rng(seed)
    while time.monotonic() < stop:
        game = await call(conn, stats, f"{game_name} new", "POST", "/api/sessions",
                          {**NEW[game_name], "seed": seed})  # fmt: skip
        seed += 1000
        if game is None:
            await asyncio.sleep(0.1)
            continue
        url = f"/api/sessions/{game['id']}"
        while not game["over"] and time.monotonic() < stop:
            if not game["human_to_move"]:
                nxt = await call(conn, stats, f"{game_name} ai", "POST", f"{url}/ai", {})
                if nxt is None:
                    break
                game = nxt
                continue
            if think > 0:
                await asyncio.sleep(rng.exponential(think))
            advice = await call(conn, stats, f"{game_name} advice", "GET", f"{url}/advice")
            if advice is None:
                break
            nxt = await call(conn, stats, f"{game_name} move", "POST", f"{url}/move",
                             {"decision": advice["rows"][0]["action"]})  # fmt: skip
            if nxt is None:
                break
            game = nxt
        if game["over"]:
            stats.games[game_name] += 1
    conn.close()


async def run_clients(port: int, clients: int, seconds: float, think: float) -> tuple[Stats, float]:
    stats = Stats()
    stop = time.monotonic() + seconds
    start = time.perf_counter()
    await asyncio.gather(*(
        player(Connection("127.0.0.1", port, f"127.0.{1 + i // 250}.{1 + i % 250}"), stats,
               "yahtzee" if i % 2 == 0 else "pig",
               stop, i + 1, think)
        for i in range(clients)
    ))  # fmt: skip
    return stats, time.perf_counter() - start


def stored(data: Path) -> tuple[int, int]:
    """Games in the store and how many of them are finished (read after the run)."""
    with sqlite3.connect(data / "games.sqlite3") as db:
        n, done = db.execute("SELECT count(*), coalesce(sum(finished), 0) FROM games").fetchone()
    return int(n), int(done)


def write_markdown(path: Path, args: argparse.Namespace, phases: list[Phase], rss: float,
                   games: tuple[int, int]) -> None:  # fmt: skip
    lines = [
        "# The sessions API under load, with SQLite writes",
        "",
        f"`python benchmarks/web_load_sessions.py --clients {args.clients} --seconds "
        f"{args.seconds:g} --think {','.join(f'{t:g}' for t in args.think)}`: {args.clients} "
        "concurrent clients on 127.0.0.1 through `/api/sessions` (the one REST shape every page "
        "uses), half playing solitaire Yahtzee with the optimal coach, half Pig against the "
        "optimum with the optimal coach: per decision the advice, then its best row as the "
        "move, then `/ai` until the person is to move. The server runs `stratagem serve "
        "--data DIR` on a fresh folder, so every move and agent move is written to "
        "`DIR/games.sqlite3`. Cached tables, one uvicorn worker, the clients in one process "
        f"on the same machine ({os.cpu_count()} cores), the client of `web_load.py`.",
        "",
    ]
    for ph in phases:
        lines += [f"## {ph.title()}", "", f"{ph.elapsed:.0f} s.", "",
                  "| requests | count | p50 ms | p95 ms | p99 ms |", "|---|---:|---:|---:|---:|"]
        lines += [f"| {k} | {n} | {a:.1f} | {b:.1f} | {c:.1f} |" for k, n, a, b, c in ph.rows()]
        lines += ["", ph.summary(), "", f"Goal, {ph.verdict()}.", ""]
    lines += [f"Games in the store after the run: {games[0]} ({games[1]} finished). "
              f"Server peak RSS: {rss:.0f} MB.", ""]  # fmt: skip
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text("\n".join(lines), encoding="utf-8")
    tmp.replace(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0, help="per phase")
    parser.add_argument("--think", type=thinks, default=[1.0],
                        help="mean think time per decision, one phase per value (default 1)")
    parser.add_argument("--markdown", type=Path, help="also write the result as Markdown here")
    args = parser.parse_args()
    if not 1 <= args.clients <= 1000 or not 1 <= args.seconds <= 3600:
        parser.error("--clients must be 1..1000 and --seconds 1..3600")
    port = free_port()
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    folder = tempfile.TemporaryDirectory(prefix="stratagem-load-")
    data = Path(folder.name)
    server = subprocess.Popen(
        [sys.executable, "-m", "stratagem", "serve", "--port", str(port), "--data", str(data)],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )  # fmt: skip
    base = f"http://127.0.0.1:{port}"
    phases: list[Phase] = []
    try:
        deadline = time.monotonic() + 120
        while True:
            try:
                httpx.get(f"{base}/api/games", timeout=2)
                break
            except httpx.HTTPError:
                if time.monotonic() > deadline or server.poll() is not None:
                    print("the server did not start", file=sys.stderr)
                    return 1
                time.sleep(0.3)
        while any(state in ("waiting", "warming") for state in  # engines compiled at start
                  httpx.get(f"{base}/api/games", timeout=10).json().get("engines", {}).values()):
            time.sleep(1)
        for body in NEW.values():  # tables solved or loaded before the clock starts
            warm = httpx.post(f"{base}/api/sessions", json={**body, "seed": 0}, timeout=600)
            warm.raise_for_status()
            httpx.get(f"{base}/api/sessions/{warm.json()['id']}/advice", timeout=600)
        for think in args.think:
            load = os.getloadavg()[0]
            cpu0 = cpu_seconds(server.pid)
            own0 = time.process_time()
            stats, elapsed = asyncio.run(run_clients(port, args.clients, args.seconds, think))
            phases.append(Phase(think, stats, elapsed, load, cpu_seconds(server.pid) - cpu0,
                                time.process_time() - own0))  # fmt: skip
        rss = peak_rss_mb(server.pid)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    games = stored(data)
    folder.cleanup()
    for ph in phases:
        print(f"\n{ph.title()} ({args.clients} clients, {ph.elapsed:.1f} s)")
        print(f"{'requests':<18}{'count':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
        for k, n, a, b, c in ph.rows():
            print(f"{k:<18}{n:>8}{a:>9.1f}{b:>9.1f}{c:>9.1f}")
        print(ph.summary())
        kinds: dict[str, int] = {}
        for err in ph.stats.errors:
            kinds[err[:60]] = kinds.get(err[:60], 0) + 1
        for kind, n in sorted(kinds.items(), key=lambda kv: -kv[1])[:8]:
            print(f"  error x{n}: {kind}")
        print("goal:", ph.verdict())
    print(f"games stored: {games[0]} ({games[1]} finished); server peak RSS {rss:.0f} MB")
    if args.markdown is not None:
        write_markdown(args.markdown, args, phases, rss, games)
    print(json.dumps({
        "clients": args.clients, "server_peak_rss_mb": round(rss), "games_stored": games[0],
        "goal_p95_ms": GOAL_P95_MS,
        "phases": [{
            "think_s": ph.think, "seconds": round(ph.elapsed, 1),
            "requests_per_s": round(ph.rps, 1), "errors": len(ph.stats.errors),
            "yahtzee_advice_ms": {q: round(pct(ph.stats.latency.get("yahtzee advice", []), q), 1)
                                  for q in (50, 95, 99)},
            "pig_advice_ms": {q: round(pct(ph.stats.latency.get("pig advice", []), q), 1)
                              for q in (50, 95, 99)},
            "all_ms": {q: round(pct(ph.every, q), 1) for q in (50, 95, 99)},
            "server_cpu_ms_per_request": round(ph.cpu_ms, 2), "goal_met": ph.met,
        } for ph in phases],
    }))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
