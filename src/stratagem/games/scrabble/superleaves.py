"""Superleaves: one learned value per leave of 1-6 tiles, backed by the factored model.

The shipped leave model (:mod:`.leaves`) is factored: per letter and copies,
vowel/consonant balance, letter pairs. It cannot price a bingo stem as a whole
(AEINST is worth 14.9 there). The open engines (Quackle, Macondo) keep one
value per multiset of 1-6 tiles instead, about 900,000 of them in English,
learned from hundreds of millions of self-play moves. We cannot play that much
here, so the table holds a value only for the leaves self-play met, each one
shrunk toward the factored model by how often it was seen, and every other
leave is valued by the factored model (the *fallback*):

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

Stored compressed (``.npz``: sorted 30-bit keys, float32 values, sample
counts, and a JSON header naming the tile set and how it was made) under
``games/scrabble/data/superleaves_<tiles>.npz``, built by
``experiments/scrabble_superleaves.py`` with a fixed seed. A leave's key is its
tiles in letter order, ``letter + 1`` in 5 bits each (:func:`leave_key`).

>>> from stratagem.games.scrabble.tiles import tile_set
>>> english = tile_set("english")
>>> english.letters[:2]
('E', 'A')
>>> leave_key(english.rack_counts("AE"), english) == 1 | (2 << 5)  # E is letter 0, A 1
True
"""

from __future__ import annotations

import io
import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.core.files import read_user_bytes, write_atomic
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

FORMAT = "stratagem-scrabble-superleaves"
VERSION = 1
MAX_FILE_BYTES = 40_000_000
"""A full English table (about 900,000 leaves) is under 10 MB compressed."""
MAX_LEAVE = 6
MAX_ABS_VALUE = 200.0
"""No leave is worth 200 points either way: a larger value is a broken file."""
KEY_BITS = kern.KEY_BITS


class SuperleavesError(LeavesError):
    """A superleave file that is truncated, oversized, malformed, for another tile set, or
    holds leaves that cannot be (more copies than the bag has, more than 6 tiles)."""


def leave_key(kept: np.ndarray, tiles: TileSet) -> int:
    """The key of the leave ``kept`` (counts, blank last); -1 for more than 6 tiles."""
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
    """The leave (counts, blank last) of each key: the inverse of :func:`keys_of`;
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


@dataclass(frozen=True, eq=False)
class SuperleaveTable:
    """Sorted leave ``keys`` with their ``values`` (points) and ``samples`` (how many
    self-play moves kept the leave); every other leave is worth ``fallback``'s value."""

    tiles: TileSet
    keys: np.ndarray
    values: np.ndarray
    samples: np.ndarray
    fallback: LeaveTable
    note: str = ""
    _vowel: np.ndarray = field(init=False, repr=False)

    def __post_init__(self) -> None:
        keys = np.asarray(self.keys, dtype=np.int64)
        if not (len(keys) == len(self.values) == len(self.samples)):
            raise SuperleavesError("keys, values and samples must have one entry each")
        if len(keys) and (np.any(np.diff(keys) <= 0) or keys[0] <= 0):
            raise SuperleavesError("the leave keys must be positive, sorted and distinct")
        values = np.asarray(self.values, dtype=np.float64)
        if not np.all(np.isfinite(values)) or np.any(np.abs(values) > MAX_ABS_VALUE):
            raise SuperleavesError(f"every leave value must be a finite number within "
                                   f"+-{MAX_ABS_VALUE:g} points")  # fmt: skip
        if self.fallback.tiles.name != self.tiles.name:
            raise SuperleavesError(f"the fallback table is for the {self.fallback.tiles.name} "
                                   f"tiles, not {self.tiles.name}")  # fmt: skip
        object.__setattr__(self, "keys", keys)
        object.__setattr__(self, "values", values)
        object.__setattr__(self, "samples", np.asarray(self.samples, dtype=np.int64))
        object.__setattr__(self, "_vowel", vowels(self.tiles))

    def __len__(self) -> int:
        return len(self.keys)

    def _arrays(self) -> tuple[np.ndarray, ...]:
        """What the kernels read: keys, values, the fallback's arrays and the vowels."""
        f = self.fallback
        return (self.keys, self.values, f.per_letter, f.balance, f.pairs, self._vowel)

    def value(self, kept: np.ndarray) -> float:
        """The value of keeping these tiles (counts, blank last): learned if met, else the
        fallback's; 0 for nothing kept."""
        f = self.fallback
        kept = np.asarray(kept, dtype=np.int64)
        return float(kern.lookup(self.keys, self.values, kept, self.tiles.size, f.per_letter,
                                 f.balance, f.pairs, self._vowel))  # fmt: skip

    def learned(self, kept: np.ndarray) -> bool:
        """Whether ``kept`` has a learned value (else the fallback answers)."""
        key = leave_key(kept, self.tiles)
        k = int(np.searchsorted(self.keys, key))
        return key > 0 and k < len(self.keys) and int(self.keys[k]) == key

    def to_bytes(self) -> bytes:
        header = {
            "format": FORMAT,
            "version": VERSION,
            "tiles": self.tiles.name,
            "leaves": len(self.keys),
            "fallback": self.fallback.note,
            "note": self.note,
        }
        buf = io.BytesIO()
        np.savez_compressed(
            buf,
            header=np.array(json.dumps(header)),
            keys=self.keys.astype(np.uint32),
            values=self.values.astype(np.float32),
            samples=np.minimum(self.samples, 2**32 - 1).astype(np.uint32),
        )
        return buf.getvalue()


def save_superleaves(table: SuperleaveTable, path: Path | str) -> None:
    """Write the table (compressed ``.npz``) atomically: temporary file, then rename."""
    write_atomic(path, table.to_bytes())


def parse_superleaves(
    blob: bytes, tiles: TileSet, where: str = "superleave file", fallback: LeaveTable | None = None
) -> SuperleaveTable:
    """Read the bytes of :func:`save_superleaves`; anything else raises
    :class:`SuperleavesError` naming the problem. ``fallback``: the factored table for
    unmet leaves (default: the shipped one)."""
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
    if header.get("version") != VERSION:
        raise SuperleavesError(f"{where} has version {header.get('version')!r}; this reads "
                               f"{VERSION}")  # fmt: skip
    if header.get("tiles") != tiles.name:
        raise SuperleavesError(f"{where} is for the {header.get('tiles')!r} tiles, not "
                               f"{tiles.name!r}")  # fmt: skip
    keys, values, samples = arrays["keys"], arrays["values"], arrays["samples"]
    for name, arr in (("keys", keys), ("values", values), ("samples", samples)):
        if arr.ndim != 1:
            raise SuperleavesError(f"{where}: {name} must be one-dimensional")
    if header.get("leaves") != len(keys):
        raise SuperleavesError(f"{where} claims {header.get('leaves')!r} leaves but holds "
                               f"{len(keys)}")  # fmt: skip
    if not (np.issubdtype(keys.dtype, np.integer) and np.issubdtype(samples.dtype, np.integer)
            and np.issubdtype(values.dtype, np.floating)):  # fmt: skip
        raise SuperleavesError(f"{where}: keys and samples must be integers, values numbers")
    width = tiles.size + 1
    counts = counts_of(keys.astype(np.int64), width)
    if len(keys) and np.any(counts > tiles.bag_counts.astype(np.int64)):
        bad = int(np.flatnonzero((counts > tiles.bag_counts).any(axis=1))[0])
        raise SuperleavesError(f"{where}: the leave {leave_text(counts[bad], tiles)} holds "
                               f"more copies than the {tiles.name} bag")  # fmt: skip
    try:
        return SuperleaveTable(tiles, keys.astype(np.int64), values.astype(np.float64),
                               samples.astype(np.int64),
                               fallback if fallback is not None else shipped_leaves(tiles),
                               str(header.get("note", "")))  # fmt: skip
    except SuperleavesError as exc:
        raise SuperleavesError(f"{where}: {exc}") from None


def load_superleaves(path: Path | str, tiles: TileSet) -> SuperleaveTable:
    """Read a superleave file (at most 40 MB)."""
    blob = read_user_bytes(path, limit=MAX_FILE_BYTES, what="superleave file")
    return parse_superleaves(blob, tiles, f"superleave file {path}")


@lru_cache(maxsize=4)
def shipped_superleaves(tiles: str) -> SuperleaveTable:
    """The table shipped for a tile set (``data/superleaves_<tiles>.npz``); a tile set
    without one raises :class:`SuperleavesError`."""
    ts = tile_set(tiles)
    name = f"superleaves_{ts.name}.npz"
    ref = resources.files("stratagem.games.scrabble").joinpath("data", name)
    if not ref.is_file():
        raise SuperleavesError(f"no superleave table is shipped for the {ts.name} tiles")
    return parse_superleaves(ref.read_bytes(), ts, f"shipped {name}")


# --- the equity player with superleaves ----------------------------------------------------


class SuperleaveEvaluator(Evaluator):
    """:class:`~.heuristic.Evaluator` whose leave term is the superleave table's value."""

    def __init__(self, table: SuperleaveTable) -> None:
        super().__init__(table.tiles, table.fallback)
        self.superleaves = table
        self._arrays = table._arrays()
        self._out = np.zeros(4096)

    def placements(
        self, gen: MoveGenerator, board: np.ndarray, rack: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        info, word, feats = super().placements(gen, board, rack)
        n = info.shape[0]
        if n > self._out.shape[0]:
            self._out = np.zeros(1 << int(n).bit_length())
        keys, values, per_letter, balance, pairs, vowel = self._arrays
        kern.placement_leaves(board, rack.astype(np.int64), info, word, n, self.tiles.size,
                              keys, values, per_letter, balance, pairs, vowel,
                              self._out)  # fmt: skip
        feats[:, hkern.LEAVE] = self._out[:n]
        return info, word, feats

    def others(self, rack: np.ndarray, allow_exchange: bool) -> tuple[np.ndarray, np.ndarray]:
        gives, xfeats = super().others(rack, allow_exchange)
        rack64 = rack.astype(np.int64)
        full, radix, value_of = kern.subset_values(rack64, self.tiles.size, *self._arrays)
        xfeats[:, hkern.LEAVE] = value_of[full - gives @ radix]
        return gives, xfeats


class SuperleaveEquityAgent(EquityAgent):
    """The equity player (score + leave) valuing leaves by a :class:`SuperleaveTable`."""

    def __init__(self, table: SuperleaveTable, endgame: bool = True,
                 endgame_nodes: int = ENDGAME_NODES) -> None:  # fmt: skip
        super().__init__(table.tiles, table.fallback, endgame, endgame_nodes)
        self.evaluator = SuperleaveEvaluator(table)


# --- learning ------------------------------------------------------------------------------


@dataclass(frozen=True)
class LeaveSamples:
    """Self-play samples in compact form: each move's leave key (1-6 tiles kept), its
    target (:meth:`.leaves.SelfPlayRecords.targets` by the fallback) and stage (bag // 10)."""

    keys: np.ndarray
    targets: np.ndarray
    stages: np.ndarray

    def __len__(self) -> int:
        return len(self.keys)

    @classmethod
    def of(cls, records: SelfPlayRecords, fallback: LeaveTable) -> LeaveSamples:
        size = records.kept.sum(axis=1)
        keep = (size >= 1) & (size <= MAX_LEAVE)
        return cls(
            keys_of(records.kept[keep]),
            records.targets(fallback)[keep].astype(np.float32),
            (records.bag[keep] // STAGE_WIDTH).astype(np.int16),
        )

    @classmethod
    def concat(cls, parts: list[LeaveSamples]) -> LeaveSamples:
        return cls(*(np.concatenate([getattr(p, k) for p in parts])
                     for k in ("keys", "targets", "stages")))  # fmt: skip


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
    keys, inverse = np.unique(samples.keys, return_inverse=True)
    prior = table_values(fallback, counts_of(keys, tiles.size + 1))
    resid = samples.targets.astype(np.float64) - prior[inverse]
    stages = samples.stages.astype(np.int64)
    for s in np.unique(stages):
        at = stages == s
        resid[at] -= resid[at].mean()
    n = np.bincount(inverse, minlength=len(keys))
    total = np.bincount(inverse, weights=resid, minlength=len(keys))
    mean = total / n
    sq = np.bincount(inverse, weights=(resid - mean[inverse]) ** 2, minlength=len(keys))
    within = float(sq.sum() / max(1, len(resid) - len(keys)))
    pooled = shrinkage(n, mean, within)
    size = counts_of(keys, tiles.size + 1).sum(axis=1)
    k = np.full(len(keys), pooled.k)
    by_size = {0: pooled}
    for s in range(1, MAX_LEAVE + 1):  # the factored model may fit long leaves worse
        at = size == s
        try:
            by_size[s] = shrinkage(n[at], mean[at], within)
        except SuperleavesError:
            continue  # too few leaves of this size met often: the pooled estimate
        k[at] = by_size[s].k
    values = prior + n / (n + k) * mean
    keep = n >= min_samples
    table = SuperleaveTable(tiles, keys[keep], values[keep], n[keep], fallback, note)
    return table, by_size


def stats(table: SuperleaveTable) -> dict[str, Any]:
    """How many leaves are learned, by size and by samples."""
    counts = counts_of(table.keys, table.tiles.size + 1).sum(axis=1)
    return {
        "leaves": len(table),
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
    >>> t = SuperleaveTable(tile_set("english"), np.array([1]), np.array([2.5]),
    ...                     np.array([9]), LeaveTable.zeros(tile_set("english")))
    >>> value_of(t, "E"), value_of(t, "B")  # key 1: one E (letter 0)
    (2.5, 0.0)
    """
    return table.value(_checked_rack(text, table.tiles))
