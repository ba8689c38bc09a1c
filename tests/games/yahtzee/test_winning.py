"""Probability-pricing advice: solitaire targets and the win-seeking agent."""

from __future__ import annotations

import itertools
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
from stratagem.games.yahtzee.state import Keep, Roll, Score, Scorecard, Situation, YahtzeeState
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


def _chance_open(rules_name: str, yahtzee_box: list[int]) -> YahtzeeState:
    """Every card with only chance open (the upper boxes at three of each face), the
    Yahtzee box as given, one card a player."""
    rules = preset(rules_name)
    filled = [3, 6, 9, 12, 15, 18, 20, 0, 25, 30, 0]
    cards = tuple(Scorecard(rules, (*filled, points, None)) for points in yahtzee_box)
    return YahtzeeState(rules, cards, 0)


@pytest.mark.parametrize("players", [3, 4])
def test_the_win_agent_plays_legal_games_of_three_and_four(
    solved: Callable[[str], Solution], players: int
) -> None:
    """The last round of a 3- or 4-player game, every seat the win-seeking player: each
    move is legal and the game ends."""
    sol = solved("yahtzee-no-bonus")
    agent = WinAgent.__new__(WinAgent)
    agent.advisor = _late_advisor(sol)
    agent.high_score_table = None
    rng = np.random.default_rng(players)
    state = _chance_open("yahtzee-no-bonus", [0, 50, 0, 50][:players])
    moves = 0
    while not state.is_terminal():
        if state.rolling:
            state = state.apply(state.sample_chance(rng))
            continue
        action = agent.act(state, rng)
        assert action in state.legal_actions()
        state = state.apply(action)
        moves += 1
    assert players <= moves <= 3 * players and all(c.is_full for c in state.cards)


def test_the_win_agents_chance_with_three_players_is_the_fields_table(
    solved: Callable[[str], Solution],
) -> None:
    """A pinned 3-player position: scoring chance now is worth the field's table at the
    final score, and that table is each opponent's optimal final-score distribution
    summed over every joint outcome (ties at the top shared), by brute force here."""
    from stratagem.games.yahtzee.field import field_win_table
    from stratagem.games.yahtzee.match import opponent_win_table

    sol = solved("yahtzee-no-bonus")
    advisor = _late_advisor(sol)
    state = _chance_open("yahtzee-no-bonus", [0, 0, 0])  # equal totals: ties
    state = state.apply(Roll((2, 3, 5, 6, 6))).apply(Keep((5, 6, 6)))
    state = state.apply(Roll((4, 6)))  # 5 6 6 4 6: 27 in chance, one reroll left
    advice = {str(a.action): a.value for a in advisor.advise_win(state)}
    cards = [(c.mask, c.upper_total, c.flag, c.total) for c in state.cards]
    fw = field_win_table(advisor.tables, cards, 0)
    mine = state.cards[0].total + 27
    assert advice["score chance"] == pytest.approx(float(fw[mine]), abs=1e-12)
    finals = []
    for c in state.cards[1:]:
        low, p = advisor.tables.pmf(c.mask, c.upper_total, c.flag)
        finals.append({c.total + low + j: float(q) for j, q in enumerate(p) if q > 0})
    brute = 0.0
    for (x1, p1), (x2, p2) in itertools.product(finals[0].items(), finals[1].items()):
        if max(x1, x2) <= mine:
            brute += p1 * p2 / (1 + (x1 == mine) + (x2 == mine))
    assert advice["score chance"] == pytest.approx(brute, abs=1e-6)  # float32 tables
    # the two-player tables multiplied, one per opponent, count a three-way tie as 1/4,
    # not 1/3: here, where both opponents can tie the mover, that is visibly off
    product = opponent_win_table(advisor.tables, cards[1])[mine]
    product *= opponent_win_table(advisor.tables, cards[2])[mine]
    assert abs(product - advice["score chance"]) > 1e-4
