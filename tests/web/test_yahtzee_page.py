"""The Yahtzee page's assistant in chromium (games on the page: test_yahtzee_session_page.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest


@pytest.mark.parametrize("rules", ["yatzy"])
def test_assistant_prices_a_pasted_position(page: Any, screenshot: Any, rules: str) -> None:
    page.goto("/yahtzee?mode=assistant")
    page.locator("#a-table tbody tr").first.wait_for()
    page.locator("#a-paste-box summary").click()
    page.fill(
        "#a-paste",
        f"--rules {rules} --dice 2,2,3,3,3 --rolls-left 0 --filled ones,twos,chance "
        "--upper 6 --score 30",
    )
    page.click("#a-paste-go")
    page.wait_for_function("document.location.search.includes('dice=22333')")
    # no rerolls left: every option is a box, none a keep
    page.wait_for_function(
        "() => { const rows = [...document.querySelectorAll('#a-table tbody tr')];"
        " return rows.length > 0 && rows.every(r => r.dataset.action.startsWith('score ')); }"
    )
    actions = page.eval_on_selector_all(
        "#a-table tbody tr", "rows => rows.map(r => r.dataset.action)"
    )
    assert actions and all(a.startswith("score ") for a in actions)
    assert "score ones" not in actions and "card=ones" in page.url
    # the URL restores the position
    url = page.url
    page.goto(url)
    page.locator("#a-table tbody tr").first.wait_for()
    assert page.input_value("#a-dice") == "22333"
    assert page.input_value("#a-score") == "30"
    page.fill("#m-sims", "300")
    page.click("#m-go")
    page.locator("#m-table tbody tr td.num").first.wait_for()
    assert page.locator("#m-table tbody tr").count() == page.locator("#a-table tbody tr").count()
    screenshot(page, "yahtzee-assistant")


def cache_with_remaining_tables(run_cache: Path) -> Path | None:
    """The table cache that holds the yahtzee remaining-score tables (1 GB, which the
    suite never builds): this run's, or else the user's (``~/.cache/stratagem``, where
    ``stratagem yahtzee advise ... --target 250`` builds them). Both are looked in from
    every pytest-xdist worker, whichever one first pointed $STRATAGEM_CACHE_DIR at the
    run's cache (tests/conftest.py)."""
    from stratagem.core.tables import TableCache, user_cache_dir
    from stratagem.web.yahtzee import _remaining_cached

    for directory in (run_cache, user_cache_dir()):
        if _remaining_cached("yahtzee", TableCache(directory)):
            return directory
    return None


def test_the_tables_are_found_in_the_users_cache_whichever_worker_asks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The page test below ran or skipped by how pytest-xdist shared tests out: it looked
    only in $STRATAGEM_CACHE_DIR, the run's cache in a worker where a fixture had set it."""
    from stratagem.core.tables import TableCache
    from stratagem.games.yahtzee.rules import preset
    from stratagem.web.yahtzee import REMAINING_KIND, REMAINING_VERSION

    home, run_cache = tmp_path / "xdg", tmp_path / "run"
    run_cache.mkdir()
    monkeypatch.setenv("XDG_CACHE_HOME", str(home))
    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(run_cache))
    assert cache_with_remaining_tables(run_cache) is None
    users = home / "stratagem"
    table = TableCache(users).mapped_path(
        REMAINING_KIND, preset("yahtzee").fingerprint, REMAINING_VERSION
    )
    table.parent.mkdir(parents=True)
    table.touch()
    assert cache_with_remaining_tables(run_cache) == users


def test_assistant_target_chances_and_distributions_with_cached_tables(
    page: Any, screenshot: Any, table_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    found = cache_with_remaining_tables(table_cache)
    if found is None:
        pytest.skip(
            "the yahtzee remaining-score tables (1 GB) are neither in this run's cache nor in "
            "the user's (~/.cache/stratagem); `stratagem yahtzee advise --dice 11114 "
            "--rolls-left 2 --target 250 --target-play expected` builds them there once"
        )
    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(found))  # the live server reads it per use
    page.set_default_timeout(600_000)  # loading 1 GB from the cache on a busy machine
    page.goto("/yahtzee?mode=assistant&rules=yahtzee&dice=11114&rolls=2&target=250&opt=keep+4")
    page.wait_for_function(
        "() => [...document.querySelectorAll('#a-table tbody td')]"
        ".some(td => td.textContent.endsWith('%'))"
    )
    page.wait_for_function("document.querySelectorAll('#a-hist rect.bar2').length > 20")
    assert "P(≥ 250)" in page.locator("#a-dist-note").inner_text()
    screenshot(page, "yahtzee-assistant-distribution")
