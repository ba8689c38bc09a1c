"""Positions as plain text, to save, share and test.

The format is ``key: value`` lines and a board of 15 rows (``.`` empty, upper
case for tiles, lower case for blanks). Blank lines and ``#`` comments are
ignored. Only ``board:`` is required::

    # stratagem scrabble position
    tiles: english
    to_move: 0
    scores: 12 0
    racks: AEINRST ?BDEILO
    scoreless: 0
    turn: 12            (optional: the moves played; by default one per 4 tiles on the board)
    bag: ...            (optional: by default every tile not on the board or a rack)
    board:
    ...............
    (15 rows)

``racks`` lists one rack per player (2-4 players), ``-`` for an empty rack.

>>> from stratagem.games.scrabble.lexicon import Lexicon
>>> from stratagem.games.scrabble.tiles import tile_set
>>> lex = Lexicon.from_words(["cat"], tile_set("english"))
>>> rows = ["." * 15] * 7 + [".......CAt....."] + ["." * 15] * 7
>>> text = "racks: CAT? -\\nboard:\\n" + "\\n".join(rows)
>>> s = read_position(text, lex)
>>> s.rack_text(0), s.bag_size(), s.board_rows()[7]
('ATC?', 93, '.......CAt.....')
>>> read_position(write_position(s), lex) == s
True
"""

from __future__ import annotations

import warnings

import numpy as np

from stratagem.core.errors import InvalidStateError
from stratagem.games.scrabble.board import CENTER, RACK_SIZE, SIZE, board_from_text
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.state import SCORELESS_LIMIT, ScrabbleState
from stratagem.games.scrabble.tiles import BLANK_FLAG, TileSet

MAX_TURN = 1000
"""Most moves a position may say were played: every move that is not scoreless lays a tile
(100 at most), and six scoreless turns in a row end the game, so no game reaches ~610."""
MAX_SCORE = 100_000
"""Highest score a position may give a player (far above any game: a move scores < 2,000)."""
TILES_PER_MOVE = 4
"""Without a ``turn:`` line, the moves played are taken as one per this many tiles on the
board (at least 1): the players' phase (opening, development...) depends on it."""

POSITION_LIMIT = 1 << 16
"""Largest position file read (64 KiB; a position is about 400 bytes)."""
KEYS = ("tiles", "to_move", "scores", "racks", "scoreless", "bag", "turn", "board")


def _ints(key: str, text: str) -> list[int]:
    try:
        return [int(x) for x in text.split()]
    except ValueError:
        raise InvalidStateError(f"position: {key} takes whole numbers, got {text!r}") from None


def tiles_on_board(tiles: TileSet, board: np.ndarray) -> np.ndarray:
    """How many of each tile (letters, then the blank last) stand on ``board``."""
    used = np.zeros(tiles.size + 1, dtype=np.int64)
    for code in board.ravel():
        if code >= 0:
            used[tiles.size if code & BLANK_FLAG else code] += 1
    return used


def check_within_set(tiles: TileSet, used: np.ndarray, what: str) -> None:
    """Refuse counts (per tile, blank last) that the tile set does not have:
    ``{what} N X tiles; the <set> set has M``."""
    over = np.flatnonzero(used > tiles.bag_counts)
    if over.size:
        i = int(over[0])
        name = tiles.letters[i] if i < tiles.size else "? (blank)"
        raise InvalidStateError(
            f"{what} {int(used[i])} {name} tiles; the {tiles.name} set has "
            f"{int(tiles.bag_counts[i])}"
        )


def read_position(text: str, lexicon: Lexicon) -> ScrabbleState:
    """Parse a position; every problem raises :class:`InvalidStateError` saying which line."""
    tiles = lexicon.tiles
    fields: dict[str, str] = {}
    rows: list[str] | None = None
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if rows is not None and len(rows) < SIZE:
            rows.append(line.replace(" ", ""))
            continue
        key, colon, value = line.partition(":")
        key = key.strip().lower()
        if not colon or key not in KEYS:
            raise InvalidStateError(
                f"position line {number}: cannot read {raw.strip()!r}; "
                f"write key: value with a key among {', '.join(KEYS)}"
            )
        if key in fields or (key == "board" and rows is not None):
            raise InvalidStateError(f"position line {number}: {key} is given twice")
        if key == "board":
            rows = []
        else:
            fields[key] = value.strip()
    if rows is None:
        raise InvalidStateError("position: no 'board:' section")
    if len(rows) < SIZE:
        raise InvalidStateError(f"position: the board has {len(rows)} rows, expected {SIZE}")
    if "tiles" in fields and fields["tiles"].lower() != tiles.name:
        raise InvalidStateError(
            f"position is for the {fields['tiles']} tiles but the lexicon is {tiles.name}"
        )
    board = board_from_text(rows, tiles)
    rack_texts = fields.get("racks", "- -").split()
    players = len(rack_texts)
    if not 2 <= players <= 4:
        raise InvalidStateError(
            f"position: racks lists {players} racks; Scrabble takes 2-4 players"
        )
    racks = [
        tuple(int(x) for x in tiles.rack_counts("" if r == "-" else r, RACK_SIZE))
        for r in rack_texts
    ]
    scores = _ints("scores", fields.get("scores", " ".join(["0"] * players)))
    if len(scores) != players:
        raise InvalidStateError(f"position: {len(scores)} scores for {players} racks")
    to_move = _ints("to_move", fields.get("to_move", "0"))
    if len(to_move) != 1 or not 0 <= to_move[0] < players:
        raise InvalidStateError(f"position: to_move must be a player 0-{players - 1}")
    scoreless = _ints("scoreless", fields.get("scoreless", "0"))
    board_tiles = int(np.count_nonzero(board >= 0))
    turn = _ints("turn", fields.get("turn", str(max(1, board_tiles // TILES_PER_MOVE))))
    if any(score < 0 for score in scores):
        raise InvalidStateError(
            f"position: scores {scores} include a negative one; before the game ends every "
            "score is >= 0"
        )
    if len(scoreless) != 1 or not 0 <= scoreless[0] < SCORELESS_LIMIT:
        raise InvalidStateError(
            f"position: scoreless counts the scoreless turns in a row, 0..{SCORELESS_LIMIT - 1} "
            f"(the game ends at {SCORELESS_LIMIT}), got {fields.get('scoreless')!r}"
        )
    # 0 at the start of a game: write_position writes it, so read_position reads it back
    if len(turn) != 1 or not 0 <= turn[0] <= MAX_TURN:
        raise InvalidStateError(
            f"position: turn is one whole number 0..{MAX_TURN} (the moves played), "
            f"got {fields.get('turn')!r}"
        )
    if any(score > MAX_SCORE for score in scores):
        raise InvalidStateError(
            f"position: scores {scores} include one above {MAX_SCORE:,}, which no game reaches"
        )
    check_board_shape(board)
    used = tiles_on_board(tiles, board)
    for rack in racks:
        used += np.array(rack)
    full = tiles.bag_counts.astype(np.int64)
    if "bag" in fields:
        bag = tiles.rack_counts(fields["bag"], max_tiles=tiles.total_tiles, what="bag").astype(
            np.int64
        )
        used_all = used + bag
    else:
        bag = full - used
        used_all = used
    check_within_set(tiles, used_all, "position uses")
    state = ScrabbleState(
        lexicon,
        board.tobytes(),
        tuple(racks),
        tuple(int(x) for x in bag),
        tuple(scores),
        player=to_move[0],
        turn=turn[0],
        scoreless=scoreless[0],
        bingos=(0,) * players,
    )
    lacking = unknown_words(state)
    if lacking:
        warnings.warn(
            f"the lexicon lacks {len(lacking)} word(s) on the board: {', '.join(lacking[:20])}"
            f"{' ...' if len(lacking) > 20 else ''} (kept as played: a phony that stood or "
            "a word of another dictionary)",
            UserWarning,
            stacklevel=2,
        )
    return state


def check_board_shape(board: np.ndarray) -> None:
    """Raise :class:`InvalidStateError` unless the tiles can stand after legal play: none,
    or at least two that cover the centre square and hang together in one group."""
    filled = board >= 0
    count = int(filled.sum())
    if count == 0:
        return
    if count == 1:
        raise InvalidStateError(
            "position: the board holds a single tile; the first word has at least two"
        )
    if not filled[CENTER]:
        raise InvalidStateError(
            "position: no tile covers the centre square (8H), where the first word is played"
        )
    seen = np.zeros_like(filled)
    stack = [CENTER]
    seen[CENTER] = True
    while stack:
        r, c = stack.pop()
        for nr, nc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)):
            if 0 <= nr < SIZE and 0 <= nc < SIZE and filled[nr, nc] and not seen[nr, nc]:
                seen[nr, nc] = True
                stack.append((nr, nc))
    apart = np.argwhere(filled & ~seen)
    if len(apart):
        r, c = (int(x) for x in apart[0])
        raise InvalidStateError(
            f"position: the tile at row {r + 1}, column {c + 1} is not connected to the tiles "
            "on the centre square; every word joins the ones already played"
        )


def board_words(board: np.ndarray, tiles: TileSet) -> list[str]:
    """Every word on the board: the runs of two or more tiles across and down."""
    words = []
    for grid in (board, board.T):
        for line in grid:
            run: list[str] = []
            for code in [*line.tolist(), -1]:
                if code >= 0:
                    run.append(tiles.letters[code & ~BLANK_FLAG])
                else:
                    if len(run) >= 2:
                        words.append("".join(run))
                    run = []
    return words


def unknown_words(state: ScrabbleState) -> list[str]:
    """Words on the board that the lexicon lacks (phonies that stood, other dictionaries)."""
    found = board_words(state.board_array, state.tiles)
    return sorted({w for w in found if w not in state.lexicon})


def write_position(state: ScrabbleState) -> str:
    """The text of a position (at a decision node), readable by :func:`read_position`."""
    tiles = state.tiles
    racks = " ".join(state.rack_text(p) or "-" for p in range(state.num_players))
    lines = [
        "# stratagem scrabble position",
        f"tiles: {tiles.name}",
        f"to_move: {state.player}",
        f"scores: {' '.join(str(s) for s in state.scores)}",
        f"racks: {racks}",
        f"scoreless: {state.scoreless}",
        f"turn: {state.turn}",
        f"bag: {tiles.rack_text(state.bag)}",
        "board:",
        *state.board_rows(),
    ]
    return "\n".join(lines) + "\n"
