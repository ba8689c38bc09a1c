"""``yahtzee distribution --policy`` reads its spec through the registry (the arena's grammar)."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from stratagem.cli import app

runner = CliRunner()

LATE = ["yahtzee", "distribution", "--rules", "yatzy", "--upper", "45", "--score", "150",
        "--json", "--filled", "ones,twos,threes,fours,fives,one_pair,two_pairs,"
        "three_of_a_kind,four_of_a_kind,small_straight,large_straight,full_house"]  # fmt: skip


def test_the_positional_high_score_spec_works_as_the_keyword_one() -> None:
    short = runner.invoke(app, [*LATE, "--policy", "high-score:250"])
    assert short.exit_code == 0, short.output
    long = runner.invoke(app, [*LATE, "--policy", "high-score:target=250"])
    a, b = json.loads(short.output)["result"], json.loads(long.output)["result"]
    a.pop("seconds"), b.pop("seconds")  # wall time, the only field that may differ
    assert a == b and a["policy"] == "high-score:target=250"


@pytest.mark.parametrize(
    ("policy", "message"),
    [
        ("high-score:0", "agent high-score: target must be a whole number 1..1575, got '0'"),
        ("high-score:goal=250", "agent high-score has no parameter 'goal'"),
        ("high-score:target=1,target=2", "sets the parameter 'target' twice"),
        ("high-score", "agent high-score needs target=..."),
    ],
)
def test_a_bad_high_score_spec_gets_the_registry_message(policy: str, message: str) -> None:
    result = runner.invoke(app, ["yahtzee", "distribution", "--policy", policy])
    assert result.exit_code != 0
    assert message in str(result.exception)
