"""Score Four agents: minimax, decision analysis, and simulated opponents of known skill.

The simulated opponents look one ply ahead with the paper's evaluation and
normalise their moves' values to f in [0, 1] (1 = their best move, 0 = their
worst), the scale on which decision analysis measures skill:

- :class:`SoftmaxAgent` (quantal response) plays move i with probability
  proportional to ``exp(f_i / temperature)``;
- :class:`EpsilonGreedyAgent` plays a uniformly random move with probability
  ``epsilon``, else its best move.

Their true skill is the average f of the moves they play (:func:`move_quality`).

>>> from stratagem.games.scorefour.state import ScoreFourState
>>> import numpy as np
>>> EpsilonGreedyAgent(0.0).act(ScoreFourState.new(), np.random.default_rng(0)) in (0, 3, 12, 15)
True
"""

from __future__ import annotations

import numpy as np

from stratagem.algorithms.decision_analysis import (
    DecisionAnalysis,
    DecisionAnalysisConfig,
    normalised_values,
)
from stratagem.core.agent import Advice, with_regrets
from stratagem.core.errors import IllegalActionError, InvalidRulesError
from stratagem.core.game import Action, State, expect_state
from stratagem.games.scorefour.evaluation import PAPER, EvalParams, child_values, evaluate
from stratagem.games.scorefour.search import Minimax, check_budget
from stratagem.games.scorefour.state import ScoreFourState


def _state(state: State) -> ScoreFourState:
    return expect_state(state, ScoreFourState, "a Score Four agent")


def move_qualities(
    state: ScoreFourState, params: EvalParams = PAPER
) -> tuple[list[int], np.ndarray]:
    """The legal moves and their f (one ply, the mover's evaluation, normalised)."""
    moves, values = child_values(state, state.player, params)
    return moves, normalised_values(values)


def move_quality(state: ScoreFourState, move: int, params: EvalParams = PAPER) -> float:
    """f of ``move``: 1 for the mover's best move by one-ply evaluation, 0 for the worst."""
    moves, f = move_qualities(state, params)
    if move not in moves:
        raise IllegalActionError(f"{move!r} is not a legal move here")
    return float(f[moves.index(move)])


DEPTH_TIME_LIMIT = 60.0
"""A search given only a depth still stops after this many seconds (with the deepest
finished depth's move): the arena and the command line alike."""
MAX_DA_DEPTH = 4
"""Decision analysis looks at most this many plies ahead (its tree grows 16-fold a ply)."""


class MinimaxAgent:
    """Alpha-beta to a fixed depth, or iterative deepening for ``seconds`` per move."""

    def __init__(
        self,
        depth: int | None = 4,
        seconds: float | None = None,
        params: EvalParams = PAPER,
        table_bits: int = 20,
    ) -> None:
        if depth is None and seconds is None:
            raise InvalidRulesError("minimax needs a depth or a time per move")
        check_budget(depth, seconds)  # refuse before the first move, not at it
        self.depth, self.seconds = depth, seconds
        self.searcher = Minimax(params, table_bits)
        self.last_depth = 0

    @property
    def spec(self) -> str:
        if self.seconds is not None:
            return f"minimax:seconds={self.seconds}"
        return f"minimax:depth={self.depth}"

    def act(self, state: State, rng: np.random.Generator) -> Action:
        # a depth-only search still ends: after DEPTH_TIME_LIMIT, the deepest finished depth
        seconds = self.seconds if self.seconds is not None else DEPTH_TIME_LIMIT
        result = self.searcher.search(_state(state), self.depth, seconds)
        self.last_depth = result.depth
        return result.move

    def advise(self, state: State) -> list[Advice]:
        s = _state(state)
        values = self.searcher.move_values(s, self.depth or 4)
        return with_regrets(values.items())


def decision_analysis(
    config: DecisionAnalysisConfig | None = None, params: EvalParams = PAPER
) -> DecisionAnalysis:
    """The game-independent decision-analysis agent wired to Score Four's evaluation."""

    def value(state: State, player: int) -> float:
        return evaluate(_state(state), player, params)

    def children(state: State, player: int) -> tuple[list[int], np.ndarray]:
        return child_values(_state(state), player, params)

    return DecisionAnalysis(value, config, children)


class SoftmaxAgent:
    """Quantal response: move i with probability proportional to ``exp(f_i / temperature)``."""

    def __init__(self, temperature: float, params: EvalParams = PAPER) -> None:
        if not temperature > 0:
            raise InvalidRulesError(f"the temperature must be positive, got {temperature}")
        self.temperature, self.params = temperature, params

    @property
    def spec(self) -> str:
        return f"softmax:t={self.temperature}"

    def act(self, state: State, rng: np.random.Generator) -> Action:
        moves, f = move_qualities(_state(state), self.params)
        z = f / self.temperature
        p = np.exp(z - z.max())
        return moves[int(rng.choice(len(moves), p=p / p.sum()))]


class EpsilonGreedyAgent:
    """A random move with probability ``epsilon``, else the best by one-ply evaluation."""

    def __init__(self, epsilon: float, params: EvalParams = PAPER) -> None:
        if not 0.0 <= epsilon <= 1.0:
            raise InvalidRulesError(f"epsilon is a probability in [0, 1], got {epsilon}")
        self.epsilon, self.params = epsilon, params

    @property
    def spec(self) -> str:
        return f"epsilon-greedy:e={self.epsilon}"

    def act(self, state: State, rng: np.random.Generator) -> Action:
        moves, f = move_qualities(_state(state), self.params)
        if rng.random() < self.epsilon:
            return moves[int(rng.integers(len(moves)))]
        best = [m for m, q in zip(moves, f, strict=True) if q >= 1.0 - 1e-12]
        return best[int(rng.integers(len(best)))]
