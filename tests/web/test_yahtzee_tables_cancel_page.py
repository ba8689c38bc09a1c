"""The Yahtzee page's table build can be cancelled: the banner's Cancel stops the real
build on the server (its half-written cache file goes), the banner goes, and the game goes
on with the advice that needs no tables (issue 35, item 4)."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stratagem.games.yahtzee.coach import solved as solved_table
from stratagem.games.yahtzee.rules import preset
from stratagem.web.app import create_app

from .conftest import _free_port
from .test_yahtzee_session_page import call, open_page

WAIT = 120.0
"""The most any step waits for the server (a loaded machine); a step ends as soon as its
condition holds."""


class BuildingSite:
    """A server that builds the remaining-score tables (``tables="build"``) into an empty
    table cache, so a new two-player game starts a real build of them (about a minute of
    CPU: far longer than the test needs to cancel it)."""

    def __init__(self, data: Path) -> None:
        import uvicorn

        port = _free_port()
        config = uvicorn.Config(create_app(tables="build", data=data), host="127.0.0.1",
                                port=port, log_level="warning")  # fmt: skip
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.05)
        self.url = f"http://127.0.0.1:{port}"

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty table cache for the server (it reads the variable on every use)."""
    folder = tmp_path / "cache"
    folder.mkdir()
    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(folder))
    return folder


@pytest.fixture()
def site(tmp_path: Path, cache: Path) -> Iterator[BuildingSite]:
    solved_table(preset("yahtzee"))  # the expected-score table: in the process's memo
    s = BuildingSite(tmp_path / "data")
    yield s
    s.stop()


def _tables(url: str) -> dict[str, Any]:
    with urllib.request.urlopen(f"{url}/api/yahtzee/tables/yahtzee", timeout=60) as answer:
        view: dict[str, Any] = json.loads(answer.read())
        return view


def _until(condition: Any, what: str) -> Any:
    deadline = time.monotonic() + WAIT
    while True:
        value = condition()
        if value:
            return value
        assert time.monotonic() < deadline, what
        time.sleep(0.2)


def test_a_cancelled_table_build_stops_and_the_game_goes_on(
    browser: Any, site: BuildingSite, cache: Path
) -> None:
    page = open_page(browser, site.url, "/yahtzee")
    page.wait_for_selector("#setup:not([hidden])")
    page.select_option("#rules", "yahtzee")
    page.select_option("#opponents", "1")
    page.fill("#seed", "5")
    page.click("#start")
    page.wait_for_selector("#dice .die")
    # the build runs: the banner shows its progress and a Cancel control
    page.wait_for_selector("#tables-panel:not(.hidden) #tables-cancel:not([hidden])")
    _until(lambda: "remaining-score tables" in page.inner_text("#tables-text"),
           "the banner never said what it builds")  # fmt: skip
    _until(lambda: (_tables(site.url)["remaining"]["progress"] or 0) > 0.05,
           "the build never got past its start")  # fmt: skip
    assert _tables(site.url)["remaining"]["state"] == "building"
    page.click("#tables-cancel")
    page.wait_for_selector("#tables-panel.hidden", state="attached")
    assert not page.is_visible("#tables-panel")
    # the server stops the build and says so; its half-written file is gone
    view = _until(lambda: (v := _tables(site.url))["remaining"]["state"] == "cancelled" and v,
                  "the server never reported the build cancelled")  # fmt: skip
    assert view["remaining"]["message"] == "cancelled by the player"
    assert view["remaining_cached"] is False
    _until(lambda: not any("remaining" in p.name for p in cache.rglob("*")),
           "the half-written remaining-score file stayed in the cache")  # fmt: skip
    # the game goes on with the advice that needs no tables: a hint by expected score
    page.keyboard.press("h")
    page.wait_for_selector("#hint-table tbody tr")
    heads = page.locator("#hint-table thead th").all_inner_texts()
    assert "expected final score" in heads and "chance of winning" not in heads
    sid = page.evaluate("new URLSearchParams(location.search).get('id')")
    made = len(call(f"{site.url}/api/sessions/{sid}")["decisions"])
    page.locator("#hint-table button.play").first.click()
    _until(lambda: len(call(f"{site.url}/api/sessions/{sid}")["decisions"]) > made,
           "the game did not go on after the cancel")  # fmt: skip
    assert not page.is_visible("#tables-panel")  # nothing started the build again
    assert _tables(site.url)["remaining"]["state"] == "cancelled"
    assert not page.errors, page.errors
    page.context.close()
