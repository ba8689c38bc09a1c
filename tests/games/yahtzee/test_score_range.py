"""A Yahtzee score the card cannot hold is refused, with the range it can."""

from __future__ import annotations

import pytest

from stratagem.core.errors import InvalidStateError
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.state import Situation, box_maximum

DICE = (1, 2, 3, 4, 5)


def test_box_maxima_are_the_rule_book_values() -> None:
    r = preset("yahtzee")
    assert [box_maximum(r, c) for c in ("chance", "full_house", "large_straight", "yahtzee")] == [
        30, 25, 40, 50,
    ]  # fmt: skip
    assert box_maximum(preset("yatzy"), "two_pairs") == 22  # 6 6 5 5 x


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"score": 10}, r"more than the 0 points .* possible scores: 0\.\.0"),
        ({"filled": frozenset({"chance"}), "score": 100_000}, r"possible scores: 0\.\.30"),
        ({"score": 1.5}, "must be a whole number"),
        ({"score": "12"}, "must be a whole number"),
        (
            {"filled": frozenset({"yahtzee", "chance"}), "yahtzee_box": 50, "score": 181},
            r"possible scores: 50\.\.180",  # 50 + chance 30 + one bonus Yahtzee 100
        ),
    ],
)
def test_impossible_scores_are_refused(fields: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidStateError, match=message):
        Situation(preset("yahtzee"), DICE, 2, **fields)  # type: ignore[arg-type]


def test_the_ends_of_the_range_are_accepted() -> None:
    r = preset("yahtzee")
    full = frozenset({"yahtzee", "chance"})
    # chance holds 5..30; under the forced joker a bonus Yahtzee cannot go in chance while
    # its upper box is open (issue 33: 50 and 180 were accepted, by range only)
    assert Situation(r, DICE, 2, full, 0, 50, 55).points == 55
    assert Situation(r, DICE, 2, full, 0, 50, 80).points == 80
    free = preset("yahtzee-free-joker")  # any open box: chance 30 plus the bonus
    assert Situation(free, DICE, 2, full, 0, 50, 180).points == 180
    assert Situation(r, DICE, 2, frozenset({"sixes"}), 30, None, 30).points == 30
