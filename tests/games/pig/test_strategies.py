"""Pig agents, exact evaluation against simulation, and play through the protocol."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from stratagem.core.agent import Advisor, Agent
from stratagem.core.errors import InvalidRulesError
from stratagem.core.game import CHANCE
from stratagem.games.pig.rules import PigRules, preset
from stratagem.games.pig.solver import PigSolution, evaluate
from stratagem.games.pig.state import PigAction, PigState
from stratagem.games.pig.strategies import (
    HoldAt,
    KeepPace,
    OptimalAgent,
    RuleTable,
    agent_policies,
    parse_agent,
    simulate,
)

Solved = Callable[[PigRules], PigSolution]


def test_specs_make_the_named_agents(pig_solved: Solved, tmp_path: Path) -> None:
    rules = preset("pig")
    assert isinstance(parse_agent("optimal", rules, pig_solved(rules)), OptimalAgent)
    assert parse_agent("hold:25", rules).spec == "hold:25"
    assert isinstance(parse_agent("keep-pace", rules), KeepPace)
    table = tmp_path / "t.txt"
    table.write_text("# demo\nme=0-49 opp=0-99 hold=25\nme=0-99 opp=0-99 hold=20\n")
    agent = parse_agent(f"table:{table}", rules)
    assert isinstance(agent, RuleTable) and agent.decide(60, 0, 22) == "hold"


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("greedy", "unknown strategy 'greedy'"),
        ("hold:x", "hold:N needs a whole number"),
        ("hold:0", "N >= 1"),
        ("keep-pace:speed=3", "keep-pace takes base="),
        ("table:/no/such/file", "cannot read rule table"),
    ],
)
def test_bad_specs_are_refused(spec: str, message: str) -> None:
    with pytest.raises(InvalidRulesError, match=message):
        parse_agent(spec, preset("pig"))


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
    b = parse_agent(opponent, rules)
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
        s = PigState.new(rules)
        while not s.is_terminal():
            if s.current_player == CHANCE:
                s = s.apply(int(rng.integers(1, rules.faces + 1)))
            else:
                s = s.apply(seats[s.current_player].act(s, rng))
        wins += s.returns()[0 if g % 2 == 0 else 1] == 1.0
    se = 0.5 / np.sqrt(games)
    assert abs(wins / games - exact.coin) < 4 * se
