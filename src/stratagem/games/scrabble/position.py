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

import numpy as np

from stratagem.core.errors import InvalidStateError
from stratagem.games.scrabble.board import RACK_SIZE, SIZE, board_from_text
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.tiles import BLANK_FLAG

KEYS = ("tiles", "to_move", "scores", "racks", "scoreless", "bag", "turn", "board")


def _ints(key: str, text: str) -> list[int]:
    try:
        return [int(x) for x in text.split()]
    except ValueError:
        raise InvalidStateError(f"position: {key} takes whole numbers, got {text!r}") from None


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
    turn = _ints("turn", fields.get("turn", "1"))
    used = np.zeros(tiles.size + 1, dtype=np.int64)
    for code in board.ravel():
        if code >= 0:
            used[tiles.size if code & BLANK_FLAG else code] += 1
    for rack in racks:
        used += np.array(rack)
    full = tiles.bag_counts.astype(np.int64)
    if "bag" in fields:
        bag = tiles.rack_counts(fields["bag"], max_tiles=tiles.total_tiles).astype(np.int64)
        used_all = used + bag
    else:
        bag = full - used
        used_all = used
    over = np.flatnonzero(used_all > full)
    if over.size:
        i = int(over[0])
        name = tiles.letters[i] if i < tiles.size else "? (blank)"
        raise InvalidStateError(
            f"position uses {int(used_all[i])} {name} tiles; "
            f"the {tiles.name} set has {int(full[i])}"
        )
    return ScrabbleState(
        lexicon,
        board.tobytes(),
        tuple(racks),
        tuple(int(x) for x in bag),
        tuple(scores),
        player=to_move[0],
        turn=max(turn[0], 1) if turn else 1,
        scoreless=scoreless[0] if scoreless else 0,
        bingos=(0,) * players,
    )


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
