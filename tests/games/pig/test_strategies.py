"""Pig agents, exact evaluation against simulation, and play through the protocol."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from stratagem.core.agent import Advisor, Agent
from stratagem.core.errors import InvalidAgentError, InvalidRulesError, StratagemError
from stratagem.core.play import play
from stratagem.core.registry import make_agent
from stratagem.games.pig.rules import PigRules, preset
from stratagem.games.pig.solver import PigSolution, evaluate
from stratagem.games.pig.state import PigAction, PigState
from stratagem.games.pig.strategies import (
    HoldAt,
    KeepPace,
    OptimalAgent,
    RuleTable,
    agent_policies,
    simulate,
)

Solved = Callable[[PigRules], PigSolution]


def test_specs_make_the_named_agents(pig_solved: Solved, tmp_path: Path) -> None:
    rules = preset("pig")
    pig_solved(rules)  # into the session's cache, where the registry finds it
    optimal = make_agent("pig", rules, "optimal")
    assert isinstance(optimal, OptimalAgent) and optimal.solution.p_start > 0.5
    hold = make_agent("pig", rules, "hold:25")
    assert isinstance(hold, HoldAt) and (hold.n, hold.spec) == (25, "hold:25")
    assert make_agent("pig", rules, "hold:n=25").spec == "hold:25"
    pace = make_agent("pig", rules, "keep-pace:div=4")
    assert isinstance(pace, KeepPace) and (pace.base, pace.race, pace.div) == (21, 71, 4)
    table = tmp_path / "t.txt"
    table.write_text("# demo\nme=0-49 opp=0-99 hold=25\nme=0-99 opp=0-99 hold=20\n")
    agent = make_agent("pig", rules, f"table:{table}")
    assert isinstance(agent, RuleTable) and agent.decide(60, 0, 22) == "hold"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("greedy", "unknown agent 'greedy' for pig"),
        ("hold:x", "n must be a whole number 1..100000, got 'x'"),
        ("hold:0", "n must be a whole number 1..100000, got '0'"),
        ("hold:99999999999999999999999", "n must be a whole number 1..100000"),
        ("hold", "hold needs n=..."),
        ("keep-pace:speed=3", "keep-pace has no parameter 'speed'"),
        ("keep-pace:base=10000000000000000000000", "base must be a whole number 1..100000"),
        ("keep-pace:base=21,base=22", "sets the parameter 'base' twice"),
        ("keep-pace:div=0", "div must be a whole number 1..100000"),
        ("table:/no/such/file", "cannot read rule table"),
        ("mcts:sims=100000000000000000000", "sims must be a whole number 1..10000000"),
        ("mcts:expand=100000000000000000000", "expand must be a whole number 1..10000000"),
        ("mcts:rollout=hold0", "rollout must be random or holdN"),
        ("mcts:c=inf", "c must be a number 0.0..1000.0"),
    ],
)
def test_bad_specs_are_refused(spec: str, message: str) -> None:
    with pytest.raises(InvalidAgentError, match=message):
        make_agent("pig", "pig", spec)


def test_a_rule_table_file_over_the_size_limit_is_refused(tmp_path: Path) -> None:
    table = tmp_path / "big.txt"
    table.write_text("me=0-99 opp=0-99 hold=20\n" * 50_000)
    with pytest.raises(InvalidAgentError, match="larger than 1048576 bytes"):
        make_agent("pig", "pig", f"table:{table}")


def test_rule_tables_must_cover_every_position() -> None:
    with pytest.raises(InvalidRulesError, match="no row of the table covers my score 50"):
        RuleTable.parse("me=0-49 opp=0-99 hold=20\n", preset("pig"))
    with pytest.raises(InvalidRulesError, match="line 1: cannot read"):
        RuleTable.parse("hold at 20\n", preset("pig"))


def test_keep_pace_follows_the_published_rule() -> None:
    # Neller & Presser (2010): roll if either score >= 71, else hold at 21 + round((j - i) / 8).
    kp = KeepPace(preset("pig"))
    assert kp.decide(0, 0, 20) == "roll" and kp.decide(0, 0, 21) == "hold"
    assert kp.decide(10, 50, 25) == "roll" and kp.decide(10, 50, 26) == "hold"  # 21 + 5
    assert kp.decide(75, 0, 24) == "roll"  # racing to the goal
    assert kp.decide(90, 0, 10) == "hold"  # 100 reached


def test_optimal_agent_is_agent_and_advisor(pig_solved: Solved) -> None:
    agent = OptimalAgent(pig_solved(preset("pig")))
    assert isinstance(agent, Agent) and isinstance(agent, Advisor)
    state = PigState(preset("pig"), (0, 0), 0, 21)
    advice = agent.advise(state)
    assert advice[0].action == PigAction.HOLD and advice[1].regret > 0
    assert agent.act(state, np.random.default_rng(0)) == PigAction.HOLD


@pytest.mark.parametrize("catch", [False, True])
@pytest.mark.parametrize("opponent", ["hold:15", "keep-pace"])
def test_simulation_agrees_with_the_exact_evaluation(
    pig_solved: Solved, catch: bool, opponent: str
) -> None:
    rules = preset("pig-raab").with_options(catch_up_turn=catch)
    a = OptimalAgent(pig_solved(rules))
    b = make_agent("pig", rules, opponent)
    assert isinstance(b, HoldAt | KeepPace)
    exact = evaluate(rules, agent_policies(a), agent_policies(b))
    match = simulate(rules, a, b, 100_000, seed=3)
    p, se = match.p_a()
    assert abs(p - exact.coin) < 4 * se
    assert abs(match.a_wins_first / match.games_first - exact.a_first) < 4 * 0.0023


def test_simulation_is_reproducible(pig_solved: Solved) -> None:
    rules = preset("pig")
    a, b = OptimalAgent(pig_solved(rules)), HoldAt(rules, 20)
    assert simulate(rules, a, b, 5000, seed=9) == simulate(rules, a, b, 5000, seed=9)


def test_agents_playing_through_the_protocol_match_the_evaluation(pig_solved: Solved) -> None:
    rules = preset("pig-raab").with_options(goal=30, catch_up_turn=True)
    a, b = OptimalAgent(pig_solved(rules)), HoldAt(rules, 12)
    exact = evaluate(rules, agent_policies(a), agent_policies(b))
    rng = np.random.default_rng(5)
    wins, games = 0, 4000
    for g in range(games):
        seats = (a, b) if g % 2 == 0 else (b, a)
        returns = play(PigState.new(rules), seats, rng).returns
        wins += returns[0 if g % 2 == 0 else 1] == 1.0
    se = 0.5 / np.sqrt(games)
    assert abs(wins / games - exact.coin) < 4 * se


def test_a_hold_threshold_past_the_goal_is_refused_by_one_rule(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """Issue 33: the CLI took hold:101 on goal 100 while the page refused it. The range is
    checked where the agent is built (the CLI, the arena and the page all build it there)."""
    rules = preset("pig")
    assert make_agent("pig", rules, "hold:100").spec == "hold:100"
    with pytest.raises(StratagemError, match=r"must be 1\.\.100 \(the goal"):
        make_agent("pig", rules, "hold:101")
    with pytest.raises(StratagemError, match=r"must be 1\.\.10 \(the goal"):
        make_agent("pig", preset("piglet"), "hold:11")
    table = tmp_path / "t.txt"
    table.write_text("me=0-99 opp=0-99 hold=101\n")
    with pytest.raises(StratagemError, match=r"hold must be 1\.\.100"):
        make_agent("pig", rules, f"table:{table}")
