"""Learn the English leave table by self-play, resumably, and check it against common sense.

Rounds of self-play (``games.scrabble.leaves.selfplay_records``): round 1 is
played by the greedy player (its leaves are not chosen by the values being
learned), every later round by the equity player with the table of the round
before. Games are played in chunks of ``--chunk`` games; each chunk's
records are saved atomically under ``runs/scrabble_leaves/<name>/round<r>/``
so that a killed run resumes at the first missing chunk. After a round, the
table is fitted to that round's records (``fit_records``: ridge fit with the
bag's stage as nuisance intercepts, ``--refits`` times, each refit pricing the
next leave by the table before) and written as ``round<r>.json``.

``report`` prints the single-tile values and some leaves next to what
published tables say qualitatively (blank and S strongly positive; Q and
duplicated vowels negative; J and Z near zero).

Usage::

    python experiments/scrabble_leaves.py speed --games 20
    nice -n 19 python experiments/scrabble_leaves.py train --name enable --rounds 2 \\
        --games 3000 --lexicon ../shared/lexicons/enable1.txt
    nice -n 19 python experiments/scrabble_leaves.py train --name czech --rules czech \\
        --rounds 2 --games 4000
    python experiments/scrabble_leaves.py report --name enable

A run can go on from a table learned elsewhere (``--start FILE --first-round R``:
rounds before R are taken as done, and round R's players use FILE), and fit the
letter-pair terms too (``--pairs``)::

    nice -n 19 python experiments/scrabble_leaves.py train --name enable-r3 --rounds 3 \
        --first-round 3 --start src/stratagem/games/scrabble/data/leaves_english.json \
        --games 8000 --refits 2 --pairs --lexicon ../shared/lexicons/enable1.txt
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
import warnings
from pathlib import Path

import numpy as np

from stratagem.games.scrabble.leaves import (
    LeaveTable,
    SelfPlayRecords,
    fit_records,
    load_leaves,
    save_leaves,
    selfplay_records,
    shipped_leaves,
)
from stratagem.games.scrabble.lexicon import Lexicon, default_lexicon, load_lexicon
from stratagem.games.scrabble.tiles import tile_set

ROOT = Path(__file__).resolve().parents[1]
RUNS = ROOT / "runs" / "scrabble_leaves"
TILES = tile_set("english")  # --rules sets it (the tile set; its built-in lexicon by default)
SEED = 2026
SHOWN = ["?", "S", "E", "A", "R", "N", "T", "I", "O", "U", "Z", "X", "J", "K", "Q", "V", "W",
         "EE", "II", "UU", "AA", "OO", "SS", "??", "QU", "ERS", "AEINST", "AEIOU", "BCDFGH",
         "S?", "QI", "VV"]  # fmt: skip


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def lexicon(path: str | None) -> Lexicon:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return load_lexicon(path, TILES) if path else default_lexicon(TILES)


def save_npz(path: Path, arrays: dict[str, np.ndarray]) -> None:
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "wb") as handle:
        np.savez(handle, **arrays)
    os.replace(tmp, path)


def load_round(directory: Path) -> SelfPlayRecords:
    parts = []
    for f in sorted(directory.glob("chunk*.npz")):
        with np.load(f) as z:
            parts.append(SelfPlayRecords(*(z[k] for k in SelfPlayRecords.concat([], 1).arrays())))
    return SelfPlayRecords.concat(parts, TILES.size + 1)


def speed(games: int, path: str | None) -> None:
    lex = lexicon(path)
    for name, table in (("greedy", LeaveTable.zeros(TILES)), ("equity", shipped_leaves(TILES))):
        selfplay_records(lex, table, 1, SEED, first=10**6)  # compile / warm up
        wall, cpu = time.perf_counter(), time.process_time()
        rec = selfplay_records(lex, table, games, SEED, first=10**7)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        print(
            f"{name}: {games} games, {len(rec)} records, {games / wall:.2f} games/s wall, "
            f"{games / cpu:.2f} games per CPU s, {len(rec) / games:.1f} records/game"
        )


def train(name: str, rounds: int, games: int, chunk: int, refits: int, ridge: float,
          path: str | None, pairs: bool = False, start: str | None = None,
          first_round: int = 1) -> None:  # fmt: skip
    if not 1 <= first_round <= rounds:
        raise SystemExit(f"error: --first-round must be 1-{rounds}, got {first_round}")
    if (start is None) != (first_round == 1):
        raise SystemExit("error: --start FILE goes with --first-round R > 1, and only with it")
    lex = lexicon(path)
    table = LeaveTable.zeros(TILES) if start is None else load_leaves(start, TILES)
    base = RUNS / name
    base.mkdir(parents=True, exist_ok=True)
    config = {"rounds": rounds, "games": games, "chunk": chunk, "refits": refits,
              "ridge": ridge, "lexicon": lex.source, "seed": SEED, "pairs": pairs,
              "start": start, "first_round": first_round}  # fmt: skip
    cfg_path = base / "config.json"
    kept = ("chunk", "lexicon", "seed", "pairs", "start", "first_round")
    if cfg_path.exists():
        old = json.loads(cfg_path.read_text())
        if {k: old.get(k) for k in kept} != {k: config[k] for k in kept}:
            raise SystemExit(f"error: {base} holds a run with another configuration: {old}")
    cfg_path.write_text(json.dumps(config, indent=1))
    for r in range(first_round, rounds + 1):
        out = base / f"round{r}.json"
        if out.exists():
            table = load_leaves(out, TILES)
            log(f"round {r}: done before ({out.name})")
            continue
        directory = base / f"round{r}"
        directory.mkdir(exist_ok=True)
        began = time.perf_counter()
        for c in range(0, games, chunk):
            f = directory / f"chunk{c // chunk:05d}.npz"
            if f.exists():
                continue
            n = min(chunk, games - c)
            rec = selfplay_records(lex, table, n, SEED + r, first=c)
            save_npz(f, rec.arrays())
            log(f"round {r}: {c + n}/{games} games ({time.perf_counter() - began:.0f} s)")
        records = load_round(directory)
        note = (
            f"learned by self-play on {lex.source}: round {r} of {games} games "
            f"({'greedy' if r == 1 else 'equity with round ' + str(r - 1)} players, "
            f"{len(records)} samples), {refits} refits, ridge {ridge}, seed {SEED}"
            + (", with letter-pair terms" if pairs else "")
            + (f", started from {Path(start).name}" if start else "")
        )
        table, changes = fit_records(records, TILES, table, refits, ridge, note, pairs)
        log(f"round {r}: fitted {len(records)} samples; single-tile change per refit "
            + ", ".join(f"{x:.2f}" for x in changes))  # fmt: skip
        save_leaves(table, out)
        show(table)


def show(table: LeaveTable) -> None:
    shown = SHOWN if TILES.name == "english" else ["?", *TILES.letters]
    for rack in shown:
        print(f"  {rack:<8} {table.value(TILES.rack_counts(rack)):+7.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("speed")
    s.add_argument("--games", type=int, default=20)
    s.add_argument("--lexicon", default=None)
    t = sub.add_parser("train")
    t.add_argument("--name", required=True)
    t.add_argument("--rounds", type=int, default=2)
    t.add_argument("--games", type=int, default=3000)
    t.add_argument("--chunk", type=int, default=100)
    t.add_argument("--refits", type=int, default=1)
    t.add_argument("--ridge", type=float, default=3.0)
    t.add_argument("--lexicon", default=None)
    t.add_argument("--pairs", action="store_true", help="fit the letter-pair terms too")
    t.add_argument("--start", default=None, help="the table round --first-round plays with")
    t.add_argument("--first-round", type=int, default=1)
    r = sub.add_parser("report")
    r.add_argument("--name", required=True)
    r.add_argument("--round", type=int, default=None)
    r.add_argument("--refits", type=int, default=None)
    r.add_argument("--ridge", type=float, default=3.0)
    for p in (s, t, r):
        p.add_argument("--rules", default="english", help="tile set (english, czech)")
    a = parser.parse_args()
    global TILES
    TILES = tile_set(a.rules)
    if a.cmd == "speed":
        speed(a.games, a.lexicon)
    elif a.cmd == "train":
        train(a.name, a.rounds, a.games, a.chunk, a.refits, a.ridge, a.lexicon, a.pairs,
              a.start, a.first_round)  # fmt: skip
    else:
        base = RUNS / a.name
        rounds = sorted(base.glob("round*.json"))
        if a.refits is None:
            for f in rounds:
                print(f.name, load_leaves(f, TILES).note)
                show(load_leaves(f, TILES))
            return
        r_no = a.round or len(rounds)
        records = load_round(base / f"round{r_no}")
        start = load_leaves(base / f"round{r_no - 1}.json", TILES) if r_no > 1 else (
            LeaveTable.zeros(TILES))  # fmt: skip
        table, changes = fit_records(records, TILES, start, a.refits, a.ridge)
        print(f"round {r_no}, {len(records)} samples, {a.refits} refits: changes {changes}")
        show(table)


if __name__ == "__main__":
    main()
