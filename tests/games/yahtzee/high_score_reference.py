"""A slow, obviously correct high-score solver for nearly full score cards.

For a card at the start of a turn it returns the whole function
t -> the largest probability that the points still to come are at least t,
as a vector over t = 0 .. TOP - 1, by plain expectimax over every roll,
every subset of the dice kept and every box, the maximum taken separately
for each t. It shares nothing with the numba kernels: dice outcomes, keeps,
legal boxes and bonuses come from ``reference.py`` (written from the rule
book, dice enumerated with itertools.product), and no bands are cut. The
expectation over the dice thrown is a product with the matrix of
``completions`` chances, so a card takes milliseconds, not minutes.
"""

from __future__ import annotations

from functools import cache

import numpy as np

from stratagem.games.yahtzee.rules import YahtzeeRules
from tests.games.yahtzee.reference import Card, Dice, completions, keeps, legal_boxes, score_box

TOP = 1400
"""Targets covered: more than any card with three open boxes can score."""

ROLLS: list[Dice] = sorted({roll for roll, _ in completions(())})
ROLL_ROW = {roll: i for i, roll in enumerate(ROLLS)}
KEPT: list[Dice] = sorted({k for roll in ROLLS for k in keeps(roll)}, key=lambda k: (len(k), k))
KEPT_ROW = {k: i for i, k in enumerate(KEPT)}
# THROW[k, r]: the chance that keeping KEPT[k] and throwing the rest gives ROLLS[r].
THROW = np.zeros((len(KEPT), len(ROLLS)))
for _k, _kept in enumerate(KEPT):
    for _roll, _chance in completions(_kept):
        THROW[_k, ROLL_ROW[_roll]] = _chance
SUBSETS = [np.array([KEPT_ROW[k] for k in keeps(roll)]) for roll in ROLLS]


def shifted(values: np.ndarray, gained: int) -> np.ndarray:
    """t -> values[t - gained] (1 where t - gained <= 0)."""
    out = np.ones(TOP)
    if gained < TOP:
        out[gained:] = values[: TOP - gained]
    return out


class HighScoreReference:
    """Vectors over t of the best chance to score at least t more points."""

    def __init__(self, rules: YahtzeeRules) -> None:
        self.rules = rules
        self.turn_value = cache(self._turn_value)
        self.turn = cache(self._turn)

    def box_value(self, card: Card, dice: Dice, box: str) -> np.ndarray:
        """Scoring ``dice`` in ``box`` now, then the best play."""
        points, bonus = legal_boxes(self.rules, dice, card.filled, card.yahtzee_box)[box]
        gained, after = score_box(self.rules, card, box, points, bonus)
        return shifted(self.turn_value(after), gained)

    def _turn(self, card: Card) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(best final roll [roll, t], keep with one roll left [kept, t], with two)."""
        final = np.zeros((len(ROLLS), TOP))
        for i, roll in enumerate(ROLLS):
            for box in legal_boxes(self.rules, roll, card.filled, card.yahtzee_box):
                np.maximum(final[i], self.box_value(card, roll, box), out=final[i])
        keep1 = THROW @ final
        one_left = np.array([np.maximum(final[i], keep1[SUBSETS[i]].max(axis=0))
                             for i in range(len(ROLLS))])  # fmt: skip
        keep2 = THROW @ one_left
        return final, keep1, keep2

    def _turn_value(self, card: Card) -> np.ndarray:
        if len(card.filled) == self.rules.num_categories:
            done = np.zeros(TOP)
            done[0] = 1.0
            return done
        final, _keep1, keep2 = self.turn(card)
        two_left = np.array([np.maximum(final[i], keep2[SUBSETS[i]].max(axis=0))
                             for i in range(len(ROLLS))])  # fmt: skip
        result: np.ndarray = THROW[KEPT_ROW[()]] @ two_left
        return result

    def keep_value(self, card: Card, kept: Dice, rolls_left: int) -> np.ndarray:
        """Keeping ``kept`` with ``rolls_left`` (1 or 2) throws allowed, then the best play."""
        _final, keep1, keep2 = self.turn(card)
        return (keep1 if rolls_left == 1 else keep2)[KEPT_ROW[tuple(sorted(kept))]]
