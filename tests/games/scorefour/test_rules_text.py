"""Score Four rules in words: the board's size and its number of lines, from the board."""

from __future__ import annotations

from stratagem.games.scorefour.board import CELLS, LINES, PEGS
from stratagem.games.scorefour.rules_text import all_rules


def test_the_text_counts_pegs_places_and_lines_from_the_board() -> None:
    (rules,) = all_rules()
    text = rules.text()
    assert f"{PEGS} pegs" in text and f"{CELLS} places" in text
    assert f"There are {len(LINES)} such lines" in text
    assert len(LINES) == 76  # the 4x4x4 cube's lines of four (Qubic's count)
    assert "draw" in text
