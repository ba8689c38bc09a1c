"""The generic play page, My games and the start page in the browser, with the recipe
game Nim (added by its folder alone): a game by keys and clicks, takeback, "New game"
asks first, reload and a server restart find the game as it was; axe-core's checks."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import stratagem.games

from .conftest import LiveServer, Serve
from .pages import serious_violations

RECIPES = Path(__file__).resolve().parents[1] / "core" / "recipes"
YOU_TO_MOVE = "(you) to move"


@pytest.fixture(scope="module")
def nim_games() -> Iterator[None]:
    """The recipe game among stratagem's games for this module's servers."""
    stratagem.games.__path__.append(str(RECIPES))
    yield
    stratagem.games.__path__.remove(str(RECIPES))
    for name in [m for m in sys.modules if m.startswith("stratagem.games.nim")]:
        del sys.modules[name]


class Site:
    """A server of the app on a data folder, which can be restarted (a new app, a new
    port, the same folder)."""

    def __init__(self, data: Path, serve: Serve) -> None:
        self.data = data
        self.serve = serve
        self.server: LiveServer | None = None
        self.url = ""

    def start(self) -> str:
        self.server = self.serve(self.data)
        self.url = self.server.url
        return self.url

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()

    def restart(self) -> str:
        self.stop()
        return self.start()


@pytest.fixture()
def site(nim_games: None, serve: Serve, tmp_path: Path) -> Iterator[Site]:
    s = Site(tmp_path / "data", serve)
    s.start()
    yield s
    s.stop()


@pytest.fixture()
def tab(browser: Any) -> Iterator[Any]:
    """A page (no base URL: the site's URL changes when it restarts); script errors fail."""
    context = browser.new_context(viewport={"width": 1100, "height": 850})
    p = context.new_page()
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.set_default_timeout(60_000)
    yield p
    context.close()
    assert not errors, f"script errors on the page: {errors}"


def line(page: Any) -> list[str]:
    return [str(t) for t in page.locator("#line li").all_inner_texts()]


def wait_for_you(page: Any, moves_before: int) -> None:
    """The agents have answered: the person is to move (or the game is over) and the line
    grew past ``moves_before``."""
    page.wait_for_function(
        """(n) => document.querySelectorAll('#line li').length > n &&
             /(you\\) to move|is over)/.test(document.getElementById('status').textContent)""",
        arg=moves_before,
    )


def test_a_game_of_nim_with_takeback_reload_and_a_restart(
    site: Site, tab: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    tab.goto(site.url + "/play?game=nim")
    tab.wait_for_selector("#setup:not([hidden])")
    assert tab.locator("#seat1").input_value() == "four"  # an opponent from the registry
    tab.select_option("#rules", "nim-12")
    tab.fill("#seed", "4")
    tab.click("#start")
    tab.wait_for_selector(f"#status:has-text('{YOU_TO_MOVE}')")
    assert "id=ses-" in tab.url and "game=nim" in tab.url
    # the legal decisions are buttons, reachable by keys
    assert tab.locator("#decisions button").count() >= 1
    tab.locator("#decisions button").first.focus()
    assert tab.evaluate("() => document.activeElement.dataset.decision") == "1"
    n = len(line(tab))
    tab.keyboard.press("1")
    wait_for_you(tab, n)
    n = len(line(tab))
    tab.click("#decisions button >> nth=0")
    wait_for_you(tab, n)
    played = line(tab)
    assert sum("(you): " in t for t in played) == 2

    tab.click("#takeback")
    tab.wait_for_function(
        "(n) => document.querySelectorAll('#line li').length < n", arg=len(played)
    )
    taken_back = line(tab)
    assert sum("(you): " in t for t in taken_back) == 1
    assert taken_back == played[: len(taken_back)]

    tab.reload()
    tab.wait_for_selector(f"#status:has-text('{YOU_TO_MOVE}')")
    assert line(tab) == taken_back

    # "New game" during a game asks first; declined, the game stays
    asked: list[str] = []
    tab.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
    tab.click("#new-game")
    assert asked and "Leave the game in progress" in asked[0]
    assert tab.locator("#setup").is_hidden()

    url = tab.url
    new_base = site.restart()
    tab.goto(new_base + url[url.index("/play") :])
    tab.wait_for_selector(f"#status:has-text('{YOU_TO_MOVE}')")
    assert line(tab) == taken_back
    assert tab.locator("#storage-note").count() == 0 or tab.locator("#storage-note").is_hidden()
    assert serious_violations(tab) == []
    screenshot(tab, "play-nim")


def test_my_games_lists_the_game_with_links_to_resume_and_review(
    site: Site, tab: Any, screenshot: Callable[[Any, str], Path]
) -> None:
    tab.goto(site.url + "/play?game=nim")
    tab.wait_for_selector("#setup:not([hidden])")
    tab.click("#start")
    tab.wait_for_selector(f"#status:has-text('{YOU_TO_MOVE}')")
    sid = tab.url.split("id=")[1]
    tab.goto(site.url + "/games")
    tab.wait_for_selector(f"#my-games tr[data-id='{sid}']")
    row = tab.locator(f"#my-games tr[data-id='{sid}']")
    assert "Nim" in row.inner_text() and "in progress" in row.inner_text()
    assert row.locator("a.resume").get_attribute("href") == f"/play?game=nim&id={sid}"
    assert row.locator("a.review").get_attribute("href") == f"/review?id={sid}"
    assert serious_violations(tab) == []
    screenshot(tab, "my-games")
    row.locator("a.resume").click()
    tab.wait_for_selector(f"#status:has-text('{YOU_TO_MOVE}')")
    assert sid in tab.url


def test_the_start_page_and_navigation_list_the_registry_games(site: Site, tab: Any) -> None:
    tab.goto(site.url + "/")
    tab.wait_for_selector("#game-nim")
    assert tab.locator("#game-nim a").first.get_attribute("href") == "/play?game=nim"
    nav = tab.locator("header.site nav a", has_text="Nim")
    assert nav.get_attribute("href") == "/play?game=nim"
    assert tab.locator("header.site nav a", has_text="My games").count() == 1
    assert serious_violations(tab) == []


def test_an_opponents_typed_parameters_come_from_the_registry(site: Site, tab: Any) -> None:
    tab.goto(site.url + "/play?game=pig")
    tab.wait_for_selector("#setup:not([hidden])")
    tab.select_option("#seat1", "hold")
    n = tab.locator("#seat1-n")
    spec = next(
        a
        for a in tab.evaluate("async () => (await (await fetch('/api/games')).json()).games")
        if a["name"] == "pig"
    )
    (param,) = next(a for a in spec["agents"] if a["name"] == "hold")["params"]
    assert n.get_attribute("min") == str(param["min"]) and n.get_attribute("max") == str(
        param["max"]
    )
    n.fill("7")
    tab.click("#start")
    tab.wait_for_selector(f"#status:has-text('{YOU_TO_MOVE}')")
    sid = tab.url.split("id=")[1]
    seats = tab.evaluate(f"async () => (await (await fetch('/api/sessions/{sid}')).json()).seats")
    assert seats == ["human", "hold:n=7"]
