"""Decision analysis against a fallible opponent (Tsukamoto, Yamada and Terano, IJCAI 1979).

Minimax assumes the opponent always finds its best reply. Decision analysis
treats the reply as a chance event instead: the opponent's replies are ranked
by the evaluation and normalised,

    f_i = (U(S_i) - U(S_n)) / (U(S_1) - U(S_n))      (1 for the best, 0 for the worst),

the best three are kept, and they get the maximum-entropy probabilities whose
expected f equals the current estimate ``f`` of the opponent's skill:
``p_i = exp(lam * f_i) / sum_j exp(lam * f_j)`` with ``lam`` solved so that
``sum_i p_i f_i = f``. The tree is folded back by maximising at one's own
nodes and averaging at the opponent's. After every opponent move the estimate
learns from the move actually played: ``f <- (1 - beta) f + beta f_k``.

Nothing here knows a game: it needs the state protocol and an evaluation
``evaluate(state, player)`` that is zero-sum (``evaluate(s, a) = -evaluate(s, b)``).
A game may pass ``child_values(state, player)``, the evaluations of all
children in one call, to speed up the last ply.

>>> max_entropy_probabilities([1.0, 0.5, 0.0], 0.5).round(3).tolist()
[0.333, 0.333, 0.333]
>>> round(update_skill(1.0, 0.5, 0.05), 3)
0.975
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from stratagem.core.agent import Advice, with_regrets
from stratagem.core.errors import InvalidRulesError, StratagemError
from stratagem.core.game import CHANCE, Action, State

Evaluate = Callable[[State, int], float]
ChildValues = Callable[[State, int], tuple[Sequence[Action], np.ndarray]]
_TOL = 1e-12


def normalised_values(values: Sequence[float] | np.ndarray) -> np.ndarray:
    """``f_i = (v_i - min v) / (max v - min v)``: 1 for the best option, 0 for the worst.

    When every option is worth the same, each gets f = 1 (any of them is best).
    """
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0:
        raise StratagemError("no options to normalise")
    hi, lo = float(v.max()), float(v.min())
    if hi - lo <= _TOL * max(1.0, abs(hi)):
        return np.ones_like(v)
    return (v - lo) / (hi - lo)


def _softmax(f: np.ndarray, lam: float) -> np.ndarray:
    z = lam * f
    w = np.exp(z - z.max())
    return w / w.sum()  # type: ignore[no-any-return]


def max_entropy_probabilities(f: Sequence[float] | np.ndarray, skill: float) -> np.ndarray:
    """The maximum-entropy distribution over options with values ``f`` whose mean f is ``skill``.

    ``skill`` outside ``[min f, max f]`` is moved to the nearer end (the paper: when f is
    below f_3, use f_3); at an end the probability is shared equally by the tied options
    there. Options of equal f always get equal probability.
    """
    fs = np.asarray(f, dtype=np.float64)
    if fs.size == 0:
        raise StratagemError("no options to weigh")
    if not math.isfinite(skill):
        raise StratagemError(f"the skill estimate must be a number, got {skill!r}")
    hi, lo = float(fs.max()), float(fs.min())
    if hi - lo <= _TOL:
        return np.full(fs.size, 1.0 / fs.size)
    target = min(max(skill, lo), hi)
    if target >= hi - 1e-9:
        top = (fs >= hi - _TOL).astype(np.float64)
        return top / top.sum()  # type: ignore[no-any-return]
    if target <= lo + 1e-9:
        bottom = (fs <= lo + _TOL).astype(np.float64)
        return bottom / bottom.sum()  # type: ignore[no-any-return]

    def excess(lam: float) -> float:
        return float(_softmax(fs, lam) @ fs) - target

    # The mean rises monotonically with lam; widen the bracket until it holds the target.
    span = 1.0 / (hi - lo)
    a, b = -span, span
    while excess(a) > 0:
        a *= 2
    while excess(b) < 0:
        b *= 2
    # Imported here: scipy.optimize would add about 0.2 s to every `stratagem` command.
    from scipy.optimize import brentq

    lam = brentq(excess, a, b, xtol=1e-12, rtol=1e-12)
    return _softmax(fs, lam)


def reply_probabilities(
    values: Sequence[float] | np.ndarray, skill: float, keep: int = 3
) -> np.ndarray:
    """The modelled opponent's chance of each reply, from its own values of the replies.

    The replies are normalised over all of them, the best ``keep`` are kept (replies
    tied with the last one kept are kept too, so the order of equal moves does not
    matter), and the kept ones get :func:`max_entropy_probabilities`; the rest get 0.
    """
    if keep < 1:
        raise InvalidRulesError(f"keep must be at least 1, got {keep}")
    f = normalised_values(values)
    order = np.argsort(-f, kind="stable")
    cut = f[order[min(keep, f.size) - 1]]
    kept = f >= cut - _TOL
    probs = np.zeros(f.size)
    probs[kept] = max_entropy_probabilities(f[kept], skill)
    return probs


def update_skill(skill: float, f_k: float, beta: float) -> float:
    """``(1 - beta) * skill + beta * f_k``: the estimate after seeing a move of value ``f_k``."""
    return (1.0 - beta) * skill + beta * f_k


@dataclass(frozen=True)
class DecisionAnalysisConfig:
    """Look-ahead in plies, the prior skill ``f0``, the learning rate ``beta``, replies kept."""

    depth: int = 2
    f0: float = 1.0
    beta: float = 0.0
    keep: int = 3

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise InvalidRulesError(f"the look-ahead must be at least 1 ply, got {self.depth}")
        if not 0.0 <= self.f0 <= 1.0:
            raise InvalidRulesError(f"f0 is a normalised value in [0, 1], got {self.f0}")
        if not 0.0 <= self.beta <= 1.0:
            raise InvalidRulesError(f"beta is a learning rate in [0, 1], got {self.beta}")
        if self.keep < 1:
            raise InvalidRulesError(f"keep must be at least 1, got {self.keep}")


class DecisionAnalysis:
    """A two-player agent that models its opponent's skill and learns it during the game.

    As an arena agent it recognises the opponent's move by finding which legal move
    leads from the position it left to the one it is given; a position that is not
    such a child starts a new game (the estimate goes back to ``f0``). ``trace`` lists
    the estimate after each update of the current game.
    """

    def __init__(
        self,
        evaluate: Evaluate,
        config: DecisionAnalysisConfig | None = None,
        child_values: ChildValues | None = None,
    ) -> None:
        self.evaluate = evaluate
        self.config = config or DecisionAnalysisConfig()
        self.child_values = child_values
        self.skill = self.config.f0
        self.trace: list[float] = []
        self.observed: list[float] = []
        self._left: State | None = None

    @property
    def spec(self) -> str:
        c = self.config
        return f"decision-analysis:depth={c.depth},f0={c.f0},beta={c.beta}"

    def reset(self) -> None:
        """Start a new game: the estimate goes back to ``f0``."""
        self.skill = self.config.f0
        self.trace = []
        self.observed = []
        self._left = None

    def begin(self, state: State) -> None:
        """Start a new game at ``state`` with the opponent to move (its move will be learnt)."""
        self.reset()
        self._left = state

    def _children_values(self, state: State, player: int) -> tuple[list[Action], np.ndarray]:
        if self.child_values is not None:
            actions, values = self.child_values(state, player)
            return list(actions), np.asarray(values, dtype=np.float64)
        actions = list(state.legal_actions())
        values = np.array([self.evaluate(state.apply(a), player) for a in actions])
        return actions, values

    def move_value(self, state: State, action: Action) -> float:
        """f of ``action`` among all legal moves of the player to move (one ply, by evaluation)."""
        mover = state.current_player
        actions, values = self._children_values(state, mover)
        if action not in actions:
            raise StratagemError(f"{action!r} is not a legal move here")
        return float(normalised_values(values)[actions.index(action)])

    def observe(self, state: State, action: Action) -> float:
        """Learn from the opponent playing ``action`` in ``state``; returns its f_k."""
        f_k = self.move_value(state, action)
        self.observed.append(f_k)
        self.skill = update_skill(self.skill, f_k, self.config.beta)
        self.trace.append(self.skill)
        return f_k

    def _catch_up(self, state: State) -> None:
        left = self._left
        if left is not None and not left.is_terminal():
            for action in left.legal_actions():
                if left.apply(action) == state:
                    self.observe(left, action)
                    return
        self.reset()

    def value(self, state: State, me: int, depth: int) -> float:
        """The decision-analytic value of ``state`` for ``me``, looking ``depth`` plies ahead."""
        if state.is_terminal() or depth <= 0:
            return self.evaluate(state, me)
        mover = state.current_player
        if mover == CHANCE:
            return sum(
                p * self.value(state.apply(o), me, depth - 1) for o, p in state.chance_outcomes()
            )
        if depth == 1:
            _, values = self._children_values(state, me)
        else:
            values = np.array(
                [self.value(state.apply(a), me, depth - 1) for a in state.legal_actions()]
            )
        if mover == me:
            return float(values.max())
        return float(reply_probabilities(-values, self.skill, self.config.keep) @ values)

    def advise(self, state: State) -> list[Advice]:
        """Each legal move with its expected value under the opponent model, best first."""
        me = state.current_player
        depth = self.config.depth
        return with_regrets(
            (a, self.value(state.apply(a), me, depth - 1)) for a in state.legal_actions()
        )

    def act(self, state: State, rng: np.random.Generator) -> Action:
        self._catch_up(state)
        advice = self.advise(state)
        best = [a.action for a in advice if a.regret <= 1e-9]
        action = best[int(rng.integers(len(best)))] if len(best) > 1 else best[0]
        self._left = state.apply(action)
        return action
