"""Yahtzee/Yatzy positions: score cards, the game state for 1-4 players, actions.

The game state implements :mod:`stratagem.core.game`. A turn starts at a
chance node (five dice thrown); the player then keeps dice and rerolls (at
most twice) or scores a box; keeping dice leads to another chance node.

>>> from stratagem.games.yahtzee.rules import preset
>>> s = YahtzeeState.new(preset("yahtzee"), players=2)
>>> s.current_player
-1
>>> s = s.apply(Roll((1, 1, 1, 1, 4)))
>>> s.current_player, s.rolls_left, str(s.legal_actions()[0])
(0, 2, 'keep -')
>>> str(s.apply(Score("ones")).cards[0])
'ones=4 | total 4'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache, cached_property, lru_cache
from itertools import combinations_with_replacement
from typing import Generic, Protocol, Self, TypeVar

import numpy as np

from stratagem.core.errors import IllegalActionError, InvalidStateError
from stratagem.core.game import CHANCE, TERMINAL
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee.rules import (
    NUM_DICE,
    NUM_FACES,
    ROLLS_PER_TURN,
    UPPER,
    YahtzeeRules,
    check_dice,
)

MAX_PLAYERS = 4


@dataclass(frozen=True)
class Keep:
    """Keep these dice (sorted) and reroll the rest; ``str`` is ``keep 1 1 4`` or ``keep -``."""

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", _sorted_faces(self.dice))

    def __str__(self) -> str:
        return "keep " + (" ".join(map(str, self.dice)) if self.dice else "-")


@dataclass(frozen=True)
class Score:
    """Score the dice in a box, ending the turn; ``str`` is ``score full_house``."""

    category: str

    def __str__(self) -> str:
        return f"score {self.category}"


@dataclass(frozen=True)
class Roll:
    """A chance outcome: the faces of the dice thrown (sorted)."""

    dice: tuple[int, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "dice", _sorted_faces(self.dice))

    def __str__(self) -> str:
        return "roll " + " ".join(map(str, self.dice))


def parse_action(text: str) -> Keep | Score:
    """Read ``keep 1 1 4``, ``keep -`` or ``score chance`` (the ``str`` of an action)."""
    words = text.split()
    if len(words) >= 2 and words[0] == "keep":
        if words[1:] == ["-"]:
            return Keep(())
        try:
            kept = tuple(sorted(int(w) for w in words[1:]))
        except ValueError:
            raise IllegalActionError(f"cannot read {text!r}: keep takes die faces 1..6") from None
        return Keep(kept)
    if len(words) == 2 and words[0] == "score":
        return Score(words[1])
    raise IllegalActionError(f"cannot read {text!r}; write 'keep 1 1 4', 'keep -' or 'score <box>'")


class CardTotals:
    """What every score card computes from its boxes: the full card (:class:`Scorecard`)
    and a reduced one (:class:`~.duel_play.VariantCard`) differ only in their list of
    boxes, their upper bonus and (the full card) Yahtzee bonuses, given by the hooks
    below, so the sums and the text are written once."""

    boxes: tuple[int | None, ...]

    @property
    def categories(self) -> tuple[str, ...]:
        """The card's boxes in card order."""
        raise NotImplementedError

    def bonus_rule(self) -> tuple[int, int]:
        """``(threshold, points)`` of the upper bonus (threshold 0: no bonus)."""
        raise NotImplementedError

    def extra_points(self) -> int:
        """Points outside the boxes and the upper bonus (Yahtzee bonuses)."""
        return 0

    @property
    def filled(self) -> frozenset[str]:
        return frozenset(c for c, v in zip(self.categories, self.boxes) if v is not None)

    @property
    def mask(self) -> int:
        """Filled boxes as a bit mask in card order (the solvers' index)."""
        return sum(1 << i for i, v in enumerate(self.boxes) if v is not None)

    @property
    def upper_total(self) -> int:
        return sum(v for c, v in zip(self.categories, self.boxes) if v is not None and c in UPPER)

    @property
    def upper_bonus_points(self) -> int:
        threshold, points = self.bonus_rule()
        return points if threshold and self.upper_total >= threshold else 0

    @property
    def total(self) -> int:
        """Points so far, bonuses included (the final score once the card is full)."""
        boxes = sum(v for v in self.boxes if v is not None)
        return boxes + self.upper_bonus_points + self.extra_points()

    @property
    def is_full(self) -> bool:
        return all(v is not None for v in self.boxes)

    def __str__(self) -> str:
        parts = [f"{c}={v}" for c, v in zip(self.categories, self.boxes) if v is not None]
        if self.upper_bonus_points:
            parts.append(f"upper_bonus={self.upper_bonus_points}")
        if self.extra_points():
            parts.append(f"yahtzee_bonus={self.extra_points()}")
        return " ".join(parts or ["(empty)"]) + f" | total {self.total}"


@dataclass(frozen=True)
class Scorecard(CardTotals):
    """One player's card: points in each box (``None`` while open) and bonuses."""

    rules: YahtzeeRules
    boxes: tuple[int | None, ...]
    yahtzee_bonus_points: int = 0

    @classmethod
    def empty(cls, rules: YahtzeeRules) -> Scorecard:
        return cls(rules, (None,) * rules.num_categories)

    @property
    def categories(self) -> tuple[str, ...]:
        return self.rules.categories

    def bonus_rule(self) -> tuple[int, int]:
        return self.rules.upper_bonus_threshold, self.rules.upper_bonus

    def extra_points(self) -> int:
        return self.yahtzee_bonus_points

    @property
    def yahtzee_box(self) -> int | None:
        return self.boxes[self.rules.categories.index(self.rules.yahtzee_category)]

    @property
    def flag(self) -> int:
        """1 when the Yahtzee box holds 50 and further Yahtzees earn a bonus."""
        return int(self.rules.has_yahtzee_bonus and self.yahtzee_box == 50)

    def options(self, dice: Sequence[int]) -> dict[str, tuple[int, int]]:
        """Legal boxes for ``dice``: ``{box: (box points, Yahtzee bonus)}``."""
        return self.rules.box_options(dice, self.filled, self.yahtzee_box)

    def score(self, category: str, dice: Sequence[int]) -> Scorecard:
        """The card after scoring ``dice`` in ``category``; illegal boxes raise."""
        index = self.rules.category_index(category)
        options = self.options(dice)
        if category not in options:
            if self.boxes[index] is not None:
                why = f"the {category} box is already filled"
            else:
                why = f"the joker rule allows only: {', '.join(options)}"
            raise IllegalActionError(f"cannot score {category}: {why}")
        points, bonus = options[category]
        boxes = list(self.boxes)
        boxes[index] = points
        return Scorecard(self.rules, tuple(boxes), self.yahtzee_bonus_points + bonus)


class Card(Protocol):
    """What a game position asks of a score card (:class:`Scorecard`, a variant's card)."""

    @property
    def filled(self) -> frozenset[str]: ...

    @property
    def total(self) -> int: ...

    @property
    def is_full(self) -> bool: ...

    def options(self, dice: Sequence[int]) -> dict[str, tuple[int, int]]: ...

    def score(self, category: str, dice: Sequence[int]) -> Self: ...


R = TypeVar("R")
C = TypeVar("C", bound=Card)


@dataclass(frozen=True)
class TurnState(Generic[R, C]):
    """A position of a 1-4 player game of score cards, turn by turn (implements
    :class:`stratagem.core.game.State`): the full card (:class:`YahtzeeState`) and a
    reduced one (:class:`~.duel_play.VariantState`) are played alike, so the turn is
    written once; a subclass gives its empty card (:meth:`empty_card`).

    ``dice`` holds the kept dice while a roll is pending (a chance node) and
    the five dice showing at a decision. ``rolls_left`` counts the throws the
    player may still make this turn, the pending one included.
    """

    rules: R
    cards: tuple[C, ...]
    player: int = 0
    dice: tuple[int, ...] = ()
    rolls_left: int = ROLLS_PER_TURN
    rolling: bool = True

    @classmethod
    def empty_card(cls, rules: R) -> C:
        raise NotImplementedError

    @classmethod
    def new(cls, rules: R, players: int = 1) -> Self:
        """A fresh game: empty cards, player 0 about to throw."""
        if isinstance(players, bool) or not isinstance(players, int):
            raise InvalidStateError(f"the number of players is a whole number, not {players!r}")
        if not 1 <= players <= MAX_PLAYERS:
            raise InvalidStateError(f"Yahtzee takes 1 to {MAX_PLAYERS} players, not {players}")
        return cls(rules, tuple(cls.empty_card(rules) for _ in range(players)))

    @property
    def num_players(self) -> int:
        return len(self.cards)

    @property
    def card(self) -> C:
        """The card of the player whose turn it is."""
        return self.cards[self.player]

    @property
    def current_player(self) -> int:
        if self.is_terminal():
            return TERMINAL
        return CHANCE if self.rolling else self.player

    def is_terminal(self) -> bool:
        return self.cards[-1].is_full

    def returns(self) -> tuple[float, ...]:
        return tuple(float(card.total) for card in self.cards)

    @cached_property
    def _keeps(self) -> tuple[Keep, ...]:
        roll = D.KEEP_INDEX[self.dice] - D.ROLL_START
        subs = D.SUBKEEPS[roll, : D.SUBKEEP_COUNT[roll]]
        return tuple(Keep(D.KEEPS[k]) for k in subs)

    def legal_actions(self) -> list[Keep | Score]:
        """Every distinct keep (while rerolls are left), then every legal box."""
        if self.rolling or self.is_terminal():
            return []
        actions: list[Keep | Score] = list(self._keeps) if self.rolls_left > 0 else []
        actions.extend(Score(c) for c in self.card.options(self.dice))
        return actions

    def chance_key(self) -> tuple[int, int, int]:
        """(player, turn = boxes filled on that card, throw 0..2): the slot of a roll."""
        return (self.player, len(self.card.filled), ROLLS_PER_TURN - self.rolls_left)

    def sample_chance(self, rng: np.random.Generator) -> Roll:
        """Throw the dice not kept: five faces are drawn and the first ones used, so
        that one slot gives the same faces whatever was kept (common random numbers)."""
        faces = rng.integers(1, 7, size=NUM_DICE)
        return Roll(tuple(int(f) for f in faces[: NUM_DICE - len(self.dice)]))

    def chance_outcomes(self) -> list[tuple[Roll, float]]:
        if not self.rolling or self.is_terminal():
            return []
        return [(Roll(k), p) for k, p in D.outcomes(NUM_DICE - len(self.dice))]

    def apply(self, action: object) -> Self:
        if self.is_terminal():
            raise IllegalActionError("the game is over")
        at = type(self)
        if self.rolling:
            if not isinstance(action, Roll):
                raise IllegalActionError(f"a roll of the dice is pending, not {action}")
            thrown = NUM_DICE - len(self.dice)
            check_dice(action.dice, thrown)
            dice = tuple(sorted(self.dice + action.dice))
            return at(self.rules, self.cards, self.player, dice, self.rolls_left - 1, False)
        if isinstance(action, Keep):
            if self.rolls_left == 0:
                raise IllegalActionError("no rerolls left: score a box")
            if action not in self._keeps:
                raise IllegalActionError(f"cannot {action}: the dice are {_faces(self.dice)}")
            return at(self.rules, self.cards, self.player, action.dice, self.rolls_left, True)
        if isinstance(action, Score):
            card = self.card.score(action.category, self.dice)
            cards = (*self.cards[: self.player], card, *self.cards[self.player + 1 :])
            return at(self.rules, cards, (self.player + 1) % self.num_players)
        raise IllegalActionError(f"{action!r} is not a Yahtzee action (Keep or Score)")

    def __str__(self) -> str:
        lines = [f"player {i}: {card}" for i, card in enumerate(self.cards)]
        what = "to roll" if self.rolling else f"dice {_faces(self.dice)}"
        lines.append(f"player {self.player} {what}, {self.rolls_left} rolls left")
        return "\n".join(lines)


@dataclass(frozen=True)
class YahtzeeState(TurnState[YahtzeeRules, Scorecard]):
    """A position of a 1-4 player game on a preset's full card (see :class:`TurnState`)."""

    @classmethod
    def empty_card(cls, rules: YahtzeeRules) -> Scorecard:
        return Scorecard.empty(rules)

    def situation(self) -> Situation:
        """The decision the player to move faces, for the advisor."""
        if self.rolling or self.is_terminal():
            raise InvalidStateError("there is no decision to advise on at a roll or at the end")
        card = self.card
        return Situation(
            self.rules,
            self.dice,
            self.rolls_left,
            card.filled,
            card.upper_total,
            # Only American Yahtzee's box value matters (bonus and jokers); a filled
            # Yatzy box must not be passed on (Situation refuses it).
            card.yahtzee_box if self.rules.family == "yahtzee" else None,
            card.total,
        )


def _sorted_faces(dice: Sequence[int]) -> tuple[int, ...]:
    for face in dice:
        if isinstance(face, bool) or not isinstance(face, int):
            raise IllegalActionError(f"a die shows a whole number 1..6, got {face!r}")
    return tuple(sorted(dice))


def _faces(dice: Sequence[int]) -> str:
    return " ".join(map(str, dice)) or "-"


@dataclass(frozen=True)
class Situation:
    """One decision of one player, as the advisor sees it.

    ``filled`` names the filled boxes, ``upper`` is the true upper total (not
    capped), ``yahtzee_box`` what the Yahtzee box holds (``None`` while open)
    and ``score`` the points so far, bonuses included. Construction checks that
    the situation can occur and raises :class:`InvalidStateError` naming the
    problem otherwise.
    """

    rules: YahtzeeRules
    dice: tuple[int, ...]
    rolls_left: int
    filled: frozenset[str] = frozenset()
    upper: int = 0
    yahtzee_box: int | None = None
    score: int | None = None

    def __post_init__(self) -> None:
        rules = self.rules
        check_dice(self.dice)
        object.__setattr__(self, "dice", tuple(sorted(self.dice)))
        if isinstance(self.rolls_left, bool) or self.rolls_left not in (0, 1, 2):
            raise InvalidStateError(
                f"rolls left must be 0, 1 or 2 (after the first throw), got {self.rolls_left!r}"
            )
        for name in self.filled:
            rules.category_index(name)
        filled = frozenset(self.filled)
        ybox = rules.yahtzee_category
        if self.yahtzee_box is not None:
            if rules.family != "yahtzee":
                raise InvalidStateError("the Yahtzee box value applies only to American Yahtzee")
            if self.yahtzee_box not in (0, 50):
                raise InvalidStateError(f"the Yahtzee box holds 50 or 0, not {self.yahtzee_box!r}")
            filled = filled | {ybox}
        elif ybox in filled and rules.has_yahtzee_bonus:
            raise InvalidStateError(
                "the Yahtzee box is filled: say whether it holds 50 or 0 "
                "(--yahtzee-box, or yahtzee_box in JSON)"
            )
        object.__setattr__(self, "filled", filled)
        if len(filled) == rules.num_categories:
            raise InvalidStateError("every box is filled: the game is over")
        possible = upper_totals(rules, filled)
        if (
            isinstance(self.upper, bool)
            or not isinstance(self.upper, int)
            or self.upper not in possible
        ):
            boxes = ", ".join(c for c in UPPER if c in filled) or "none"
            raise InvalidStateError(
                f"an upper total of {self.upper!r} is impossible with the upper boxes filled "
                f"({boxes}); possible totals: {_ranges(sorted(possible))}"
            )
        least = self.known_points
        if self.score is None:
            object.__setattr__(self, "score", least)
            return
        if isinstance(self.score, bool) or not isinstance(self.score, int):
            raise InvalidStateError(f"the score must be a whole number, got {self.score!r}")
        if self.score < least:
            raise InvalidStateError(
                f"a score of {self.score!r} is less than the {least} points the card already shows"
            )
        most = self.most_points
        if self.score > most:
            raise InvalidStateError(
                f"a score of {self.score} is more than the {most} points the card can hold "
                f"with these boxes filled; possible scores: {least}..{most}"
            )
        rest = reachable_rest(rules, filled, self.yahtzee_box, self.upper)
        if self.score - least not in rest:
            boxes = ", ".join(c for c in rules.categories if c in filled)
            scores = _ranges([least + r for r in sorted(rest)])
            raise InvalidStateError(
                f"a score of {self.score} cannot be made with the boxes filled ({boxes}) and "
                f"an upper total of {self.upper}: no scores those boxes can hold add up to "
                f"it; possible scores: {scores}"
            )

    @property
    def known_points(self) -> int:
        """Points implied by the upper total, the upper bonus and the Yahtzee box."""
        bonus = self.rules.upper_bonus if self.upper >= self.rules.upper_bonus_threshold else 0
        return self.upper + bonus + (self.yahtzee_box or 0)

    @property
    def most_points(self) -> int:
        """The most points the filled boxes can hold: the known points, every filled lower
        box at its best, and (Yahtzee box at 50) a bonus Yahtzee for each other filled box."""
        rules = self.rules
        ybox = rules.yahtzee_category
        lower = [c for c in self.filled if c not in UPPER and c != ybox]
        if ybox in self.filled and self.yahtzee_box is None:
            lower.append(ybox)  # Yatzy: the yatzy box is an ordinary box
        bonuses = len(self.filled - {ybox}) if self.yahtzee_box == 50 else 0
        return (
            self.known_points
            + sum(box_maximum(rules, c) for c in lower)
            + bonuses * rules.yahtzee_bonus
        )

    @property
    def mask(self) -> int:
        return sum(1 << i for i, c in enumerate(self.rules.categories) if c in self.filled)

    @property
    def flag(self) -> int:
        return int(self.rules.has_yahtzee_bonus and self.yahtzee_box == 50)

    @property
    def points(self) -> int:
        """The score so far (``score`` after validation, never ``None``)."""
        assert self.score is not None
        return self.score

    def keep_options(self, values: np.ndarray) -> list[tuple[Keep, float]]:
        """Each distinct keep of the dice showing with its value in ``values`` (indexed
        by keep number, as the kernels' turn tables are)."""
        r = D.KEEP_INDEX[self.dice] - D.ROLL_START
        subs = D.SUBKEEPS[r, : D.SUBKEEP_COUNT[r]]
        return [(Keep(D.KEEPS[int(k)]), float(values[int(k)])) for k in subs]

    def scored(self, category: str, points: int, yahtzee_bonus: int) -> tuple[int, int, int, int]:
        """``(points gained, mask, upper, flag)`` after scoring the dice in ``category``
        for ``points`` (and ``yahtzee_bonus``, as ``rules.box_options`` gives them): the
        upper bonus is added when this box reaches the threshold; ``upper`` is the true
        total (not capped)."""
        rules = self.rules
        gained = points + yahtzee_bonus
        upper = self.upper
        if category in UPPER:
            if upper < rules.upper_bonus_threshold <= upper + points:
                gained += rules.upper_bonus
            upper += points
        flag = self.flag
        if category == rules.yahtzee_category:
            flag = int(rules.has_yahtzee_bonus and points == 50)
        return gained, self.mask | (1 << rules.category_index(category)), upper, flag


@cache
def box_maximum(rules: YahtzeeRules, category: str) -> int:
    """The most points ``category`` can hold under ``rules`` (joker scores included)."""
    return max(
        max(rules.score(category, dice), rules.joker_score(category, dice, True),
            rules.joker_score(category, dice, False))
        for dice in combinations_with_replacement(range(1, NUM_FACES + 1), NUM_DICE)
    )  # fmt: skip


@cache
def highest_final_score(rules: YahtzeeRules) -> int:
    """The highest final score ``rules`` allow: every box at its best, the upper bonus, and
    (with a Yahtzee bonus) a bonus Yahtzee in every box but the Yahtzee box itself.

    >>> from stratagem.games.yahtzee.rules import preset
    >>> highest_final_score(preset("yahtzee")), highest_final_score(preset("yatzy"))
    (1575, 374)
    """
    bonuses = rules.num_categories - 1 if rules.has_yahtzee_bonus else 0
    return (
        sum(box_maximum(rules, c) for c in rules.categories)
        + rules.upper_bonus  # the threshold is at most 105, five of each face
        + bonuses * rules.yahtzee_bonus
    )


@lru_cache(maxsize=4096)
def _box_options(
    rules: YahtzeeRules, box: str, filled: frozenset[str], yahtzee_box: int | None
) -> set[tuple[int, int]]:
    """Every ``(box points, Yahtzee bonus)`` that ``box`` can hold at the end of a game
    whose filled boxes are ``filled`` (``yahtzee_box``: what the Yahtzee box holds).

    Any roll scored by the box's own rule (the Yahtzee box open, or not a Yahtzee); and,
    once the Yahtzee box is filled, a Yahtzee of each face as the joker rule places it,
    with the bonus if the box holds 50. Whatever had to be filled before that Yahtzee
    (its own upper box; every lower box, for a forced zero in the upper section) must be
    filled at the end, which is all that the final card shows of the order.
    """
    out = {(rules.score(box, d), 0) for d in _ROLLS}
    ybox = rules.yahtzee_category
    if ybox not in filled or box == ybox:
        return out
    bonus = rules.yahtzee_bonus if yahtzee_box == 50 else 0
    lower_all = all(c in filled for c in rules.categories if c not in UPPER)
    for face in range(1, NUM_FACES + 1):
        dice = (face,) * NUM_DICE
        own = UPPER[face - 1]
        own_filled = own in filled
        if rules.joker == "none" or box == own:
            out.add((rules.score(box, dice), bonus))
        elif rules.joker == "forced":
            if not own_filled:
                continue  # the Yahtzee had to go in its own upper box
            if box not in UPPER:
                out.add((rules.joker_score(box, dice, True), bonus))
            elif lower_all:
                out.add((0, bonus))
        else:  # free: any open box; the own upper box filled or not (if it is filled now)
            out.add((rules.joker_score(box, dice, False), bonus))
            if own_filled:
                out.add((rules.joker_score(box, dice, True), bonus))
    return out


_ROLLS = tuple(combinations_with_replacement(range(1, NUM_FACES + 1), NUM_DICE))


@lru_cache(maxsize=8192)
def reachable_rest(
    rules: YahtzeeRules, filled: frozenset[str], yahtzee_box: int | None, upper: int
) -> frozenset[int]:
    """Every total of the lower boxes and Yahtzee bonuses that a card with these boxes
    filled and this upper total can show: the points so far less the upper total, its
    bonus and the Yahtzee box (:attr:`Situation.known_points`).

    A small dynamic programme over the filled boxes, on pairs (upper total, the rest):
    each box adds one of the (points, bonus) pairs it can hold (:func:`_box_options`),
    so a bonus Yahtzee scored in an upper box counts in that box's upper points.

    >>> from stratagem.games.yahtzee.rules import preset
    >>> sorted(reachable_rest(preset("yahtzee"), frozenset({"full_house"}), None, 0))
    [0, 25]
    >>> 1 in reachable_rest(preset("yahtzee"), frozenset({"chance", "yahtzee"}), 50, 0)
    False
    """
    ybox = rules.yahtzee_category
    counted = set(filled)
    if yahtzee_box is not None:
        counted.discard(ybox)  # its value is known, not a choice
    width = (
        1
        + sum(
            max(p + b for p, b in _box_options(rules, c, filled, yahtzee_box))
            for c in counted
            if c not in UPPER
        )
        + len(counted) * rules.yahtzee_bonus
    )
    reach = np.zeros((NUM_DICE * sum(range(1, NUM_FACES + 1)) + 1, width), dtype=bool)
    reach[0, 0] = True
    for box in sorted(counted, key=rules.category_index):
        step = np.zeros_like(reach)
        is_upper = box in UPPER
        for points, bonus in _box_options(rules, box, filled, yahtzee_box):
            du, dr = (points, bonus) if is_upper else (0, points + bonus)
            step[du:, dr:] |= reach[: reach.shape[0] - du, : width - dr]
        reach = step
    if not 0 <= upper < reach.shape[0]:
        return frozenset()
    return frozenset(int(r) for r in np.flatnonzero(reach[upper]))


def upper_totals(rules: YahtzeeRules, filled: frozenset[str] | set[str]) -> set[int]:
    """Every upper total the filled upper boxes can hold."""
    totals = {0}
    for face, name in enumerate(UPPER, start=1):
        if name in filled:
            totals = {t + face * n for t in totals for n in range(NUM_DICE + 1)}
    return totals


def _ranges(values: list[int]) -> str:
    out: list[str] = []
    i = 0
    while i < len(values):
        j = i
        while j + 1 < len(values) and values[j + 1] == values[j] + 1:
            j += 1
        out.append(str(values[i]) if i == j else f"{values[i]}-{values[j]}")
        i = j + 1
    return ", ".join(out)
