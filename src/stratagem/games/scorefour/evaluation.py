"""The static evaluation of Tsukamoto, Yamada and Terano (IJCAI 1979).

Every line is scored for each side by its state: Four, Active-Three (the
fourth cell empty and playable now; worth more if that side moves next),
Sleeping-Three (fourth cell not yet playable), Active-Two, Half-Active-Two,
Sleeping-Two (by how many of the two empty cells are playable), a single bead,
or nothing (blocked or empty). A T-formation (two Active-Threes with different
empty cells through one bead, i.e. made by one move) and a V-formation (an
Active-Three whose empty cell lies directly under the empty cell of the same
side's Sleeping-Three) score extra. ``U = own sum - opponent's sum``.

>>> from stratagem.games.scorefour.state import ScoreFourState
>>> evaluate(ScoreFourState.new().apply(0), 0)
7.0
"""

from __future__ import annotations

from dataclasses import astuple, dataclass, fields

import numpy as np

from stratagem.core.errors import InvalidRulesError
from stratagem.games.scorefour import _kernels
from stratagem.games.scorefour.board import LINES, PEGS, playable
from stratagem.games.scorefour.state import DRAW, ScoreFourState


@dataclass(frozen=True)
class EvalParams:
    """The paper's constants (the defaults) and the bonus a search adds for a won game."""

    four: float = 150.0
    active_three_mover: float = 70.0
    """An Active-Three of the side that moves next (it can complete it now)."""
    active_three: float = 30.0
    """An Active-Three of the side that does not move next."""
    sleeping_three: float = 18.0
    active_two: float = 4.0
    half_active_two: float = 5.0
    sleeping_two: float = 8.0
    single: float = 1.0
    t_formation: float = 50.0
    v_formation: float = 50.0
    win_bonus: float = 1000.0
    """Added for the winner of a finished game on top of the paper's U (not in the paper,
    whose Four of 150 can be outweighed by the rest of the board; 0 gives the paper's U)."""

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            if not isinstance(value, int | float) or not np.isfinite(value):
                raise InvalidRulesError(
                    f"evaluation constant {f.name} must be a number, got {value!r}"
                )

    def as_array(self) -> np.ndarray:
        return np.array(astuple(self), dtype=np.float64)

    @classmethod
    def names(cls) -> list[str]:
        return [f.name for f in fields(cls)]


PAPER = EvalParams()
_DEFAULT = PAPER.as_array()


def _params(params: EvalParams | None) -> np.ndarray:
    return _DEFAULT if params is None else params.as_array()


def _beads(state: ScoreFourState) -> tuple[np.uint64, np.uint64]:
    return np.uint64(state.beads[0]), np.uint64(state.beads[1])


def evaluate(state: ScoreFourState, player: int, params: EvalParams | None = None) -> float:
    """U for ``player`` (plus the win bonus, signed, once the game is won)."""
    p = _params(params)
    b = _beads(state)
    scratch = np.empty(len(LINES), dtype=np.int64)
    value = float(
        _kernels.static_value(b[player], b[1 - player], state.player == player, p, scratch)
    )
    if state.winner is not None and state.winner != DRAW:
        value += p[10] if state.winner == player else -p[10]
    return value


def child_values(
    state: ScoreFourState, player: int, params: EvalParams | None = None
) -> tuple[list[int], np.ndarray]:
    """The legal moves and U for ``player`` after each (one compiled call)."""
    out = np.empty(PEGS, dtype=np.float64)
    b = _beads(state)
    _kernels.child_values(b[0], b[1], state.player, player, _params(params), out)
    moves = state.legal_actions()
    return moves, out[moves]


def reference_evaluate(state: ScoreFourState, player: int, params: EvalParams = PAPER) -> float:
    """The same U written plainly in Python, line by line (a check on the kernel)."""
    free = playable(state.occupied)
    to_move = state.player

    def side(s: int) -> float:
        mine, theirs = state.beads[s], state.beads[1 - s]
        total = 0.0
        active: list[tuple[int, int]] = []  # (line mask, empty cell mask)
        sleeping_cells: set[int] = set()
        for line in LINES:
            mask = sum(1 << c for c in line)
            if theirs & mask:
                continue
            count = (mine & mask).bit_count()
            empty = mask & ~mine
            playable_empty = (empty & free).bit_count()
            if count == 4:
                total += params.four
            elif count == 3 and playable_empty:
                total += params.active_three_mover if s == to_move else params.active_three
                active.append((mask, empty))
            elif count == 3:
                total += params.sleeping_three
                sleeping_cells.add(empty.bit_length() - 1)
            elif count == 2:
                total += (params.sleeping_two, params.half_active_two, params.active_two)[
                    playable_empty
                ]
            elif count == 1:
                total += params.single
        active_cells = {e.bit_length() - 1 for _, e in active}
        total += params.v_formation * sum(c + PEGS in sleeping_cells for c in active_cells)
        for i, (mi, ei) in enumerate(active):
            for mj, ej in active[i + 1 :]:
                if mi & mj & mine and ei != ej:
                    total += params.t_formation
        return total

    value = side(player) - side(1 - player)
    if state.winner is not None and state.winner != DRAW:
        value += params.win_bonus if state.winner == player else -params.win_bonus
    return value
