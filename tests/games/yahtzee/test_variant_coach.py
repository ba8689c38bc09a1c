"""The coach of a reduced card: exact chances of winning from the duel tables (two
players), exact expected points otherwise, and sessions that play such a card."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.coaching import Coaching, coaching_for
from stratagem.core.errors import IllegalActionError, InvalidRulesError, InvalidStateError
from stratagem.core.registry import load_game
from stratagem.core.session import Session
from stratagem.core.tables import no_large_builds
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee.coach import SOLO_UNIT, WIN_UNIT
from stratagem.games.yahtzee.duel import Run, Variant, decision
from stratagem.games.yahtzee.duel_play import VariantState, find_run, solve_limits
from stratagem.games.yahtzee.state import Roll
from stratagem.games.yahtzee.variant_coach import VariantCoaching

from . import test_duel_play as duel_tests

SMALL = duel_tests.SMALL
small = duel_tests.small  # the module fixtures of the reduced card and its tables, shared
solved = duel_tests.solved

NO_BONUS = "yahtzee:boxes=ones+twos+chance"
TOO_LARGE_FOR_THE_WEB = "yahtzee:boxes=ones+threes+fives+chance,bonus=true"
"""Estimated at about 55 s to solve: over a web request's 30 s, within the terminal's hour."""


def _first_throws(coach: VariantCoaching, state: VariantState, column: str = "value") -> float:
    """The mover's value at a turn start: the largest of a column averaged over the throws."""
    return sum(
        p * max(r[column] for r in coach.rows(state.apply(Roll(k)))) for k, p in D.outcomes(5)
    )


def test_alone_the_start_is_worth_the_cards_expected_score(small: Variant) -> None:
    # 44.6602: the expected-score optimum's points on this card, docs/results/
    # yahtzee_two_player.md ("ES points"), from the same solitaire kernels
    coach = VariantCoaching(small, 1)
    start = VariantState.new(small, 1)
    assert coach.unit == SOLO_UNIT and isinstance(coach, Coaching)
    assert coach.evaluation(start, 0) == pytest.approx(44.6602, abs=5e-5)
    assert _first_throws(coach, start) == pytest.approx(coach.evaluation(start, 0), abs=1e-9)


def test_against_one_opponent_the_chances_are_the_solved_tables(
    small: Variant, solved: Run
) -> None:
    """Averaged over the first throw, the best option's chance is the table's value of
    the start; every option is the one duel.decision recomputes for that throw."""
    coach = VariantCoaching(small, 2)
    start = VariantState.new(small, 2)
    assert coach.unit == WIN_UNIT and coach.exact
    assert _first_throws(coach, start) == pytest.approx(solved.value(0, 0, 0, 0), abs=1e-12)
    assert coach.evaluation(start, 0) == pytest.approx(solved.value(0, 0, 0, 0), abs=1e-15)
    assert coach.evaluation(start, 1) == pytest.approx(1 - solved.value(0, 0, 0, 0), abs=1e-15)
    roll = start.apply(Roll((1, 1, 2, 6, 6)))
    rows = coach.rows(roll)
    picked = decision(solved, 0, 0, 0, 0, D.KEEP_INDEX[(1, 1, 2, 6, 6)], 2)
    assert rows[0]["value"] == pytest.approx(picked["best_chance"], abs=1e-12)
    es = next(r for r in rows if r["action"] == picked["es"])
    assert es["value"] == pytest.approx(picked["es_chance"], abs=1e-12)
    # the expected score column is the solitaire optimum's, whatever the unit
    assert _first_throws(coach, start, "expected_score") == pytest.approx(44.6602, abs=5e-5)


def test_the_verdict_prices_a_decision_against_the_best(small: Variant, solved: Run) -> None:
    coach = VariantCoaching(small, 2)
    roll = VariantState.new(small, 2).apply(Roll((1, 1, 2, 6, 6)))
    rows = coach.rows(roll)
    worst = rows[-1]
    judged = coach.judge(roll, worst["action"])
    assert judged.cost == pytest.approx(rows[0]["value"] - worst["value"], abs=1e-15)
    assert judged.label == WIN_UNIT.label(judged.cost) and judged.exact
    assert judged.best == rows[0]["action"]
    with pytest.raises(IllegalActionError, match="not an option"):
        coach.judge(roll, "score yahtzee")


def test_the_view_shows_only_the_cards_boxes_and_its_bonus_when_on(small: Variant) -> None:
    game = load_game("yahtzee")
    plain = game.rules_object(NO_BONUS)
    state = VariantState.new(plain, 1).apply(Roll((2, 2, 3, 5, 6)))
    view = VariantCoaching(plain, 1).view(state)
    assert view["categories"] == ["ones", "twos", "chance"] and view["rounds"] == 3
    assert view["upper_bonus_on"] is False
    assert view["box_points"] == {"ones": 0, "twos": 4, "chance": 18}
    with_bonus = VariantCoaching(small, 1).view(VariantState.new(small, 1))
    assert with_bonus["upper_bonus_on"] is True
    assert with_bonus["cards"][0]["upper_bonus_threshold"] == 9  # three ones, three twos


def test_three_players_on_a_reduced_card_are_coached_in_expected_points(small: Variant) -> None:
    coach = VariantCoaching(small, 3)
    state = VariantState.new(small, 3).apply(Roll((6, 6, 6, 5, 5)))
    rows = coach.rows(state)
    assert coach.unit == SOLO_UNIT and "three or four" in coach.note
    assert rows[0]["value"] == pytest.approx(rows[0]["expected_score"])
    assert coach.evaluation(state, 1) is None  # not the mover's: not said cheaply


def test_a_coach_refuses_another_card_and_player_count(small: Variant) -> None:
    coach = VariantCoaching(small, 1)
    with pytest.raises(InvalidStateError, match="1 player"):
        coach.view(VariantState.new(small, 2))
    other = load_game("yahtzee").rules_object(NO_BONUS)
    with pytest.raises(InvalidStateError, match="not yahtzee\\[ones\\+twos\\+chance\\]"):
        coach.view(VariantState.new(other, 1))
    with pytest.raises(InvalidStateError, match="1 to 4 players"):
        VariantCoaching(small, 5)


def test_a_web_request_refuses_a_card_too_large_to_solve_there() -> None:
    variant = load_game("yahtzee").rules_object(TOO_LARGE_FOR_THE_WEB)
    assert isinstance(variant, Variant) and find_run(variant) is None
    VariantCoaching(variant, 2)  # the terminal's limits (an hour) take it
    with no_large_builds():
        assert solve_limits()[1] == 30.0
        with pytest.raises(InvalidRulesError, match=r"too large to solve here.*MiB.*web page"):
            VariantCoaching(variant, 2)
        VariantCoaching(variant, 1)  # alone: expected points, no two-player table


def test_a_session_on_a_reduced_card_plays_to_the_end_against_duel_optimal(
    small: Variant, solved: Run
) -> None:
    game = load_game("yahtzee")
    session = Session.new("yahtzee", SMALL, ["human", "duel-optimal"], seed=3)
    coach = coaching_for(game, game.rules_object(SMALL), session.seats)
    assert isinstance(coach, VariantCoaching) and coach.unit == WIN_UNIT
    judged = []
    while not session.over:
        if session.waiting_for_human:
            best = coach.rows(session.state)[0]["action"]
            judged.append(coach.judge(session.state, best))
            session.submit(best)
        else:
            session.ai_move()
    assert len(judged) >= 3 and all(j.cost == 0 for j in judged)
    finals = session.result()["returns"]
    assert finals is not None and len(finals) == 2
    over = session.state
    assert isinstance(over, VariantState)
    values = [coach.evaluation(over, p) for p in (0, 1)]
    assert sorted(values) in ([0.0, 1.0], [0.5, 0.5])
    assert np.isclose(sum(v for v in values if v is not None), 1.0)
