"""Every legal placement of a rack on a board, with exact scores (numba kernels).

The generator walks the lexicon's GADDAG (:mod:`._gaddag_kernels`) outwards
from the tiles on the board; ``MoveGenerator(lexicon, walk="dawg")`` walks the
DAWG from every square where a word may start instead (:mod:`._kernels`, the
first generator, kept as the reference that tests and the benchmark compare
against). Both return the same moves in the same order.

>>> from stratagem.games.scrabble.tiles import tile_set
>>> from stratagem.games.scrabble.lexicon import Lexicon
>>> from stratagem.games.scrabble.board import empty_board
>>> lex = Lexicon.from_words(["cat", "act", "at"], tile_set("english"))
>>> moves = generate_moves(empty_board(), tile_set("english").rack_counts("CAT"), lex)
>>> str(moves[0]), len(moves)
('8F ACT 10', 16)
"""

from __future__ import annotations

import copy
import threading
import weakref
from weakref import WeakKeyDictionary

import numpy as np

from stratagem.games.scrabble import _gaddag_kernels, _kernels
from stratagem.games.scrabble.board import (
    BINGO,
    LETTER_MULT,
    RACK_SIZE,
    SIZE,
    WORD_MULT,
    Placement,
)
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.tiles import BLANK_FLAG

_INITIAL_ROOM = 4096
_STEM_SEED = 0x5C4AB81E  # the random numbers whose sums are the words' letter signatures
# The premiums across ([0]) and down ([1], transposed): the GADDAG kernel's lines.
_LETTER_MULTS = np.ascontiguousarray(np.stack([LETTER_MULT, LETTER_MULT.T]))
_WORD_MULTS = np.ascontiguousarray(np.stack([WORD_MULT, WORD_MULT.T]))


def _square_texts(lexicon: Lexicon) -> list[str]:
    """Each square code's character (``TileSet.square_text``), indexed by the code: a word's
    text is then a list lookup a letter (a few µs less a best-only call than a call a
    letter)."""
    tiles = lexicon.tiles
    texts = [""] * (2 * BLANK_FLAG)
    for letter in range(tiles.size):
        for code in (letter, letter | BLANK_FLAG):
            texts[code] = tiles.square_text(code)
    return texts


class MoveGenerator:
    """Reusable buffers around the kernels for one lexicon (not thread-safe: use one a
    thread, :func:`move_generator`). Every array attribute is a buffer of its own; the
    lexicon's packed tables are held in tuples and shared by :meth:`sibling`."""

    def __init__(self, lexicon: Lexicon, walk: str = "gaddag") -> None:
        if walk not in ("gaddag", "dawg"):
            raise ValueError(f"walk must be 'gaddag' or 'dawg', not {walk!r}")
        if walk == "gaddag" and lexicon.gaddag is None:
            raise ValueError("this lexicon has no GADDAG; build it with Lexicon.from_words")
        # weakly: the generators' caches are keyed weakly by the lexicon, and a strong
        # reference from the value would keep every lexicon ever loaded (65 MB for ENABLE)
        self._lexicon = weakref.ref(lexicon)
        self.walk = walk
        values = lexicon.tiles.values_array
        nletters = lexicon.tiles.size
        # The kernels take the lexicon as a plain tuple of its named tuple's fields: numba
        # types a plain tuple argument in C, a named one in Python (2 µs more a call).
        self._dawg = tuple(
            _kernels.Dawg(lexicon.child, lexicon.terminal, lexicon.mask, lexicon.root, values,
                          nletters)
        )  # fmt: skip
        if lexicon.gaddag is not None:
            g_child, g_terminal, _, _ = lexicon.gaddag
            rows, shift = _gaddag_kernels.pack(g_child, g_terminal)
            self._gaddag = tuple(_gaddag_kernels.Gaddag(rows, int(shift), values, nletters))
            # the words a rack's 7 tiles may spell with the line's tiles, by their letters:
            # a best-only walk alive only by the bingo bonus finds its bingos from these
            hashes = np.random.default_rng(_STEM_SEED).integers(
                0, np.iinfo(np.uint64).max, nletters, dtype=np.uint64, endpoint=True
            )
            sigs, words, lengths = _gaddag_kernels.bingo_stems(
                lexicon.child, lexicon.terminal, lexicon.root, hashes, RACK_SIZE
            )
            seen = _gaddag_kernels.stems_seen(sigs)
            self._stems = tuple(_gaddag_kernels.Stems(sigs, words, lengths, hashes, seen))
        self._info = np.zeros((_INITIAL_ROOM, _kernels.INFO_FIELDS), dtype=np.int32)
        self._word = np.zeros((_INITIAL_ROOM, SIZE), dtype=np.int8)
        self._order = np.zeros(_INITIAL_ROOM, dtype=np.int64)
        self._best = np.zeros(_kernels.INFO_FIELDS + SIZE, dtype=np.int32)
        self._empty_info = np.zeros((0, _kernels.INFO_FIELDS), dtype=np.int32)
        self._empty_word = np.zeros((0, SIZE), dtype=np.int8)
        self._square_texts = _square_texts(lexicon)

    @property
    def lexicon(self) -> Lexicon:
        """The lexicon this generator was built for (the generator holds its tables, not
        the lexicon: raises ``ReferenceError`` once nothing else holds it)."""
        lexicon = self._lexicon()
        if lexicon is None:
            raise ReferenceError("this generator's lexicon is no longer held anywhere")
        return lexicon

    def _run(self, board: np.ndarray, rack: np.ndarray, best_only: bool, sort: bool = True) -> int:
        info, word = (self._empty_info, self._empty_word) if best_only else (self._info, self._word)
        rack = rack.astype(np.int32, copy=False)
        if self.walk == "gaddag":
            return int(
                _gaddag_kernels.generate(
                    self._gaddag, self._stems, board, _LETTER_MULTS, _WORD_MULTS, rack, BINGO,
                    best_only, sort, info, word, self._order, self._best,
                )
            )  # fmt: skip
        return int(
            _kernels.generate(
                self._dawg, board, LETTER_MULT, WORD_MULT, rack, BINGO, best_only, info, word,
                self._best,
            )
        )  # fmt: skip

    def _word_text(self, codes: np.ndarray) -> str:
        texts = self._square_texts
        return "".join([texts[x] for x in codes.tolist()])

    def _all(self, board: np.ndarray, rack: np.ndarray, sort: bool) -> int:
        count = self._run(board, rack, False, sort)
        if count > self._info.shape[0]:
            room = 1 << int(count).bit_length()
            self._info = np.zeros((room, _kernels.INFO_FIELDS), dtype=np.int32)
            self._word = np.zeros((room, SIZE), dtype=np.int8)
            self._order = np.zeros(room, dtype=np.int64)
            count = self._run(board, rack, False, sort)
        return count

    def found(self, board: np.ndarray, rack: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The moves of :meth:`raw` in the order the walk found them (the DAWG walk's order
        with ``walk="dawg"``): cheaper by the sort (12-15% of a call with a blank), for
        players that rank the moves anyway and break ties with :func:`rank` (which
        reproduces :meth:`raw`'s order)."""
        count = self._all(board, rack, False)
        return self._info[:count].copy(), self._word[:count].copy()

    def raw(self, board: np.ndarray, rack: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """All moves as arrays: ``info`` (row, col, down, length, score, laid) and word codes,
        in the DAWG walk's order."""
        count = self._all(board, rack, True)
        if self.walk == "dawg" or count == 0:
            return self._info[:count].copy(), self._word[:count].copy()
        # the GADDAG walk's moves into the DAWG walk's order (np.take: a[order] on 2-D
        # arrays took over ten times longer here)
        order = self._order[:count]
        return np.take(self._info, order, axis=0), np.take(self._word, order, axis=0)

    def moves(self, board: np.ndarray, rack: np.ndarray) -> list[Placement]:
        """Every legal placement, highest score first (ties in generation order)."""
        info, words = self.raw(board, rack)
        order = np.argsort(-info[:, _kernels.SCORE], kind="stable")
        out = []
        for k in order:
            row, col, down, length, score, _ = (int(x) for x in info[k])
            text = self._word_text(words[k, :length])
            out.append(Placement(row, col, not down, text, score))
        return out

    def sibling(self) -> MoveGenerator:
        """A generator on the same packed lexicon with buffers of its own (for another
        thread): the tables are shared, every array attribute is copied."""
        other = copy.copy(self)
        for name, value in vars(self).items():
            if isinstance(value, np.ndarray):
                setattr(other, name, value.copy())
        return other

    def best(self, board: np.ndarray, rack: np.ndarray) -> Placement | None:
        """The highest-scoring placement (the first generated among equals), or ``None``.

        Cheaper than :meth:`raw`: the kernel bounds each walk's best score and skips the
        walks that cannot reach the best found (``_gaddag_kernels._bound``)."""
        self._run(board, rack, True)
        b = self._best
        fields = b[: _kernels.INFO_FIELDS].tolist()
        length = fields[_kernels.LENGTH]
        if length == 0:
            return None
        text = self._word_text(b[_kernels.INFO_FIELDS : _kernels.INFO_FIELDS + length])
        row, col, down, score = (
            fields[f] for f in (_kernels.ROW, _kernels.COL, _kernels.DOWN, _kernels.SCORE)
        )
        return Placement(row, col, not down, text, score)


def rank(
    info: np.ndarray,
    word: np.ndarray,
    moves: np.ndarray,
    first: np.ndarray,
    second: np.ndarray | None,
    nletters: int,
) -> np.ndarray:
    """``moves`` (indices of rows of ``info``, ``word``, e.g. from
    :meth:`MoveGenerator.found`) sorted by ``first`` downwards, then ``second`` downwards
    (arrays over all the rows; None: no second key), then the DAWG walk's order: the
    order a stable sort by (``first``, ``second``) gives :meth:`MoveGenerator.raw`'s
    moves. A player wanting its few best moves passes only the moves that can be among
    them, and never sorts the rest."""
    moves = np.asarray(moves, dtype=np.int64)
    a = np.ascontiguousarray(first[moves], dtype=np.float64)
    b = (
        np.zeros(moves.shape[0])
        if second is None
        else np.ascontiguousarray(second[moves], dtype=np.float64)
    )
    return _gaddag_kernels.rank(info, word, moves, a, b, nletters)  # type: ignore[no-any-return]


_GENERATORS: WeakKeyDictionary[Lexicon, MoveGenerator] = WeakKeyDictionary()


_THREADS = threading.local()
_BUILDING = threading.Lock()


def move_generator(lexicon: Lexicon) -> MoveGenerator:
    """The calling thread's reusable generator for ``lexicon``: the packed GADDAG is built
    once per lexicon and shared, the buffers are the thread's own (a server's threads move
    and advise on one lexicon at once); a challenge game's list shares its plain list's."""
    if lexicon.plain is not None:
        lexicon = lexicon.plain
    mine: WeakKeyDictionary[Lexicon, MoveGenerator] | None = getattr(_THREADS, "generators", None)
    if mine is None:
        mine = _THREADS.generators = WeakKeyDictionary()
    gen = mine.get(lexicon)
    if gen is None:
        with _BUILDING:
            first = _GENERATORS.get(lexicon)
            if first is None:
                gen = _GENERATORS[lexicon] = MoveGenerator(lexicon)
            else:
                gen = first.sibling()
        mine[lexicon] = gen
    return gen


def generate_moves(board: np.ndarray, rack: np.ndarray, lexicon: Lexicon) -> list[Placement]:
    """Every legal placement of ``rack`` (counts, blank last) on ``board``, best first."""
    return move_generator(lexicon).moves(board, rack)
