"""Score Four for core: how a game starts, and every agent with its parameters.

``stratagem arena agents --game scorefour`` lists them; the command line, the
arena and the web page all build Score Four agents from here.
"""

from __future__ import annotations

import numpy as np

from stratagem.algorithms import mcts
from stratagem.algorithms.decision_analysis import DecisionAnalysisConfig
from stratagem.algorithms.mcts_compiled import FastGame
from stratagem.core.agent import Agent, RandomAgent
from stratagem.core.game import State
from stratagem.core.registry import AgentInfo, GameSpec, Lazy, Param, WebExtras, agent_table
from stratagem.games.scorefour.board import CELLS
from stratagem.games.scorefour.coach import coaching
from stratagem.games.scorefour.players import (
    MAX_DA_DEPTH,
    EpsilonGreedyAgent,
    MinimaxAgent,
    SoftmaxAgent,
    decision_analysis,
)
from stratagem.games.scorefour.state import RULES, ScoreFourState

MAX_SECONDS = 3600.0
"""Longest time per move a minimax agent may take."""
MCTS_C = 1.41
"""The MCTS agent's default exploration constant: with 0.71 (the generic default) a
blocking move whose first playouts lost can starve among 16 moves; at 5,000 simulations
c = 1.41 beat c = 0.71 in 68.8% (60.0-76.4%) of 120 games and drew level with c = 2.
Tactical playouts cost about twice the random ones; at 10,000 simulations they beat random
ones at 20,000 in 65.0% (55.3-73.6%) of 100 games, hence the default."""


def _rules(name: str) -> str:
    return name  # one rule set; GameSpec.check_rules has already checked the name


def _minimax(rules: str, depth: int | None, seconds: float | None) -> Agent:
    if depth is None and seconds is None:
        depth = 4
    return MinimaxAgent(depth=depth, seconds=seconds)


def _decision_analysis(rules: str, depth: int, f0: float, beta: float, keep: int) -> Agent:
    return decision_analysis(DecisionAnalysisConfig(depth=depth, f0=f0, beta=beta, keep=keep))


def _fast(rules: str) -> FastGame:
    from stratagem.games.scorefour.fast import fast_game  # compiled: loaded on first use

    return fast_game(rules)


def _rollout(state: State, policy: str, rng: np.random.Generator) -> tuple[float, ...]:
    from stratagem.games.scorefour.fast import rollout

    return rollout(state, policy, rng)


AGENTS = (
    AgentInfo(
        "minimax", "alpha-beta with the paper's evaluation (numba)", _minimax,
        (Param("depth", int, None, "plies (4 when neither is set; with seconds: the most plies)",
               low=1, high=CELLS, web_high=8),
         Param("seconds", float, None, "time per move, iterative deepening",
               low=0.0, low_open=True, high=MAX_SECONDS, web_high=30.0)),
    ),
    AgentInfo(
        "decision-analysis", "models the opponent's skill and learns it (Tsukamoto 1979)",
        _decision_analysis,
        (Param("depth", int, 2, "look-ahead plies", low=1, high=MAX_DA_DEPTH),
         Param("f0", float, 1.0, "prior skill estimate", low=0.0, high=1.0),
         Param("beta", float, 0.0, "learning rate", low=0.0, high=1.0),
         Param("keep", int, 3, "opponent replies modelled", low=1, high=16)),
    ),
    AgentInfo(
        "softmax", "quantal response over one-ply normalised values",
        lambda rules, t: SoftmaxAgent(t),
        (Param("t", float, None, "temperature on the 0..1 value scale", low=0.0, low_open=True,
               high=1e6, required=True),),
    ),
    AgentInfo(
        "epsilon-greedy", "random move with probability e, else the one-ply best",
        lambda rules, e: EpsilonGreedyAgent(e),
        (Param("e", float, None, "probability of a random move", low=0.0, high=1.0,
               required=True),),
    ),
    AgentInfo("random", "uniformly random legal move", lambda rules: RandomAgent()),
    mcts.agent_info(
        "Monte Carlo tree search (UCT; compiled tree and playouts)",
        Param("rollout", str, "tactical", "playout policy: tactical (win at once, else block "
              "the opponent's immediate win, else random), or random",
              choices=("random", "tactical")),
        make_fast=_fast,
        rollout_fn=_rollout,
        c=MCTS_C,
    ),
)  # fmt: skip

GAME = GameSpec(
    name="scorefour",
    summary="four in a row on a 4x4x4 grid of pegs (Score Four)",
    rules_text=Lazy("stratagem.games.scorefour.rules_text:all_rules"),
    cli=Lazy("stratagem.games.scorefour.cli:app"),
    codec=Lazy("stratagem.interop.codecs:SCORE_FOUR"),
    web=WebExtras(page="scorefour.html"),  # no routes of its own: the one REST shape serves it
    presets=(RULES,),
    default_rules=RULES,
    min_players=2,
    max_players=2,
    rules=_rules,
    new=ScoreFourState.new,
    result="win",
    agents=agent_table(*AGENTS),
    title="Score Four",
    coaching=coaching,
)
