"""Pig's coach (:mod:`stratagem.games.pig.coach`): its numbers are the solved tables'."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from stratagem.core.coaching import Coaching, coaching_for
from stratagem.core.errors import IllegalActionError
from stratagem.core.registry import load_game
from stratagem.core.session import Session
from stratagem.games.pig.coach import UNIT, PigCoaching
from stratagem.games.pig.reply import best_reply
from stratagem.games.pig.rules import PigRules, preset
from stratagem.games.pig.solver import PigSolution
from stratagem.games.pig.state import PigState
from stratagem.games.pig.strategies import HoldAt

PIG = preset("pig")
RAAB_CATCH_UP = preset("pig-raab").with_options(catch_up_turn=True)
# tests/games/pig/test_reply.py: at 66 against 58 with 30 in the turn the optimum rolls and
# the best reply to hold:25 holds, by more than 3 points
PINNED = (66, 58, 30)


def values(rows: list[dict[str, object]]) -> dict[str, float]:
    return {str(r["action"]): float(r["value"]) for r in rows}  # type: ignore[arg-type]


@pytest.mark.parametrize("rules", [PIG, RAAB_CATCH_UP], ids=lambda r: r.describe())
@pytest.mark.parametrize("player", [0, 1])
def test_against_the_optimum_the_rows_are_the_solved_tables_values(
    rules: PigRules, player: int, pig_solved: Callable[[PigRules], PigSolution]
) -> None:
    sol = pig_solved(rules)
    coach = PigCoaching(rules, ["human", "optimal"])
    for me, opp, turn in [(0, 0, 4), (20, 35, 12), (40, 10, 9), (44, 30, 5)]:
        if me + turn >= rules.goal or opp >= rules.goal:
            continue
        scores = (me, opp) if player == 0 else (opp, me)
        state = PigState(rules, scores=scores, player=player, turn_total=turn)
        p_roll, p_hold = sol.action_values(me, opp, turn, player == 0)
        assert values(coach.rows(state)) == {"roll": p_roll, "hold": p_hold}
        assert coach.evaluation(state, player) == max(p_roll, p_hold or 0.0)
        assert coach.evaluation(state, 1 - player) == pytest.approx(1 - max(p_roll, p_hold or 0))


def test_against_hold_25_the_coach_is_the_best_reply_and_shows_the_optimum_beside(
    pig_solved: Callable[[PigRules], PigSolution],
) -> None:
    me, opp, turn = PINNED
    reply = best_reply(PIG, HoldAt(PIG, 25))
    coach = PigCoaching(PIG, ["human", "hold:25"])
    state = PigState(PIG, scores=(me, opp), player=0, turn_total=turn)
    rows = coach.rows(state)
    p_roll, p_hold = reply.action_values(me, opp, turn)
    o_roll, o_hold = pig_solved(PIG).action_values(me, opp, turn)
    assert [(r["action"], r["value"], r["optimal_value"]) for r in rows] == [
        ("hold", p_hold, o_hold),
        ("roll", p_roll, o_roll),
    ]
    assert o_roll > o_hold  # the optimum would roll here
    judged = coach.judge(state, "roll")
    assert judged.best == "hold" and judged.cost == pytest.approx(p_hold - p_roll, abs=0)
    assert judged.label == "mistake" and judged.exact  # 3.6 points: 3 <= cost < 8
    assert judged.extra["against"] == "hold:25"
    assert "hold:25" in coach.view(state)["coach"]["sentence"]


def test_as_the_second_player_against_hold_25_the_reply_reads_the_second_role() -> None:
    me, opp, turn = PINNED
    reply = best_reply(PIG, HoldAt(PIG, 25))
    coach = PigCoaching(PIG, ["hold:25", "human"])
    state = PigState(PIG, scores=(opp, me), player=1, turn_total=turn)
    assert values(coach.rows(state)) == dict(
        zip(("roll", "hold"), reply.action_values(me, opp, turn, starter=False), strict=True)
    )


@pytest.mark.parametrize("rules", [PIG, RAAB_CATCH_UP], ids=lambda r: r.describe())
def test_at_the_opponents_decision_the_value_is_what_its_choice_leads_to(rules: PigRules) -> None:
    """Where hold:25 decides, the person's chance is the chance after its choice: the
    average over the die of the positions that follow (the reply's tables, one step on)."""
    coach = PigCoaching(rules, ["human", "hold:25"])
    for opp, me, turn in [(10, 20, 8), (30, 12, 25), (5, 40, 14)]:
        if opp + turn >= rules.goal:
            continue
        state = PigState(rules, scores=(me, opp), player=1, turn_total=turn)
        action = "hold" if turn >= 25 else "roll"
        after = state.apply(state.legal_actions()[["roll", "hold"].index(action)])
        assert coach.evaluation(state, 0) == pytest.approx(coach.evaluation(after, 0), abs=1e-12)
        assert coach.evaluation(state, 0) + coach.evaluation(state, 1) == pytest.approx(1.0)


def test_a_forced_roll_costs_nothing_and_an_illegal_text_is_refused() -> None:
    coach = PigCoaching(preset("piglet"), ["human", "optimal"])
    start = PigState.new(preset("piglet"))
    judged = coach.judge(start, "roll")
    assert (judged.cost, judged.label, judged.best) == (0.0, "best", "roll")
    with pytest.raises(IllegalActionError, match="the legal ones are: roll"):
        coach.judge(start, "hold")


def test_labels_start_at_1_3_and_8_points_of_chance() -> None:
    assert UNIT.thresholds == (0.01, 0.03, 0.08) and UNIT.percent
    assert [UNIT.label(c) for c in (0.0, 0.009, 0.01, 0.029, 0.03, 0.079, 0.08)] == [
        "best", "good", "inaccuracy", "inaccuracy", "mistake", "mistake", "blunder",
    ]  # fmt: skip


@pytest.mark.parametrize("spec", ["optimal", "random", "mcts:sims=10", "human"])
def test_against_what_is_no_fixed_strategy_the_coach_is_the_optimum(spec: str) -> None:
    coach = PigCoaching(PIG, ["human", spec])
    assert coach.against is None
    state = PigState(PIG, scores=PINNED[:2], player=0, turn_total=PINNED[2])
    assert coach.rows(state)[0]["action"] == "roll"
    assert "optimal" in coach.describe()


def test_the_registry_gives_the_coach_the_seats_of_the_game() -> None:
    spec = load_game("pig")
    coach = coaching_for(spec, PIG, ["human", "keep-pace"])
    assert isinstance(coach, Coaching) and isinstance(coach, PigCoaching)
    assert coach.against == "keep-pace"
    plain = spec.coaching(PIG)  # type: ignore[misc]
    assert isinstance(plain, PigCoaching) and plain.against is None


def test_the_view_shows_what_the_page_shows() -> None:
    session = Session.new("pig", "piglet", ["human", "hold:2"], seed=3)
    session.submit("roll")
    coach = PigCoaching(preset("piglet"), ["human", "hold:2"])
    coach.rows(session.state)  # the tables are in memory: the view has the chances
    view = coach.view(session.state)
    state = session.state
    assert isinstance(state, PigState)
    assert view["scores"] == list(state.scores) and view["turn_total"] == state.turn_total
    assert view["goal"] == 10 and view["to_move"] == state.current_player
    assert [f["name"] for f in view["faces"]] == ["heads", "tails"]
    assert [f["busts"] for f in view["faces"]] == [False, True]
    assert view["chances"][0] == coach.evaluation(state, 0)
    assert sum(view["chances"]) == pytest.approx(1.0)


def test_the_map_is_the_coachs_own_choice_everywhere() -> None:
    rules = preset("pig-raab")
    coach = PigCoaching(rules, ["human", "hold:15"])
    reply = best_reply(rules, HoldAt(rules, 15))
    state = PigState(rules, scores=(12, 31), player=0, turn_total=6)
    m = coach.strategy_map(state, 0)
    assert m["kind"] == "best reply" and m["rule_hold_at"] == [15] * rules.goal
    assert (m["me"], m["turn_total"], m["opponent_score"]) == (12, 6, 31)
    for i in range(0, rules.goal, 7):
        for k in range(1, rules.goal - i, 5):
            want = reply.best_action(i, 31, k) == "roll"
            assert m["roll"][i][k] == int(want), (i, k)
