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
from pathlib import Path

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


async def call(
    client: httpx.AsyncClient, stats: Stats, kind: str, method: str, url: str, body: object = None
) -> dict[str, object] | None:
    start = time.perf_counter()
    try:
        response = await client.request(method, url, json=body)
    except httpx.HTTPError as exc:
        stats.errors.append(f"{kind}: {type(exc).__name__}")
        return None
    stats.add(kind, time.perf_counter() - start)
    if response.status_code >= 300:
        stats.errors.append(f"{kind}: {response.status_code} {response.text[:120]}")
        return None
    data: dict[str, object] = response.json()
    return data


async def yahtzee_client(client: httpx.AsyncClient, stats: Stats, stop: float, seed: int) -> None:
    while time.monotonic() < stop:
        game = await call(client, stats, "yahtzee new", "POST", "/api/yahtzee/games",
                          {"rules": "yahtzee", "mode": "coach", "seed": seed})  # fmt: skip
        seed += 1000
        if game is None:
            await asyncio.sleep(0.1)
            continue
        sid = game["id"]
        while not game["over"] and time.monotonic() < stop:
            advice = await call(client, stats, "yahtzee advice", "GET",
                                f"/api/yahtzee/games/{sid}/advice")  # fmt: skip
            if advice is None:
                break
            best = advice["options"][0]["action"]  # type: ignore[index]
            nxt = await call(client, stats, "yahtzee act", "POST",
                             f"/api/yahtzee/games/{sid}/act", {"action": best})  # fmt: skip
            if nxt is None:
                break
            game = nxt
        if game["over"]:
            stats.games["yahtzee"] += 1


async def pig_client(client: httpx.AsyncClient, stats: Stats, stop: float, seed: int) -> None:
    while time.monotonic() < stop:
        game = await call(client, stats, "pig new", "POST", "/api/pig/games",
                          {"preset": "pig", "opponent": "optimal", "seed": seed})  # fmt: skip
        seed += 1000
        if game is None:
            await asyncio.sleep(0.1)
            continue
        sid = game["id"]
        while not game["over"] and time.monotonic() < stop:
            odds = await call(client, stats, "pig advice", "GET", f"/api/pig/games/{sid}/advice")
            if odds is None:
                break
            nxt = await call(client, stats, "pig act", "POST", f"/api/pig/games/{sid}/act",
                             {"action": odds["best"]})  # fmt: skip
            if nxt is None:
                break
            game = nxt
        if game["over"]:
            stats.games["pig"] += 1


async def run_clients(base: str, clients: int, seconds: float) -> tuple[Stats, float]:
    stats = Stats()
    limits = httpx.Limits(max_connections=clients, max_keepalive_connections=clients)
    async with httpx.AsyncClient(base_url=base, limits=limits, timeout=60) as client:
        stop = time.monotonic() + seconds
        start = time.perf_counter()
        tasks = [
            (yahtzee_client if i % 2 == 0 else pig_client)(client, stats, stop, i + 1)
            for i in range(clients)
        ]
        await asyncio.gather(*tasks)
        return stats, time.perf_counter() - start


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def write_markdown(
    path: Path,
    args: argparse.Namespace,
    elapsed: float,
    load: float,
    lines: list[str],
    every: list[float],
    rps: float,
    stats: Stats,
    rss: float,
    met: bool,
    cpu: float,
    cpu_ms: float,
    client_cpu: float,
) -> None:
    """The result as a Markdown page (written to a temporary file, then renamed)."""
    text = "\n".join(
        [
            "# The web server under load",
            "",
            f"`python benchmarks/web_load.py --clients {args.clients} --seconds {args.seconds:g}`: "
            f"{args.clients} concurrent clients on 127.0.0.1 for {elapsed:.0f} s, half playing "
            "Yahtzee coach games (hint, then its best option, every decision), half Pig games "
            "against the optimum (hint, then roll or hold); cached tables, one uvicorn worker. "
            f"The clients run on the same machine ({os.cpu_count()} cores; load average "
            f"{load:.1f} when the run started, from other jobs on the machine).",
            "",
            "| requests | count | p50 ms | p95 ms | p99 ms |",
            "|---|---:|---:|---:|---:|",
            *lines,
            f"| all | {len(every)} | {pct(every, 50):.1f} | {pct(every, 95):.1f} | "
            f"{pct(every, 99):.1f} |",
            "",
            f"Requests per second: {rps:.1f}. Games finished: Yahtzee {stats.games['yahtzee']}, "
            f"Pig {stats.games['pig']}. Errors: {len(stats.errors)}. "
            f"Server peak RSS: {rss:.0f} MB. Server CPU: {cpu:.1f} s in {elapsed:.0f} s "
            f"({100 * cpu / elapsed:.0f}% of one core), {cpu_ms:.2f} ms per request; "
            f"the clients' process used {client_cpu:.1f} s of CPU.",
            "",
            "The clients send their next request as soon as an answer arrives (no think "
            "time), so every latency is about clients / throughput, and the throughput is "
            "bounded by the CPU the machine gives the server and the clients; the server's "
            "CPU time per request is the figure that does not depend on what else runs.",
            "",
            f"Goal: Yahtzee and Pig advice p95 < {GOAL_P95_MS:.0f} ms with 0 errors: "
            f"**{'met' if met else 'not met'}**.",
            "",
        ]
    )
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--seconds", type=float, default=60.0)
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
        httpx.post(f"{base}/api/yahtzee/tables/yahtzee?remaining=false", timeout=600)
        warm = httpx.post(f"{base}/api/yahtzee/games", json={"seed": 0}, timeout=600).json()
        httpx.get(f"{base}/api/yahtzee/games/{warm['id']}/advice", timeout=600)
        warm = httpx.post(f"{base}/api/pig/games", json={"seed": 0}, timeout=600).json()
        httpx.get(f"{base}/api/pig/games/{warm['id']}/advice", timeout=600)
        load = os.getloadavg()[0]
        cpu0 = cpu_seconds(server.pid)
        own0 = time.process_time()
        stats, elapsed = asyncio.run(run_clients(base, args.clients, args.seconds))
        cpu = cpu_seconds(server.pid) - cpu0
        client_cpu = time.process_time() - own0
        rss = peak_rss_mb(server.pid)
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()

    every = [x for v in stats.latency.values() for x in v]
    requests = len(every)
    lines: list[str] = []
    print(f"{args.clients} clients for {elapsed:.1f} s on 127.0.0.1; load average at start "
          f"{load:.1f} on {os.cpu_count()} cores")  # fmt: skip
    print(f"{'requests':<18}{'count':>8}{'p50 ms':>9}{'p95 ms':>9}{'p99 ms':>9}")
    for kind in sorted(stats.latency):
        v = stats.latency[kind]
        print(f"{kind:<18}{len(v):>8}{pct(v, 50):>9.1f}{pct(v, 95):>9.1f}{pct(v, 99):>9.1f}")
        lines.append(
            f"| {kind} | {len(v)} | {pct(v, 50):.1f} | {pct(v, 95):.1f} | {pct(v, 99):.1f} |"
        )
    print(f"{'all':<18}{requests:>8}{pct(every, 50):>9.1f}{pct(every, 95):>9.1f}"
          f"{pct(every, 99):>9.1f}")  # fmt: skip
    rps = requests / elapsed
    cpu_ms = 1000 * cpu / max(requests, 1)
    print(
        f"server CPU {cpu:.1f} s over {elapsed:.1f} s ({100 * cpu / elapsed:.0f}% of one core); "
        f"{cpu_ms:.2f} ms of server CPU per request; the clients used {client_cpu:.1f} s"
    )
    print(
        f"requests/s {rps:.1f}; games finished: yahtzee {stats.games['yahtzee']}, "
        f"pig {stats.games['pig']}; errors {len(stats.errors)}; server peak RSS {rss:.0f} MB"
    )
    for err in stats.errors[:5]:
        print("  error:", err)
    y95 = pct(stats.latency.get("yahtzee advice", []), 95)
    p95 = pct(stats.latency.get("pig advice", []), 95)
    met = y95 < GOAL_P95_MS and p95 < GOAL_P95_MS and not stats.errors
    print(
        f"goal: advice p95 < {GOAL_P95_MS:.0f} ms with 0 errors -> "
        f"{'met' if met else 'NOT met'} (yahtzee {y95:.1f} ms, pig {p95:.1f} ms)"
    )
    if args.markdown is not None:
        write_markdown(args.markdown, args, elapsed, load, lines, every, rps, stats, rss, met,
                       cpu, cpu_ms, client_cpu)  # fmt: skip
    print(json.dumps({
        "clients": args.clients, "seconds": round(elapsed, 1), "requests_per_s": round(rps, 1),
        "yahtzee_advice_ms": {q: round(pct(stats.latency.get("yahtzee advice", []), q), 1)
                              for q in (50, 95, 99)},
        "pig_advice_ms": {q: round(pct(stats.latency.get("pig advice", []), q), 1)
                          for q in (50, 95, 99)},
        "all_ms": {q: round(pct(every, q), 1) for q in (50, 95, 99)},
        "errors": len(stats.errors), "server_peak_rss_mb": round(rss),
        "server_cpu_ms_per_request": round(cpu_ms, 2), "client_cpu_s": round(client_cpu, 1),
        "load_average": round(load, 1), "goal_met": met,
    }))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
