"""The Yahtzee page on a reduced card (rules yahtzee:boxes=ones+twos+chance,bonus=true)
against the exact two-player strategy: only the card's boxes and its bonus row, hints in
chances of winning whose best is the solver's, a decision taken back, a game played to
its end and reviewed; screenshots on a desktop and a phone."""

from __future__ import annotations

import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from stratagem.core.registry import load_game
from stratagem.core.session import Session
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee.duel import Run, Variant, decision, level_layers
from stratagem.games.yahtzee.duel_play import VariantState, solved_run

from .conftest import Serve
from .pages import call, open_page, serious_violations
from .test_play_page import Site

RULES = "yahtzee:boxes=ones+twos+chance,bonus=true"
SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


@pytest.fixture(scope="module")
def run() -> Run:
    """The card's win-optimal tables (solved here if the cache lacks them; seconds)."""
    variant = load_game("yahtzee").rules_object(RULES)
    assert isinstance(variant, Variant)
    return solved_run(variant)


@pytest.fixture()
def site(serve: Serve, tmp_path: Path, run: Run) -> Iterator[Site]:
    s = Site(tmp_path / "data", serve)
    s.start()
    yield s
    s.stop()


def _state(url: str, sid: str) -> VariantState:
    with urllib.request.urlopen(f"{url}/api/sessions/{sid}/record", timeout=60) as answer:
        state = Session.from_json(answer.read().decode()).state
    assert isinstance(state, VariantState)
    return state


def _solvers_best(run: Run, state: VariantState) -> float:
    """The best option's chance, recomputed from the stored tables (duel.decision)."""
    mine, other = state.cards[state.player], state.cards[1 - state.player]
    t = len(mine.filled) + len(other.filled)
    assert level_layers(t) == (len(mine.filled), len(other.filled))
    top = run.variant.threshold
    a = int(run.cards.sid[mine.mask, min(mine.upper_total, top)])
    b = int(run.cards.sid[other.mask, min(other.upper_total, top)])
    d = mine.total - other.total
    picked = decision(run, t, a, b, d, D.KEEP_INDEX[state.dice], state.rolls_left)
    return float(picked["best_chance"])  # type: ignore[arg-type]


def _made(page: Any) -> int:
    page.wait_for_selector("#feedback #total-cost")
    return int(page.inner_text("#feedback").split("decisions ")[1].split()[0])


def _wait_made(page: Any, n: int) -> None:
    page.wait_for_function(
        "n => document.querySelector('#feedback').textContent.includes('decisions ' + n + ' ')",
        arg=n,
    )


def test_a_reduced_card_played_to_the_end_against_duel_optimal_with_hints(
    browser: Any, site: Site, run: Run
) -> None:
    page = open_page(browser, site.url, "/yahtzee")
    page.wait_for_selector("#setup:not([hidden])")
    page.select_option("#opponents", "1")
    page.fill("#boxes", "ones+twos+chance")
    page.check("#bonus")
    assert page.input_value("#opponent0") == "duel-optimal:solve=true"
    page.fill("#seed", "11")
    page.click("#start")
    page.wait_for_selector("#dice .die")
    sid = page.evaluate("new URLSearchParams(location.search).get('id')")
    boxes = page.locator("table.card tr.box-row").evaluate_all("rs => rs.map(r => r.dataset.box)")
    assert boxes == ["ones", "twos", "chance"]
    assert "Upper total (bonus)" in page.inner_text("table.card")
    assert "/9" in page.inner_text("table.card")  # the bonus at three ones and three twos

    checked = 0
    took_back = False
    shot = False
    while page.inner_text("#turn-label") != "Game over":
        made = _made(page)
        page.keyboard.press("h")
        page.wait_for_selector("#hint-table button.play:focus")
        first = page.locator("#hint-table tbody tr").first
        state = _state(site.url, sid)
        rows = call(f"{site.url}/api/sessions/{sid}/advice")["rows"]
        best = _solvers_best(run, state)
        assert rows[0]["value"] == pytest.approx(best, abs=1e-12)
        assert first.get_attribute("data-action") == rows[0]["action"]
        assert first.locator("td").nth(1).inner_text() == f"{100 * best:.1f}%"
        assert "chance of winning" in page.inner_text("#hint-table thead")
        checked += 1
        if not shot:
            assert serious_violations(page) == []  # axe-core, with the hint table open
            page.screenshot(path=str(SHOTS / "yahtzee-variant.png"), full_page=True)
            shot = True
        page.keyboard.press("Enter")
        _wait_made(page, made + 1)
        if not took_back and made + 1 == 2:
            before = len(call(f"{site.url}/api/sessions/{sid}")["decisions"])
            page.click("#takeback")
            _wait_made(page, 1)
            after = call(f"{site.url}/api/sessions/{sid}")
            assert len(after["decisions"]) < before and after["human_to_move"]
            assert [d["by"] for d in after["decisions"]] == ["human"]
            took_back = True
    assert took_back and checked >= 3

    page.wait_for_selector("#summary:not([hidden]) #report")
    over = call(f"{site.url}/api/sessions/{sid}")
    assert over["over"] and len(over["result"]["returns"]) == 2
    review = call(f"{site.url}/api/sessions/{sid}/review")
    assert review["unit"]["name"] == "chance of winning"
    assert {row["label"] for row in review["decisions"]} == {"best"}  # the hint's each time
    totals = review["totals"]
    assert totals["start_at"] == "deal"  # the table's value of the empty cards
    assert totals["start"] == pytest.approx(run.value(0, 0, 0, 0), abs=1e-12)
    assert totals["outcome"] in (0.0, 0.5, 1.0) and totals["skill"] == 0
    page.click("#read-review")
    page.wait_for_selector("#decisions tbody tr")
    assert page.locator("#decisions tbody tr").count() == len(review["decisions"])
    assert not page.errors, page.errors
    page.context.close()

    phone = open_page(
        browser, site.url, f"/yahtzee?id={sid}", viewport={"width": 390, "height": 844},
        device_scale_factor=2, color_scheme="dark", is_mobile=True, has_touch=True,
    )  # fmt: skip
    phone.wait_for_selector("#summary:not([hidden]) #report")
    assert phone.locator("table.card tr.box-row").count() == 3
    phone.screenshot(path=str(SHOTS / "yahtzee-variant-phone.png"), full_page=True)
    assert not phone.errors, phone.errors
    phone.context.close()


def test_a_reduced_card_without_the_bonus_has_no_bonus_row(browser: Any, site: Site) -> None:
    sid = call(
        f"{site.url}/api/sessions",
        {"game": "yahtzee", "rules": "yahtzee:boxes=ones+twos+chance", "seats": ["human"]},
    )["id"]
    page = open_page(browser, site.url, f"/yahtzee?id={sid}")
    page.wait_for_selector("#dice .die")
    assert page.locator("table.card tr.box-row").count() == 3
    assert "Upper total" not in page.inner_text("table.card")
    assert page.locator("#meter-panel").is_hidden()  # alone: expected points, no meter
    assert not page.errors, page.errors
    page.context.close()
