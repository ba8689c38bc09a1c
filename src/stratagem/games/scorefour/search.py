"""Alpha-beta search for Score Four over the compiled kernels.

:class:`Minimax` keeps a transposition table (keyed by the least of the eight
symmetric Zobrist hashes, so mirror-image positions share an entry) and a
history table across calls. Each depth is one compiled search; iterative
deepening runs the depths 1, 2, ... in turn, each one ordered by the table the
last one filled, and a time budget stops at the last depth that finished.

>>> from stratagem.games.scorefour.state import ScoreFourState
>>> result = Minimax().search(ScoreFourState.new(), depth=2)
>>> result.depth, result.move in range(16)
(2, True)
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from stratagem.core.errors import IllegalActionError, InvalidRulesError
from stratagem.games.scorefour import _kernels
from stratagem.games.scorefour.evaluation import PAPER, EvalParams
from stratagem.games.scorefour.state import ScoreFourState

WIN = _kernels.WIN
_NO_VALUES = np.empty(0, dtype=np.float64)


@dataclass(frozen=True)
class SearchResult:
    """The move found, its value for the mover, the depth completed and the work done."""

    move: int
    value: float
    depth: int
    nodes: int
    seconds: float

    @property
    def nodes_per_second(self) -> float:
        return self.nodes / self.seconds if self.seconds > 0 else 0.0


def value_text(value: float) -> str:
    """A search value in the coach's words: ``wins in 2`` (the mover's own moves, this one
    included), ``loses in 1`` (the opponent's moves), else ``+12 points``."""
    if value > _kernels.MATE_ZONE:
        return f"wins in {(round(WIN - value) + 1) // 2}"
    if value < -_kernels.MATE_ZONE:
        return f"loses in {max(round(WIN + value) // 2, 1)}"
    return f"{value:+.0f} points"


MAX_DEPTH = 64
"""A game has 64 plies, so no search goes deeper."""
MAX_SECONDS = 3600.0
"""Longest time budget of one search."""


def check_budget(depth: int | None, seconds: float | None) -> None:
    """Raise :class:`InvalidRulesError` unless the depth is 1..64 plies and the time budget
    a finite number of seconds in (0, 3600]."""
    if depth is not None and (
        isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_DEPTH
    ):
        raise InvalidRulesError(f"the depth must be 1..{MAX_DEPTH} plies, got {depth!r}")
    if seconds is not None and (
        isinstance(seconds, bool)
        or not isinstance(seconds, int | float)
        or not 0 < seconds <= MAX_SECONDS
    ):
        raise InvalidRulesError(
            f"the time budget must be a number of seconds in (0, {MAX_SECONDS:g}], got {seconds!r}"
        )


class Minimax:
    """Alpha-beta with iterative deepening, move ordering, a symmetric transposition table."""

    def __init__(self, params: EvalParams = PAPER, table_bits: int = 20) -> None:
        if not 8 <= table_bits <= 28:
            raise InvalidRulesError(f"table_bits must be 8..28, got {table_bits}")
        self.params = params
        self._p = params.as_array()
        size = 1 << table_bits
        self._table = _kernels.Table(
            np.zeros(size, dtype=np.uint64),
            np.zeros(size, dtype=np.float64),
            np.zeros(size, dtype=np.int64),
            np.zeros(size, dtype=np.int8),
            np.zeros(size, dtype=np.int64),
            np.zeros((2, 16), dtype=np.float64),
        )

    def clear(self) -> None:
        """Forget the transposition and history tables."""
        self._table.key[:] = 0
        self._table.history[:] = 0

    @staticmethod
    def _arrays(state: ScoreFourState) -> tuple[np.ndarray, np.ndarray]:
        beads = np.array(state.beads, dtype=np.uint64)
        heights = np.array(state.heights(), dtype=np.int64)
        return beads, heights

    def _run(
        self, state: ScoreFourState, depth: int, max_nodes: int, values: np.ndarray
    ) -> tuple[int, float, int, bool]:
        beads, heights = self._arrays(state)
        move, value, nodes, aborted = _kernels.search_root(
            beads, heights, state.player, depth, self._p, self._table, max_nodes, values
        )
        return int(move), float(value), int(nodes), bool(aborted)

    def search(
        self, state: ScoreFourState, depth: int | None = None, seconds: float | None = None
    ) -> SearchResult:
        """Best move by iterative deepening to ``depth`` plies, or as deep as ``seconds`` allow.

        With both, the search stops at whichever comes first; with a time budget
        the last depth that finished gives the move (depth 1 always finishes).
        """
        if state.is_terminal():
            raise IllegalActionError(f"the game is over ({state.result_text()}); nothing to search")
        if depth is None and seconds is None:
            raise InvalidRulesError("give a depth, a time budget in seconds, or both")
        check_budget(depth, seconds)
        limit = depth if depth is not None else 64 - state.plies
        start = time.perf_counter()
        total = 0
        best: SearchResult | None = None
        for d in range(1, limit + 1):
            budget = 1 << 62
            if seconds is not None and best is not None:
                elapsed = time.perf_counter() - start
                if elapsed >= seconds:
                    break
                rate = max(total / max(elapsed, 1e-6), 1e5)
                budget = max(int(rate * (seconds - elapsed)), 1)
            move, value, nodes, aborted = self._run(state, d, budget, _NO_VALUES)
            total += nodes
            if aborted and best is not None:
                break
            best = SearchResult(move, value, d, total, time.perf_counter() - start)
            if abs(value) > _kernels.MATE_ZONE or d >= 64 - state.plies:
                break  # a forced result: deeper search cannot change it
        assert best is not None
        return SearchResult(best.move, best.value, best.depth, total, time.perf_counter() - start)

    def move_values(self, state: ScoreFourState, depth: int) -> dict[int, float]:
        """Every legal move's minimax value to ``depth`` plies (full-window searches)."""
        if state.is_terminal():
            raise IllegalActionError(f"the game is over ({state.result_text()}); nothing to search")
        for d in range(1, depth):  # fill the table for ordering
            self._run(state, d, 1 << 62, _NO_VALUES)
        values = np.full(16, np.nan)
        self._run(state, depth, 1 << 62, values)
        return {p: float(values[p]) for p in state.legal_actions()}
