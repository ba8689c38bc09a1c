"""The Pig page in chromium: a whole game by the hints, a custom variant, the map."""

from __future__ import annotations

from typing import Any


def test_a_whole_pig_game_by_the_hints_gives_nothing_away(page: Any, screenshot: Any) -> None:
    page.goto("/pig?seed=5")
    page.locator("#map rect").first.wait_for()
    moves = 0
    while not page.locator("#roll").is_disabled() or not page.locator("#hold").is_disabled():
        before = page.locator("#feedback").inner_text()
        page.keyboard.press("?")
        page.locator("#hint-box:not(.hidden) #hint-best").wait_for()
        best = page.locator("#hint-best").inner_text()
        if moves == 2:
            screenshot(page, "pig-hint")
        page.click(f"#{best}")
        page.wait_for_function(
            "before => document.querySelector('#feedback').innerText !== before", arg=before
        )
        moves += 1
        assert moves < 400
    assert moves > 3
    assert "given away in total 0.00%" in page.locator("#feedback").inner_text()
    assert "won" in page.locator("#goal-line").inner_text()
    screenshot(page, "pig-end")


def test_a_custom_variant_and_a_rule_of_thumb_show_on_the_map(page: Any, screenshot: Any) -> None:
    page.goto("/pig?preset=pig&goal=50&faces=6&busts=1,2&ai=hold&n=15&seed=2")
    page.locator("#map rect").first.wait_for()
    assert "goal 50" in page.locator("#variant-line").inner_text()
    assert "1,2 bust" in page.locator("#variant-line").inner_text()
    assert page.locator("#map polyline.rule").count() == 1
    page.keyboard.press("r")
    screenshot(page, "pig-map")


def test_an_impossible_variant_is_refused_with_its_reason(page: Any) -> None:
    page.goto("/pig?faces=3&busts=4")
    page.locator("#error-box.shown").wait_for()
    assert "not on a 3-faced die" in page.locator("#error-box").inner_text()
