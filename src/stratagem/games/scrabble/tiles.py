"""Tile sets (letters, counts, values) as data; other languages are one more entry.

A tile set numbers its letters 0..n-1 in the order given; the blank is index
``n`` in a rack. On the board a square holds ``-1`` (empty), a letter index,
or a letter index + :data:`BLANK_FLAG` for a blank played as that letter.

>>> ts = tile_set("english")
>>> ts.size, ts.total_tiles, ts.value("Q"), ts.blanks
(26, 100, 10, 2)
>>> ts.encode_word("quiz").tolist()
[24, 9, 2, 25]
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from stratagem.core.errors import InvalidRulesError, InvalidStateError, look_up

BLANK_FLAG = 64
"""Added to a letter index on the board when the tile there is a blank."""

BLANK_CHAR = "?"
"""How a blank is written in a rack or a bag."""

MAX_LETTERS = 63
"""Cross-check sets are 64-bit masks, so a tile set has at most 63 letters."""


@dataclass(frozen=True)
class TileSet:
    """The letters of one language with how many tiles of each and their values."""

    name: str
    letters: tuple[str, ...]
    counts: tuple[int, ...]
    values: tuple[int, ...]
    blanks: int = 2

    def __post_init__(self) -> None:
        if not (len(self.letters) == len(self.counts) == len(self.values)):
            raise InvalidRulesError(
                f"tile set {self.name}: letters, counts, values differ in length"
            )
        if len(self.letters) > MAX_LETTERS:
            raise InvalidRulesError(f"tile set {self.name}: at most {MAX_LETTERS} letters")
        if len(set(self.letters)) != len(self.letters):
            raise InvalidRulesError(f"tile set {self.name}: a letter is listed twice")
        for letter in self.letters:
            if len(letter) != 1 or letter != letter.upper() or not letter.isalpha():
                raise InvalidRulesError(
                    f"tile set {self.name}: {letter!r} is not one upper-case letter"
                )

    @property
    def size(self) -> int:
        """Number of distinct letters (the blank's rack index)."""
        return len(self.letters)

    @property
    def total_tiles(self) -> int:
        return sum(self.counts) + self.blanks

    @cached_property
    def index(self) -> dict[str, int]:
        """Upper-case letter -> index."""
        return {letter: i for i, letter in enumerate(self.letters)}

    @cached_property
    def square_codes(self) -> dict[str, int]:
        """Character -> :meth:`square_code` for each letter and its lower-case (blank)
        form; a lower case that does not turn back into its letter is left out."""
        out = {}
        for i, letter in enumerate(self.letters):
            out[letter] = i
            low = letter.lower()
            if len(low) == 1 and low != letter and low.upper() == letter:
                out[low] = i + BLANK_FLAG
        return out

    @cached_property
    def values_array(self) -> np.ndarray:
        """int32 values by letter index, with the blank (0) at index ``size``."""
        return np.array([*self.values, 0], dtype=np.int32)

    @cached_property
    def bag_counts(self) -> np.ndarray:
        """int32 counts by letter index, blanks at index ``size``: the full bag."""
        return np.array([*self.counts, self.blanks], dtype=np.int32)

    def value(self, letter: str) -> int:
        return self.values[self.index[letter.upper()]]

    def letter_index(self, char: str) -> int | None:
        """Index of a letter (either case), ``None`` when the set has no such letter."""
        return self.index.get(char.upper())

    def encode_word(self, word: str) -> np.ndarray:
        """Letter indices (int8) of a word; a foreign letter raises :class:`InvalidStateError`."""
        out = np.empty(len(word), dtype=np.int8)
        for i, char in enumerate(word):
            idx = self.index.get(char.upper())
            if idx is None:
                raise InvalidStateError(
                    f"{char!r} in {word!r} is not a letter of the {self.name} tile set "
                    f"({''.join(self.letters)})"
                )
            out[i] = idx
        return out

    def can_spell(self, word: str) -> bool:
        """True if the word uses only this set's letters, each within its count plus blanks."""
        shortfall = 0
        for char, n in Counter(word.upper()).items():
            idx = self.index.get(char)
            if idx is None:
                return False
            shortfall += max(0, n - self.counts[idx])
        return shortfall <= self.blanks

    def rack_counts(self, rack: str, max_tiles: int = 7, what: str = "rack") -> np.ndarray:
        """Counts (int32, blank last) of a rack such as ``AEIR?ST``; bad racks raise.

        ``what`` names the tiles in the messages (``"rack"``, ``"the exchange"``,
        ``"bag"``): tiles given back or left in the bag are not a rack to the player.

        >>> tile_set("english").rack_counts("ab?")[[1, 12, 26]].tolist()  # A, B, blank
        [1, 1, 1]
        >>> tile_set("english").rack_counts("ZZ", what="the exchange")  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        stratagem.core.errors.InvalidStateError: the exchange 'ZZ' holds more Z tiles than ...
        """
        text = rack.replace(" ", "")
        if len(text) > max_tiles:
            limit = "a rack holds" if what == "rack" else "it may hold"
            raise InvalidStateError(
                f"{what} {rack!r} holds {len(text)} tiles; {limit} at most {max_tiles}"
            )
        counts = np.zeros(self.size + 1, dtype=np.int32)
        for char in text:
            if char == BLANK_CHAR:
                counts[self.size] += 1
                continue
            idx = self.index.get(char.upper())
            if idx is None:
                raise InvalidStateError(
                    f"{char!r} in {what} {rack!r} is not a tile of the {self.name} set; "
                    f"the letters are {''.join(self.letters)} and {BLANK_CHAR} for a blank"
                )
            counts[idx] += 1
        over = [
            self.letters[i] if i < self.size else BLANK_CHAR
            for i in range(self.size + 1)
            if counts[i] > self.bag_counts[i]
        ]
        if over:
            raise InvalidStateError(
                f"{what} {rack!r} holds more {over[0]} tiles than the {self.name} set has"
            )
        return counts

    def rack_text(self, counts: np.ndarray | tuple[int, ...]) -> str:
        """The inverse of :meth:`rack_counts`: letters in set order, blanks last."""
        out = []
        for i, n in enumerate(counts):
            out.append((self.letters[i] if i < self.size else BLANK_CHAR) * int(n))
        return "".join(out)

    def square_text(self, code: int) -> str:
        """A board square's character: ``.`` empty, upper case, lower case for a blank."""
        if code < 0:
            return "."
        letter = self.letters[code & (BLANK_FLAG - 1)]
        return letter.lower() if code & BLANK_FLAG else letter

    def square_code(self, char: str) -> int:
        """The inverse of :meth:`square_text`; raises on a foreign character."""
        if char == ".":
            return -1
        idx = self.index.get(char.upper())
        if idx is None:
            raise InvalidStateError(
                f"{char!r} is not a letter of the {self.name} tile set ({''.join(self.letters)})"
            )
        return idx + BLANK_FLAG if char != char.upper() else idx


def _parse(spec: str) -> tuple[tuple[str, ...], tuple[int, ...], tuple[int, ...]]:
    """``"E12 A9 ...@1; D4 G3@2"`` -> letters, counts, values."""
    letters: list[str] = []
    counts: list[int] = []
    values: list[int] = []
    for group in spec.split(";"):
        tiles, _, value = group.strip().partition("@")
        for item in tiles.split():
            letters.append(item[0])
            counts.append(int(item[1:]))
            values.append(int(value))
    return tuple(letters), tuple(counts), tuple(values)


# The standard English distribution and the Czech 1993 edition (per the issue text).
_SPECS = {
    "english": "E12 A9 I9 O8 N6 R6 T6 L4 S4 U4@1; D4 G3@2; B2 C2 M2 P2@3; F2 H2 V2 W2 Y2@4;"
    " K1@5; J1 X1@8; Q1 Z1@10",
    "czech": "O6 A5 E5 N5 I4 S4 T4 V4 D3 K3 L3 P3 R3@1; C3 H3 Í3 M3 U3 Á2 J2 Y2 Z2@2;"
    " B2 É2 Ě2@3; Ř2 Š2 Ý2 Č1 Ů1 Ž1@4; F1 G1 Ú1@5; Ň1@6; Ó1 Ť1@7; Ď1@8; X1@10",
}

TILE_SETS: dict[str, TileSet] = {
    name: TileSet(name, *_parse(spec), blanks=2) for name, spec in _SPECS.items()
}

LANGUAGE_CODES = {"english": "en", "czech": "cs"}
"""wordfreq language code of each tile set (for the built-in lexicons)."""


def tile_set(name: str) -> TileSet:
    """The tile set called ``name`` (``english``, ``czech``)."""
    return look_up(TILE_SETS, name.lower(), "tile set", "tile sets")
