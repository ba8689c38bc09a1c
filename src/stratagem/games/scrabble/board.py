"""The 15x15 board: premium squares, placements, and a plain (slow) scorer.

The scorer here is written for clarity, square by square; the move generator
in :mod:`stratagem.games.scrabble._kernels` computes the same scores its own
way, and the tests check one against the other.

Coordinates are (row, col), 0-14. In text, a move is written the usual way:
an across move as row number then column letter (``8H``), a down move as
column letter then row number (``H8``).

>>> int(WORD_MULT[7, 7]), int(WORD_MULT[0, 0]), int(LETTER_MULT[1, 5])
(2, 3, 3)
>>> parse_coordinate("8H"), parse_coordinate("h8")
((7, 7, True), (7, 7, False))
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from stratagem.core.errors import IllegalActionError, InvalidStateError
from stratagem.games.scrabble.tiles import BLANK_FLAG, TileSet

SIZE = 15
CENTER = (7, 7)
RACK_SIZE = 7
BINGO = 50
COLUMNS = "ABCDEFGHIJKLMNO"

# T triple word, D double word (and the centre star), t triple letter, d double letter.
_TOP_LEFT = (
    "T..d...T",
    ".D...t..",
    "..D...d.",
    "d..D...d",
    "....D...",
    ".t...t..",
    "..d...d.",
    "T..d...D",
)


def _layout() -> list[str]:
    half = [row + row[-2::-1] for row in _TOP_LEFT]  # mirror the columns
    return half + half[-2::-1]  # mirror the rows


PREMIUM_ROWS: tuple[str, ...] = tuple(_layout())
"""The standard layout, one string per row (``T D t d .``)."""

LETTER_MULT = np.array(
    [[{"t": 3, "d": 2}.get(ch, 1) for ch in row] for row in PREMIUM_ROWS], dtype=np.int32
)
WORD_MULT = np.array(
    [[{"T": 3, "D": 2}.get(ch, 1) for ch in row] for row in PREMIUM_ROWS], dtype=np.int32
)


def empty_board() -> np.ndarray:
    """A (15, 15) int8 array of ``-1``."""
    return np.full((SIZE, SIZE), -1, dtype=np.int8)


def coordinate(row: int, col: int, across: bool) -> str:
    """``8H`` for an across move from row 7, col 7; ``H8`` for a down move; a square off
    the board is written ``(row, col)`` from 0."""
    if not (0 <= row < SIZE and 0 <= col < SIZE):
        return f"({row}, {col})"
    return f"{row + 1}{COLUMNS[col]}" if across else f"{COLUMNS[col]}{row + 1}"


def parse_coordinate(text: str) -> tuple[int, int, bool]:
    """``8H`` -> (7, 7, across), ``H8`` -> (7, 7, down); bad text raises."""
    t = text.strip().upper()
    bad = IllegalActionError(
        f"cannot read square {text!r}: write row then column (8H) for an across move, "
        "column then row (H8) for a down move; rows 1-15, columns A-O"
    )
    if len(t) < 2:
        raise bad
    if t[0].isdigit():
        digits, letter, across = t[:-1], t[-1], True
    else:
        letter, digits, across = t[0], t[1:], False
    if not digits.isdigit() or letter not in COLUMNS or not 1 <= int(digits) <= SIZE:
        raise bad
    return int(digits) - 1, COLUMNS.index(letter), across


@dataclass(frozen=True)
class Placement:
    """Tiles laid in one line: the whole main word from its first square, and its score.

    ``word`` includes the letters already on the board; blanks are lower case.
    ``str`` gives ``8H QUIZ 48``.
    """

    row: int
    col: int
    across: bool
    word: str
    score: int

    def __str__(self) -> str:
        return f"{coordinate(self.row, self.col, self.across)} {self.word} {self.score}"

    @property
    def direction(self) -> str:
        return "across" if self.across else "down"

    def squares(self) -> list[tuple[int, int]]:
        dr, dc = (0, 1) if self.across else (1, 0)
        return [(self.row + i * dr, self.col + i * dc) for i in range(len(self.word))]

    def to_json(self) -> dict[str, object]:
        return {
            "row": self.row,
            "col": self.col,
            "direction": self.direction,
            "word": self.word,
            "score": self.score,
        }


def new_tiles(
    board: np.ndarray, placement: Placement, tiles: TileSet
) -> list[tuple[int, int, int]]:
    """The ``(row, col, code)`` of the tiles a placement lays; the board must agree with it."""
    out = []
    for (r, c), char in zip(placement.squares(), placement.word):
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise IllegalActionError(
                f"{placement.word} at "
                f"{coordinate(placement.row, placement.col, placement.across)} runs off the board"
            )
        code = tiles.square_code(char)
        if code < 0:
            raise IllegalActionError(f"a word cannot hold '.', got {placement.word!r}")
        on_board = int(board[r, c])
        if on_board < 0:
            out.append((r, c, code))
        elif (on_board & (BLANK_FLAG - 1)) != (code & (BLANK_FLAG - 1)):
            raise IllegalActionError(
                f"{placement.word} at {coordinate(placement.row, placement.col, placement.across)}"
                f" needs {char.upper()} on {coordinate(r, c, True)}, but the board has "
                f"{tiles.square_text(on_board)} there"
            )
    return out


def _run(board: np.ndarray, r: int, c: int, dr: int, dc: int) -> tuple[int, int, int]:
    """The start and length of the line of tiles through (r, c) in direction (dr, dc)."""
    while 0 <= r - dr < SIZE and 0 <= c - dc < SIZE and board[r - dr, c - dc] >= 0:
        r, c = r - dr, c - dc
    n = 0
    while 0 <= r + n * dr < SIZE and 0 <= c + n * dc < SIZE and board[r + n * dr, c + n * dc] >= 0:
        n += 1
    return r, c, n


def score_tiles(
    board: np.ndarray,
    placed: Sequence[tuple[int, int, int]],
    tiles: TileSet,
    is_word: Callable[[str], bool] | None = None,
) -> tuple[int, list[str]]:
    """Check a set of new tiles and score them: ``(score, words formed)``.

    Independent of the move generator: it lays the tiles on a copy of the
    board, finds every word through them, and adds up letter values with the
    premiums of newly covered squares only. Raises
    :class:`IllegalActionError` naming the first rule broken.
    """
    if not placed:
        raise IllegalActionError("a placement must lay at least one tile")
    if len(placed) > RACK_SIZE:
        raise IllegalActionError(f"a placement lays at most {RACK_SIZE} tiles")
    rows = {r for r, _, _ in placed}
    cols = {c for _, c, _ in placed}
    if len(rows) > 1 and len(cols) > 1:
        raise IllegalActionError("the new tiles must lie in one row or one column")
    for r, c, _ in placed:
        if board[r, c] >= 0:
            raise IllegalActionError(f"square {coordinate(r, c, True)} is already taken")
    was_empty = not (board >= 0).any()
    after = board.copy()
    for r, c, code in placed:
        after[r, c] = code
    new = {(r, c) for r, c, _ in placed}
    across = len(rows) == 1 and (len(placed) > 1 or _run(after, *next(iter(new)), 0, 1)[2] > 1)
    dr, dc = (0, 1) if across else (1, 0)
    r0, c0, length = _run(after, placed[0][0], placed[0][1], dr, dc)
    main = {(r0 + i * dr, c0 + i * dc) for i in range(length)}
    if not new <= main:
        raise IllegalActionError("the new tiles must form one unbroken line with the board's")
    if length < 2:
        raise IllegalActionError("a word needs at least two letters")
    if was_empty:
        if CENTER not in new:
            raise IllegalActionError("the first word must cover the centre square (8H)")
    elif not any(
        0 <= r + a < SIZE and 0 <= c + b < SIZE and board[r + a, c + b] >= 0
        for r, c in new
        for a, b in ((1, 0), (-1, 0), (0, 1), (0, -1))
    ):
        raise IllegalActionError("the new tiles must touch a tile already on the board")

    def word_at(r: int, c: int, wr: int, wc: int, n: int) -> tuple[str, int]:
        text, total, mult = [], 0, 1
        for i in range(n):
            rr, cc = r + i * wr, c + i * wc
            code = int(after[rr, cc])
            text.append(tiles.square_text(code))
            value = 0 if code & BLANK_FLAG else tiles.values[code]
            if (rr, cc) in new:
                value *= int(LETTER_MULT[rr, cc])
                mult *= int(WORD_MULT[rr, cc])
            total += value
        return "".join(text), total * mult

    words = []
    word, score = word_at(r0, c0, dr, dc, length)
    words.append(word)
    for r, c in sorted(new):
        cr, cc, n = _run(after, r, c, dc, dr)  # the perpendicular line
        if n > 1:
            cross, points = word_at(cr, cc, dc, dr, n)
            words.append(cross)
            score += points
    if len(placed) == RACK_SIZE:
        score += BINGO
    if is_word is not None:
        for w in words:
            if not is_word(w.upper()):
                raise IllegalActionError(f"{w.upper()} is not in the lexicon")
    return score, words


def board_text(board: np.ndarray, tiles: TileSet) -> list[str]:
    """15 strings, ``.`` for empty squares and lower case for blanks."""
    return ["".join(tiles.square_text(int(x)) for x in row) for row in board]


def board_from_text(rows: Sequence[str], tiles: TileSet) -> np.ndarray:
    """The inverse of :func:`board_text`; raises :class:`InvalidStateError` on bad rows."""
    if len(rows) != SIZE:
        raise InvalidStateError(f"a board has {SIZE} rows, got {len(rows)}")
    board = empty_board()
    for r, row in enumerate(rows):
        if len(row) != SIZE:
            raise InvalidStateError(
                f"board row {r + 1} has {len(row)} squares, expected {SIZE}: {row!r}"
            )
        for c, char in enumerate(row):
            try:
                board[r, c] = tiles.square_code(char)
            except InvalidStateError as exc:
                raise InvalidStateError(f"board row {r + 1}, column {COLUMNS[c]}: {exc}") from None
    return board
