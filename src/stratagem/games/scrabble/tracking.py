"""Tile tracking: the tiles a player has not seen (the opponents' racks and the bag).

Every tile of the set is on the board, on the player's rack, or unseen. A club
player counts the unseen tiles to know what can still come (is the last S
out? are the blanks gone?) and, once the bag is empty, to know the opponent's
rack exactly: with two players and an empty bag the unseen tiles *are* the
opponent's rack, which is what makes the endgame a game of perfect information.

>>> from stratagem.games.scrabble.board import empty_board
>>> from stratagem.games.scrabble.tiles import tile_set
>>> ts = tile_set("english")
>>> t = track(ts, empty_board(), ts.rack_counts("QUIZ???"[:6]), opponent_tiles=7)
>>> t.unseen_total, t.bag, t.count("Q"), t.count("?")
(94, 87, 0, 0)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from stratagem.core.errors import InvalidStateError
from stratagem.games.scrabble.board import RACK_SIZE
from stratagem.games.scrabble.tiles import BLANK_CHAR, BLANK_FLAG, TileSet

VOWELS = {
    "english": frozenset("AEIOU"),
    "czech": frozenset("AÁEÉĚIÍOÓUÚŮYÝ"),
}
"""The vowels of each tile set (Y is a vowel in Czech, a consonant in English play);
a blank is neither."""


def vowels_of(tiles: TileSet) -> frozenset[str]:
    """The vowels of ``tiles`` (a set not listed: the Latin five and their accented forms)."""
    known = VOWELS.get(tiles.name)
    if known is not None:
        return known
    import unicodedata

    plain = {ch: unicodedata.normalize("NFD", ch)[0] for ch in tiles.letters}
    return frozenset(ch for ch, base in plain.items() if base in "AEIOU")


@dataclass(frozen=True)
class Tracking:
    """The unseen tiles of one player's view, by letter (blank last), and what they imply."""

    tiles: TileSet
    unseen: tuple[int, ...]
    """Count of each tile not on the board nor on the player's rack (letters, blank last)."""
    opponent_tiles: int
    """How many tiles the opponents hold together (the rest of the unseen are in the bag)."""

    @property
    def unseen_total(self) -> int:
        return sum(self.unseen)

    @property
    def bag(self) -> int:
        """Tiles in the bag: the unseen ones less the opponents' racks."""
        return self.unseen_total - self.opponent_tiles

    def count(self, letter: str) -> int:
        """Unseen tiles of ``letter`` (``?`` for the blank)."""
        if letter == BLANK_CHAR:
            return self.unseen[self.tiles.size]
        i = self.tiles.letter_index(letter)
        if i is None:
            raise InvalidStateError(f"{letter!r} is not a tile of the {self.tiles.name} set")
        return self.unseen[i]

    @property
    def vowels(self) -> int:
        v = vowels_of(self.tiles)
        return sum(n for ch, n in zip(self.tiles.letters, self.unseen) if ch in v)

    @property
    def blanks(self) -> int:
        return self.unseen[self.tiles.size]

    @property
    def consonants(self) -> int:
        return self.unseen_total - self.vowels - self.blanks

    @property
    def text(self) -> str:
        """The unseen tiles as a rack text (``AAB...?``), letters in set order, blanks last."""
        return self.tiles.rack_text(self.unseen)

    @property
    def opponent_rack_known(self) -> bool:
        """True when the bag is empty: the unseen tiles are the opponent's rack."""
        return self.bag == 0

    def by_letter(self) -> list[tuple[str, int, int]]:
        """``(letter, unseen, in the set)`` for each tile, blank last as ``?``."""
        names = [*self.tiles.letters, BLANK_CHAR]
        full = self.tiles.bag_counts
        return [(names[i], self.unseen[i], int(full[i])) for i in range(len(names))]

    def grid(self) -> str:
        """The unseen tiles written letter by letter (``A4 B1 ... ?1``), gone ones left out."""
        return " ".join(f"{ch}{n}" for ch, n, _ in self.by_letter() if n)

    def summary(self) -> str:
        """One line for a player: unseen count, bag, vowels/consonants/blanks."""
        bag = f"bag {self.bag}" if self.bag else "bag empty: the opponent holds them"
        return (
            f"unseen {self.unseen_total} ({bag}); vowels {self.vowels}, "
            f"consonants {self.consonants}, blanks {self.blanks}"
        )

    def to_json(self) -> dict[str, object]:
        return {
            "unseen": self.text,
            "by_letter": [{"letter": ch, "unseen": n, "total": t} for ch, n, t in self.by_letter()],
            "unseen_total": self.unseen_total,
            "bag": self.bag,
            "opponent_tiles": self.opponent_tiles,
            "vowels": self.vowels,
            "consonants": self.consonants,
            "blanks": self.blanks,
        }


def board_counts(tiles: TileSet, board: np.ndarray) -> np.ndarray:
    """How many of each tile (letters, blank last) stand on ``board``."""
    used = np.zeros(tiles.size + 1, dtype=np.int64)
    codes = board[board >= 0].astype(np.int64)
    blank = (codes & BLANK_FLAG) != 0
    np.add.at(used, codes[~blank], 1)
    used[tiles.size] += int(blank.sum())
    return used


def unseen_counts(tiles: TileSet, board: np.ndarray, rack: np.ndarray) -> np.ndarray:
    """The set's tiles less the board's and the rack's; refuses more than the set holds."""
    seen = board_counts(tiles, board) + np.asarray(rack, dtype=np.int64)
    rest: np.ndarray = tiles.bag_counts.astype(np.int64) - seen
    if (rest < 0).any():
        i = int(np.flatnonzero(rest < 0)[0])
        name = tiles.letters[i] if i < tiles.size else "? (blank)"
        raise InvalidStateError(
            f"the board and the rack hold {int(seen[i])} {name} tiles; the {tiles.name} set "
            f"has {int(tiles.bag_counts[i])}"
        )
    return rest


def track(
    tiles: TileSet, board: np.ndarray, rack: np.ndarray, opponent_tiles: int | None = None
) -> Tracking:
    """The unseen tiles seen from a player with ``rack``; ``opponent_tiles`` (default: a full
    rack, or all the unseen tiles when fewer) is how many the opponent holds."""
    rest = unseen_counts(tiles, board, rack)
    total = int(rest.sum())
    held = min(RACK_SIZE, total) if opponent_tiles is None else opponent_tiles
    if not 0 <= held <= min(total, RACK_SIZE * 3):
        raise InvalidStateError(
            f"the opponents hold {held} tiles; with {total} unseen they hold 0 to "
            f"{min(total, RACK_SIZE * 3)}"
        )
    return Tracking(tiles, tuple(int(x) for x in rest), held)


def track_state(state: object, player: int) -> Tracking:
    """:func:`track` of a :class:`~stratagem.games.scrabble.state.ScrabbleState` from
    ``player``'s seat (what that player may know: the board and their own rack)."""
    from stratagem.games.scrabble.state import ScrabbleState

    assert isinstance(state, ScrabbleState)
    others = sum(sum(r) for q, r in enumerate(state.racks) if q != player)
    return track(state.tiles, state.board_array, state.rack_array(player), others)


def parse_unseen(tiles: TileSet, text: str) -> np.ndarray:
    """Counts of an unseen-tiles text (``AEEIRST?``, spaces ignored); a tile not in the set,
    or more of one than the set has, is refused."""
    cleaned = "".join(text.split())
    counts: np.ndarray = tiles.rack_counts(cleaned, max_tiles=tiles.total_tiles)
    return counts.astype(np.int64)
