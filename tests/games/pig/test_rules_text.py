"""Pig rules in words: each preset's text names its goal, die, bust faces and end rule."""

from __future__ import annotations

import pytest

from stratagem.games.pig.rules import PRESETS
from stratagem.games.pig.rules_text import describe


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_presets_text_names_goal_die_bust_faces_and_catch_up_rule(name: str) -> None:
    rules = PRESETS[name]
    text = describe(rules).text()
    assert f"bank {rules.goal} or more points wins" in text
    if rules.faces == 2:
        assert "a coin" in text and "tails (face 2) busts" in text
    else:
        assert f"{rules.faces}-sided die" in text
        busts = rules.bust_faces
        assert f"a {busts[0]} busts" in text if len(busts) == 1 else "bust" in text
        assert ", ".join(map(str, rules.adding_faces[:-1])) in text
    assert ("Catch-up turn:" in text) == rules.catch_up_turn
    assert ("No catch-up turn" in text) == (not rules.catch_up_turn)


def test_a_catch_up_turn_and_a_scoring_bust_are_spelled_out() -> None:
    rules = PRESETS["pig-raab"].with_options(goal=60, catch_up_turn=True, bust_scores_one=True)
    text = describe(rules).text()
    assert "holds at 60 or more, the other player gets one last turn" in text
    assert "1 point is banked" in text
    assert dict(describe(rules).facts)["catch-up turn"] == "yes"
