"""Pig rules in plain words, per preset, from :class:`PigRules`."""

from __future__ import annotations

from stratagem.core.rules_text import PresetRules
from stratagem.games.pig.rules import PRESETS, PigRules


def _faces(faces: tuple[int, ...]) -> str:
    words = [str(f) for f in faces]
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


def describe(rules: PigRules) -> PresetRules:
    """The rules of one Pig variant, in plain words."""
    coin = rules.faces == 2
    die = "a coin" if coin else f"a {rules.faces}-sided die (d{rules.faces})"
    if coin:
        adding = "Heads (face 1) adds 1 point"
        bust = "tails (face 2) busts"
        bust_fact = "tails"
    else:
        adding = f"A roll of {_faces(rules.adding_faces)} adds that many points"
        bust = f"a {_faces(rules.bust_faces)} busts"
        bust_fact = _faces(rules.bust_faces)
    lose = (
        "the turn total is lost but 1 point is banked"
        if rules.bust_scores_one
        else "the turn total is lost"
    )
    facts = (
        ("goal", str(rules.goal)),
        ("die", "coin" if coin else f"d{rules.faces}"),
        ("bust faces", bust_fact),
        ("a bust banks", "1 point" if rules.bust_scores_one else "nothing"),
        ("catch-up turn", "yes" if rules.catch_up_turn else "no"),
    )
    paragraphs = [
        f"Two players take turns with {die}. On your turn you must roll once; then you "
        "may roll again as often as you like or hold. "
        f"{adding} to your turn total; {bust}: {lose} and your turn ends. "
        "Holding banks the turn total into your score.",
        f"The first player to bank {rules.goal} or more points wins.",
    ]
    if rules.catch_up_turn:
        paragraphs.append(
            f"Catch-up turn: when the player who started holds at {rules.goal} or more, the "
            "other player gets one last turn and wins only by finishing strictly above the "
            "starter's total (so the starter may roll on past the goal to set a higher bar)."
        )
    else:
        paragraphs.append(
            f"No catch-up turn: the game ends the moment a player holds at {rules.goal} or more."
        )
    return PresetRules(rules.name, rules.describe(), facts, tuple(paragraphs))


def all_rules() -> list[PresetRules]:
    """Every preset, in the registry's order."""
    return [describe(r) for r in PRESETS.values()]
