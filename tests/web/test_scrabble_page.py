"""The Scrabble page in chromium: a first move by rack and board clicks, the assistant, links."""

from __future__ import annotations

import re
from typing import Any

from stratagem.games.scrabble.board import board_from_text, parse_coordinate
from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.movegen import generate_moves

from .test_scrabble_club_page import open_dealt_game

COLUMNS = "ABCDEFGHIJKLMNO"


FIRST_MOVE_SEED = 1  # the rack has a word among the coach's top rows


def test_a_first_move_by_clicking_rack_tiles_and_squares(page: Any, screenshot: Any) -> None:
    open_dealt_game(page, seed=FIRST_MOVE_SEED)
    assert page.locator("#board .sc-sq").count() == 225
    labels = [t.get_attribute("aria-label") for t in page.locator("#rack .sc-tile").all()]
    rack = ["?" if label == "blank tile" else label[-1] for label in labels]
    assert len(rack) == 7
    page.click("#hint")
    page.wait_for_selector("#hint-panel:not(.hidden)")
    rows = [[c.inner_text() for c in r.locator("td").all()]
            for r in page.locator("#hint-table tbody tr").all()]  # fmt: skip
    assert rows[0][4] == "best" and all(len(r) == 5 for r in rows)
    values = [float(r[3]) for r in rows]
    assert values == sorted(values, reverse=True)  # the coach's order: score + leave
    best, score = next(r[:2] for r in rows if r[0] != "pass" and not r[0].startswith("x "))
    coordinate, word = best.split()
    row, col, across = parse_coordinate(coordinate)
    # Lay the word tile by tile: pick a rack tile, then its square (a blank asks for its letter).
    blank_letters: list[str] = []
    page.on("dialog", lambda d: d.accept(blank_letters.pop(0)))
    used: set[int] = set()
    for i, letter in enumerate(word):
        want = "?" if letter.islower() else letter
        index = next(k for k, t in enumerate(rack) if t == want and k not in used)
        used.add(index)
        if want == "?":
            blank_letters.append(letter)
        page.locator("#rack .sc-tile").nth(index).click()
        r, c = (row, col + i) if across else (row + i, col)
        page.click(f"#board .sc-sq[data-r='{r}'][data-c='{c}']")
    assert page.locator("#board .sc-sq.pending").count() == len(word)
    assert page.input_value("#move") == best  # the clicks spell the CLI's notation
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#history div').length >= 2")
    history = page.locator("#history").inner_text()
    assert f"You: {best} {score}" in history  # the session's text of the move
    assert page.locator("#your-score").inner_text() == score
    assert re.search(r"AI: (\S+ \S+ \d+|exchange \d+ tiles?|pass)", history)
    for i, letter in enumerate(word):
        r, c = (row, col + i) if across else (row + i, col)
        square = page.locator(f"#board .sc-sq[data-r='{r}'][data-c='{c}']")
        assert square.inner_text().split("\n")[0] == letter.upper()
    if "AI: exchange" not in history and "AI: pass" not in history:
        assert page.locator("#board .sc-sq.last-ai").count() >= 1  # the AI's move is marked
    page.click("#hint")  # the coach again, for the next move
    page.wait_for_selector("#hint-panel:not(.hidden)")
    page.locator("#hint-table tbody tr").nth(1).click()
    assert page.locator("#hint-why").inner_text()  # the chosen move's terms in words
    screenshot(page, "scrabble-play")


def test_an_illegal_typed_move_is_explained(page: Any) -> None:
    page.goto("/scrabble?mode=play")
    page.wait_for_selector("#status:has-text('Your move')")
    page.fill("#move", "A1 ZZ")
    page.keyboard.press("Enter")
    page.wait_for_selector("#error-box.shown")
    assert "centre" in page.locator("#error-box").inner_text()


def test_the_assistant_lists_shows_and_links_the_best_moves(
    page: Any, browser: Any, live_server: str, screenshot: Any
) -> None:
    page.goto("/scrabble?mode=assistant")
    page.wait_for_selector("#a-board .sc-sq")
    page.click("#a-board .sc-sq[data-r='7'][data-c='6']")  # 8G, typing across
    page.keyboard.type("QUIT")
    page.fill("#a-rack", "RETAINS")
    page.select_option("#a-rank", "score")  # the highest-scoring placements
    page.click("#a-find")
    page.wait_for_selector("#a-table tbody tr")
    rows = ["." * 15] * 15
    rows[7] = "......QUIT....."
    lex = default_lexicon("english")
    own = generate_moves(board_from_text(rows, lex.tiles), lex.tiles.rack_counts("RETAINS"), lex)
    cells = [r.locator("td").all() for r in page.locator("#a-table tbody tr").all()]
    shown = [(c[1].inner_text(), int(c[2].inner_text())) for c in cells]
    assert shown == [(f"{coordinate_of(m)} {m.word}", m.score) for m in own[:10]]
    page.locator("#a-table tbody tr").nth(1).click()  # the second move, on the board
    second = own[1]
    assert page.locator("#a-board .sc-sq.preview").count() == sum(
        rows[r][c] == "." for r, c in second.squares()
    )
    # The address restores the position, the rack, the ranking, the list and the move shown.
    url = page.url
    assert "board=" in url and "rack=" in url and "show=1" in url and "rank=score" in url
    other = browser.new_context(base_url=live_server).new_page()
    other.goto(url)
    other.wait_for_selector("#a-table tbody tr.selected")
    again = [r.locator("td").nth(1).inner_text() for r in other.locator("#a-table tbody tr").all()]
    assert again == [s for s, _ in shown]
    assert (
        other.locator("#a-board .sc-sq.preview").count()
        == page.locator("#a-board .sc-sq.preview").count()
    )
    other.context.close()
    # Ranked by the coach: score + the value of the tiles kept, each with what it gives up.
    page.select_option("#a-rank", "value")
    page.fill("#a-rack", "EIIRSUV")  # a rack whose leaves differ
    page.click("#a-find")
    page.wait_for_selector("#a-note:has-text('best by the coach')")
    cells = [[c.inner_text() for c in r.locator("td").all()]
             for r in page.locator("#a-table tbody tr").all()]  # fmt: skip
    values = [float(c[4]) for c in cells]
    assert values == sorted(values, reverse=True) and cells[0][5] == "best"
    page.locator("#a-table tbody tr").nth(1).click()
    assert page.locator("#a-why").inner_text().startswith("opening: scores")
    screenshot(page, "scrabble-assistant")


def test_a_pasted_position_is_loaded_and_analysed(page: Any) -> None:
    page.goto("/scrabble?mode=assistant")
    page.wait_for_selector("#a-board .sc-sq")
    rows = ["." * 15] * 15
    rows[7] = ".......CAT....."
    page.click("summary")
    page.fill("#a-text", "racks: DOGS -\nboard:\n" + "\n".join(rows))
    page.click("#a-load")
    page.wait_for_selector("#a-table tbody tr")
    assert page.input_value("#a-rack") == "OSDG"  # the position's rack, in tile-set order
    assert page.locator("#a-board .sc-sq[data-r='7'][data-c='8']").inner_text().startswith("A")
    page.fill("#a-text", "board:\n" + "\n".join(rows[:14]))
    page.click("#a-load")
    page.wait_for_selector("#error-box.shown")
    assert "14 rows" in page.locator("#error-box").inner_text()


def test_the_phone_layout(phone: Any, screenshot: Any) -> None:
    phone.goto("/scrabble?mode=play")
    phone.wait_for_selector("#status:has-text('Your move')")
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
    screenshot(phone, "scrabble-phone-dark")


def coordinate_of(move: Any) -> str:
    r, c = move.row, move.col
    return f"{r + 1}{COLUMNS[c]}" if move.across else f"{COLUMNS[c]}{r + 1}"
