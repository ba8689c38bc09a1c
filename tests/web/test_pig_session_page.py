"""The Pig page as a renderer of a play session, in chromium: play, take back two of your
decisions, reload, restart the server on the same data folder and find the game as it
was; against ``hold:25`` the hints are the best reply to it; a whole game with the keys
alone; a phone's width; axe-core finds no serious problem."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from stratagem.games.pig.coach import PigCoaching
from stratagem.games.pig.rules import preset
from stratagem.games.pig.state import PigState
from tests.web.conftest import Serve
from tests.web.pages import serious_violations

DESKTOP = {"width": 1200, "height": 900}


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
    browser: Any, serve: Serve, tmp_path: Path, screenshot: Any
) -> None:
    with (
        serve(tmp_path, tables="cached") as base,
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
        serve(tmp_path, tables="cached") as base2,
        opened(browser, base2, viewport=DESKTOP) as page,
    ):
        page.goto(f"/pig?id={sid}")
        ready(page)
        assert shown(page) == picture
        assert len(get(base2, f"/api/sessions/{sid}")["decisions"]) == decisions


def test_against_hold_25_the_hint_is_the_best_reply_not_the_optimum(
    browser: Any, serve: Serve, tmp_path: Path
) -> None:
    """At 66 against 58 with 30 in the turn (tests/games/pig/test_reply.py's pinned
    position) the optimum rolls, the best reply to hold:25 holds. The page's hint at the
    position it reaches shows the coach's rows for hold:25, which equal the best reply's."""
    coach = PigCoaching(preset("pig"), ["human", "hold:25"])
    pinned = PigState(preset("pig"), scores=(66, 58), player=0, turn_total=30)
    rows = coach.rows(pinned)
    assert rows[0]["action"] == "hold" and rows[0]["optimal_value"] < rows[1]["optimal_value"]
    with (
        serve(tmp_path, tables="cached") as base,
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


def test_a_game_played_with_the_keys_alone_and_its_review_are_the_coachs_numbers(
    browser: Any, serve: Serve, tmp_path: Path, screenshot: Any
) -> None:
    """coin-3 (a coin, goal 3) against hold:1, every key a keyboard's: N starts, R and H
    decide, Tab and Enter reach the review; the review's costs are the coach's judge of
    the same decisions, and a reviewed move opens on the Pig page in the assistant."""
    from stratagem.core.session import Session

    with serve(tmp_path, tables="cached") as base, opened(browser, base, viewport=DESKTOP) as page:
        page.goto("/pig?rules=coin-3&ai=hold:1&seed=3")
        page.locator("body[data-state=setup]").wait_for()
        page.keyboard.press("n")
        sid = ready(page)["id"]
        keys = iter("hrrhrhrrrrhrrhrrrhrrrh" * 5)
        while page.evaluate("document.body.dataset.state") != "over":
            page.keyboard.press(next(keys))
            ready(page)
        assert "won" in page.locator("#goal-line").inner_text()
        page.wait_for_timeout(400)  # the meter's 0.3 s slide to the result
        assert serious_violations(page) == []  # the result and the verdicts' colours too
        screenshot(page, "pig-end")
        # Tab from the hold button to the review link, and Enter
        page.locator("#takeback").focus()
        for _ in range(10):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.id") == "review-link":
                break
        assert page.evaluate("document.activeElement.id") == "review-link"
        page.keyboard.press("Enter")
        page.wait_for_url("**/review?id=*")
        page.locator("#decisions tbody tr").first.wait_for()
        review = get(base, f"/api/sessions/{sid}/review")
        record = urllib.request.urlopen(f"{base}/api/sessions/{sid}/record", timeout=60).read()
        session = Session.from_json(record)
        coach = PigCoaching(preset("coin-3"), ["human", "hold:1"])
        steps = session.decision_steps()
        mine = [j for j, step in enumerate(steps) if step.by == "human"]
        assert [d["decision"] for d in review["decisions"]] == mine
        for d in review["decisions"]:
            judged = coach.judge(session.state_at(d["decision"]), d["played"])
            assert (d["cost"], d["best"], d["label"]) == (judged.cost, judged.best, judged.label)
        assert any(d["cost"] > 0 for d in review["decisions"])  # the keys made mistakes
        assert review["totals"]["cost"] == pytest.approx(
            sum(d["cost"] for d in review["decisions"])
        )
        for point in review["graph"][:-1]:
            want = coach.evaluation(session.state_at(point["decision"]), 0)
            assert point["value"] == pytest.approx(want, abs=1e-12)
        shown_costs = page.locator("#decisions tbody tr td:nth-child(4)").all_inner_texts()
        assert [c.split()[0] for c in shown_costs] == [
            f"{100 * d['cost']:.1f}" for d in review["decisions"]
        ]
        screenshot(page, "pig-review")
        page.go_back()  # Back finds the finished game on its page
        page.wait_for_url(f"**/pig?id={sid}")
        ready(page)
        assert "won" in page.locator("#goal-line").inner_text()
        page.go_forward()
        page.locator("#decisions tbody tr").first.wait_for()
        # a costly move, opened in the assistant: the Pig page at that position
        costly = next(d for d in review["decisions"] if d["cost"] > 0)
        page.get_by_label(f"open decision {costly['decision'] + 1} in the assistant").click()
        page.wait_for_url("**/pig?id=*")
        ready(page)
        state = session.state_at(costly["decision"])
        assert isinstance(state, PigState)
        me = state.player
        assert page.locator("#score-you").inner_text() == str(state.scores[me])
        assert page.locator("#turn-total").inner_text() == str(state.turn_total)
        assert not page.locator("#hold").is_disabled()


def test_on_a_phone_the_page_fits_and_axe_finds_nothing_serious(
    browser: Any, serve: Serve, tmp_path: Path, screenshot: Any
) -> None:
    with serve(tmp_path, tables="cached") as base:
        for scheme in ("light", "dark"):
            options = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2,
                       "is_mobile": True, "has_touch": True, "color_scheme": scheme}  # fmt: skip
            with opened(browser, base, **options) as page:
                page.goto("/pig?ai=keep-pace&seed=8")
                page.locator("body[data-state=setup]").wait_for()
                assert serious_violations(page) == []
                page.locator("#new-game").click()
                ready(page)
                page.keyboard.press("?")
                page.locator("#hint-box:not(.hidden)").wait_for()
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= 390, f"the page is {width} px wide on a 390 px phone"
                assert serious_violations(page) == []
                page.keyboard.press("n")
                page.locator("#confirm-new[open]").wait_for()  # New game asks first
                assert serious_violations(page) == []
                page.keyboard.press("Escape")
                if scheme == "dark":
                    screenshot(page, "pig-phone")


def test_every_control_takes_the_focus_visibly(browser: Any, serve: Serve, tmp_path: Path) -> None:
    with serve(tmp_path, tables="cached") as base, opened(browser, base, viewport=DESKTOP) as page:
        sid = start(page, "/pig?ai=hold:20&seed=2")
        assert sid
        reached = set()
        page.locator("body").focus()
        for _ in range(40):
            page.keyboard.press("Tab")
            info = page.evaluate(
                "() => { const e = document.activeElement; const s = getComputedStyle(e);"
                " return [e.id || e.tagName, s.outlineStyle, s.outlineWidth]; }"
            )
            if info[0] == "BODY":  # past the last control the focus leaves the page
                continue
            reached.add(info[0])
            assert info[1] != "none" and info[2] != "0px", f"{info[0]} has no visible focus"
        for control in ("roll", "hold", "hint", "takeback", "review-link", "export-link"):
            assert control in reached, f"{control} is not reached with Tab"


def test_a_custom_variant_and_a_rule_of_thumb_show_and_an_impossible_one_is_refused(
    browser: Any, serve: Serve, tmp_path: Path, screenshot: Any
) -> None:
    with serve(tmp_path, tables="cached") as base, opened(browser, base, viewport=DESKTOP) as page:
        start(page, "/pig?rules=pig:goal=50,bust_faces=1/2&ai=hold:15&seed=2")
        assert "goal 50" in page.locator("#variant-line").inner_text()
        assert "1,2 bust" in page.locator("#variant-line").inner_text()
        page.locator("#map polyline.rule").wait_for()
        page.keyboard.press("?")
        page.locator("#hint-box:not(.hidden) #hint-best").wait_for()
        screenshot(page, "pig-hint")
        page.locator("#map").scroll_into_view_if_needed()
        screenshot(page, "pig-map")
        page.goto("/pig?rules=pig:faces=3,bust_faces=4")
        page.locator("body[data-state=setup]").wait_for()
        page.locator("#new-game").click()
        page.locator("#error-box.shown").wait_for()
        assert "not on a 3-faced die" in page.locator("#error-box").inner_text()


def test_following_the_hints_against_hold_25_reaches_a_move_the_optimum_would_not_make(
    browser: Any, serve: Serve, tmp_path: Path, screenshot: Any
) -> None:
    """Seed 0, the hints followed: at your 20th choice (50 against 55, 19 in the turn) the
    best reply to hold:25 rolls (65.86%) where the optimum holds (its 62.15% against
    62.02%); the page's hint says roll and shows the optimum's chances beside. (Found by
    playing the session in Python by the coach's rows: the first such choice of seeds
    0..39 whose two options differ by more than half a point.)"""
    with serve(tmp_path, tables="cached") as base, opened(browser, base, viewport=DESKTOP) as page:
        sid = start(page, "/pig?ai=hold:25&seed=0")
        for _ in range(19):
            best = get(base, f"/api/sessions/{sid}/advice")["rows"][0]["action"]
            page.keyboard.press(best[0])
            ready(page)
        assert shown(page)[:3] == ("50", "55", "19")
        page.keyboard.press("?")
        page.locator("#hint-box:not(.hidden) #hint-best").wait_for()
        assert page.locator("#hint-best").inner_text() == "roll"
        rows = page.locator("#hint-box tbody tr").all_inner_texts()
        assert "65.86%" in rows[0] and "62.02%" in rows[0]  # roll: the reply's, the optimum's
        assert "65.30%" in rows[1] and "62.15%" in rows[1]  # hold: the optimum's best
        screenshot(page, "pig-best-reply")
