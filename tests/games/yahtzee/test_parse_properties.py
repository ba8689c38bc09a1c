"""Yahtzee's parsers: dice, boxes and whole situations give a result or a StratagemError."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.core.errors import StratagemError
from stratagem.games.yahtzee.cli import make_situation, parse_dice, parse_filled
from stratagem.games.yahtzee.rules import YAHTZEE_CATEGORIES, preset

BOXES = st.sampled_from([*YAHTZEE_CATEGORIES, "bogus", "Ones", ""])


@settings(max_examples=300)
@given(st.text(alphabet="0123456789 ,;x\t-", max_size=14) | st.text(max_size=14))
def test_dice(text: str) -> None:
    try:
        dice = parse_dice(text)
    except StratagemError:
        return
    assert all(isinstance(d, int) for d in dice)


@settings(max_examples=300)
@given(
    rules=st.sampled_from(["yahtzee", "yatzy", "yahtzee-no-bonus"]),
    dice=st.lists(st.integers(-1, 7), max_size=6) | st.text(max_size=7),
    rolls=st.integers(-1, 3),
    filled=st.lists(BOXES, max_size=14).map(",".join),
    upper=st.integers(-3, 110),
    ybox=st.none() | st.sampled_from([0, 25, 50]),
    score=st.none() | st.integers(-10, 1700),
)
def test_situations(
    rules: str, dice: list[int] | str, rolls: int, filled: str, upper: int,
    ybox: int | None, score: int | None,
) -> None:  # fmt: skip
    r = preset(rules)
    try:
        sit = make_situation(r, dice, rolls, parse_filled(filled), upper, ybox, score)
    except StratagemError:
        return
    assert sit.known_points <= sit.points <= sit.most_points
