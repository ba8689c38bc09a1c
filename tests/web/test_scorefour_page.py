"""The Score Four page in chromium: a whole game by clicks, hints, typed moves, the phone layout."""

from __future__ import annotations

from typing import Any

THINKING_DONE = """(n) => document.querySelectorAll('#moves div').length > n
    && !document.getElementById('status').textContent.includes('thinking')"""


def moves_shown(page: Any) -> int:
    return int(page.locator("#moves div").count())


def start(page: Any, look_ahead: str = "2") -> None:
    page.goto("/scorefour")
    page.wait_for_selector("#status:has-text('Your move')")
    page.fill("#da-depth", look_ahead)
    before = page.evaluate("() => location.search")
    page.click("#new-game")
    # The old game also shows no move and "Your move": wait for the new game's id in the URL and
    # for the button to come back, or a key pressed now meets a page still busy with the request.
    page.wait_for_function(
        "(old) => location.search !== old && !document.getElementById('new-game').disabled",
        arg=before,
    )
    page.wait_for_function("() => document.querySelectorAll('#moves div').length === 0")
    page.wait_for_selector("#status:has-text('Your move')")


def test_a_whole_game_by_clicks_following_the_hints(page: Any, screenshot: Any) -> None:
    start(page, look_ahead="1")
    assert page.locator(".sf-cell").count() == 64
    while page.locator("#status").inner_text().startswith("Your move"):
        n = moves_shown(page)
        page.keyboard.press("h")  # the hint, by keyboard
        page.wait_for_selector("#hint-panel:not(.hidden)")
        rows = page.locator("#hint-table tbody tr")
        assert rows.count() >= 1
        best = rows.first.locator("td").first.inner_text()
        # Play it by clicking the peg in the board (any level of that peg drops the bead).
        column, row = "abcd".index(best[0]), int(best[1]) - 1
        page.click(f".sf-cell[data-cell='{row * 4 + column}']")
        page.wait_for_function(THINKING_DONE, arg=n)
        quality = page.locator("#quality").inner_text()
        assert f"{best}: f = " in quality and "as good as the best move" in quality
    status = page.locator("#status").inner_text()
    assert status in ("You win!", "The AI wins.", "The board is full: a draw.")
    if "draw" not in status:
        assert page.locator(".sf-cell.win").count() >= 4
    meter = page.locator("#skill-meter .label").inner_text()
    assert meter.startswith("f = ")
    assert page.locator(".sf-cell:not([disabled])").count() == 0  # the board is closed
    screenshot(page, "scorefour-end")


def test_a_typed_peg_plays_and_a_bad_one_is_explained(page: Any) -> None:
    start(page)
    n = moves_shown(page)
    page.fill("#peg-input", "b2")
    page.keyboard.press("Enter")
    page.wait_for_function(THINKING_DONE, arg=n)
    assert page.locator(".sf-cell[data-cell='5']").inner_text() == "X"
    assert "b2: f = " in page.locator("#quality").inner_text()
    page.fill("#peg-input", "e9")
    page.keyboard.press("Enter")
    page.wait_for_selector("#error-box.shown")
    assert "action" in page.locator("#error-box").inner_text()
    # The URL restores the game.
    board = page.locator("#levels").inner_text()
    page.reload()
    page.wait_for_selector("#status:has-text('Your move')")
    assert page.locator("#levels").inner_text() == board


def test_minimax_opponent_and_the_phone_layout(phone: Any, screenshot: Any) -> None:
    phone.goto("/scorefour")
    phone.wait_for_selector("#status:has-text('Your move')")
    phone.select_option("#ai", "minimax")
    phone.select_option("#human", "o")
    assert phone.locator("#depth").is_visible() and not phone.locator("#da-depth").is_visible()
    phone.click("#new-game")
    phone.wait_for_function("() => document.querySelectorAll('#moves div').length === 1")
    assert "minimax" in phone.locator("#ai-label").inner_text()
    assert phone.locator("#skill-title").inner_text() == "The mean quality of your moves"
    phone.click(".sf-cell[data-cell='0']")
    phone.wait_for_function(THINKING_DONE, arg=1)
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing wider than the phone
    screenshot(phone, "scorefour-phone-dark")


def test_the_mcts_opponent_is_offered_with_its_simulations(page: Any) -> None:
    page.goto("/scorefour")
    page.wait_for_selector("#status:has-text('Your move')")
    page.select_option("#ai", "mcts")
    assert page.locator("#sims").is_visible() and not page.locator("#da-depth").is_visible()
    assert not page.locator("#depth").is_visible()
    page.fill("#sims", "2000")
    page.select_option("#human", "o")  # the AI starts
    before = page.evaluate("() => location.search")
    page.click("#new-game")
    page.wait_for_function("(old) => location.search !== old", arg=before)
    page.wait_for_function("() => document.querySelectorAll('#moves div').length === 1")
    assert page.locator(".sf-cell:has-text('X')").count() == 1  # the AI's bead
    assert "mcts:sims=2000" in page.locator("#ai-label").inner_text()
