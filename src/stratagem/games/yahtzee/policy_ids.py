"""The numbers by which the kernels know the fixed Yahtzee policies.

Kept apart from :mod:`._dist_kernels` (which reads them as compile-time
constants) so that naming a policy does not import numba.
"""

OPTIMAL = 0
GREEDY = 1
YAHTZEE_ONLY = 2
YAHTZEE_STRAIGHTS = 3
HEURISTIC = 4

# The players of the compiled two-player match (:mod:`._match_kernels`).
MATCH_OPTIMAL = 0
MATCH_WIN = 1
MATCH_RISK = 2
FW_LEN = 4096
"""Scores an opponent's win table covers (above: the opponent cannot reach them)."""
