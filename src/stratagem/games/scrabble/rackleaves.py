"""Every leave learned: leave values from the values of the racks they draw to.

The self-play table of :mod:`.superleaves` learns a leave only where the player kept it,
so 98.5% of its values are the factored model's. Here, as the open engines' leave
generators do, the unit is the full rack: each of the bag's 3,199,724 racks of 7 tiles
(English) is played on a board taken at random from a pool of self-play positions (bag of
7 or more, so exchanges are allowed), and its value is the best equity it reaches there:
score + the current table's value of the tiles it keeps, or the best exchange. A rack's
value is then corrected for its board (minus the mean of the racks played on the same
board, plus the overall mean: an open board lifts every rack alike), and each leave ``L``
of 1-6 tiles gets

    value(L) = E[value(L + draw)] - E[value(rack drawn from the full bag)],

the expectation over the draws of the other tiles from the bag less ``L``
(:func:`._superleave_kernels.leave_sums`: exact, every rack counted with its chance). So
every leave is learned from the play it leads to, the bingo stems from the bingos their
racks find, and a generation's table is the next generation's equity (generation 1
starts from the shipped table). ``experiments/scrabble_superleaves.py racks`` runs the
generations in resumable chunks on the same executors as the self-play run.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.core.files import write_atomic
from stratagem.games.scrabble import _rackleave_kernels as kern
from stratagem.games.scrabble import _superleave_kernels as skern
from stratagem.games.scrabble.board import RACK_SIZE
from stratagem.games.scrabble.superleaves import (
    SuperleavesError,
    SuperleaveTable,
    leave_count,
    load_superleaves,
    open_run,
    rank_table,
    save_superleaves,
    shipped_superleaves,
)
from stratagem.games.scrabble.tiles import TileSet, tile_set

MAX_POOL_GAMES = 100_000
MAX_CHUNK_RACKS = 1_000_000
MAX_GENERATIONS = 20
RUN_FILE = "racks.json"


@lru_cache(maxsize=2)
def all_racks(tiles: TileSet) -> np.ndarray:
    """Every rack of 7 tiles the bag holds (counts, blank last, int8), in a fixed order."""
    caps = tiles.bag_counts.astype(np.int64)
    out = np.zeros((int(kern.count_racks(caps, RACK_SIZE)), len(caps)), dtype=np.int8)
    kern.enumerate_racks(caps, RACK_SIZE, out)
    out.setflags(write=False)
    return out


def board_pool(lexicon: Any, table: SuperleaveTable, games: int, seed: int,
               progress: Callable[[int, int], None] | None = None) -> np.ndarray:  # fmt: skip
    """The boards (int8, 15 x 15) before every move made with 7+ tiles in the bag in
    ``games`` self-play games of the equity player with ``table`` (endgame solver off);
    game ``i`` draws from ``default_rng([seed, i])``; ``progress(done, games)`` after each."""
    from stratagem.core.play import play
    from stratagem.games.scrabble.state import ScrabbleState
    from stratagem.games.scrabble.superleaves import SuperleaveEquityAgent

    if not 1 <= games <= MAX_POOL_GAMES:
        raise SuperleavesError(f"the board pool takes 1-{MAX_POOL_GAMES} games, got {games}")
    agent = SuperleaveEquityAgent(table, endgame=False)
    boards: list[np.ndarray] = []

    def observe(state: Any, player: int, action: Any) -> None:
        if player >= 0 and state.bag_size() >= RACK_SIZE:
            boards.append(state.board_array.astype(np.int8))

    for g in range(games):
        play(ScrabbleState.new(lexicon, 2), [agent, agent], np.random.default_rng([seed, g]),
             observe=observe)  # fmt: skip
        if progress is not None:
            progress(g + 1, games)
    return np.stack(boards)


def rack_values(
    lexicon: Any, table: SuperleaveTable, boards: np.ndarray, racks: np.ndarray, which: np.ndarray
) -> np.ndarray:
    """The best equity of ``racks[r]`` on ``boards[which[r]]`` for each row ``r``
    (placements and exchanges; a rack with no legal move is worth its best exchange)."""
    from stratagem.games.scrabble.movegen import move_generator

    gen = move_generator(lexicon)
    arrays = table.arrays()
    nletters = table.tiles.size
    out = np.empty(len(racks))
    for r in range(len(racks)):
        board = boards[which[r]]
        rack = racks[r].astype(np.int64)
        info, word = gen.found(board, rack)
        out[r] = kern.best_equity(board, rack, info, word, info.shape[0], nletters, arrays,
                                  True)  # fmt: skip
    return out


def leave_values(racks: np.ndarray, values: np.ndarray, tiles: TileSet) -> np.ndarray:
    """Each leave's expected rack value less the mean rack's (module docstring), one
    float64 per leave rank (rank 0, the empty leave, 0); ``racks`` must be every rack."""
    caps = tiles.bag_counts.astype(np.int64)
    if len(racks) != int(kern.count_racks(caps, RACK_SIZE)):
        raise SuperleavesError("leave values need a value for every rack of the bag")
    racks64 = racks.astype(np.int64)
    size = leave_count(tiles)
    total = np.zeros(size)
    weight = np.zeros(size)
    skern.leave_sums(racks64, values, caps, rank_table(tiles)[0], total, weight)
    mean = float(kern.rack_chances(racks64, caps) @ values)
    out = np.zeros(size)
    out[1:] = total[1:] / weight[1:] - mean
    return out


def board_corrected(values: np.ndarray, which: np.ndarray) -> np.ndarray:
    """Each value less the mean of the values on the same board, plus the overall mean."""
    n = np.bincount(which)
    mean = np.bincount(which, weights=values) / np.maximum(n, 1)
    out: np.ndarray = values - mean[which] + values.mean()
    return out


# --- a run: generations of chunks of racks, resumable, on any executor ---------------------


@dataclass(frozen=True)
class RackTask:
    """Racks ``first .. first + count - 1`` (in :func:`all_racks` order) of generation
    ``gen``, valued with the table at ``table`` ("" for the shipped one) on the boards in
    the pool file ``pool``; the boards are drawn from ``default_rng([seed, gen, index])``.
    Plain data, so that it pickles to any worker."""

    index: int
    tiles: str
    lexicon: str | None
    seed: int
    gen: int
    first: int
    count: int
    table: str
    pool: str


def _table(path: str, tiles: TileSet) -> SuperleaveTable:
    return load_superleaves(path, tiles) if path else shipped_superleaves(tiles.name)


def play_racks(task: RackTask) -> dict[str, np.ndarray]:
    """Value one chunk of racks (the unit a worker returns)."""
    from stratagem.games.scrabble.lexicon import get_lexicon

    lex = get_lexicon(task.lexicon, task.tiles)
    boards = np.load(task.pool, mmap_mode="r")
    rng = np.random.default_rng([task.seed, task.gen, task.index])
    which = rng.integers(len(boards), size=task.count).astype(np.int32)
    racks = all_racks(lex.tiles)[task.first : task.first + task.count]
    values = rack_values(lex, _table(task.table, lex.tiles), boards, racks, which)
    return {"index": np.array(task.index), "values": values, "boards": which}


@dataclass(frozen=True)
class RackRun:
    """Generations of rack values in ``folder``: ``pool.npy`` (the boards), then for each
    generation ``g`` a folder ``genG`` of ``chunkNNNN.npz`` (each written whole) and, once
    every chunk is in, ``genG/table`` (the leave table it gives); ``racks.json`` names what
    the run was made with, so that a resumed run with other settings is refused."""

    folder: Path
    tiles: str
    lexicon: str | None
    seed: int
    chunk: int
    pool_games: int

    def __post_init__(self) -> None:
        if not 1_000 <= self.chunk <= MAX_CHUNK_RACKS:
            raise SuperleavesError(f"chunk must be 1000-{MAX_CHUNK_RACKS} racks, got {self.chunk}")
        if not 1 <= self.pool_games <= MAX_POOL_GAMES:
            raise SuperleavesError(f"the board pool takes 1-{MAX_POOL_GAMES} games, got "
                                   f"{self.pool_games}")  # fmt: skip
        tile_set(self.tiles)

    def settings(self) -> dict[str, Any]:
        return {"tiles": self.tiles, "lexicon": self.lexicon, "seed": self.seed,
                "chunk": self.chunk, "pool_games": self.pool_games}  # fmt: skip

    def gen_folder(self, gen: int) -> Path:
        return self.folder / f"gen{gen}"

    def table_path(self, gen: int) -> Path:
        return self.gen_folder(gen) / "table"

    def open(self) -> None:
        """Create the folder, or check that the run already there has the same settings."""
        open_run(self.folder, RUN_FILE, self.settings())

    def pool(self, lexicon: Any, progress: Callable[[int, int], None] | None = None) -> Path:
        """The board pool's file, made (self-play with the shipped table; ``progress`` as
        in :func:`board_pool`) when missing; one that is there is checked (boards of 15 x
        15 int8 squares) before any work."""
        path = self.folder / "pool.npy"
        if not path.exists():
            boards = board_pool(lexicon, shipped_superleaves(self.tiles), self.pool_games,
                                self.seed, progress)  # fmt: skip
            buf = io.BytesIO()
            np.save(buf, boards, allow_pickle=False)
            write_atomic(path, buf.getvalue())
        try:
            boards = np.load(path, mmap_mode="r", allow_pickle=False)
        except Exception as exc:  # numpy's errors for a truncated or foreign file
            raise SuperleavesError(f"{path} is not a board pool ({exc}); delete it and run "
                                   f"again") from None  # fmt: skip
        if boards.ndim != 3 or boards.shape[1:] != (15, 15) or boards.dtype != np.int8 \
                or not len(boards):  # fmt: skip
            raise SuperleavesError(f"{path} is not a board pool (boards of 15 x 15 int8 "
                                   f"squares); delete it and run again")  # fmt: skip
        return path

    def tasks(self, gen: int, pool: Path) -> list[RackTask]:
        """The chunks of generation ``gen`` not yet on disk."""
        if not 1 <= gen <= MAX_GENERATIONS:
            raise SuperleavesError(f"generation must be 1-{MAX_GENERATIONS}, got {gen}")
        n = len(all_racks(tile_set(self.tiles)))
        table = "" if gen == 1 else str(self.table_path(gen - 1))
        out = []
        for c in range(-(-n // self.chunk)):
            if not self.chunk_path(gen, c).exists():
                first = c * self.chunk
                out.append(RackTask(c, self.tiles, self.lexicon, self.seed, gen, first,
                                    min(self.chunk, n - first), table, str(pool)))  # fmt: skip
        return out

    def chunk_path(self, gen: int, c: int) -> Path:
        return self.gen_folder(gen) / f"chunk{c:04d}.npz"

    def generation(
        self, gen: int, lexicon: Any, executor: Any,
        progress: Callable[[int, int, int], None] | None = None,
        pool_progress: Callable[[int, int], None] | None = None,
    ) -> Path:  # fmt: skip
        """Play generation ``gen``'s missing chunks (the one before must have its table),
        then build and save its table; returns the table's folder. ``pool_progress``: as
        the board pool's games are played, when the pool is made."""
        self.open()
        if gen > 1:
            if not self.table_path(gen - 1).exists():
                raise SuperleavesError(f"generation {gen - 1} has no table yet: run it first")
            load_superleaves(self.table_path(gen - 1), tile_set(self.tiles))  # checked here
        pool = self.pool(lexicon, pool_progress)
        self.gen_folder(gen).mkdir(exist_ok=True)
        tasks = self.tasks(gen, pool)
        for done, out in enumerate(executor.map(tasks, play_racks), 1):
            buf = io.BytesIO()
            np.savez_compressed(buf, values=out["values"], boards=out["boards"])
            write_atomic(self.chunk_path(gen, int(out["index"])), buf.getvalue())
            if progress is not None:
                progress(done, len(tasks), int(out["index"]))
        return self.build(gen)

    def values(self, gen: int) -> tuple[np.ndarray, np.ndarray]:
        """(value, board) of every rack of generation ``gen``; every chunk must be on disk."""
        n = len(all_racks(tile_set(self.tiles)))
        values, boards = [], []
        for c in range(-(-n // self.chunk)):
            path = self.chunk_path(gen, c)
            try:
                with np.load(path, allow_pickle=False) as d:
                    values.append(np.asarray(d["values"], dtype=np.float64))
                    boards.append(np.asarray(d["boards"], dtype=np.int64))
            except FileNotFoundError:
                raise SuperleavesError(f"{path} is missing: run generation {gen} first") from None
            except (KeyError, ValueError, OSError) as exc:
                raise SuperleavesError(f"{path} is not a chunk of rack values ({exc}); delete "
                                       f"it and run again") from None  # fmt: skip
        v, b = np.concatenate(values), np.concatenate(boards)
        if len(v) != n or len(b) != n or not np.all(np.isfinite(v)):
            raise SuperleavesError(f"generation {gen}'s chunks hold {len(v)} rack values, not "
                                   f"{n} finite ones; delete them and run again")  # fmt: skip
        return v, b

    def build(self, gen: int) -> Path:
        """Generation ``gen``'s table from its rack values, saved as a complete table."""
        tiles = tile_set(self.tiles)
        values, boards = self.values(gen)
        leaves = leave_values(all_racks(tiles), board_corrected(values, boards), tiles)
        start = shipped_superleaves(self.tiles)
        note = (f"every leave learned from rack values (stratagem.games.scrabble.rackleaves), "
                f"generation {gen}: each of the {len(values)} racks of 7 tiles valued once by "
                f"its best equity on a self-play board ({self.pool_games} games, seed "
                f"{self.seed}), corrected for its board; a leave's value is its expected "
                f"rack value over the draws less the mean rack's")  # fmt: skip
        size = leave_count(tiles)
        ranks = np.arange(1, size)
        table = SuperleaveTable(tiles, ranks, leaves[1:].astype(np.float32),
                                np.ones(size - 1, dtype=np.int64), start.fallback, note,
                                leaves.astype(np.float32))  # fmt: skip
        out = self.table_path(gen)
        save_superleaves(table, out)
        return out


def rack_generations(run: RackRun, gens: int, lexicon: Any, executor: Any,
                     progress: Callable[[int, int, int, int], None] | None = None,
                     pool_progress: Callable[[int, int], None] | None = None,
                     ) -> Iterator[Path]:  # fmt: skip
    """Generations 1 .. ``gens`` (those with a table already are skipped); yields each
    generation's table folder. ``progress(gen, done, total, chunk)`` after each chunk,
    ``pool_progress(done, games)`` as the board pool is made."""
    if not 1 <= gens <= MAX_GENERATIONS:
        raise SuperleavesError(f"generations must be 1-{MAX_GENERATIONS}, got {gens}")
    for g in range(1, gens + 1):
        if run.table_path(g).exists():
            yield run.table_path(g)
            continue

        def step(done: int, total: int, index: int, g: int = g) -> None:
            if progress is not None:
                progress(g, done, total, index)

        yield run.generation(g, lexicon, executor, step, pool_progress)
