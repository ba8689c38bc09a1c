"""Two-player Yahtzee solved exactly on reduced score cards (a *variant*).

Both players play to win (a draw counts half). A variant is a subset of the
boxes of a rule preset, scored by each box's own rule, with or without the
upper bonus (paid for reaching three of each face of the variant's upper
boxes: 63 for all six, as in the full game). Yahtzee bonuses and joker rules
are not part of a variant (a Yahtzee box scores its 50 or 0).

The game is solved by backward induction over *levels* (turns played, 0 ..
2n-1 for n boxes). A level holds every pair (mover's card, other card), and
for each pair the mover's win chance for every score difference that is not
already decided (the *window*, see :mod:`._duel_kernels`). Levels are written
to disk one by one (temporary file + rename) so that a killed run resumes at
the last finished level; a level file from another variant or run, or a
truncated one, raises :class:`~stratagem.core.errors.CacheError`.

Each side plays by one of three *modes*: ``max`` (the largest win chance,
i.e. a best response to the other side; both ``max`` is the win-optimal
solution), ``es`` (the expected-score optimum restricted to the variant:
Glenn's solitaire strategy, solved by the project's solitaire kernels on the
variant's card), ``win`` (the win-optimal strategy, read from the ``max``/
``max`` run, played against whatever the other side does), ``seek`` (the
win-seeking player of :mod:`.winning` / :mod:`.match`: each turn the choice with
the largest win chance when both sides play the expected-score optimum
afterwards, i.e. the ``es``/``es`` run's values one turn ahead).

>>> v = Variant("yahtzee", ("ones", "twos"))
>>> v.num_boxes, v.threshold
(2, 0)
>>> Variant("yahtzee", ("fives", "sixes"), upper_bonus=True).threshold
33
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Literal, Protocol

import numpy as np

from stratagem.core.errors import CacheError, InvalidRulesError
from stratagem.core.lazy import LazyModule
from stratagem.core.tables import TableCache, default_cache_dir, fingerprint
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee.rules import UPPER, YahtzeeRules, _score_for, preset
from stratagem.games.yahtzee.solver import KernelRules

K = LazyModule("stratagem.games.yahtzee._kernels")
DK = LazyModule("stratagem.games.yahtzee._dist_kernels")
DUEL = LazyModule("stratagem.games.yahtzee._duel_kernels")

FORMAT_VERSION = 1
Mode = Literal["max", "es", "win", "seek"]
MODES: tuple[Mode, ...] = ("max", "es", "win", "seek")
_KERNEL_MODE = {"max": 0, "es": 1, "win": 2, "seek": 2}
_REFERENCE: dict[Mode, tuple[Mode, Mode]] = {"win": ("max", "max"), "seek": ("es", "es")}
"""The run whose values a following side (``win``, ``seek``) maximises."""

MAX_BYTES = 4 << 30
"""The most memory a run may need here (two levels at once, plus a reference level)."""
MAX_SECONDS = 3600.0
"""The longest estimated run accepted here."""
SECONDS_PER_VALUE = 1.8e-5
"""Measured solve time per stored value (one pair, one score difference), win-optimal run,
on this machine's two cores shared with other work (load about 13; see
docs/results/yahtzee_two_player.md); used for estimates."""

Progress = Callable[[int, int], None]
"""Called as ``progress(levels_done, levels_total)`` after each level."""


@dataclass(frozen=True)
class Variant:
    """A reduced score card: some boxes of a preset, with or without the upper bonus."""

    preset: str
    boxes: tuple[str, ...]
    upper_bonus: bool = False

    def __post_init__(self) -> None:
        rules = preset(self.preset)
        if not self.boxes:
            raise InvalidRulesError("a duel variant needs at least one box")
        unknown = [b for b in self.boxes if b not in rules.categories]
        if unknown:
            raise InvalidRulesError(
                f"unknown box(es) {', '.join(map(repr, unknown))} for {self.preset}; "
                f"the boxes are: {', '.join(rules.categories)}"
            )
        if len(set(self.boxes)) != len(self.boxes):
            raise InvalidRulesError(f"a box is named twice in {list(self.boxes)}")
        ordered = tuple(c for c in rules.categories if c in self.boxes)
        object.__setattr__(self, "boxes", ordered)
        if self.upper_bonus and not any(b in UPPER for b in self.boxes):
            raise InvalidRulesError("the upper bonus needs at least one upper box")

    @property
    def rules(self) -> YahtzeeRules:
        return preset(self.preset)

    @property
    def num_boxes(self) -> int:
        return len(self.boxes)

    @property
    def faces(self) -> tuple[int, ...]:
        """The face of each box (1..6 for an upper box, 0 for a lower one)."""
        return tuple(UPPER.index(b) + 1 if b in UPPER else 0 for b in self.boxes)

    @property
    def threshold(self) -> int:
        """Upper total that pays the bonus (0: no bonus): three of each upper face."""
        return 3 * sum(self.faces) if self.upper_bonus else 0

    @property
    def bonus(self) -> int:
        return self.rules.upper_bonus if self.upper_bonus else 0

    @property
    def name(self) -> str:
        short = "+".join(self.boxes)
        return f"{self.preset}[{short}{' +bonus' if self.upper_bonus else ''}]"

    @property
    def fingerprint(self) -> str:
        return fingerprint({**asdict(self), "rules": self.rules.fingerprint})

    @cached_property
    def kernel(self) -> KernelRules:
        """The variant as the solitaire kernels' rules argument (no joker, no Yahtzee bonus)."""
        n = self.num_boxes
        score = np.zeros((n, D.NUM_KEEPS), dtype=np.int64)
        for c, name in enumerate(self.boxes):
            for k in range(D.ROLL_START, D.NUM_KEEPS):
                score[c, k] = _score_for(self.rules.family, name, D.KEEPS[k])
        upper_face = np.array(self.faces, dtype=np.int64)
        lower = sum(1 << c for c, f in enumerate(self.faces) if f == 0)
        ip = np.array([-1, 0, self.bonus, self.threshold, 0, 1, lower], dtype=np.int64)
        return KernelRules(score, upper_face, np.zeros((n, 6, 2), dtype=np.int64), D.COUNTS, ip,
                           D.ADD, D.SUB, D.SUB_COUNT, D.SUBKEEPS, D.SUBKEEP_COUNT,
                           D.CODE_TO_KEEP, D.ROLL_PROBABILITY,
                           np.array([-1, -1], dtype=np.int64))  # fmt: skip

    def box_max(self) -> np.ndarray:
        """The most points each box can score."""
        return np.asarray(self.kernel.score[:, D.ROLL_START :].max(axis=1))


def parse_variant(text: str) -> Variant:
    """``preset:box,box,...[:bonus]``, e.g. ``yahtzee:ones,twos,threes:bonus``."""
    parts = text.split(":")
    if len(parts) not in (2, 3) or (len(parts) == 3 and parts[2] != "bonus"):
        raise InvalidRulesError(
            f"cannot read variant {text!r}; write preset:box,box[:bonus], "
            "e.g. yahtzee:ones,twos:bonus"
        )
    boxes = tuple(b for b in parts[1].split(",") if b)
    return Variant(parts[0], boxes, upper_bonus=len(parts) == 3)


@dataclass(frozen=True)
class Cards:
    """Every card a player of the variant can hold at a turn start, by layer.

    ``layers[i]`` holds the cards with i boxes filled as rows ``(mask, upper)``;
    ``sid[mask, upper]`` is a card's index within its layer (-1 if it cannot
    occur); ``most[i][a]`` bounds the points still to come on card a.
    """

    variant: Variant
    layers: list[np.ndarray]
    sid: np.ndarray
    most: list[np.ndarray]

    @classmethod
    def build(cls, variant: Variant) -> Cards:
        n = variant.num_boxes
        T = variant.threshold
        faces = variant.faces
        boxmax = variant.box_max()
        sid = np.full((1 << n, T + 1), -1, dtype=np.int64)
        layers: list[list[tuple[int, int]]] = [[] for _ in range(n + 1)]
        for mask in range(1 << n):
            totals = {0}
            for c in range(n):
                if (mask >> c) & 1 and faces[c]:
                    totals = {min(T, t + faces[c] * m) for t in totals for m in range(6)}
            for u in sorted(totals):
                layers[bin(mask).count("1")].append((mask, u))
        arrays = [np.array(rows, dtype=np.int64).reshape(-1, 2) for rows in layers]
        most = []
        for rows in arrays:
            sid[rows[:, 0], rows[:, 1]] = np.arange(len(rows))
            bound = np.zeros(len(rows), dtype=np.int64)
            for i, (mask, u) in enumerate(rows):
                open_boxes = [c for c in range(n) if not (mask >> c) & 1]
                bound[i] = sum(int(boxmax[c]) for c in open_boxes)
                upper_left = sum(5 * faces[c] for c in open_boxes)
                if T and u < T and u + upper_left >= T:
                    bound[i] += variant.bonus
            most.append(bound)
        return cls(variant, arrays, sid, most)

    def describe(self, layer: int, a: int) -> str:
        """A card as a person reads it: the filled boxes and the upper total."""
        mask, u = (int(x) for x in self.layers[layer][a])
        filled = [b for c, b in enumerate(self.variant.boxes) if (mask >> c) & 1]
        text = ", ".join(filled) if filled else "empty"
        if self.variant.threshold:
            text += f"; upper {u}" + ("+" if u >= self.variant.threshold else "")
        return f"[{text}]"


def level_layers(t: int) -> tuple[int, int]:
    """(mover's layer, other's layer) of level t: turns played t, first player moves at even t."""
    return t // 2, (t + 1) // 2


@dataclass(frozen=True)
class LevelShape:
    """The layout of one level: pair offsets and window sizes."""

    off: np.ndarray
    size: int
    mover: int
    other: int


def level_shape(cards: Cards, t: int) -> LevelShape:
    i, j = level_layers(t)
    ma, mb = cards.most[i], cards.most[j]
    lengths = (ma[:, None] + mb[None, :] + 1).ravel()
    off = np.zeros(len(lengths), dtype=np.int64)
    np.cumsum(lengths[:-1], out=off[1:])
    return LevelShape(off.reshape(len(ma), len(mb)), int(lengths.sum()), i, j)


@dataclass
class Estimate:
    """What a run of a variant needs: values per level, bytes and seconds."""

    variant: Variant
    values_per_level: list[int]
    pairs_per_level: list[int]
    bytes_peak: int
    seconds: float

    @property
    def values(self) -> int:
        return sum(self.values_per_level)

    @property
    def pairs(self) -> int:
        return sum(self.pairs_per_level)


def estimate(variant: Variant, cards: Cards | None = None) -> Estimate:
    """Values, pairs, peak memory and time of one run (without solving anything)."""
    cards = cards or Cards.build(variant)
    n = variant.num_boxes
    values, pairs = [], []
    for t in range(2 * n):
        i, j = level_layers(t)
        ma, mb = cards.most[i], cards.most[j]
        values.append(int(len(mb) * (ma + 1).sum() + len(ma) * mb.sum()))
        pairs.append(len(ma) * len(mb))
    peak = 0
    for t in range(2 * n):
        nxt = values[t + 1] if t + 1 < 2 * n else 0
        # this level, the next one, the reference's next level, offsets
        peak = max(peak, 8 * (values[t] + 2 * nxt) + 16 * pairs[t] + 48 * pairs[t])
    return Estimate(variant, values, pairs, peak, sum(values) * SECONDS_PER_VALUE)


def check_size(est: Estimate, max_bytes: int = MAX_BYTES, max_seconds: float = MAX_SECONDS) -> None:
    """Refuse, before any work, a variant too large to solve here."""
    if est.bytes_peak > max_bytes or est.seconds > max_seconds:
        raise InvalidRulesError(
            f"{est.variant.name} is too large to solve here: about "
            f"{est.bytes_peak / 2**20:,.0f} MiB and {est.seconds:,.0f} s per run "
            f"({est.values:,} values in {est.pairs:,} card pairs); the limits are "
            f"{max_bytes / 2**20:,.0f} MiB and {max_seconds:,.0f} s"
        )


def es_values(variant: Variant) -> np.ndarray:
    """Glenn's solitaire values on the variant's card: ``V[mask, u, 0]`` (expected points
    still to come), solved by the project's solitaire kernel (:func:`._kernels.solve_layer`)."""
    cards = Cards.build(variant)
    n = variant.num_boxes
    V = np.full((1 << n, variant.threshold + 1, 1), np.nan)
    full = cards.layers[n]
    V[full[:, 0], full[:, 1], 0] = 0.0
    for i in range(n - 1, -1, -1):
        rows = cards.layers[i]
        states = np.zeros((len(rows), 3), dtype=np.int64)
        states[:, :2] = rows
        K.solve_layer(V, states, variant.kernel)
    return V


def es_policy(variant: Variant, cards: Cards, V: np.ndarray, layer: int) -> tuple[np.ndarray, ...]:
    """The expected-score optimum's choices on every card of a layer: ``keep2``, ``keep1``,
    ``cat`` (rows of 462 by keep number), from :func:`._dist_kernels.policy_tables`."""
    rows = cards.layers[layer]
    shape = (len(rows), D.NUM_KEEPS)
    keep2 = np.zeros(shape, dtype=np.int64)
    keep1 = np.zeros(shape, dtype=np.int64)
    cat = np.zeros(shape, dtype=np.int64)
    e0, e1, w = (np.empty(D.NUM_KEEPS) for _ in range(3))
    scratch = DK.TurnScratch(e0, e1, w, np.zeros(6, dtype=np.int64))
    for a, (mask, u) in enumerate(rows):
        if layer < variant.num_boxes:
            DK.policy_tables(DK.OPTIMAL, V, V, int(mask), int(u), 0, variant.kernel,
                             DK.Choices(keep2[a], keep1[a], cat[a]), scratch)  # fmt: skip
    return keep2, keep1, cat


@dataclass
class Level:
    """One solved level of a run: values by pair window, and (``max``/``max`` runs)
    the largest win chance the expected-score optimum gives up in each pair's turn."""

    t: int
    off: np.ndarray
    data: np.ndarray
    loss: np.ndarray | None = None


class Executor(Protocol):
    """What runs a level's blocks: ``concurrent.futures`` pools and Ray's pool have it."""

    def map(self, fn: Callable[[RowsTask], Any], tasks: Iterable[RowsTask]) -> Iterator[Any]: ...


BLOCK_VALUES = 2_000_000
"""Values per block of a level (progress, Ctrl-C and cluster tasks are per block)."""


@dataclass(frozen=True)
class RowsTask:
    """One block of a level: the pairs whose mover card is in ``a0 .. a1 - 1``, with the
    next level (and the reference run's next level for a ``win`` side)."""

    variant: Variant
    modes: tuple[Mode, Mode]
    track: bool
    t: int
    a0: int
    a1: int
    nxt: Level | None
    ref: Level | None


@lru_cache(maxsize=4)
def _cards(variant: Variant) -> Cards:
    return Cards.build(variant)


@lru_cache(maxsize=64)
def _policy(variant: Variant, layer: int) -> tuple[np.ndarray, ...]:
    return es_policy(variant, _cards(variant), _es_values(variant), layer)


@lru_cache(maxsize=4)
def _es_values(variant: Variant) -> np.ndarray:
    return es_values(variant)


def solve_rows(task: RowsTask) -> tuple[np.ndarray, np.ndarray]:
    """Solve one block: its values (contiguous in the level's data) and, when tracked,
    its pairs' loss records. A top-level function of picklable data, so a process pool
    or a Ray cluster can run it."""
    variant, t = task.variant, task.t
    cards = _cards(variant)
    shape = level_shape(cards, t)
    i, j = shape.mover, shape.other
    mode = task.modes[t % 2]
    if mode == "es" or task.track:
        keep2, keep1, cat = _policy(variant, i)
    else:
        keep2 = keep1 = cat = np.zeros((len(cards.layers[i]), D.NUM_KEEPS), dtype=np.int64)
    terminal = task.nxt is None
    if task.nxt is None:
        nxt_off, nxt_data = np.zeros((1, 1), dtype=np.int64), np.zeros(1)
    else:
        nxt_off, nxt_data = task.nxt.off, task.nxt.data
    ref_off, ref_data = (
        (task.ref.off, task.ref.data) if task.ref is not None else (nxt_off, nxt_data)
    )
    nb = len(cards.layers[j])
    rows = np.arange(task.a0, task.a1)
    pairs = np.stack(np.meshgrid(rows, np.arange(nb), indexing="ij"), -1).reshape(-1, 2)
    pairs = pairs.astype(np.int64)
    base = int(shape.off[task.a0, 0])
    end = int(shape.off[task.a1, 0]) if task.a1 < len(shape.off) else shape.size
    off = shape.off - base  # rows of other blocks are never read
    data = np.empty(end - base)
    loss = np.zeros((len(pairs), 4)) if task.track else np.zeros((0, 4))
    i1 = min(i + 1, variant.num_boxes)
    a_rows = cards.layers[i]
    pair_cards = DUEL.Cards(a_rows[:, 0].copy(), a_rows[:, 1].copy(), cards.most[i],
                            cards.most[j], cards.sid, cards.most[i1])  # fmt: skip
    after = DUEL.Next(nxt_off, nxt_data, ref_off, ref_data, terminal, False)
    DUEL.solve_pairs(_KERNEL_MODE[mode], pairs, pair_cards, variant.kernel, off, data, after,
                     DUEL.Policy(keep2, keep1, cat), loss, task.track)  # fmt: skip
    return data, loss


@dataclass
class Run:
    """A pair of modes (first player's, second player's) on a variant, solved level by level.

    ``directory`` holds one file per finished level; ``solve()`` resumes.
    """

    variant: Variant
    modes: tuple[Mode, Mode]
    directory: Path | None = None
    reference: Run | None = None
    track_loss: bool = False
    block_progress: Progress | None = None
    cards: Cards = field(init=False)
    level_seconds: dict[int, float] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for m in self.modes:
            if m not in MODES:
                raise InvalidRulesError(f"unknown mode {m!r}; use one of {', '.join(MODES)}")
        following = {m for m in self.modes if m in _REFERENCE}
        if len(following) > 1:
            raise InvalidRulesError("'win' and 'seek' follow different runs: not in one run")
        for m in following:
            want = _REFERENCE[m]
            if self.reference is None or self.reference.modes != want:
                raise InvalidRulesError(
                    f"a {m!r} side needs the {want[0]}/{want[1]} run as its reference"
                )
        if self.directory is None:
            self.directory = default_cache_dir() / "yahtzee-duel" / self.variant.fingerprint
        self.cards = Cards.build(self.variant)

    @property
    def key(self) -> str:
        return fingerprint({"variant": self.variant.fingerprint, "modes": list(self.modes),
                            "track": self.track_loss})  # fmt: skip

    @property
    def run_dir(self) -> Path:
        assert self.directory is not None
        return self.directory / f"{self.modes[0]}-{self.modes[1]}"

    def _cache(self) -> TableCache:
        return TableCache(self.run_dir)

    def load(self, t: int) -> Level | None:
        """A finished level from disk, ``None`` if not yet solved; :class:`CacheError` if the
        file is truncated, corrupt or from another variant or run."""
        arrays = self._cache().load(f"level{t:02d}", self.key, FORMAT_VERSION)
        if arrays is None:
            return None
        shape = level_shape(self.cards, t)
        data = arrays.get("data")
        off = arrays.get("off")
        if (
            data is None
            or off is None
            or data.shape != (shape.size,)
            or not np.array_equal(off, shape.off)
        ):
            raise CacheError(f"level {t} of {self.run_dir} does not fit {self.variant.name}")
        return Level(t, off, data, arrays.get("loss"))

    def _save(self, level: Level) -> None:
        arrays = {"off": level.off, "data": level.data}
        if level.loss is not None:
            arrays["loss"] = level.loss
        meta = {"variant": self.variant.name, "modes": list(self.modes)}
        self._cache().save(f"level{level.t:02d}", self.key, FORMAT_VERSION, arrays, meta=meta)

    def finished_levels(self) -> list[int]:
        cache = self._cache()
        return [
            t
            for t in range(2 * self.variant.num_boxes)
            if cache.path(f"level{t:02d}", self.key, FORMAT_VERSION).exists()
        ]

    def solve(
        self,
        progress: Progress | None = None,
        max_bytes: int = MAX_BYTES,
        max_seconds: float = MAX_SECONDS,
        stop_after: int | None = None,
        executor: Executor | None = None,
    ) -> float:
        """Solve every level not yet on disk (last first) and return the first player's value.

        ``stop_after`` solves at most that many levels and returns NaN (a run cut short, as
        a killed one would be). ``executor`` (anything with ``map``: a process pool, a Ray
        pool) runs the blocks of each level; the tables do not depend on it.
        """
        check_size(estimate(self.variant, self.cards), max_bytes, max_seconds)
        if self.reference is not None:
            self.reference.solve(progress, max_bytes, max_seconds)
        n = self.variant.num_boxes
        nxt: Level | None = None
        solved = 0
        for t in range(2 * n - 1, -1, -1):
            level = self.load(t)
            if level is None:
                if stop_after is not None and solved >= stop_after:
                    return math.nan
                if nxt is None and t + 1 < 2 * n:
                    nxt = self.load(t + 1)
                    assert nxt is not None
                start = time.perf_counter()
                level = self._solve_level(t, nxt, executor)
                self.level_seconds[t] = time.perf_counter() - start
                self._save(level)
                solved += 1
            nxt = level
            if progress is not None:
                progress(2 * n - t, 2 * n)
        assert nxt is not None
        return float(nxt.data[0 + self.cards.most[0][0]])

    def _solve_level(self, t: int, nxt: Level | None, executor: Executor | None) -> Level:
        cards = self.cards
        shape = level_shape(cards, t)
        mode = self.modes[t % 2]
        ref: Level | None = None
        if mode in _REFERENCE and nxt is not None:
            assert self.reference is not None
            ref = self.reference.load(t + 1)
            if ref is None:
                raise CacheError(f"the reference run lacks level {t + 1}")
        track = self.track_loss and mode == "max"
        nrows = len(cards.layers[shape.mover])
        ncols = len(cards.layers[shape.other])
        # Blocks of mover cards, each a contiguous run of the level's values, of about
        # BLOCK_VALUES values: the unit of progress, of Ctrl-C and of a cluster task.
        per_row = max(1, shape.size // max(1, nrows))
        step = max(1, BLOCK_VALUES // per_row)
        tasks = [
            RowsTask(self.variant, self.modes, track, t, a0, min(nrows, a0 + step), nxt, ref)
            for a0 in range(0, nrows, step)
        ]
        results = (
            executor.map(solve_rows, tasks) if executor is not None else map(solve_rows, tasks)
        )
        parts, losses = [], []
        for done, (part, loss) in enumerate(results, 1):
            parts.append(part)
            losses.append(loss)
            if self.block_progress is not None:
                self.block_progress(done, len(tasks))
        data = np.concatenate(parts)
        loss_all = np.concatenate(losses) if track else None
        assert data.shape == (shape.size,) and (loss_all is None or len(loss_all) == nrows * ncols)
        return Level(t, shape.off, data, loss_all)

    def value(self, t: int, a: int, b: int, d: int) -> float:
        """The mover's value of pair (a, b) at difference d on level t (from disk)."""
        level = self.load(t)
        if level is None:
            raise CacheError(f"level {t} of {self.run_dir} is not solved")
        i, j = level_layers(t)
        ma, mb = int(self.cards.most[i][a]), int(self.cards.most[j][b])
        if d > mb:
            return 1.0
        if d < -ma:
            return 0.0
        return float(level.data[level.off[a, b] + d + ma])


def solo_tail(variant: Variant, mode: Literal["max", "es"]) -> list[Level]:
    """Positions whose other card is full, so the mover plays alone to the end:
    ``levels[i]`` holds pairs (card with i boxes filled, full card), window
    ``-most <= d <= 0``. ``es``: the win chance of the expected-score optimum,
    ``P(X > -d) + P(X = -d) / 2`` for its points still to come X; ``max``: the
    largest such chance. A check of the duel kernel against the solitaire solver.
    """
    cards = Cards.build(variant)
    n = variant.num_boxes
    V = es_values(variant)
    full = cards.layers[n]
    nf = len(full)
    zero_most = cards.most[n]
    levels: list[Level] = [Level(n, np.zeros((0, 0), dtype=np.int64), np.zeros(0))] * (n + 1)
    nxt: Level | None = None
    for i in range(n - 1, -1, -1):
        ma = cards.most[i]
        lengths = np.repeat(ma + 1, nf)
        flat = np.zeros(len(lengths), dtype=np.int64)
        np.cumsum(lengths[:-1], out=flat[1:])
        off = flat.reshape(len(ma), nf)
        keep2, keep1, cat = es_policy(variant, cards, V, i)
        pairs = np.stack(np.meshgrid(np.arange(len(ma)), np.arange(nf), indexing="ij"), -1)
        pairs = pairs.reshape(-1, 2).astype(np.int64)
        data = np.empty(int(lengths.sum()))
        terminal = nxt is None
        nxt_off = np.zeros((1, 1), dtype=np.int64) if nxt is None else nxt.off
        nxt_data = np.zeros(1) if nxt is None else nxt.data
        pair_cards = DUEL.Cards(cards.layers[i][:, 0].copy(), cards.layers[i][:, 1].copy(), ma,
                                zero_most, cards.sid, cards.most[i + 1])  # fmt: skip
        after = DUEL.Next(nxt_off, nxt_data, nxt_off, nxt_data, terminal, True)
        DUEL.solve_pairs(_KERNEL_MODE[mode], pairs, pair_cards, variant.kernel, off, data, after,
                         DUEL.Policy(keep2, keep1, cat), np.zeros((0, 4)), False)  # fmt: skip
        nxt = Level(i, off, data)
        levels[i] = nxt
    return levels


@dataclass(frozen=True)
class TurnTables:
    """One turn of a ``max``/``max`` run at one score difference, as choices see it:
    ``box[(c, k)]`` is the mover's win chance after scoring roll k in open box c, and
    ``keep[left][k]`` the chance after keeping k with ``left`` rerolls left before the
    keep (a whole roll kept is the roll's value with one reroll fewer). Both sides play
    the run's (win-optimal) strategy afterwards."""

    open_boxes: tuple[int, ...]
    box: dict[tuple[int, int], float]
    keep: dict[int, np.ndarray]

    def best_box(self, roll: int) -> int:
        """The box the kernel chooses for ``roll`` (the first of equals, in card order)."""
        best, choice = -1.0, -1
        for c in self.open_boxes:
            v = self.box[(c, roll)]
            if v > best:
                best, choice = v, c
        return choice

    def best_keep(self, roll: int, left: int) -> int:
        """The keep the kernel chooses for ``roll`` with ``left`` rerolls (``_best_sub``'s
        rule: the whole roll first, a smaller keep only when strictly better)."""
        return int(self.keep_choices(left)[roll])

    def keep_choices(self, left: int) -> np.ndarray:
        """:meth:`best_keep` of every keep at once (``[k]``: the keep chosen from k)."""
        E = self.keep[left]
        M = np.empty(D.NUM_KEEPS)
        C = np.empty(D.NUM_KEEPS, dtype=np.int64)
        for k in range(D.NUM_KEEPS):
            best, choice = E[k], k
            for j in range(D.SUB_COUNT[k]):
                s = D.SUB[k, j]
                if M[s] > best:
                    best, choice = M[s], C[s]
            M[k], C[k] = best, choice
        return C


def turn_tables(run: Run, t: int, a: int, b: int, d: int, nxt: Level | None) -> TurnTables:
    """The :class:`TurnTables` of pair (a, b) at difference d on level t, recomputed in
    numpy from ``nxt`` (the run's level t + 1, ``None`` at the last level)."""
    cards, variant = run.cards, run.variant
    i, j = level_layers(t)
    mask, u = (int(x) for x in cards.layers[i][a])
    R = variant.kernel
    n = variant.num_boxes
    mb = int(cards.most[j][b])

    def after_box(c: int, k: int) -> float:
        pts, nu = DUEL.score_box(mask, u, c, k, R.score, R.upper_face, R.ip)
        a1 = int(cards.sid[mask | (1 << c), nu])
        e = -(d + int(pts))
        if nxt is None:
            return 1.0 - (1.0 if e > 0 else 0.5 if e == 0 else 0.0)
        return 1.0 - float(DUEL.next_value(nxt.off, nxt.data, False, b, mb, a1,
                                           int(cards.most[i + 1][a1]), e))  # fmt: skip

    open_boxes = tuple(c for c in range(n) if not (mask >> c) & 1)
    box_value = {(c, k): after_box(c, k) for c in open_boxes
                 for k in range(D.ROLL_START, D.NUM_KEEPS)}  # fmt: skip
    E = np.zeros(D.NUM_KEEPS)
    for k in range(D.ROLL_START, D.NUM_KEEPS):
        E[k] = max(box_value[(c, k)] for c in open_boxes)
    tables = {0: E.copy()}
    for step in (1, 2):
        for k in range(D.ROLL_START - 1, -1, -1):
            E[k] = E[D.ADD[k]].mean()
        tables[step] = E.copy()  # a keep's value when `step` rerolls were left before it
        best = np.empty(D.NUM_KEEPS)
        for k in range(D.NUM_KEEPS):
            best[k] = max([E[k], *(best[D.SUB[k, s]] for s in range(D.SUB_COUNT[k]))])
        E[D.ROLL_START :] = best[D.ROLL_START :]
    return TurnTables(open_boxes, box_value, tables)


def decision(run: Run, t: int, a: int, b: int, d: int, roll: int, left: int) -> dict[str, object]:
    """One decision of ``run`` (a ``max``/``max`` run) as a person reads it: the best
    choice and the expected-score optimum's, each with its win chance (followed by
    ``run``'s play). Recomputed in numpy from the next level, one score difference only."""
    if run.modes != ("max", "max"):
        raise InvalidRulesError("decisions are read from the max/max run")
    cards, variant = run.cards, run.variant
    i, _j = level_layers(t)
    n = variant.num_boxes
    nxt = run.load(t + 1) if t + 1 < 2 * n else None
    turn = turn_tables(run, t, a, b, d, nxt)
    open_boxes, box_value = turn.open_boxes, turn.box
    V = es_values(variant)
    keep2, keep1, cat = es_policy(variant, cards, V, i)
    if left == 0:
        options = {f"score {variant.boxes[c]}": box_value[(c, roll)] for c in open_boxes}
        es_choice = f"score {variant.boxes[int(cat[a, roll])]}"
    else:
        keep_e = turn.keep[left]
        r = roll - D.ROLL_START
        subs = [int(x) for x in D.SUBKEEPS[r, : D.SUBKEEP_COUNT[r]]]
        options = {f"keep {describe_roll(k)}": float(keep_e[k]) for k in subs}
        chosen = int((keep2 if left == 2 else keep1)[a, roll])
        es_choice = f"keep {describe_roll(chosen)}"
    best_choice = max(options, key=lambda o: options[o])
    return {
        "best": best_choice, "best_chance": options[best_choice],
        "es": es_choice, "es_chance": options[es_choice],
    }  # fmt: skip


def level_counts(rules: YahtzeeRules) -> list[tuple[int, int, int]]:
    """For the full game of ``rules`` (two players): per level, ``(pairs of turn-start
    cards, score-difference values, bytes at 8 per value)`` counted exactly from the
    solitaire solver's reachable states; the score difference ranges over the window
    where the outcome is open, bounded by each card's most points still to come."""
    from stratagem.games.yahtzee.solver import reachable_states

    layers = reachable_states(rules)
    cats = rules.categories
    boxmax = np.array([max(_score_for(rules.family, c, D.KEEPS[k])
                           for k in range(D.ROLL_START, D.NUM_KEEPS)) for c in cats])  # fmt: skip
    most = []
    ybox = cats.index(rules.yahtzee_category)
    # Yahtzee bonuses: at most one per turn still to come (after the box is scored 50).
    for rows in layers:
        bound = np.zeros(len(rows), dtype=np.int64)
        for idx, (mask, u, y) in enumerate(rows):
            open_boxes = [c for c in range(len(cats)) if not (mask >> c) & 1]
            bound[idx] = sum(int(boxmax[c]) for c in open_boxes)
            if u < rules.upper_bonus_threshold:
                bound[idx] += rules.upper_bonus
            if rules.has_yahtzee_bonus and y == 1:
                bound[idx] += rules.yahtzee_bonus * len(open_boxes)
            elif rules.has_yahtzee_bonus and not (mask >> ybox) & 1:
                bound[idx] += rules.yahtzee_bonus * (len(open_boxes) - 1)
        most.append(bound)
    out = []
    for t in range(2 * len(cats)):
        i, j = level_layers(t)
        ma, mb = most[i], most[j]
        vals = int(len(mb) * (ma + 1).sum() + len(ma) * mb.sum())
        out.append((len(ma) * len(mb), vals, 8 * vals))
    return out


def describe_roll(k: int) -> str:
    return " ".join(map(str, D.KEEPS[k])) or "-"


def summarise(runs: Sequence[Run]) -> dict[str, float]:
    """First-player values of solved runs, by ``first-second`` mode name."""
    return {f"{r.modes[0]}-{r.modes[1]}": r.value(0, 0, 0, 0) for r in runs}
