"""The endgame kernels of another commit against this tree's, on the benchmark's positions.

A refactor of ``_endgame_kernels.py`` (or of the move walk it calls, ``_kernels.py``)
must leave the search unchanged: this script loads the kernels (and ``endgame.py``) of
``--ref`` (default: the commit before the named-state refactor) into a temporary package,
solves each of the benchmark's positions (``scrabble_endgame.endgame_positions``: greedy
self-play on ENABLE, seed 2026) with both under the same node limit (deterministic: the
kernel checks it every 1,024 nodes; the CPU limit never binds), old and new alternating
per position, and compares value, exactness, depth, nodes, best move and line. It prints
one row per position and, last, one JSON object: whether all agree, and the CPU seconds of
each (thread time of the search).

    nice -n 10 .venv/bin/python benchmarks/scrabble_endgame_refactor.py [--positions 100]
        [--nodes 100000] [--ref c287b3e] [--lexicon PATH]
"""

from __future__ import annotations

import argparse
import importlib
import json
import statistics
import subprocess
import sys
import tempfile
import warnings
from pathlib import Path
from types import ModuleType

from stratagem.core.tables import TableCache
from stratagem.games.scrabble import endgame as new
from stratagem.games.scrabble.lexicon import load_lexicon
from stratagem.games.scrabble.tiles import tile_set

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from scrabble_endgame import DEFAULT_LEXICON, endgame_positions  # noqa: E402

BEFORE = "c287b3e"
"""The last commit with the positional-argument kernels."""


def old_endgame(ref: str, into: Path) -> ModuleType:
    """``endgame.py`` of ``ref``, calling the ``_endgame_kernels.py`` and the move walk
    (``_kernels.py``) of ``ref``."""
    package = into / "endgame_before"
    package.mkdir()
    (package / "__init__.py").write_text("")
    for name in ("_kernels.py", "_endgame_kernels.py", "endgame.py"):
        text = subprocess.run(
            ["git", "-C", str(HERE), "show", f"{ref}:src/stratagem/games/scrabble/{name}"],
            check=True, capture_output=True, text=True,
        ).stdout  # fmt: skip
        text = text.replace('"stratagem.games.scrabble._endgame_kernels"',
                            '"endgame_before._endgame_kernels"')  # fmt: skip
        text = text.replace("stratagem.games.scrabble._kernels", "endgame_before._kernels")
        (package / name).write_text(text)
    sys.path.insert(0, str(into))
    return importlib.import_module("endgame_before.endgame")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--nodes", type=int, default=100_000)
    parser.add_argument("--ref", default=BEFORE)
    parser.add_argument("--lexicon", type=Path, default=DEFAULT_LEXICON)
    args = parser.parse_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lexicon = load_lexicon(args.lexicon, tile_set("english"), TableCache())
    positions = endgame_positions(lexicon, args.positions, 2026)
    with tempfile.TemporaryDirectory() as tmp:
        old = old_endgame(args.ref, Path(tmp))
        for mod in (old, new):  # compile (or load from numba's cache) before timing
            mod.solve_endgame(positions[0], time_limit=600, node_limit=1024)
        rows = []
        for i, state in enumerate(positions):
            pair = [("old", old), ("new", new)]
            results = {name: mod.solve_endgame(state, time_limit=600, node_limit=args.nodes)
                       for name, mod in (pair if i % 2 == 0 else pair[::-1])}  # fmt: skip
            a, b = results["old"], results["new"]
            same = (a.value, a.exact, a.depth, a.nodes, str(a.best_move), [*map(str, a.pv)]) == (
                b.value, b.exact, b.depth, b.nodes, str(b.best_move), [*map(str, b.pv)]
            )  # fmt: skip
            rows.append((a.nodes, a.exact, a.seconds, b.seconds, same))
            print(f"{i:3d}  value {a.value:5d} {b.value:5d}  nodes {a.nodes:7d} {b.nodes:7d}  "
                  f"exact {a.exact!s:5}  cpu {a.seconds:6.3f} {b.seconds:6.3f}  "
                  f"{'same' if same else 'DIFFERENT'}", flush=True)  # fmt: skip
    old_s = sum(r[2] for r in rows)
    new_s = sum(r[3] for r in rows)
    ratios = [r[3] / r[2] for r in rows if r[2] > 0.05]
    print(json.dumps({
        "positions": len(rows), "node_limit": args.nodes, "ref": args.ref,
        "all_same": all(r[4] for r in rows), "exact": sum(r[1] for r in rows),
        "nodes": sum(r[0] for r in rows), "old_cpu_s": round(old_s, 2),
        "new_cpu_s": round(new_s, 2), "new_over_old_total": round(new_s / old_s, 3),
        "new_over_old_median": round(statistics.median(ratios), 3) if ratios else None,
    }))  # fmt: skip
    return 0 if all(r[4] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
