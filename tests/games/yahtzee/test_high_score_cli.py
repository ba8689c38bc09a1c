"""``advise --target``, ``distribution --policy high-score:target=T`` and the arena agent:
bad input is a named error; a late card's distribution reaches the target with chance V."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from typer.testing import CliRunner

from stratagem.cli import app
from stratagem.games.yahtzee.solver import Solution

runner = CliRunner()


@pytest.fixture(autouse=True)
def _solved_tables(solved: Callable[[str], Solution]) -> None:
    for name in ("yahtzee", "yatzy"):
        solved(name)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--target", "-5"], "target"),
        (["--target", "100000"], "target"),
        (["--target", "300", "--target-play", "lucky"], "target-play"),
    ],
)
def test_advise_refuses_bad_targets(args: list[str], message: str) -> None:
    base = ["yahtzee", "advise", "--dice", "11234", "--rolls-left", "2"]
    result = runner.invoke(app, base + args)
    assert result.exit_code != 0
    assert message in str(result.exception)


@pytest.mark.parametrize("policy", ["high-score", "high-score:target=x", "high-score:target=-1"])
def test_distribution_refuses_bad_high_score_specs(policy: str) -> None:
    result = runner.invoke(app, ["yahtzee", "distribution", "--policy", policy])
    assert result.exit_code != 0
    assert "high-score" in str(result.exception) or "target" in str(result.exception)


def test_target_on_a_finished_card_is_refused() -> None:
    filled = "ones,twos,threes,fours,fives,sixes,one_pair,two_pairs,three_of_a_kind," \
             "four_of_a_kind,small_straight,large_straight,full_house,chance,yatzy"  # fmt: skip
    result = runner.invoke(app, ["yahtzee", "distribution", "--rules", "yatzy", "--policy",
                                 "high-score:target=200", "--filled", filled])  # fmt: skip
    assert result.exit_code != 0
    assert "over" in str(result.exception)


def test_distribution_of_the_high_score_strategy_from_a_late_card() -> None:
    filled = "ones,twos,threes,fours,fives,one_pair,two_pairs,three_of_a_kind," \
             "four_of_a_kind,small_straight,large_straight,full_house"  # fmt: skip
    args = ["yahtzee", "distribution", "--rules", "yatzy", "--filled", filled, "--upper", "45",
            "--score", "150", "--json"]  # fmt: skip
    hs = runner.invoke(app, [*args, "--policy", "high-score:target=250"])
    assert hs.exit_code == 0, hs.output
    ev = runner.invoke(app, args)
    a, b = json.loads(hs.output)["result"], json.loads(ev.output)["result"]
    assert a["total_probability"] == pytest.approx(1.0, abs=1e-9)
    # At its own target it does at least as well as the expected-score optimum, which
    # in turn has the higher mean.
    assert 0.0 < a["p_target"] < 1.0
    assert a["p_target"] >= b["p_at_least"]["250"] - 1e-12
    assert a["mean"] <= b["mean"] + 1e-9


def test_arena_agent_needs_a_valid_target() -> None:
    from stratagem.core.errors import StratagemError
    from stratagem.core.registry import make_agent

    for text in ("high-score", "high-score:target=abc", "high-score:target=-3"):
        with pytest.raises(StratagemError):
            make_agent("yahtzee", "yatzy", text)


@pytest.mark.parametrize(
    ("targets", "message"),
    [
        ("", "names no target"),
        (",", "names no target"),
        ("-1", "must lie in 1..1575 (the highest final score of yahtzee), not -1"),
        ("200,1000000000000", "must lie in 1..1575"),
        ("abc", "must be whole numbers"),
    ],
)
def test_high_score_refuses_bad_targets_by_name_before_the_build(
    targets: str, message: str
) -> None:
    """An empty --targets built the table and printed nothing; a number out of range was
    called "not a whole number"."""
    from tests.cli_outcome import invoke

    result = invoke(["yahtzee", "high-score", "--targets", targets])
    assert result.exit_code == 2 and message in result.stderr
    assert "building" not in result.output.lower()
