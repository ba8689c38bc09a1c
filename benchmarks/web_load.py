"""The load benchmark's client, statistics and percentiles (used by web_load_sessions.py).

It drove the per-game play routes (``/api/yahtzee/games``, ``/api/pig/games``) until
the one REST shape (``/api/sessions``) replaced them on 2026-12-06; its last figures
on those routes stay in docs/results/web_load.md. Run ``web_load_sessions.py``: the
same 50 thinking players, through ``/api/sessions`` with SQLite writes.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import socket
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def thinks(text: str) -> list[float]:
    try:
        values = [float(x) for x in text.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"--think wants seconds like 1,0; got {text!r}") from None
    if not values or not all(0 <= v <= 60 for v in values):
        raise argparse.ArgumentTypeError("--think: each value must be 0..60 seconds")
    return values


def main() -> int:
    # The per-game play routes this benchmark drove (/api/yahtzee/games, /api/pig/games)
    # were replaced by the one REST shape (/api/sessions); web_load_sessions.py measures
    # that with this module's client, statistics and report. docs/results/web_load.md keeps
    # the last figures measured on the old routes.
    print(
        "web_load.py drove the removed per-game routes; run benchmarks/web_load_sessions.py",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
