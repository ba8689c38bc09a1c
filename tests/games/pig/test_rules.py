"""Pig rule sets: presets, options, and refusals that name the problem."""

from __future__ import annotations

import pytest

from stratagem.core.errors import InvalidRulesError
from stratagem.games.pig.rules import PRESETS, PigRules, preset


def test_presets_are_the_documented_games() -> None:
    # pig: Neller & Presser (2004); pig-raab: the TV version (6 busts, goal 50);
    # piglet: a coin to 10; coin-3: the coin game to 3.
    assert (preset("pig").goal, preset("pig").bust_faces, preset("pig").adding_faces) == (
        100,
        (1,),
        (2, 3, 4, 5, 6),
    )
    assert (preset("pig-raab").goal, preset("pig-raab").adding_faces) == (50, (1, 2, 3, 4, 5))
    assert (preset("piglet").faces, preset("piglet").goal, preset("coin-3").goal) == (2, 10, 3)
    assert preset() == PRESETS["pig"]


def test_options_change_a_copy_and_the_fingerprint() -> None:
    base = preset("pig")
    other = base.with_options(goal=20, catch_up_turn=True)
    assert base.goal == 100 and other.goal == 20 and other.catch_up_turn
    assert base.fingerprint != other.fingerprint
    assert base.with_options() is base


def test_bust_faces_are_kept_sorted() -> None:
    assert PigRules("x", 10, 6, (6, 1)).bust_faces == (1, 6)


def test_state_count_is_goal_squared_times_goal_plus_one_over_two() -> None:
    assert preset("pig").num_states == 505_000


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"goal": 0}, "goal must be at least 1"),
        ({"goal": 10_000}, "goal must be at most"),
        ({"faces": 1}, "needs 2..100 faces"),
        ({"bust_faces": (7,)}, "bust face 7 is not on a 6-faced die"),
        ({"bust_faces": (1, 2, 3, 4, 5, 6)}, "every face busts"),
        ({"bust_faces": ()}, "at least one face must bust"),
        ({"bust_faces": (1, 1)}, "listed twice"),
    ],
)
def test_bad_options_are_refused_with_a_reason(changes: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        preset("pig").with_options(**changes)  # type: ignore[arg-type]


def test_unknown_preset_lists_the_presets() -> None:
    with pytest.raises(InvalidRulesError, match="pig, pig-raab, piglet, coin-3"):
        preset("hog")
