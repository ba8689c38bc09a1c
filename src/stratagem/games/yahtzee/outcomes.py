"""The exact final-score distribution of each option of one decision.

For a decision (a :class:`~.state.Situation`) and one of its options, the
distribution of the final score when the option is taken now and every later
decision is made by the expected-score optimum (:class:`~.strategies.OptimalStrategy`).
A box leads to a turn-start state whose remaining-score distribution is in the
tables of :func:`.match.optimal_remaining`; a keep mixes, over the throws it may
see, the distributions of the optimum's choice after each throw. No sampling:
the mean of the result is the option's expected final score.
"""

from __future__ import annotations

import numpy as np

from stratagem.core.errors import IllegalActionError
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee.distribution import RemainingDistributions, ScoreDistribution
from stratagem.games.yahtzee.rules import NUM_DICE
from stratagem.games.yahtzee.state import Keep, Score, Situation
from stratagem.games.yahtzee.strategies import OptimalStrategy

MAX_FINAL = 2048
"""Length of the dense final-score vectors (no final score reaches it)."""


class OptionDistributions:
    """Final-score distributions of options, playing the optimum afterwards."""

    def __init__(self, strategy: OptimalStrategy, tables: RemainingDistributions) -> None:
        self.strategy = strategy
        self.rules = strategy.rules
        self.tables = tables
        # per turn (card totals): the distributions of keeps and the optimum's choices,
        # shared by the options of one decision (a few turns kept)
        self._memo: dict[tuple[int, int, int, int], dict[tuple[object, ...], np.ndarray]] = {}

    def final_score(self, sit: Situation, action: Keep | Score) -> ScoreDistribution:
        """The distribution of the final score after ``action`` in ``sit``."""
        legal = {a.action for a in self.strategy.advise_situation(sit)}
        if action not in legal:
            raise IllegalActionError(
                f"{action} is not an option here; the options are: "
                f"{', '.join(sorted(map(str, legal)))}"
            )
        turn = (sit.mask, sit.upper, sit.flag, sit.points)
        memo = self._memo.get(turn)
        if memo is None:
            if len(self._memo) >= 4:
                self._memo.clear()
            memo = self._memo[turn] = {}
        low, pmf = _trim(self._option(sit, action, memo))
        return ScoreDistribution(self.rules, "optimal", low, pmf)

    def _option(
        self, sit: Situation, action: Keep | Score, memo: dict[tuple[object, ...], np.ndarray]
    ) -> np.ndarray:
        if isinstance(action, Score):
            return self._box(sit, action.category)
        key = ("keep", action.dice, sit.rolls_left)
        cached = memo.get(key)
        if cached is not None:
            return cached
        out = np.zeros(MAX_FINAL)
        for thrown, p in D.outcomes(NUM_DICE - len(action.dice)):
            dice = tuple(sorted(action.dice + tuple(thrown)))
            after = Situation(
                self.rules, dice, sit.rolls_left - 1, sit.filled, sit.upper, sit.yahtzee_box,
                sit.score,
            )  # fmt: skip
            best = self._best(after, memo)
            out += p * self._option(after, best, memo)
        memo[key] = out
        return out

    def _best(self, sit: Situation, memo: dict[tuple[object, ...], np.ndarray]) -> Keep | Score:
        """The optimum's choice (its first option: boxes before keeps on a tie)."""
        action = self.strategy.advise_situation(sit)[0].action
        assert isinstance(action, Keep | Score)
        return action

    def _box(self, sit: Situation, category: str) -> np.ndarray:
        rules = self.rules
        points, bonus = rules.box_options(sit.dice, sit.filled, sit.yahtzee_box)[category]
        gained, mask, upper, flag = sit.scored(category, points, bonus)
        out = np.zeros(MAX_FINAL)
        now = sit.points + gained
        if mask == (1 << rules.num_categories) - 1:
            out[now] = 1.0
            return out
        low, p = self.tables.pmf(mask, upper, flag)
        out[now + low : now + low + len(p)] = p
        return out


def _trim(pmf: np.ndarray) -> tuple[int, np.ndarray]:
    nz = np.nonzero(pmf > 0)[0]
    low, end = int(nz[0]), int(nz[-1]) + 1
    return low, pmf[low:end]
