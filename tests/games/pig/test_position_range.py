"""A Pig turn total that no turn can reach from the score is refused."""

from __future__ import annotations

import pytest

from stratagem.core.errors import InvalidStateError
from stratagem.games.pig.rules import preset
from stratagem.games.pig.state import check_position, most_turn_total


def test_a_turn_that_reached_the_goal_has_ended_the_game() -> None:
    rules = preset("pig")
    check_position(rules, 90, 0, 9)
    with pytest.raises(InvalidStateError, match=r"from a score of 90: .* turn total is 0\.\.9"):
        check_position(rules, 90, 0, 10)
    with pytest.raises(InvalidStateError, match="cannot occur"):
        check_position(rules, 0, 0, 10**18)  # refused at once, not after a long loop


def test_only_the_starter_of_a_catch_up_game_rolls_past_the_goal() -> None:
    rules = preset("pig").with_options(None, None, None, None, True)
    assert most_turn_total(rules, 90, starter=True) > 100
    check_position(rules, 90, 0, 30, starter=True)
    with pytest.raises(InvalidStateError):
        check_position(rules, 90, 0, 30, starter=False)
