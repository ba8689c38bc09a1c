"""The Pig page as a renderer of a play session, in chromium: play, take back two of your
decisions, reload, restart the server on the same data folder and find the game as it
was; against ``hold:25`` the hints are the best reply to it; a whole game with the keys
alone; a phone's width; axe-core finds no serious problem."""

from __future__ import annotations

import json
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from stratagem.games.pig.coach import PigCoaching
from stratagem.games.pig.rules import preset
from stratagem.games.pig.state import PigState
from tests.web.conftest import _free_port

DESKTOP = {"width": 1200, "height": 900}


@contextmanager
def serving(data: Path) -> Iterator[str]:
    """A server of a new app on the games folder ``data`` (a restart is a second one)."""
    import uvicorn

    from stratagem.web.app import create_app

    port = _free_port()
    server = uvicorn.Server(
        uvicorn.Config(
            create_app(tables="cached", data=data),
            host="127.0.0.1",
            port=port,
            log_level="warning",
        )
    )
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started:
        assert time.monotonic() < deadline and thread.is_alive(), "the server did not start"
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@contextmanager
def opened(browser: Any, base: str, **options: Any) -> Iterator[Any]:
    context = browser.new_context(base_url=base, **options)
    page = context.new_page()
    page.set_default_timeout(120_000)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        yield page
    finally:
        context.close()
    assert not errors, f"script errors on the page: {errors}"


def get(base: str, path: str) -> Any:
    with urllib.request.urlopen(base + path, timeout=60) as r:
        return json.loads(r.read())


def ready(page: Any) -> dict[str, Any]:
    """Wait until the page waits for your decision (or the game is over) with the coach's
    chances shown; the game's id."""
    page.wait_for_function(
        "() => ['yours', 'over'].includes(document.body.dataset.state) && "
        "!document.querySelector('#meter .label').textContent.includes('solving')"
    )
    sid = page.evaluate("new URLSearchParams(location.search).get('id')")
    assert sid
    return {"id": sid}


def start(page: Any, url: str) -> str:
    page.goto(url)
    page.locator("body[data-state=setup]").wait_for()
    page.locator("#new-game").click()
    return ready(page)["id"]


def shown(page: Any) -> tuple[str, str, str, str]:
    return (
        page.locator("#score-you").inner_text(),
        page.locator("#score-ai").inner_text(),
        page.locator("#turn-total").inner_text(),
        page.locator("#meter .label").inner_text(),
    )


def test_take_back_two_reload_and_restart_find_the_game_as_it_was(
    browser: Any, tmp_path: Path, screenshot: Any
) -> None:
    with (
        serving(tmp_path) as base,
        opened(browser, base, viewport=DESKTOP) as page,
    ):
        sid = start(page, "/pig?ai=hold:25&seed=11")
        seen = []  # (decisions so far, what the page showed) before each of your choices
        for key in "rrhrrhr":
            game = get(base, f"/api/sessions/{sid}")
            if game["over"]:
                break
            seen.append((len(game["decisions"]), shown(page)))
            page.keyboard.press(key)
            ready(page)
        assert len(seen) >= 5
        page.keyboard.press("t")
        ready(page)
        page.keyboard.press("t")
        ready(page)
        decisions, picture = seen[-2]
        game = get(base, f"/api/sessions/{sid}")
        assert len(game["decisions"]) == decisions
        assert shown(page) == picture
        assert len(get(base, f"/api/sessions/{sid}/record")["takebacks"]) >= 2
        screenshot(page, "pig-takeback")
        page.reload()
        ready(page)
        assert shown(page) == picture
    with (
        serving(tmp_path) as base2,
        opened(browser, base2, viewport=DESKTOP) as page,
    ):
        page.goto(f"/pig?id={sid}")
        ready(page)
        assert shown(page) == picture
        assert len(get(base2, f"/api/sessions/{sid}")["decisions"]) == decisions


def test_against_hold_25_the_hint_is_the_best_reply_not_the_optimum(
    browser: Any, tmp_path: Path
) -> None:
    """At 66 against 58 with 30 in the turn (tests/games/pig/test_reply.py's pinned
    position) the optimum rolls, the best reply to hold:25 holds. The page's hint at the
    position it reaches shows the coach's rows for hold:25, which equal the best reply's."""
    coach = PigCoaching(preset("pig"), ["human", "hold:25"])
    pinned = PigState(preset("pig"), scores=(66, 58), player=0, turn_total=30)
    rows = coach.rows(pinned)
    assert rows[0]["action"] == "hold" and rows[0]["optimal_value"] < rows[1]["optimal_value"]
    with (
        serving(tmp_path) as base,
        opened(browser, base, viewport=DESKTOP) as page,
    ):
        sid = start(page, "/pig?ai=hold:25&seed=4")
        page.keyboard.press("?")
        page.locator("#hint-box:not(.hidden) #hint-best").wait_for()
        advice = get(base, f"/api/sessions/{sid}/advice")["rows"]
        best = page.locator("#hint-best").inner_text()
        assert best == advice[0]["action"]
        assert "the optimum's" in page.locator("#hint-box").inner_text()
        assert "hold:25" in page.locator("#coach-line").inner_text()
        text = page.locator("#hint-box").inner_text()
        assert f"{100 * advice[0]['value']:.2f}%" in text
        assert f"{100 * advice[0]['optimal_value']:.2f}%" in text
