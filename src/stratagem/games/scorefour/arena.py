"""Score Four in the arena: agent factories (``stratagem arena agents --game scorefour``)."""

from __future__ import annotations

from collections.abc import Callable

from stratagem.algorithms.decision_analysis import DecisionAnalysisConfig
from stratagem.core.agent import Agent, RandomAgent
from stratagem.core.arena import AgentFactory, AgentInfo, AgentSpec, ArenaError, GameSpec
from stratagem.core.errors import StratagemError
from stratagem.games.scorefour.players import (
    EpsilonGreedyAgent,
    MinimaxAgent,
    SoftmaxAgent,
    decision_analysis,
)
from stratagem.games.scorefour.state import ScoreFourState


def _number(spec: AgentSpec, key: str, default: str | None, kind: Callable[[str], float]) -> float:
    text = spec.param(key, default)
    if text is None:
        raise ArenaError(f"agent {spec.name} needs {key}=...")
    try:
        return kind(text)
    except ValueError:
        raise ArenaError(f"{spec.name}: {key} must be a number, got {text!r}") from None


def _guard(make: Callable[[AgentSpec], Agent]) -> AgentFactory:
    def factory(rules: str, spec: AgentSpec) -> Agent:
        try:
            return make(spec)
        except StratagemError as exc:
            raise ArenaError(str(exc)) from None

    return factory


def _minimax(spec: AgentSpec) -> Agent:
    if spec.param("seconds") is None:
        return MinimaxAgent(depth=int(_number(spec, "depth", "4", int)))
    depth = int(_number(spec, "depth", None, int)) if spec.param("depth") is not None else None
    return MinimaxAgent(depth=depth, seconds=_number(spec, "seconds", None, float))


def _decision_analysis(spec: AgentSpec) -> Agent:
    config = DecisionAnalysisConfig(
        depth=int(_number(spec, "depth", "2", int)),
        f0=_number(spec, "f0", "1.0", float),
        beta=_number(spec, "beta", "0.0", float),
        keep=int(_number(spec, "keep", "3", int)),
    )
    return decision_analysis(config)


GAME = GameSpec(
    name="scorefour",
    presets=("scorefour",),
    default_rules="scorefour",
    min_players=2,
    max_players=2,
    new_state=lambda rules, players: ScoreFourState.new(),
    result="win",
    agents={
        "minimax": AgentInfo(
            "minimax", "alpha-beta with the paper's evaluation (numba)", _guard(_minimax),
            params={"depth": "plies (4; with seconds: the most plies)",
                    "seconds": "time per move, iterative deepening"},
        ),
        "decision-analysis": AgentInfo(
            "decision-analysis", "models the opponent's skill and learns it (Tsukamoto 1979)",
            _guard(_decision_analysis),
            params={"depth": "look-ahead plies (2)", "f0": "prior skill estimate (1.0)",
                    "beta": "learning rate (0)", "keep": "opponent replies modelled (3)"},
        ),
        "softmax": AgentInfo(
            "softmax", "quantal response over one-ply normalised values",
            _guard(lambda s: SoftmaxAgent(_number(s, "t", None, float))),
            params={"t": "temperature on the 0..1 value scale"},
        ),
        "epsilon-greedy": AgentInfo(
            "epsilon-greedy", "random move with probability e, else the one-ply best",
            _guard(lambda s: EpsilonGreedyAgent(_number(s, "e", None, float))),
            params={"e": "probability of a random move"},
        ),
        "random": AgentInfo("random", "uniformly random legal move", lambda r, s: RandomAgent()),
    },
)  # fmt: skip
