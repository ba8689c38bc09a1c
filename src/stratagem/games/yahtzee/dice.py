"""Dice multisets and the tables the solver's widget walks.

A *keep* is a sorted tuple of 0..5 dice; a *roll* is a keep of all five.
Keeps are numbered 0..461 by size, then lexicographically, so the 252 rolls
are the last indices (``ROLL_START`` onwards). The numbering is fixed: the
solver tables and the simulation depend on it.

>>> len(KEEPS), ROLL_START, KEEPS[ROLL_START]
(462, 210, (1, 1, 1, 1, 1))
>>> round(float(ROLL_PROBABILITY[KEEP_INDEX[(1, 2, 3, 4, 5)]]) * 7776)
120
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from math import factorial

import numpy as np

from stratagem.games.yahtzee.rules import NUM_DICE, NUM_FACES

KEEPS: tuple[tuple[int, ...], ...] = tuple(
    keep
    for size in range(NUM_DICE + 1)
    for keep in combinations_with_replacement(range(1, NUM_FACES + 1), size)
)
KEEP_INDEX: dict[tuple[int, ...], int] = {keep: i for i, keep in enumerate(KEEPS)}
NUM_KEEPS = len(KEEPS)
ROLL_START = sum(1 for k in KEEPS if len(k) < NUM_DICE)
NUM_ROLLS = NUM_KEEPS - ROLL_START

KEEP_SIZE = np.array([len(k) for k in KEEPS], dtype=np.int64)

# ADD[k, f-1]: the keep with one more die showing f (-1 for a full hand).
ADD = np.full((NUM_KEEPS, NUM_FACES), -1, dtype=np.int64)
# SUB[k, j]: the j-th distinct keep with one die fewer (-1 padding); SUB_COUNT[k] of them.
SUB = np.full((NUM_KEEPS, NUM_FACES), -1, dtype=np.int64)
SUB_COUNT = np.zeros(NUM_KEEPS, dtype=np.int64)
for _i, _keep in enumerate(KEEPS):
    if len(_keep) < NUM_DICE:
        for _f in range(1, NUM_FACES + 1):
            ADD[_i, _f - 1] = KEEP_INDEX[tuple(sorted((*_keep, _f)))]
    for _f in sorted(set(_keep)):
        _less = list(_keep)
        _less.remove(_f)
        SUB[_i, SUB_COUNT[_i]] = KEEP_INDEX[tuple(_less)]
        SUB_COUNT[_i] += 1


def _multinomial_probability(dice: tuple[int, ...]) -> float:
    ways = factorial(len(dice))
    for face in set(dice):
        ways //= factorial(dice.count(face))
    return float(ways / NUM_FACES ** len(dice))


# Probability of each keep-sized outcome when that many dice are thrown at once.
OUTCOME_PROBABILITY = np.array([_multinomial_probability(k) for k in KEEPS], dtype=np.float64)
# Probability of each roll (indexed by keep number; 0 below ROLL_START).
ROLL_PROBABILITY = np.where(KEEP_SIZE == NUM_DICE, OUTCOME_PROBABILITY, 0.0)

# Distinct sub-keeps of every roll: SUBKEEPS[r - ROLL_START, :SUBKEEP_COUNT[...]]
_subkeeps = [
    sorted(
        {
            KEEP_INDEX[tuple(sorted(roll[i] for i in range(NUM_DICE) if mask >> i & 1))]
            for mask in range(1 << NUM_DICE)
        }
    )
    for roll in KEEPS[ROLL_START:]
]
SUBKEEP_COUNT = np.array([len(s) for s in _subkeeps], dtype=np.int64)
SUBKEEPS = np.full((NUM_ROLLS, int(SUBKEEP_COUNT.max())), -1, dtype=np.int64)
for _r, _subs in enumerate(_subkeeps):
    SUBKEEPS[_r, : len(_subs)] = _subs

# Face counts of every keep: COUNTS[k, f-1].
COUNTS = np.zeros((NUM_KEEPS, NUM_FACES), dtype=np.int64)
for _i, _keep in enumerate(KEEPS):
    for _f in _keep:
        COUNTS[_i, _f - 1] += 1


# CODE_TO_KEEP[sum(count[f] * 6**f)]: the keep with those face counts (-1 if none).
CODE_TO_KEEP = np.full(6**NUM_FACES, -1, dtype=np.int64)
for _i in range(NUM_KEEPS):
    CODE_TO_KEEP[sum(int(COUNTS[_i, f]) * 6**f for f in range(NUM_FACES))] = _i


def keep_index(dice: tuple[int, ...] | list[int]) -> int:
    """The number of a keep or roll given in any order."""
    return KEEP_INDEX[tuple(sorted(dice))]


def outcomes(count: int) -> list[tuple[tuple[int, ...], float]]:
    """Every sorted result of throwing ``count`` dice, with its probability."""
    return [(k, float(OUTCOME_PROBABILITY[i])) for i, k in enumerate(KEEPS) if len(k) == count]
