"""Superleaves: one value for every leave of 1-6 tiles, learned where self-play met it.

The shipped leave model (:mod:`.leaves`) is factored: per letter and copies,
vowel/consonant balance, letter pairs. It cannot price a bingo stem as a whole
(AEINST is worth 14.9 there). The open engines (Quackle, Macondo) keep one
value per multiset of 1-6 tiles instead, 914,624 of them in English, learned
from hundreds of millions of self-play moves. We cannot play that much here,
so a leave self-play met gets the factored value plus its own deviation,
shrunk by how often it was seen, and every other leave the factored value
(the *fallback*):

    value(L) = fallback(L) + n_L / (n_L + K) * mean residual of L

where a sample's residual is its target (the points of the same player's next
move plus the fallback's value of the leave after it, when that still counts:
:meth:`.leaves.SelfPlayRecords.targets`) minus the fallback's value of the leave
kept, minus the mean residual at the same stage of the game (the bag's size in
tens, as the factored fit's stage intercepts); ``K`` is the ratio of the
residuals' variance within a leave to the variance of the leaves' true
deviations from the fallback (empirical Bayes, estimated from the same data for
each leave size, where enough leaves of the size were met 20 times):
a leave seen ``K`` times is pulled halfway back to the fallback.

**Ranks.** Every leave of 0-6 tiles within the bag has a *rank*: its place
among all of them ordered by their counts tile by tile (:func:`leave_rank`),
0 for the empty leave and ``leave_count(tiles)`` in all, without a gap. A
*complete* table is one float32 value per rank, so a lookup is one index.

**Files** (version 2, built by ``experiments/scrabble_superleaves.py``): a
folder of ``header.json`` (the format, the tile set, how many leaves and how
it was made), ``values.npy`` (float32: one per rank when complete, else one
per learned leave), ``learned.npy`` (uint32: the sorted ranks of the leaves
self-play met) and ``samples.npy`` (uint32: how often each was met). The
``.npy`` files are memory-mapped, so loading reads only the header pages and
the checks. The shipped English table (``data/superleaves_english``) is
complete; the Czech one (``data/superleaves_czech``) holds the learned leaves
only (a complete Czech table would be 7.8 million values, 31 MB), the rest
answered by the factored model at lookup. Version 1 (``.npz``: 5-bit keys of
the learned leaves, the format before ranks) is still read.

>>> from stratagem.games.scrabble.tiles import tile_set
>>> english = tile_set("english")
>>> leave_count(english)
914625
>>> leave_rank(english.rack_counts(""), english), leave_rank(english.rack_counts("?"), english)
(0, 1)
"""

from __future__ import annotations

import io
import itertools
import json
import os
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from importlib.abc import Traversable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from stratagem.core.files import FileInputError, check_readable, read_user_bytes, write_atomic
from stratagem.games.scrabble import _heuristic_kernels as hkern
from stratagem.games.scrabble import _superleave_kernels as kern
from stratagem.games.scrabble.board import RACK_SIZE
from stratagem.games.scrabble.heuristic import ENDGAME_NODES, EquityAgent, Evaluator
from stratagem.games.scrabble.leaves import (
    STAGE_WIDTH,
    LeavesError,
    LeaveTable,
    SelfPlayRecords,
    shipped_leaves,
    table_values,
    vowels,
)
from stratagem.games.scrabble.movegen import MoveGenerator
from stratagem.games.scrabble.tiles import TileSet, tile_set

if TYPE_CHECKING:
    from stratagem.games.scrabble.lexicon import Lexicon

FORMAT = "stratagem-scrabble-superleaves"
VERSION = 2
"""Version 2: a folder of ``.npy`` files indexed by rank; version 1: ``.npz`` with 5-bit keys."""
VERSION_NPZ = 1
MAX_FILE_BYTES = 40_000_000
"""Per file: a complete Czech table (7.8 million float32 values) is 31 MB."""
MAX_HEADER_BYTES = 100_000
MAX_LEAVE = kern.MAX_LEAVE
MAX_ABS_VALUE = 200.0
"""No leave is worth 200 points either way: a larger value is a broken file."""
KEY_BITS = kern.KEY_BITS
ARRAYS = ("values", "learned", "samples")


class SuperleavesError(LeavesError):
    """A superleave file that is truncated, oversized, malformed, for another tile set, or
    holds leaves that cannot be (more copies than the bag has, more than 6 tiles)."""


# --- ranks ---------------------------------------------------------------------------------


@lru_cache(maxsize=8)
def _rank_table(caps: tuple[int, ...]) -> tuple[np.ndarray, int]:
    m = len(caps)
    fit = [[0] * (MAX_LEAVE + 1) for _ in range(m + 1)]  # vectors over tiles i.. of <= r
    fit[m] = [1] * (MAX_LEAVE + 1)
    for i in range(m - 1, -1, -1):
        for r in range(MAX_LEAVE + 1):
            fit[i][r] = sum(fit[i + 1][r - c] for c in range(min(caps[i], r) + 1))
    before = np.zeros((m, MAX_LEAVE + 1, MAX_LEAVE + 2), dtype=np.int64)
    for i in range(m):
        for r in range(MAX_LEAVE + 1):
            acc = 0
            for c in range(MAX_LEAVE + 2):
                before[i, r, c] = acc
                if c <= min(caps[i], r):
                    acc += fit[i + 1][r - c]
    before.setflags(write=False)
    return before, fit[0][MAX_LEAVE]


def rank_table(tiles: TileSet) -> tuple[np.ndarray, int]:
    """``(before, size)`` for the tile set's bag: ``before[i, r, c]`` counts the leaves that
    agree with a leave on the tiles before ``i``, hold fewer than ``c`` copies of tile ``i``
    and at most ``r`` tiles from ``i`` on; ``size`` counts every leave of 0-6 tiles.

    A leave's rank is the sum of ``before`` along its counts (:func:`leave_rank`): its
    place among all leaves ordered by their counts, tile by tile, so ranks run over
    ``0 .. size - 1`` without a gap (the empty leave is 0)."""
    return _rank_table(tuple(int(x) for x in tiles.bag_counts))


def leave_count(tiles: TileSet) -> int:
    """How many leaves of 0-6 tiles the bag allows (the empty leave included): the length
    of a complete table."""
    return rank_table(tiles)[1]


def leave_rank(kept: np.ndarray, tiles: TileSet) -> int:
    """The rank of the leave ``kept`` (counts, blank last); -1 for more than 6 tiles."""
    return int(kern.leave_rank(np.asarray(kept, dtype=np.int64), rank_table(tiles)[0]))


def ranks_of(kept: np.ndarray, tiles: TileSet) -> np.ndarray:
    """:func:`leave_rank` of each row of ``kept`` (vectorised); -1 for more than 6 tiles.
    Raises :class:`SuperleavesError` for more copies of a tile than the bag holds."""
    kept = np.asarray(kept, dtype=np.int64)
    if np.any(kept > tiles.bag_counts.astype(np.int64)) or np.any(kept < 0):
        raise SuperleavesError(f"a leave holds more copies of a tile than the {tiles.name} bag")
    before = rank_table(tiles)[0]
    room = np.full(len(kept), MAX_LEAVE, dtype=np.int64)
    ranks = np.zeros(len(kept), dtype=np.int64)
    over = kept.sum(axis=1) > MAX_LEAVE
    for i in range(kept.shape[1]):
        c = np.where(over, 0, kept[:, i])
        ranks += before[i, room, c]
        room -= c
    ranks[over] = -1
    return ranks


def leaves_of(ranks: np.ndarray, tiles: TileSet) -> np.ndarray:
    """The leave (counts, blank last) of each rank: the inverse of :func:`ranks_of`;
    raises :class:`SuperleavesError` for a rank no leave has."""
    before, size = rank_table(tiles)
    ranks = np.asarray(ranks, dtype=np.int64)
    if len(ranks) and (ranks.min() < 0 or ranks.max() >= size):
        raise SuperleavesError(f"a leave rank must be 0-{size - 1} for the {tiles.name} tiles")
    caps = tiles.bag_counts.astype(np.int64)
    out = np.zeros((len(ranks), len(caps)), dtype=np.int64)
    room = np.full(len(ranks), MAX_LEAVE, dtype=np.int64)
    rest = ranks.copy()
    for i in range(len(caps)):
        c = np.zeros(len(ranks), dtype=np.int64)
        for copies in range(1, min(int(caps[i]), MAX_LEAVE) + 1):
            c += (copies <= room) & (before[i, room, copies] <= rest)
        rest -= before[i, room, c]
        room -= c
        out[:, i] = c
    return out


# --- version-1 keys ------------------------------------------------------------------------


def leave_key(kept: np.ndarray, tiles: TileSet) -> int:
    """The version-1 key of the leave ``kept`` (counts, blank last); -1 for more than 6."""
    return int(kern.leave_key(np.asarray(kept, dtype=np.int64), tiles.size))


def keys_of(kept: np.ndarray) -> np.ndarray:
    """:func:`leave_key` of each row of ``kept`` (vectorised); -1 for more than 6 tiles."""
    kept = np.asarray(kept, dtype=np.int64)
    keys = np.zeros(len(kept), dtype=np.int64)
    pos = np.zeros(len(kept), dtype=np.int64)
    for letter in range(kept.shape[1]):
        for copy in range(int(kept[:, letter].max(initial=0))):
            held = (kept[:, letter] > copy) & (pos < MAX_LEAVE)
            keys[held] |= (letter + 1) << (KEY_BITS * pos[held])
            pos[kept[:, letter] > copy] += 1
    keys[pos > MAX_LEAVE] = -1
    return keys


def counts_of(keys: np.ndarray, width: int) -> np.ndarray:
    """The leave (counts, blank last) of each version-1 key: the inverse of :func:`keys_of`;
    raises :class:`SuperleavesError` for a key that names no tile of the set."""
    keys = np.asarray(keys, dtype=np.int64)
    out = np.zeros((len(keys), width), dtype=np.int64)
    rows = np.arange(len(keys))
    rest = keys.copy()
    for _ in range(MAX_LEAVE):
        code = rest & ((1 << KEY_BITS) - 1)
        if np.any(code > width):
            raise SuperleavesError(f"a leave key names tile {int(code.max()) - 1}, beyond the "
                                   f"{width} tiles of the set")  # fmt: skip
        held = code > 0
        out[rows[held], code[held] - 1] += 1
        rest >>= KEY_BITS
    if np.any(rest):
        raise SuperleavesError("a leave key holds more than 6 tiles")
    return out


def leave_text(kept: np.ndarray, tiles: TileSet) -> str:
    return tiles.rack_text(tuple(int(x) for x in kept))


# --- the table -----------------------------------------------------------------------------


def fallback_values(fallback: LeaveTable, counts: np.ndarray) -> np.ndarray:
    """The factored model's value of each row of ``counts``, computed as the lookup does."""
    out: np.ndarray = kern.complete_values(np.asarray(counts, dtype=np.int64),
                                           fallback.tiles.size, fallback.per_letter,
                                           fallback.balance, fallback.pairs,
                                           vowels(fallback.tiles))  # fmt: skip
    return out


@dataclass(frozen=True, eq=False)
class SuperleaveTable:
    """The learned leaves (sorted ``ranks``, their ``values`` in points and ``samples``: how
    many self-play moves kept each) and, when the table is complete, ``complete``: one
    float32 value per rank (:func:`leave_count`); without it every other leave is worth
    ``fallback``'s value, computed at lookup."""

    tiles: TileSet
    ranks: np.ndarray
    values: np.ndarray
    samples: np.ndarray
    fallback: LeaveTable
    note: str = ""
    complete: np.ndarray | None = None
    _vowel: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        ranks = np.asarray(self.ranks, dtype=np.int64)
        if not (len(ranks) == len(self.values) == len(self.samples)):
            raise SuperleavesError("ranks, values and samples must have one entry each")
        size = leave_count(self.tiles)
        if len(ranks) and (np.any(np.diff(ranks) <= 0) or ranks[0] <= 0 or ranks[-1] >= size):
            raise SuperleavesError(f"the learned leaves' ranks must be sorted, distinct and "
                                   f"1-{size - 1}")  # fmt: skip
        values = np.asarray(self.values, dtype=np.float64)
        _check_values(values)
        if self.fallback.tiles.name != self.tiles.name:
            raise SuperleavesError(f"the fallback table is for the {self.fallback.tiles.name} "
                                   f"tiles, not {self.tiles.name}")  # fmt: skip
        if self.complete is not None:
            if self.complete.shape != (size,) or self.complete.dtype != np.float32:
                raise SuperleavesError(f"a complete {self.tiles.name} table holds {size} "
                                       f"float32 values, not {self.complete.shape[0]} "
                                       f"{self.complete.dtype}")  # fmt: skip
            _check_values(self.complete)
            if self.complete[0] != 0.0:
                raise SuperleavesError("the empty leave (rank 0) must be worth 0")
        object.__setattr__(self, "ranks", ranks)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "samples", np.asarray(self.samples, dtype=np.int64))
        object.__setattr__(self, "_vowel", vowels(self.tiles))

    def __len__(self) -> int:
        """How many leaves were learned (:attr:`size`: how many have a value)."""
        return len(self.ranks)

    def __bool__(self) -> bool:
        return True

    @property
    def size(self) -> int:
        """How many leaves of 1-6 tiles the table values (every one: learned or fallback)."""
        return leave_count(self.tiles) - 1

    def arrays(self) -> kern.LeaveArrays:
        """What the kernels read (:class:`._superleave_kernels.LeaveArrays`)."""
        f = self.fallback
        before = rank_table(self.tiles)[0]
        if self.complete is not None:
            return kern.LeaveArrays(before, True, self.ranks, self.complete, f.per_letter,
                                    f.balance, f.pairs, self._vowel)  # fmt: skip
        return kern.LeaveArrays(before, False, self.ranks, self.values, f.per_letter,
                                f.balance, f.pairs, self._vowel)  # fmt: skip

    def value(self, kept: np.ndarray) -> float:
        """The value of keeping these tiles (counts, blank last); 0 for nothing kept."""
        kept = np.asarray(kept, dtype=np.int64)
        return float(kern.lookup(self.arrays(), kept, self.tiles.size))

    def learned(self, kept: np.ndarray) -> bool:
        """Whether ``kept`` has a learned value (else the fallback's value answers)."""
        rank = leave_rank(kept, self.tiles)
        k = int(np.searchsorted(self.ranks, rank))
        return rank > 0 and k < len(self.ranks) and int(self.ranks[k]) == rank

    def completed(self) -> SuperleaveTable:
        """This table with every leave's value stored (:attr:`complete`): the learned
        values where met, else the fallback's value (as float32)."""
        if self.complete is not None:
            return self
        size = leave_count(self.tiles)
        full = np.zeros(size, dtype=np.float32)
        block = 1 << 18
        for lo in range(1, size, block):
            ranks = np.arange(lo, min(size, lo + block))
            full[ranks] = fallback_values(self.fallback, leaves_of(ranks, self.tiles))
        full[self.ranks] = self.values
        return SuperleaveTable(self.tiles, self.ranks, self.values, self.samples,
                               self.fallback, self.note, full)  # fmt: skip

    def header(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "tiles": self.tiles.name,
            "leaves": self.size,
            "learned": len(self.ranks),
            "complete": self.complete is not None,
            "fallback": self.fallback.note,
            "note": self.note,
        }


def _check_values(values: np.ndarray) -> None:
    if len(values) and (not np.all(np.isfinite(values))
                        or float(np.abs(values).max()) > MAX_ABS_VALUE):  # fmt: skip
        raise SuperleavesError(f"every leave value must be a finite number within "
                               f"+-{MAX_ABS_VALUE:g} points")  # fmt: skip


def _npy(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, array, allow_pickle=False)
    return buf.getvalue()


def save_superleaves(table: SuperleaveTable, folder: Path | str) -> None:
    """Write the table (version 2) into ``folder``: each file atomically (temporary file,
    then rename), the header last, so a reader never takes a half-written table for whole
    (its arrays disagree with the header it finds)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    values = table.complete if table.complete is not None else table.values.astype(np.float32)
    write_atomic(folder / "values.npy", _npy(np.ascontiguousarray(values, dtype=np.float32)))
    write_atomic(folder / "learned.npy", _npy(table.ranks.astype(np.uint32)))
    write_atomic(folder / "samples.npy",
                 _npy(np.minimum(table.samples, 2**32 - 1).astype(np.uint32)))  # fmt: skip
    write_atomic(folder / "header.json", (json.dumps(table.header(), indent=1) + "\n").encode())


def _refuse(where: str, problem: str) -> SuperleavesError:
    return SuperleavesError(f"{where}: {problem}")


def _array(source: Path | Traversable, name: str, where: str) -> np.ndarray:
    """``source/name`` as an array: memory-mapped when it is a file on disk (read only:
    nothing is copied until used), else read whole; at most :data:`MAX_FILE_BYTES`."""
    ref = source / name
    try:
        if isinstance(ref, Path):
            check_readable(ref, f"{where}: {name}")
            if ref.stat().st_size > MAX_FILE_BYTES:
                raise _refuse(where, f"{name} is larger than {MAX_FILE_BYTES} bytes")
            array = np.load(ref, mmap_mode="r", allow_pickle=False)
        else:
            if not ref.is_file():
                raise _refuse(where, f"{name} is missing")
            blob = ref.read_bytes()
            if len(blob) > MAX_FILE_BYTES:
                raise _refuse(where, f"{name} is larger than {MAX_FILE_BYTES} bytes")
            array = np.load(io.BytesIO(blob), allow_pickle=False)
    except (SuperleavesError, FileInputError):
        raise
    except Exception as exc:  # numpy's errors for a truncated or foreign file
        raise _refuse(where, f"{name} is not a whole .npy array ({exc})") from None
    if not isinstance(array, np.ndarray) or array.ndim != 1:
        raise _refuse(where, f"{name} must hold one one-dimensional array")
    return array


def _header(source: Path | Traversable, where: str) -> dict[str, Any]:
    ref = source / "header.json"
    try:
        if isinstance(ref, Path):
            blob = read_user_bytes(ref, limit=MAX_HEADER_BYTES, what=f"{where}: header.json")
        else:
            if not ref.is_file():
                raise _refuse(where, "header.json is missing")
            blob = ref.read_bytes()[: MAX_HEADER_BYTES + 1]
            if len(blob) > MAX_HEADER_BYTES:
                raise _refuse(where, f"header.json is larger than {MAX_HEADER_BYTES} bytes")
        header = json.loads(blob.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        raise _refuse(where, "header.json is not JSON") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise _refuse(where, f"header.json is not a {FORMAT} header")
    return header


def read_superleaves(
    source: Path | Traversable, tiles: TileSet, where: str, fallback: LeaveTable | None = None
) -> SuperleaveTable:
    """Read a version-2 folder (module docstring), memory-mapping its arrays; anything
    else raises :class:`SuperleavesError` naming the problem."""
    header = _header(source, where)
    if header.get("version") != VERSION:
        raise _refuse(where, f"version {header.get('version')!r}; this reads {VERSION}")
    if header.get("tiles") != tiles.name:
        raise _refuse(where, f"the table is for the {header.get('tiles')!r} tiles, not "
                             f"{tiles.name!r}")  # fmt: skip
    size = leave_count(tiles)
    if header.get("leaves") != size - 1:
        raise _refuse(where, f"it claims {header.get('leaves')!r} leaves; the {tiles.name} "
                             f"bag has {size - 1} of 1-6 tiles")  # fmt: skip
    complete = header.get("complete")
    if not isinstance(complete, bool):
        raise _refuse(where, "the header must say whether the table is complete (true/false)")
    values, learned, samples = (_array(source, f"{n}.npy", where) for n in ARRAYS)
    if values.dtype != np.float32 or learned.dtype != np.uint32 or samples.dtype != np.uint32:
        raise _refuse(where, "values must be float32, learned and samples uint32")
    if header.get("learned") != len(learned) or len(samples) != len(learned):
        raise _refuse(where, f"it claims {header.get('learned')!r} learned leaves but holds "
                             f"{len(learned)} ranks and {len(samples)} sample counts")  # fmt: skip
    want = size if complete else len(learned)
    if len(values) != want:
        kind = "a complete" if complete else "this"
        raise _refuse(where, f"values.npy holds {len(values)} values; {kind} table has {want}")
    if fallback is None:
        fallback = shipped_leaves(tiles)
    if not complete and header.get("fallback") != fallback.note:
        raise _refuse(where, "it was learned over another factored table than the one given "
                             "(its unmet leaves would be valued by the wrong model)")  # fmt: skip
    ranks = learned.astype(np.int64)
    if len(ranks) and (ranks[0] <= 0 or ranks[-1] >= size or np.any(np.diff(ranks) <= 0)):
        raise _refuse(where, f"the learned ranks must be sorted, distinct and 1-{size - 1}")
    try:
        return SuperleaveTable(
            tiles, ranks, np.asarray(values[ranks] if complete else values, dtype=np.float64),
            samples.astype(np.int64), fallback, str(header.get("note", "")),
            values if complete else None,
        )  # fmt: skip
    except SuperleavesError as exc:
        raise _refuse(where, str(exc)) from None


def parse_superleaves(
    blob: bytes, tiles: TileSet, where: str = "superleave file", fallback: LeaveTable | None = None
) -> SuperleaveTable:
    """Read a version-1 table (``.npz``: 5-bit keys of the learned leaves); anything else
    raises :class:`SuperleavesError` naming the problem. ``fallback``: the factored table
    for unmet leaves (default: the shipped one)."""
    try:
        with np.load(io.BytesIO(blob), allow_pickle=False) as data:
            arrays = {name: data[name] for name in ("header", "keys", "values", "samples")}
    except KeyError as exc:
        raise SuperleavesError(f"{where} lacks the array {exc}") from None
    except Exception as exc:  # zip, zlib and npy errors: a truncated or foreign file
        raise SuperleavesError(f"{where} is not a superleave table (.npz): {exc}") from None
    try:
        header = json.loads(str(arrays["header"]))
    except (ValueError, TypeError):
        raise SuperleavesError(f"{where}: the header is not JSON") from None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raise SuperleavesError(f"{where} is not a {FORMAT} file")
    if header.get("version") != VERSION_NPZ:
        raise SuperleavesError(f"{where} has version {header.get('version')!r}; a .npz table "
                               f"is version {VERSION_NPZ}")  # fmt: skip
    if header.get("tiles") != tiles.name:
        raise SuperleavesError(f"{where} is for the {header.get('tiles')!r} tiles, not "
                               f"{tiles.name!r}")  # fmt: skip
    keys, values, samples = arrays["keys"], arrays["values"], arrays["samples"]
    for name, arr in (("keys", keys), ("values", values), ("samples", samples)):
        if arr.ndim != 1:
            raise SuperleavesError(f"{where}: {name} must be one-dimensional")
    if header.get("leaves") != len(keys) or not len(keys) == len(values) == len(samples):
        raise SuperleavesError(f"{where} claims {header.get('leaves')!r} leaves but holds "
                               f"{len(keys)} keys, {len(values)} values and {len(samples)} "
                               f"sample counts")  # fmt: skip
    if not (np.issubdtype(keys.dtype, np.integer) and np.issubdtype(samples.dtype, np.integer)
            and np.issubdtype(values.dtype, np.floating)):  # fmt: skip
        raise SuperleavesError(f"{where}: keys and samples must be integers, values numbers")
    keys = keys.astype(np.int64)
    if len(keys) and (np.any(np.diff(keys) <= 0) or keys[0] <= 0):
        raise SuperleavesError(f"{where}: the leave keys must be positive, sorted and distinct")
    counts = counts_of(keys, tiles.size + 1)
    if len(keys) and np.any(counts > tiles.bag_counts.astype(np.int64)):
        bad = int(np.flatnonzero((counts > tiles.bag_counts).any(axis=1))[0])
        raise SuperleavesError(f"{where}: the leave {leave_text(counts[bad], tiles)} holds "
                               f"more copies than the {tiles.name} bag")  # fmt: skip
    ranks = ranks_of(counts, tiles)
    order = np.argsort(ranks)
    try:
        return SuperleaveTable(tiles, ranks[order], values.astype(np.float64)[order],
                               samples.astype(np.int64)[order],
                               fallback if fallback is not None else shipped_leaves(tiles),
                               str(header.get("note", "")))  # fmt: skip
    except SuperleavesError as exc:
        raise SuperleavesError(f"{where}: {exc}") from None


def load_superleaves(
    path: Path | str, tiles: TileSet, fallback: LeaveTable | None = None
) -> SuperleaveTable:
    """Read a superleave table: a version-2 folder (memory-mapped) or a version-1 ``.npz``
    file (at most 40 MB)."""
    path = Path(path)
    if path.is_dir():
        return read_superleaves(path, tiles, f"superleave table {path}", fallback)
    blob = read_user_bytes(path, limit=MAX_FILE_BYTES, what="superleave file")
    return parse_superleaves(blob, tiles, f"superleave file {path}", fallback)


@lru_cache(maxsize=4)
def shipped_superleaves(tiles: str) -> SuperleaveTable:
    """The table shipped for a tile set (``data/superleaves_<tiles>/``); a tile set without
    one raises :class:`SuperleavesError`."""
    ts = tile_set(tiles)
    name = f"superleaves_{ts.name}"
    ref = resources.files("stratagem.games.scrabble").joinpath("data", name)
    if not ref.is_dir():
        raise SuperleavesError(f"no superleave table is shipped for the {ts.name} tiles")
    return read_superleaves(ref, ts, f"shipped {name}")


# --- the equity player with superleaves ----------------------------------------------------


class SuperleaveEvaluator(Evaluator):
    """:class:`~.heuristic.Evaluator` whose leave term is the superleave table's value."""

    def __init__(self, table: SuperleaveTable) -> None:
        super().__init__(table.tiles, table.fallback)
        self.superleaves = table
        self._arrays = table.arrays()
        self._out = np.zeros(4096)

    def placements(
        self, gen: MoveGenerator, board: np.ndarray, rack: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        info, word, feats = super().placements(gen, board, rack)
        n = info.shape[0]
        if n > self._out.shape[0]:
            self._out = np.zeros(1 << int(n).bit_length())
        kern.placement_leaves(board, rack.astype(np.int64), info, word, n, self.tiles.size,
                              self._arrays, self._out)  # fmt: skip
        feats[:, hkern.LEAVE] = self._out[:n]
        return info, word, feats

    def others(self, rack: np.ndarray, allow_exchange: bool) -> tuple[np.ndarray, np.ndarray]:
        gives, xfeats = super().others(rack, allow_exchange)
        rack64 = rack.astype(np.int64)
        full, radix, value_of = kern.subset_values(rack64, self.tiles.size, self._arrays)
        xfeats[:, hkern.LEAVE] = value_of[full - gives @ radix]
        return gives, xfeats


class SuperleaveEquityAgent(EquityAgent):
    """The equity player (score + leave) valuing leaves by a :class:`SuperleaveTable`."""

    def __init__(self, table: SuperleaveTable, endgame: bool = True,
                 endgame_nodes: int = ENDGAME_NODES, defence: float = 0.0) -> None:  # fmt: skip
        super().__init__(table.tiles, table.fallback, endgame, endgame_nodes, defence)
        self.evaluator = SuperleaveEvaluator(table)


# --- bingo chances ------------------------------------------------------------------------


def bingo_racks(lexicon: Lexicon) -> np.ndarray:
    """Every rack of 7 tiles the bag allows (counts, blank last) that spells a 7-letter word
    of ``lexicon``, a blank standing for any letter: one row per distinct rack, sorted."""
    tiles = lexicon.tiles
    n = tiles.size
    bag = tiles.bag_counts.astype(np.int64)
    words: set[tuple[int, ...]] = set()
    stack = [(lexicon.root, (0,) * n, 0)]
    while stack:  # the word graph to depth 7
        node, counts, depth = stack.pop()
        if depth == RACK_SIZE:
            if lexicon.terminal[node]:
                words.add(counts)
            continue
        for letter in np.flatnonzero(lexicon.child[node] >= 0):
            c = list(counts)
            c[letter] += 1
            stack.append((int(lexicon.child[node, letter]), tuple(c), depth + 1))
    racks: set[tuple[int, ...]] = set()
    for counts in words:
        letters = [i for i in range(n) for _ in range(counts[i])]
        for blanks in range(min(tiles.blanks, RACK_SIZE) + 1):
            for stood in set(itertools.combinations(letters, blanks)):
                rack = [*counts, blanks]
                for i in stood:
                    rack[i] -= 1
                if all(rack[i] <= bag[i] for i in range(n + 1)):
                    racks.add(tuple(rack))
    return np.array(sorted(racks), dtype=np.int64).reshape(-1, n + 1)


def bingo_chances(lexicon: Lexicon) -> np.ndarray:
    """For every leave (by rank), the chance that it and the tiles drawn to fill the rack
    spell a 7-letter word (:func:`bingo_racks`), the draw taken from a full bag less the
    leave: float64, one per rank, 0 for the empty leave. No board: a measure of how many
    racks a leave makes a bingo of, not of where one fits."""
    tiles = lexicon.tiles
    before, size = rank_table(tiles)
    out = np.zeros(size)
    racks = bingo_racks(lexicon).astype(np.int64)
    kern.leave_sums(racks, np.ones(len(racks)), tiles.bag_counts.astype(np.int64), before,
                    out, np.zeros(size))  # fmt: skip
    return out


# --- learning ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaveSamples:
    """Self-play samples in compact form: each move's leave rank (1-6 tiles kept), its
    target (:meth:`.leaves.SelfPlayRecords.targets` by the fallback) and stage (bag // 10)."""

    ranks: np.ndarray
    targets: np.ndarray
    stages: np.ndarray

    def __len__(self) -> int:
        return len(self.ranks)

    @classmethod
    def of(cls, records: SelfPlayRecords, fallback: LeaveTable) -> LeaveSamples:
        size = records.kept.sum(axis=1)
        keep = (size >= 1) & (size <= MAX_LEAVE)
        return cls(
            ranks_of(records.kept[keep], fallback.tiles),
            records.targets(fallback)[keep].astype(np.float32),
            (records.bag[keep] // STAGE_WIDTH).astype(np.int16),
        )

    @classmethod
    def concat(cls, parts: list[LeaveSamples]) -> LeaveSamples:
        return cls(*(np.concatenate([getattr(p, k) for p in parts])
                     for k in ("ranks", "targets", "stages")))  # fmt: skip


@dataclass(frozen=True)
class Shrinkage:
    """The empirical-Bayes estimate behind the table: residual variance within a leave,
    variance of the leaves' true deviations, and ``k`` = their ratio."""

    within: float
    between: float
    k: float


def shrinkage(n: np.ndarray, mean: np.ndarray, within: float, min_n: int = 20) -> Shrinkage:
    """``between`` by the method of moments over leaves seen at least ``min_n`` times: the
    variance of their mean residuals less the part their sampling noise explains."""
    big = n >= min_n
    if big.sum() < 10:
        raise SuperleavesError(f"too few leaves seen {min_n} times to estimate the shrinkage "
                               f"({int(big.sum())}); play more games")  # fmt: skip
    w = n[big].astype(float)
    m = mean[big]
    centre = float(np.average(m, weights=w))
    spread = float(np.average((m - centre) ** 2, weights=w))
    noise = float(np.average(within / n[big], weights=w))
    between = max(spread - noise, within / 10_000.0)
    return Shrinkage(within, between, within / between)


def build_superleaves(
    samples: LeaveSamples, fallback: LeaveTable, min_samples: int = 1, note: str = ""
) -> tuple[SuperleaveTable, dict[int, Shrinkage]]:
    """The table of every leave seen at least ``min_samples`` times, each shrunk toward
    ``fallback`` (module docstring), and the shrinkage estimated for each leave size (key 0:
    pooled over all sizes, used for a size with too few leaves met often)."""
    if len(samples) < 100:
        raise SuperleavesError(f"building a table needs at least 100 samples, got {len(samples)}")
    if not 1 <= min_samples <= 1_000_000:
        raise SuperleavesError(f"min_samples must be 1-1000000, got {min_samples}")
    tiles = fallback.tiles
    ranks, inverse = np.unique(samples.ranks, return_inverse=True)
    counts = leaves_of(ranks, tiles)
    prior = table_values(fallback, counts)
    resid = samples.targets.astype(np.float64) - prior[inverse]
    stages = samples.stages.astype(np.int64)
    for s in np.unique(stages):
        at = stages == s
        resid[at] -= resid[at].mean()
    n = np.bincount(inverse, minlength=len(ranks))
    total = np.bincount(inverse, weights=resid, minlength=len(ranks))
    mean = total / n
    sq = np.bincount(inverse, weights=(resid - mean[inverse]) ** 2, minlength=len(ranks))
    within = float(sq.sum() / max(1, len(resid) - len(ranks)))
    pooled = shrinkage(n, mean, within)
    size = counts.sum(axis=1)
    k = np.full(len(ranks), pooled.k)
    by_size = {0: pooled}
    for s in range(1, MAX_LEAVE + 1):  # the factored model may fit long leaves worse
        at = size == s
        try:
            by_size[s] = shrinkage(n[at], mean[at], within)
        except SuperleavesError:
            continue  # too few leaves of this size met often: the pooled estimate
        k[at] = by_size[s].k
    values = (prior + n / (n + k) * mean).astype(np.float32)  # as stored
    keep = n >= min_samples
    table = SuperleaveTable(tiles, ranks[keep], values[keep], n[keep], fallback, note)
    return table, by_size


def stats(table: SuperleaveTable) -> dict[str, Any]:
    """How many leaves are learned, by size and by samples."""
    counts = leaves_of(table.ranks, table.tiles).sum(axis=1)
    return {
        "leaves": table.size,
        "learned": len(table),
        "complete": table.complete is not None,
        "by_size": {int(s): int((counts == s).sum()) for s in range(1, MAX_LEAVE + 1)},
        "samples_at_least": {str(m): int((table.samples >= m).sum()) for m in (1, 10, 100, 1000)},
        "samples": int(table.samples.sum()),
    }


def _checked_rack(text: str, tiles: TileSet) -> np.ndarray:
    counts = tiles.rack_counts(text, what="the leave").astype(np.int64)
    if not 1 <= counts.sum() <= RACK_SIZE - 1:
        raise SuperleavesError(f"a leave holds 1-6 tiles, {text!r} holds {int(counts.sum())}")
    return counts


def value_of(table: SuperleaveTable, text: str) -> float:
    """The value of the leave written as ``text`` (``AEINST``, ``?S``).

    >>> from stratagem.games.scrabble.tiles import tile_set
    >>> english = tile_set("english")
    >>> t = SuperleaveTable(english, np.array([leave_rank(english.rack_counts("E"), english)]),
    ...                     np.array([2.5]), np.array([9]), LeaveTable.zeros(english))
    >>> value_of(t, "E"), value_of(t, "B")
    (2.5, 0.0)
    """
    return table.value(_checked_rack(text, table.tiles))


# --- learning runs: chunks of self-play, resumable, on any executor -----------------------


@dataclass(frozen=True)
class ChunkTask:
    """One chunk of self-play: games ``first .. first + games - 1`` of a run, game ``i``
    drawing from ``default_rng([seed, i])``, on ``tiles`` with the lexicon at ``lexicon``
    (None: the tile set's built-in one). Plain data, so that it pickles to any worker."""

    index: int
    tiles: str
    lexicon: str | None
    seed: int
    first: int
    games: int


def play_chunk(task: ChunkTask) -> dict[str, np.ndarray]:
    """Play one chunk and return its samples as plain arrays (the unit a worker returns)."""
    from stratagem.games.scrabble.leaves import selfplay_records
    from stratagem.games.scrabble.lexicon import get_lexicon

    lex = get_lexicon(task.lexicon, task.tiles)
    fallback = shipped_leaves(lex.tiles)
    samples = LeaveSamples.of(selfplay_records(lex, fallback, task.games, task.seed,
                                               first=task.first), fallback)  # fmt: skip
    return {"index": np.array(task.index), "games": np.array(task.games),
            "ranks": samples.ranks.astype(np.uint32), "targets": samples.targets,
            "stages": samples.stages}  # fmt: skip


class InlineChunks:
    """Plays the chunks in this process, one after another."""

    def map(self, tasks: list[Any], fn: Callable[[Any], dict[str, np.ndarray]] | None = None
            ) -> Iterator[dict[str, np.ndarray]]:  # fmt: skip
        """Each task's result (``fn``: the worker function, :func:`play_chunk` if None)."""
        fn = fn or play_chunk
        for task in tasks:
            yield fn(task)


class LocalChunks:
    """A pool of local processes (spawned). A worker that dies (killed, out of memory)
    breaks the pool: the chunks not yet returned are played again in a new pool, up to
    ``retries`` times, so a killed worker costs only its chunk."""

    def __init__(self, workers: int, retries: int = 3) -> None:
        if not 1 <= workers <= 1024:
            raise SuperleavesError(f"workers must be 1-1024, got {workers}")
        self.workers = workers
        self.retries = retries

    def _pool(self) -> Any:
        import multiprocessing
        from concurrent.futures import ProcessPoolExecutor

        from stratagem.core.arena import end_with_parent

        context = multiprocessing.get_context("spawn")
        return ProcessPoolExecutor(self.workers, mp_context=context, initializer=end_with_parent,
                                   initargs=(os.getpid(),))  # fmt: skip

    def map(self, tasks: list[Any], fn: Callable[[Any], dict[str, np.ndarray]] | None = None
            ) -> Iterator[dict[str, np.ndarray]]:  # fmt: skip
        """Each task's result (``fn``: the worker function, :func:`play_chunk` if None)."""
        fn = fn or play_chunk
        from concurrent.futures import FIRST_COMPLETED, wait
        from concurrent.futures.process import BrokenProcessPool

        left = {t.index: t for t in tasks}
        for attempt in range(self.retries + 1):
            try:
                pool = self._pool()
                finished = False
                try:
                    pending = {pool.submit(fn, t) for t in left.values()}
                    while pending:
                        done, pending = wait(pending, return_when=FIRST_COMPLETED)
                        broke = False
                        for future in done:  # keep every chunk that came back, then retry
                            if isinstance(future.exception(), BrokenProcessPool):
                                broke = True
                                continue
                            out = future.result()
                            del left[int(out["index"])]
                            yield out
                        if broke:
                            raise BrokenProcessPool("a worker died")
                    finished = True
                finally:
                    # the chunks not started are dropped, always: a pool left to shut down
                    # by itself played every queued chunk after a Ctrl-C, unsaved, for hours;
                    # interrupted, the workers are stopped too (their chunks are not saved:
                    # the parent saves), else the interpreter's exit waited for them
                    workers = list((getattr(pool, "_processes", None) or {}).values())
                    pool.shutdown(wait=finished, cancel_futures=True)
                    if not finished:
                        for worker in workers:
                            worker.terminate()
                return
            except BrokenProcessPool:
                if attempt == self.retries:
                    raise SuperleavesError(
                        f"the worker pool broke {self.retries + 1} times; {len(left)} chunks "
                        f"left (run again to resume)"
                    ) from None


class RayChunks:
    """Ray tasks (``$RAY_ADDRESS`` when set, else a local Ray). Ray plays a task again
    when its worker dies (``max_retries``), so a killed worker costs only its chunk."""

    def __init__(self, retries: int = 3, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise SuperleavesError(
                "the Ray backend needs ray: pip install 'stratagem[distributed]'"
            ) from None
        self.ray = ray
        self.retries = retries
        if not ray.is_initialized():
            ray.init(address=address or os.environ.get("RAY_ADDRESS"), log_to_driver=False)

    def map(self, tasks: list[Any], fn: Callable[[Any], dict[str, np.ndarray]] | None = None
            ) -> Iterator[dict[str, np.ndarray]]:  # fmt: skip
        """Each task's result (``fn``: the worker function, :func:`play_chunk` if None)."""
        fn = fn or play_chunk
        remote = self.ray.remote(max_retries=self.retries)(fn)
        pending = [remote.remote(t) for t in tasks]
        while pending:
            done, pending = self.ray.wait(pending, num_returns=1)
            for ref in done:
                yield self.ray.get(ref)


def chunk_executor(backend: str, workers: int = 1) -> InlineChunks | LocalChunks | RayChunks:
    """``local`` (``workers`` processes; one plays inline) or ``ray``."""
    if backend == "local":
        return InlineChunks() if workers == 1 else LocalChunks(workers)
    if backend == "ray":
        return RayChunks()
    raise SuperleavesError(f"unknown backend {backend!r}; use local or ray")


def open_run(folder: Path, marker_name: str, settings: dict[str, Any]) -> None:
    """Create a run's ``folder``, or check that the run already there (its ``marker_name``
    file) was made with the same ``settings``, so that runs are never mixed."""
    folder.mkdir(parents=True, exist_ok=True)
    marker = folder / marker_name
    if marker.exists():
        try:
            found = json.loads(read_user_bytes(marker, limit=MAX_HEADER_BYTES,
                                               what="run settings"))  # fmt: skip
        except ValueError:
            raise SuperleavesError(f"{marker} is not JSON; move the run away") from None
        if found != settings:
            raise SuperleavesError(f"{folder} holds a run with other settings ({found}); name "
                                   f"another run or use those")  # fmt: skip
    else:
        write_atomic(marker, json.dumps(settings).encode())


RUN_FILE = "run.json"


@dataclass(frozen=True)
class LearningRun:
    """A self-play run in ``folder``: ``chunkNNNN.npz`` files (one per chunk of ``chunk``
    games, each written whole) and ``run.json`` naming what the chunks were played with, so
    that a resumed run with other settings is refused rather than mixed in."""

    folder: Path
    tiles: str
    lexicon: str | None
    seed: int
    chunk: int

    def __post_init__(self) -> None:
        if not 1 <= self.chunk <= 100_000:
            raise SuperleavesError(f"chunk must be 1-100000 games, got {self.chunk}")
        tile_set(self.tiles)  # an unknown tile set is refused here, not in a worker

    def settings(self) -> dict[str, Any]:
        return {"tiles": self.tiles, "lexicon": self.lexicon, "seed": self.seed,
                "chunk": self.chunk}  # fmt: skip

    def path(self, c: int) -> Path:
        return self.folder / f"chunk{c:04d}.npz"

    def open(self) -> None:
        """Create the folder, or check that the run already there has the same settings."""
        open_run(self.folder, RUN_FILE, self.settings())

    def tasks(self, games: int, part: int = 0, parts: int = 1) -> list[ChunkTask]:
        """The chunks of the first ``games`` games not yet on disk (``c % parts == part``)."""
        if not 1 <= games <= 10_000_000:
            raise SuperleavesError(f"games must be 1-10000000, got {games}")
        if not 0 <= part < parts:
            raise SuperleavesError(f"part must be i/k with 0 <= i < k, got {part}/{parts}")
        out = []
        for c in range(part, -(-games // self.chunk), parts):
            if not self.path(c).exists():
                first = c * self.chunk
                out.append(ChunkTask(c, self.tiles, self.lexicon, self.seed, first,
                                     min(self.chunk, games - first)))  # fmt: skip
        return out

    def save(self, out: dict[str, np.ndarray]) -> None:
        buf = io.BytesIO()
        np.savez_compressed(buf, games=out["games"], ranks=out["ranks"],
                            targets=out["targets"], stages=out["stages"])  # fmt: skip
        write_atomic(self.path(int(out["index"])), buf.getvalue())

    def train(self, games: int, executor: InlineChunks | LocalChunks | RayChunks,
              part: int = 0, parts: int = 1,
              progress: Callable[[int, int, int], None] | None = None) -> int:  # fmt: skip
        """Play the missing chunks on ``executor``, saving each as it comes back (a killed
        run loses only the chunks in play); returns how many were played."""
        self.tasks(games, part, parts)  # the ranges checked before anything is written
        self.open()
        tasks = self.tasks(games, part, parts)
        for done, out in enumerate(executor.map(tasks), 1):
            self.save(out)
            if progress is not None:
                progress(done, len(tasks), int(out["index"]))
        return len(tasks)

    def samples(self, games: int) -> tuple[LeaveSamples, int]:
        """The samples of the first ``games`` games; every chunk must be on disk."""
        if not 1 <= games <= 10_000_000:
            raise SuperleavesError(f"games must be 1-10000000, got {games}")
        parts = []
        played = 0
        for c in range(-(-games // self.chunk)):
            path = self.path(c)
            if not path.exists():
                raise SuperleavesError(f"{path} is missing: train --games {games} first")
            try:
                with np.load(path, allow_pickle=False) as d:
                    parts.append(LeaveSamples(d["ranks"].astype(np.int64), d["targets"],
                                              d["stages"]))  # fmt: skip
                    played += int(d["games"])
            except (KeyError, ValueError, OSError, zipfile.BadZipFile) as exc:
                raise SuperleavesError(f"{path} is not a chunk of samples ({exc}); delete it "
                                       f"and train again") from None  # fmt: skip
        return LeaveSamples.concat(parts), played
