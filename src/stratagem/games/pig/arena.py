"""Pig in the arena: presets and agent factories (``stratagem arena agents --game pig``)."""

from __future__ import annotations

from stratagem.algorithms.mcts import MCTS, MCTSConfig
from stratagem.core.agent import Agent, RandomAgent
from stratagem.core.arena import AgentInfo, AgentSpec, ArenaError, GameSpec
from stratagem.core.errors import StratagemError
from stratagem.games.pig.rules import PRESETS, preset
from stratagem.games.pig.solver import solve
from stratagem.games.pig.state import PigState
from stratagem.games.pig.strategies import parse_agent


def _pig_agent(rules: str, spec: AgentSpec) -> Agent:
    r = preset(rules)
    text = str(spec)
    try:
        return parse_agent(text, r, solve(r) if spec.name == "optimal" else None)
    except StratagemError as exc:
        raise ArenaError(str(exc)) from None


def _mcts(rules: str, spec: AgentSpec) -> Agent:
    from stratagem.games.pig.fast import fast_game
    from stratagem.games.pig.rollout import rollout

    try:
        config = MCTSConfig.from_spec(",".join(f"{k}={v}" for k, v in spec.params))
        return MCTS.from_config(config, rollout_fn=rollout, fast=fast_game(preset(rules)))
    except StratagemError as exc:
        raise ArenaError(str(exc)) from None


def _random(rules: str, spec: AgentSpec) -> Agent:
    return RandomAgent()


GAME = GameSpec(
    name="pig",
    presets=tuple(PRESETS),
    default_rules="pig",
    min_players=2,
    max_players=2,
    new_state=lambda rules, players: PigState.new(preset(rules)),
    result="win",
    agents={
        "optimal": AgentInfo("optimal", "maximises the probability of winning (exact)", _pig_agent),
        "hold": AgentInfo("hold", "hold at turn total N (or at the goal)", _pig_agent,
                          positional="N"),
        "keep-pace": AgentInfo(
            "keep-pace", "Neller & Presser's keep pace and end race", _pig_agent,
            params={"base": "hold threshold at equal scores (21)",
                    "race": "roll to the goal once either score reaches it (71)",
                    "div": "score difference per extra point of threshold (8)"},
        ),
        "table": AgentInfo("table", "a rule table file (stratagem pig rules)", _pig_agent,
                           positional="FILE"),
        "random": AgentInfo("random", "uniformly random legal action", _random),
        "mcts": AgentInfo(
            "mcts", "Monte Carlo tree search with chance nodes (compiled tree and playouts)", _mcts,
            params={"c": "exploration constant on min-max normalised values (0.71)",
                    "sims": "simulations per decision (2500)",
                    "rollout": "playout policy: random, holdN (e.g. hold20) (random)",
                    "expand": "visits before a node below the root grows children (1)",
                    "seed": "seed of advise(); act() uses the arena's generator"},
        ),
    },
)  # fmt: skip
