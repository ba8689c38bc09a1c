"""The numba solver, its box scoring and the advisor agree with the slow reference solver.

The reference (``reference.py``) is written from the rule book, independently of
the kernels and of ``dice.py``; on score cards with one to three open boxes it
is exact, so the fast table must match it to rounding error.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable

import numpy as np
import pytest

from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee.rules import PRESETS, UPPER, YahtzeeRules, preset
from stratagem.games.yahtzee.solver import Solution
from stratagem.games.yahtzee.state import Keep, Score, Situation
from stratagem.games.yahtzee.strategies import OptimalStrategy
from tests.games.yahtzee.reference import Card, completions, keeps, reference

TOLERANCE = 1e-9
YAHTZEE_FAMILY = ["yahtzee", "yahtzee-free-joker", "yahtzee-no-bonus"]
ALL_PRESETS = list(PRESETS)
ROLLS = sorted({tuple(sorted(d)) for d in itertools.product(range(1, 7), repeat=5)})


@pytest.fixture(scope="module")
def solution_of(solved: Callable[[str], Solution]) -> Callable[[str], Solution]:
    """``solution_of(name)``: the preset's solution from the session fixture (solved once)."""
    return solved


# --- the reference itself ----------------------------------------------------------------


def test_reference_dice_enumeration() -> None:
    assert len(completions(())) == 252
    assert sum(chance for _, chance in completions((2, 5))) == pytest.approx(1.0, abs=1e-15)
    assert len(keeps((1, 2, 3, 4, 5))) == 32
    assert len(keeps((1, 1, 1, 1, 1))) == 6
    assert len(keeps((1, 1, 2, 2, 3))) == 18  # 3 * 3 * 2 sub-multisets


def test_reference_chance_alone_is_worth_70_over_3() -> None:
    """Each die is rerolled below 4, then below 5: 3.5 -> 4.25 -> 14/3 per die."""
    rules = preset("yahtzee-no-bonus")
    card = Card(frozenset(rules.categories) - {"chance"}, 40, 0)
    assert reference(rules).turn_value(card) == pytest.approx(70 / 3, abs=1e-12)


def test_reference_yatzy_alone_is_worth_50_times_the_chance_of_five_of_a_kind() -> None:
    """Five of a kind within three throws: 2,783,176 / 6**10 (about 4.6%, a classic result)."""
    rules = preset("yatzy")
    card = Card(frozenset(rules.categories) - {"yatzy"}, 40, None)
    assert reference(rules).turn_value(card) == pytest.approx(50 * 2783176 / 6**10, abs=1e-12)


# --- score cards -------------------------------------------------------------------------


def upper_totals(filled: Iterable[str]) -> set[int]:
    """Every true upper total the filled upper boxes can hold."""
    totals = {0}
    for face, box in enumerate(UPPER, start=1):
        if box in filled:
            totals = {t + face * n for t in totals for n in range(6)}
    return totals


def card_with_open(
    rules: YahtzeeRules, open_boxes: Iterable[str], upper: int, yahtzee_box: int | None
) -> Card:
    """The card with exactly ``open_boxes`` open; checks that it can occur."""
    open_boxes = set(open_boxes)
    assert open_boxes <= set(rules.categories), open_boxes
    filled = frozenset(rules.categories) - open_boxes
    assert upper in upper_totals(filled), f"upper total {upper} impossible with {sorted(filled)}"
    if rules.yahtzee_category in open_boxes or rules.family == "yatzy":
        assert yahtzee_box is None, "the Yahtzee box holds no points while open, nor in Yatzy"
    else:
        assert yahtzee_box in (0, 50)
    return Card(filled, upper, yahtzee_box)


def table_index(rules: YahtzeeRules, card: Card) -> tuple[int, int, int]:
    """``(mask, capped upper, flag)``: where ``card`` sits in ``Solution.values``."""
    mask = sum(1 << i for i, box in enumerate(rules.categories) if box in card.filled)
    flag = int(rules.has_yahtzee_bonus and card.yahtzee_box == 50)
    return mask, min(card.upper, rules.upper_bonus_threshold), flag


def random_card(rules: YahtzeeRules, rng: np.random.Generator, open_count: int) -> Card:
    """A random card with ``open_count`` open boxes and a random possible upper total."""
    open_boxes = set(rng.choice(rules.categories, size=open_count, replace=False).tolist())
    filled = frozenset(rules.categories) - open_boxes
    upper = int(rng.choice(sorted(upper_totals(filled))))
    yahtzee_box = None
    if rules.yahtzee_category not in open_boxes and rules.family == "yahtzee":
        yahtzee_box = int(rng.choice([0, 50]))
    return Card(filled, upper, yahtzee_box)


def assert_table_matches_reference(solution: Solution, card: Card) -> None:
    rules = solution.rules
    expected = reference(rules).turn_value(card)
    got = float(solution.values[table_index(rules, card)])
    assert got == pytest.approx(expected, abs=TOLERANCE), (rules.name, card)


# (open boxes, true upper total, Yahtzee box) for the American card.
JOKER_CARDS = [
    (("sixes", "full_house"), 40, 50),  # forced joker must take its own upper box
    (("sixes", "full_house"), 40, 0),
    (("fours", "small_straight", "large_straight"), 45, 50),
    (("full_house", "small_straight"), 63, 50),  # own box filled, lower boxes open
    (("full_house", "small_straight"), 63, 0),
    (("large_straight",), 80, 50),
    (("three_of_a_kind", "chance"), 52, 50),
    (("ones", "twos"), 55, 50),  # no lower box open: an upper box for 0
    (("ones", "twos"), 55, 0),
    (("ones", "twos", "threes"), 52, 50),
    (("ones", "large_straight", "chance"), 62, 50),
    (("sixes", "chance", "four_of_a_kind"), 35, 50),
    (("sixes", "chance"), 70, 0),
    (("ones", "large_straight"), 60, 50),  # free joker: straight pays 0 while "ones" is open
    (("twos", "small_straight", "chance"), 50, 0),
]
YAHTZEE_BOX_OPEN_CARDS = [
    (("yahtzee",), 50, None),
    (("fours", "yahtzee"), 50, None),
    (("yahtzee", "chance", "sixes"), 45, None),
    (("yahtzee", "full_house", "small_straight"), 70, None),
]
# Upper totals just below, at and above the threshold of 63.
THRESHOLD_CARDS = [
    *((("sixes", "chance"), upper, 50) for upper in (56, 57, 62, 63, 64, 75)),
    *((("ones",), upper, 0) for upper in (58, 59, 60, 61, 62, 63, 64)),
    (("twos", "fives"), 50, 50),
    (("twos", "fives"), 61, 0),
    (("threes", "yahtzee"), 60, None),
]
YAHTZEE_CARDS = JOKER_CARDS + YAHTZEE_BOX_OPEN_CARDS + THRESHOLD_CARDS

YATZY_CARDS = [
    (("yatzy",), 40, None),
    (("yatzy", "full_house"), 63, None),
    (("full_house", "two_pairs"), 63, None),
    (("sixes", "four_of_a_kind"), 57, None),
    (("ones", "twos", "threes"), 50, None),
    (("small_straight", "large_straight"), 62, None),
    (("one_pair", "two_pairs", "three_of_a_kind"), 70, None),
    *((("fives", "chance"), upper, None) for upper in (48, 53, 58, 62, 63, 65)),
]


@pytest.mark.parametrize("name", YAHTZEE_FAMILY)
@pytest.mark.parametrize(("open_boxes", "upper", "yahtzee_box"), YAHTZEE_CARDS, ids=str)
def test_american_table_matches_reference(
    solution_of: Callable[[str], Solution],
    name: str,
    open_boxes: tuple[str, ...],
    upper: int,
    yahtzee_box: int | None,
) -> None:
    solution = solution_of(name)
    assert_table_matches_reference(
        solution, card_with_open(solution.rules, open_boxes, upper, yahtzee_box)
    )


@pytest.mark.parametrize(("open_boxes", "upper", "yahtzee_box"), YATZY_CARDS, ids=str)
def test_yatzy_table_matches_reference(
    solution_of: Callable[[str], Solution],
    open_boxes: tuple[str, ...],
    upper: int,
    yahtzee_box: int | None,
) -> None:
    solution = solution_of("yatzy")
    assert_table_matches_reference(
        solution, card_with_open(solution.rules, open_boxes, upper, yahtzee_box)
    )


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_table_matches_reference_on_random_cards(
    solution_of: Callable[[str], Solution], name: str
) -> None:
    solution = solution_of(name)
    rng = np.random.default_rng([2024, ALL_PRESETS.index(name)])
    for open_count in (1, 1, 1, 2, 2, 2, 2, 3, 3):
        assert_table_matches_reference(solution, random_card(solution.rules, rng, open_count))


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL_PRESETS)
def test_table_matches_reference_on_more_random_cards(
    solution_of: Callable[[str], Solution], name: str
) -> None:
    solution = solution_of(name)
    rng = np.random.default_rng([7, ALL_PRESETS.index(name)])
    for open_count in [1] * 20 + [2] * 30 + [3] * 20:
        assert_table_matches_reference(solution, random_card(solution.rules, rng, open_count))


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL_PRESETS)
def test_table_matches_reference_on_every_last_box(
    solution_of: Callable[[str], Solution], name: str
) -> None:
    """Every single open box, Yahtzee box value and upper total near the threshold."""
    solution = solution_of(name)
    rules = solution.rules
    for box in rules.categories:
        filled = frozenset(rules.categories) - {box}
        totals = sorted(upper_totals(filled))
        uppers = sorted({totals[0], totals[-1], *(u for u in totals if 50 <= u <= 66)})
        has_value = box != rules.yahtzee_category and rules.family == "yahtzee"
        yahtzee_boxes = [0, 50] if has_value else [None]
        for upper, yahtzee_box in itertools.product(uppers, yahtzee_boxes):
            assert_table_matches_reference(solution, Card(filled, upper, yahtzee_box))


# --- the advisor -------------------------------------------------------------------------

# (preset, dice, open boxes, true upper total, Yahtzee box)
SITUATIONS = [
    ("yahtzee", (6, 6, 6, 6, 6), ("sixes", "full_house", "chance"), 40, 50),
    ("yahtzee", (4, 4, 4, 4, 4), ("ones", "full_house", "large_straight"), 60, 50),
    ("yahtzee", (2, 2, 3, 3, 5), ("twos", "threes", "full_house"), 55, 0),
    ("yahtzee-free-joker", (4, 4, 4, 4, 4), ("ones", "full_house", "large_straight"), 60, 0),
    ("yahtzee-free-joker", (5, 5, 5, 5, 5), ("fives", "small_straight"), 48, 50),
    (
        "yahtzee-no-bonus",
        (1, 2, 3, 4, 6),
        ("small_straight", "large_straight", "yahtzee"),
        70,
        None,
    ),
    ("yatzy", (2, 2, 2, 2, 5), ("twos", "two_pairs", "four_of_a_kind"), 50, None),
    ("yatzy", (1, 2, 3, 4, 6), ("small_straight", "large_straight", "chance"), 63, None),
]


def _reference_key(action: object) -> tuple[str, object]:
    if isinstance(action, Score):
        return ("score", action.category)
    assert isinstance(action, Keep), action
    return ("keep", action.dice)


@pytest.mark.parametrize("rolls_left", [0, 1, 2])
@pytest.mark.parametrize(
    ("name", "dice", "open_boxes", "upper", "yahtzee_box"), SITUATIONS, ids=str
)
def test_advisor_option_values_match_reference(
    solution_of: Callable[[str], Solution],
    name: str,
    dice: tuple[int, ...],
    open_boxes: tuple[str, ...],
    upper: int,
    yahtzee_box: int | None,
    rolls_left: int,
) -> None:
    rules = preset(name)
    card = card_with_open(rules, open_boxes, upper, yahtzee_box)
    situation = Situation(rules, dice, rolls_left, card.filled, upper, yahtzee_box)
    advice = OptimalStrategy(solution_of(name)).advise_situation(situation)
    expected = reference(rules).option_values(card, dice, rolls_left)

    got = {_reference_key(a.action): a.value - situation.points for a in advice}
    assert set(got) == set(expected)
    for option, value in expected.items():
        assert got[option] == pytest.approx(value, abs=TOLERANCE), option
    assert advice[0].value == pytest.approx(situation.points + max(expected.values()), abs=1e-9)
    assert [a.regret for a in advice] == sorted(a.regret for a in advice)


# --- the kernel's box scoring ------------------------------------------------------------


def assert_score_option_matches_box_options(
    solution: Solution,
    filled: frozenset[str],
    upper: int,
    yahtzee_box: int | None,
    rolls: Iterable[tuple[int, ...]],
) -> None:
    """``Solution.score_option`` == ``rules.box_options`` plus the upper bonus, box by box."""
    rules = solution.rules
    threshold = rules.upper_bonus_threshold
    mask, capped, flag = table_index(rules, Card(filled, upper, yahtzee_box))
    for roll in rolls:
        options = rules.box_options(roll, filled, yahtzee_box)
        roll_index = D.KEEP_INDEX[roll]
        for c, box in enumerate(rules.categories):
            points, new_upper, new_flag, legal = solution.score_option(
                mask, upper, flag, c, roll_index
            )
            where = (rules.name, sorted(filled), upper, yahtzee_box, roll, box)
            assert legal == (box in options), where
            if not legal:
                continue
            box_points, yahtzee_bonus = options[box]
            expected_upper, expected_flag = capped, flag
            gained = box_points + yahtzee_bonus
            if box in UPPER:
                expected_upper = min(threshold, upper + box_points)
                if upper < threshold <= upper + box_points:
                    gained += rules.upper_bonus
            if box == rules.yahtzee_category and rules.has_yahtzee_bonus:
                expected_flag = int(box_points == 50)
            assert (points, new_upper, new_flag) == (gained, expected_upper, expected_flag), where


def random_position(
    rules: YahtzeeRules, rng: np.random.Generator
) -> tuple[frozenset[str], int, int | None]:
    """Random filled boxes (each with a random chance), upper total and Yahtzee box."""
    chance = rng.uniform(0.2, 0.95)
    filled = frozenset(c for c in rules.categories if rng.uniform() < chance)
    upper = int(rng.choice(sorted(upper_totals(filled))))
    yahtzee_box = None
    if rules.yahtzee_category in filled and rules.family == "yahtzee":
        yahtzee_box = int(rng.choice([0, 50]))
    return filled, upper, yahtzee_box


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_score_option_matches_box_options_on_every_roll(
    solution_of: Callable[[str], Solution], name: str
) -> None:
    solution = solution_of(name)
    rng = np.random.default_rng([11, ALL_PRESETS.index(name)])
    for _ in range(250):
        assert_score_option_matches_box_options(
            solution, *random_position(solution.rules, rng), ROLLS
        )


@pytest.mark.parametrize("name", ALL_PRESETS)
def test_score_option_matches_box_options_on_yahtzees(
    solution_of: Callable[[str], Solution], name: str
) -> None:
    solution = solution_of(name)
    rng = np.random.default_rng([12, ALL_PRESETS.index(name)])
    yahtzees = [(face,) * 5 for face in range(1, 7)]
    for _ in range(1500):
        assert_score_option_matches_box_options(
            solution, *random_position(solution.rules, rng), yahtzees
        )


@pytest.mark.slow
@pytest.mark.parametrize("name", ALL_PRESETS)
def test_score_option_matches_box_options_on_more_cards(
    solution_of: Callable[[str], Solution], name: str
) -> None:
    solution = solution_of(name)
    rng = np.random.default_rng([13, ALL_PRESETS.index(name)])
    for _ in range(1000):
        assert_score_option_matches_box_options(
            solution, *random_position(solution.rules, rng), ROLLS
        )
