"""How long the shipped superleave tables take to load, and to look up, in one run.

Each load is timed in a fresh Python process (``time.perf_counter`` around
``shipped_superleaves(tiles)``, after the imports and the factored table's load
(which the factored player pays too), so the figure is the table's own cost:
the rank table, the header, the memory maps and the checks of every value), the
fastest and the median of ``--runs`` processes. Side by side, the table as it
was shipped before (version 1: the 13,695 learned English leaves in a
compressed ``.npz``, read whole and decompressed; kept as
``tests/games/scrabble/data/superleaves_english_v1.npz``) in the same way.
The complete English table is 914,625 float32 values in a memory-mapped
``.npy`` file. Lookups: ``SuperleaveTable.value`` of the same 20,000 random
leaves of 1-6 tiles on both tables (values compared, seconds reported).

    .venv/bin/python benchmarks/scrabble_superleaves_load.py [--runs 5]

It prints a table and, as its last line, one JSON object (issue 37's goal:
a load under 0.1 s).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
V1 = ROOT / "tests" / "games" / "scrabble" / "data" / "superleaves_english_v1.npz"

CHILD = """
import sys, time
import numpy as np
from stratagem.games.scrabble.leaves import shipped_leaves
from stratagem.games.scrabble.superleaves import load_superleaves, shipped_superleaves
from stratagem.games.scrabble.tiles import tile_set
from stratagem.games.scrabble import _superleave_kernels
which, tiles = sys.argv[1], tile_set(sys.argv[2])
shipped_leaves(tiles)
t = time.perf_counter()
if which == "shipped":
    shipped_superleaves(tiles.name)
else:
    load_superleaves(sys.argv[3], tiles)
print(time.perf_counter() - t)
"""

LOOKUP = """
import sys, time
import numpy as np
from stratagem.games.scrabble.superleaves import (leave_count, leaves_of, load_superleaves,
                                                  shipped_superleaves)
from stratagem.games.scrabble.tiles import tile_set
tiles = tile_set("english")
new, old = shipped_superleaves("english"), load_superleaves(sys.argv[1], tiles)
leaves = leaves_of(np.random.default_rng(1).integers(1, leave_count(tiles), 20_000), tiles)
new.value(leaves[0]); old.value(leaves[0])
out = {}
for name, table in (("complete", new), ("v1", old)):
    t = time.perf_counter()
    vals = [table.value(k) for k in leaves]
    out[name] = (time.perf_counter() - t, vals)
diff = max(abs(a - b) for a, b in zip(out["complete"][1], out["v1"][1]))
print(out["complete"][0], out["v1"][0], diff)
"""


def child(code: str, *args: str) -> list[float]:
    env_python = sys.executable
    out = subprocess.run([env_python, "-c", code, *args], capture_output=True, text=True,
                         check=True)  # fmt: skip
    return [float(x) for x in out.stdout.split()]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    if not 1 <= args.runs <= 100:
        print("--runs must be 1-100", file=sys.stderr)
        return 2
    rows = {}
    for label, argv in (("english complete (v2, mmap)", ["shipped", "english"]),
                        ("english v1 (.npz, learned only)", ["file", "english", str(V1)]),
                        ("czech learned only (v2, mmap)", ["shipped", "czech"])):  # fmt: skip
        times = [child(CHILD, *argv)[0] for _ in range(args.runs)]
        rows[label] = (min(times), statistics.median(times))
    print(f"{'table':36s} {'fastest s':>10s} {'median s':>10s}")
    for label, (best, median) in rows.items():
        print(f"{label:36s} {best:10.4f} {median:10.4f}")
    new_s, old_s, diff = child(LOOKUP, str(V1))
    print(f"20,000 lookups: complete {new_s:.3f} s, v1 {old_s:.3f} s, largest difference "
          f"{diff:.2e} points")  # fmt: skip
    complete = rows["english complete (v2, mmap)"]
    print(json.dumps({"load_s_median": round(complete[1], 4),
                      "load_s_fastest": round(complete[0], 4),
                      "v1_load_s_median": round(rows["english v1 (.npz, learned only)"][1], 4),
                      "lookup_ratio_v1_over_complete": round(old_s / new_s, 2),
                      "largest_difference": diff, "goal_load_under_s": 0.1}))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
