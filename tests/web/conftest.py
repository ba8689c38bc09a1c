"""Fixtures of the web tests: the app in-process, a live server, a headless browser.

Browser tests drive Debian's ``chromium`` package through Playwright for Python
(Playwright's own browser download does not work on these machines). They are
skipped, with the reason, only when chromium or Playwright is missing;
``.ci/run`` installs chromium.
"""

from __future__ import annotations

import shutil
import socket
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

fastapi = pytest.importorskip("fastapi", reason="the web extra (fastapi) is not installed")

from fastapi.testclient import TestClient  # noqa: E402

from stratagem.web.app import create_app  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--headless",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every browser test in one pytest-xdist group (``--dist loadgroup``): one worker starts
    the one chromium and the one live server that they share."""
    for item in items:
        if {"page", "phone", "browser", "live_server"} & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.xdist_group("browser"))


@pytest.fixture(scope="session")
def app() -> Any:
    """One app for the API tests (large tables are never loaded: off)."""
    return create_app(tables="off", max_mcts_sims=500)


@pytest.fixture(scope="session")
def client(app: Any) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class LiveServer:
    """An app served by uvicorn on 127.0.0.1 (a free port) in a thread, from its making
    until :meth:`stop`. A new one of a new app on the same games folder is a server
    restart. As a context manager it gives its URL and stops at the block's end:
    ``with LiveServer(app) as url: ...``."""

    def __init__(self, app: Any, timeout: float = 30.0) -> None:
        import uvicorn

        self.port = _free_port()
        config = uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + timeout
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{self.port}"

    def stop(self, timeout: float = 20.0) -> None:
        """Ends the server (again: nothing)."""
        self.server.should_exit = True
        self.thread.join(timeout=timeout)

    def __enter__(self) -> str:
        return self.url

    def __exit__(self, *exc: object) -> None:
        self.stop()


Serve = Callable[..., LiveServer]
"""``serve(data=None, tables="off")``: a :class:`LiveServer` of a new app on the games
folder ``data`` (the :func:`serve` fixture)."""


@pytest.fixture()
def serve() -> Iterator[Serve]:
    """Serves a new app: ``serve(data, tables=...)`` -> a :class:`LiveServer`; a second one
    on the same folder is a server restart. Every server started is stopped at the end."""
    started: list[LiveServer] = []

    def start(data: Path | None = None, tables: str = "off") -> LiveServer:
        server = LiveServer(create_app(tables=tables, data=data))
        started.append(server)
        return server

    yield start
    for server in started:
        server.stop()


@pytest.fixture(scope="session")
def live_server() -> Iterator[str]:
    """The app served by uvicorn on 127.0.0.1 in a thread; yields the base URL."""
    with LiveServer(create_app(tables="cached")) as url:
        yield url


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Debian chromium driven by Playwright (skips if either is missing)."""
    if shutil.which(CHROMIUM) is None and not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is missing (apt-get install chromium; .ci/run does it)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("playwright for Python is not installed (pip install playwright)")
    pw = sync_playwright().start()
    try:
        b = pw.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
    except Exception as exc:
        pw.stop()
        pytest.skip(f"chromium did not start under Playwright: {exc}")
    yield b
    b.close()
    pw.stop()


@pytest.fixture()
def page(browser: Any, live_server: str) -> Iterator[Any]:
    """A fresh page (desktop size) whose relative URLs point at the live server.

    Any uncaught script error on the page fails the test.
    """
    context = browser.new_context(base_url=live_server, viewport={"width": 1200, "height": 900})
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    # generous: a cold cache solves a rule set (seconds to a minute on a busy machine)
    p.set_default_timeout(120_000)
    yield p
    context.close()
    assert not errors, f"script errors on the page: {errors}"


@pytest.fixture()
def phone(browser: Any, live_server: str) -> Iterator[Any]:
    """A phone-sized page in dark mode."""
    context = browser.new_context(
        base_url=live_server,
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        color_scheme="dark",
        is_mobile=True,
        has_touch=True,
    )
    p = context.new_page()
    p.set_default_timeout(120_000)
    yield p
    context.close()


@pytest.fixture()
def screenshot() -> Callable[[Any, str], Path]:
    """``screenshot(page, name)`` saves docs/screenshots/<name>.png (the full page)."""

    def take(p: Any, name: str) -> Path:
        SCREENSHOTS.mkdir(parents=True, exist_ok=True)
        path = SCREENSHOTS / f"{name}.png"
        p.screenshot(path=str(path), full_page=True)
        return path

    return take
