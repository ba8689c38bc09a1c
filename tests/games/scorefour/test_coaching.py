"""The Score Four Coaching: one finite unit in which a thrown-away proven result is a
blunder, exact only where the search proved the result."""

from __future__ import annotations

import math

import pytest

from stratagem.core.coaching import Coaching
from stratagem.core.errors import IllegalActionError
from stratagem.core.registry import load_game
from stratagem.games.scorefour.board import parse_peg
from stratagem.games.scorefour.coach import (
    BLUNDER,
    EVAL_CAP,
    INACCURACY,
    ScoreFourCoaching,
)
from stratagem.games.scorefour.state import ScoreFourState

# X has a1 b1 c1 (d1 open), O has a2 b2 c2 (d2 open); X to move.
THREATS = "xxx.ooo........./................/................/................"
# O to move and lost whatever it does (tests/games/scorefour/test_coach.py explains it).
LOST = "xxx.xxx.oo....../ooo............./................/................"


@pytest.fixture(scope="module")
def coach() -> ScoreFourCoaching:
    return ScoreFourCoaching(depth=3)


def test_the_game_spec_registers_the_coaching() -> None:
    spec = load_game("scorefour")
    assert spec.coaching is not None
    made = spec.coaching(spec.default_rules)
    assert isinstance(made, Coaching) and made.unit.name == "evaluation"


def test_missing_a_proven_win_is_a_blunder_priced_finitely(coach: ScoreFourCoaching) -> None:
    state = ScoreFourState.from_string(THREATS)
    judged = coach.judge(state, "d2")  # blocks O's three, misses X's own win at d1
    assert judged.best == str(parse_peg("d1")) and judged.label == "blunder"
    # priced at the evaluation's cap and said in words, never PROVEN - 1 minus an evaluation
    assert judged.cost == EVAL_CAP and judged.extra["result_change"] == "threw away a win in 1"
    assert judged.explanation.startswith("threw away a win in 1: ")
    assert not judged.exact  # d2's value is an evaluation, not a proof


def test_turning_a_win_into_a_proven_loss_is_an_exact_blunder(coach: ScoreFourCoaching) -> None:
    state = ScoreFourState.from_string(THREATS)
    judged = coach.judge(state, "a3")  # neither wins nor blocks: O completes d2
    assert judged.exact and judged.label == "blunder"
    # it showed (PROVEN - 1) + (PROVEN - 1) = 1998 points (issue 35): now the cap, in words
    assert judged.cost == EVAL_CAP
    assert judged.extra["result_change"] == "threw away a win in 1, and loses in 1"
    assert judged.extra["played_value"] == "loses in 1"
    assert judged.extra["best_value"] == "wins in 1"
    # the record's values are on the shown scale too: the cap, not the internal 999 / -999
    assert (judged.value_best, judged.value_played) == (EVAL_CAP, -EVAL_CAP)


def test_the_best_move_costs_nothing_in_either_text_form(coach: ScoreFourCoaching) -> None:
    state = ScoreFourState.from_string(THREATS)
    assert coach.judge(state, "d1") == coach.judge(state, "3")
    assert coach.judge(state, "d1").cost == 0 and coach.judge(state, "d1").label == "best"


def test_in_a_lost_position_losing_sooner_costs_less_than_an_inaccuracy(
    coach: ScoreFourCoaching,
) -> None:
    rows = coach.rows(ScoreFourState.from_string(LOST))
    assert all(r["outcome"] == "loss" and r["exact"] for r in rows)
    assert all(r["cost"] < INACCURACY for r in rows)


def test_rows_are_best_first_with_costs_from_the_best(coach: ScoreFourCoaching) -> None:
    rows = coach.rows(ScoreFourState.new().apply(5).apply(6))
    values = [r["value"] for r in rows]
    assert values == sorted(values, reverse=True)
    assert all(
        r["cost"] == pytest.approx(values[0] - r["value"]) for r in rows if not r["result_change"]
    )
    assert all(r["cost"] <= EVAL_CAP for r in rows)
    assert all(abs(r["value"]) <= EVAL_CAP for r in rows if not r["exact"])
    assert {r["label"] for r in rows} <= {"best", "good", "inaccuracy", "mistake", "blunder"}
    assert [r["label"] for r in rows if r["cost"] >= BLUNDER] == [
        "blunder" for r in rows if r["cost"] >= BLUNDER
    ]


def test_the_evaluation_is_the_same_position_seen_from_either_side(
    coach: ScoreFourCoaching,
) -> None:
    # a proven result is said in words and sits at the cap of the graph's scale, never at
    # the cost scale's PROVEN - n (the review's graph showed "1000.00"; issue 35)
    state = ScoreFourState.from_string(THREATS)
    assert coach.evaluation(state, 0) == EVAL_CAP  # X wins in 1
    assert coach.evaluation_text(state, 0) == "wins in 1"
    assert coach.evaluation(state, 1) == -EVAL_CAP
    assert coach.evaluation_text(state, 1) == "loses in 1"
    won = state.apply(parse_peg("d1"))
    assert coach.evaluation(won, 0) == EVAL_CAP and coach.evaluation(won, 1) == -EVAL_CAP
    assert coach.evaluation_text(won, 0) == "won" and coach.evaluation_text(won, 1) == "lost"


def test_an_unproven_position_is_worth_its_capped_points_to_either_side(
    coach: ScoreFourCoaching,
) -> None:
    state = ScoreFourState.new()
    value = coach.evaluation(state, 0)
    assert value is not None and abs(value) <= EVAL_CAP
    assert coach.evaluation(state, 1) == -value
    assert coach.evaluation_text(state, 0) == f"{value:+.0f} points"


def test_the_review_graph_of_a_won_game_has_no_sentinel() -> None:
    from stratagem.core.review import review
    from stratagem.core.session import Session

    # X takes a1 b1 c1 d1 on the first level while O plays a2 b2 c2: X wins on move 7
    session = Session.new("scorefour", "scorefour", ["human", "human"], seed=1)
    for peg in ("a1", "a2", "b1", "b2", "c1", "c2", "d1"):
        session.submit(str(parse_peg(peg)))
    assert session.over
    graph = review(session, ScoreFourCoaching(depth=3)).to_json()["graph"]
    assert all(abs(p["value"]) <= EVAL_CAP for p in graph)
    assert graph[6]["text"] == "wins in 1" and graph[6]["value"] == EVAL_CAP
    assert graph[-1]["text"] == "won"
    assert all(p["text"] for p in graph)


def test_a_move_into_a_proven_loss_from_an_open_game_is_said_and_capped(
    coach: ScoreFourCoaching,
) -> None:
    # X a1 b1 c1, O a2 b2, O to move: every move but the block at d1 loses at once
    state = ScoreFourState.new()
    for peg in ("a1", "a2", "b1", "b2", "c1"):
        state = state.apply(parse_peg(peg))
    rows = {r["peg"]: r for r in coach.rows(state)}
    assert rows["d1"]["result_change"] is None and rows["d1"]["cost"] == 0
    assert rows["a4"]["result_change"] == "turns an open game into a loss in 1"
    assert rows["a4"]["cost"] == EVAL_CAP and rows["a4"]["label"] == "blunder"


def test_the_review_of_a_blunder_shows_no_cost_beyond_the_cap_and_counts_it_apart() -> None:
    from stratagem.core.review import review
    from stratagem.core.session import Session

    # O's c2 (move 6) leaves X's d1 open: it turned an open game into a loss in 1; the
    # review priced it at 1012 points and summed it into the total (issue 35)
    session = Session.new("scorefour", "scorefour", ["human", "human"], seed=1)
    for peg in ("a1", "a2", "b1", "b2", "c1", "c2", "d1"):
        session.submit(str(parse_peg(peg)))
    done = review(session, ScoreFourCoaching(depth=3))
    costs = [d.judged.cost for d in done.decisions]
    assert max(costs) <= EVAL_CAP
    blunder = done.decisions[5].judged
    assert blunder.extra["result_change"] == "turned an open game into a loss in 1"
    assert blunder.cost == EVAL_CAP and blunder.label == "blunder"
    assert done.totals.results_changed == 1
    others = [d.judged.cost for d in done.decisions if d.index != 5]
    assert done.totals.cost == pytest.approx(math.fsum(others))
    assert done.totals.cost < EVAL_CAP
    assert done.cost_note is not None and "apart" in done.cost_note
    assert done.to_json()["totals"]["results_changed"] == 1


def test_the_view_draws_the_winning_line_across_the_board(coach: ScoreFourCoaching) -> None:
    won = ScoreFourState.from_string(THREATS).apply(parse_peg("d1"))
    view = coach.view(won)
    assert view["winner"] == "x" and view["to_move"] is None
    assert view["winning_lines"] == [[0, 1, 2, 3]]
    assert view["cells"][:4] == "xxxx" and len(view["cells"]) == 64
    assert view["heights"][:4] == [1, 1, 1, 1]


def test_judging_a_full_peg_names_the_open_ones(coach: ScoreFourCoaching) -> None:
    state = ScoreFourState.new()
    for _ in range(4):
        state = state.apply(0)
    with pytest.raises(IllegalActionError, match="a1 is full"):
        coach.judge(state, "a1")


def test_one_search_serves_judge_rows_and_evaluation_of_a_position(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from stratagem.games.scorefour import coach as module

    searched: list[ScoreFourState] = []
    real = module.advise

    def counted(state: ScoreFourState, depth: int = 5) -> list[module.MoveAdvice]:
        searched.append(state)
        return real(state, depth)

    monkeypatch.setattr(module, "advise", counted)
    fresh = ScoreFourCoaching(depth=2)
    state = ScoreFourState.new().apply(0)
    fresh.rows(state)
    fresh.judge(state, "b2")
    fresh.evaluation(state, 0)
    assert searched == [state]


def test_a_decision_is_named_by_its_peg_and_the_level_its_bead_lands_on(
    coach: ScoreFourCoaching,
) -> None:
    state = ScoreFourState.from_string(LOST)  # a1 holds two beads, b3 one, d1 none
    assert coach.decision_text(state, str(parse_peg("a1"))) == "a1 (level 3)"
    assert coach.decision_text(state, str(parse_peg("b3"))) == "b3 (level 2)"
    assert coach.decision_text(state, "d1") == "d1 (level 1)"
