"""The game state implements the protocol: chance nodes, legal actions, turns, returns."""

from __future__ import annotations

from math import comb, prod

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratagem.core.errors import IllegalActionError, InvalidStateError
from stratagem.core.game import CHANCE, TERMINAL, State, sample_chance
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.state import (
    Keep,
    Roll,
    Score,
    Scorecard,
    Situation,
    YahtzeeState,
    parse_action,
)

YAHTZEE = preset("yahtzee")


def rolled(dice: tuple[int, ...], rules=YAHTZEE) -> YahtzeeState:  # type: ignore[no-untyped-def]
    return YahtzeeState.new(rules).apply(Roll(dice))


def test_state_satisfies_the_protocol() -> None:
    assert isinstance(YahtzeeState.new(YAHTZEE), State)


@pytest.mark.parametrize("kept", [(), (3,), (3, 3), (1, 2, 3), (6, 6, 6, 6), (1, 2, 3, 4, 5)])
def test_chance_outcomes_are_the_multisets_of_the_thrown_dice(kept: tuple[int, ...]) -> None:
    state = YahtzeeState(YAHTZEE, (Scorecard.empty(YAHTZEE),), dice=kept, rolls_left=2)
    outcomes = state.chance_outcomes()
    thrown = 5 - len(kept)
    assert len(outcomes) == comb(thrown + 5, 5)  # multisets of `thrown` faces out of 6
    assert sum(p for _, p in outcomes) == pytest.approx(1.0, abs=1e-12)
    assert state.current_player == CHANCE and state.legal_actions() == []


@pytest.mark.parametrize(
    "dice", [(1, 1, 1, 1, 4), (1, 2, 3, 4, 5), (6, 6, 6, 6, 6), (2, 2, 3, 3, 5)]
)
def test_every_distinct_keep_is_offered_once_then_every_box(dice: tuple[int, ...]) -> None:
    state = rolled(dice)
    keeps = [a for a in state.legal_actions() if isinstance(a, Keep)]
    boxes = [a for a in state.legal_actions() if isinstance(a, Score)]
    counts = [dice.count(f) for f in set(dice)]
    assert len(keeps) == len(set(keeps)) == prod(c + 1 for c in counts)
    assert len(boxes) == 13


def test_no_keeps_once_the_rerolls_are_used() -> None:
    state = rolled((1, 2, 3, 4, 6)).apply(Keep((1, 2, 3, 4, 6))).apply(Roll(()))
    state = state.apply(Keep((1, 2, 3, 4, 6))).apply(Roll(()))
    assert state.rolls_left == 0
    assert all(isinstance(a, Score) for a in state.legal_actions())
    with pytest.raises(IllegalActionError, match="no rerolls left"):
        state.apply(Keep(()))


def test_scoring_passes_the_turn_and_records_the_points() -> None:
    state = YahtzeeState.new(YAHTZEE, players=2).apply(Roll((2, 2, 3, 3, 3)))
    after = state.apply(Score("full_house"))
    assert after.player == 1 and after.current_player == CHANCE and after.rolls_left == 3
    assert after.cards[0].total == 25 and after.cards[1].total == 0


def test_upper_bonus_is_added_when_the_upper_total_reaches_63() -> None:
    card = Scorecard(YAHTZEE, (3, 6, 9, 12, 15, None) + (None,) * 7)  # 45 so far
    assert card.upper_bonus_points == 0
    card = card.score("sixes", (6, 6, 6, 1, 2))
    assert card.upper_total == 63 and card.upper_bonus_points == 35 and card.total == 98


def test_forced_joker_sends_a_yahtzee_to_its_upper_box_and_pays_the_bonus() -> None:
    card = Scorecard(YAHTZEE, (None,) * 11 + (50, None))
    state = YahtzeeState(YAHTZEE, (card,), dice=(4, 4, 4, 4, 4), rolls_left=0, rolling=False)
    assert state.legal_actions() == [Score("fours")]
    after = state.apply(Score("fours"))
    assert after.cards[0].total == 50 + 20 + 100
    with pytest.raises(IllegalActionError, match="joker"):
        state.apply(Score("chance"))


def test_a_filled_box_cannot_be_scored_again() -> None:
    state = rolled((1, 1, 2, 3, 4)).apply(Score("ones"))
    state = state.apply(Roll((1, 1, 1, 5, 6)))
    with pytest.raises(IllegalActionError, match="already filled"):
        state.apply(Score("ones"))


@pytest.mark.parametrize(
    ("action", "message"),
    [
        (Keep((6,)), "cannot keep 6"),
        (Keep((1, 1, 1)), "cannot keep 1 1 1"),
        (Score("bogus"), "unknown category"),
        (Roll((1, 2, 3, 4, 5)), "not"),
        ("keep 1", "not a Yahtzee action"),
    ],
)
def test_illegal_actions_are_refused_with_a_reason(action: object, message: str) -> None:
    with pytest.raises((IllegalActionError, InvalidStateError), match=message):
        rolled((1, 1, 2, 3, 4)).apply(action)


def test_a_roll_must_throw_exactly_the_dice_not_kept() -> None:
    state = rolled((1, 1, 2, 3, 4)).apply(Keep((1, 1)))
    with pytest.raises(InvalidStateError, match="expected 3 dice"):
        state.apply(Roll((1, 2)))
    with pytest.raises(InvalidStateError, match=r"1\.\.6"):
        state.apply(Roll((1, 2, 7)))


@pytest.mark.parametrize("players", [0, 5])
def test_one_to_four_players(players: int) -> None:
    with pytest.raises(InvalidStateError, match="1 to 4 players"):
        YahtzeeState.new(YAHTZEE, players)


@pytest.mark.parametrize(
    "rules_name", ["yahtzee", "yahtzee-free-joker", "yahtzee-no-bonus", "yatzy"]
)
@pytest.mark.parametrize("players", [1, 2, 4])
def test_random_games_end_after_every_box_of_every_card(rules_name: str, players: int) -> None:
    rules = preset(rules_name)
    rng = np.random.default_rng(players)
    state = YahtzeeState.new(rules, players)
    order = []
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state = state.apply(sample_chance(state, rng))
        else:
            actions = state.legal_actions()
            action = actions[rng.integers(len(actions))]
            if isinstance(action, Score):
                order.append(state.player)
            state = state.apply(action)
    assert state.current_player == TERMINAL
    assert order == [i % players for i in range(rules.num_categories * players)]
    assert state.returns() == tuple(float(c.total) for c in state.cards)
    assert all(c.is_full for c in state.cards)


def test_equal_histories_give_equal_hashable_states() -> None:
    a = rolled((1, 2, 3, 4, 5)).apply(Keep((1, 2)))
    b = rolled((5, 4, 3, 2, 1)).apply(Keep((2, 1)))
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1


@pytest.mark.parametrize("text", ["keep 1 1 4", "keep -", "score full_house"])
def test_action_strings_round_trip(text: str) -> None:
    assert str(parse_action(text)) == text


def test_unreadable_action_strings_are_refused() -> None:
    for text in ("keep a", "hold 1", "score", ""):
        with pytest.raises(IllegalActionError):
            parse_action(text)


@settings(max_examples=50, deadline=None)
@given(st.lists(st.integers(1, 6), min_size=5, max_size=5), st.integers(0, 2))
def test_any_roll_makes_a_valid_empty_card_situation(dice: list[int], rolls_left: int) -> None:
    sit = Situation(YAHTZEE, tuple(dice), rolls_left)
    assert sit.dice == tuple(sorted(dice)) and sit.points == 0


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"dice": (1, 1, 1, 1, 1, 1)}, "expected 5 dice, got 6"),
        ({"dice": (1, 1, 1, 1, 7)}, "1..6, got 7"),
        ({"rolls_left": 3}, "rolls left must be 0, 1 or 2"),
        ({"filled": frozenset({"bogus"})}, "unknown category 'bogus'"),
        ({"upper": 5}, "upper total of 5 is impossible"),
        ({"filled": frozenset({"twos"}), "upper": 3}, "possible totals: 0, 2, 4, 6, 8, 10"),
        ({"filled": frozenset({"yahtzee"})}, "holds 50 or 0"),
        ({"yahtzee_box": 25}, "holds 50 or 0, not 25"),
        ({"score": -1}, "less than the 0 points"),
        ({"filled": frozenset(YAHTZEE.categories[:-1]) | {"chance"}, "yahtzee_box": 0}, "over"),
    ],
)
def test_impossible_situations_name_the_problem(fields: dict[str, object], message: str) -> None:
    base: dict[str, object] = {"dice": (1, 2, 3, 4, 5), "rolls_left": 1}
    base.update(fields)
    with pytest.raises(InvalidStateError, match=message):
        Situation(YAHTZEE, **base)  # type: ignore[arg-type]


def test_yatzy_has_no_yahtzee_box_value() -> None:
    with pytest.raises(InvalidStateError, match="only to American Yahtzee"):
        Situation(preset("yatzy"), (1, 2, 3, 4, 5), 1, yahtzee_box=50)


def test_impossible_points_for_the_boxes_filled_are_refused() -> None:
    """Issue 33: a full house holding 1 point, or 51 points in the Yahtzee box (50) and
    chance (5..30), passed because only the range of the score was checked."""
    with pytest.raises(InvalidStateError, match="possible scores: 0, 25"):
        Situation(YAHTZEE, (1, 1, 1, 1, 1), 0, frozenset({"full_house"}), score=1)
    with pytest.raises(InvalidStateError, match="possible scores: 55-80"):
        Situation(YAHTZEE, (1, 1, 1, 1, 1), 0, frozenset({"chance"}), yahtzee_box=50, score=51)
    ok = Situation(YAHTZEE, (1, 1, 1, 1, 1), 0, frozenset({"chance"}), yahtzee_box=50, score=55)
    assert ok.points == 55


def test_a_bonus_yahtzee_counts_only_where_the_joker_rule_puts_it() -> None:
    # forced joker: a Yahtzee of fives goes in the fives box if it is open, so with only
    # chance filled (beside the Yahtzee box) chance cannot hold a bonus Yahtzee: 50 + 25 + 100
    with pytest.raises(InvalidStateError, match="cannot be made"):
        Situation(YAHTZEE, (1, 2, 3, 4, 6), 0, frozenset({"chance"}), yahtzee_box=50, score=175)
    # with fives filled (25: the Yahtzee of fives), chance may hold a later one: 100 + 100 bonuses
    sit = Situation(YAHTZEE, (1, 2, 3, 4, 6), 0, frozenset({"fives", "chance"}), 25, 50, 300)
    assert sit.points == 300


@pytest.mark.parametrize("name", ["yahtzee", "yahtzee-free-joker", "yahtzee-no-bonus", "yatzy"])
def test_every_position_of_a_played_game_passes_the_check(name: str) -> None:
    """The check refuses nothing a game reaches: games that chase Yahtzees (bonuses, jokers,
    upper bonuses) and score in random boxes, every decision checked as a Situation."""
    rules = preset(name)
    rng = np.random.default_rng(7)
    checked = bonuses = 0
    for _ in range(60):
        state = YahtzeeState.new(rules)
        while not state.is_terminal():
            if state.current_player == CHANCE:
                state = state.apply(sample_chance(state, rng))
                continue
            sit = state.situation()  # raises if the check refused a real position
            assert sit.points == state.card.total
            checked += 1
            actions = state.legal_actions()
            keeps = [a for a in actions if isinstance(a, Keep)]
            if keeps and state.rolls_left > 0 and rng.random() < 0.9:
                face = max(set(state.dice), key=state.dice.count)
                state = state.apply(Keep(tuple(d for d in state.dice if d == face)))
            else:
                state = state.apply(_chasing_box(state, rng))
            bonuses += state.card.yahtzee_bonus_points > 0 if state.is_terminal() else 0
    assert checked > 1000
    assert bonuses > 0 or not rules.has_yahtzee_bonus  # bonus Yahtzees were checked too


def _chasing_box(state: YahtzeeState, rng: np.random.Generator) -> Score:
    """A Yahtzee in the Yahtzee box; else three or more of a face in its upper box; else a
    random box, the Yahtzee box last (kept open for a Yahtzee)."""
    scores = [a for a in state.legal_actions() if isinstance(a, Score)]
    names = {a.category for a in scores}
    ybox = state.rules.yahtzee_category
    face = max(set(state.dice), key=state.dice.count)
    upper = ("ones", "twos", "threes", "fours", "fives", "sixes")[face - 1]
    if len(set(state.dice)) == 1 and ybox in names:
        return Score(ybox)
    if state.dice.count(face) >= 3 and upper in names:
        return Score(upper)
    others = [a for a in scores if a.category != ybox] or scores
    return others[int(rng.integers(len(others)))]
