"""The Scrabble page in chromium as a club player uses it: unseen tiles, challenges, a game
record opened at move 12, an endgame answered within its budget."""

from __future__ import annotations

import itertools
import time
from pathlib import Path
from typing import Any

from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.position import write_position
from stratagem.games.scrabble.tiles import tile_set

from .test_scrabble_club_api import full_racks_endgame

RECORD = Path(__file__).parents[1] / "games" / "scrabble" / "data" / "selfplay_1.gcg"


def start_game(page: Any, challenge: str = "none", think: str = "2") -> None:
    page.goto("/scrabble?mode=play")
    page.wait_for_selector("#status:has-text('Your move')")
    page.select_option("#ai", "greedy")
    page.select_option("#challenge", challenge)
    page.select_option("#think", think)
    page.once("dialog", lambda d: d.accept())  # "New game" during a game asks first
    page.click("#new-game")
    page.wait_for_selector("#status:has-text('Your move')")
    page.wait_for_function("() => document.querySelectorAll('#history div').length === 0"
                           " || document.querySelector('#history span')")  # fmt: skip


def open_dealt_game(page: Any, seed: int, challenge: str = "none") -> None:
    """A game against greedy with a pinned deal, opened from its URL as a shared link is.

    The page's own "New game" draws a random deal, and a test that must meet a given
    situation (a word to play in the coach's top rows, an AI reply that is a word)
    met, once in a few hundred runs, a rack or a reply without one.
    """
    body = {
        "game": "scrabble",
        "rules": f"english:challenge={challenge}",
        "seats": ["human", "greedy"],
        "seed": seed,
    }
    r = page.request.post("/api/sessions", data=body)
    assert r.ok, r.text()
    page.goto(f"/scrabble?mode=play&id={r.json()['id']}")
    page.wait_for_selector("#status:has-text('Your move')")


def board_and_rack(page: Any) -> tuple[list[str], list[str]]:
    """The letters on the board (lower case: blank) and the rack, read from the page."""
    letters = []
    for sq in page.locator("#board .sc-sq.sc-tile").all():
        label = sq.get_attribute("aria-label")
        letter = label.split(": ")[1][0]
        letters.append(letter.lower() if "(blank)" in label else letter)
    rack = []
    for t in page.locator("#rack .sc-tile").all():
        label = t.get_attribute("aria-label")
        rack.append("?" if label == "blank tile" else label[-1])
    return letters, rack


def expected_unseen(letters: list[str], rack: list[str]) -> dict[str, int]:
    """The rules' bag (the English set) less the board and the rack."""
    ts = tile_set("english")
    counts = dict(zip(ts.letters, ts.counts)) | {"?": ts.blanks}
    for ch in letters:
        counts["?" if ch.islower() else ch] -= 1
    for ch in rack:
        counts[ch] -= 1
    return counts


def shown_unseen(page: Any) -> dict[str, int]:
    out = {}
    for span in page.locator("#unseen span").all():
        text = span.inner_text()
        out[text[0]] = int(text[1:])
    return out


def test_the_unseen_tiles_are_right_after_every_move_of_a_game(page: Any, screenshot: Any) -> None:
    start_game(page)
    moves = 0
    while True:
        # The page renders the board, the rack and the panel from one response, but not in
        # one frame (right after "New game" the old game can still be on screen for a
        # moment): read until they agree, then hold the panel to the rules' bag.
        deadline = time.monotonic() + 10
        while True:
            letters, rack = board_and_rack(page)
            shown, expected = shown_unseen(page), expected_unseen(letters, rack)
            if shown == expected or time.monotonic() > deadline:
                break
            page.wait_for_timeout(200)
        assert shown == expected, f"after {moves} moves"
        summary = page.locator("#tracking-summary").inner_text()
        bag = int(page.locator("#bag").inner_text())
        assert f"bag {bag}," in summary
        if moves == 3:
            screenshot(page, "scrabble_play_tracking")
        if page.locator("#status").inner_text().startswith("game over"):
            break
        page.click("#hint")
        page.wait_for_selector("#hint-panel:not(.hidden)")
        page.locator("#hint-table tbody tr").first.click()
        before = page.locator("#history div").count()
        page.click("#play-move")
        page.wait_for_function(
            f"() => document.querySelectorAll('#history div').length > {before} && "
            "!document.querySelector('#play-move').disabled || "
            "document.querySelector('#status').textContent.startsWith('game over')"
        )
        moves += 1
    assert moves > 5
    log = page.locator("#history").inner_text()
    assert "End:" in log and "Totals: you" in log  # the rack adjustment, so the column adds up
    screenshot(page, "scrabble_play_end")


def a_phony(rack: list[str]) -> str:
    lex = default_lexicon(tile_set("english"))
    for combo in itertools.permutations([ch for ch in rack if ch != "?"], 3):
        if "".join(combo) not in lex:
            return "".join(combo)
    raise AssertionError(rack)


# The deal keeps a blank in the person's rack: more than the 2,000 legal decisions a view
# lists, so "challenge" (listed last) is cut from the list and the page must read the
# view's challenge_open (it read the list, and its button never enabled: a CI failure).
CHALLENGE_SEED = 1


def test_a_double_challenge_game(page: Any, screenshot: Any) -> None:
    open_dealt_game(page, seed=CHALLENGE_SEED, challenge="double")
    page.wait_for_selector("#challenge-btn:not(.hidden)")  # the new game is drawn
    assert page.locator("#challenge-btn").is_disabled()  # nothing to challenge yet
    _, rack = board_and_rack(page)
    phony = a_phony(rack)
    page.fill("#move", f"8H {phony}")
    page.click("#play-move")
    page.wait_for_selector("#history .verdict")
    assert "taken back" in page.locator("#history .verdict").first.inner_text()
    assert page.locator("#history .withdrawn").count() == 1
    assert page.locator("#your-score").inner_text() == "0"
    page.wait_for_selector("#challenge-btn:not([disabled])")  # the AI has played a word
    ai_moves = page.locator("#history div.ai:not(.verdict):not(.end)").count()
    page.click("#challenge-btn")
    page.wait_for_function("() => document.querySelectorAll('#history .verdict').length === 2")
    verdict = page.locator("#history .verdict").nth(1).inner_text()
    assert verdict.startswith("You challenged:") and "loses a turn" in verdict
    page.wait_for_selector("#status:has-text('Your move')")
    # the wrong challenge lost the turn: the AI has moved again
    assert page.locator("#history div.ai:not(.verdict):not(.end)").count() == ai_moves + 1
    screenshot(page, "scrabble_challenge")


def test_a_game_record_opens_at_move_12_beside_the_coach(page: Any, screenshot: Any) -> None:
    page.goto("/scrabble?mode=assistant")
    page.wait_for_selector("#a-board .sc-sq")
    page.click("#gcg-panel summary")
    page.fill("#gcg-text", RECORD.read_text())
    page.click("#gcg-open")
    page.wait_for_selector("#gcg-turns tbody tr")
    page.click("#gcg-turns tbody tr[data-turn='12']")
    page.wait_for_selector("#a-recorded:not(.hidden)")
    recorded = page.locator("#a-recorded").inner_text()
    turn12 = page.locator("#gcg-turns tbody tr[data-turn='12'] td").nth(3).inner_text()
    assert recorded.startswith(f"Turn 12, recorded: {turn12}")
    rows = page.locator("#a-table tbody tr")
    assert rows.count() > 0 and rows.first.locator("td").nth(5).inner_text() == "best"
    assert page.locator("#a-board .sc-sq.sc-tile").count() > 20
    screenshot(page, "scrabble_gcg_review")
    # a record that does not replay is refused with its line named
    page.fill("#gcg-text", RECORD.read_text().replace("8F GRAPERY +84", "8F GRAPERY +85"))
    page.click("#gcg-open")
    page.wait_for_selector("#gcg-note:has-text('GCG line')")
    assert "scores 84" in page.locator("#gcg-note").inner_text()
    # files: not UTF-8, or too large, are refused before anything is sent; the text stays
    pasted = page.input_value("#gcg-text")
    latin = {
        "name": "old.gcg",
        "mimeType": "text/plain",
        "buffer": b">j\xf6rg: CAT 8H CAT +10 10\n",
    }
    page.set_input_files("#gcg-file", files=[latin])
    page.wait_for_selector("#gcg-note:has-text('not UTF-8')")
    big = {"name": "big.gcg", "mimeType": "text/plain", "buffer": b"#note " + b"x" * 70_000}
    page.set_input_files("#gcg-file", files=[big])
    page.wait_for_selector("#gcg-note:has-text('70006 bytes')")
    assert page.input_value("#gcg-text") == pasted


def test_an_endgame_is_answered_within_its_budget(page: Any, screenshot: Any) -> None:
    state = full_racks_endgame()
    page.goto("/scrabble?mode=assistant")
    page.wait_for_selector("#a-board .sc-sq")
    page.select_option("#a-budget", "2")
    page.click("details:not(#gcg-panel) summary")
    page.fill("#a-text", write_position(state))
    began = time.monotonic()
    page.click("#a-load")
    page.wait_for_selector("#a-endgame-panel:not(.hidden)")
    took = time.monotonic() - began
    text = page.locator("#a-endgame").inner_text()
    assert "best found in 2 s" in text and took < 2 + 1.5  # its budget, a second, the page
    assert "the bag is empty" in page.locator("#a-tracking-where").inner_text()
    screenshot(page, "scrabble_endgame")


def test_phonies_on_a_typed_board_are_marked(page: Any, screenshot: Any) -> None:
    page.goto("/scrabble?mode=assistant")
    page.wait_for_selector("#a-board .sc-sq")
    page.click("#a-board .sc-sq[data-r='7'][data-c='6']")  # 8G, typing across
    page.keyboard.type("ZEBRM")
    page.fill("#a-rack", "AEINRST")
    page.fill("#a-my-score", "120")
    page.fill("#a-their-score", "95")
    page.click("#a-find")
    page.wait_for_selector("#a-table tbody tr")
    assert page.locator("#a-board .sc-sq.phony").count() == 5
    assert "ZEBRM" in page.locator("#a-phonies").inner_text()
    # the unseen tiles: the set less ZEBRM and the rack
    assert page.locator("#a-tracking-summary").inner_text().startswith("88 unseen: bag 81")
    screenshot(page, "scrabble_assistant_phony")
