"""Learn the English superleave table (one value per leave of 1-6 tiles) by self-play.

The equity player with the shipped factored leave table plays itself on ENABLE
(the built-in English lexicon), endgame solver off; every move made with at
least 7 tiles in the bag is a sample (``leaves.selfplay_records``): the leave
kept and the target (points of the same player's next move + the factored
table's value of the leave after it). Games are played in chunks; chunk ``c``
plays games ``c * chunk ..`` with ``default_rng([seed, game])`` and is saved
atomically under ``runs/scrabble_superleaves/<name>/``, so a killed run resumes
at the first missing chunk and the same seed gives the same samples.
``build`` shrinks each leave's mean residual toward the factored table
(``superleaves.build_superleaves``) and writes the table; ``report`` prints the
figures for ``docs/results/scrabble_strength.md``.

    nice -n 10 python experiments/scrabble_superleaves.py train --games 60000 [--part 0/2]
    python experiments/scrabble_superleaves.py build \\
        --out src/stratagem/games/scrabble/data/superleaves_english.npz
    python experiments/scrabble_superleaves.py report
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

from stratagem.core.files import write_atomic
from stratagem.games.scrabble.leaves import selfplay_records, shipped_leaves, table_values
from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.superleaves import (
    LeaveSamples,
    build_superleaves,
    counts_of,
    leave_text,
    load_superleaves,
    save_superleaves,
    stats,
    value_of,
)

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "runs" / "scrabble_superleaves"
DATA = ROOT / "src" / "stratagem" / "games" / "scrabble" / "data" / "superleaves_english.npz"
SEED = 2026


def chunk_path(name: str, c: int) -> Path:
    return RUNS / name / f"chunk{c:04d}.npz"


def train(args: argparse.Namespace) -> int:
    lex = default_lexicon("english")
    fallback = shipped_leaves(lex.tiles)
    chunks = -(-args.games // args.chunk)
    (RUNS / args.name).mkdir(parents=True, exist_ok=True)
    part, parts = (int(x) for x in args.part.split("/"))
    for c in range(part, chunks, parts):
        path = chunk_path(args.name, c)
        if path.exists():
            continue
        first = c * args.chunk
        games = min(args.chunk, args.games - first)
        cpu = time.process_time()
        records = selfplay_records(lex, fallback, games, args.seed, first=first)
        samples = LeaveSamples.of(records, fallback)
        import io

        buf = io.BytesIO()
        np.savez_compressed(buf, keys=samples.keys, targets=samples.targets,
                            stages=samples.stages, games=np.array(games))  # fmt: skip
        write_atomic(path, buf.getvalue())
        print(f"chunk {c + 1}/{chunks}: {games} games, {len(samples)} samples, "
              f"{time.process_time() - cpu:.1f} CPU s", flush=True)  # fmt: skip
    return 0


def load_samples(name: str, games_wanted: int, chunk: int) -> tuple[LeaveSamples, int]:
    """The samples of the first ``games_wanted`` games (every chunk must be there)."""
    parts = []
    games = 0
    for c in range(-(-games_wanted // chunk)):
        path = chunk_path(name, c)
        if not path.exists():
            raise SystemExit(f"{path} is missing: run train --games {games_wanted} first")
        with np.load(path) as d:
            parts.append(LeaveSamples(d["keys"], d["targets"], d["stages"]))
            games += int(d["games"])
    return LeaveSamples.concat(parts), games


def build(args: argparse.Namespace) -> int:
    lex = default_lexicon("english")
    fallback = shipped_leaves(lex.tiles)
    samples, games = load_samples(args.name, args.games, args.chunk)
    note = (f"learned by self-play on ENABLE (experiments/scrabble_superleaves.py, seed "
            f"{args.seed}): {games} games of the equity player with the shipped factored "
            f"table, endgame off; {len(samples)} samples (moves with 7+ tiles in the bag); "
            f"each leave's stage-centred mean residual over the factored table, shrunk toward "
            f"it by n / (n + K); leaves seen fewer than {args.min_samples} times are left to "
            f"the factored table")  # fmt: skip
    table, by_size = build_superleaves(samples, fallback, args.min_samples, note)
    save_superleaves(table, args.out)
    summary = {"games": games, "samples": len(samples),
               "within_sd": round(by_size[0].within**0.5, 2),
               "between_sd_by_size": {s: round(b.between**0.5, 2) for s, b in by_size.items()},
               "k_by_size": {s: round(b.k, 1) for s, b in by_size.items()}, **stats(table),
               "bytes": Path(args.out).stat().st_size}  # fmt: skip
    print(json.dumps(summary))
    return 0


def report(args: argparse.Namespace) -> int:
    lex = default_lexicon("english")
    tiles = lex.tiles
    fallback = shipped_leaves(tiles)
    table = load_superleaves(args.out, tiles)
    print(f"leaves learned: {json.dumps(stats(table))}")
    for text in ("AEINST", "EINST", "AEINS", "ERS", "?", "S", "Q", "QU", "VV", "UUU", "IIII"):
        counts = tiles.rack_counts(text).astype(np.int64)
        print(f"{text:8s} super {value_of(table, text):7.2f}  factored "
              f"{fallback.value(counts):7.2f}  learned {table.learned(counts)}")  # fmt: skip
    counts = counts_of(table.keys, tiles.size + 1)
    size = counts.sum(axis=1)
    prior = table_values(fallback, counts)
    for n_tiles in (6, 5, 4, 3, 2, 1):
        at = np.flatnonzero((size == n_tiles) & (table.samples >= args.min_report))
        if not len(at):
            continue
        order = at[np.argsort(-table.values[at])]
        print(f"\n{n_tiles}-tile leaves seen {args.min_report}+ times: {len(at)}")
        for label, rows in (("best", order[:10]), ("worst", order[-5:][::-1])):
            print(f"  {label}: " + ", ".join(
                f"{leave_text(counts[k], tiles)} {table.values[k]:.1f} "
                f"(factored {prior[k]:.1f}, n={table.samples[k]})" for k in rows))  # fmt: skip
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    for name in ("train", "build", "report"):
        p = sub.add_parser(name)
        p.add_argument("--name", default="enable")
        p.add_argument("--seed", type=int, default=SEED)
        p.add_argument("--out", type=Path, default=DATA)
        p.add_argument("--games", type=int, default=60_000)
        p.add_argument("--chunk", type=int, default=1000)
        p.add_argument("--min-samples", type=int, default=3)
        p.add_argument("--min-report", type=int, default=30)
        p.add_argument("--part", default="0/1", help="train chunks c with c %% k == i (i/k): "
                       "k processes share a run")
    args = parser.parse_args()
    if args.games < 1 or args.chunk < 1:
        print("--games and --chunk must be at least 1", file=sys.stderr)
        return 2
    return {"train": train, "build": build, "report": report}[args.command](args)


if __name__ == "__main__":
    sys.exit(main())
