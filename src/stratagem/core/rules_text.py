"""Rules in plain words, one text per preset, written from the rules objects themselves.

Each game names in its spec (:attr:`~stratagem.core.registry.GameSpec.rules_text`) a
function, ``games/<game>/rules_text.py``'s ``all_rules()``, that returns one
:class:`PresetRules` per preset. The numbers in the text are read from the
engine's rules objects (and, where the engine keeps a number in its scoring code
rather than in a field, from scoring an example), so the page cannot drift from
the game the solvers play.
"""

from __future__ import annotations

from dataclasses import dataclass

from stratagem.core.errors import InvalidRulesError


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


def games_with_rules() -> list[str]:
    """The games that give their rules in plain words (:attr:`GameSpec.rules_text`)."""
    from stratagem.core.registry import available_games, load_game

    return [name for name in available_games() if load_game(name).rules_text is not None]


def rules_of(game: str) -> list[PresetRules]:
    """Every preset's rules of ``game``; an unknown game, or one without a rules text, raises
    :class:`InvalidRulesError`."""
    from stratagem.core.registry import available_games, load_game

    text = load_game(game).rules_text if game in available_games() else None
    if text is None:
        raise InvalidRulesError(
            f"no rules for game {game!r}; the games are: {', '.join(games_with_rules())}"
        )
    found: list[PresetRules] = text.load()()
    return found
