"""Score Four rules in plain words (one rule set), from the board's own constants."""

from __future__ import annotations

from stratagem.core.rules_text import PresetRules
from stratagem.games.scorefour.board import CELLS, LINES, PEGS, SIZE
from stratagem.games.scorefour.state import RULES


def describe() -> PresetRules:
    """The rules of Score Four, in plain words."""
    facts = (
        ("board", f"{SIZE}x{SIZE} pegs, {SIZE} beads high"),
        ("beads", str(CELLS)),
        ("lines of four", str(len(LINES))),
    )
    paragraphs = (
        f"Two players, X and O, drop beads in turn on a {SIZE}x{SIZE} grid of {PEGS} pegs; "
        f"each peg holds {SIZE} beads, so the board is a {SIZE}x{SIZE}x{SIZE} cube of {CELLS} "
        "places. A bead falls to the lowest free place on its peg. X moves first.",
        f"The first to get {SIZE} of their own beads in a straight line wins. There are "
        f"{len(LINES)} such lines: along a row, a column or a peg, along a diagonal of a "
        "level or of an upright slice, and the four diagonals through the cube's corners.",
        f"If all {CELLS} places fill with no line of {SIZE}, the game is a draw.",
    )
    return PresetRules(RULES, "Score Four", facts, paragraphs)


def all_rules() -> list[PresetRules]:
    """The one rule set."""
    return [describe()]
