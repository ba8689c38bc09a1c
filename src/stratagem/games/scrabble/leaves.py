"""Leave values: what the tiles kept after a move are worth, learned by self-play.

An equity player ranks moves by ``score + leave(kept tiles)``, as the open
engines (Quackle, Macondo) do. Their leave tables hold one value per multiset
of 1-6 tiles, learned from hundreds of millions of positions; with a few
hundred thousand positions we learn a factored table instead, with one value
per (letter, copies held) and one per (vowels, consonants) balance:

    leave(kept) = sum over letters x held n >= 1 times of per_letter[x][n]
                  + balance[vowels][consonants]          (0 for an empty leave)
                  + sum over two distinct letters x < y both held of pairs[x][y]

(the blank is a letter here, and counts as neither vowel nor consonant).
Duplicates, the Q without a U's cost, the S and blank's worth all fit in
``per_letter``; ``balance`` prices a rack of all vowels or all consonants;
``pairs`` (optional, zero in tables learned without them) prices what two
letters are worth together beyond their own values: QU, ER, the S with the
blank. One value per pair, whatever the copies held.

How it is learned (:func:`learn_leaves`; ``experiments/scrabble_leaves.py`` for
long, resumable runs): in self-play games, every move made with at least 7
tiles in the bag gives a record (:func:`selfplay_records`: the tiles kept, the
points the same player scores on their next move, and what they keep then).
The target of a record is those points plus the current table's value of the
next leave if the bag still held 7 tiles; a ridge least-squares fit of the
target on the table's indicator features, with one intercept per stage of the
game (the bag's size in tens, nuisance terms that take the stage's scoring
level out of the leaves), gives the table (:func:`fit_leaves`). Refitting the
same records with the targets priced by the new table (:func:`fit_records`)
looks one more move ahead each time. Keeping nothing is worth 0, and every
other leave is shifted by one constant so that a single tile drawn at random
from a full bag is worth 0 on average (:func:`anchor_leaves` says why).
Rounds of new self-play with players that use the new table move the values
toward the policy that uses them.

The table is stored as a JSON file (:func:`save_leaves` / :func:`load_leaves`);
the package ships one per tile set under ``games/scrabble/data/``.

>>> from stratagem.games.scrabble.tiles import tile_set
>>> table = LeaveTable.zeros(tile_set("english"))
>>> table.value(tile_set("english").rack_counts("QU?"))
0.0
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.core.errors import StratagemError
from stratagem.core.files import parse_json_document, read_user_text, write_json
from stratagem.games.scrabble import _heuristic_kernels as kern
from stratagem.games.scrabble.board import RACK_SIZE
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.tiles import TileSet, tile_set

FORMAT = "stratagem-scrabble-leaves"
VERSION = 2
"""Version 2 adds the optional ``pairs``; version 1 files (without them) are still read."""
MAX_COPIES = 7
"""Columns of ``per_letter``: held 0..7 times (index 0 unused)."""
MAX_FILE_BYTES = 1_000_000
MAX_SELF_PLAY_GAMES = 10_000_000
"""Most self-play games a round (:func:`learn_leaves`)."""
MAX_ROUNDS = 100
"""Most self-play rounds (:func:`learn_leaves`)."""


class LeavesError(StratagemError, ValueError):
    """A leave-value file that is missing, malformed, or made for another tile set."""


def vowels(tiles: TileSet) -> np.ndarray:
    """Boolean per letter: a vowel (A E I O U, with their accented forms; Y too in Czech)."""
    base = "AEIOUY" if tiles.name == "czech" else "AEIOU"
    out = np.zeros(tiles.size, dtype=np.bool_)
    for i, letter in enumerate(tiles.letters):
        plain = unicodedata.normalize("NFD", letter)[0]
        out[i] = plain in base
    return out


@dataclass(frozen=True, eq=False)
class LeaveTable:
    """``per_letter[letter, copies]`` (blank last), ``balance[vowels, consonants]`` and
    ``pairs[x, y]`` for letters ``x < y`` (blank last; zeros when not given)."""

    tiles: TileSet
    per_letter: np.ndarray
    balance: np.ndarray
    note: str = ""
    pairs: np.ndarray = field(default_factory=lambda: np.zeros((0, 0)))

    def __post_init__(self) -> None:
        width = self.tiles.size + 1
        given = np.asarray(self.pairs, dtype=np.float64)
        pairs = np.zeros((width, width)) if given.size == 0 else np.triu(given, 1)
        if pairs.shape != (width, width):
            raise LeavesError(f"pairs must be {width} x {width}, got {pairs.shape}")
        object.__setattr__(self, "pairs", pairs)

    @classmethod
    def zeros(cls, tiles: TileSet) -> LeaveTable:
        """A table that values every leave at 0 (equity = score: the greedy player)."""
        return cls(
            tiles,
            np.zeros((tiles.size + 1, MAX_COPIES + 1)),
            np.zeros((MAX_COPIES + 1, MAX_COPIES + 1)),
            "zeros",
        )

    @property
    def vowel(self) -> np.ndarray:
        return vowels(self.tiles)

    def value(self, kept: np.ndarray) -> float:
        """The value of keeping these tiles (counts, blank last)."""
        return float(
            kern.leave_value(
                np.asarray(kept, dtype=np.int64), self.tiles.size, self.per_letter,
                self.balance, self.pairs, self.vowel,
            )
        )  # fmt: skip

    def to_json(self) -> dict[str, Any]:
        letters = [*self.tiles.letters, "?"]
        return {
            "format": FORMAT,
            "version": VERSION,
            "tiles": self.tiles.name,
            "note": self.note,
            "per_letter": {
                letter: [round(float(x), 3) for x in self.per_letter[i]]
                for i, letter in enumerate(letters)
            },
            "balance": [[round(float(x), 3) for x in row] for row in self.balance],
            "pairs": [
                [letters[i], letters[j], round(float(self.pairs[i, j]), 3)]
                for i, j in zip(*np.nonzero(np.round(self.pairs, 3)), strict=True)
            ],
        }


def save_leaves(table: LeaveTable, path: Path | str) -> None:
    """Write the table as JSON, atomically (temporary file, then rename)."""
    write_json(path, table.to_json(), indent=1, what="leave file")


def _number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise LeavesError(f"{where}: {value!r} is not a finite number")
    return float(value)


def parse_leaves(text: str, tiles: TileSet, where: str = "leave file") -> LeaveTable:
    """Read the JSON of :func:`save_leaves`; anything else raises :class:`LeavesError`."""
    data = parse_json_document(text, where, FORMAT, "leave file", LeavesError)
    version = data.get("version")
    if version not in (1, VERSION) or isinstance(version, bool):
        raise LeavesError(f"{where} has version {version!r}; this reads 1 and {VERSION}")
    if data.get("tiles") != tiles.name:
        raise LeavesError(f"{where} is for the {data.get('tiles')!r} tiles, not {tiles.name!r}")
    per = data.get("per_letter")
    letters = [*tiles.letters, "?"]
    if not isinstance(per, dict) or sorted(per) != sorted(letters):
        raise LeavesError(f"{where}: per_letter must hold one row for each of {''.join(letters)}")
    per_letter = np.zeros((tiles.size + 1, MAX_COPIES + 1))
    for i, letter in enumerate(letters):
        row = per[letter]
        if not isinstance(row, list) or len(row) != MAX_COPIES + 1:
            raise LeavesError(f"{where}: per_letter[{letter}] must list {MAX_COPIES + 1} numbers")
        per_letter[i] = [_number(x, f"{where}: per_letter[{letter}]") for x in row]
    bal = data.get("balance")
    if (
        not isinstance(bal, list)
        or len(bal) != MAX_COPIES + 1
        or not all(isinstance(row, list) and len(row) == MAX_COPIES + 1 for row in bal)
    ):
        raise LeavesError(f"{where}: balance must be {MAX_COPIES + 1} rows of {MAX_COPIES + 1}")
    balance = np.array([[_number(x, f"{where}: balance") for x in row] for row in bal])
    pairs = _parse_pairs(data.get("pairs", []) if version == VERSION else [], letters, where)
    return LeaveTable(tiles, per_letter, balance, str(data.get("note", "")), pairs)


def _parse_pairs(items: object, letters: list[str], where: str) -> np.ndarray:
    """``[[letter, letter, value], ...]`` as the upper triangle of a matrix."""
    index = {letter: i for i, letter in enumerate(letters)}
    pairs = np.zeros((len(letters), len(letters)))
    seen: set[tuple[int, int]] = set()
    if not isinstance(items, list):
        raise LeavesError(f"{where}: pairs must be a list of [letter, letter, value]")
    for item in items:
        if (
            not isinstance(item, list)
            or len(item) != 3
            or not all(isinstance(x, str) and x in index for x in item[:2])
            or item[0] == item[1]
        ):
            raise LeavesError(
                f"{where}: pairs entry {item!r} is not [letter, other letter, value] with "
                f"letters of {''.join(letters)}"
            )
        i, j = sorted((index[item[0]], index[item[1]]))
        if (i, j) in seen:
            raise LeavesError(f"{where}: the pair {item[0]}{item[1]} is given twice")
        seen.add((i, j))
        pairs[i, j] = _number(item[2], f"{where}: pairs {item[0]}{item[1]}")
    return pairs


def load_leaves(path: Path | str, tiles: TileSet) -> LeaveTable:
    """Read a leave file (at most 1 MB); bad contents raise :class:`LeavesError`, an
    unreadable file :class:`~stratagem.core.files.FileInputError`."""
    text = read_user_text(path, limit=MAX_FILE_BYTES, what="leave file")
    return parse_leaves(text, tiles, f"leave file {path}")


def shipped_leaves(tiles: TileSet | str) -> LeaveTable:
    """The leave table shipped for a tile set (``data/leaves_<tiles>.json``), else zeros."""
    ts = tile_set(tiles) if isinstance(tiles, str) else tiles
    name = f"leaves_{ts.name}.json"
    ref = resources.files("stratagem.games.scrabble").joinpath("data", name)
    if not ref.is_file():
        return LeaveTable.zeros(ts)
    return parse_leaves(ref.read_text(encoding="utf-8"), ts, f"shipped {name}")


# --- learning -------------------------------------------------------------------------------

STAGE_WIDTH = 10
"""Tiles of bag per stage group: the fit's nuisance intercepts (see :func:`fit_leaves`)."""


def _columns(width: int, pairs: bool) -> tuple[int, np.ndarray, np.ndarray, int]:
    """The design's layout: (columns before the pairs, pair rows, pair columns, columns)."""
    base_cols = width * (MAX_COPIES + 1) + (MAX_COPIES + 1) ** 2
    pi, pj = np.triu_indices(width, 1)
    return base_cols, pi, pj, base_cols + (len(pi) if pairs else 0)


def _design(
    kept: np.ndarray, vowel: np.ndarray, cumulative: bool = False, pairs: bool = False
) -> tuple[np.ndarray, int]:
    """Indicator features of each sample's leave: (letter, copies), (vowels, consonants),
    then, with ``pairs``, (x, y) for each two distinct letters ``x < y`` both held (in the
    order of ``np.triu_indices(width, 1)``).

    ``cumulative``: (letter, k) is set for every k up to the copies held, so that its
    coefficient is what the k-th copy adds (a ridge fit then shrinks a rare second blank
    toward "worth what the first is", not toward "worth nothing").
    """
    n_samples, width = kept.shape
    letters = width - 1
    base_cols, pi, pj, cols = _columns(width, pairs)
    x = np.zeros((n_samples, cols))
    rows = np.arange(n_samples)
    for i in range(width):
        n = np.minimum(kept[:, i], MAX_COPIES)
        if cumulative:
            for k in range(1, MAX_COPIES + 1):
                x[rows[n >= k], i * (MAX_COPIES + 1) + k] = 1.0
            continue
        held = n > 0
        x[rows[held], i * (MAX_COPIES + 1) + n[held]] = 1.0
    nv = np.minimum((kept[:, :letters] * vowel).sum(axis=1), MAX_COPIES)
    nc = np.minimum((kept[:, :letters] * ~vowel).sum(axis=1), MAX_COPIES)
    nonempty = kept.sum(axis=1) > 0
    base = width * (MAX_COPIES + 1)
    x[rows[nonempty], base + nv[nonempty] * (MAX_COPIES + 1) + nc[nonempty]] = 1.0
    if pairs:
        held = kept > 0
        x[:, base_cols:] = held[:, pi] & held[:, pj]
    return x, cols


def table_values(table: LeaveTable, kept: np.ndarray) -> np.ndarray:
    """The table's value of each row of ``kept`` (vectorised :meth:`LeaveTable.value`)."""
    width = table.tiles.size + 1
    coef = np.concatenate(
        [table.per_letter.ravel(), table.balance.ravel(), table.pairs[np.triu_indices(width, 1)]]
    )
    out = np.zeros(len(kept))
    for lo in range(0, len(kept), 20_000):
        part = np.asarray(kept[lo : lo + 20_000], dtype=np.int64)
        x, _ = _design(part, table.vowel, pairs=True)
        out[lo : lo + len(x)] = x @ coef
    return out


def fit_leaves(
    kept: np.ndarray,
    target: np.ndarray,
    tiles: TileSet,
    ridge: float = 3.0,
    note: str = "",
    stage: np.ndarray | None = None,
    pairs: bool = False,
) -> LeaveTable:
    """Ridge least squares of ``target`` on the leave features of ``kept`` (one row each);
    each further copy of a letter is fitted as what it adds to the copies before it, and
    with ``pairs`` each two distinct letters held together get a term of their own.

    Each distinct value of ``stage`` (e.g. the bag's size in groups of ten) gets its own
    unshrunk intercept; without it there is one. The intercepts are nuisance terms: a
    constant per position does not change which move is best, but a sample taken early in
    the game has more turns ahead than one taken late, and without them that difference
    would leak into the leaves that are common at one stage of the game.
    """
    if kept.ndim != 2 or kept.shape[1] != tiles.size + 1 or len(kept) != len(target):
        raise LeavesError("fit_leaves: kept must be (samples, letters + 1) with one target each")
    if len(kept) < 10:
        raise LeavesError(f"fit_leaves needs at least 10 samples, got {len(kept)}")
    if not math.isfinite(ridge) or ridge < 0:
        raise LeavesError(f"ridge must be a finite number >= 0, got {ridge}")
    groups = np.zeros(len(kept), dtype=np.int64) if stage is None else np.asarray(stage)
    if groups.shape != (len(kept),):
        raise LeavesError("fit_leaves: stage must hold one group per sample")
    _, group = np.unique(groups, return_inverse=True)
    n_groups = int(group.max()) + 1
    vowel = vowels(tiles)
    width = tiles.size + 1
    base_cols, pi, pj, cols = _columns(width, pairs)
    size = cols + n_groups
    gram = np.zeros((size, size))
    rhs = np.zeros(size)
    kept = kept.astype(np.int64)
    for lo in range(0, len(kept), 20_000):
        part, _ = _design(kept[lo : lo + 20_000], vowel, cumulative=True, pairs=pairs)
        x = np.zeros((len(part), size))
        x[:, :cols] = part
        x[np.arange(len(part)), cols + group[lo : lo + 20_000]] = 1.0
        gram += x.T @ x
        rhs += x.T @ target[lo : lo + 20_000]
    penalty = np.zeros(size)
    penalty[:cols] = ridge  # the intercepts are not shrunk
    coef = np.linalg.solve(gram + np.diag(penalty) + 1e-9 * np.eye(size), rhs)
    added = coef[: width * (MAX_COPIES + 1)].reshape(width, MAX_COPIES + 1).copy()
    added[:, 0] = 0.0
    per_letter = np.cumsum(added, axis=1)  # the k-th copy's worth added up to n copies
    balance = coef[width * (MAX_COPIES + 1) : base_cols].reshape(MAX_COPIES + 1, MAX_COPIES + 1)
    pair = np.zeros((width, width))
    if pairs:
        pair[pi, pj] = coef[base_cols:cols]
    return anchor_leaves(LeaveTable(tiles, per_letter, balance.copy(), note, pair))


def anchor_leaves(table: LeaveTable) -> LeaveTable:
    """Shift every non-empty leave by one constant so that a single tile drawn at random
    from a full bag is worth 0 on average (the empty leave stays 0).

    The fit's own reference, the empty leave, is met almost only after bingos, whose
    next turns score above the average (the bingo opened the board); measured from it,
    every leave came out several points too low, which pushes the player to turn over
    tiles. Published leave tables follow the same convention (single tiles average
    about 0), and only differences between leaves of equal size are unaffected by it.
    """
    tiles = table.tiles
    counts = tiles.bag_counts.astype(float)
    singles = np.zeros(tiles.size + 1)
    for i in range(tiles.size + 1):
        one = np.zeros(tiles.size + 1, dtype=np.int64)
        one[i] = 1
        singles[i] = table.value(one)
    shift = float(counts @ singles / counts.sum())
    balance = table.balance - shift
    return LeaveTable(tiles, table.per_letter.copy(), balance, table.note, table.pairs.copy())


@dataclass(frozen=True, eq=False)
class SelfPlayRecords:
    """One row per move made with at least 7 tiles in the bag, paired with the same
    player's next move: what they kept, the points of that next move, what they kept
    after it, whether the bag still held 7 tiles then (so that its leave counts), and the
    bag's size before the first move."""

    kept: np.ndarray
    score: np.ndarray
    next_kept: np.ndarray
    bootstrap: np.ndarray
    bag: np.ndarray

    def __len__(self) -> int:
        return len(self.score)

    def arrays(self) -> dict[str, np.ndarray]:
        return {
            "kept": self.kept,
            "score": self.score,
            "next_kept": self.next_kept,
            "bootstrap": self.bootstrap,
            "bag": self.bag,
        }

    @classmethod
    def concat(cls, parts: list[SelfPlayRecords], width: int) -> SelfPlayRecords:
        if not parts:
            empty = np.zeros((0, width), dtype=np.int64)
            return cls(empty, np.zeros(0), empty.copy(), np.zeros(0, bool), np.zeros(0, int))
        return cls(*(np.concatenate([getattr(p, k) for p in parts]) for k in parts[0].arrays()))

    def targets(self, table: LeaveTable) -> np.ndarray:
        """Next move's points + ``table``'s value of the leave after it (when it counts)."""
        nxt = table_values(table, self.next_kept)
        return self.score + np.where(self.bootstrap, nxt, 0.0)


def _recorder(steps: list[tuple[Any, int, Any]]) -> Callable[[Any, int, Any], None]:
    """An observer for :func:`~stratagem.core.play.play` that appends every step to ``steps``."""

    def observe(state: Any, player: int, action: Any) -> None:
        steps.append((state, player, action))

    return observe


def selfplay_records(
    lexicon: Lexicon,
    table: LeaveTable,
    games: int,
    seed: int,
    first: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> SelfPlayRecords:
    """Self-play ``games`` games of the equity player using ``table`` (zeros: greedy) and
    record every move made with at least 7 tiles in the bag (:class:`SelfPlayRecords`);
    game ``i`` draws from ``default_rng([seed, first + i])``."""
    from stratagem.core.play import play
    from stratagem.games.scrabble.board import Placement
    from stratagem.games.scrabble.heuristic import EquityAgent
    from stratagem.games.scrabble.state import ScrabbleState

    if not 1 <= games <= MAX_SELF_PLAY_GAMES:
        raise LeavesError(f"games must be 1-{MAX_SELF_PLAY_GAMES}, got {games}")
    agent = EquityAgent(lexicon.tiles, table, endgame=False)
    rows: list[tuple[tuple[int, ...], float, tuple[int, ...], bool, int]] = []
    for g in range(games):
        rng = np.random.default_rng([seed, first + g])
        steps: list[tuple[Any, int, Any]] = []  # (state, player, action) as core.play saw them
        played = play(ScrabbleState.new(lexicon, 2), [agent, agent], rng, observe=_recorder(steps))
        log: list[tuple[int, tuple[int, ...], float, bool, int]] = []  # player, kept, points
        afters = [s for s, _, _ in steps[1:]] + [played.state]  # the state each step made
        for (before, p, action), after in zip(steps, afters, strict=True):
            if p < 0:
                continue
            bag = before.bag_size()
            score = float(action.score) if isinstance(action, Placement) else 0.0
            log.append((p, after.racks[p], score, bag >= RACK_SIZE, bag))
        for i, (p, kept, _, early, bag) in enumerate(log):
            if not early:
                continue
            for q, nxt, score, nxt_early, _ in log[i + 1 :]:
                if q == p:
                    rows.append((kept, score, nxt, nxt_early, bag))
                    break
        if progress:
            progress(g + 1, games)
    width = lexicon.tiles.size + 1
    if not rows:
        return SelfPlayRecords.concat([], width)
    return SelfPlayRecords(
        np.array([r[0] for r in rows], dtype=np.int64).reshape(-1, width),
        np.array([r[1] for r in rows]),
        np.array([r[2] for r in rows], dtype=np.int64).reshape(-1, width),
        np.array([r[3] for r in rows], dtype=np.bool_),
        np.array([r[4] for r in rows], dtype=np.int64),
    )


def selfplay_samples(
    lexicon: Lexicon,
    table: LeaveTable,
    games: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """(kept tiles, next-move worth by ``table``) of :func:`selfplay_records`."""
    records = selfplay_records(lexicon, table, games, seed, progress=progress)
    return records.kept, records.targets(table)


def fit_records(
    records: SelfPlayRecords,
    tiles: TileSet,
    start: LeaveTable,
    refits: int = 1,
    ridge: float = 3.0,
    note: str = "",
    pairs: bool = False,
) -> tuple[LeaveTable, list[float]]:
    """Fit a table to ``records`` ``refits`` times, each time with the targets priced by
    the table before (the first by ``start``): every refit looks one more move ahead.
    ``pairs``: fit the letter-pair terms too. Returns the table and, per refit, the
    largest change of a single tile's value."""
    if not 1 <= refits <= 100:
        raise LeavesError(f"refits must be 1-100, got {refits}")
    table = start
    changes: list[float] = []
    stage = records.bag // STAGE_WIDTH
    eye = np.eye(tiles.size + 1, dtype=np.int64)
    for _ in range(refits):
        new = fit_leaves(records.kept, records.targets(table), tiles, ridge, note, stage, pairs)
        changes.append(float(np.max(np.abs(table_values(new, eye) - table_values(table, eye)))))
        table = new
    return table, changes


def learn_leaves(
    lexicon: Lexicon,
    games: int,
    iterations: int = 2,
    seed: int = 0,
    start: LeaveTable | None = None,
    ridge: float = 3.0,
    progress: Callable[[int, int, int], None] | None = None,
    refits: int = 1,
    pairs: bool = False,
) -> LeaveTable:
    """Learn a table by ``iterations`` rounds of ``games`` self-play games (module docstring).

    The first round's players use ``start`` (zeros: the greedy player, whose leaves are
    not chosen); later rounds use the table of the round before. Each round's table is
    fitted ``refits`` times to its own games (:func:`fit_records`), with the letter-pair
    terms if ``pairs``.
    """
    if not 1 <= iterations <= MAX_ROUNDS:
        raise LeavesError(f"iterations must be 1-{MAX_ROUNDS}, got {iterations}")
    table = start if start is not None else LeaveTable.zeros(lexicon.tiles)
    for it in range(iterations):

        def tick(done: int, total: int, it: int = it) -> None:
            if progress:
                progress(it, done, total)

        records = selfplay_records(lexicon, table, games, seed + it * 1_000_003, progress=tick)
        table, _ = fit_records(
            records, lexicon.tiles, table, refits, ridge,
            note=f"learned by self-play: {iterations} rounds of {games} games "
                 f"(last round {len(records)} samples, {refits} refits), ridge {ridge}, "
                 f"seed {seed}, lexicon {lexicon.source}"
                 + (", with letter-pair terms" if pairs else ""),
            pairs=pairs,
        )  # fmt: skip
    return table
