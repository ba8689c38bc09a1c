"""The web server under load: concurrent clients playing Yahtzee and Pig for a while.

Starts ``stratagem serve`` on 127.0.0.1 (a free port) as its own process, warms it
up (the Yahtzee and Pig tables solved or loaded from the cache, so the run measures
cached tables), then runs ``--clients`` concurrent clients for ``--seconds``:
half play Yahtzee coach games (new game, then per decision: ask the hint, play its
best option), half Pig games against the optimum (per decision: the hint, then the
best of roll/hold); finished games are replaced by new ones. Every request is timed.

It reports requests per second, the latency percentiles of the advice requests
(``/api/yahtzee/games/{id}/advice``, ``/api/pig/games/{id}/advice``) and of all
requests, the errors (any non-2xx answer or failed connection) and the server's
peak resident memory (VmHWM), against the goal: Yahtzee and Pig advice p95 < 50 ms
with cached tables, 0 errors. The clients run in this process on the same machine,
so they compete with the server for its cores; the load average at the start is
printed beside the result. Last line: one JSON object.

    python benchmarks/web_load.py [--clients 50] [--seconds 60] [--markdown FILE.md]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import numpy as np

GOAL_P95_MS = 50.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (from /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def peak_rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Stats:
    def __init__(self) -> None:
        self.latency: dict[str, list[float]] = {}
        self.errors: list[str] = []
        self.games = {"yahtzee": 0, "pig": 0}

    def add(self, kind: str, seconds: float) -> None:
        self.latency.setdefault(kind, []).append(seconds * 1000)


class Connection:
    """A minimal HTTP/1.1 keep-alive client over one socket (JSON in, JSON out).

    httpx spent about 5 ms of CPU per request here, so 50 clients in one process
    saturated a core and their own event loop's delay showed up as server latency;
    this client costs a small fraction of that, so the latencies are the server's.
    """

    def __init__(self, host: str, port: int, local_host: str | None = None) -> None:
        self.host, self.port = host, port
        self.local = None if local_host is None else (local_host, 0)
        """The client's own address (127.0.0.x: each player its own, as people are)."""
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(self, method: str, path: str, body: object = None) -> tuple[int, bytes]:
        """Send one request; a kept-alive connection the server has since closed (uvicorn
        closes one idle for 5 s) is reopened and the request sent again, as browsers do."""
        data = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(data)}\r\n\r\n"
        ).encode("ascii")
        reused = self.writer is not None
        try:
            return await self._exchange(head + data)
        except (ConnectionError, asyncio.IncompleteReadError):
            if not reused:
                raise
            self.close()
            return await self._exchange(head + data)

    async def _exchange(self, message: bytes) -> tuple[int, bytes]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(
                self.host, self.port, local_addr=self.local
            )
        assert self.reader is not None
        self.writer.write(message)
        await self.writer.drain()
        line = await self.reader.readline()
        if not line:
            raise ConnectionError("the server closed the connection")
        status = int(line.split()[1])
        length = None
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if length is None:
            raise ConnectionError("answer without Content-Length")
        return status, await self.reader.readexactly(length)

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.writer = None


async def call(
    conn: Connection, stats: Stats, kind: str, method: str, url: str, body: object = None
) -> dict[str, Any] | None:
    start = time.perf_counter()
    try:
        status, payload = await conn.request(method, url, body)
    except (OSError, ConnectionError, asyncio.IncompleteReadError, ValueError, IndexError) as exc:
        stats.errors.append(f"{kind}: {type(exc).__name__}")
        conn.close()
        return None
    stats.add(kind, time.perf_counter() - start)
    if status >= 300:
        stats.errors.append(f"{kind}: {status} {payload[:120]!r}")
        return None
    data: dict[str, Any] = json.loads(payload)
    return data


# What a player of each game sends: a new game, then per decision the hint and the
# hint's best option. ``best`` picks the action from the hint's answer.
GAMES: dict[str, tuple[str, dict[str, object], Callable[[dict[str, Any]], str]]] = {
    "yahtzee": ("/api/yahtzee/games", {"rules": "yahtzee", "mode": "coach"},
                lambda advice: advice["options"][0]["action"]),
    "pig": ("/api/pig/games", {"preset": "pig", "opponent": "optimal"},
            lambda odds: odds["best"]),
}  # fmt: skip


async def player(
    conn: Connection, stats: Stats, game_name: str, stop: float, seed: int, think: float
) -> None:
    """Play games of one kind until ``stop``, pausing ``think`` s on average per decision."""
    base, body, best = GAMES[game_name]
    rng = np.random.default_rng(seed)
    while time.monotonic() < stop:
        game = await call(conn, stats, f"{game_name} new", "POST", base, {**body, "seed": seed})
        seed += 1000
        if game is None:
            await asyncio.sleep(0.1)
            continue
        url = f"{base}/{game['id']}"
        while not game["over"] and time.monotonic() < stop:
            if think > 0:
                await asyncio.sleep(rng.exponential(think))
            advice = await call(conn, stats, f"{game_name} advice", "GET", f"{url}/advice")
            if advice is None:
                break
            nxt = await call(conn, stats, f"{game_name} act", "POST", f"{url}/act",
                             {"action": best(advice)})  # fmt: skip
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
        player(Connection("127.0.0.1", port), stats, "yahtzee" if i % 2 == 0 else "pig",
               stop, i + 1, think)
        for i in range(clients)
    ))  # fmt: skip
    return stats, time.perf_counter() - start


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


@dataclass
class Phase:
    """One timed run of the clients and what the server spent on it."""

    think: float
    stats: Stats
    elapsed: float
    load: float
    server_cpu: float
    client_cpu: float

    @property
    def every(self) -> list[float]:
        return [x for v in self.stats.latency.values() for x in v]

    @property
    def rps(self) -> float:
        return len(self.every) / self.elapsed

    @property
    def cpu_ms(self) -> float:
        return 1000 * self.server_cpu / max(len(self.every), 1)

    def advice_p95(self, game: str) -> float:
        return pct(self.stats.latency.get(f"{game} advice", []), 95)

    @property
    def met(self) -> bool:
        return (self.advice_p95("yahtzee") < GOAL_P95_MS and self.advice_p95("pig") < GOAL_P95_MS
                and not self.stats.errors)  # fmt: skip

    def title(self) -> str:
        if self.think > 0:
            return (f"Players: {self.think:g} s of thinking per decision on average "
                    "(exponentially distributed), then the hint and the move")  # fmt: skip
        return "Saturation: no thinking, every answer followed at once by the next request"

    def rows(self) -> list[tuple[str, int, float, float, float]]:
        out = [(k, len(v), pct(v, 50), pct(v, 95), pct(v, 99))
               for k, v in sorted(self.stats.latency.items())]  # fmt: skip
        e = self.every
        return [*out, ("all", len(e), pct(e, 50), pct(e, 95), pct(e, 99))]

    def summary(self) -> str:
        return (f"Requests per second: {self.rps:.1f}. Games finished: Yahtzee "
                f"{self.stats.games['yahtzee']}, Pig {self.stats.games['pig']}. Errors: "
                f"{len(self.stats.errors)}. Server CPU: {self.server_cpu:.1f} s in "
                f"{self.elapsed:.0f} s ({100 * self.server_cpu / self.elapsed:.0f}% of one core), "
                f"{self.cpu_ms:.2f} ms per request; the clients used {self.client_cpu:.1f} s "
                f"of CPU. Load average at the start: {self.load:.1f}.")  # fmt: skip

    def verdict(self) -> str:
        return (f"advice p95: Yahtzee {self.advice_p95('yahtzee'):.1f} ms, Pig "
                f"{self.advice_p95('pig'):.1f} ms; goal p95 < {GOAL_P95_MS:.0f} ms with 0 errors: "
                f"{'met' if self.met else 'not met'}")  # fmt: skip


def write_markdown(path: Path, args: argparse.Namespace, phases: list[Phase], rss: float) -> None:
    """The result as a Markdown page (written to a temporary file, then renamed)."""
    lines = [
        "# The web server under load",
        "",
        f"`python benchmarks/web_load.py --clients {args.clients} --seconds {args.seconds:g} "
        f"--think {','.join(f'{t:g}' for t in args.think)}`: {args.clients} concurrent "
        "clients on 127.0.0.1, half playing "
        "Yahtzee coach games (the hint, then its best option, every decision), half Pig games "
        "against the optimum (the hint, then roll or hold); finished games are replaced by new "
        "ones. Cached tables, one uvicorn worker, the clients in one process on the same "
        f"machine ({os.cpu_count()} cores), each with its own keep-alive connection "
        "(a minimal HTTP/1.1 client: httpx cost about 5 ms of CPU per request and made the "
        "clients, not the server, the bottleneck).",
        "",
    ]
    for ph in phases:
        lines += [
            f"## {ph.title()}",
            "",
            f"{ph.elapsed:.0f} s.",
            "",
            "| requests | count | p50 ms | p95 ms | p99 ms |",
            "|---|---:|---:|---:|---:|",
        ]
        lines += [f"| {k} | {n} | {a:.1f} | {b:.1f} | {c:.1f} |" for k, n, a, b, c in ph.rows()]
        lines += ["", ph.summary(), "", f"Goal, {ph.verdict()}.", ""]
    lines += [
        f"Server peak RSS over the whole run: {rss:.0f} MB.",
        "",
        "How to read it: people think between moves, so the player phase is the load the "
        "goal is about (50 people playing at once, each decision a hint and a move). In the "
        "saturation phase every client is a tight loop, so the mean latency is about clients "
        "divided by throughput whatever the server does; that phase measures the server's "
        "capacity (requests/s and its CPU per request), and its latencies are queueing.",
        "",
    ]
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text("\n".join(lines), encoding="utf-8")
    tmp.replace(path)


def thinks(text: str) -> list[float]:
    try:
        values = [float(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--think wants seconds like 1,0; got {text!r}") from None
    if not values or not all(0 <= v <= 60 for v in values):
        raise argparse.ArgumentTypeError("--think: each value must be 0..60 seconds")
    return values


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0, help="per phase")
    parser.add_argument(
        "--think",
        type=thinks,
        default=[1.0, 0.0],
        help="mean think time per decision, one phase per value (default 1,0)",
    )
    parser.add_argument("--markdown", type=Path, help="also write the result as Markdown here")
    args = parser.parse_args()
    if not 1 <= args.clients <= 1000 or not 1 <= args.seconds <= 3600:
        parser.error("--clients must be 1..1000 and --seconds 1..3600")
    port = free_port()
    src = Path(__file__).resolve().parents[1] / "src"
    env = {**os.environ, "PYTHONPATH": f"{src}{os.pathsep}{os.environ.get('PYTHONPATH', '')}"}
    server = subprocess.Popen(
        [sys.executable, "-m", "stratagem", "serve", "--port", str(port)],
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
        # warm-up: tables solved/loaded and kernels compiled before the clock starts
        # the coach needs only the solved table (not the 1 GB remaining-score tables)
        while any(state in ("waiting", "warming") for state in  # engines compiled at start
                  httpx.get(f"{base}/api/games", timeout=10).json().get("engines", {}).values()):
            time.sleep(1)
        httpx.post(f"{base}/api/yahtzee/tables/yahtzee", json={"remaining": False}, timeout=600)
        warm = httpx.post(f"{base}/api/yahtzee/games", json={"seed": 0}, timeout=600).json()
        httpx.get(f"{base}/api/yahtzee/games/{warm['id']}/advice", timeout=600)
        warm = httpx.post(f"{base}/api/pig/games", json={"seed": 0}, timeout=600).json()
        httpx.get(f"{base}/api/pig/games/{warm['id']}/advice", timeout=600)
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

    for ph in phases:
        print(f"\n{ph.title()} ({args.clients} clients, {ph.elapsed:.1f} s)")
        print(f"{'requests':<18}{'count':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
        for k, n, a, b, c in ph.rows():
            print(f"{k:<18}{n:>8}{a:>9.1f}{b:>9.1f}{c:>9.1f}")
        print(ph.summary())
        for err in ph.stats.errors[:5]:
            print("  error:", err)
        print("goal:", ph.verdict())
    print(f"server peak RSS {rss:.0f} MB")
    if args.markdown is not None:
        write_markdown(args.markdown, args, phases, rss)
    print(json.dumps({
        "clients": args.clients, "server_peak_rss_mb": round(rss),
        "phases": [{
            "think_s": ph.think, "seconds": round(ph.elapsed, 1),
            "requests_per_s": round(ph.rps, 1), "errors": len(ph.stats.errors),
            "yahtzee_advice_ms": {q: round(pct(ph.stats.latency.get("yahtzee advice", []), q), 1)
                                  for q in (50, 95, 99)},
            "pig_advice_ms": {q: round(pct(ph.stats.latency.get("pig advice", []), q), 1)
                              for q in (50, 95, 99)},
            "all_ms": {q: round(pct(ph.every, q), 1) for q in (50, 95, 99)},
            "server_cpu_ms_per_request": round(ph.cpu_ms, 2),
            "client_cpu_s": round(ph.client_cpu, 1), "load_average": round(ph.load, 1),
            "goal_met": ph.met,
        } for ph in phases],
    }))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
