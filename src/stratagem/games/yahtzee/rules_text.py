"""Yahtzee and Yatzy rules in plain words, per preset, from :class:`YahtzeeRules`.

Fixed box values that live in the scoring code (a full house's 25, a straight's
30 or 40) are read by scoring an example roll, so the text follows the engine.
"""

from __future__ import annotations

from stratagem.core.rules_text import PresetRules
from stratagem.games.yahtzee.rules import (
    NUM_DICE,
    NUM_FACES,
    PRESETS,
    ROLLS_PER_TURN,
    UPPER,
    YahtzeeRules,
)

NAMES = {
    "ones": "Ones", "twos": "Twos", "threes": "Threes", "fours": "Fours", "fives": "Fives",
    "sixes": "Sixes", "one_pair": "One pair", "two_pairs": "Two pairs",
    "three_of_a_kind": "Three of a kind", "four_of_a_kind": "Four of a kind",
    "full_house": "Full house", "small_straight": "Small straight",
    "large_straight": "Large straight", "yahtzee": "Yahtzee", "yatzy": "Yatzy",
    "chance": "Chance",
}  # fmt: skip

# One example roll per box that scores; the points are the engine's.
_EXAMPLES = {
    "one_pair": (2, 3, 5, 5, 6),
    "two_pairs": (2, 2, 5, 5, 6),
    "three_of_a_kind": (2, 4, 4, 4, 6),
    "four_of_a_kind": (3, 5, 5, 5, 5),
    "full_house": (2, 2, 3, 3, 3),
    "small_straight": (1, 2, 3, 4, 6),
    "large_straight": (2, 3, 4, 5, 6),
    "chance": (1, 3, 4, 6, 6),
}
_WHAT = {
    "one_pair": "two dice of one face score those two dice",
    "two_pairs": "two pairs of different faces score those four dice",
    "three_of_a_kind": "three dice of one face",
    "four_of_a_kind": "four dice of one face",
    "full_house": "three of one face and two of another",
    "small_straight": "",
    "large_straight": "",
    "chance": "anything: the sum of the dice",
}


def _dice(d: tuple[int, ...]) -> str:
    return " ".join(map(str, d))


def _box_line(rules: YahtzeeRules, box: str) -> str:
    yahtzee_family = rules.family == "yahtzee"
    name = NAMES[box]
    if box in UPPER:
        face = UPPER.index(box) + 1
        return f"{name}: the sum of the {face}s"
    if box == rules.yahtzee_category:
        points = rules.score(box, (6,) * NUM_DICE)
        return f"{name}: five of a kind scores {points}"
    if box == "small_straight":
        d = (1, 2, 3, 4, 6) if yahtzee_family else (1, 2, 3, 4, 5)
        what = "four faces in a row" if yahtzee_family else "exactly 1 2 3 4 5"
        return f"{name}: {what} scores {rules.score(box, d)} (e.g. {_dice(d)})"
    if box == "large_straight":
        d = (2, 3, 4, 5, 6)
        what = "five faces in a row" if yahtzee_family else "exactly 2 3 4 5 6"
        return f"{name}: {what} scores {rules.score(box, d)} (e.g. {_dice(d)})"
    d = _EXAMPLES[box]
    points = rules.score(box, d)
    how = "the sum of all five dice" if box in ("three_of_a_kind", "four_of_a_kind") else ""
    if not yahtzee_family and box in ("three_of_a_kind", "four_of_a_kind"):
        how = "the sum of those dice"
    if box == "full_house":
        how = f"a fixed {points}" if points == 25 and yahtzee_family else "the sum of the dice"
    text = f"{name}: {_WHAT[box]}" + (f", scoring {how}" if how else "")
    return f"{text} (e.g. {_dice(d)} scores {points})"


def _joker_text(rules: YahtzeeRules) -> str:
    if rules.family == "yatzy":
        return "There is no bonus for further Yatzys and no joker rule."
    bonus = (
        f"Each further Yahtzee, while the Yahtzee box holds 50, pays a bonus of "
        f"{rules.yahtzee_bonus} points."
        if rules.yahtzee_bonus
        else "Further Yahtzees pay no bonus."
    )
    d = (4,) * NUM_DICE
    fixed = ", ".join(
        f"{NAMES[b].lower()} {rules.joker_score(b, d, upper_filled=True)}"
        for b in ("full_house", "small_straight", "large_straight")
    )
    if rules.joker == "forced":
        joker = (
            "Joker rule (forced): once the Yahtzee box is filled, a further Yahtzee must go "
            "in the upper box of its face if that is open; otherwise in any open lower box, "
            f"where it scores in full ({fixed}); only if every lower box is full, in an "
            "open upper box for 0."
        )
    elif rules.joker == "free":
        joker = (
            "Joker rule (free): once the Yahtzee box is filled, a further Yahtzee may go "
            f"in any open box; {fixed} are paid in full only when the upper box of its "
            "face is already filled."
        )
    else:
        joker = (
            "No joker rule: a further Yahtzee scores in a box only by that box's own rule "
            "(so it is never a full house or a straight)."
        )
    return f"{bonus} {joker}"


def describe(rules: YahtzeeRules) -> PresetRules:
    """The rules of one rule set, in plain words."""
    boxes = rules.categories
    lower = [b for b in boxes if b not in UPPER]
    joker = "none" if rules.family == "yatzy" else rules.joker
    facts = (
        ("boxes", str(len(boxes))),
        ("upper bonus", f"{rules.upper_bonus} at {rules.upper_bonus_threshold}"),
        (
            "bonus per further five of a kind",
            f"+{rules.yahtzee_bonus}" if rules.yahtzee_bonus else "none",
        ),
        ("joker rule", joker),
    )
    family = "American Yahtzee" if rules.family == "yahtzee" else "Scandinavian Yatzy"
    paragraphs = (
        f"{family}, one player's card of {len(boxes)} boxes. Each turn you roll "
        f"{NUM_DICE} dice ({NUM_FACES} faces) up to {ROLLS_PER_TURN} times: after each roll "
        "keep any dice and roll the rest again. Then score the dice in one open box "
        f"(a box that does not fit scores 0). The game ends after {len(boxes)} turns, "
        "when every box is filled; the highest total wins.",
        "Upper section: " + "; ".join(_box_line(rules, b) for b in UPPER) + ". "
        f"If the six upper boxes add up to at least {rules.upper_bonus_threshold}, "
        f"you get an upper bonus of {rules.upper_bonus} points.",
        "Lower section: " + "; ".join(_box_line(rules, b) for b in lower) + ".",
        _joker_text(rules),
    )
    return PresetRules(rules.name, f"{rules.name}: {family}", facts, paragraphs)


def all_rules() -> list[PresetRules]:
    """Every preset, in the registry's order."""
    return [describe(r) for r in PRESETS.values()]
