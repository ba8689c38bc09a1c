"""The Scrabble page as a renderer of a session, in chromium: a game played, two moves taken
back, the page reloaded and the server restarted on the same games file, and the game found
as it was; the board by keys alone and on a phone; a finished game's review priced by the
coach; a reviewed move opened in the assistant."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stratagem.web.app import create_app
from tests.web.conftest import LiveServer, Serve
from tests.web.pages import serious_violations

DATA = Path(__file__).resolve().parents[1] / "games" / "scrabble" / "data"
YOUR_MOVE = "() => document.getElementById('status').textContent === 'Your move'"


@pytest.fixture()
def games_dir(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / "games"


def new_page(browser: Any, **context: Any) -> Any:
    ctx = browser.new_context(**({"viewport": {"width": 1200, "height": 900}} | context))
    page = ctx.new_page()
    page.set_default_timeout(120_000)
    page.on("dialog", lambda d: d.accept())  # "New game" asks first
    return page


def moves_logged(page: Any) -> int:
    return int(page.evaluate("() => document.querySelectorAll('#history > div:not(.end)').length"))


def shown(page: Any) -> dict[str, Any]:
    """What the page shows of the game: the board's letters, the rack, the scores."""
    return dict(
        page.evaluate(
            """() => ({
        board: [...document.querySelectorAll('#board .sc-sq')]
          .map((b) => b.getAttribute('aria-label')),
        rack: [...document.querySelectorAll('#rack button')]
          .map((b) => b.getAttribute('aria-label')),
        you: document.getElementById('your-score').textContent,
        ai: document.getElementById('ai-score').textContent,
        moves: document.querySelectorAll('#history > div').length,
    })"""
        )
    )


def slow_new_games(app: Any, seconds: float = 1.5) -> Any:
    """``app`` answering new games late, as a loaded server does (the browser tests run in
    parallel workers): a test that waits for time rather than for state fails against it."""

    async def late(scope: Any, receive: Any, send: Any) -> None:
        new = scope["type"] == "http" and scope["method"] == "POST"
        if new and scope["path"] == "/api/sessions":
            await asyncio.sleep(seconds)
        await app(scope, receive, send)

    return late


def new_game_against(page: Any, ai: str, ai_first: bool = False) -> str:
    """Start a game against ``ai`` from the page's form and return its id, waiting for the
    states it needs rather than for time: the game the page starts by itself when opened
    is there first (its id in the URL, the person to move or the AI thinking), then the
    new one replaces it (another id in the URL, whose seats the server names)."""
    page.wait_for_function("() => new URLSearchParams(location.search).get('id')")
    page.wait_for_function("() => !document.getElementById('new-game').disabled")
    old = page.evaluate("() => new URLSearchParams(location.search).get('id')")
    page.select_option("#ai", ai)
    page.set_checked("#ai-first", ai_first)
    page.click("#new-game")
    page.wait_for_function(
        "(old) => { const id = new URLSearchParams(location.search).get('id');"
        " return id && id !== old; }",
        arg=old,
    )
    sid = str(page.evaluate("() => new URLSearchParams(location.search).get('id')"))
    seats = page.request.get(f"/api/sessions/{sid}").json()["seats"]
    assert ai in [s.split(":")[0] for s in seats], seats
    return sid


def play_best(page: Any) -> None:
    """Play the coach's best move by the move box, and wait for the AI's reply."""
    before = moves_logged(page)
    page.click("#hint")
    page.wait_for_selector("#hint-panel:not(.hidden) #hint-table tbody tr")
    page.locator("#hint-table tbody tr").first.click()
    page.click("#play-move")
    page.wait_for_function(
        f"() => document.querySelectorAll('#history > div:not(.end)').length >= {before + 2}"
    )
    page.wait_for_function(YOUR_MOVE)


def test_a_game_survives_takeback_reload_and_a_server_restart(
    browser: Any, serve: Serve, games_dir: Path
) -> None:
    server = LiveServer(slow_new_games(create_app(tables="cached", data=games_dir)))
    try:
        page = new_page(browser, base_url=server.url)
        page.goto("/scrabble")
        sid = new_game_against(page, "greedy")
        page.wait_for_function(YOUR_MOVE)
        for _ in range(3):
            play_best(page)
        assert moves_logged(page) == 6
        after_one = None
        for k in range(2):
            page.click("#takeback")
            page.wait_for_function(
                "() => document.querySelectorAll('#history > div:not(.end)').length"
                f" === {4 - 2 * k}"
            )
            page.wait_for_function(YOUR_MOVE)
            if k == 0:
                after_one = shown(page)
        taken_back = shown(page)
        assert taken_back["moves"] == 2 and taken_back != after_one
        page.reload()
        page.wait_for_function(YOUR_MOVE)
        assert shown(page) == taken_back
        assert serious_violations(page) == []
    finally:
        server.stop()
    restarted = serve(games_dir, tables="cached")  # a new app on the same games file
    try:
        page = new_page(browser, base_url=restarted.url)
        page.goto(f"/scrabble?id={sid}")
        page.wait_for_function(YOUR_MOVE)
        assert shown(page) == taken_back
        listed = page.evaluate("() => fetch('/api/sessions').then((r) => r.json())")
        assert sid in [g["id"] for g in listed["games"]]
    finally:
        restarted.stop()


def test_the_board_is_reached_by_tab_and_played_by_keys(page: Any) -> None:
    page.on("dialog", lambda d: d.accept())
    page.goto("/scrabble")
    page.wait_for_function(YOUR_MOVE)
    page.focus("#hint")  # the board comes before the move form: go back to it
    for _ in range(40):
        page.keyboard.press("Shift+Tab")
        if page.evaluate("() => document.activeElement.classList.contains('sc-sq')"):
            break
    square = page.evaluate(
        "() => [document.activeElement.dataset.r, document.activeElement.dataset.c]"
    )
    assert square == ["7", "7"]  # one square takes Tab: the centre
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("() => document.activeElement.dataset.c") == "6"
    letter = page.evaluate(
        "() => [...document.querySelectorAll('#rack button')]"
        ".map((b) => b.getAttribute('aria-label')).find((l) => l.startsWith('tile '))"
    )[-1]
    page.keyboard.press(letter.lower())
    laid = page.locator("#board .sc-sq.pending")
    assert laid.count() == 1 and laid.first.get_attribute("data-c") == "6"
    assert page.input_value("#move").startswith("8G " + letter)
    page.keyboard.press("Backspace")  # the focus moved on: lift from where it is not laid
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Backspace")
    assert page.locator("#board .sc-sq.pending").count() == 0


def test_on_a_phone_every_square_is_at_least_24_px_and_nothing_overflows(
    browser: Any, live_server: str
) -> None:
    page = new_page(
        browser, base_url=live_server, viewport={"width": 390, "height": 844},
        device_scale_factor=2, is_mobile=True, has_touch=True, color_scheme="dark",
    )  # fmt: skip
    page.goto("/scrabble")
    page.wait_for_function(YOUR_MOVE)
    sizes = page.evaluate(
        "() => [...document.querySelectorAll('#board .sc-sq')].map((b) => "
        "[b.getBoundingClientRect().width, b.getBoundingClientRect().height])"
    )
    assert len(sizes) == 225 and min(min(w, h) for w, h in sizes) >= 24
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert serious_violations(page) == []


def test_a_finished_games_review_is_the_coachs_and_a_move_opens_in_the_assistant(
    page: Any, screenshot: Any
) -> None:
    from stratagem.core.registry import load_game
    from stratagem.core.session import Session

    text = (DATA / "selfplay_2.gcg").read_text()
    made = page.request.post("/api/sessions/import", data={"record": text, "format": "gcg"})
    assert made.status == 201, made.text()
    sid = made.json()["id"]
    review = page.request.get(f"/api/sessions/{sid}/review").json()
    # the review's numbers are the coach's judge of the same decisions, in Python
    record = page.request.get(f"/api/sessions/{sid}/record").json()
    session = Session.from_record(record)
    game = load_game("scrabble")
    assert game.coaching is not None
    coach = game.coaching(game.rules_object(session.rules))
    for d in review["decisions"]:
        judged = coach.judge(session.state_at(d["decision"]), d["played"])
        assert (d["cost"], d["best"], d["label"]) == (judged.cost, judged.best, judged.label)
    assert review["unit"]["name"] == "points of equity" and review["finished"]

    page.goto(f"/scrabble?id={sid}")
    page.wait_for_function(
        "() => document.getElementById('status').textContent.startsWith('game over')"
    )
    assert page.get_attribute("#review-link", "href") == f"/review?id={sid}"

    costly = max(review["decisions"], key=lambda d: d["cost"])
    page.goto(f"/scrabble?mode=assistant&id={sid}&at={costly['decision']}")
    page.wait_for_selector("#a-recorded:not(.hidden)")
    box = page.inner_text("#a-recorded")
    assert costly["played"] in box and costly["best"] in box
    assert f"{costly['cost']:.1f}" in box.replace("−", "-")
    assert page.locator("#a-table tbody tr").count() >= 1
    assert serious_violations(page) == []  # the assistant too

    reviewed = page.goto(f"/review?id={sid}")
    if reviewed is not None and reviewed.ok:
        page.wait_for_timeout(3000)  # the review page draws from the review API
        screenshot(page, "scrabble-review")
    else:  # no review page in this tree yet: the reviewed move in the assistant
        page.goto(f"/scrabble?mode=assistant&id={sid}&at={costly['decision']}")
        page.wait_for_selector("#a-recorded:not(.hidden)")
        screenshot(page, "scrabble-review")


def test_the_ai_moves_first_when_asked_and_the_game_is_kept(page: Any) -> None:
    page.on("dialog", lambda d: d.accept())
    page.goto("/scrabble")
    page.wait_for_function(YOUR_MOVE)
    page.select_option("#ai", "greedy")
    page.check("#ai-first")
    page.click("#new-game")
    page.wait_for_function(
        "() => document.querySelectorAll('#history > div:not(.end)').length === 1"
    )
    page.wait_for_function(YOUR_MOVE)
    assert page.inner_text("#history").startswith("1. AI: ")
    sid = page.evaluate("() => new URLSearchParams(location.search).get('id')")
    seats = page.evaluate(f"() => fetch('/api/sessions/{sid}').then((r) => r.json())")["seats"]
    assert seats[0].startswith("greedy") and seats[1] == "human"
    assert page.is_disabled("#takeback")  # nothing of yours to take back yet


@pytest.mark.parametrize(
    ("seats", "opponent", "think", "ai_first"),
    [
        (["human", "greedy"], "greedy", "5", False),
        (["heuristic:think=10", "human"], "heuristic", "10", True),
    ],
)
def test_a_game_opened_by_its_url_shows_its_own_opponent(
    page: Any, seats: list[str], opponent: str, think: str, ai_first: bool
) -> None:
    # the form showed its default (equity) for a game against another agent (issue 35)
    body = {"game": "scrabble", "seats": seats, "seed": 4}
    made = page.request.post("/api/sessions", data=body, timeout=120_000)
    assert made.ok, made.text()
    sid = made.json()["id"]
    page.goto(f"/scrabble?mode=play&id={sid}")
    page.wait_for_function(YOUR_MOVE)
    assert page.input_value("#ai") == opponent
    assert page.input_value("#think") == think
    assert page.is_checked("#ai-first") is ai_first
