"""Score Four positions (implements :mod:`stratagem.core.game`).

Player 0 (``X``) moves first, player 1 (``O``) second. An action is a peg
index 0..15 (``str`` of a peg via :func:`~stratagem.games.scorefour.board.peg_name`);
the bead drops to the lowest free level. Four beads of one side in a line win;
a full board is a draw.

>>> s = ScoreFourState.new()
>>> len(s.legal_actions()), s.current_player
(16, 0)
>>> s = s.apply(5).apply(5)
>>> s.heights()[5], s.to_string()[:20]
(2, '.....x..........')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from stratagem.core.errors import IllegalActionError, InvalidRulesError, InvalidStateError
from stratagem.core.game import TERMINAL
from stratagem.games.scorefour.board import (
    CELLS,
    LINE_MASKS,
    LINES_THROUGH,
    PEGS,
    SIZE,
    peg_name,
    playable,
)

_MASKS = [int(m) for m in LINE_MASKS]
_THROUGH = [[int(i) for i in row if i >= 0] for row in LINES_THROUGH]
SYMBOLS = ("x", "o")
DRAW = -1
"""``winner`` of a drawn game."""
RULES = "scorefour"
"""The one rule set (the name the arena and the web page use for it)."""


def has_four(beads: int) -> bool:
    """True if the mask holds a complete line."""
    return any(beads & m == m for m in _MASKS)


@dataclass(frozen=True)
class ScoreFourState:
    """The two sides' beads (``beads[player]`` is a 64-bit mask) and the result, if any."""

    beads: tuple[int, int] = (0, 0)
    winner: int | None = None
    """0 or 1 once a side has four in a line, :data:`DRAW` on a full board, else None."""

    @classmethod
    def new(cls, rules: str = RULES, players: int = 2) -> ScoreFourState:
        """The empty board (Score Four has one rule set and two players)."""
        if rules != RULES:
            raise InvalidRulesError(f"Score Four has one rule set, {RULES!r}; got {rules!r}")
        if players != 2:
            raise InvalidStateError(f"Score Four takes 2 players, got {players}")
        return cls()

    @property
    def num_players(self) -> int:
        return 2

    @property
    def occupied(self) -> int:
        return self.beads[0] | self.beads[1]

    @property
    def plies(self) -> int:
        """Beads on the board."""
        return self.occupied.bit_count()

    @property
    def player(self) -> int:
        """The side whose turn it is (ignoring whether the game is over)."""
        return self.plies % 2

    @property
    def current_player(self) -> int:
        return TERMINAL if self.winner is not None else self.player

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> tuple[float, ...]:
        if self.winner == 0:
            return (1.0, 0.0)
        if self.winner == 1:
            return (0.0, 1.0)
        return (0.5, 0.5) if self.winner == DRAW else (0.0, 0.0)

    def heights(self) -> list[int]:
        """Beads on each peg (0..4)."""
        occ = self.occupied
        return [sum(occ >> (z * PEGS + p) & 1 for z in range(SIZE)) for p in range(PEGS)]

    def legal_actions(self) -> list[int]:
        if self.winner is not None:
            return []
        free = playable(self.occupied)
        return [p for p in range(PEGS) if any(free >> (z * PEGS + p) & 1 for z in range(SIZE))]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def drop_cell(self, peg: int) -> int:
        """The cell a bead dropped on ``peg`` lands in (raises if the peg is full)."""
        free = playable(self.occupied)
        for z in range(SIZE):
            if free >> (z * PEGS + peg) & 1:
                return z * PEGS + peg
        raise IllegalActionError(
            f"peg {peg_name(peg)} is full (4 beads); the open pegs are: "
            + ", ".join(peg_name(p) for p in self.legal_actions())
        )

    def apply(self, action: object) -> ScoreFourState:
        if self.winner is not None:
            raise IllegalActionError(f"the game is over ({self.result_text()}); no more moves")
        if isinstance(action, bool) or not isinstance(action, int) or not 0 <= action < PEGS:
            raise IllegalActionError(f"a move is a peg 0..15 (a1..d4), not {action!r}")
        c = self.drop_cell(action)
        me = self.player
        mine = self.beads[me] | (1 << c)
        beads = (mine, self.beads[1]) if me == 0 else (self.beads[0], mine)
        won = any(mine & _MASKS[i] == _MASKS[i] for i in _THROUGH[c])
        full = (beads[0] | beads[1]).bit_count() == CELLS
        return ScoreFourState(beads, me if won else (DRAW if full else None))

    def result_text(self) -> str:
        if self.winner is None:
            return "in play"
        if self.winner == DRAW:
            return "a draw"
        return f"{SYMBOLS[self.winner].upper()} won"

    def to_string(self) -> str:
        """Levels bottom to top, separated by ``/``; each level lists pegs a1 b1 c1 d1 a2 .. d4."""
        levels = []
        for z in range(SIZE):
            row = ""
            for p in range(PEGS):
                bit = 1 << (z * PEGS + p)
                row += "x" if self.beads[0] & bit else "o" if self.beads[1] & bit else "."
            levels.append(row)
        return "/".join(levels)

    @classmethod
    def from_string(cls, text: str) -> ScoreFourState:
        """Read :meth:`to_string`'s format (``x``, ``o``, ``.``; levels bottom to top).

        Fewer than four levels may be given (the rest are empty); spaces are ignored.
        """
        compact = "".join(text.split()).lower()
        levels = compact.split("/") if compact else []
        if len(levels) > SIZE:
            raise InvalidStateError(
                f"malformed board {text!r}: at most 4 levels separated by '/', got {len(levels)}"
            )
        beads = [0, 0]
        for z, level in enumerate(levels):
            if len(level) != PEGS:
                raise InvalidStateError(
                    f"malformed board {text!r}: level {z + 1} has {len(level)} cells, "
                    f"each level lists 16 pegs (a1 b1 c1 d1 a2 ... d4) as x, o or ."
                )
            for p, ch in enumerate(level):
                if ch not in "xo.":
                    raise InvalidStateError(
                        f"malformed board {text!r}: {ch!r} at level {z + 1}, peg {peg_name(p)}; "
                        f"cells are x, o or ."
                    )
                if ch != ".":
                    beads[SYMBOLS.index(ch)] |= 1 << (z * PEGS + p)
        occ = beads[0] | beads[1]
        floating = occ & ~((occ << PEGS) | ((1 << PEGS) - 1))
        if floating:
            c = (floating & -floating).bit_length() - 1
            raise InvalidStateError(
                f"malformed board {text!r}: the bead at level {c // PEGS + 1} of peg "
                f"{peg_name(c % PEGS)} floats above an empty cell"
            )
        nx, no = beads[0].bit_count(), beads[1].bit_count()
        if nx not in (no, no + 1):
            raise InvalidStateError(
                f"impossible board {text!r}: X moves first, so X has as many beads as O or "
                f"one more (X {nx}, O {no})"
            )
        fx, fo = has_four(beads[0]), has_four(beads[1])
        if fx and fo:
            raise InvalidStateError(f"impossible board {text!r}: both sides have four in a line")
        if (fx and nx != no + 1) or (fo and nx != no):
            raise InvalidStateError(
                f"impossible board {text!r}: play goes on after the winning move"
            )
        winner = 0 if fx else 1 if fo else (DRAW if occ.bit_count() == CELLS else None)
        return cls((beads[0], beads[1]), winner)

    def __str__(self) -> str:
        return render(self)


def random_positions(
    n: int,
    seed: int,
    keep: Callable[[ScoreFourState], bool],
    beads: tuple[int, int] = (6, 20),
) -> list[ScoreFourState]:
    """The empty board and ``n - 1`` positions of uniformly random play, each stopped after a
    random number of beads in ``beads`` (or at the game's end), kept if ``keep`` says so
    (benchmarks and tests draw their positions here; the same ``seed``, the same walks)."""
    rng = np.random.default_rng(seed)
    out = [ScoreFourState.new()]
    while len(out) < n:
        state = ScoreFourState.new()
        for _ in range(int(rng.integers(beads[0], beads[1] + 1))):
            moves = state.legal_actions()
            state = state.apply(moves[int(rng.integers(len(moves)))])
            if state.is_terminal():
                break
        if not state.is_terminal() and keep(state):
            out.append(state)
    return out


def render(state: ScoreFourState, marks: dict[int, str] | None = None) -> str:
    """The four levels side by side, row 4 at the top, as a player sees them from above.

    ``marks`` may put a character on a cell (e.g. the last move, shown as a capital).
    """
    marks = marks or {}
    header = "   ".join(f"   level {z + 1}  " for z in range(SIZE))
    lines = [header]
    for y in reversed(range(SIZE)):
        parts = []
        for z in range(SIZE):
            cells = []
            for x in range(SIZE):
                c = z * PEGS + y * SIZE + x
                if c in marks:
                    cells.append(marks[c])
                elif state.beads[0] >> c & 1:
                    cells.append("x")
                elif state.beads[1] >> c & 1:
                    cells.append("o")
                else:
                    cells.append(".")
            parts.append(f"{y + 1}  " + " ".join(cells) + "  ")
        lines.append("   ".join(parts))
    lines.append("   ".join("   a b c d  " for _ in range(SIZE)))
    return "\n".join(line.rstrip() for line in lines)
