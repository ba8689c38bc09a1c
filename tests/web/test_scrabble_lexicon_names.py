"""The Scrabble page names the word list in use: ENABLE for English, the informal list for
Czech (issue 36: the page said only "built-in (informal)")."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from stratagem.games.scrabble.lexicon import ENABLE_NAME, default_name

API = "/api/scrabble"


def test_the_options_name_each_built_in_list(client: TestClient) -> None:
    lexicons = client.get(f"{API}/options").json()["lexicons"]
    names = {(x["tiles"], x["lexicon"]): x["name"] for x in lexicons}
    assert names[("english", "builtin")] == ENABLE_NAME == "ENABLE (public domain)"
    assert names[("czech", "builtin")] == default_name("czech")
    assert "informal" in names[("czech", "builtin")]


def test_the_word_list_menu_names_the_list_of_the_tiles_chosen(page: Any) -> None:
    page.goto("/scrabble?mode=assistant")
    page.wait_for_selector("#a-board .sc-sq")
    option = page.locator("#a-lexicon option[value='builtin']")
    assert option.inner_text() == f"built-in: {ENABLE_NAME}"
    page.select_option("#a-tiles", "czech")
    assert option.inner_text() == f"built-in: {default_name('czech')}"
    assert "informal" in option.inner_text()
