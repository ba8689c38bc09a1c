"""Score Four geometry: cells, pegs, the 76 lines and the 8 board symmetries.

The board is a 4x4 grid of pegs, each holding up to four beads. Cell
``z * 16 + y * 4 + x`` is level ``z`` (0 = bottom) of the peg in column ``x``
(``a``..``d``) and row ``y`` (``1``..``4``); a side's beads are one 64-bit
mask with bit ``cell`` set for each of its beads.

>>> len(LINES), peg_name(0), peg_name(15), parse_peg("b3")
(76, 'a1', 'd4', 9)
"""

from __future__ import annotations

import numpy as np

from stratagem.core.errors import IllegalActionError

SIZE = 4
PEGS = SIZE * SIZE
CELLS = PEGS * SIZE
LEVEL0 = (1 << PEGS) - 1
"""The cells of the bottom level."""
COLUMN_LETTERS = "abcd"


def cell(x: int, y: int, z: int) -> int:
    """The cell index of column ``x``, row ``y``, level ``z`` (all 0..3)."""
    return z * PEGS + y * SIZE + x


def peg_name(peg: int) -> str:
    """``a1`` .. ``d4``: column letter, then row number."""
    return f"{COLUMN_LETTERS[peg % SIZE]}{peg // SIZE + 1}"


def parse_peg(text: str) -> int:
    """The peg index (0..15) of a name such as ``a1`` or ``D4``.

    >>> parse_peg("B3")
    9
    """
    word = text.strip().lower()
    if len(word) != 2 or word[0] not in COLUMN_LETTERS or word[1] not in "1234":
        raise IllegalActionError(
            f"unknown peg {text.strip()!r}: a peg is a column a-d and a row 1-4, e.g. b3"
        )
    return (int(word[1]) - 1) * SIZE + COLUMN_LETTERS.index(word[0])


def _directions() -> list[tuple[int, int, int]]:
    """One of each pair of opposite directions among the 26 neighbours."""
    out = []
    for dx in (-1, 0, 1):
        for dy in (-1, 0, 1):
            for dz in (-1, 0, 1):
                d = (dx, dy, dz)
                if d != (0, 0, 0) and (-dx, -dy, -dz) not in out:
                    out.append(d)
    return out


def _lines() -> list[tuple[int, ...]]:
    lines = set()
    for dx, dy, dz in _directions():
        for x in range(SIZE):
            for y in range(SIZE):
                for z in range(SIZE):
                    pts = [(x + i * dx, y + i * dy, z + i * dz) for i in range(SIZE)]
                    if all(0 <= c < SIZE for p in pts for c in p):
                        lines.add(tuple(sorted(cell(*p) for p in pts)))
    return sorted(lines)


LINES: tuple[tuple[int, ...], ...] = tuple(_lines())
"""The 76 winning lines, each as four cell indices in increasing order."""
LINE_MASKS = np.array([sum(1 << c for c in line) for line in LINES], dtype=np.uint64)

LINES_THROUGH = np.full((CELLS, 7), -1, dtype=np.int64)
"""For each cell, the indices of the lines through it (at most 7; -1 pads)."""
for _i, _line in enumerate(LINES):
    for _c in _line:
        _slot = int(np.argmax(LINES_THROUGH[_c] < 0))
        LINES_THROUGH[_c, _slot] = _i
LINE_COUNT = (LINES_THROUGH >= 0).sum(axis=1).astype(np.int64)


def line_kind(line: tuple[int, ...]) -> str:
    """``straight``, ``planar`` (a diagonal within a plane) or ``space`` (corner to corner)."""
    coords = [(c % SIZE, (c // SIZE) % SIZE, c // PEGS) for c in line]
    varying = sum(len({p[k] for p in coords}) > 1 for k in range(3))
    return {1: "straight", 2: "planar", 3: "space"}[varying]


def _peg_symmetries() -> np.ndarray:
    """The 8 symmetries of the square acting on pegs: ``SYM_PEG[k, peg]``."""
    # (flip x, flip y, swap x and y) for each of the 8 symmetries of the square
    maps = [
        (fx, fy, swap) for swap in (False, True) for fy in (False, True) for fx in (False, True)
    ]
    out = np.zeros((8, PEGS), dtype=np.int64)
    for k, (fx, fy, swap) in enumerate(maps):
        for peg in range(PEGS):
            x, y = peg % SIZE, peg // SIZE
            x, y = (3 - x if fx else x), (3 - y if fy else y)
            x, y = (y, x) if swap else (x, y)
            out[k, peg] = y * SIZE + x
    return out


SYM_PEG = _peg_symmetries()
"""``SYM_PEG[k, peg]``: where symmetry ``k`` (0 = identity) sends a peg."""
SYM_PEG_INV = np.argsort(SYM_PEG, axis=1).astype(np.int64)
"""``SYM_PEG_INV[k, SYM_PEG[k, peg]] == peg``."""
SYM_CELL = np.array(
    [[z * PEGS + SYM_PEG[k, c % PEGS] for z in range(SIZE) for c in range(PEGS)] for k in range(8)],
    dtype=np.int64,
)
"""``SYM_CELL[k, cell]``: where symmetry ``k`` sends a cell (levels are kept)."""


def transform(mask: int, k: int) -> int:
    """A bead mask under symmetry ``k``."""
    out = 0
    while mask:
        low = mask & -mask
        out |= 1 << int(SYM_CELL[k, low.bit_length() - 1])
        mask ^= low
    return out


def playable(occupied: int) -> int:
    """The empty cells a bead can drop into now (one per peg that is not full)."""
    full = (1 << CELLS) - 1
    return ~occupied & ((occupied << PEGS) | LEVEL0) & full
