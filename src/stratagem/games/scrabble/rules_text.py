"""Scrabble rules in plain words, per tile set, from :class:`TileSet` and the board's constants.

The presets differ in their tiles (letters, counts, values); the board, rack and
bonuses are the same for both, and every number is read from the engine.
"""

from __future__ import annotations

from stratagem.core.rules_text import PresetRules
from stratagem.games.scrabble.board import BINGO, PREMIUM_ROWS, RACK_SIZE, SIZE
from stratagem.games.scrabble.state import SCORELESS_LIMIT
from stratagem.games.scrabble.tiles import TILE_SETS, TileSet

_LANGUAGE = {"english": "English", "czech": "Czech"}


def _premium_counts() -> dict[str, int]:
    counts = {ch: 0 for ch in "TDtd"}
    for row in PREMIUM_ROWS:
        for ch in row:
            if ch in counts:
                counts[ch] += 1
    return counts


def tile_values(tiles: TileSet) -> list[tuple[int, list[tuple[str, int]]]]:
    """The letters by value, highest first: ``[(value, [(letter, count), ...]), ...]``."""
    by_value: dict[int, list[tuple[str, int]]] = {}
    for letter, count, value in zip(tiles.letters, tiles.counts, tiles.values, strict=True):
        by_value.setdefault(value, []).append((letter, count))
    return sorted(by_value.items(), reverse=True)


def describe(tiles: TileSet) -> PresetRules:
    """The rules with one tile set, in plain words."""
    premium = _premium_counts()
    language = _LANGUAGE.get(tiles.name, tiles.name)
    groups = "; ".join(
        f"{value} point{'s' if value != 1 else ''}: "
        + ", ".join(f"{letter} x{count}" for letter, count in letters)
        for value, letters in tile_values(tiles)
    )
    facts = (
        ("tiles", str(tiles.total_tiles)),
        ("letters", str(tiles.size)),
        ("blanks", str(tiles.blanks)),
        ("highest letter value", str(max(tiles.values))),
        ("board", f"{SIZE}x{SIZE}"),
    )
    paragraphs = (
        f"{language} tile set: {tiles.total_tiles} tiles, {tiles.size} letters and "
        f"{tiles.blanks} blanks (a blank stands for any letter and scores 0). "
        f"Letters and their points, with how many tiles of each: {groups}.",
        f"Two to four players, each with a rack of {RACK_SIZE} tiles drawn from the bag. "
        f"The board is {SIZE}x{SIZE}; the first word covers the centre square. On a turn you "
        "lay tiles in one row or column forming words with the tiles already on the board, "
        f"then draw back up to {RACK_SIZE}; or exchange tiles (only while the bag holds at "
        f"least {RACK_SIZE}); or pass. Every word must be in the game's word list.",
        f"A word scores its letters' points. Premium squares count only when a tile is first "
        f"laid on them: {premium['d']} double-letter and {premium['t']} triple-letter squares "
        f"multiply that letter; {premium['D']} double-word squares (the centre is one) and "
        f"{premium['T']} triple-word squares multiply the whole word. Using all {RACK_SIZE} "
        f"tiles in one turn earns {BINGO} extra points.",
        "The game ends when a player uses their last tile with the bag empty: that player "
        "gains the points left on the other racks and each other player loses their own. It "
        f"also ends after {SCORELESS_LIMIT} scoreless turns in a row (passes, exchanges, "
        "moves worth 0), when every player loses the points left on their rack.",
    )
    return PresetRules(tiles.name, f"{tiles.name}: {language} tiles", facts, paragraphs)


def all_rules() -> list[PresetRules]:
    """Every tile set, in the registry's order."""
    return [describe(t) for t in TILE_SETS.values()]
