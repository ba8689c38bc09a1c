"""Pig positions implement the protocol; the catch-up turn plays as the rules say."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.errors import IllegalActionError
from stratagem.core.game import CHANCE, TERMINAL, State, sample_chance
from stratagem.games.pig.rules import preset
from stratagem.games.pig.state import PigAction, PigState

ROLL, HOLD = PigAction.ROLL, PigAction.HOLD


def test_state_satisfies_the_protocol() -> None:
    assert isinstance(PigState.new(preset("pig")), State)


def test_a_turn_starts_with_a_roll_and_a_roll_is_a_chance_node() -> None:
    s = PigState.new(preset("pig"))
    assert s.legal_actions() == [ROLL]
    with pytest.raises(IllegalActionError, match="turn starts with a roll"):
        s.apply(HOLD)
    s = s.apply(ROLL)
    assert s.current_player == CHANCE
    assert [o for o, _ in s.chance_outcomes()] == [1, 2, 3, 4, 5, 6]
    assert sum(p for _, p in s.chance_outcomes()) == pytest.approx(1.0)


def test_bust_loses_the_turn_total_and_passes_the_turn() -> None:
    s = PigState.new(preset("pig")).apply(ROLL).apply(6).apply(ROLL).apply(1)
    assert (s.scores, s.player, s.turn_total) == ((0, 0), 1, 0)


def test_hold_banks_the_turn_total() -> None:
    s = PigState.new(preset("pig")).apply(ROLL).apply(6).apply(HOLD)
    assert (s.scores, s.player) == ((6, 0), 1)


def test_bust_scores_one_banks_a_point() -> None:
    s = PigState.new(preset("pig").with_options(bust_scores_one=True)).apply(ROLL).apply(1)
    assert s.scores == (1, 0)


def test_reaching_the_goal_wins_at_once_and_banks_it() -> None:
    s = PigState(preset("pig").with_options(goal=10), (8, 3), 0, 0).apply(ROLL).apply(2)
    assert s.is_terminal() and s.returns() == (1.0, 0.0) and s.scores == (10, 3)
    assert s.current_player == TERMINAL and s.legal_actions() == []


def test_catch_up_turn_gives_player_one_a_last_turn_to_pass_the_starter() -> None:
    rules = preset("pig-raab").with_options(catch_up_turn=True)
    s = PigState(rules, (48, 30)).apply(ROLL).apply(5)
    assert not s.is_terminal()  # the starter may roll on past the goal
    s = s.apply(HOLD)
    assert (s.player, s.target, s.scores) == (1, 53, (53, 30))
    lost = s.apply(ROLL).apply(6)  # a bust ends the last turn
    assert lost.returns() == (1.0, 0.0)
    s = s.apply(ROLL).apply(5)
    for _ in range(3):
        s = s.apply(ROLL).apply(5)
    assert s.turn_total == 20 and not s.is_terminal()  # 30 + 20 = 50: not past 53 yet
    s = s.apply(ROLL).apply(4)  # 54 > 53
    assert s.returns() == (0.0, 1.0) and s.scores == (53, 54)


def test_a_tie_in_the_last_turn_goes_to_the_starter() -> None:
    rules = preset("pig-raab").with_options(catch_up_turn=True)
    s = PigState(rules, (50, 45), 1, 0, target=50).apply(ROLL).apply(5)
    assert not s.is_terminal()
    assert s.apply(HOLD).returns() == (1.0, 0.0)


def test_the_second_player_reaching_the_goal_wins_outright() -> None:
    rules = preset("pig-raab").with_options(catch_up_turn=True)
    s = PigState(rules, (10, 48), 1, 0).apply(ROLL).apply(2)
    assert s.returns() == (0.0, 1.0)


@pytest.mark.parametrize("bad", [0, 7, "6", True, 2.0])
def test_a_roll_must_show_a_face_of_the_die(bad: object) -> None:
    s = PigState.new(preset("pig")).apply(ROLL)
    with pytest.raises(IllegalActionError, match=r"face 1\.\.6"):
        s.apply(bad)


def test_actions_print_as_words() -> None:
    assert (str(ROLL), str(HOLD)) == ("roll", "hold")


@pytest.mark.parametrize("catch", [False, True])
def test_random_games_end_with_one_winner(catch: bool) -> None:
    rules = preset("pig-raab").with_options(goal=30, catch_up_turn=catch)
    rng = np.random.default_rng(1)
    for _ in range(200):
        s = PigState.new(rules)
        while not s.is_terminal():
            if s.current_player == CHANCE:
                s = s.apply(sample_chance(s, rng))
            else:
                actions = s.legal_actions()
                s = s.apply(actions[rng.integers(len(actions))])
        assert sorted(s.returns()) == [0.0, 1.0]
        assert max(s.scores) >= 30
