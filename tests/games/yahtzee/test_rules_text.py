"""Yahtzee rules in words: each preset's text names the numbers that set it apart."""

from __future__ import annotations

import pytest

from stratagem.games.yahtzee.rules import PRESETS
from stratagem.games.yahtzee.rules_text import describe


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_presets_text_names_its_bonuses_joker_rule_and_boxes(name: str) -> None:
    rules = PRESETS[name]
    text = describe(rules).text()
    assert f"{rules.num_categories} boxes" in text
    assert f"at least {rules.upper_bonus_threshold}" in text
    assert f"upper bonus of {rules.upper_bonus} points" in text
    if rules.yahtzee_bonus:
        assert f"bonus of {rules.yahtzee_bonus} points" in text
    else:
        assert "no bonus" in text
    if rules.family == "yahtzee" and rules.joker != "none":
        assert f"Joker rule ({rules.joker})" in text
    else:
        assert "no joker rule" in text.lower()
    assert f"scores {rules.score('full_house', (2, 2, 3, 3, 3))})" in text
    for box in rules.categories:
        assert box.replace("_", " ") in text.lower()


def test_the_facts_tell_every_pair_of_presets_apart() -> None:
    facts = {name: describe(r).facts for name, r in PRESETS.items()}
    assert len(set(facts.values())) == len(facts)
    assert {len(f) for f in facts.values()} == {4}
    assert len({tuple(label for label, _ in f) for f in facts.values()}) == 1
