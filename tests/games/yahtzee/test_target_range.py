"""A target score is a whole number from 1 to the rules' highest final score, checked by name
before anything is solved or built (0 is reached by every game and 2000 by none: the answer
is trivial, the 1 GB high-score table build was not)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from stratagem.core.errors import InvalidAgentError, InvalidStateError, StratagemError
from stratagem.games.yahtzee.high_score import check_target
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.state import highest_final_score
from tests.cli_outcome import invoke


@pytest.mark.parametrize(
    ("name", "highest"),
    # 13 Yahtzees: 105 upper + 35 bonus + 50 + 185 lower (jokers) + 12 x 100 bonus = 1575,
    # the known top score of Hasbro Yahtzee; without the bonus 375; Yatzy 374 (50 bonus,
    # pairs 12 + 22, kinds 18 + 24, straights 15 + 20, house 28, chance 30, yatzy 50).
    [("yahtzee", 1575), ("yahtzee-free-joker", 1575), ("yahtzee-no-bonus", 375), ("yatzy", 374)],
)
def test_highest_final_score_of_each_preset(name: str, highest: int) -> None:
    rules = preset(name)
    assert highest_final_score(rules) == highest
    assert check_target(1, rules) == 1 and check_target(highest, rules) == highest
    for bad in (0, highest + 1):
        with pytest.raises(InvalidStateError, match=rf"must lie in 1\.\.{highest} \(the highest"):
            check_target(bad, rules)


@pytest.fixture
def nothing_solved(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty table cache, and solving made an error: a command that checks its target
    too late fails at once instead of building tables."""
    import stratagem.games.yahtzee.cli as yahtzee_cli
    import stratagem.games.yahtzee.spec as yahtzee_arena

    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a table was solved before the target was checked")

    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(yahtzee_cli, "_solution", refuse)
    monkeypatch.setattr(yahtzee_arena, "solution", refuse)
    return tmp_path


ADVISE = ["yahtzee", "advise", "--dice", "11114", "--rolls-left", "2"]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ([*ADVISE, "--target", "0"], "must lie in 1..1575 (the highest final score of yahtzee), "
         "not 0"),
        ([*ADVISE, "--target", "2000"], "not 2000"),
        ([*ADVISE, "--target", "2000", "--target-play", "expected"], "1..1575"),
        ([*ADVISE, "--rules", "yatzy", "--target", "375"], "must lie in 1..374 (the highest"),
        (["yahtzee", "high-score", "--targets", "200,0"], "1..1575"),
        (["yahtzee", "high-score", "--rules", "yatzy", "--targets", "400"], "1..374"),
        (["yahtzee", "distribution", "--policy", "high-score:target=0"], "1..1575"),
        (["yahtzee", "distribution", "--policy", "high-score:target=2000"], "1..1575"),
    ],
)  # fmt: skip
def test_commands_refuse_a_target_out_of_range_before_solving(
    nothing_solved: Path, args: list[str], message: str
) -> None:
    result = invoke(args)
    assert result.exit_code == 2, result.output
    assert message in result.stderr
    assert not any(nothing_solved.iterdir())


@pytest.mark.parametrize(
    ("rules", "spec", "message"),
    [
        ("yahtzee", "high-score:target=0", "target must be a whole number 1..1575, got '0'"),
        ("yahtzee", "high-score:target=2000", "target must be a whole number 1..1575"),
        ("yatzy", "high-score:target=1000", "must lie in 1..374 (the highest final score of"),
    ],
)
def test_the_arena_agent_refuses_a_target_out_of_range_before_solving(
    nothing_solved: Path, rules: str, spec: str, message: str
) -> None:
    from stratagem.core.arena import make_experiment
    from stratagem.core.registry import load_game

    with pytest.raises(StratagemError, match=re.escape(message)):
        load_game("yahtzee").make_agent(rules, spec)
    with pytest.raises(StratagemError, match=re.escape(message)):
        make_experiment("yahtzee", rules, [spec], seed=0)  # checked before any game
    assert not any(nothing_solved.iterdir())


def test_the_spec_range_is_the_highest_score_of_any_preset() -> None:
    from stratagem.core.registry import load_game

    info = load_game("yahtzee").agent_info("high-score")
    assert info.param("target").kind() == "whole number 1..1575"
    with pytest.raises(InvalidAgentError):
        load_game("yahtzee").check_agent("high-score:target=1576")
