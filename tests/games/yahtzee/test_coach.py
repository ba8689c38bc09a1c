"""Yahtzee's coach: its numbers are the solver's and the win-seeking player's."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from stratagem.core.coaching import Coaching
from stratagem.core.errors import IllegalActionError, InvalidStateError
from stratagem.core.registry import load_game
from stratagem.core.session import Session
from stratagem.games.yahtzee.coach import (
    SOLO_UNIT,
    WIN_UNIT,
    YahtzeeCoaching,
    final_report,
)
from stratagem.games.yahtzee.distribution import RemainingDistributions, remaining_distributions
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.solver import Solution
from stratagem.games.yahtzee.state import Scorecard, YahtzeeState
from stratagem.games.yahtzee.strategies import OptimalStrategy
from stratagem.games.yahtzee.winning import ChanceAdvisor

RULES = preset("yahtzee")


@pytest.fixture(scope="module")
def late(solved: Callable[[str], Solution]) -> RemainingDistributions:
    """The remaining-score tables of the last turn (seconds, not the full ~1 GB build)."""
    sol = solved("yahtzee")
    return remaining_distributions(sol, min_filled=RULES.num_categories - 1)


def _card(boxes: list[int | None]) -> Scorecard:
    return Scorecard(RULES, tuple(boxes))


# the mover (player 1) has only chance open and 173 points (upper bonus won); the
# opponent has finished on 192: 21 in chance wins for sure, 19 or less loses
MINE = [3, 6, 9, 12, 15, 18, 20, 0, 25, 30, 0, 0, None]
THEIRS = [3, 6, 9, 12, 15, 18, 20, 0, 25, 30, 0, 0, 19]


def _last_turn(dice: tuple[int, ...]) -> YahtzeeState:
    return YahtzeeState(RULES, (_card(THEIRS), _card(MINE)), 1, dice, 2, False)


def test_the_start_of_a_solitaire_game_is_worth_the_optimums_254_59(
    solved: Callable[[str], Solution],
) -> None:
    # 254.5877 is the optimal solitaire expected score (Verhoeff's and Woodward's
    # solvers; docs/results/ of this project reproduce it)
    coach = YahtzeeCoaching(RULES, 1, solved("yahtzee"))
    start = YahtzeeState.new(RULES, 1)
    assert coach.evaluation(start, 0) == pytest.approx(254.5877, abs=1e-4)
    assert coach.unit == SOLO_UNIT


def test_solitaire_rows_are_the_optimal_strategys_values_and_regrets(
    solved: Callable[[str], Solution],
) -> None:
    sol = solved("yahtzee")
    coach = YahtzeeCoaching(RULES, 1, sol)
    session = Session.new("yahtzee", "yahtzee", ["human"], seed=5)
    state = session.state
    assert isinstance(state, YahtzeeState)
    advice = OptimalStrategy(sol).advise(state)
    rows = coach.rows(state)
    assert [r["action"] for r in rows] == [str(a.action) for a in advice]
    for row, a in zip(rows, advice, strict=True):
        assert row["value"] == pytest.approx(a.value, abs=1e-9)
        assert row["cost"] == pytest.approx(max(a.regret, 0.0), abs=1e-9)
        assert row["label"] == SOLO_UNIT.label(row["cost"])
        assert row["exact"] is True
        assert row["words"]
    # at a decision the position is worth its best option
    assert coach.evaluation(state, 0) == pytest.approx(rows[0]["value"])


def test_the_judge_prices_a_decision_at_its_regret_and_names_the_best(
    solved: Callable[[str], Solution],
) -> None:
    coach = YahtzeeCoaching(RULES, 1, solved("yahtzee"))
    state = Session.new("yahtzee", "yahtzee", ["human"], seed=5).state
    rows = coach.rows(state)
    worst = rows[-1]
    judged = coach.judge(state, worst["action"])
    assert judged.cost == pytest.approx(worst["cost"])
    assert judged.best == rows[0]["action"]
    assert judged.label == SOLO_UNIT.label(worst["cost"])
    assert rows[0]["action"] in judged.explanation
    assert coach.judge(state, rows[0]["action"]).label == "best"
    with pytest.raises(IllegalActionError, match="not an option"):
        coach.judge(state, "score nothing")


def test_against_an_opponent_options_are_priced_by_the_win_seeking_players_chances(
    solved: Callable[[str], Solution], late: RemainingDistributions
) -> None:
    sol = solved("yahtzee")
    coach = YahtzeeCoaching(RULES, 2, sol, late)
    state = _last_turn((2, 3, 4, 6, 6))
    rows = coach.rows(state)
    chances = ChanceAdvisor(sol, late).advise_win(state)
    assert [r["action"] for r in rows] == [str(a.action) for a in chances]
    assert [r["win_chance"] for r in rows] == pytest.approx([a.value for a in chances])
    expected = {str(a.action): a.value for a in OptimalStrategy(sol).advise(state)}
    assert all(r["expected_score"] == pytest.approx(expected[r["action"]]) for r in rows)
    assert coach.unit == WIN_UNIT and all(r["exact"] for r in rows)


def test_the_best_by_chance_of_winning_can_differ_from_the_best_by_expected_score(
    solved: Callable[[str], Solution], late: RemainingDistributions
) -> None:
    # 2 3 4 6 6 sums to 21, enough to pass the opponent's 192: scoring chance now wins
    # for sure, while keeping 6 6 has the higher expected score (197.75 against 194)
    coach = YahtzeeCoaching(RULES, 2, solved("yahtzee"), late)
    state = _last_turn((2, 3, 4, 6, 6))
    rows = coach.rows(state)
    assert rows[0]["action"] == "score chance"
    assert rows[0]["win_chance"] == pytest.approx(1.0)
    by_points = max(rows, key=lambda r: r["expected_score"])
    assert by_points["action"] == "keep 6 6"
    assert by_points["expected_score"] == pytest.approx(197.75)
    judged = coach.judge(state, "keep 6 6")
    assert judged.cost == pytest.approx(1.0 - by_points["win_chance"])
    assert judged.extra["expected_cost"] == 0.0  # the best by points, yet a priced mistake
    assert "percentage points" in judged.explanation


def test_two_players_chances_of_winning_add_up_to_one(
    solved: Callable[[str], Solution], late: RemainingDistributions
) -> None:
    coach = YahtzeeCoaching(RULES, 2, solved("yahtzee"), late)
    state = _last_turn((3, 4, 5, 5, 6))
    assert coach.evaluation(state, 0) + coach.evaluation(state, 1) == pytest.approx(1.0)


def test_a_finished_game_is_worth_a_win_a_tie_share_or_nothing(
    solved: Callable[[str], Solution],
) -> None:
    coach = YahtzeeCoaching(RULES, 3, solved("yahtzee"))
    full = [3, 6, 9, 12, 15, 18, 20, 0, 25, 30, 0, 0]
    cards = (_card([*full, 20]), _card([*full, 20]), _card([*full, 5]))
    over = YahtzeeState(RULES, cards, 0)
    assert over.is_terminal()
    assert [coach.evaluation(over, p) for p in range(3)] == [0.5, 0.5, 0.0]
    # three players: the field's table (ties shared), exact if every player then plays the
    # expected-score optimum
    assert coach.exact is True


def test_the_coach_refuses_another_games_position_or_player_count(
    solved: Callable[[str], Solution],
) -> None:
    coach = YahtzeeCoaching(RULES, 1, solved("yahtzee"))
    with pytest.raises(InvalidStateError, match="1 player"):
        coach.view(YahtzeeState.new(RULES, 2))
    with pytest.raises(InvalidStateError, match="not yatzy"):
        coach.view(YahtzeeState.new(preset("yatzy"), 1))
    with pytest.raises(InvalidStateError, match="1 to 4 players"):
        YahtzeeCoaching(RULES, 5, solved("yahtzee"))


def test_the_view_shows_dice_cards_and_bonus_progress(
    solved: Callable[[str], Solution],
) -> None:
    coach = YahtzeeCoaching(RULES, 2, solved("yahtzee"))
    view = coach.view(_last_turn((2, 3, 4, 6, 6)))
    assert view["dice"] == [2, 3, 4, 6, 6] and view["rolls_left"] == 2
    assert view["player"] == 1 and view["box_points"] == {"chance": 21}
    mine = view["cards"][1]
    assert mine["total"] == 173 and mine["upper_bonus"] == 35
    assert mine["upper_bonus_needed"] == 0
    assert view["unit"]["name"] == "chance of winning"
    assert view["note"].startswith("Exact if")


def test_the_registry_builds_the_coach_for_the_players_at_the_table() -> None:
    spec = load_game("yahtzee")
    assert spec.coaching is not None
    solo = spec.coaching(RULES)
    duel = spec.coaching(RULES)  # as the web layer builds it: rules only
    assert isinstance(solo, Coaching) and isinstance(duel, Coaching)
    solo.view(YahtzeeState.new(RULES, 1))
    duel.view(YahtzeeState.new(RULES, 2))  # the first position binds the player count
    assert (solo.unit.name, duel.unit.name) == ("expected points", "chance of winning")
    with pytest.raises(InvalidStateError, match="2 player"):
        duel.view(YahtzeeState.new(RULES, 3))


def test_the_final_report_separates_luck_from_the_points_lost(
    solved: Callable[[str], Solution],
) -> None:
    coach = YahtzeeCoaching(RULES, 1, solved("yahtzee"))
    session = Session.new("yahtzee", "yahtzee", ["human"], seed=11)
    judged = []
    for _ in range(6):  # the worst option six times: costly decisions on the record
        state = session.state
        worst = coach.rows(state)[-1]["action"]
        judged.append(coach.judge(state, worst))
        session.submit(worst)
    final = 140
    report = final_report(coach, [final], judged)
    lost = sum(j.cost for j in judged)
    assert report["expected_points_lost"] == pytest.approx(lost) and lost > 0
    # the final score = the optimum's expectation + luck - what the decisions cost
    assert final == pytest.approx(report["optimum_expected"] + report["luck"] - lost)
    assert sum(report["counts"].values()) == 6


def test_the_seats_of_a_game_bind_the_unit_before_any_position() -> None:
    from stratagem.core.coaching import coaching_for

    spec = load_game("yahtzee")
    duel = coaching_for(spec, RULES, ["human", "optimal"])
    solo = coaching_for(spec, RULES, ["human"])
    assert isinstance(duel, YahtzeeCoaching) and isinstance(solo, YahtzeeCoaching)
    assert (duel.players, duel.unit, solo.players, solo.unit) == (2, WIN_UNIT, 1, SOLO_UNIT)


def test_while_the_tables_are_not_ready_a_server_coaches_in_expected_points(
    solved: Callable[[str], Solution],
    tmp_path: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a server (no large builds in a request) with no remaining-score tables loaded or
    # cached: the chance of winning cannot be priced, and the game goes on with the
    # expected-score rows of the solved table, saying why (issue 35, item 4)
    from stratagem.core.tables import no_large_builds
    from stratagem.games.yahtzee import match
    from stratagem.games.yahtzee.coach import TablesNotReady

    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(match, "_TABLES", {})
    sol = solved("yahtzee")
    coach = YahtzeeCoaching(RULES, 2, sol)
    state = Session.new("yahtzee", "yahtzee", ["human", "optimal"], seed=5).state
    assert coach.for_now() is coach  # the terminal, the library: built where needed
    with no_large_builds():
        with pytest.raises(TablesNotReady):
            coach.rows(state)
        now = coach.for_now()
        assert now is not coach and now.unit == SOLO_UNIT
        assert "not ready" in now.note and "chance-of-winning column" in now.note
        rows = now.rows(state)
        advice = OptimalStrategy(sol).advise(state)
        assert [r["action"] for r in rows] == [str(a.action) for a in advice]
        assert [r["value"] for r in rows] == pytest.approx([a.value for a in advice])
        assert all("win_chance" not in r for r in rows)
        assert now.judge(state, rows[-1]["action"]).cost == pytest.approx(rows[-1]["cost"])
        assert now.view(state)["unit"]["percent"] is False


def test_once_the_tables_are_there_the_coach_prices_the_chance_of_winning_again(
    solved: Callable[[str], Solution], late: RemainingDistributions
) -> None:
    from stratagem.core.tables import no_large_builds

    coach = YahtzeeCoaching(RULES, 2, solved("yahtzee"), late)
    with no_large_builds():
        assert coach.for_now() is coach
        assert coach.for_now().unit == WIN_UNIT
