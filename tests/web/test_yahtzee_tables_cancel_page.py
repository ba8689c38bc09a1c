"""The Yahtzee page's table build can be cancelled: the banner's Cancel stops the real
build on the server (its half-written cache file goes), the banner goes, and the game goes
on without the tables (issue 35, item 4)."""

from __future__ import annotations

import json
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from stratagem.games.yahtzee import match
from stratagem.games.yahtzee.coach import solved as solved_table
from stratagem.games.yahtzee.rules import preset

from .conftest import SCREENSHOTS, LiveServer, Serve
from .pages import call, open_page, serious_violations

WAIT = 120.0
"""The most any step waits for the server (a loaded machine); a step ends as soon as its
condition holds."""


@pytest.fixture()
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty table cache for the server (it reads the variable on every use), and none
    of the remaining-score tables in this process's memory: an earlier test in the same
    worker (a game against an AI) loads them from the user's cache, and the server then
    had nothing to build (a failure met only when the browser tests ran together)."""
    folder = tmp_path / "cache"
    folder.mkdir()
    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(folder))
    monkeypatch.setattr(match, "_TABLES", {})
    return folder


@pytest.fixture()
def site(serve: Serve, tmp_path: Path, cache: Path) -> LiveServer:
    """A server that builds the remaining-score tables (``tables="build"``) into an empty
    table cache, so a new two-player game starts a real build of them (about a minute of
    CPU: far longer than the test needs to cancel it)."""
    solved_table(preset("yahtzee"))  # the expected-score table: in the process's memo
    return serve(tmp_path / "data", tables="build")


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


def _two_player_game(browser: Any, site: LiveServer, **context: Any) -> Any:
    """A page with a new game against the optimum, its table build running."""
    page = open_page(browser, site.url, "/yahtzee", **context)
    page.wait_for_selector("#setup:not([hidden])")
    page.select_option("#rules", "yahtzee")
    page.select_option("#opponents", "1")
    page.fill("#seed", "5")
    page.click("#start")
    page.wait_for_selector("#dice .die")
    page.wait_for_selector("#tables-panel:not(.hidden) #tables-cancel:not([hidden])")
    return page


def test_a_cancelled_table_build_stops_and_the_game_goes_on(
    browser: Any, site: LiveServer, cache: Path
) -> None:
    # the build runs: the banner shows its progress and a Cancel control
    page = _two_player_game(browser, site)
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
    # the game goes on: the card still shows what each box would score (no tables
    # needed), the player scores one and the optimum (no tables either) plays its turn
    sid = page.evaluate("new URLSearchParams(location.search).get('id')")
    made = len(call(f"{site.url}/api/sessions/{sid}")["decisions"])
    box = page.locator("table.card button.score").first
    assert box.inner_text().strip() != ""
    box.click()

    def moved_on() -> bool:
        view = call(f"{site.url}/api/sessions/{sid}")
        return bool(view["human_to_move"] and len(view["decisions"]) > made + 1)

    _until(moved_on, "the game did not go on after the cancel")
    assert not page.is_visible("#tables-panel")  # nothing started the build again
    assert _tables(site.url)["remaining"]["state"] == "cancelled"
    assert not page.errors, page.errors
    page.context.close()


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_after_a_cancel_the_hint_ranks_by_expected_score_and_says_why(
    browser: Any, site: LiveServer, cache: Path, size: str
) -> None:
    # issue 35 item 4: "the game goes on with the advice that does not need them"; before,
    # the hint and the verdicts answered "coach not ready" for the whole game
    phone = {"viewport": {"width": 390, "height": 844}, "color_scheme": "dark"}
    page = _two_player_game(browser, site, **(phone if size == "phone" else {}))
    basis = page.locator("#advice-basis")
    assert "expected final scores" in basis.inner_text()
    assert "running" in basis.inner_text()
    page.click("#tables-cancel")
    page.wait_for_function(
        "document.querySelector('#advice-basis').textContent.includes('cancelled')"
    )
    assert "chance-of-winning column appears once" in basis.inner_text()
    page.keyboard.press("h")
    page.wait_for_selector("#hint-table tbody tr")
    heads = page.locator("#hint-table thead th").all_inner_texts()
    assert "expected final score" in heads and "chance of winning" not in heads
    assert "not ready" in page.inner_text("#hint-note")
    # the rows are the solved table's expected final scores, best first
    sid = page.evaluate("new URLSearchParams(location.search).get('id')")
    advice = call(f"{site.url}/api/sessions/{sid}/advice")
    assert advice["unit"]["percent"] is False
    assert all("win_chance" not in r for r in advice["rows"])
    values = [r["value"] for r in advice["rows"]]
    assert values == sorted(values, reverse=True) and 150 < values[0] < 400
    shown = page.locator("#hint-table tbody tr").first.locator("td.num").first.inner_text()
    assert shown == f"{values[0]:.2f}"
    # keyboard: the hint's best row has the focus; Enter plays it and the game goes on
    assert page.evaluate("document.activeElement.matches('#hint-table button.play')")
    assert serious_violations(page) == []
    if size == "phone":
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOTS / f"yahtzee-tables-cancelled-{size}.png"), full_page=True)
    made = len(call(f"{site.url}/api/sessions/{sid}")["decisions"])
    page.keyboard.press("Enter")
    page.wait_for_selector("#last-cost")
    assert "expected points" in page.inner_text("#feedback") or "best" in page.inner_text(
        "#last-cost"
    )
    assert len(call(f"{site.url}/api/sessions/{sid}")["decisions"]) > made
    assert "could not judge" not in page.inner_text("#feedback")
    # the build stops at its next progress report, and nothing started it again
    _until(lambda: _tables(site.url)["remaining"]["state"] == "cancelled",
           "the server never reported the build cancelled")  # fmt: skip
    # until the player asks for it again, from the line that says why
    page.click("#tables-again")
    page.wait_for_selector("#tables-panel:not(.hidden) #tables-cancel:not([hidden])")
    _until(lambda: _tables(site.url)["remaining"]["state"] == "building",
           "the build did not start again")  # fmt: skip
    assert "running" in basis.inner_text()
    page.click("#tables-cancel")  # not to spend the machine on it
    _until(lambda: _tables(site.url)["remaining"]["state"] == "cancelled",
           "the second build was not cancelled")  # fmt: skip
    assert not page.errors, page.errors
    page.context.close()
