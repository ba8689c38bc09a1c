"""``stratagem pig``: every numeric option has a range checked before any work."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.cli_types import GAMES_MAX, SEED_MAX
from stratagem.games.pig.rules import MAX_GOAL, PigRules, preset
from stratagem.games.pig.solver import PigSolution
from stratagem.games.pig.thumb import MAX_ROWS
from tests.cli_outcome import allowed, outcome

HUGE = st.integers(-(10**30), 10**30)


@pytest.fixture(autouse=True)
def _cache(pig_solved: Callable[[PigRules], PigSolution]) -> None:
    pig_solved(preset("piglet"))  # and the private cache for the CLI


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["simulate", "--seed", "-1"], "--seed"),
        (["simulate", "--games", str(GAMES_MAX + 1)], "--games"),
        (["simulate", "--games", "0"], "--games"),
        (["play", "--seed", str(SEED_MAX + 1)], "--seed"),
        (["play", "--rules", "piglet", "--ai", "hold:11"], "1..10"),
        (["play", "--ai", "nobody"], "unknown agent 'nobody'"),
        (["rules", "--max-rows", str(MAX_ROWS + 1)], "--max-rows"),
        (["solve", "--goal", str(MAX_GOAL + 1)], "--goal"),
        (["solve", "--faces", "1"], "--faces"),
    ],
)
def test_out_of_range_options_are_usage_errors(args: list[str], message: str) -> None:
    code, output = outcome(["pig", *args])
    assert code == 2 and message in output


def test_a_huge_turn_total_is_refused_at_once() -> None:
    code, output = outcome(
        ["pig", "value", "--rules", "piglet", "--me", "1", "--opp", "0", "--turn", str(10**30)]
    )
    assert code == 2 and "turn total is 0..8" in output


@settings(max_examples=40, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(me=HUGE | st.integers(0, 12), opp=HUGE | st.integers(0, 12), turn=HUGE | st.integers(0, 12))
def test_value_answers_or_refuses_any_numbers(me: int, opp: int, turn: int) -> None:
    code, output = allowed(
        ["pig", "value", "--rules", "piglet", "--me", str(me), "--opp", str(opp),
         "--turn", str(turn), "--json"]
    )  # fmt: skip
    if code == 0:
        assert 0 <= json.loads(output)["result"]["p_win"] <= 1


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    games=st.integers(1, 30) | HUGE,
    seed=st.integers(0, 2**70) | HUGE,
    a=st.sampled_from(["hold:1", "hold:0", "keep-pace", "x"]),
)
def test_simulate_answers_or_refuses(games: int, seed: int, a: str) -> None:
    if 30 < games <= GAMES_MAX:
        games = 30  # keep the property fast: the large valid counts do the same work
    code, output = allowed(
        ["pig", "simulate", "--rules", "piglet", "--a", a, "--b", "hold:2",
         "--games", str(games), "--seed", str(seed), "--json"]
    )  # fmt: skip
    if code == 0:
        data = json.loads(output)["result"]
        assert data["p_a"] is None or 0 <= data["p_a"] <= 1


def test_one_game_has_no_rate_for_the_role_not_played_and_no_z() -> None:
    code, output = outcome(
        ["pig", "simulate", "--rules", "piglet", "--a", "hold:1", "--b", "hold:2",
         "--games", "1", "--json"]
    )  # fmt: skip
    data = json.loads(output)["result"]
    assert code == 0 and data["p_a_second"] is None and data["z"] is None and data["se"] is None
    code, output = outcome(
        ["pig", "simulate", "--rules", "piglet", "--a", "hold:1", "--b", "hold:2", "--games", "1"]
    )
    assert code == 0 and "n too small" in output


def test_rules_stops_when_no_row_can_be_added() -> None:
    code, output = outcome(["pig", "rules", "--rules", "coin-3", "--max-rows", "16", "--json"])
    assert code == 0 and json.loads(output)["result"]["cost"] >= 0


ODD = ["--goal", "30", "--faces", "9", "--bust", "4,5,6,7,8", "--bust-scores-one",
       "--catch-up-turn"]  # fmt: skip


@pytest.mark.parametrize("command", ["evaluate", "simulate", "rules"])
def test_a_variant_whose_optimum_is_no_threshold_is_handled(command: str) -> None:
    """Issue 33: these said "the optimal play past the goal is not a threshold at 1 score
    pairs" while `pig solve` worked: past the goal the starter's optimum here holds at
    one total and rolls on at a higher one, and a policy now lists where it changes."""
    args = ["--a", "optimal", "--b", "optimal"] if command != "rules" else ["--max-rows", "1"]
    if command == "simulate":
        args += ["--games", "2000"]
    code, output = outcome(["pig", command, *ODD, *args, "--json"])
    assert code == 0, output
    if command == "evaluate":  # the optimum against itself: the solved P(0, 0, 0)
        solved = json.loads(outcome(["pig", "solve", *ODD, "--json"])[1])["result"]["p_start"]
        assert json.loads(output)["result"]["a_first"] == pytest.approx(solved, abs=1e-12)


def test_the_optimum_past_the_goal_lists_where_its_choice_changes() -> None:
    from stratagem.games.pig.cli import make_rules
    from stratagem.games.pig.solver import solve

    rules = make_rules("pig", 30, 9, "4,5,6,7,8", True, True)
    changes = solve(rules, use_cache=False).policy(True).thresh
    assert changes.shape[2] == 3  # hold, roll on, hold again at some score pair
