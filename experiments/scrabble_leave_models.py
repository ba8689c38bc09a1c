"""Which leave model predicts self-play best: held-out squared error on a round's records.

The leave fit (``stratagem.games.scrabble.leaves.fit_leaves``) is a ridge regression of
each record's target (the next move's points + the next leave's value) on features of
the tiles kept. This script compares models on the records of one round of
``experiments/scrabble_leaves.py train``, each fitted on 80% of them and scored on the
other 20% (held out in blocks of 2,000 consecutive records, so whole games stay
together), with the targets priced by that round's table:

* ``singles``: (letter, copies) and (vowels, consonants) terms, as in version-1 tables;
* ``pairs``: + a term per two distinct letters kept (the shipped model);
* ``triples``: + a term per three distinct letters kept;
* ``stage``: ``pairs`` + the round's table value times one coefficient per ten tiles of
  bag (does a leave count more early in the game and less late?).

Every model has an unshrunk intercept per ten tiles of bag, as the fit has; ``--ridges``
applies to the pair and triple terms (the others keep the fit's 3). Prints each model's
held-out mean squared error and its difference from ``pairs`` at ridge 3, record by
record, with a 95% interval.

    python experiments/scrabble_leave_models.py --name enable-r5p --round 5
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from itertools import combinations
from pathlib import Path

import numpy as np
import scipy.sparse as sp

sys.path.insert(0, str(Path(__file__).resolve().parent))
from scrabble_leaves import RUNS, load_round

from stratagem.games.scrabble.leaves import (
    MAX_COPIES,
    STAGE_WIDTH,
    load_leaves,
    table_values,
    vowels,
)
from stratagem.games.scrabble.tiles import tile_set

MODELS = ("singles", "pairs", "triples", "stage")


def blocks(kept: np.ndarray, vowel: np.ndarray) -> dict[str, sp.csr_matrix]:
    """The sparse feature blocks of every record: singles, pairs, triples."""
    n, width = kept.shape
    pair_col = {p: i for i, p in enumerate(combinations(range(width), 2))}
    triple_col = {t: i for i, t in enumerate(combinations(range(width), 3))}
    single: tuple[list[int], list[int]] = ([], [])
    pair: tuple[list[int], list[int]] = ([], [])
    triple: tuple[list[int], list[int]] = ([], [])
    base = width * (MAX_COPIES + 1)
    for r in range(n):
        k = kept[r]
        held = np.flatnonzero(k)
        for i in held:
            for c in range(1, min(int(k[i]), MAX_COPIES) + 1):
                single[0].append(r)
                single[1].append(i * (MAX_COPIES + 1) + c)
        if len(held):
            nv = min(int((k[:-1] * vowel).sum()), MAX_COPIES)
            nc = min(int((k[:-1] * ~vowel).sum()), MAX_COPIES)
            single[0].append(r)
            single[1].append(base + nv * (MAX_COPIES + 1) + nc)
        for p in combinations(held.tolist(), 2):
            pair[0].append(r)
            pair[1].append(pair_col[p])
        for t in combinations(held.tolist(), 3):
            triple[0].append(r)
            triple[1].append(triple_col[t])

    def matrix(rc: tuple[list[int], list[int]], cols: int) -> sp.csr_matrix:
        return sp.csr_matrix((np.ones(len(rc[0])), rc), shape=(n, cols))

    return {
        "singles": matrix(single, base + (MAX_COPIES + 1) ** 2),
        "pairs": matrix(pair, len(pair_col)),
        "triples": matrix(triple, len(triple_col)),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--name", required=True, help="run under runs/scrabble_leaves/")
    parser.add_argument("--round", type=int, required=True)
    parser.add_argument("--rules", default="english", help="tile set (english, czech)")
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--ridges", default="3,10,30,100,300")
    a = parser.parse_args()
    models = a.models.split(",")
    if not set(models) <= set(MODELS):
        raise SystemExit(f"error: --models must be among {', '.join(MODELS)}")
    ridges = [float(x) for x in a.ridges.split(",")]
    if not all(math.isfinite(x) and x >= 0 for x in ridges):
        raise SystemExit("error: --ridges must be numbers >= 0")
    tiles = tile_set(a.rules)
    base = RUNS / a.name
    table = load_leaves(base / f"round{a.round}.json", tiles)
    records = load_round(base / f"round{a.round}")
    kept = records.kept.astype(np.int64)
    target = records.targets(table)
    n = len(target)
    stage = records.bag // STAGE_WIDTH
    groups = int(stage.max()) + 1
    intercepts = sp.csr_matrix((np.ones(n), (np.arange(n), stage)), shape=(n, groups))
    scaled = sp.csr_matrix(
        (table_values(table, kept), (np.arange(n), stage)), shape=(n, groups)
    )  # the table's value in the column of the record's stage
    began = time.perf_counter()
    feats = blocks(kept, vowels(tiles))
    print(f"{n} records, features built in {time.perf_counter() - began:.0f} s", flush=True)
    rng = np.random.default_rng(0)
    block = np.arange(n) // 2000
    held = np.isin(block, rng.choice(block.max() + 1, (block.max() + 1) // 5, replace=False))
    print(f"held out: {held.sum()} records", flush=True)
    parts = {
        "singles": ["singles"],
        "pairs": ["singles", "pairs"],
        "triples": ["singles", "pairs", "triples"],
        "stage": ["singles", "pairs"],
    }
    errors: dict[tuple[str, float], np.ndarray] = {}
    for model in models:
        shrunk = [feats[p] for p in parts[model]]
        free = [intercepts] + ([scaled] if model == "stage" else [])
        x = sp.hstack(shrunk + free, format="csr")
        gram = (x[~held].T @ x[~held]).toarray()
        rhs = x[~held].T @ target[~held]
        first = feats["singles"].shape[1]
        width = sum(m.shape[1] for m in shrunk)
        for ridge in ridges if model in ("pairs", "triples") else [3.0]:
            penalty = np.zeros(x.shape[1])
            penalty[:first] = 3.0
            penalty[first:width] = ridge
            coef = np.linalg.solve(gram + np.diag(penalty) + 1e-9 * np.eye(len(penalty)), rhs)
            errors[(model, ridge)] = (x[held] @ coef - target[held]) ** 2
            print(f"{model:8} ridge {ridge:6g}: held-out mean squared error "
                  f"{errors[(model, ridge)].mean():.3f}", flush=True)  # fmt: skip
            if model == "stage":
                scale = coef[-groups:]
                print("  the table's value again per stage, beyond the pooled terms "
                      "(bag 0-9, 10-19, ...): "
                      + " ".join(f"{s:.3f}" for s in scale))  # fmt: skip
    if ("pairs", 3.0) in errors:
        ref = errors[("pairs", 3.0)]
        print("difference from pairs at ridge 3 (negative: better), 95% interval:")
        for key, e in errors.items():
            d = e - ref
            print(f"  {key[0]:8} ridge {key[1]:6g}: {d.mean():+.3f} +- "
                  f"{1.96 * d.std(ddof=1) / math.sqrt(len(d)):.3f}")  # fmt: skip


if __name__ == "__main__":
    main()
