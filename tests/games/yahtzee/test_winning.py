"""Probability-pricing advice: solitaire targets and the win-seeking agent."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from stratagem.cli import app
from stratagem.core.errors import InvalidStateError
from stratagem.games.yahtzee.distribution import remaining_distributions
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.solver import Solution
from stratagem.games.yahtzee.state import Keep, Score, Situation, YahtzeeState
from stratagem.games.yahtzee.winning import ChanceAdvisor, WinAgent

from .test_match import _best_chance_win

runner = CliRunner()
OTHERS = [
    "ones", "twos", "threes", "fours", "fives", "sixes", "three_of_a_kind",
    "four_of_a_kind", "full_house", "small_straight", "large_straight", "yahtzee",
]  # fmt: skip


def _late_advisor(sol: Solution) -> ChanceAdvisor:
    tables = remaining_distributions(sol, min_filled=sol.rules.num_categories - 1)
    return ChanceAdvisor(sol, tables)


def test_target_prices_match_brute_force(solved: Callable[[str], Solution]) -> None:
    """Only Chance left, 200 points so far: P(final >= 200 + need) by every option."""
    sol = solved("yahtzee-no-bonus")
    advisor = _late_advisor(sol)
    sit = Situation(sol.rules, (2, 3, 5, 6, 6), 2, frozenset(OTHERS), 63, 0, 200)
    advice = advisor.advise_target(sit, 220)  # need 20 from the dice
    # Scoring now: 22 >= 20, a certain success, is the best option (boxes first on ties).
    assert advice[0].action == Score("chance")
    assert advice[0].value == pytest.approx(1.0, abs=1e-6)
    sit_low = Situation(sol.rules, (1, 1, 2, 3, 4), 1, frozenset(OTHERS), 63, 0, 200)
    low = advisor.advise_target(sit_low, 225)
    # Keep nothing and throw all five once: P(sum >= 25) with one throw.
    from itertools import product

    p_once = np.mean([sum(t) >= 25 for t in product(range(1, 7), repeat=5)])
    keep_none = next(a for a in low if isinstance(a.action, Keep) and not a.action.dice)
    assert keep_none.value == pytest.approx(p_once, abs=1e-6)
    assert low[0].value >= keep_none.value
    # No option beats the brute-force optimum of the whole turn.
    start = advisor.advise_target(Situation(sol.rules, (1, 1, 1, 1, 1), 2, frozenset(OTHERS),
                                            63, 0, 200), 225)  # fmt: skip
    assert max(a.value for a in start) <= _best_chance_win(25) + 1e-6


def test_win_agent_needs_an_opponent_and_plays_legal_moves(
    solved: Callable[[str], Solution],
) -> None:
    sol = solved("yahtzee-no-bonus")
    agent = WinAgent.__new__(WinAgent)
    agent.advisor = _late_advisor(sol)
    with pytest.raises(InvalidStateError, match="at least one opponent"):
        agent.advise(YahtzeeState.new(preset("yahtzee-no-bonus"), 1))
    with pytest.raises(InvalidStateError, match="not a reachable"):
        agent.advise(YahtzeeState.new(preset("yahtzee-no-bonus"), 2))


def test_advise_target_bad_input_is_named() -> None:
    result = runner.invoke(
        app, ["yahtzee", "advise", "--dice", "11114", "--rolls-left", "2", "--target", "-3"]
    )
    assert isinstance(result.exception, InvalidStateError)  # not a crash of another kind
    assert "target score" in str(result.exception)


def test_distribution_cli_refuses_bad_options(tmp_path: Path) -> None:
    result = runner.invoke(app, ["yahtzee", "distribution", "--policy", "lucky"])
    assert "unknown Yahtzee strategy 'lucky'" in str(result.exception)
    result = runner.invoke(app, ["yahtzee", "distribution", "--plot", str(tmp_path / "x.jpg")])
    assert ".png" in str(result.exception)


@pytest.mark.slow
def test_distribution_cli_json_and_plot(tmp_path: Path) -> None:
    png = tmp_path / "d.png"
    result = runner.invoke(
        app, ["yahtzee", "distribution", "--rules", "yatzy", "--json", "--plot", str(png)]
    )
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)["result"]
    assert summary["median"] == 249
    assert summary["sd"] == pytest.approx(38.4846, abs=0.05)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


@pytest.mark.slow
def test_advise_target_cli_prices_probabilities() -> None:
    result = runner.invoke(
        app,
        ["yahtzee", "advise", "--rules", "yatzy", "--dice", "66661", "--rolls-left", "2",
         "--target", "300", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    options = json.loads(result.output)["result"]["options"]
    assert all(0.0 <= o["value"] <= 1.0 for o in options)
    assert options[0]["value"] >= options[-1]["value"]


def test_distribution_cli_from_a_late_card(solved: Callable[[str], Solution]) -> None:
    sol = solved("yahtzee")
    filled = OTHERS[:10]  # with --yahtzee-box 50: chance and large straight open
    result = runner.invoke(
        app,
        ["yahtzee", "distribution", "--filled", ",".join(filled), "--upper", "63",
         "--yahtzee-box", "50", "--json"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    summary = json.loads(result.output)["result"]
    # A given Yahtzee box value means the Yahtzee box is filled too.
    mask = sum(1 << sol.rules.category_index(b) for b in [*filled, "yahtzee"])
    points = summary["points_so_far"]
    assert points == 63 + 35 + 50  # the card implies the upper total, its bonus and 50
    assert summary["mean"] == pytest.approx(points + sol.values[mask, 63, 1], abs=1e-9)
    assert summary["total_probability"] == pytest.approx(1.0, abs=1e-12)
    bad = runner.invoke(app, ["yahtzee", "distribution", "--filled", "ones,sevens"])
    assert "sevens" in str(bad.exception)


@pytest.mark.slow
def test_zoo_cli_prints_glenns_column() -> None:
    result = runner.invoke(app, ["yahtzee", "zoo", "--json"])
    assert result.exit_code == 0, result.output
    rows = {r["policy"]: r for r in json.loads(result.output)["result"]["strategies"]}
    assert rows["optimal"]["sd"] == pytest.approx(59.6117, abs=5e-5)  # Glenn (2006)
    assert rows["greedy"]["glenn"] == [218.05, 46.87]
