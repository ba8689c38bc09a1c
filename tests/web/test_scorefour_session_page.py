"""The Score Four page as a renderer of a play session: moves, takeback, reload, a server
restart on the same games folder, a finished game's verdicts equal to the coach's judge, a
reviewed move opened in the assistant."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from stratagem.core.session import Session
from stratagem.games.scorefour.board import peg_name
from stratagem.games.scorefour.coach import ScoreFourCoaching
from tests.web.conftest import Serve
from tests.web.pages import serious_violations

YOUR_MOVE = "#status:has-text('Your move')"


@pytest.fixture()
def tab(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    p = context.new_page()
    p.set_default_timeout(120_000)
    errors: list[str] = []
    p.on("pageerror", lambda exc: errors.append(str(exc)))
    p.on("dialog", lambda d: d.accept())  # "New game" asks first: yes
    yield p
    context.close()
    assert not errors, f"script errors on the page: {errors}"


def beads(p: Any) -> int:
    return int(p.locator(".sf-cell.x, .sf-cell.o").count())


def new_game(p: Any, base: str, ai: str, **params: str) -> str:
    """A new game as X against ``ai``; returns the game's id from the URL."""
    p.goto(f"{base}/scorefour")
    p.wait_for_selector(YOUR_MOVE)
    p.select_option("#ai", ai)
    if params:
        p.click("#advanced summary")
        for name, value in params.items():
            p.fill(f"#param-{name}", value)
    old = p.evaluate("() => location.search")
    p.click("#new-game")
    p.wait_for_function("(old) => location.search !== old", arg=old)
    p.wait_for_selector(YOUR_MOVE)
    return str(p.evaluate("() => new URLSearchParams(location.search).get('id')"))


def play(p: Any, peg: str) -> None:
    """Drop a bead on ``peg`` by keys and wait for the AI's reply (or the end)."""
    n = beads(p)
    p.keyboard.press(peg[0])
    p.keyboard.press(peg[1])
    p.wait_for_function(
        """(n) => document.querySelectorAll('.sf-cell.x, .sf-cell.o').length >= n + 1
            && !document.getElementById('status').textContent.includes('thinking')
            && !document.getElementById('status').textContent.startsWith('…')""",
        arg=n,
    )


def test_moves_taken_back_survive_a_reload_and_a_server_restart(
    tab: Any, serve: Serve, tmp_path: Path
) -> None:
    with serve(tmp_path) as base:
        sid = new_game(tab, base, "minimax", depth="1")
        for peg in ("b2", "c3", "a1"):
            play(tab, peg)
        assert beads(tab) == 6
        for _ in range(2):  # back to the person's last decision, twice
            n = beads(tab)
            tab.keyboard.press("u")
            tab.wait_for_function(
                "(n) => document.querySelectorAll('.sf-cell.x, .sf-cell.o').length === n - 2",
                arg=n,
            )
        assert beads(tab) == 2 and tab.locator(".sf-cell[data-cell='5']").inner_text() == "X"
        board = tab.locator("#levels").inner_text()
        moves = tab.locator("#moves").inner_text()
        tab.reload()
        tab.wait_for_selector(YOUR_MOVE)
        assert tab.locator("#levels").inner_text() == board
        tab.goto(f"{base}/games")  # away, then Back
        tab.go_back()
        tab.wait_for_selector(YOUR_MOVE)
        assert tab.locator("#levels").inner_text() == board
    with serve(tmp_path) as base:  # a new app on the same games folder
        listed = httpx.get(f"{base}/api/sessions").json()["games"]
        found = [g for g in listed if g["id"] == sid]
        assert len(found) == 1 and found[0]["decisions"] == 2 and not found[0]["finished"]
        tab.goto(f"{base}/scorefour?id={sid}")
        tab.wait_for_selector(YOUR_MOVE)
        assert tab.locator("#levels").inner_text() == board
        bare = [line.split(" — ")[0] for line in moves.split("\n")]
        shown = tab.locator("#moves").inner_text().split("\n")
        assert [line.split(" — ")[0] for line in shown] == bare
        assert bare[0] == "1. X b2" and bare[1].endswith("(AI)") and len(bare) == 2
        record = httpx.get(f"{base}/api/sessions/{sid}/record").json()
        assert record["decisions"][0] == "5" and len(record["decisions"]) == 2  # b2, a reply
        assert [t["undone"] for t in record["takebacks"]] == [2, 2]


def test_a_finished_game_s_verdicts_are_the_coach_s_and_a_move_opens_in_the_assistant(
    tab: Any, serve: Serve, tmp_path: Path, screenshot: Any
) -> None:
    coach = ScoreFourCoaching()
    with serve(tmp_path) as base:
        sid = new_game(tab, base, "random")
        k = 0
        while tab.locator("#status").inner_text().startswith("Your move"):
            tab.keyboard.press("h")
            tab.wait_for_selector("#hint-panel:not(.hidden)")
            rows = tab.locator("#hint-table tbody tr")
            # the hint's best, but the fourth-best option on the 2nd and 4th moves
            row = rows.nth(3) if k in (1, 3) and rows.count() > 3 else rows.first
            play(tab, row.locator("td").first.inner_text())
            k += 1
        assert tab.locator("#status").inner_text() in (
            "You win!",
            "The AI wins.",
            "The board is full: a draw.",
        )
        record = httpx.get(f"{base}/api/sessions/{sid}/record").json()
        session = Session.from_record(record)
        mine = session.human_decisions()
        shown = tab.locator("#moves div.mine").all_inner_texts()
        assert len(shown) == len(mine) == k
        labels = []
        for j, text in zip(mine, shown, strict=True):
            judged = coach.judge(session.state_at(j), session.decisions()[j])
            assert text.endswith(f"{judged.extra['played_value']}, {judged.label}"), text
            labels.append(judged.label)
        assert labels[0] == "best" and labels[1] != "best"  # a fourth-best move costs points
        review = httpx.get(f"{base}/api/sessions/{sid}/review")
        if review.status_code != 404:  # the review router (web/review.py) is mounted
            reviewed = review.json()["decisions"]
            assert [d["decision"] for d in reviewed] == mine
            for j, row in zip(mine, reviewed, strict=True):
                judged = coach.judge(session.state_at(j), session.decisions()[j])
                assert row["cost"] == pytest.approx(judged.cost)
                assert (row["label"], row["exact"]) == (judged.label, judged.exact)
        # a reviewed move, as the review links to it: the position, then the assistant
        j = mine[2]  # a move that was the best (the review links each move here)
        tab.goto(f"{base}/scorefour?id={sid}&at={j}")
        tab.wait_for_selector("#replay:not([hidden])")
        assert beads(tab) == j
        assert tab.locator(".sf-cell[aria-disabled='false']").count() == 0  # read-only
        assert serious_violations(tab) == []
        tab.click("#assistant")
        tab.wait_for_selector("#hint-panel:not(.hidden)")
        assert beads(tab) == j and "to move" in tab.locator("#status").inner_text()
        assert serious_violations(tab) == []
        best = coach.rows(session.state_at(j))[0]
        first = tab.locator("#hint-table tbody tr").first.locator("td").all_inner_texts()
        assert first[:2] == [best["peg"], best["value_text"]]
        assert peg_name(int(session.decisions()[j])) in {
            r["peg"] for r in coach.rows(session.state_at(j)) if r["cost"] == 0
        }
        if review.status_code != 404:
            tab.goto(f"{base}/review?id={sid}")
            tab.wait_for_load_state("networkidle")
            tab.wait_for_selector("#review[aria-busy='false']")
            # each move in the game's own notation (peg and level), not the cell number
            played = tab.locator("#decisions td[data-title='Played']").first.inner_text()
            first = session.state_at(mine[0])
            assert played.startswith(coach.decision_text(first, session.decisions()[mine[0]]))
            assert played.startswith(peg_name(int(session.decisions()[mine[0]])) + " (level ")
            screenshot(tab, "scorefour-review")
            # the review's own link: the position opens in this page's assistant
            tab.locator("button:has-text('open in the assistant')").nth(1).click()
            tab.wait_for_url("**/scorefour?id=*")
            tab.wait_for_selector("#hint-panel:not(.hidden)")
            assert beads(tab) == mine[1] and "to move" in tab.locator("#status").inner_text()
            first = tab.locator("#hint-table tbody tr").first.locator("td").all_inner_texts()
            best = coach.rows(session.state_at(mine[1]))[0]
            assert first[:2] == [best["peg"], best["value_text"]]
