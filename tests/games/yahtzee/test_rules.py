"""How each box scores, where a roll may be scored, and which inputs are refused.

Sources of the rules:
  * Yahtzee: Hasbro, "Yahtzee" game instructions (Milton Bradley/Hasbro rule
    sheet, https://www.hasbro.com/common/instruct/yahtzee.pdf): upper bonus 35
    at 63, Yahtzee bonus 100 while the Yahtzee box holds 50, and the joker
    rules (own upper box first, else any lower box with full house 25, small
    straight 30, large straight 40, else an upper box for 0).
  * Scandinavian Yatzy: the rule book of the Swedish/Danish game as summarised
    at https://en.wikipedia.org/wiki/Yatzy: one pair, two pairs (different
    faces), three and four of a kind score the matching dice only, small
    straight 1-2-3-4-5 = 15, large straight 2-3-4-5-6 = 20, full house = sum of
    a three and a pair of different faces, Yatzy 50, upper bonus 50 at 63.
"""

from __future__ import annotations

import itertools
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratagem.core.errors import InvalidRulesError, InvalidStateError
from stratagem.games.yahtzee.rules import (
    PRESETS,
    UPPER,
    YATZY_CATEGORIES,
    YahtzeeRules,
    preset,
)
from tests.games.yahtzee.reference import legal_boxes

YAHTZEE = preset("yahtzee")
FREE = preset("yahtzee-free-joker")
NO_BONUS = preset("yahtzee-no-bonus")
YATZY = preset("yatzy")
ALL_RULES = [preset(name) for name in PRESETS]

# Every distinct roll, as a sorted tuple (enumerated here, not taken from dice.py).
ROLLS = sorted({tuple(sorted(d)) for d in itertools.product(range(1, 7), repeat=5)})

# (box, dice, points) under Hasbro's Yahtzee rules.
YAHTZEE_GOLDEN = [
    ("ones", (1, 1, 2, 3, 1), 3),
    ("twos", (2, 2, 2, 2, 2), 10),
    ("threes", (1, 2, 4, 5, 6), 0),
    ("fours", (4, 1, 4, 2, 4), 12),
    ("fives", (5, 5, 1, 1, 1), 10),
    ("sixes", (6, 6, 6, 2, 6), 24),
    ("three_of_a_kind", (2, 2, 2, 5, 6), 17),
    ("three_of_a_kind", (6, 6, 6, 6, 1), 25),  # four of a kind is also three of a kind
    ("three_of_a_kind", (3, 3, 3, 3, 3), 15),
    ("three_of_a_kind", (2, 2, 5, 5, 6), 0),
    ("four_of_a_kind", (4, 4, 4, 4, 1), 17),  # the sum of all five dice
    ("four_of_a_kind", (5, 5, 5, 5, 5), 25),
    ("four_of_a_kind", (4, 4, 4, 1, 1), 0),
    ("full_house", (2, 2, 3, 3, 3), 25),
    ("full_house", (6, 5, 6, 5, 5), 25),
    ("full_house", (3, 3, 3, 3, 3), 0),  # a Yahtzee is not a full house (joker aside)
    ("full_house", (1, 1, 1, 1, 2), 0),
    ("full_house", (2, 2, 3, 3, 4), 0),
    ("small_straight", (1, 2, 3, 4, 6), 30),
    ("small_straight", (2, 3, 4, 5, 2), 30),
    ("small_straight", (1, 3, 4, 5, 6), 30),
    ("small_straight", (6, 5, 4, 3, 2), 30),  # a large straight holds a small one
    ("small_straight", (1, 2, 3, 5, 6), 0),
    ("large_straight", (1, 2, 3, 4, 5), 40),
    ("large_straight", (6, 4, 5, 2, 3), 40),
    ("large_straight", (1, 2, 3, 4, 6), 0),
    ("large_straight", (1, 2, 3, 4, 4), 0),
    ("yahtzee", (4, 4, 4, 4, 4), 50),
    ("yahtzee", (4, 4, 4, 4, 3), 0),
    ("chance", (1, 1, 1, 1, 1), 5),
    ("chance", (6, 6, 6, 6, 5), 29),
]

# (box, dice, points) under Scandinavian Yatzy.
YATZY_GOLDEN = [
    ("ones", (1, 1, 2, 3, 1), 3),
    ("sixes", (6, 6, 6, 2, 6), 24),
    ("one_pair", (3, 3, 4, 4, 5), 8),  # the highest pair
    ("one_pair", (6, 6, 6, 6, 2), 12),
    ("one_pair", (1, 2, 3, 4, 6), 0),
    ("two_pairs", (1, 1, 2, 3, 3), 8),
    ("two_pairs", (3, 3, 3, 4, 4), 14),
    ("two_pairs", (2, 2, 2, 2, 5), 0),  # one face twice is not two pairs
    ("two_pairs", (5, 5, 5, 5, 5), 0),
    ("three_of_a_kind", (3, 3, 3, 4, 5), 9),  # 3 x face, not the sum
    ("three_of_a_kind", (3, 3, 3, 3, 5), 9),
    ("three_of_a_kind", (5, 5, 5, 5, 5), 15),
    ("three_of_a_kind", (3, 3, 4, 4, 5), 0),
    ("four_of_a_kind", (2, 2, 2, 2, 5), 8),  # 4 x face, not the sum
    ("four_of_a_kind", (6, 6, 6, 6, 6), 24),
    ("four_of_a_kind", (2, 2, 2, 5, 5), 0),
    ("small_straight", (1, 2, 3, 4, 5), 15),
    ("small_straight", (5, 4, 3, 2, 1), 15),
    ("small_straight", (2, 3, 4, 5, 6), 0),  # exactly 1-2-3-4-5
    ("small_straight", (1, 2, 3, 4, 6), 0),
    ("small_straight", (1, 2, 3, 4, 4), 0),
    ("large_straight", (2, 3, 4, 5, 6), 20),
    ("large_straight", (1, 2, 3, 4, 5), 0),  # exactly 2-3-4-5-6
    ("full_house", (2, 2, 3, 3, 3), 13),  # the sum, not 25
    ("full_house", (6, 6, 6, 5, 5), 28),
    ("full_house", (3, 3, 3, 3, 3), 0),  # three and pair of different faces
    ("full_house", (1, 1, 1, 1, 2), 0),
    ("chance", (1, 2, 3, 4, 6), 16),
    ("yatzy", (1, 1, 1, 1, 1), 50),
    ("yatzy", (1, 1, 1, 1, 2), 0),
]


@pytest.mark.parametrize(("box", "dice", "points"), YAHTZEE_GOLDEN)
def test_yahtzee_box_scores_by_the_hasbro_rules(box: str, dice: tuple[int, ...], points: int):
    for rules in (YAHTZEE, FREE, NO_BONUS):
        assert rules.score(box, dice) == points


@pytest.mark.parametrize(("box", "dice", "points"), YATZY_GOLDEN)
def test_yatzy_box_scores_by_the_scandinavian_rules(box: str, dice: tuple[int, ...], points: int):
    assert YATZY.score(box, dice) == points


def test_golden_cases_cover_every_box():
    assert {box for box, _, _ in YAHTZEE_GOLDEN} == set(YAHTZEE.categories)
    assert {box for box, _, _ in YATZY_GOLDEN} >= set(YATZY_CATEGORIES) - set(UPPER)


def test_the_two_families_have_their_own_cards():
    assert len(YAHTZEE.categories) == 13
    assert len(YATZY.categories) == 15
    assert YAHTZEE.yahtzee_category == "yahtzee"
    assert YATZY.yahtzee_category == "yatzy"
    assert (YAHTZEE.upper_bonus, YAHTZEE.upper_bonus_threshold) == (35, 63)
    assert (YATZY.upper_bonus, YATZY.upper_bonus_threshold) == (50, 63)


def test_preset_rule_parameters():
    assert (YAHTZEE.yahtzee_bonus, YAHTZEE.joker) == (100, "forced")
    assert (FREE.yahtzee_bonus, FREE.joker) == (100, "free")
    assert (NO_BONUS.yahtzee_bonus, NO_BONUS.joker) == (0, "none")
    assert (YATZY.yahtzee_bonus, YATZY.joker) == (0, "none")
    assert preset() == YAHTZEE


# --- the joker rules ---------------------------------------------------------------------

LOWER = (
    "three_of_a_kind",
    "four_of_a_kind",
    "full_house",
    "small_straight",
    "large_straight",
    "chance",
)
FOURS = (4, 4, 4, 4, 4)


def _filled_except(rules: YahtzeeRules, *open_boxes: str) -> frozenset[str]:
    return frozenset(c for c in rules.categories if c not in open_boxes)


def test_forced_joker_must_take_its_own_upper_box_when_open():
    filled = _filled_except(YAHTZEE, "fours", "ones", "full_house", "chance")
    assert YAHTZEE.box_options(FOURS, filled, 50) == {"fours": (20, 100)}
    assert YAHTZEE.box_options(FOURS, filled, 0) == {"fours": (20, 0)}


def test_forced_joker_takes_a_lower_box_at_full_value_when_its_upper_box_is_filled():
    filled = _filled_except(YAHTZEE, "ones", *LOWER)
    assert YAHTZEE.box_options(FOURS, filled, 50) == {
        "three_of_a_kind": (20, 100),
        "four_of_a_kind": (20, 100),
        "full_house": (25, 100),
        "small_straight": (30, 100),
        "large_straight": (40, 100),
        "chance": (20, 100),
    }


def test_forced_joker_scores_zero_in_an_upper_box_when_no_lower_box_is_open():
    filled = _filled_except(YAHTZEE, "ones", "sixes")
    assert YAHTZEE.box_options(FOURS, filled, 50) == {"ones": (0, 100), "sixes": (0, 100)}
    assert YAHTZEE.box_options(FOURS, filled, 0) == {"ones": (0, 0), "sixes": (0, 0)}


def test_free_joker_may_go_anywhere_but_pays_straights_only_after_its_upper_box():
    filled = _filled_except(YAHTZEE, "fours", "ones", "full_house", "large_straight", "chance")
    assert FREE.box_options(FOURS, filled, 50) == {
        "ones": (0, 100),
        "fours": (20, 100),
        "full_house": (0, 100),
        "large_straight": (0, 100),
        "chance": (20, 100),
    }
    filled = _filled_except(YAHTZEE, "ones", "full_house", "small_straight", "large_straight")
    assert FREE.box_options(FOURS, filled, 0) == {
        "ones": (0, 0),
        "full_house": (25, 0),
        "small_straight": (30, 0),
        "large_straight": (40, 0),
    }


def test_no_joker_and_no_bonus_without_the_bonus_rules():
    filled = _filled_except(NO_BONUS, "fours", "full_house", "small_straight")
    expected = {"fours": (20, 0), "full_house": (0, 0), "small_straight": (0, 0)}
    assert NO_BONUS.box_options(FOURS, filled, 50) == expected
    filled = _filled_except(NO_BONUS, "full_house", "small_straight")
    assert NO_BONUS.box_options(FOURS, filled, 50) == {
        "full_house": (0, 0),
        "small_straight": (0, 0),
    }


@pytest.mark.parametrize("rules", [YAHTZEE, FREE, NO_BONUS], ids=lambda r: r.name)
def test_a_first_yahtzee_scores_plainly_while_the_yahtzee_box_is_open(rules: YahtzeeRules):
    filled = _filled_except(rules, "ones", "yahtzee", "full_house")
    assert rules.box_options(FOURS, filled, None) == {
        "ones": (0, 0),
        "yahtzee": (50, 0),
        "full_house": (0, 0),
    }


def test_yatzy_has_no_joker_and_no_bonus():
    filled = _filled_except(YATZY, "ones", "full_house", "two_pairs")
    assert YATZY.box_options(FOURS, filled, None) == {
        "ones": (0, 0),
        "full_house": (0, 0),
        "two_pairs": (0, 0),
    }


@pytest.mark.parametrize(
    ("rules", "box", "upper_filled", "points"),
    [
        (YAHTZEE, "full_house", False, 25),
        (YAHTZEE, "small_straight", True, 30),
        (YAHTZEE, "large_straight", False, 40),
        (YAHTZEE, "chance", False, 20),
        (FREE, "full_house", False, 0),
        (FREE, "full_house", True, 25),
        (FREE, "large_straight", True, 40),
        (NO_BONUS, "full_house", True, 0),
        (NO_BONUS, "four_of_a_kind", True, 20),
    ],
    ids=str,
)
def test_joker_score(rules: YahtzeeRules, box: str, upper_filled: bool, points: int):
    assert rules.joker_score(box, FOURS, upper_filled) == points


def test_joker_score_of_a_non_yahtzee_is_the_plain_score():
    assert YAHTZEE.joker_score("full_house", (4, 4, 4, 4, 1), True) == 0
    assert YAHTZEE.joker_score("small_straight", (1, 2, 3, 4, 1), True) == 30


# --- refused input -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("dice", "message"),
    [
        ((1, 2, 3, 4, 5, 6), "expected 5 dice, got 6"),
        ((1, 2, 3, 4), "expected 5 dice, got 4"),
        ((1, 2, 3, 4, 7), "1..6, got 7"),
        ((0, 2, 3, 4, 5), "1..6, got 0"),
        ((1, 2, 3, 4, 5.0), "1..6, got 5.0"),
        ((1, 2, 3, 4, True), "1..6, got True"),
    ],
    ids=str,
)
def test_bad_dice_are_refused(dice: tuple[object, ...], message: str):
    for rules in (YAHTZEE, YATZY):
        with pytest.raises(InvalidStateError, match=re.escape(message)):
            rules.score("chance", dice)  # type: ignore[arg-type]
        with pytest.raises(InvalidStateError, match=re.escape(message)):
            rules.box_options(dice, frozenset(), None)  # type: ignore[arg-type]


def test_a_face_that_is_not_a_number_is_refused_by_score():
    with pytest.raises(InvalidStateError, match=re.escape("1..6, got '5'")):
        YAHTZEE.score("chance", (1, 2, 3, 4, "5"))  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match=re.escape("1..6, got None")):
        YATZY.score("chance", (1, 2, 3, 4, None))  # type: ignore[arg-type]


@pytest.mark.parametrize("face", ["5", None], ids=repr)
def test_a_face_that_is_not_a_number_is_refused_by_box_options_and_joker_score(face: object):
    with pytest.raises(InvalidStateError, match=re.escape("1..6, got")):
        YAHTZEE.box_options((1, 2, 3, 4, face), frozenset(), None)  # type: ignore[arg-type]
    with pytest.raises(InvalidStateError, match=re.escape("1..6, got")):
        YAHTZEE.joker_score("full_house", (4, 4, 4, 4, face), True)  # type: ignore[arg-type]


def test_joker_score_refuses_bad_dice():
    with pytest.raises(InvalidStateError, match="expected 5 dice"):
        YAHTZEE.joker_score("full_house", (4, 4, 4, 4, 4, 4), True)


@pytest.mark.parametrize(
    ("rules", "box"),
    [(YAHTZEE, "sevens"), (YAHTZEE, "one_pair"), (YATZY, "yahtzee"), (YATZY, "Chance")],
    ids=str,
)
def test_unknown_box_is_refused_naming_it_and_the_boxes(rules: YahtzeeRules, box: str):
    with pytest.raises(InvalidStateError, match=f"unknown category '{box}'") as caught:
        rules.score(box, (1, 2, 3, 4, 5))
    assert "chance" in str(caught.value)
    with pytest.raises(InvalidStateError, match=f"unknown category '{box}'"):
        rules.category_index(box)


def test_unknown_preset_is_refused_listing_the_presets():
    with pytest.raises(InvalidRulesError, match="unknown Yahtzee rules 'yahtze'") as caught:
        preset("yahtze")
    for name in PRESETS:
        assert name in str(caught.value)


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"family": "poker"}, "unknown family 'poker'"),
        ({"family": "yahtzee", "joker": "wild"}, "unknown joker rule 'wild'"),
        ({"family": "yatzy", "joker": "forced"}, "no Yahtzee bonus and no joker"),
        ({"family": "yatzy", "yahtzee_bonus": 100}, "no Yahtzee bonus and no joker"),
        ({"family": "yahtzee", "upper_bonus_threshold": 0}, "threshold 0 is outside 1..105"),
        ({"family": "yahtzee", "upper_bonus_threshold": 106}, "threshold 106 is outside"),
        ({"family": "yahtzee", "upper_bonus": -1}, "bonuses must be >= 0"),
        ({"family": "yahtzee", "yahtzee_bonus": -100}, "bonuses must be >= 0"),
    ],
    ids=str,
)
def test_impossible_rule_sets_are_refused(fields: dict[str, object], message: str):
    arguments: dict[str, object] = {"name": "custom", "upper_bonus": 35, **fields}
    with pytest.raises(InvalidRulesError, match=message):
        YahtzeeRules(**arguments)  # type: ignore[arg-type]


# --- properties --------------------------------------------------------------------------

dice_st = st.tuples(*[st.integers(1, 6)] * 5)
rules_st = st.sampled_from(ALL_RULES)


@st.composite
def positions(draw: st.DrawFn) -> tuple[YahtzeeRules, tuple[int, ...], frozenset[str], int | None]:
    """A rule set, a roll (often five of a kind), filled boxes and the Yahtzee box."""
    rules = draw(rules_st)
    five_of_a_kind = draw(st.booleans())
    dice = (draw(st.integers(1, 6)),) * 5 if five_of_a_kind else draw(dice_st)
    filled = draw(st.frozensets(st.sampled_from(rules.categories)))
    yahtzee_box = None
    if rules.yahtzee_category in filled and rules.family == "yahtzee":
        yahtzee_box = draw(st.sampled_from([0, 50]))
    return rules, dice, filled, yahtzee_box


@given(rules_st, dice_st)
def test_chance_is_the_sum(rules: YahtzeeRules, dice: tuple[int, ...]):
    assert rules.score("chance", dice) == sum(dice)


@given(rules_st, dice_st)
def test_an_upper_box_scores_face_times_count(rules: YahtzeeRules, dice: tuple[int, ...]):
    for face, box in enumerate(UPPER, start=1):
        assert rules.score(box, dice) == face * dice.count(face)


@given(rules_st, dice_st, st.randoms(use_true_random=False))
def test_scores_do_not_depend_on_dice_order(rules, dice, random):
    shuffled = list(dice)
    random.shuffle(shuffled)
    for box in rules.categories:
        assert rules.score(box, shuffled) == rules.score(box, dice)


@given(rules_st, dice_st)
def test_scores_are_between_zero_and_fifty(rules: YahtzeeRules, dice: tuple[int, ...]):
    for box in rules.categories:
        assert 0 <= rules.score(box, dice) <= 50


@given(positions())
def test_box_options_offers_only_open_boxes_and_some_box_when_one_is_open(position):
    rules, dice, filled, yahtzee_box = position
    options = rules.box_options(dice, filled, yahtzee_box)
    assert not set(options) & filled
    assert bool(options) == (len(filled) < rules.num_categories)
    for points, bonus in options.values():
        assert points >= 0
        assert bonus in (0, rules.yahtzee_bonus)


@given(positions())
def test_box_options_pays_the_yahtzee_bonus_only_on_a_yahtzee_over_50(position):
    rules, dice, filled, yahtzee_box = position
    options = rules.box_options(dice, filled, yahtzee_box)
    paid = {bonus for _, bonus in options.values()}
    if len(set(dice)) == 1 and yahtzee_box == 50 and rules.has_yahtzee_bonus and options:
        assert paid == {rules.yahtzee_bonus}
    else:
        assert paid <= {0}


@given(positions())
def test_box_options_agrees_with_the_reference_rule_book(position):
    rules, dice, filled, yahtzee_box = position
    assert rules.box_options(dice, filled, yahtzee_box) == legal_boxes(
        rules, tuple(sorted(dice)), filled, yahtzee_box
    )


@pytest.mark.parametrize("rules", ALL_RULES, ids=lambda r: r.name)
def test_box_options_agrees_with_the_reference_on_every_yahtzee_and_every_open_set(
    rules: YahtzeeRules,
):
    """Exhaustive over the joker-relevant part: each Yahtzee, each set of open boxes
    among its own upper box, one other upper box and the lower boxes."""
    ybox = rules.yahtzee_category
    for face in range(1, 7):
        dice = (face,) * 5
        own, other = UPPER[face - 1], UPPER[face % 6]
        candidates = [own, other, *(c for c in rules.categories if c not in UPPER and c != ybox)]
        for size in range(len(candidates) + 1):
            for open_boxes in itertools.combinations(candidates, size):
                for yahtzee_box in (0, 50) if rules.family == "yahtzee" else (0,):
                    filled = frozenset(rules.categories) - set(open_boxes)
                    assert rules.box_options(dice, filled, yahtzee_box) == legal_boxes(
                        rules, dice, filled, yahtzee_box
                    ), (face, open_boxes, yahtzee_box)


def test_every_roll_scores_like_the_reference_on_an_empty_card():
    for rules in ALL_RULES:
        for dice in ROLLS:
            assert rules.box_options(dice, frozenset(), None) == legal_boxes(
                rules, dice, frozenset(), None
            )


@pytest.mark.parametrize(
    ("filled", "yahtzee_box", "message"),
    [
        (frozenset({"bogus"}), None, "unknown category 'bogus'"),
        (frozenset(), 50, "holds 50 but is not filled"),
        (frozenset({"yahtzee"}), None, "holds 50 or 0, not None"),
        (frozenset({"yahtzee"}), 37, "holds 50 or 0, not 37"),
    ],
)
def test_box_options_refuses_an_inconsistent_card(
    filled: frozenset[str], yahtzee_box: int | None, message: str
) -> None:
    with pytest.raises(InvalidStateError, match=message):
        YAHTZEE.box_options((2, 2, 2, 2, 2), filled, yahtzee_box)
