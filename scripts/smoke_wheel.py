"""Install Stratagem from its wheel as a user does, and check that the installed program works.

The repository's own set-up (an editable install) hides files that a wheel leaves out:
``stratagem serve`` once failed on every fresh install because the wheel held no web page.
This script checks the wheel the way a new user meets it:

1. build the wheel (``pip wheel . --no-deps``) unless ``--wheel`` names one;
2. create a fresh venv in a temporary folder outside the repository and
   ``pip install 'WHEEL[web]'`` into it (dependencies from the package index or pip's cache);
3. from that temporary folder (so nothing of the repository can be imported), check that
   ``stratagem`` is the installed copy and run ``stratagem --help`` and one quick command per
   game (Scrabble's on the shipped ENABLE list);
4. start ``stratagem serve`` on a free loopback port, fetch every page reachable from the
   start page and every script, module, stylesheet and icon they reference (HTTP 200 for
   each), and stop the server.

Each step prints its time; the first failure stops the script with exit status 1 and says
what failed. The solved-table and numba caches are ``STRATAGEM_CACHE_DIR`` and
``NUMBA_CACHE_DIR`` when set (CI points them into its clone), else folders inside the
temporary venv's folder, which is removed at the end unless ``--keep``.

Usage: python scripts/smoke_wheel.py [--wheel dist/stratagem-0.1.0-py3-none-any.whl]
"""

from __future__ import annotations

import argparse
import html.parser
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# One quick command per game (seconds once numba has compiled; the first run compiles),
# with a piece of the output that shows it did its work.
GAME_COMMANDS: list[tuple[list[str], str]] = [
    (["yahtzee", "advise", "--rules", "yatzy", "--dice", "11114", "--rolls-left", "2"], "score"),
    (["pig", "solve", "--goal", "30"], "P(0,0,0)"),
    (["scorefour", "count", "--depth", "3"], "4,096 move sequences"),
    (["scrabble", "moves", "--rack", "AEINRST", "--top", "3"], "8B"),
]
SERVER_START_LIMIT = 120.0
"""Seconds the server may take to answer its first request."""
COMMAND_LIMIT = 900.0
"""Seconds one command may take (a cold numba compile of Scrabble takes about 100 s)."""


class SmokeError(Exception):
    """A check of the installed program failed."""


def step(title: str) -> float:
    print(f"--- {title}", flush=True)
    return time.perf_counter()


def done(start: float) -> float:
    took = time.perf_counter() - start
    print(f"    ({took:.1f} s)", flush=True)
    return took


def run(cmd: list[str], cwd: Path, env: dict[str, str], expect: str = "") -> str:
    try:
        proc = subprocess.run(
            cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=COMMAND_LIMIT,
            stdin=subprocess.DEVNULL,
        )  # fmt: skip
    except subprocess.TimeoutExpired:
        raise SmokeError(f"{' '.join(cmd)} took more than {COMMAND_LIMIT:.0f} s") from None
    if proc.returncode != 0:
        raise SmokeError(
            f"{' '.join(cmd)} exited with {proc.returncode}\n{proc.stdout[-2000:]}"
            f"\n{proc.stderr[-4000:]}"
        )
    if expect and expect not in proc.stdout:
        raise SmokeError(f"{' '.join(cmd)} did not print {expect!r}:\n{proc.stdout[-2000:]}")
    return proc.stdout


def _timed(cmd: list[str], cwd: Path, env: dict[str, str], expect: str) -> tuple[str, float]:
    start = time.perf_counter()
    text = run(cmd, cwd, env, expect)
    return text, time.perf_counter() - start


def build_wheel(out: Path) -> Path:
    run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(out)],
        ROOT, dict(os.environ))  # fmt: skip
    wheels = sorted(out.glob("stratagem-*.whl"))
    if len(wheels) != 1:
        raise SmokeError(f"expected one stratagem wheel in {out}, found {wheels}")
    return wheels[0]


class _Links(html.parser.HTMLParser):
    """The local pages, scripts, stylesheets and icons an HTML page references."""

    def __init__(self) -> None:
        super().__init__()
        self.pages: set[str] = set()
        self.assets: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        found = dict(attrs)
        if tag == "script" and found.get("src"):
            self.assets.add(str(found["src"]))
        elif tag == "link" and found.get("href"):
            self.assets.add(str(found["href"]))
        elif tag == "a" and found.get("href"):
            self.pages.add(str(found["href"]))


_IMPORT = re.compile(r"""(?:import|from)\s*(?:\(\s*)?["']([^"']+)["']""")
_CSS_URL = re.compile(r"""url\(\s*["']?([^"')]+)["']?\s*\)""")


def _local(href: str) -> str | None:
    """The path of a same-site link (``/pig?mode=ai`` -> ``/pig``), else None."""
    if not href.startswith("/") or href.startswith("//"):
        return None
    return href.split("#")[0].split("?")[0] or "/"


def fetch(base: str, path: str) -> tuple[str, str]:
    try:
        with urllib.request.urlopen(base + path, timeout=30) as resp:
            status = resp.status
            body = resp.read().decode("utf-8", errors="replace")
            kind = resp.headers.get("content-type", "")
    except urllib.error.HTTPError as exc:
        raise SmokeError(f"GET {path}: HTTP {exc.code}") from None
    except (urllib.error.URLError, OSError) as exc:
        raise SmokeError(f"GET {path}: {exc}") from None
    if status != 200:
        raise SmokeError(f"GET {path}: HTTP {status}")
    return body, kind


def crawl(base: str) -> list[str]:
    """Fetch the start page, every local page it and they link to, and every asset any of
    them references (scripts' imports included); returns the paths fetched."""
    seen: set[str] = set()
    # the start page draws its game links from the registry (GET /api/games) in the browser,
    # so each game's page is taken from there as well as from the pages' own links
    listing, _kind = fetch(base, "/api/games")
    games = json.loads(listing).get("games", [])
    todo = ["/", "/review", *(str(g["page"]).split("?")[0] for g in games if g.get("page"))]
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        body, kind = fetch(base, path)
        print(f"    200 {path}", flush=True)
        refs: list[str] = []
        if "html" in kind:
            links = _Links()
            links.feed(body)
            refs = [*links.pages, *links.assets]
        elif path.endswith(".js"):
            refs = _IMPORT.findall(body)
        elif path.endswith(".css"):
            refs = _CSS_URL.findall(body)
        for ref in refs:
            local = _local(ref)
            if local is not None and local not in seen:
                todo.append(local)
    pages = [p for p in seen if not p.startswith(("/static/", "/api/", "/openapi"))]
    if len(pages) < 5:  # the start page and one page per game
        raise SmokeError(f"the start page links to too few pages: {sorted(pages)}")
    if not any(p.endswith(".js") for p in seen) or not any(p.endswith(".css") for p in seen):
        raise SmokeError(f"no script or stylesheet was referenced: {sorted(seen)}")
    return sorted(seen)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


def serve_and_crawl(stratagem: Path, cwd: Path, env: dict[str, str]) -> list[str]:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = cwd / "serve.log"
    with log.open("w") as out:
        server = subprocess.Popen(
            [str(stratagem), "serve", "--host", "127.0.0.1", "--port", str(port)],
            cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
        )  # fmt: skip
    try:
        deadline = time.monotonic() + SERVER_START_LIMIT
        while True:
            if server.poll() is not None:
                raise SmokeError(f"stratagem serve exited with {server.returncode}:\n"
                                 f"{log.read_text()[-4000:]}")  # fmt: skip
            try:
                fetch(base, "/api/games")
                break
            except SmokeError:
                if time.monotonic() > deadline:
                    raise SmokeError(
                        f"stratagem serve did not answer within {SERVER_START_LIMIT:.0f} s:\n"
                        f"{log.read_text()[-4000:]}"
                    ) from None
                time.sleep(0.25)
        return crawl(base)
    finally:
        server.send_signal(signal.SIGINT)  # as Ctrl-C stops it
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def smoke(wheel: Path | None, keep: bool) -> dict[str, float]:
    """Run every check; returns the time of each step in seconds."""
    times: dict[str, float] = {}
    home = Path(tempfile.mkdtemp(prefix="stratagem-smoke-"))
    if home.resolve().is_relative_to(ROOT):
        raise SmokeError(f"the temporary folder {home} is inside the repository")
    try:
        if wheel is None:
            t = step("build the wheel")
            wheel = build_wheel(home / "dist")
            times["build"] = done(t)
        print(f"    wheel: {wheel} ({wheel.stat().st_size:,} bytes)")
        # Nothing of the caller's Python set-up leaks in: with PYTHONPATH on the source tree,
        # pip would take the tree's egg-info for an installed stratagem and skip the wheel.
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        env.pop("VIRTUAL_ENV", None)
        t = step(f"fresh venv in {home / 'venv'} and pip install '{wheel.name}[web]'")
        venv = home / "venv"
        run([sys.executable, "-m", "venv", str(venv)], home, env)
        bindir = venv / ("Scripts" if os.name == "nt" else "bin")
        python = bindir / "python"
        # --no-compile: byte code is written on first import instead of for every module
        # of the dependencies at install (a shorter install; the same files otherwise).
        run([str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check",
             "--no-compile", f"{wheel.resolve()}[web]"], home, env)  # fmt: skip
        times["install"] = done(t)

        env.setdefault("STRATAGEM_CACHE_DIR", str(home / "cache" / "stratagem"))
        env.setdefault("NUMBA_CACHE_DIR", str(home / "cache" / "numba"))
        env["PATH"] = f"{bindir}{os.pathsep}{env.get('PATH', '')}"
        stratagem = bindir / "stratagem"

        t = step("the installed copy is the one that runs")
        where = run([str(python), "-c", "import stratagem; print(stratagem.__file__)"], home, env)
        if not Path(where.strip()).resolve().is_relative_to(venv.resolve()):
            raise SmokeError(f"stratagem was imported from {where.strip()}, not from the venv")
        run([str(stratagem), "--help"], home, env, "scrabble")
        times["help"] = done(t)

        # The game commands run side by side, one a core (most of their time is numba
        # compiling on one core).
        t = step("one command per game: " + "; ".join(" ".join(a) for a, _ in GAME_COMMANDS))
        with ThreadPoolExecutor(max_workers=min(len(GAME_COMMANDS), os.cpu_count() or 1)) as pool:
            jobs = [
                (args, pool.submit(_timed, [str(stratagem), *args], home, env, expect))
                for args, expect in GAME_COMMANDS
            ]
            for args, job in jobs:
                text, took = job.result()
                print(f"    stratagem {' '.join(args)}  ({took:.1f} s)")
                print("      " + "\n      ".join(text.strip().splitlines()[-3:]))
                times[args[0]] = took
        times["games"] = done(t)

        t = step("stratagem serve: every page and what it references")
        fetched = serve_and_crawl(stratagem, home, env)
        print(f"    {len(fetched)} paths, all HTTP 200")
        times["serve"] = done(t)
    finally:
        if keep:
            print(f"kept {home}")
        else:
            shutil.rmtree(home, ignore_errors=True)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--wheel", type=Path, help="a built wheel (default: build one)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary venv")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    try:
        times = smoke(args.wheel, args.keep)
    except SmokeError as exc:
        print(f"wheel smoke test FAILED: {exc}", file=sys.stderr)
        return 1
    parts = ", ".join(f"{k} {v:.0f} s" for k, v in times.items())
    print(f"wheel smoke test passed in {time.perf_counter() - start:.0f} s ({parts})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
