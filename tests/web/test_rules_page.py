"""The rules dialog in chromium: one click from every game's board, at the preset in use."""

from __future__ import annotations

from typing import Any

import pytest

from stratagem.core.rules_text import rules_of

# the page, what shows once its board is up, and the preset its selector shows by default
PAGES = [
    ("yahtzee", "/yahtzee", "#rules option", "yahtzee"),
    ("pig", "/pig", "#preset option", "pig"),
    ("scorefour", "/scorefour", "#board, svg, table", "scorefour"),
    ("scrabble", "/scrabble?mode=play", "#status:has-text('Your move')", "english"),
]


@pytest.mark.parametrize(("game", "url", "ready", "preset"), PAGES)
def test_the_rules_open_from_the_board_in_one_click(
    page: Any, screenshot: Any, game: str, url: str, ready: str, preset: str
) -> None:
    page.goto(url)
    page.locator(ready).first.wait_for(state="attached")
    page.locator("#rules-open").click()
    dialog = page.locator("#rules-dialog")
    dialog.wait_for()
    page.locator("#rules-dialog details").first.wait_for()  # the text arrives after the dialog
    expected = {r.preset: r for r in rules_of(game)}
    # every preset is there; the one in use is open, its first paragraph shown as served
    assert page.locator("#rules-dialog details").count() == len(expected)
    shown = page.locator(f'#rules-dialog details[data-preset="{preset}"]')
    assert shown.get_attribute("open") is not None
    assert expected[preset].paragraphs[0] in shown.inner_text()
    if len(expected) > 1:
        # the comparison marks the rows whose numbers differ between presets
        assert page.locator("#rules-compare tr.differs").count() >= 1
    screenshot(page, f"rules-{game}")
    page.keyboard.press("Escape")
    assert not dialog.is_visible()


def test_the_yahtzee_dialog_opens_at_the_preset_chosen_on_the_board(page: Any) -> None:
    page.goto("/yahtzee")
    page.locator("#rules option[value=yatzy]").wait_for(state="attached")
    page.select_option("#rules", "yatzy")
    page.locator("#rules-open").click()
    yatzy = page.locator('#rules-dialog details[data-preset="yatzy"]')
    assert yatzy.get_attribute("open") is not None
    assert "upper bonus of 50 points" in yatzy.inner_text()
    assert (
        page.locator('#rules-dialog details[data-preset="yahtzee"]').get_attribute("open") is None
    )
    # keys typed while the rules are open do not play: R does not roll the dice, even
    # while the rules' text is still on its way (the request is held here)
    page.keyboard.press("Escape")
    page.click("#start")
    page.locator("#dice .die").first.wait_for()
    held: list[Any] = []
    page.route("**/api/yahtzee/rules", lambda route: held.append(route))
    page.locator("#rules-open").click()
    rolls = page.locator("#rolls-label").inner_text()
    page.keyboard.press("r")
    page.wait_for_timeout(300)
    assert page.locator("#rolls-label").inner_text() == rolls
    assert page.evaluate("document.getElementById('rules-dialog').open")
    assert "Loading the rules" in page.locator("#rules-dialog").inner_text()
    assert len(held) == 1
    held[0].continue_()
    page.locator('#rules-dialog details[data-preset="yatzy"]').wait_for()
    page.keyboard.press("r")
    page.wait_for_timeout(300)
    assert page.locator("#rolls-label").inner_text() == rolls
    page.keyboard.press("Escape")
    page.keyboard.press("r")
    page.wait_for_function(f"document.querySelector('#rolls-label').textContent !== {rolls!r}")


def test_the_rules_fit_a_phone_in_the_dark_theme(phone: Any, screenshot: Any) -> None:
    phone.goto("/pig")
    phone.locator("#preset option").first.wait_for(state="attached")
    phone.locator("#rules-open").click()
    phone.locator("#rules-dialog details[open]").wait_for()
    width = phone.evaluate("document.getElementById('rules-dialog').getBoundingClientRect().width")
    assert width <= 390
    overflow = phone.evaluate(
        "(() => { const d = document.getElementById('rules-dialog');"
        " return d.scrollWidth - d.clientWidth; })()"
    )
    assert overflow <= 0  # no sideways scrolling inside the dialog
    screenshot(phone, "rules-phone-dark")
