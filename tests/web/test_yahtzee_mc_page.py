"""The Monte Carlo panel in chromium: what it is, its progress, the minimum, the distances."""

from __future__ import annotations

from typing import Any

URL = "/yahtzee?mode=assistant&dice=13456&rolls=1"
# The first search of a run loads the exact table, and solves it on a cold cache (minutes
# when the other test worker is busy too): the page says so while it waits.
FIRST_SEARCH_MS = 600_000


def _number(text: str) -> float:
    return float(text.replace("−", "-").replace("+", ""))


def test_the_panel_shows_progress_then_each_option_beside_the_exact_one(
    page: Any, screenshot: Any
) -> None:
    page.goto(URL)
    page.locator("#a-table tbody tr").first.wait_for()
    method = page.locator("#m-method")
    page.wait_for_function("document.querySelector('#m-rule').textContent.length > 0")
    assert "Monte Carlo tree search" in method.inner_text() and "estimated" in method.inner_text()
    assert "at least 100 playouts" in page.locator("#m-rule").inner_text()
    page.fill("#m-sims", "2000")
    page.click("#m-go")
    # With the table and the playouts already loaded by an earlier test, 2,000 simulations
    # can end between two polls (400 ms), so the running count is not waited for here: the
    # cancel test below watches it on a search of 20,000.
    page.locator("#m-summary:not(:empty)").wait_for(timeout=FIRST_SEARCH_MS)
    assert "simulations in" in page.locator("#m-progress-text").inner_text()
    rows = page.locator("#m-table tbody tr")
    assert rows.count() == page.locator("#a-table tbody tr").count()
    for i in range(rows.count()):
        cells = rows.nth(i).locator("td")
        n = int(cells.nth(3).inner_text())
        verdict = cells.nth(5).inner_text()
        if i > 0 and n < 100:
            assert verdict.startswith("too few")
        if n:
            mean, exact = _number(cells.nth(1).inner_text()), _number(cells.nth(6).inner_text())
            assert abs(_number(cells.nth(7).inner_text()) - (mean - exact)) <= 0.11
    summary = page.locator("#m-summary").inner_text()
    assert "exact best" in summary
    path = screenshot(page, "yahtzee-mc-panel")
    page.locator("#m-panel").screenshot(path=str(path))  # the panel alone, as a player sees it


def test_a_long_search_can_be_cancelled_from_the_page(page: Any) -> None:
    page.goto(URL)
    page.locator("#a-table tbody tr").first.wait_for()
    page.fill("#m-sims", "20000")
    page.click("#m-go")
    page.wait_for_function(
        "document.querySelector('#m-progress-text').textContent.includes('s left')",
        timeout=FIRST_SEARCH_MS,
    )
    page.click("#m-cancel")
    page.wait_for_function(
        "document.querySelector('#m-progress-text').textContent.startsWith('cancelled')"
    )
    page.locator("#m-cancel").wait_for(state="hidden")
    assert not page.locator("#m-table tbody tr").count()
