"""The Yahtzee table builds (high-score, remaining-score) before issue 35 against today's.

The old builder is the ``high_score.py`` and ``_high_score_kernels.py`` of main at
``d88712c`` (before issue 35), read with ``git show`` into temporary modules. Both
build the same states of one preset, one after the other in this process on this
machine, after a warm-up that compiles (or loads) the kernels; the script then
checks that every state's band (``lo``, ``ln``, ``off``) and every layer's stored
values are equal, element for element (``np.array_equal``), and prints the wall and
CPU times and their ratio. The remaining-score distributions (optimal policy, as the
cache builds them) are compared the same way with the ``distribution.py`` and
``_dist_kernels.py`` of that commit (``--only`` picks one of the two).

``--min-filled N`` builds only the states with at least N boxes filled (the full
table, N = 0, takes about 17 minutes on the 2-core session machine for the old
builder; the default, 10, a minute or two). The last line is JSON.

Run: ``nice -n 10 python benchmarks/yahtzee_tables.py --rules yahtzee --min-filled 10``
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np

OLD_COMMIT = "d88712c"
ROOT = Path(__file__).resolve().parent.parent


def _old_module(name: str, path: str, folder: Path) -> ModuleType:
    """``path`` as it was at ``OLD_COMMIT``, imported as the module ``name``."""
    text = subprocess.run(
        ["git", "-C", str(ROOT), "show", f"{OLD_COMMIT}:{path}"],
        check=True, capture_output=True, text=True,
    ).stdout  # fmt: skip
    file = folder / f"{name}.py"
    file.write_text(text)
    spec = importlib.util.spec_from_file_location(name, file)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up there
    spec.loader.exec_module(module)
    return module


def old_high_score() -> Any:
    """The high-score builder and its kernels as they were at ``OLD_COMMIT``."""
    folder = Path(tempfile.mkdtemp(prefix="old_high_score_"))
    base = "src/stratagem/games/yahtzee/"
    kernels = _old_module("old_high_score_kernels", base + "_high_score_kernels.py", folder)
    module = _old_module("old_high_score", base + "high_score.py", folder)
    module.HK = kernels  # type: ignore[attr-defined]
    return module


def old_distribution() -> Any:
    """The remaining-score builder and its kernels (``_dist_kernels.py``) as they were at
    ``OLD_COMMIT``."""
    folder = Path(tempfile.mkdtemp(prefix="old_distribution_"))
    base = "src/stratagem/games/yahtzee/"
    kernels = _old_module("old_dist_kernels", base + "_dist_kernels.py", folder)
    module = _old_module("old_distribution", base + "distribution.py", folder)
    module.DK = kernels  # type: ignore[attr-defined]
    return module


def compare_distributions(solution: Any, min_filled: int) -> dict[str, object]:
    """Old and new remaining-score build (optimal policy, ``keep="last"`` as the cache
    uses it) of the same states, timed one after the other; equal element for element?"""
    from stratagem.games.yahtzee import distribution as new

    old = old_distribution()
    last = solution.rules.num_categories - 1
    old.remaining_distributions(solution, min_filled=last)
    new.remaining_distributions(solution, min_filled=last)
    figures: dict[str, object] = {}
    tables = []
    for label, module in (("old", old), ("new", new)):
        wall, cpu = time.perf_counter(), time.process_time()
        tables.append(module.remaining_distributions(solution, min_filled=min_filled, keep="last"))
        figures[f"{label}_wall_s"] = time.perf_counter() - wall
        figures[f"{label}_cpu_s"] = time.process_time() - cpu
    names = ("sid", "offsets", "lows", "lengths", "data")
    figures["identical"] = all(np.array_equal(getattr(tables[0], n), getattr(tables[1], n))
                               for n in names)  # fmt: skip
    return figures


def timed(build, solution, min_filled):  # type: ignore[no-untyped-def]
    wall, cpu = time.perf_counter(), time.process_time()
    table = build(solution, min_filled=min_filled)
    return table, time.perf_counter() - wall, time.process_time() - cpu


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rules", default="yahtzee")
    parser.add_argument("--min-filled", type=int, default=10)
    parser.add_argument("--only", choices=("high-score", "distribution"), default=None)
    args = parser.parse_args(argv)
    from stratagem.games.yahtzee import high_score as new
    from stratagem.games.yahtzee.rules import preset
    from stratagem.games.yahtzee.solver import solve

    rules = preset(args.rules)
    if not 0 <= args.min_filled < rules.num_categories:
        parser.error(f"--min-filled must be 0 .. {rules.num_categories - 1}")
    result: dict[str, object] = {"rules": args.rules, "min_filled": args.min_filled}
    solution = solve(rules)
    same = True
    if args.only != "distribution":
        old = old_high_score()
        last = rules.num_categories - 1
        old.build_table(solution, min_filled=last)  # type: ignore[attr-defined]
        new.build_table(solution, min_filled=last)
        t_old, wall_old, cpu_old = timed(old.build_table, solution, args.min_filled)  # type: ignore[attr-defined]
        print(f"old builder: {wall_old:.1f} s wall, {cpu_old:.1f} s CPU", flush=True)
        t_new, wall_new, cpu_new = timed(new.build_table, solution, args.min_filled)
        print(f"new builder: {wall_new:.1f} s wall, {cpu_new:.1f} s CPU", flush=True)
        same = all(
            np.array_equal(getattr(t_old, n), getattr(t_new, n)) for n in ("sid", "lo", "ln", "off")
        )
        for f in range(args.min_filled, rules.num_categories + 1):
            same = same and np.array_equal(t_old.layers[f], t_new.layers[f])
        print(f"tables identical: {same}")
        print(f"ratio (old / new): wall {wall_old / wall_new:.2f}x, CPU {cpu_old / cpu_new:.2f}x")
        result["high_score"] = {
            "identical": bool(same), "old_wall_s": wall_old, "old_cpu_s": cpu_old,
            "new_wall_s": wall_new, "new_cpu_s": cpu_new,
        }  # fmt: skip
    if args.only != "high-score":
        figures = compare_distributions(solution, args.min_filled)
        for label in ("old", "new"):
            print(f"{label} remaining-score builder: {figures[label + '_wall_s']:.1f} s wall, "
                  f"{figures[label + '_cpu_s']:.1f} s CPU")  # fmt: skip
        print(f"distributions identical: {figures['identical']}")
        ratio = float(figures["old_cpu_s"]) / float(figures["new_cpu_s"])  # type: ignore[arg-type]
        print(f"ratio (old / new), CPU: {ratio:.2f}x")
        same = same and bool(figures["identical"])
        result["distribution"] = figures
    print(json.dumps(result))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
