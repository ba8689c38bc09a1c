"""A slow, obviously correct Yahtzee/Yatzy solver for nearly full score cards.

It exists to check the numba solver, so it shares nothing with it but the
plain box scores (``rules.score``): dice outcomes are enumerated one ordered
throw at a time with :func:`itertools.product`, a keep is any subset of the
five dice positions, and the Yahtzee bonus, the joker rules and the upper
bonus are written out below from the rule book, not taken from ``rules.py``
or the kernels. Values are memoised on sorted dice tuples with
:func:`functools.cache` (an unbounded ``lru_cache``).

The state at the start of a turn is a :class:`Card`: the filled boxes, the
*true* (uncapped) upper total and what the Yahtzee box holds. Its value is
the expected score still to come under optimal play: box points, the upper
bonus when the upper total first reaches the threshold, and Yahtzee bonuses.
Every turn-start state reachable from the card is solved, so keep the number
of open boxes small (1-3 open boxes take well under a second to a few
seconds).

Rules, as implemented here (Hasbro's Yahtzee instructions; Yatzy as in the
Scandinavian rule books):

* Yahtzee bonus: a further Yahtzee earns ``rules.yahtzee_bonus`` while the
  Yahtzee box holds 50 (not when it holds 0).
* ``forced`` joker (official): once the Yahtzee box is filled, a Yahtzee goes
  in its own upper box if that is open; otherwise in any open lower box, where
  full house / small straight / large straight score 25 / 30 / 40; otherwise
  in any open upper box for 0.
* ``free`` joker: the Yahtzee may go in any open box; full house and the
  straights score in full only when its own upper box is filled too.
* ``none``: a Yahtzee scores like any other roll.
"""

from __future__ import annotations

from collections import Counter
from functools import cache
from itertools import combinations, product
from typing import NamedTuple

from stratagem.games.yahtzee.rules import YahtzeeRules

DICE = 5
FACES = (1, 2, 3, 4, 5, 6)
ROLLS_PER_TURN = 3
UPPER_BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes")
JOKER_POINTS = {"full_house": 25, "small_straight": 30, "large_straight": 40}

Dice = tuple[int, ...]
Option = tuple[str, object]
"""``("score", box)`` or ``("keep", sorted kept dice)``."""


class Card(NamedTuple):
    """A score card at the start of a turn."""

    filled: frozenset[str]
    upper: int
    yahtzee_box: int | None = None


@cache
def completions(kept: Dice) -> tuple[tuple[Dice, float], ...]:
    """Every sorted roll that throwing the other dice turns ``kept`` into, with its chance."""
    thrown = DICE - len(kept)
    ways = Counter(tuple(sorted(kept + dice)) for dice in product(FACES, repeat=thrown))
    total = len(FACES) ** thrown
    return tuple((roll, count / total) for roll, count in sorted(ways.items()))


@cache
def keeps(roll: Dice) -> tuple[Dice, ...]:
    """The distinct dice that can be kept from ``roll``: any subset of its positions."""
    kept = {
        tuple(sorted(roll[i] for i in positions))
        for size in range(DICE + 1)
        for positions in combinations(range(DICE), size)
    }
    return tuple(sorted(kept, key=lambda k: (len(k), k)))


def yahtzee_box_name(rules: YahtzeeRules) -> str:
    return "yahtzee" if rules.family == "yahtzee" else "yatzy"


def legal_boxes(
    rules: YahtzeeRules, dice: Dice, filled: frozenset[str], yahtzee_box: int | None
) -> dict[str, tuple[int, int]]:
    """Where ``dice`` may be scored: ``{box: (box points, Yahtzee bonus)}``.

    Same contract as ``YahtzeeRules.box_options``, written independently.
    """
    dice = tuple(sorted(dice))
    open_boxes = [box for box in rules.categories if box not in filled]
    plain = {box: rules.score(box, dice) for box in open_boxes}
    five_of_a_kind = dice[0] == dice[-1]
    if not five_of_a_kind or yahtzee_box_name(rules) not in filled:
        return {box: (points, 0) for box, points in plain.items()}
    bonus = rules.yahtzee_bonus if yahtzee_box == 50 else 0
    face = dice[0]
    own_upper = UPPER_BOXES[face - 1]
    if rules.joker == "none":
        return {box: (points, bonus) for box, points in plain.items()}
    if rules.joker == "forced":
        if own_upper not in filled:
            return {own_upper: (DICE * face, bonus)}
        open_lower = [box for box in open_boxes if box not in UPPER_BOXES]
        if open_lower:
            return {box: (JOKER_POINTS.get(box, plain[box]), bonus) for box in open_lower}
        return {box: (0, bonus) for box in open_boxes}
    assert rules.joker == "free", rules.joker
    full_value = own_upper in filled
    return {
        box: (JOKER_POINTS[box] if box in JOKER_POINTS and full_value else plain[box], bonus)
        for box in open_boxes
    }


def score_box(
    rules: YahtzeeRules, card: Card, box: str, points: int, yahtzee_bonus: int
) -> tuple[int, Card]:
    """Points gained (upper bonus included) by writing ``points`` in ``box``, and the new card."""
    gained = points + yahtzee_bonus
    upper = card.upper
    if box in UPPER_BOXES:
        upper += points
        if card.upper < rules.upper_bonus_threshold <= upper:
            gained += rules.upper_bonus
    yahtzee_box = points if box == yahtzee_box_name(rules) else card.yahtzee_box
    return gained, Card(card.filled | {box}, upper, yahtzee_box)


class Reference:
    """Optimal values of one rule set, computed the slow way (see the module docstring)."""

    def __init__(self, rules: YahtzeeRules) -> None:
        self.rules = rules
        # Per-instance memo tables, so that the rules are not hashed on every call.
        self.turn_value = cache(self._turn_value)
        self.keep_value = cache(self._keep_value)
        self.roll_value = cache(self._roll_value)
        self.box_values = cache(self._box_values)

    def _turn_value(self, card: Card) -> float:
        """Expected points still to come from the start of a turn."""
        if len(card.filled) == self.rules.num_categories:
            return 0.0
        return self.keep_value(card, (), ROLLS_PER_TURN)

    def _keep_value(self, card: Card, kept: Dice, rolls_left: int) -> float:
        """Expected points still to come after keeping ``kept`` and throwing the rest."""
        return sum(
            chance * self.roll_value(card, roll, rolls_left - 1)
            for roll, chance in completions(kept)
        )

    def _roll_value(self, card: Card, dice: Dice, rolls_left: int) -> float:
        """Expected points still to come with ``dice`` showing, under the best option."""
        return max(self.option_values(card, dice, rolls_left).values())

    def _box_values(self, card: Card, dice: Dice) -> dict[str, float]:
        """Each legal box: points gained now plus the value of the next turn."""
        out = {}
        for box, (points, bonus) in legal_boxes(
            self.rules, dice, card.filled, card.yahtzee_box
        ).items():
            gained, after = score_box(self.rules, card, box, points, bonus)
            out[box] = gained + self.turn_value(after)
        return out

    def option_values(self, card: Card, dice: Dice, rolls_left: int) -> dict[Option, float]:
        """Every option with ``dice`` showing and ``rolls_left`` throws still allowed.

        Keys are ``("score", box)`` and ``("keep", kept dice)``; values are the
        expected points still to come (points so far not included).
        """
        dice = tuple(sorted(dice))
        assert len(dice) == DICE and 0 <= rolls_left < ROLLS_PER_TURN
        values: dict[Option, float] = {
            ("score", box): value for box, value in self.box_values(card, dice).items()
        }
        if rolls_left > 0:
            for kept in keeps(dice):
                values[("keep", kept)] = self.keep_value(card, kept, rolls_left)
        return values


@cache
def reference(rules: YahtzeeRules) -> Reference:
    """The shared :class:`Reference` of ``rules`` (its memo tables persist across tests)."""
    return Reference(rules)
