"""Every agent of every registered game (and of the recipe's Nim): its spec grammar fuzzed
from its own parameter declarations, and the agent it builds playing legal actions, its
advice (when it advises) consistent.

Two agents are built but not played here: Yahtzee's ``win`` (its remaining-score tables
take 1 GB and 90-140 s; a stand-in is built instead, as tests/games/yahtzee did, and
tests/games/yahtzee/test_winning.py plays the real one) and ``high-score`` (its table for
a target is built on the first move; tests/games/yahtzee/test_high_score.py plays it).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any
from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.core.agent import Advisor, Agent
from stratagem.core.errors import InvalidAgentError, InvalidRulesError
from stratagem.core.game import CHANCE, State, sample_chance
from stratagem.core.registry import AgentInfo, GameSpec
from tests.agent_specs import agent_or_refusal, specs
from tests.contract.games import GAMES, agent_names, contract_rules, registered
from tests.contract.specs import invalid_value, render, valid_specs

AGENTS = [
    pytest.param(game, name, id=f"{game}-{name}") for game in GAMES for name in agent_names(game)
]

NOT_PLAYED = {("yahtzee", "win"), ("yahtzee", "high-score")}

ADVICE_NOT_CHECKED = {
    ("yahtzee", p) for p in ("greedy", "yahtzee-only", "yahtzee-and-straights", "heuristic")
}
"""Advisors whose first advice computes a value table (tens of seconds a strategy): they
play here; tests/games/yahtzee/test_zoo.py and test_distribution.py check those values."""

MCTS_SIMS = 40
CHEAP = {
    **{(game, "mcts"): f"mcts:sims={MCTS_SIMS},seed=1" for game in GAMES},
    ("scorefour", "minimax"): "minimax:depth=2",
    ("scorefour", "decision-analysis"): "decision-analysis:depth=1",
    ("scorefour", "softmax"): "softmax:t=1",
    ("scorefour", "epsilon-greedy"): "epsilon-greedy:e=0.1",
    ("scrabble", "endgame"): "endgame:time=0.2",
    ("scrabble", "heuristic"): "heuristic:nodes=2048",
    ("scrabble", "equity"): "equity:nodes=2048",
    ("scrabble", "sim"): "sim:candidates=3,iterations=4,nodes=2048",
    ("pig", "hold"): "hold:10",
}
"""Specs with a small budget for the agents whose defaults search for seconds."""


@pytest.fixture(scope="module")
def rule_table(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A Pig rule table (``table:FILE``): hold at 20 everywhere."""
    path = tmp_path_factory.mktemp("contract") / "hold20.txt"
    path.write_text("me=0-99 opp=0-99 hold=20\n")
    return path


@contextmanager
def game_and_rules(name: str, agent: str | None = None) -> Iterator[tuple[GameSpec, Any]]:
    """The game (the recipe's registered for the duration) and the first rules the contract
    plays it under, with the Yahtzee win agent's tables replaced by a stand-in; Yahtzee's
    ``duel-optimal`` plays a reduced card only, from its table (solved here in 0.1 s)."""
    with ExitStack() as stack:
        game = stack.enter_context(registered(name))
        if name == "yahtzee":
            from stratagem.games.yahtzee import winning

            stack.enter_context(mock.patch.object(winning, "optimal_remaining", lambda s: STAND_IN))
        if (name, agent) == ("yahtzee", "duel-optimal"):
            from stratagem.games.yahtzee.duel import Run

            rules = game.rules_object(DUEL_RULES)
            Run(rules, ("max", "max")).solve()
            yield game, rules
            return
        _, make = contract_rules(name)[0]
        yield game, make(game)


DUEL_RULES = "yahtzee:boxes=ones+twos"
DUEL_REFUSALS = ("but the game is", "unknown box", "named twice", "needs at least one upper")
"""Why duel-optimal may refuse a valid spec: the boxes it names are not the game's card."""


STAND_IN = object()


def known_values(name: str, agent: str, table: Path) -> dict[str, tuple[str, ...]]:
    return {"file": (str(table),)} if (name, agent) == ("pig", "table") else {}


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
@pytest.mark.parametrize(("name", "agent"), AGENTS)
def test_valid_specs_build_agents(
    name: str, agent: str, rule_table: Path, data: st.DataObject
) -> None:
    with game_and_rules(name, agent) as (game, rules):
        info = game.agents[agent]
        spec = data.draw(valid_specs(name, info, known_values(name, agent, rule_table)))
        try:
            made = game.make_agent(rules, spec)
        except (InvalidAgentError, InvalidRulesError) as exc:
            # Inside its declared range a value may still not fit these rules (hold:N past
            # the goal) or this machine (a search tree larger than the memory): refused
            # before any work, naming the agent and the reason.
            message = str(exc)
            assert agent in message, message
            reasons = ("the goal", "would grow a search tree", *DUEL_REFUSALS)
            assert any(r in message for r in reasons), message
            return
        assert isinstance(made, Agent), f"{spec!r} gave {made!r}"


@settings(max_examples=25, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
@pytest.mark.parametrize(("name", "agent"), AGENTS)
def test_a_value_out_of_range_is_refused_naming_its_parameter(
    name: str, agent: str, data: st.DataObject
) -> None:
    with game_and_rules(name) as (game, rules):
        info = game.agents[agent]
        breakable = [p for p in info.params if invalid_value(p) is not None]
        if not breakable or data.draw(st.booleans()):
            own = {p.name for p in info.params}
            unknown = data.draw(
                st.from_regex(r"[a-z]{1,8}", fullmatch=True).filter(lambda k: k not in own)
            )
            with pytest.raises(InvalidAgentError, match=f"has no parameter '{unknown}'"):
                game.make_agent(rules, f"{agent}:{unknown}=1")
            return
        p = data.draw(st.sampled_from(breakable))
        value = data.draw(invalid_value(p))  # type: ignore[arg-type]
        with pytest.raises(InvalidAgentError, match=rf"agent {agent}: {p.name} must be"):
            game.make_agent(rules, render(info, {p.name: value}))


@settings(max_examples=60, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
@pytest.mark.parametrize("name", GAMES)
def test_any_text_gives_an_agent_or_a_clear_refusal(name: str, data: st.DataObject) -> None:
    with game_and_rules(name) as (game, rules):
        agent_or_refusal(game, rules, data.draw(specs(game)))


def decision_states(game: GameSpec, rules: Any, players: int, count: int, seed: int) -> list[State]:
    """``count`` decision states met in a random game (its first ones, then every few)."""
    rng = np.random.default_rng(seed)
    state = game.new_state(rules, players)
    met: list[State] = []
    while not state.is_terminal():
        if state.current_player == CHANCE:
            state = state.apply(sample_chance(state, rng))
            continue
        met.append(state)
        legal = state.legal_actions()
        state = state.apply(legal[int(rng.integers(len(legal)))])
    step = max(1, len(met) // count)
    return met[::step][:count]


@pytest.mark.parametrize(("name", "agent"), AGENTS)
def test_agents_play_legal_actions_and_advise_consistently(
    name: str, agent: str, rule_table: Path
) -> None:
    if (name, agent) in NOT_PLAYED:
        pytest.skip("built only (see the module's docstring)")
    with game_and_rules(name, agent) as (game, rules):
        info: AgentInfo = game.agents[agent]
        spec = CHEAP.get((name, agent), agent)
        if (name, agent) == ("pig", "table"):
            spec = f"table:{rule_table}"
        players = max(2, game.min_players, info.min_players)
        for state in decision_states(game, rules, players, 3, seed=len(agent)):
            made = game.make_agent(rules, spec)
            action = made.act(state, np.random.default_rng(0))
            assert action in state.legal_actions(), f"{spec} played {action!r}, not a legal action"
            if isinstance(made, Advisor) and (name, agent) not in ADVICE_NOT_CHECKED:
                advice = made.advise(state)
                check_advice(advice, state)
                if agent == "mcts":  # every simulation counted once, under a root action
                    assert sum(a.n or 0 for a in advice) == MCTS_SIMS


def check_advice(advice: list[Any], state: State) -> None:
    """Advice lists legal actions once each, best first (untried ones last, without a
    value); regrets are the best value minus each; sampled statistics agree with each
    other (se = sd / sqrt(n), the histogram counts n games with the stated mean)."""
    legal = set(state.legal_actions())
    assert advice, "no advice at a decision"
    actions = [a.action for a in advice]
    assert len(set(actions)) == len(actions) and set(actions) <= legal
    valued = [a for a in advice if not math.isnan(a.value)]
    assert advice[: len(valued)] == valued, "an option without a value listed before one with"
    values = [a.value for a in valued]
    assert values == sorted(values, reverse=True), "advice not best first"
    if not valued:
        return
    assert valued[0].regret == 0.0
    for a in valued:
        assert a.regret == pytest.approx(valued[0].value - a.value, abs=1e-9)
        if a.n and a.sd is not None and a.se is not None:
            assert a.se == pytest.approx(a.sd / math.sqrt(a.n))
        if a.histogram is not None and a.n:
            assert sum(a.histogram.values()) == a.n
            mean = sum(k * v for k, v in a.histogram.items()) / a.n
            assert a.value == pytest.approx(mean)
