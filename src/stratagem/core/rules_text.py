"""Rules in plain words, one text per preset, written from the rules objects themselves.

Each game has a ``games/<game>/rules_text.py`` whose ``all_rules()`` returns one
:class:`PresetRules` per preset. The numbers in the text are read from the
engine's rules objects (and, where the engine keeps a number in its scoring code
rather than in a field, from scoring an example), so the page cannot drift from
the game the solvers play.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass

from stratagem.core.errors import InvalidRulesError

GAMES_WITH_RULES = ("yahtzee", "pig", "scorefour", "scrabble")


@dataclass(frozen=True)
class PresetRules:
    """One preset's rules: a title, the facts that tell presets apart, the text.

    ``facts`` are (label, value) pairs with the same labels for every preset of a
    game, so a page can set the presets side by side; ``paragraphs`` are the
    rules in plain words.
    """

    preset: str
    title: str
    facts: tuple[tuple[str, str], ...]
    paragraphs: tuple[str, ...]

    def text(self) -> str:
        """The paragraphs as one text (for tests and the command line)."""
        return "\n\n".join(self.paragraphs)


def rules_of(game: str) -> list[PresetRules]:
    """Every preset's rules of ``game``; an unknown game raises :class:`InvalidRulesError`."""
    if game not in GAMES_WITH_RULES:
        raise InvalidRulesError(
            f"no rules for game {game!r}; the games are: {', '.join(GAMES_WITH_RULES)}"
        )
    module = importlib.import_module(f"stratagem.games.{game}.rules_text")
    found: list[PresetRules] = module.all_rules()
    return found
