"""Yahtzee/Yatzy exact solver: ours against the `yatzy-solver` peer, in one run.

For each preset it measures

* the cold solve (no table cache, numba already compiled), ours and the
  peer's ``Solver.build``, best of ``--repeat``, and checks that both give the
  same expected score (to 1e-9);
* the peak memory (RSS) of one solve, each solver in a fresh child process;
* loading our solved table from the on-disk cache, in a fresh child process
  (import time reported separately);
* simulation of the optimal strategy, ours and the peer's, in games per second.

It prints one table per measurement, with the goal next to each figure, and,
as its last line, one JSON object with every figure. Missed goals are
reported, not raised; a correctness problem (the two solvers' values differ,
a cache miss, a simulated mean far from the expected score) exits with status 1.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/yahtzee_solve.py [--quick] [--presets yahtzee,yatzy]
        [--repeat 3] [--sim-games 200000] [--markdown docs/results/yahtzee_bench.md]

The library never imports the peer; only this script does.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np

# Our preset -> the peer's variant id for the same rules.
PEER_VARIANTS = {
    "yahtzee": "american+forced-joker",
    "yahtzee-free-joker": "american",
    "yahtzee-no-bonus": "american+no-bonus",
    "yatzy": "yatzy-scandinavian",
}
PEER_START = "upper 0 | filled -"  # the peer's notation for the empty card

VALUE_TOLERANCE = 1e-9
SIM_MEAN_SES = 5.0  # a simulated mean this many SEs from the expected score is a problem
GOAL_SOLVE_RATIO = 1.0  # ours / peer, for the presets below
GOAL_SOLVE_RATIO_PRESETS = ("yahtzee", "yatzy")
GOAL_PEAK_MIB = 1024.0
GOAL_LOAD_S = 1.0
GOAL_SIM_GAMES_PER_S = 20_000.0
QUICK_REPEAT = 1
THROTTLED_SHARE = 0.75  # warn when the timed work kept fewer of the CPUs busy than this
QUICK_SIM_GAMES = 20_000


# ---------------------------------------------------------------- child processes
# Each child starts a fresh interpreter, so it holds nothing but its imports,
# and prints exactly one JSON line on stdout.
#
# Peak memory is the child's own high-water RSS, VmHWM in /proc/self/status.
# Not getrusage(RUSAGE_SELF).ru_maxrss: on Linux that survives execve, so a
# child started by subprocess (vfork + exec) or multiprocessing reports at least
# the parent's peak at launch -- here ~170 MiB that the child never used.

_PEAK_HELPER = """
def mib():
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    import resource  # no /proc: fall back, knowing it may include the parent's peak
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
"""

_CHILD_PEAK_OURS = (
    _PEAK_HELPER
    + """
import json, sys
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.solver import solve_values
after_imports = mib()
values = solve_values(preset(sys.argv[1]))
print(json.dumps({"peak_mib": mib(), "import_mib": after_imports,
                  "value": float(values[0, 0, 0])}))
"""
)

_CHILD_PEAK_PEER = (
    _PEAK_HELPER
    + """
import json, sys
import yatzy_solver as ys
after_imports = mib()
solver = ys.Solver.build(ys.Variant(sys.argv[1]))
print(json.dumps({"peak_mib": mib(), "import_mib": after_imports,
                  "value": solver.state_value(sys.argv[2])}))
"""
)

_CHILD_LOAD_OURS = """
import time
start = time.perf_counter()
import json, sys
from pathlib import Path
from stratagem.core.tables import TableCache
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.solver import solve
imported = time.perf_counter()
solution = solve(preset(sys.argv[1]), cache=TableCache(Path(sys.argv[2])))
loaded = time.perf_counter()
print(json.dumps({"import_s": imported - start, "load_s": loaded - imported,
                  "cached": solution.cached, "value": solution.expected_score}))
"""


def run_child(code: str, *args: str) -> dict[str, Any]:
    """Run ``python -c code args`` in a fresh interpreter; its last stdout line is JSON."""
    proc = subprocess.run(
        [sys.executable, "-c", code, *args], capture_output=True, text=True, check=False
    )
    if proc.returncode != 0:
        raise RuntimeError(
            f"child process failed (exit {proc.returncode}) for {args}:\n{proc.stderr.strip()}"
        )
    result: dict[str, Any] = json.loads(proc.stdout.strip().splitlines()[-1])
    return result


# ---------------------------------------------------------------- measurements


@dataclass
class PresetResult:
    preset: str
    peer_variant: str
    ours_s: float = float("nan")
    peer_s: float = float("nan")
    ours_cpu_s: float = float("nan")
    peer_cpu_s: float = float("nan")
    ours_runs_s: list[float] = field(default_factory=list)
    peer_runs_s: list[float] = field(default_factory=list)
    value_ours: float = float("nan")
    value_peer: float = float("nan")
    peak_mib_ours: float = float("nan")
    peak_mib_peer: float = float("nan")
    import_mib_ours: float = float("nan")
    import_mib_peer: float = float("nan")
    load_s: float = float("nan")
    load_import_s: float = float("nan")
    sim_games_per_s_ours: float = float("nan")
    sim_games_per_s_peer: float = float("nan")
    sim_cpu_s_ours: float = float("nan")
    sim_cpu_s_peer: float = float("nan")
    sim_mean_ours: float = float("nan")
    sim_mean_peer: float = float("nan")
    sim_se_ours: float = float("nan")
    sim_se_peer: float = float("nan")
    sim_games: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return self.ours_s / self.peer_s

    @property
    def cpu_ratio(self) -> float:
        return self.ours_cpu_s / self.peer_cpu_s

    @property
    def sim_ratio(self) -> float:
        return self.sim_games_per_s_ours / self.sim_games_per_s_peer

    @property
    def sim_cpu_ratio(self) -> float:
        """Ours / peer in games per CPU second."""
        return self.sim_cpu_s_peer / self.sim_cpu_s_ours

    @property
    def timed_wall_s(self) -> float:
        """Wall seconds of the best solves and the simulations (the timed work)."""
        sims = (
            self.sim_games / self.sim_games_per_s_ours + self.sim_games / self.sim_games_per_s_peer
        )
        return self.ours_s + self.peer_s + sims

    @property
    def timed_cpu_s(self) -> float:
        return self.ours_cpu_s + self.peer_cpu_s + self.sim_cpu_s_ours + self.sim_cpu_s_peer

    @property
    def cores_used(self) -> float:
        """Average busy cores during the timed work: low when the machine is throttled."""
        return self.timed_cpu_s / self.timed_wall_s

    @property
    def values_agree(self) -> bool:
        return abs(self.value_ours - self.value_peer) <= VALUE_TOLERANCE

    def as_json(self) -> dict[str, Any]:
        return {
            "peer_variant": self.peer_variant,
            "ours_s": self.ours_s,
            "peer_s": self.peer_s,
            "ratio": self.ratio,
            "ours_runs_s": self.ours_runs_s,
            "peer_runs_s": self.peer_runs_s,
            "ours_cpu_s": self.ours_cpu_s,
            "peer_cpu_s": self.peer_cpu_s,
            "cpu_ratio": self.cpu_ratio,
            "value_ours": self.value_ours,
            "value_peer": self.value_peer,
            "values_agree": self.values_agree,
            "peak_mib_ours": self.peak_mib_ours,
            "peak_mib_peer": self.peak_mib_peer,
            "import_mib_ours": self.import_mib_ours,
            "import_mib_peer": self.import_mib_peer,
            "load_s": self.load_s,
            "load_import_s": self.load_import_s,
            "sim_games_per_s_ours": self.sim_games_per_s_ours,
            "sim_games_per_s_peer": self.sim_games_per_s_peer,
            "sim_ratio": self.sim_ratio,
            "sim_cpu_s_ours": self.sim_cpu_s_ours,
            "sim_cpu_s_peer": self.sim_cpu_s_peer,
            "sim_cpu_ratio": self.sim_cpu_ratio,
            "sim_mean_ours": self.sim_mean_ours,
            "sim_mean_peer": self.sim_mean_peer,
            "cores_used": self.cores_used,
            "problems": self.problems,
        }


def process_cpu_s() -> float:
    """CPU seconds used so far by every thread of this process (ours and the peer's)."""
    return time.process_time()


def timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """``(wall seconds, process CPU seconds, result)`` of calling ``fn``."""
    gc.collect()
    cpu = process_cpu_s()
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, process_cpu_s() - cpu, out


def mean_and_se(scores: np.ndarray) -> tuple[float, float]:
    s = np.asarray(scores, dtype=np.float64)
    se = float(s.std(ddof=1) / np.sqrt(len(s))) if len(s) > 1 else float("nan")
    return float(s.mean()), se


def warm_up() -> float:
    """Compile (or load from numba's disk cache) every kernel the timed code calls."""
    from stratagem.games.yahtzee.rules import preset
    from stratagem.games.yahtzee.solver import solve
    from stratagem.games.yahtzee.strategies import simulate

    start = time.perf_counter()
    solution = solve(preset("yahtzee-no-bonus"), use_cache=False)
    simulate(solution, 1000, seed=0)
    return time.perf_counter() - start


def measure(
    name: str, repeat: int, sim_games: int, seed: int, log: Callable[[str], None]
) -> PresetResult:
    import yatzy_solver as ys

    from stratagem.core.tables import TableCache
    from stratagem.games.yahtzee.rules import preset
    from stratagem.games.yahtzee.solver import solve, solve_values
    from stratagem.games.yahtzee.strategies import simulate

    rules = preset(name)
    variant_id = PEER_VARIANTS[name]
    variant = ys.Variant(variant_id)
    r = PresetResult(name, variant_id)

    # (a) cold solves, alternating ours and the peer's so drift hits both alike.
    ours_times: list[tuple[float, float]] = []
    peer_times: list[tuple[float, float]] = []
    values = None
    solver = None
    for _ in range(repeat):
        values = None
        t, cpu, values = timed(lambda: solve_values(rules))
        ours_times.append((t, cpu))
        solver = None
        t, cpu, solver = timed(lambda: ys.Solver.build(variant))
        peer_times.append((t, cpu))
    assert values is not None and solver is not None
    (r.ours_s, r.ours_cpu_s), (r.peer_s, r.peer_cpu_s) = min(ours_times), min(peer_times)
    r.ours_runs_s = [t for t, _ in ours_times]
    r.peer_runs_s = [t for t, _ in peer_times]
    r.value_ours = float(values[0, 0, 0])
    r.value_peer = float(solver.state_value(PEER_START))
    if not r.values_agree:
        r.problems.append(
            f"expected scores differ by {abs(r.value_ours - r.value_peer):.3g} "
            f"(ours {r.value_ours!r}, peer {r.value_peer!r})"
        )
    del values
    log(
        f"  cold solve runs: ours {', '.join(f'{t:.3f}' for t in r.ours_runs_s)} s; "
        f"peer {', '.join(f'{t:.3f}' for t in r.peer_runs_s)} s"
    )

    with tempfile.TemporaryDirectory(prefix="stratagem-bench-") as cache_dir:
        # Write our table into an empty cache (a miss: solves and saves).
        solution = solve(rules, cache=TableCache(Path(cache_dir)))
        if solution.cached:
            r.problems.append("the fresh temporary cache reported a hit")

        # (d) simulation of the optimal strategy, one timed run each.
        t, cpu, sim = timed(partial(simulate, solution, sim_games, seed=seed))
        r.sim_games = sim_games
        r.sim_games_per_s_ours, r.sim_cpu_s_ours = sim_games / t, cpu
        r.sim_mean_ours, r.sim_se_ours = mean_and_se(sim.scores)
        del sim
        t, cpu, peer_sim = timed(partial(solver.simulate, sim_games, seed=seed))
        r.sim_games_per_s_peer, r.sim_cpu_s_peer = sim_games / t, cpu
        r.sim_mean_peer, r.sim_se_peer = mean_and_se(peer_sim["scores"])
        del peer_sim, solver, solution
        for who, mean, se in (
            ("our", r.sim_mean_ours, r.sim_se_ours),
            ("the peer's", r.sim_mean_peer, r.sim_se_peer),
        ):
            if abs(mean - r.value_ours) > SIM_MEAN_SES * se:
                r.problems.append(
                    f"{who} simulated mean {mean:.3f} ± {se:.3f} is more than {SIM_MEAN_SES:g} "
                    f"SE from the expected score {r.value_ours:.3f}"
                )
        gc.collect()
        log(
            f"  simulate {sim_games} games: ours {r.sim_games_per_s_ours:,.0f}/s, "
            f"peer {r.sim_games_per_s_peer:,.0f}/s"
        )
        log(f"  timed work kept {r.cores_used:.2f} of {os.cpu_count()} CPUs busy on average")

        # (c) cache hit in a fresh process, best of `repeat`.
        loads = [run_child(_CHILD_LOAD_OURS, name, cache_dir) for _ in range(repeat)]
        best = min(loads, key=lambda d: d["load_s"])
        r.load_s, r.load_import_s = best["load_s"], best["import_s"]
        if not all(d["cached"] for d in loads):
            r.problems.append("the cached load in a fresh process was not a cache hit")
        if any(d["value"] != r.value_ours for d in loads):
            r.problems.append("the cached table's expected score differs from the cold solve's")
        log(f"  cached load: {r.load_s:.3f} s (+ {r.load_import_s:.3f} s imports)")

    # (b) peak RSS of one solve, each in a fresh process.
    ours = run_child(_CHILD_PEAK_OURS, name)
    peer = run_child(_CHILD_PEAK_PEER, variant_id, PEER_START)
    r.peak_mib_ours, r.import_mib_ours = ours["peak_mib"], ours["import_mib"]
    r.peak_mib_peer, r.import_mib_peer = peer["peak_mib"], peer["import_mib"]
    if ours["value"] != r.value_ours:
        r.problems.append("the solve in a child process gave a different expected score")
    log(f"  peak RSS: ours {r.peak_mib_ours:.0f} MiB, peer {r.peak_mib_peer:.0f} MiB")
    return r


# ---------------------------------------------------------------- report


def verdict(ok: bool | None) -> str:
    return "-" if ok is None else ("met" if ok else "MISSED")


@dataclass
class Table:
    title: str
    headers: list[str]
    rows: list[list[str]]
    right: set[int] = field(default_factory=set)  # right-aligned (numeric) columns

    def text(self) -> str:
        cells = [self.headers, *self.rows]
        widths = [max(len(row[i]) for row in cells) for i in range(len(self.headers))]

        def line(row: Sequence[str]) -> str:
            parts = [
                c.rjust(w) if i in self.right else c.ljust(w)
                for i, (c, w) in enumerate(zip(row, widths, strict=True))
            ]
            return "  ".join(parts).rstrip()

        rule = "  ".join("-" * w for w in widths)
        return "\n".join([self.title, line(self.headers), rule, *map(line, self.rows)])

    def markdown(self) -> str:
        align = ["---:" if i in self.right else ":---" for i in range(len(self.headers))]
        out = [
            f"**{self.title}**",
            "",
            "| " + " | ".join(self.headers) + " |",
            "| " + " | ".join(align) + " |",
        ]
        out += ["| " + " | ".join(row) + " |" for row in self.rows]
        return "\n".join(out)


def build_tables(results: list[PresetResult], repeat: int, sim_games: int) -> list[Table]:
    solve_rows, memory_rows, load_rows, sim_rows = [], [], [], []
    for r in results:
        has_goal = r.preset in GOAL_SOLVE_RATIO_PRESETS
        solve_rows.append([
            r.preset, f"{r.ours_s:.3f}", f"{r.peer_s:.3f}", f"{r.ratio:.2f}",
            f"<= {GOAL_SOLVE_RATIO:.1f}" if has_goal else "-",
            verdict(r.ratio <= GOAL_SOLVE_RATIO if has_goal else None),
            f"{r.cpu_ratio:.2f}", f"{r.value_ours:.9f}", f"{r.value_peer:.9f}",
            f"{abs(r.value_ours - r.value_peer):.1e}",
        ])  # fmt: skip
        memory_rows.append([
            r.preset, f"{r.peak_mib_ours:.0f}", f"{r.import_mib_ours:.0f}",
            f"{r.peak_mib_peer:.0f}", f"{r.import_mib_peer:.0f}", f"<= {GOAL_PEAK_MIB:.0f}",
            verdict(r.peak_mib_ours <= GOAL_PEAK_MIB),
        ])  # fmt: skip
        load_rows.append([
            r.preset, f"{r.load_s:.3f}", f"{r.load_import_s:.3f}", f"< {GOAL_LOAD_S:.0f}",
            verdict(r.load_s < GOAL_LOAD_S),
        ])  # fmt: skip
        sim_rows.append([
            r.preset, f"{r.sim_games_per_s_ours:,.0f}", f"{r.sim_games_per_s_peer:,.0f}",
            f"{r.sim_ratio:.2f}", f">= {GOAL_SIM_GAMES_PER_S:,.0f}",
            verdict(r.sim_games_per_s_ours >= GOAL_SIM_GAMES_PER_S),
            f"{r.sim_cpu_ratio:.2f}", f"{r.sim_mean_ours:.2f} ± {r.sim_se_ours:.2f}",
            f"{r.sim_mean_peer:.2f} ± {r.sim_se_peer:.2f}",
        ])  # fmt: skip
    return [
        Table(
            f"Cold solve, no table cache, best of {repeat} (wall seconds; ratio = ours / peer, "
            "lower is better; cpu ratio = the same in process CPU seconds)",
            ["preset", "ours s", "peer s", "ratio", "goal", "status", "cpu ratio",
             "E[score] ours", "E[score] peer", "abs diff"],
            solve_rows,
            right={1, 2, 3, 6, 7, 8, 9},
        ),
        Table(
            "Peak RSS of one cold solve, each in a fresh process (MiB; 'imports' = peak "
            "after imports, before solving)",
            ["preset", "ours", "ours imports", "peer", "peer imports", "goal", "status"],
            memory_rows,
            right={1, 2, 3, 4},
        ),
        Table(
            f"Cached table load in a fresh process, best of {repeat} (seconds; "
            "`solve(rules, cache=...)` on a hit; imports timed separately)",
            ["preset", "load s", "imports s", "goal", "status"],
            load_rows,
            right={1, 2},
        ),
        Table(
            f"Simulation of optimal play, {sim_games:,} games, one run each (games/s; "
            "ratio = ours / peer, higher is better; cpu ratio = the same per CPU second; "
            "mean score ± SE)",
            ["preset", "ours", "peer", "ratio", "goal", "status", "cpu ratio", "mean ours",
             "mean peer"],
            sim_rows,
            right={1, 2, 3, 6, 7, 8},
        ),
    ]  # fmt: skip


def machine() -> dict[str, Any]:
    import numba
    import yatzy_solver as ys

    cpu_model = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu_model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "cpu_count": os.cpu_count(),
        "cpu_model": cpu_model or platform.processor(),
        "numba_threads": numba.get_num_threads(),
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "peer": f"yatzy-solver {ys.__version__}",
    }


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--presets",
        default=",".join(PEER_VARIANTS),
        help=f"comma-separated presets (default: all of {', '.join(PEER_VARIANTS)})",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=None,
        help="timed cold solves and cached loads per solver; best is kept "
        f"(default 3, {QUICK_REPEAT} with --quick)",
    )
    parser.add_argument(
        "--sim-games",
        type=int,
        default=None,
        help=f"games to simulate per solver (default 200000, {QUICK_SIM_GAMES} with --quick)",
    )
    parser.add_argument("--seed", type=int, default=0, help="simulation seed (default 0)")
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"--repeat {QUICK_REPEAT} --sim-games {QUICK_SIM_GAMES} unless given",
    )
    parser.add_argument(
        "--markdown", type=Path, default=None, help="also write the tables as Markdown to this file"
    )
    args = parser.parse_args(argv)
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    unknown = [p for p in presets if p not in PEER_VARIANTS]
    if unknown or not presets:
        parser.error(f"unknown preset(s) {unknown}; choose from {', '.join(PEER_VARIANTS)}")
    args.presets = presets
    if args.repeat is None:
        args.repeat = QUICK_REPEAT if args.quick else 3
    if args.sim_games is None:
        args.sim_games = QUICK_SIM_GAMES if args.quick else 200_000
    if args.repeat < 1 or args.sim_games < 2:
        parser.error("--repeat must be >= 1 and --sim-games >= 2")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        import yatzy_solver  # noqa: F401
    except ImportError:
        print(
            "the peer is missing: pip install -e '.[bench]'  (yatzy-solver>=1.0,<2)",
            file=sys.stderr,
        )
        return 2

    def log(msg: str) -> None:
        print(msg, flush=True)

    info = machine()
    log(
        f"machine: {info['cpu_count']} CPUs ({info['cpu_model']}), numba threads "
        f"{info['numba_threads']}; Python {info['python']}, numpy {info['numpy']}, numba "
        f"{info['numba']}; peer {info['peer']} (its own thread pool, all cores)"
    )
    warmup_s = warm_up()
    log(
        f"warm-up: {warmup_s:.2f} s (numba compilation or loading numba's disk cache: one solve "
        "of yahtzee-no-bonus and 1,000 simulated games); excluded from every timing below"
    )

    results = []
    for name in args.presets:
        log(f"{name} (peer variant {PEER_VARIANTS[name]}):")
        results.append(measure(name, args.repeat, args.sim_games, args.seed, log))

    tables = build_tables(results, args.repeat, args.sim_games)
    notes = [
        f"Machine: {info['cpu_count']} CPUs ({info['cpu_model']}); ours runs on "
        f"{info['numba_threads']} numba threads, {info['peer']} on its own thread pool.",
        "Wall time is the headline; the cpu ratio (CPU seconds of all threads) is a "
        "cross-check when the machine's speed drifts during the run.",
        "Timings exclude numba compilation (warm-up run first); child processes load the "
        "compiled kernels from numba's disk cache.",
        "Peak memory is the child process's own high-water RSS (VmHWM); getrusage's "
        "ru_maxrss would include the parent's peak, which survives exec on Linux.",
        f"Expected scores must agree to {VALUE_TOLERANCE:g}; simulated means must lie within "
        f"{SIM_MEAN_SES:g} SE of the expected score.",
    ]
    cpus = os.cpu_count() or 1
    cores_used = sum(r.timed_cpu_s for r in results) / sum(r.timed_wall_s for r in results)
    if cores_used < THROTTLED_SHARE * cpus:
        notes.append(
            f"WARNING: the timed work kept only {cores_used:.2f} of {cpus} CPUs busy on "
            "average, so the machine was throttled or shared during this run: absolute "
            "figures (seconds, games/s) understate it; the ratios compare like with like."
        )
    problems = [f"{r.preset}: {p}" for r in results for p in r.problems]
    print()
    for table in tables:
        print(table.text())
        print()
    for note in notes:
        print(note)
    for p in problems:
        print(f"PROBLEM {p}")

    if args.markdown is not None:
        md = [
            "<!-- generated by benchmarks/yahtzee_solve.py; do not edit by hand -->",
            "",
            *(f"{t.markdown()}\n" for t in tables),
            *(f"- {n}" for n in notes),
            *(f"- **Problem** {p}" for p in problems),
            "",
        ]
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text("\n".join(md))
        print(f"Markdown written to {args.markdown}")

    goals = {
        "solve_ratio": all(
            r.ratio <= GOAL_SOLVE_RATIO for r in results if r.preset in GOAL_SOLVE_RATIO_PRESETS
        ),
        "peak_mib": all(r.peak_mib_ours <= GOAL_PEAK_MIB for r in results),
        "load_s": all(r.load_s < GOAL_LOAD_S for r in results),
        "sim_games_per_s": all(r.sim_games_per_s_ours >= GOAL_SIM_GAMES_PER_S for r in results),
    }
    summary = {
        "benchmark": "yahtzee_solve",
        **info,
        "repeat": args.repeat,
        "sim_games": args.sim_games,
        "seed": args.seed,
        "warmup_s": warmup_s,
        "cores_used": cores_used,
        "peak_rss_source": "VmHWM of a fresh child process",
        "goals": {
            "solve_ratio_max": GOAL_SOLVE_RATIO,
            "solve_ratio_presets": list(GOAL_SOLVE_RATIO_PRESETS),
            "peak_mib_max": GOAL_PEAK_MIB,
            "load_s_max": GOAL_LOAD_S,
            "sim_games_per_s_min": GOAL_SIM_GAMES_PER_S,
        },
        "goals_met": goals,
        "values_agree": all(r.values_agree for r in results),
        "problems": problems,
        "presets": {r.preset: r.as_json() for r in results},
    }
    print(json.dumps(summary))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
