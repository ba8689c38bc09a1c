"""One client's heavy jobs against everyone's reads: eight concurrent Yahtzee MCTS searches
(20,000 simulations each) while a Score Four game is read every 0.2 s.

Starts the web app with uvicorn on 127.0.0.1 (a free port) in its own process, from the
source tree given by ``--src`` (default: this checkout's ``src``, so an older checkout can
be measured the same way), warms it (the Yahtzee table solved, the rollout kernel loaded),
times 20 idle reads, then starts the eight searches from one client and reads until they
end (at most ``--seconds``). Reports the reads' median and worst latency idle and during
the searches, their ratio, and the searches' answers (200, or 429 when the heavy pool or
the client's share is full). ``--limits '{"heavy_per_client": 8}'`` passes server limits
(``create_app`` keywords). Last line: one JSON object.

    python benchmarks/web_stall.py [--src DIR] [--limits JSON] [--seconds 90]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx

SEARCH = {"dice": [1, 2, 3, 4, 6], "rolls_left": 2, "simulations": 20_000}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, default=Path(__file__).resolve().parents[1] / "src")
    parser.add_argument("--limits", default="{}", help="create_app keywords, as JSON")
    parser.add_argument("--seconds", type=float, default=90.0)
    parser.add_argument("--searches", type=int, default=8)
    args = parser.parse_args()
    if not 1 <= args.searches <= 32 or not 1 <= args.seconds <= 600:
        parser.error("--searches must be 1..32 and --seconds 1..600")
    limits = json.loads(args.limits)
    port = free_port()
    code = (
        "import json, uvicorn\n"
        "from stratagem.web.app import create_app\n"
        f"app = create_app(tables='off', **json.loads({json.dumps(limits)!r}))\n"
        f"uvicorn.run(app, host='127.0.0.1', port={port}, log_level='warning')\n"
    )
    env = {**os.environ, "PYTHONPATH": str(args.src)}
    server = subprocess.Popen([sys.executable, "-c", code], env=env)
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
                time.sleep(0.2)
        client = httpx.Client(base_url=base, timeout=300)
        sid = client.post(
            "/api/sessions", json={"game": "scorefour", "seats": ["human", "minimax:depth=1"]}
        ).json()["id"]
        client.post("/api/yahtzee/mcts", json={**SEARCH, "simulations": 100})  # warm-up

        def read() -> float:
            t = time.perf_counter()
            r = client.get(f"/api/sessions/{sid}")
            r.raise_for_status()
            return time.perf_counter() - t

        idle = sorted(read() for _ in range(20))
        codes: list[int] = []

        def search() -> None:
            with httpx.Client(base_url=base, timeout=600) as h:
                codes.append(h.post("/api/yahtzee/mcts", json=SEARCH).status_code)

        threads = [threading.Thread(target=search, daemon=True) for _ in range(args.searches)]
        start = time.perf_counter()
        for t in threads:
            t.start()
        time.sleep(0.3)
        during: list[float] = []
        while any(t.is_alive() for t in threads) and time.perf_counter() - start < args.seconds:
            during.append(read())
            time.sleep(0.2)
        for t in threads:
            t.join(timeout=max(1.0, args.seconds - (time.perf_counter() - start)))
        elapsed = time.perf_counter() - start
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    during.sort()
    med_idle, med = idle[len(idle) // 2], during[len(during) // 2] if during else float("nan")
    worst = during[-1] if during else float("nan")
    print(f"{'reads':<22}{'count':>6}{'median ms':>11}{'worst ms':>10}")
    print(f"{'idle':<22}{len(idle):>6}{1000 * med_idle:>11.1f}{1000 * idle[-1]:>10.1f}")
    print(f"{'during the searches':<22}{len(during):>6}{1000 * med:>11.1f}{1000 * worst:>10.1f}")
    print(f"searches: {sorted(codes)} in {elapsed:.1f} s; worst read / idle median "
          f"{worst / med_idle:.0f}x")
    print(json.dumps({
        "src": str(args.src), "limits": limits, "idle_median_ms": round(1000 * med_idle, 1),
        "reads_during": len(during), "during_median_ms": round(1000 * med, 1),
        "during_worst_ms": round(1000 * worst, 1), "searches": sorted(codes),
        "seconds": round(elapsed, 1),
    }))  # fmt: skip
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
