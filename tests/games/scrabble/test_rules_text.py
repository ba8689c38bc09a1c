"""Scrabble rules in words: each tile set's text lists every letter with its count and value."""

from __future__ import annotations

import pytest

from stratagem.games.scrabble.board import BINGO, RACK_SIZE
from stratagem.games.scrabble.rules_text import describe
from stratagem.games.scrabble.tiles import TILE_SETS


@pytest.mark.parametrize("name", list(TILE_SETS))
def test_each_tile_sets_text_lists_its_tiles_counts_and_values(name: str) -> None:
    tiles = TILE_SETS[name]
    text = describe(tiles).text()
    assert f"{tiles.total_tiles} tiles, {tiles.size} letters and {tiles.blanks} blanks" in text
    for letter, count, value in zip(tiles.letters, tiles.counts, tiles.values, strict=True):
        group = text.split(f"{value} point{'s' if value != 1 else ''}: ")[1].split(";")[0]
        assert f"{letter} x{count}" in group.split(".")[0]
    assert f"earns {BINGO} extra points" in text and f"rack of {RACK_SIZE} tiles" in text


def test_the_two_tile_sets_differ_in_their_facts() -> None:
    english, czech = (dict(describe(TILE_SETS[n]).facts) for n in ("english", "czech"))
    assert english["letters"] == "26" and czech["letters"] == str(TILE_SETS["czech"].size)
    assert english["letters"] != czech["letters"]
