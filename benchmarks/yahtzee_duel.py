"""Two-player Yahtzee solver (:mod:`stratagem.games.yahtzee.duel`): levels per second,
values per second and bytes per state, on reduced score cards.

For each variant the win-optimal run (``max``/``max``) is solved from scratch in a
temporary directory, level by level; each level's time, stored values (one per card
pair and open score difference) and file size are measured. The peer is the
project's solitaire solver on the same card (:func:`duel.es_values`), timed in the
same run: the ratio says how much the second player and the score difference cost.

    nice -n 10 .venv/bin/python benchmarks/yahtzee_duel.py
    nice -n 10 .venv/bin/python benchmarks/yahtzee_duel.py --variant yahtzee:ones,twos,chance:bonus
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

from stratagem.games.yahtzee import duel

DEFAULT = (
    "yahtzee:ones,twos,threes:bonus",
    "yahtzee:ones,twos,chance:bonus",
    "yahtzee:ones,twos,threes,fours,fives,sixes",
    "yahtzee:three_of_a_kind,four_of_a_kind,full_house,small_straight,large_straight,yahtzee,chance",
)


def measure(text: str) -> dict[str, object]:
    variant = duel.parse_variant(text)
    est = duel.estimate(variant)
    duel.check_size(est)
    duel.es_values(variant)  # compile / load the kernels before timing
    start = time.perf_counter()
    duel.es_values(variant)
    solitaire_s = time.perf_counter() - start
    with tempfile.TemporaryDirectory() as tmp:
        run = duel.Run(variant, ("max", "max"), Path(tmp))
        start = time.perf_counter()
        value = run.solve()
        total = time.perf_counter() - start
        files = sum(p.stat().st_size for p in Path(tmp).rglob("*.tbl"))
    levels = []
    for t, secs in sorted(run.level_seconds.items()):
        levels.append({"level": t, "seconds": secs, "values": est.values_per_level[t],
                       "pairs": est.pairs_per_level[t],
                       "values_per_s": est.values_per_level[t] / secs if secs else None,
                       })  # fmt: skip
    kernel_s = sum(run.level_seconds.values())
    return {
        "variant": variant.name, "first_player": value, "levels": len(levels),
        "seconds": total, "kernel_seconds": kernel_s, "levels_per_s": len(levels) / total,
        "values": est.values, "pairs": est.pairs, "values_per_s": est.values / kernel_s,
        "file_bytes": files, "bytes_per_value": files / est.values,
        "solitaire_seconds": solitaire_s, "duel_over_solitaire": total / solitaire_s,
        "per_level": levels,
    }  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--variant", action="append", help="preset:box,box[:bonus] (repeatable)")
    args = ap.parse_args(argv)
    rows = [measure(t) for t in (args.variant or DEFAULT)]
    print(f"{'variant':58s} {'levels':>6s} {'s':>8s} {'levels/s':>9s} {'values':>12s} "
          f"{'values/s':>10s} {'B/value':>8s} {'x solitaire':>11s}")  # fmt: skip
    for r in rows:
        print(f"{r['variant']:58s} {r['levels']:6d} {r['seconds']:8.2f} {r['levels_per_s']:9.3f} "
              f"{r['values']:12,d} {r['values_per_s']:10,.0f} {r['bytes_per_value']:8.2f} "
              f"{r['duel_over_solitaire']:11.0f}")  # fmt: skip
    print(json.dumps({"benchmark": "yahtzee_duel", "cpus": os.cpu_count(),
                      "load_average": os.getloadavg(), "variants": rows}))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
