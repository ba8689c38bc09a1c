"""Learn a superleave table (a value for every leave of 1-6 tiles) by self-play.

The equity player with the shipped factored leave table plays itself (endgame
solver off) on the tile set's built-in lexicon (ENABLE for English, the
informal wordfreq list for Czech) or on ``--lexicon FILE``; every move made
with at least 7 tiles in the bag is a sample (``leaves.selfplay_records``): the
leave kept and the target (points of the same player's next move + the
factored table's value of the leave after it). Games are played in chunks
(``superleaves.LearningRun``): chunk ``c`` plays games ``c * chunk ..`` with
``default_rng([seed, game])`` and is saved atomically under
``runs/scrabble_superleaves/<name>/`` as it comes back, so a killed run resumes
at the missing chunks and the same seed gives the same samples on any backend:
``--backend local`` (``--workers`` spawned processes, a killed worker's chunk
played again) or ``--backend ray`` (``$RAY_ADDRESS`` or a local Ray; Ray plays
a killed worker's task again). ``build`` shrinks each leave's mean residual
toward the factored table (``superleaves.build_superleaves``) and writes the
table folder, complete (every leave's value stored) unless ``--learned-only``;
``report`` prints the figures for ``docs/results/scrabble_strength.md``. ``racks`` learns
every leave from rack values instead (``stratagem.games.scrabble.rackleaves``): each of
the 3,199,724 English racks of 7 tiles valued by its best equity on a self-play board, a
leave by its expected rack value over the draws, in generations, each chunk of racks
saved as it comes back (``--chunk`` racks, resumable, on the same backends).

    nice -n 10 python experiments/scrabble_superleaves.py train --games 60000 [--workers 2]
    python experiments/scrabble_superleaves.py build \\
        --out src/stratagem/games/scrabble/data/superleaves_english
    python experiments/scrabble_superleaves.py report
    nice -n 10 python experiments/scrabble_superleaves.py train --tiles czech --name czech ...
    nice -n 10 python experiments/scrabble_superleaves.py racks --name racks1 --chunk 50000 \\
        --generations 3 --pool-games 2000 --workers 2
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from stratagem.core.errors import StratagemError
from stratagem.games.scrabble.leaves import shipped_leaves
from stratagem.games.scrabble.superleaves import (
    LearningRun,
    SuperleavesError,
    build_superleaves,
    chunk_executor,
    leave_count,
    leave_text,
    leaves_of,
    load_superleaves,
    save_superleaves,
    stats,
    value_of,
)
from stratagem.games.scrabble.tiles import tile_set

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "runs" / "scrabble_superleaves"
DATA = ROOT / "src" / "stratagem" / "games" / "scrabble" / "data"
SEED = 2026
PROBES = {
    "english": ("AEINST", "EINST", "AEINS", "ERS", "?", "S", "Q", "QU", "VV", "UUU", "IIII"),
    "czech": ("AEINST", "ENST", "?", "S", "A", "O", "Ě", "Ů", "Ď", "X", "OOO", "ÍÍ"),
}


def run_of(args: argparse.Namespace) -> LearningRun:
    return LearningRun(RUNS / args.name, args.tiles, args.lexicon, args.seed, args.chunk)


def train(args: argparse.Namespace) -> int:
    try:
        part, parts = (int(x) for x in args.part.split("/"))
    except ValueError:
        raise SuperleavesError(f"--part must be i/k (whole numbers), got {args.part!r}") from None
    start = time.monotonic()

    def progress(done: int, total: int, index: int) -> None:
        print(f"chunk {index} saved ({done}/{total} this session, "
              f"{time.monotonic() - start:.0f} s)", flush=True)  # fmt: skip

    played = run_of(args).train(args.games, chunk_executor(args.backend, args.workers), part,
                                parts, progress)  # fmt: skip
    print(f"{played} chunks played; the run holds the first {args.games} games' chunks of "
          f"part {args.part}")  # fmt: skip
    return 0


def out_path(args: argparse.Namespace) -> Path:
    return args.out or DATA / f"superleaves_{args.tiles}"


def build(args: argparse.Namespace) -> int:
    tiles = tile_set(args.tiles)
    fallback = shipped_leaves(tiles)
    samples, games = run_of(args).samples(args.games)
    builtin = "ENABLE" if tiles.name == "english" else f"the built-in {tiles.name} list"
    lexicon = args.lexicon or builtin
    note = (f"learned by self-play on {lexicon} (experiments/scrabble_superleaves.py, seed "
            f"{args.seed}): {games} games of the equity player with the shipped factored "
            f"table, endgame off; {len(samples)} samples (moves with 7+ tiles in the bag); "
            f"each leave's stage-centred mean residual over the factored table, shrunk toward "
            f"it by n / (n + K); leaves seen fewer than {args.min_samples} times, and every "
            f"leave never met, valued by the factored table")  # fmt: skip
    table, by_size = build_superleaves(samples, fallback, args.min_samples, note)
    if not args.learned_only:
        table = table.completed()
    out = out_path(args)
    save_superleaves(table, out)
    summary = {"games": games, "samples": len(samples),
               "within_sd": round(by_size[0].within**0.5, 2),
               "between_sd_by_size": {s: round(b.between**0.5, 2) for s, b in by_size.items()},
               "k_by_size": {s: round(b.k, 1) for s, b in by_size.items()}, **stats(table),
               "bytes": sum(p.stat().st_size for p in out.iterdir())}  # fmt: skip
    print(json.dumps(summary))
    return 0


def report(args: argparse.Namespace) -> int:
    tiles = tile_set(args.tiles)
    fallback = shipped_leaves(tiles)
    table = load_superleaves(out_path(args), tiles)
    print(f"leaves: {json.dumps(stats(table))}")
    for text in PROBES.get(tiles.name, ()):
        counts = tiles.rack_counts(text).astype(np.int64)
        print(f"{text:8s} super {value_of(table, text):7.2f}  factored "
              f"{fallback.value(counts):7.2f}  learned {table.learned(counts)}")  # fmt: skip
    counts = leaves_of(table.ranks, tiles)
    size = counts.sum(axis=1)
    for n_tiles in (6, 5, 4, 3, 2, 1):
        at = np.flatnonzero((size == n_tiles) & (table.samples >= args.min_report))
        if not len(at):
            continue
        order = at[np.argsort(-table.values[at])]
        print(f"\n{n_tiles}-tile leaves seen {args.min_report}+ times: {len(at)}")
        for label, rows in (("best", order[:10]), ("worst", order[-5:][::-1])):
            print(f"  {label}: " + ", ".join(
                f"{leave_text(counts[k], tiles)} {table.values[k]:.1f} "
                f"(factored {fallback.value(counts[k]):.1f}, n={table.samples[k]})"
                for k in rows))  # fmt: skip
    if table.complete is not None:  # every leave, learned or not: the extremes of the table
        ranks = np.arange(1, leave_count(tiles))
        every = leaves_of(ranks, tiles)
        blank = tiles.size
        for n_tiles, no_blank in ((6, False), (6, True), (5, False)):
            pick = every.sum(axis=1) == n_tiles
            if no_blank:
                pick &= every[:, blank] == 0
            at = ranks[pick]
            order = at[np.argsort(-table.complete[at])]
            for label, rows in (("best", order[:12]), ("worst", order[-8:][::-1])):
                shown = []
                for r in rows:
                    kept = leaves_of(np.array([r]), tiles)[0]
                    mark = "" if table.learned(kept) else "*"
                    shown.append(f"{leave_text(kept, tiles)} {table.complete[r]:.1f}{mark}")
                kind = " without a blank" if no_blank else ""
                print(f"\nall {n_tiles}-tile leaves{kind}, {label}: " + ", ".join(shown))
        print("(* the factored value: never met in self-play)")
        six = np.flatnonzero(size == 6)
        six = six[np.argsort(-table.values[six])]
        if len(six) > 40:  # a table learned from rack values learns all 737,311
            six = np.concatenate([six[:30], six[-10:]])
        print(f"\nlearned 6-tile leaves ({int((size == 6).sum())}; at most the best 30 and "
              f"the worst 10): " + ", ".join(
            f"{leave_text(counts[k], tiles)} {table.values[k]:.1f} (n={table.samples[k]})"
            for k in six))  # fmt: skip
    return 0


def racks(args: argparse.Namespace) -> int:
    """Every leave learned from rack values (``stratagem.games.scrabble.rackleaves``):
    ``--generations`` generations, each table written under the run's folder; ``--out``
    copies the last one to a table folder."""
    from stratagem.games.scrabble.lexicon import get_lexicon
    from stratagem.games.scrabble.rackleaves import RackRun, rack_generations
    from stratagem.games.scrabble.superleaves import save_superleaves

    run = RackRun(RUNS / args.name, args.tiles, args.lexicon, args.seed, args.chunk,
                  args.pool_games)  # fmt: skip
    lexicon = get_lexicon(args.lexicon, args.tiles)
    start = time.monotonic()

    def progress(gen: int, done: int, total: int, index: int) -> None:
        print(f"generation {gen}: chunk {index} saved ({done}/{total} this session, "
              f"{time.monotonic() - start:.0f} s)", flush=True)  # fmt: skip

    def pool_progress(done: int, games: int) -> None:
        if done % 100 == 0 or done == games:
            print(f"board pool: {done}/{games} games ({time.monotonic() - start:.0f} s)",
                  flush=True)  # fmt: skip

    last = None
    for last in rack_generations(run, args.generations, lexicon,
                                 chunk_executor(args.backend, args.workers), progress,
                                 pool_progress):  # fmt: skip
        print(f"table {last} ({time.monotonic() - start:.0f} s)", flush=True)
    if args.out is not None and last is not None:
        save_superleaves(load_superleaves(last, tile_set(args.tiles)), args.out)
        print(f"written to {args.out}")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("train", "build", "report", "racks"):
        p = sub.add_parser(name)
        p.add_argument("--name", default="enable")
        p.add_argument("--tiles", default="english", choices=("english", "czech"))
        p.add_argument("--lexicon", default=None, help="word list FILE (default: built-in)")
        p.add_argument("--seed", type=int, default=SEED)
        p.add_argument("--out", type=Path, default=None, help="table folder (default: "
                       "the package's data/superleaves_<tiles>)")
        p.add_argument("--games", type=int, default=60_000)
        p.add_argument("--chunk", type=int, default=1000)
        p.add_argument("--min-samples", type=int, default=3)
        p.add_argument("--min-report", type=int, default=30)
        p.add_argument("--learned-only", action="store_true",
                       help="store the learned leaves only (the rest by the factored model)")
        p.add_argument("--backend", default="local", choices=("local", "ray"))
        p.add_argument("--workers", type=int, default=1)
        p.add_argument("--part", default="0/1", help="train chunks c with c %% k == i (i/k): "
                       "k processes share a run")
        p.add_argument("--generations", type=int, default=2, help="racks: generations")
        p.add_argument("--pool-games", type=int, default=2000,
                       help="racks: self-play games whose boards the racks are played on")
    args = parser.parse_args()
    try:
        commands = {"train": train, "build": build, "report": report, "racks": racks}
        return commands[args.command](args)
    except (StratagemError, ValueError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted: the saved chunks stay; run again to resume", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
