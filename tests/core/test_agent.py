"""Advice records and regrets."""

from __future__ import annotations

from stratagem.core.agent import Advice, with_regrets


def test_with_regrets_sorts_best_first_and_measures_from_the_best() -> None:
    ranked = with_regrets([("a", 1.0), ("b", 4.0), ("c", 2.5)])
    assert [a.action for a in ranked] == ["b", "c", "a"]
    assert [a.regret for a in ranked] == [0.0, 1.5, 3.0]


def test_with_regrets_keeps_the_given_order_among_equals() -> None:
    assert [a.action for a in with_regrets([("x", 1.0), ("y", 1.0)])] == ["x", "y"]


def test_with_regrets_of_nothing_is_empty() -> None:
    assert with_regrets([]) == []


def test_to_json_has_action_string_value_and_regret_only_when_unsampled() -> None:
    assert Advice("keep 1", 2.0, 0.5).to_json() == {"action": "keep 1", "value": 2.0, "regret": 0.5}
    sampled = Advice("a", 1.0, 0.0, n=10, se=0.1).to_json()
    assert sampled["n"] == 10 and sampled["se"] == 0.1
