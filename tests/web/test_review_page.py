"""The review page (/review?id=<sid>) in the browser, with the recipe game Nim: its numbers
are the coach's judge for the same decisions, its thresholds are stated, its graph has a
table, each decision opens in the assistant by keys, it fits a phone, axe finds nothing
serious."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from stratagem.core.registry import load_game

from .conftest import Serve
from .pages import call, coach_verdicts, open_page, serious_violations
from .test_play_page import Site, nim_games  # noqa: F401  (a fixture)


@pytest.fixture()
def site(nim_games: None, serve: Serve, tmp_path: Path) -> Iterator[Site]:  # noqa: F811
    s = Site(tmp_path / "data", serve)
    s.start()
    yield s
    s.stop()


def finished_game(url: str) -> str:
    """nim-7 against "four", seed 3 (the die adds no stone): the person takes 1 of 7 (a
    blunder: 3 was best), "four" 2, the person 1 of 4 (the best), "four" the last 3."""
    game = call(
        url + "/api/sessions",
        {"game": "nim", "rules": "nim-7", "seats": ["human", "four"], "seed": 3},
    )
    sid = str(game["id"])
    for take in ("1", "1"):
        call(f"{url}/api/sessions/{sid}/move", {"decision": take})
        call(f"{url}/api/sessions/{sid}/ai", {})
    assert call(f"{url}/api/sessions/{sid}")["over"]
    return sid


def open_review(browser: Any, url: str, sid: str, **context: Any) -> Any:
    page = open_page(
        browser,
        url,
        f"/review?id={sid}",
        **({"viewport": {"width": 1100, "height": 850}} | context),
    )
    page.wait_for_selector("#review[aria-busy='false']")
    return page


@pytest.fixture()
def review_tab(browser: Any, site: Site) -> Iterator[tuple[Any, str]]:
    sid = finished_game(site.url)
    page = open_review(browser, site.url, sid)
    yield page, sid
    assert not page.errors, f"script errors on the page: {page.errors}"
    page.context.close()


def cells(page: Any) -> list[list[str]]:
    return [
        [c.strip() for c in row.locator("td").all_inner_texts()]
        for row in page.locator("#decisions tbody tr").all()
    ]


def test_the_pages_numbers_are_the_coachs_judge(site: Site, review_tab: tuple[Any, str]) -> None:
    page, sid = review_tab
    spec = load_game("nim")
    assert spec.coaching is not None
    rows = cells(page)
    assert len(rows) == 2
    for row, (j, judged) in zip(rows, coach_verdicts(site.url, sid, spec.coaching(7)), strict=True):
        decision, played, best, cost, label = row[:5]
        assert decision == str(j + 1) and played.splitlines()[0] == judged.played
        assert cost.split()[0] == f"{100 * judged.cost:.1f}" and "exact" in cost
        assert label == judged.label
        assert best.startswith("= played" if judged.best == judged.played else judged.best)
    assert rows[0][3].startswith("51.0") and rows[0][4] == "blunder"  # 25/49 by hand


def test_the_thresholds_totals_and_luck_are_stated(review_tab: tuple[Any, str]) -> None:
    page, _ = review_tab
    text = page.locator("#thresholds").inner_text()
    assert "inaccuracy (from 2.0)" in text and "mistake (from 5.0)" in text
    assert "blunder (from 10.0)" in text and "chance of winning" in text
    totals = dict(
        zip(
            page.locator("#totals th").all_inner_texts(),
            page.locator("#totals td").all_inner_texts(),
            strict=True,
        )
    )
    assert totals["Total cost"] == "51.0" and totals["Blunder"] == "1" and totals["Best"] == "1"
    assert totals["Luck (outcome − expected)"] == "-17.2"  # -59/343 (tests/core/test_review.py)
    assert totals["Outcome"] == "0.0"
    assert "outcome − (start − skill)" in page.locator("#luck-def").inner_text()


def test_the_graph_has_a_line_dots_and_a_table(review_tab: tuple[Any, str]) -> None:
    page, _ = review_tab
    assert page.locator("#graph path.line").count() == 1
    assert page.locator("#graph circle.mark").count() == 2
    assert page.locator("#graph circle.mark.blunder").count() == 1
    assert "75.5 before the first decision" in page.locator("#graph-desc").text_content()
    page.locator("#graph-table-box summary").click()
    values = page.locator("#graph-table tbody td:nth-child(3)").all_inner_texts()
    assert values == ["75.5", "24.5", "14.3", "0.0", "0.0"]  # 37/49, 12/49, 1/7, 0, 0


def test_a_decision_opens_in_the_assistant_by_keys(site: Site, review_tab: tuple[Any, str]) -> None:
    page, sid = review_tab
    position = page.locator("#decisions tbody tr").nth(1).locator("a")
    assert position.get_attribute("href") == f"/play?game=nim&id={sid}&at=2"
    button = page.locator("#decisions tbody tr").nth(1).locator("button")
    for _ in range(40):  # Tab from the top of the page to the button
        page.keyboard.press("Tab")
        if button.evaluate("b => b === document.activeElement"):
            break
    else:
        pytest.fail("the assistant button is not reachable by Tab")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "/play?game=nim&id=ses-" in page.url and sid not in page.url
    new = page.url.split("id=")[1].split("&")[0]
    branched = call(f"{site.url}/api/sessions/{new}")
    assert [d["text"] for d in branched["decisions"]] == ["1", "2"]
    assert branched["seats"] == ["human", "human"] and branched["human_to_move"]


def test_the_review_fits_a_phone_and_axe_finds_nothing_serious(
    browser: Any, site: Site, screenshot: Callable[[Any, str], Path]
) -> None:
    sid = finished_game(site.url)
    for scheme in ("light", "dark"):
        page = open_review(browser, site.url, sid, color_scheme=scheme)
        page.locator("#graph-table-box summary").click()
        assert serious_violations(page) == [], scheme
        if scheme == "light":
            screenshot(page, "review-nim")
        page.context.close()
    phone = open_review(
        browser, site.url, sid, viewport={"width": 390, "height": 844}, is_mobile=True
    )
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the page is {width}px wide on a 390px phone"
    assert phone.locator("#decisions tbody tr").count() == 2
    phone.context.close()


def test_an_unknown_game_says_so(browser: Any, site: Site) -> None:
    page = open_review(browser, site.url, "ses-nosuchgame0000000000")
    assert "cannot be reviewed" in page.locator("#status").inner_text()
    assert "ses-nosuchgame" in page.locator("#status").inner_text()
    page.context.close()


def _won_score_four_game(url: str) -> str:
    """Two people: X takes a1 b1 c1 d1 on the first level while O plays a2 b2 c2."""
    from stratagem.games.scorefour.board import parse_peg

    game = call(url + "/api/sessions", {"game": "scorefour", "seats": ["human", "human"]})
    sid = str(game["id"])
    for peg in ("a1", "a2", "b1", "b2", "c1", "c2", "d1"):
        call(f"{url}/api/sessions/{sid}/move", {"decision": str(parse_peg(peg))})
    assert call(f"{url}/api/sessions/{sid}")["over"]
    return sid


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_score_four_review_says_a_proven_win_in_words_never_a_sentinel(
    browser: Any, live_server: str, size: str
) -> None:
    # the graph plotted a proven win at the cost scale's 1000 ("1000.00"); it is drawn at
    # the coach's evaluation cap and said as "wins in 1" (issue 35)
    from stratagem.games.scorefour.coach import EVAL_CAP

    from .conftest import SCREENSHOTS

    sid = _won_score_four_game(live_server)
    phone = {"viewport": {"width": 390, "height": 844}, "color_scheme": "dark"}
    page = open_review(browser, live_server, sid, **(phone if size == "phone" else {}))
    page.locator("#graph-table-box summary").click()
    said = page.locator("#graph-table tbody td:nth-child(3)").all_inner_texts()
    assert said[6] == "wins in 1" and said[-1] == "won"
    text = page.inner_text("#graph-table") + page.locator("#graph-desc").text_content()
    assert "1000" not in text and "999" not in text
    assert "won at the end" in page.locator("#graph-desc").text_content()
    graph = call(f"{live_server}/api/sessions/{sid}/review")["graph"]
    assert max(abs(p["value"]) for p in graph) == EVAL_CAP
    # O's c2 turned an open game into a loss in 1: it cost "1012.00" and the total 1047;
    # now the cap, in words, and counted apart from the other decisions' cost (issue 35)
    rows = cells(page)
    assert rows[5][4].split()[0] == f"{EVAL_CAP:.2f}"
    assert "turned an open game into a loss in 1" in rows[5][4] and rows[5][5] == "blunder"
    shown = page.inner_text("#decisions") + page.inner_text("#totals")
    numbers = [float(n) for n in re.findall(r"\d+(?:\.\d+)?", shown)]
    assert max(numbers) <= EVAL_CAP
    totals = dict(
        zip(
            page.locator("#totals th").all_inner_texts(),
            page.locator("#totals td").all_inner_texts(),
            strict=True,
        )
    )
    assert totals["Proven results thrown away"] == "1"
    assert float(totals["Total cost of the other decisions"]) < EVAL_CAP
    assert "the totals count such moves apart" in page.inner_text("#thresholds")
    if size == "phone":
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.screenshot(path=str(SCREENSHOTS / f"review-scorefour-{size}.png"), full_page=True)
    assert not page.errors, page.errors
    page.context.close()
