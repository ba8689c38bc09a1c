"""Yahtzee and Scandinavian Yatzy rule sets, and how each box scores.

>>> r = preset("yahtzee")
>>> r.score("full_house", (2, 2, 3, 3, 3))
25
>>> preset("yatzy").score("full_house", (2, 2, 3, 3, 3))
13
>>> preset("yatzy").score("two_pairs", (2, 2, 2, 2, 5))  # one face twice is not two pairs
0
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from functools import cache
from typing import Literal

from stratagem.core.errors import InvalidRulesError, InvalidStateError, look_up
from stratagem.core.tables import fingerprint

NUM_DICE = 5
NUM_FACES = 6
ROLLS_PER_TURN = 3
UPPER = ("ones", "twos", "threes", "fours", "fives", "sixes")

YAHTZEE_CATEGORIES = (
    *UPPER,
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "yahtzee",
    "chance",
)
YATZY_CATEGORIES = (
    *UPPER,
    "one_pair",
    "two_pairs",
    "three_of_a_kind",
    "four_of_a_kind",
    "small_straight",
    "large_straight",
    "full_house",
    "chance",
    "yatzy",
)

Family = Literal["yahtzee", "yatzy"]
Joker = Literal["forced", "free", "none"]


@dataclass(frozen=True)
class YahtzeeRules:
    """One rule set. Use :func:`preset` for the named ones.

    ``family`` picks the score card (American Yahtzee, 13 boxes; Scandinavian
    Yatzy, 15 boxes). ``yahtzee_bonus`` is paid for each further Yahtzee while
    the Yahtzee box holds 50. ``joker`` says where a Yahtzee may be scored once
    the Yahtzee box is filled: ``forced`` (official Hasbro order: its upper
    box, else a lower box at full joker value, else an upper box for 0),
    ``free`` (any open box; full house and straights score in full only when
    the matching upper box is filled too), or ``none``.
    """

    name: str
    family: Family
    upper_bonus: int
    upper_bonus_threshold: int = 63
    yahtzee_bonus: int = 0
    joker: Joker = "none"

    def __post_init__(self) -> None:
        if self.family not in ("yahtzee", "yatzy"):
            raise InvalidRulesError(f"unknown family {self.family!r}; use 'yahtzee' or 'yatzy'")
        if self.joker not in ("forced", "free", "none"):
            raise InvalidRulesError(f"unknown joker rule {self.joker!r}; use forced, free or none")
        if self.family == "yatzy" and (self.yahtzee_bonus or self.joker != "none"):
            raise InvalidRulesError("Scandinavian Yatzy has no Yahtzee bonus and no joker rule")
        if not 1 <= self.upper_bonus_threshold <= 105:
            raise InvalidRulesError(
                f"upper bonus threshold {self.upper_bonus_threshold} is outside 1..105"
            )
        if self.upper_bonus < 0 or self.yahtzee_bonus < 0:
            raise InvalidRulesError("bonuses must be >= 0")

    @property
    def categories(self) -> tuple[str, ...]:
        """Box names in score-card order."""
        return YAHTZEE_CATEGORIES if self.family == "yahtzee" else YATZY_CATEGORIES

    @property
    def num_categories(self) -> int:
        return len(self.categories)

    @property
    def yahtzee_category(self) -> str:
        """The five-of-a-kind box: ``yahtzee`` or ``yatzy``."""
        return "yahtzee" if self.family == "yahtzee" else "yatzy"

    @property
    def has_yahtzee_bonus(self) -> bool:
        """True when the state must remember whether the Yahtzee box holds 50."""
        return self.yahtzee_bonus > 0

    @property
    def fingerprint(self) -> str:
        """A hash of everything that changes the optimal strategy (not the name)."""
        described = asdict(self)
        del described["name"]
        return fingerprint(described)

    def category_index(self, category: str) -> int:
        """The box's position on the card; an unknown name raises :class:`InvalidStateError`."""
        try:
            return self.categories.index(category)
        except ValueError:
            raise InvalidStateError(
                f"unknown category {category!r} for {self.name}; "
                f"the boxes are: {', '.join(self.categories)}"
            ) from None

    def score(self, category: str, dice: Sequence[int]) -> int:
        """Points for ``dice`` in ``category`` by the box's own rule (no joker, no bonus)."""
        check_dice(dice)
        self.category_index(category)
        return _score_for(self.family, category, tuple(sorted(dice)))

    def joker_score(self, category: str, dice: Sequence[int], upper_filled: bool) -> int:
        """Points for a Yahtzee scored as a joker (the Yahtzee box already filled).

        ``upper_filled`` says whether the upper box of the Yahtzee's face is
        filled (the ``free`` joker pays full house and straights only then).
        """
        check_dice(dice)
        dice = tuple(sorted(dice))
        if len(set(dice)) != 1 or self.joker == "none":
            return self.score(category, dice)
        fixed = {"full_house": 25, "small_straight": 30, "large_straight": 40}
        if category in fixed and (self.joker == "forced" or upper_filled):
            return fixed[category]
        return self.score(category, dice)

    def box_options(
        self, dice: Sequence[int], filled: frozenset[str] | set[str], yahtzee_box: int | None
    ) -> dict[str, tuple[int, int]]:
        """Every box ``dice`` may be scored in now, as ``{box: (box points, Yahtzee bonus)}``.

        ``filled`` names the filled boxes and ``yahtzee_box`` what the Yahtzee
        box holds (``None`` while open). Applies the Yahtzee bonus and the joker
        rule of this rule set; the upper bonus is the score card's business.
        """
        check_dice(dice)
        dice = tuple(sorted(dice))
        for name in filled:
            self.category_index(name)
        ybox = self.yahtzee_category
        if yahtzee_box is not None and ybox not in filled:
            raise InvalidStateError(f"the {ybox} box holds {yahtzee_box} but is not filled")
        if ybox in filled and self.has_yahtzee_bonus and yahtzee_box not in (0, 50):
            raise InvalidStateError(f"the filled {ybox} box holds 50 or 0, not {yahtzee_box!r}")
        open_boxes = [c for c in self.categories if c not in filled]
        is_yahtzee = len(set(dice)) == 1
        box_full = self.yahtzee_category in filled
        if not (is_yahtzee and box_full):
            return {c: (self.score(c, dice), 0) for c in open_boxes}
        bonus = self.yahtzee_bonus if yahtzee_box == 50 else 0
        own_upper = UPPER[dice[0] - 1]
        own_filled = own_upper in filled
        if self.joker == "forced":
            if not own_filled:
                return {own_upper: (self.score(own_upper, dice), bonus)}
            lower = [c for c in open_boxes if c not in UPPER]
            if lower:
                return {c: (self.joker_score(c, dice, own_filled), bonus) for c in lower}
            return {c: (0, bonus) for c in open_boxes}
        return {c: (self.joker_score(c, dice, own_filled), bonus) for c in open_boxes}


def check_dice(dice: Sequence[int], count: int = NUM_DICE) -> None:
    """Raise :class:`InvalidStateError` unless ``dice`` is ``count`` faces in 1..6."""
    if len(dice) != count:
        shown = list(dice[:10])
        more = " ..." if len(dice) > 10 else ""
        raise InvalidStateError(f"expected {count} dice, got {len(dice)}: {shown}{more}")
    for face in dice:
        if isinstance(face, bool) or not isinstance(face, int) or not 1 <= face <= NUM_FACES:
            raise InvalidStateError(f"a die shows 1..{NUM_FACES}, got {face!r}")


@cache
def _score_for(family: Family, category: str, dice: tuple[int, ...]) -> int:
    # Memoised: 252 rolls x 15 boxes; search algorithms score the same rolls again and again.
    counts = Counter(dice)
    total = sum(dice)
    most = max(counts.values())
    if category in UPPER:
        face = UPPER.index(category) + 1
        return face * counts[face]
    if category == "chance":
        return total
    if category in ("yahtzee", "yatzy"):
        return 50 if most == 5 else 0
    if category == "full_house":
        if sorted(counts.values()) != [2, 3]:
            return 0
        return 25 if family == "yahtzee" else total
    if family == "yahtzee":
        if category == "three_of_a_kind":
            return total if most >= 3 else 0
        if category == "four_of_a_kind":
            return total if most >= 4 else 0
        runs = set(dice)
        if category == "small_straight":
            ok = any(set(range(s, s + 4)) <= runs for s in (1, 2, 3))
            return 30 if ok else 0
        if category == "large_straight":
            return 40 if runs in ({1, 2, 3, 4, 5}, {2, 3, 4, 5, 6}) else 0
    else:
        pairs = sorted((f for f, c in counts.items() if c >= 2), reverse=True)
        if category == "one_pair":
            return 2 * pairs[0] if pairs else 0
        if category == "two_pairs":
            return 2 * (pairs[0] + pairs[1]) if len(pairs) >= 2 else 0
        if category == "three_of_a_kind":
            threes = [f for f, c in counts.items() if c >= 3]
            return 3 * threes[0] if threes else 0
        if category == "four_of_a_kind":
            fours = [f for f, c in counts.items() if c >= 4]
            return 4 * fours[0] if fours else 0
        if category == "small_straight":
            return 15 if dice == (1, 2, 3, 4, 5) else 0
        if category == "large_straight":
            return 20 if dice == (2, 3, 4, 5, 6) else 0
    raise InvalidStateError(f"unknown category {category!r}")


PRESETS: dict[str, YahtzeeRules] = {
    "yahtzee": YahtzeeRules(
        "yahtzee", "yahtzee", upper_bonus=35, yahtzee_bonus=100, joker="forced"
    ),
    "yahtzee-free-joker": YahtzeeRules(
        "yahtzee-free-joker", "yahtzee", upper_bonus=35, yahtzee_bonus=100, joker="free"
    ),
    "yahtzee-no-bonus": YahtzeeRules(
        "yahtzee-no-bonus", "yahtzee", upper_bonus=35, yahtzee_bonus=0, joker="none"
    ),
    "yatzy": YahtzeeRules("yatzy", "yatzy", upper_bonus=50),
}
"""The named rule sets; ``yahtzee`` (official Hasbro rules) is the default."""

DEFAULT_PRESET = "yahtzee"


def preset(name: str = DEFAULT_PRESET) -> YahtzeeRules:
    """The named rule set; an unknown name raises :class:`InvalidRulesError`."""
    return look_up(PRESETS, name, "Yahtzee rules", "presets")
