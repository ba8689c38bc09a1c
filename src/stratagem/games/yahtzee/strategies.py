"""Agents for Yahtzee/Yatzy, and fast simulation of the optimal strategy.

:class:`OptimalStrategy` is both the AI player and the advisor: the same
exact values choose its moves and price every option for a person.

>>> from stratagem.games.yahtzee.rules import preset
>>> from stratagem.games.yahtzee.state import Situation
>>> opt = OptimalStrategy(solve(preset("yahtzee")))                 # doctest: +SKIP
>>> sit = Situation(preset("yahtzee"), (1, 1, 1, 1, 4), 2)
>>> best = opt.advise_situation(sit)[0]                             # doctest: +SKIP
>>> str(best.action), round(best.value, 2)                          # doctest: +SKIP
('keep 1 1 1 1', 248.42)
"""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from stratagem.core.agent import Advice, with_regrets
from stratagem.core.errors import InvalidStateError
from stratagem.core.game import State
from stratagem.core.lazy import LazyModule
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee.distribution import _Kernels, _policy_id, moment_tables
from stratagem.games.yahtzee.solver import Solution, solve
from stratagem.games.yahtzee.state import Keep, Score, Situation, YahtzeeState

K = LazyModule("stratagem.games.yahtzee._kernels")
DK = LazyModule("stratagem.games.yahtzee._dist_kernels")

__all__ = ["OptimalStrategy", "PolicyAgent", "SimulationResult", "simulate", "solve"]


class OptimalStrategy:
    """Maximises the expected final score (exact, from the solved table)."""

    name = "optimal"

    def __init__(self, solution: Solution, memo_size: int = 4096) -> None:
        self.solution = solution
        self.rules = solution.rules
        self._memo: OrderedDict[tuple[int, int, int], tuple[np.ndarray, np.ndarray]] = OrderedDict()
        self._memo_size = memo_size

    def _tables(self, mask: int, upper: int, flag: int) -> tuple[np.ndarray, np.ndarray]:
        key = (mask, min(upper, self.rules.upper_bonus_threshold), flag)
        tables = self._memo.get(key)
        if tables is None:
            tables = self.solution.turn_tables(*key)
            self._memo[key] = tables
            if len(self._memo) > self._memo_size:
                self._memo.popitem(last=False)
        else:
            self._memo.move_to_end(key)
        return tables

    def box_values(self, sit: Situation) -> list[tuple[Score, float]]:
        """Each legal box with the expected score still to come (this box included)."""
        rules = self.rules
        out = []
        options = rules.box_options(sit.dice, sit.filled, sit.yahtzee_box)
        for category, (points, yahtzee_bonus) in options.items():
            gained, mask, upper, flag = sit.scored(category, points, yahtzee_bonus)
            future = 0.0
            if mask != (1 << rules.num_categories) - 1:
                future = self.solution.state_value(mask, upper, flag)
            # The kernel's own sum, so that options tie exactly where the kernel's do.
            out.append((Score(category), gained + future))
        return out

    def keep_values(self, sit: Situation) -> list[tuple[Keep, float]]:
        """Each distinct keep with the expected score still to come (none without rerolls)."""
        if sit.rolls_left == 0:
            return []
        e0, e1 = self._tables(sit.mask, sit.upper, sit.flag)
        return sit.keep_options(e1 if sit.rolls_left == 2 else e0)

    def advise_situation(self, sit: Situation) -> list[Advice]:
        """Every option, best first. Boxes are listed before keeps, so that on a tie
        scoring now ranks ahead of keeping all five dice (which only wastes a roll)."""
        if sit.rules != self.rules:
            raise InvalidStateError(
                f"this strategy was solved for {self.rules.name}, not {sit.rules.name}"
            )
        options: list[tuple[Keep | Score, float]] = []
        options.extend(self.box_values(sit))
        options.extend(self.keep_values(sit))
        # Rank on the values still to come (the compiled simulation compares the same
        # floats), then report expected final scores.
        return [replace(a, value=sit.points + a.value) for a in with_regrets(options)]

    def advise(self, state: State) -> list[Advice]:
        if not isinstance(state, YahtzeeState):
            raise InvalidStateError("the Yahtzee advisor needs a YahtzeeState")
        return self.advise_situation(state.situation())

    def act(self, state: State, rng: np.random.Generator) -> Keep | Score:
        action = self.advise(state)[0].action
        assert isinstance(action, Keep | Score)
        return action


class PolicyAgent:
    """A fixed strategy of the zoo, as an agent and an advisor.

    The strategies (``stratagem.games.yahtzee.distribution.POLICIES``):

    ``greedy``
        maximises this turn's points: the same keep-and-reroll expectimax as the
        optimum, with every future worth 0 (bonuses earned this turn count).
    ``yahtzee-only``
        keeps every die of its most common face (ties: the higher face) and,
        when the dice are final, scores the box with the most points now.
    ``yahtzee-and-straights``
        as ``yahtzee-only``, but while a straight box is open and no face shows
        three times, keeps one die of each face of its longest run of three or
        more consecutive faces.
    ``heuristic``
        the optimum's expectimax over one turn with the expected future
        replaced by a hand-written worth of the card: a fixed worth per open
        box plus a hand rule for the upper bonus (``distribution.heuristic_values``).

    Its advice prices every option by the strategy's own exact expected final
    score when this option is taken and the strategy plays the rest.
    """

    def __init__(self, solution: Solution, policy: str) -> None:
        self.solution = solution
        self.rules = solution.rules
        self.name = policy
        self.pid = _policy_id(policy)
        self._k = _Kernels(solution, self.pid)
        self._m1: np.ndarray | None = None
        self._memo: OrderedDict[tuple[int, int, int], tuple[np.ndarray, ...]] = OrderedDict()

    def _choices(self, mask: int, upper: int, flag: int) -> tuple[np.ndarray, ...]:
        key = (mask, min(upper, self.rules.upper_bonus_threshold), flag)
        hit = self._memo.get(key)
        if hit is not None:
            return hit
        n = D.NUM_KEEPS
        keep2, keep1, cat = (np.zeros(n, dtype=np.int64) for _ in range(3))
        e0, e1, w = (np.zeros(n) for _ in range(3))
        DK.policy_tables(
            self.pid, self.solution.values, self._k.V0, *key, self._k.R,
            DK.Choices(keep2, keep1, cat), DK.TurnScratch(e0, e1, w, np.zeros(6, dtype=np.int64)),
        )  # fmt: skip
        self._memo[key] = (keep2, keep1, cat)
        if len(self._memo) > 256:
            self._memo.popitem(last=False)
        return keep2, keep1, cat

    def _decide(self, sit: Situation) -> Keep | Score:
        keep2, keep1, cat = self._choices(sit.mask, sit.upper, sit.flag)
        r = D.KEEP_INDEX[tuple(sorted(sit.dice))]
        k = int(keep2[r] if sit.rolls_left == 2 else keep1[r])
        if sit.rolls_left == 0 or k == r:
            return Score(self.rules.categories[int(cat[r])])
        return Keep(D.KEEPS[k])

    def act(self, state: State, rng: np.random.Generator) -> Keep | Score:
        if not isinstance(state, YahtzeeState):
            raise InvalidStateError("a Yahtzee strategy needs a YahtzeeState")
        return self._decide(state.situation())

    def _future(self) -> np.ndarray:
        if self._m1 is None:
            self._m1 = moment_tables(self.solution, self.name)[0]
        return self._m1

    def advise(self, state: State) -> list[Advice]:
        if not isinstance(state, YahtzeeState):
            raise InvalidStateError("a Yahtzee strategy needs a YahtzeeState")
        return self.advise_situation(state.situation())

    def advise_situation(self, sit: Situation) -> list[Advice]:
        """Every option with this strategy's exact expected final score, best first.

        The first call computes the strategy's value table (tens of seconds)."""
        m1 = self._future()
        mask, flag = sit.mask, sit.flag
        upper = min(sit.upper, self.rules.upper_bonus_threshold)
        _keep2, keep1, cat = self._choices(mask, upper, flag)

        def box_value(c: int, r: int) -> tuple[bool, float]:
            pts, nu, ny, legal = self.solution.score_option(mask, upper, flag, c, r)
            return bool(legal), float(pts) + float(m1[mask | (1 << c), nu, ny])

        n = D.NUM_KEEPS
        f0 = np.zeros(n)
        for r in range(D.ROLL_START, n):
            f0[r] = box_value(int(cat[r]), r)[1]
        g1 = np.zeros(n)
        K.expect(f0, D.ADD, g1)
        f1 = np.where(keep1 == np.arange(n), f0, g1[keep1])
        g2 = np.zeros(n)
        K.expect(f1, D.ADD, g2)
        r = D.KEEP_INDEX[tuple(sorted(sit.dice))]
        options: list[tuple[Keep | Score, float]] = []
        for c, name in enumerate(self.rules.categories):
            legal, v = box_value(c, r)
            if legal:
                options.append((Score(name), v))
        if sit.rolls_left > 0:
            options.extend(sit.keep_options(g2 if sit.rolls_left == 2 else g1))
        return [replace(o, value=sit.points + o.value) for o in with_regrets(options)]


@dataclass(frozen=True)
class SimulationResult:
    """Final scores and bonus counts of simulated games (one entry per game)."""

    rules_name: str
    seed: int
    scores: np.ndarray
    upper_bonus: np.ndarray
    yahtzee_50: np.ndarray
    yahtzee_bonuses: np.ndarray

    @property
    def games(self) -> int:
        return len(self.scores)

    def summary(self, bin_width: int = 10) -> dict[str, object]:
        """Mean, SD, SE, extremes, percentiles, bonus rates and a histogram."""
        s = self.scores.astype(np.float64)
        n = len(s)
        sd = float(s.std(ddof=1)) if n > 1 else None  # one game has no spread
        pct = (1, 5, 10, 25, 50, 75, 90, 95, 99)
        values = np.percentile(s, pct) if n else np.zeros(len(pct))
        low = int(s.min()) // bin_width * bin_width if n else 0
        hist_counts: Any = (
            np.bincount((self.scores.astype(np.int64) - low) // bin_width) if n else []
        )
        histogram = {str(low + i * bin_width): int(c) for i, c in enumerate(hist_counts) if c}
        return {
            "rules": self.rules_name,
            "games": n,
            "seed": self.seed,
            "mean": float(s.mean()) if n else 0.0,
            "sd": sd,
            "se": sd / np.sqrt(n) if sd is not None else None,
            "min": int(s.min()) if n else 0,
            "percentiles": {str(p): float(v) for p, v in zip(pct, values)},
            "max": int(s.max()) if n else 0,
            "upper_bonus_rate": float(self.upper_bonus.mean()) if n else 0.0,
            "yahtzee_50_rate": float(self.yahtzee_50.mean()) if n else 0.0,
            "yahtzee_bonus_mean": float(self.yahtzee_bonuses.mean()) if n else 0.0,
            "yahtzee_bonus_rate": float((self.yahtzee_bonuses > 0).mean()) if n else 0.0,
            "histogram_bin_width": bin_width,
            "histogram": histogram,
        }


def simulate(solution: Solution, games: int, seed: int, batch: int = 1 << 16) -> SimulationResult:
    """Play ``games`` solitaire games with the optimal strategy.

    The dice come from ``numpy.random.default_rng(seed)`` in fixed batches,
    so the same seed gives the same games whatever the number of threads.
    """
    if games < 0:
        raise InvalidStateError(f"the number of games must be >= 0, got {games}")
    rng = np.random.default_rng(seed)
    rules = solution.rules
    ncat = rules.num_categories
    first_e0, first_e1 = solution.turn_tables(0, 0, 0)
    scores = np.empty(games, dtype=np.int64)
    upper = np.empty(games, dtype=np.int8)
    fifty = np.empty(games, dtype=np.int8)
    bonuses = np.empty(games, dtype=np.int8)
    for start in range(0, games, batch):
        stop = min(games, start + batch)
        throws = rng.integers(1, 7, size=(stop - start, ncat, 3, 5), dtype=np.int8)
        K.simulate_optimal(
            solution.values, throws, solution.arrays.kernel, first_e0, first_e1,
            scores[start:stop], upper[start:stop], fifty[start:stop], bonuses[start:stop],
        )  # fmt: skip
    return SimulationResult(rules.name, seed, scores, upper, fifty, bonuses)
