"""The labels of a finished Yahtzee game's decisions are one size: a small mistake (an
"inaccuracy") once took the page's ``.small`` class with its label and shrank (issue 35,
item 7)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from stratagem.core.session import Session
from stratagem.games.yahtzee.coach import YahtzeeCoaching
from stratagem.games.yahtzee.coach import solved as solved_table
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.state import YahtzeeState

from .conftest import LiveServer, Serve
from .pages import call, open_page


@pytest.fixture()
def site(serve: Serve, tmp_path: Path) -> LiveServer:
    solved_table(preset("yahtzee"))  # solved before the server needs it
    return serve(tmp_path / "data")


def _finished_with_an_inaccuracy(seed: int) -> str:
    """A solitaire record played to the end by the coach's best rows, except the first
    decision that offers an inaccuracy (an option costing 1 to 4 expected points), where
    that option is played."""
    rules = preset("yahtzee")
    session = Session.new("yahtzee", "yahtzee", ["human"], seed=seed)
    coach = YahtzeeCoaching(rules, 1, solved_table(rules))
    slipped = False
    while True:
        state = session.state
        assert isinstance(state, YahtzeeState)
        if state.is_terminal():
            assert slipped, "no decision of the game offered an inaccuracy"
            return session.to_json()
        rows = coach.rows(state)
        small = [r for r in rows if r["label"] == "inaccuracy"]
        if not slipped and small:
            session.submit(small[0]["action"])
            slipped = True
        else:
            session.submit(rows[0]["action"])


def test_a_small_mistake_s_row_is_the_size_of_a_best_one(browser: Any, site: LiveServer) -> None:
    record = _finished_with_an_inaccuracy(3)
    sid = call(f"{site.url}/api/sessions/import", {"record": record})["id"]
    page = open_page(browser, site.url, f"/review?id={sid}")
    page.wait_for_selector("#decisions tbody tr[data-label='inaccuracy']")
    sizes = page.evaluate("""() => Array.from(document.querySelectorAll('#decisions tbody tr'),
        row => [row.dataset.label, ...[row, row.querySelector('.lbl'),
            row.querySelector('td:last-child')].map(e => getComputedStyle(e).fontSize)])""")
    by_label = {label: tuple(rest) for label, *rest in sizes}
    assert {"inaccuracy", "best"} <= set(by_label)
    assert by_label["inaccuracy"] == by_label["best"], by_label
    assert len(set(by_label.values())) == 1, by_label  # every label alike
    label = page.locator("#decisions tbody tr[data-label='inaccuracy'] .lbl").first
    assert label.inner_text() == "inaccuracy"
    assert not page.errors, page.errors
    page.context.close()
