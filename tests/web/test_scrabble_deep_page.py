"""The assistant's deep analysis in chromium: a pinned game's position opened in the
assistant, the simulation's progress shown, then its ranked rows; a cancel stops it and keeps
the ranking so far."""

from __future__ import annotations

import time
from typing import Any

DEAL_SEED = 37


def open_pinned_position(page: Any) -> None:
    """The first position of a game with a pinned deal (against greedy), opened in the
    assistant as the review's "open in the assistant" link opens it."""
    body = {"game": "scrabble", "rules": "english", "seats": ["human", "greedy"],
            "seed": DEAL_SEED}  # fmt: skip
    r = page.request.post("/api/sessions", data=body)
    assert r.ok, r.text()
    page.goto(f"/scrabble?mode=assistant&id={r.json()['id']}&at=0")
    page.wait_for_selector("#a-table tbody tr")
    page.wait_for_selector("#deep-go:not([disabled])")


def test_deep_analysis_shows_progress_then_the_ranked_moves(page: Any, screenshot: Any) -> None:
    open_pinned_position(page)
    page.select_option("#deep-candidates", "5")
    page.select_option("#deep-seconds", "5")
    page.click("#deep-go")
    page.wait_for_selector("#deep-progress:not(.hidden)")
    # real progress: the bar part-filled, the deals counted and the time left said
    page.wait_for_function(
        "() => { const v = Number(document.querySelector('#deep-progress')"
        ".getAttribute('aria-valuenow')); return v > 0 && v < 100; }"
    )
    note = page.locator("#deep-note").inner_text()
    assert "Simulating" in note and "deals" in note and "s left" in note, note
    page.wait_for_selector("#deep-table tbody tr")
    rows = page.locator("#deep-table tbody tr")
    assert rows.count() == 5
    wins = [float(rows.nth(i).locator("td").nth(2).inner_text().rstrip("%")) for i in range(5)]
    assert wins == sorted(wins, reverse=True)
    assert page.locator("#deep-progress").is_hidden()
    assert "5 moves simulated" in page.locator("#deep-note").inner_text()
    rows.nth(0).click()  # shown on the board
    assert page.locator("#a-board .preview").count() >= 2
    page.locator("#deep-panel").scroll_into_view_if_needed()
    screenshot(page, "scrabble_deep_analysis")


def test_deep_analysis_can_be_cancelled(page: Any) -> None:
    open_pinned_position(page)
    page.select_option("#deep-seconds", "60")
    page.click("#deep-go")
    page.wait_for_selector("#deep-note:has-text('deals')")
    began = time.monotonic()
    page.click("#deep-cancel")
    page.wait_for_selector("#deep-table tbody tr")
    assert time.monotonic() - began < 30  # at its next deal, not at the end of the 60 s
    assert "Cancelled: the ranking so far" in page.locator("#deep-note").inner_text()
    assert page.locator("#deep-cancel").is_hidden()
    assert page.locator("#deep-go").is_enabled()


def test_deep_analysis_on_a_phone(phone: Any, screenshot: Any) -> None:
    open_pinned_position(phone)
    phone.select_option("#deep-candidates", "5")
    phone.select_option("#deep-seconds", "3")
    phone.click("#deep-go")
    phone.wait_for_selector("#deep-table tbody tr")
    assert phone.locator("#deep-table tbody tr").count() == 5
    phone.locator("#deep-panel").scroll_into_view_if_needed()
    screenshot(phone, "scrabble_deep_analysis_phone")
