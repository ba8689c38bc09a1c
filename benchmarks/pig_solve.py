"""Pig exact solver: ours against OpenSpiel's value iteration, in one run.

It measures

* our cold solve (``solve(rules, use_cache=False)``, numba already compiled)
  of Pig to 100 -- 505,000 equations -- and of each peer goal, best of
  ``--repeat``, with the sweeps it took (in total, and the most for one
  stage pair), on numba's threads and on one thread;
* OpenSpiel's ``value_iteration(game, -1, threshold, cyclic_game=True)`` on
  its ``pig`` game with the same rules (2 players, d6, a 1 busts, goal
  ``winscore``), each run in a fresh child process, best of up to
  ``--peer-repeat`` runs within a time budget, and the speed-up peer / ours;
* the values: our 2 P(0, 0, 0) - 1 against the peer's value of the initial
  state for player 0, and every other state both solve;
* the peak memory (VmHWM) of one solve of each, in a fresh child process;
* the CPU that other processes took meanwhile (a shared machine slows our
  multi-threaded solve far beyond its share; the report warns then).

It prints one table per measurement, with the goal next to each figure, and,
as its last line, one JSON object with every figure. Missed goals are
reported, not raised; a correctness problem (the values differ by more than
1e-9, a child process fails) exits with status 1.

    .venv/bin/pip install -e '.[bench]'
    .venv/bin/python benchmarks/pig_solve.py [--quick] [--goals 20,30] [--repeat 5]
        [--peer-repeat 3] [--threshold 1e-14] [--markdown docs/results/pig_bench.md]

The library never imports the peer; only this script and one slow test
(tests/games/pig/test_peer_values.py) do.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

OUR_GOAL = 100  # the headline solve: Pig to 100, 505,000 equations
DEFAULT_PEER_GOALS = (20, 30)
QUICK_PEER_GOALS = (20,)
GOAL_OURS_S = 0.25  # ours on OUR_GOAL, wall seconds
GOAL_SPEEDUP = 1000.0  # peer / ours on each peer goal
VALUE_TOLERANCE = 1e-9
PEER_BUDGET_S = 20.0  # no further peer run on a goal once its runs took this long
# OpenSpiel's default horizon is 1000 moves, after which the game is a draw.
# Ours has no move limit, so the peer gets one that no game reaches. (Its
# value_iteration keys states by str(state), which omits the move count, so
# with the default the values come out the same: see the "horizon draws"
# column, which counts enumerated states cut off by the horizon.)
PEER_HORIZON = 1_000_000
BUSY_OTHERS = 0.25  # warn when other processes kept this many CPUs busy while we timed
QUICK_REPEAT = 3
QUICK_PEER_REPEAT = 1


# ---------------------------------------------------------------- child processes
# Each child starts a fresh interpreter, so it holds nothing but its imports,
# and prints exactly one JSON line on stdout.
#
# Peak memory is the child's own high-water RSS, VmHWM in /proc/self/status.
# Not getrusage(RUSAGE_SELF).ru_maxrss: on Linux that survives execve, so a
# child started by subprocess reports at least the parent's peak at launch.

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

_CHILD_OURS = (
    _PEAK_HELPER
    + """
import json, sys
from stratagem.games.pig.rules import preset
from stratagem.games.pig.solver import solve
import_mib = mib()
solve(preset("pig").with_options(goal=3), use_cache=False).p_start  # load numba's disk cache
warm_mib = mib()
solution = solve(preset("pig").with_options(goal=int(sys.argv[1])), use_cache=False)
peak = mib()
print(json.dumps({"peak_mib": peak, "import_mib": import_mib, "warm_mib": warm_mib,
                  "p_start": solution.p_start}))
"""
)

_CHILD_PEER = (
    _PEAK_HELPER
    + """
import json, sys, time
goal, threshold, horizon, analyse = (
    int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "1")
import pyspiel
from open_spiel.python.algorithms import value_iteration
game = pyspiel.load_game("pig", {"players": 2, "diceoutcomes": 6, "piglet": False,
                                 "winscore": goal, "horizon": horizon})
import_mib = mib()
cpu = time.process_time()
start = time.perf_counter()
values = value_iteration.value_iteration(game, -1, threshold, cyclic_game=True)
wall = time.perf_counter() - start
cpu = time.process_time() - cpu
peak = mib()
out = {"s": wall, "cpu_s": cpu, "peak_mib": peak, "import_mib": import_mib,
       "game": str(game), "value": values[str(game.new_initial_state())],
       "num_values": len(values)}
if analyse:
    from open_spiel.python.algorithms import get_all_states
    states = get_all_states.get_all_states(
        game, -1, True, False, to_string=str, stop_if_encountered=True)

    def q_value(state, action):
        child = state.child(action)
        if child.is_chance_node():
            return sum(p * values[str(child.child(o))] for o, p in child.chance_outcomes())
        return values[str(child)]

    # OpenSpiel lets a player stop (pass) at turn total 0; ours does not. The
    # best margin of stopping over rolling there, for the player to move:
    # negative means passing is never chosen, so the games have equal values.
    margin = None
    for state in states.values():
        if state.is_terminal() or state.legal_actions() != [0, 1]:
            continue
        if "Turn total: 0\\n" not in str(state):
            continue
        sign = 1.0 if state.current_player() == 0 else -1.0
        m = sign * (q_value(state, 1) - q_value(state, 0))
        margin = m if margin is None else max(margin, m)
    out["stop_at_zero_margin"] = margin
    out["horizon_draws"] = sum(
        1 for s in states.values() if s.is_terminal() and max(s.returns()) < 1.0)
    out["longest_path"] = max(len(s.history()) for s in states.values())
    out["values"] = values
print(json.dumps(out))
"""
)


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

_STATE = re.compile(r"Scores: (\d+) (\d+), Turn total: (\d+)\nCurrent player: ([01])\n")


@dataclass
class OursResult:
    goal: int
    equations: int
    s: float = float("nan")
    cpu_s: float = float("nan")
    runs_s: list[float] = field(default_factory=list)
    s_1_thread: float = float("nan")
    runs_1_thread_s: list[float] = field(default_factory=list)
    sweeps: int = 0
    max_sweeps: int = 0
    p_start: float = float("nan")
    peak_mib: float = float("nan")
    warm_mib: float = float("nan")

    @property
    def value(self) -> float:
        """2 P(0, 0, 0) - 1: the starting player's value in OpenSpiel's [-1, 1]."""
        return 2.0 * self.p_start - 1.0

    def as_json(self) -> dict[str, Any]:
        return {
            "equations": self.equations,
            "s": self.s,
            "cpu_s": self.cpu_s,
            "runs_s": self.runs_s,
            "s_1_thread": self.s_1_thread,
            "runs_1_thread_s": self.runs_1_thread_s,
            "sweeps": self.sweeps,
            "max_sweeps_of_one_pair": self.max_sweeps,
            "p_start": self.p_start,
            "value": self.value,
            "peak_mib": self.peak_mib,
            "peak_mib_after_warm_up": self.warm_mib,
        }


@dataclass
class PeerResult:
    goal: int
    game: str = ""
    s: float = float("nan")
    cpu_s: float = float("nan")
    runs_s: list[float] = field(default_factory=list)
    value: float = float("nan")
    num_values: int = 0
    peak_mib: float = float("nan")
    import_mib: float = float("nan")
    states_compared: int = 0
    max_state_diff: float = float("nan")
    stop_at_zero_margin: float = float("nan")
    horizon_draws: int = -1
    longest_path: int = 0


def timed(fn: Callable[[], Any]) -> tuple[float, float, Any]:
    """``(wall seconds, process CPU seconds, result)`` of calling ``fn``."""
    gc.collect()
    cpu = time.process_time()
    start = time.perf_counter()
    out = fn()
    return time.perf_counter() - start, time.process_time() - cpu, out


class OtherLoad:
    """CPU seconds that other processes used while this one ran (from /proc/stat).

    The busy time of the whole machine less this process's and its children's.
    Our solver synchronises its threads after every sweep, so a core taken by
    another process slows it far more than its share.
    """

    def __init__(self) -> None:
        self.start = self._sample()

    @staticmethod
    def _sample() -> tuple[float, float, float] | None:
        try:
            fields = Path("/proc/stat").read_text().splitlines()[0].split()
        except OSError:
            return None
        ticks = [int(x) for x in fields[1:]]
        busy = sum(ticks[:8]) - ticks[3] - ticks[4]  # all but idle and iowait
        own = os.times()
        mine = own.user + own.system + own.children_user + own.children_system
        return time.perf_counter(), busy / os.sysconf("SC_CLK_TCK"), mine

    def cpus(self) -> float:
        """Average CPUs kept busy by other processes since the start (nan without /proc)."""
        end = self._sample()
        if self.start is None or end is None:
            return float("nan")
        wall = end[0] - self.start[0]
        return max(0.0, (end[1] - self.start[1]) - (end[2] - self.start[2])) / wall


def warm_up() -> float:
    """Compile (or load from numba's disk cache) every kernel the timed code calls."""
    from stratagem.games.pig.rules import preset
    from stratagem.games.pig.solver import solve

    start = time.perf_counter()
    solution = solve(preset("pig").with_options(goal=10), use_cache=False)
    solution.p_win(2, 3, 4)
    return time.perf_counter() - start


def measure_ours(goal: int, repeat: int) -> OursResult:
    """Best of ``repeat`` on numba's default threads, then best of ``repeat`` on one thread."""
    import numba

    from stratagem.games.pig.rules import preset
    from stratagem.games.pig.solver import solve

    rules = preset("pig").with_options(goal=goal)
    r = OursResult(goal, rules.num_states)
    runs = []
    solution = None
    for _ in range(repeat):
        solution = None
        t, cpu, solution = timed(lambda: solve(rules, use_cache=False))
        runs.append((t, cpu))
    assert solution is not None
    r.s, r.cpu_s = min(runs)
    r.runs_s = [t for t, _ in runs]
    threads = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        r.runs_1_thread_s = [timed(lambda: solve(rules, use_cache=False))[0] for _ in range(repeat)]
    finally:
        numba.set_num_threads(threads)
    r.s_1_thread = min(r.runs_1_thread_s)
    r.sweeps, r.max_sweeps = solution.sweeps, solution.max_sweeps
    r.p_start = solution.p_start
    child = run_child(_CHILD_OURS, str(goal))
    r.peak_mib, r.warm_mib = child["peak_mib"], child["warm_mib"]
    if child["p_start"] != r.p_start:
        raise RuntimeError(f"goal {goal}: the solve in a child process gave a different P(0,0,0)")
    return r


def compare_states(goal: int, values: dict[str, float]) -> tuple[int, float]:
    """Every state both solve (the mover short of the goal): count and max |ours - peer|."""
    from stratagem.games.pig.rules import preset
    from stratagem.games.pig.solver import solve

    solution = solve(preset("pig").with_options(goal=goal), use_cache=False)
    count, worst = 0, 0.0
    for key, peer in values.items():
        m = _STATE.fullmatch(key)
        if m is None:
            continue
        scores = (int(m[1]), int(m[2]))
        turn, player = int(m[3]), int(m[4])
        me, opp = scores[player], scores[1 - player]
        if me + turn >= goal or opp >= goal:
            continue  # over: the game has ended, or only "stop" is left
        p = solution.p_win(me, opp, turn)
        ours = 2.0 * p - 1.0 if player == 0 else 1.0 - 2.0 * p
        worst = max(worst, abs(ours - peer))
        count += 1
    return count, worst


def measure_peer(
    goal: int, threshold: float, max_runs: int, log: Callable[[str], None]
) -> PeerResult:
    r = PeerResult(goal)
    runs: list[tuple[float, float]] = []
    spent = 0.0
    first: dict[str, Any] = {}
    while len(runs) < max_runs and (not runs or spent < PEER_BUDGET_S):
        analyse = "0" if runs else "1"
        child = run_child(_CHILD_PEER, str(goal), repr(threshold), str(PEER_HORIZON), analyse)
        runs.append((child["s"], child["cpu_s"]))
        spent += child["s"]
        if not first:
            first = child  # it also analysed its states, after its timing and peak
        elif child["value"] != first["value"]:
            raise RuntimeError(f"goal {goal}: two runs of the peer gave different values")
        log(f"  peer run {len(runs)}: {child['s']:.3f} s")
    r.s, r.cpu_s = min(runs)
    r.runs_s = [t for t, _ in runs]
    r.game, r.value, r.num_values = first["game"], first["value"], first["num_values"]
    r.peak_mib, r.import_mib = first["peak_mib"], first["import_mib"]
    r.stop_at_zero_margin = first["stop_at_zero_margin"]
    r.horizon_draws, r.longest_path = first["horizon_draws"], first["longest_path"]
    r.states_compared, r.max_state_diff = compare_states(goal, first["values"])
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


def build_tables(
    ours: dict[int, OursResult], peers: list[PeerResult], repeat: int, peer_repeat: int,
    threshold: float,
) -> list[Table]:  # fmt: skip
    ours_rows = []
    for r in sorted(ours.values(), key=lambda r: r.goal):
        headline = r.goal == OUR_GOAL
        ours_rows.append([
            str(r.goal), f"{r.equations:,}", f"{r.s:.4f}", f"{r.cpu_s:.4f}",
            f"{r.s_1_thread:.4f}", f"{r.sweeps:,}",
            str(r.max_sweeps), f"{r.p_start:.12f}",
            f"< {GOAL_OURS_S:g}" if headline else "-",
            verdict(r.s < GOAL_OURS_S if headline else None),
        ])  # fmt: skip
    speed_rows, value_rows, memory_rows = [], [], []
    for p in peers:
        o = ours[p.goal]
        speedup = p.s / o.s
        speed_rows.append([
            str(p.goal), f"{o.s:.4f}", f"{p.s:.3f}", str(len(p.runs_s)), f"{speedup:,.0f}",
            f"{o.s / p.s:.2e}", f"{p.cpu_s / o.cpu_s:,.0f}", f"{p.s / o.s_1_thread:,.0f}",
            f">= {GOAL_SPEEDUP:,.0f}",
            verdict(speedup >= GOAL_SPEEDUP),
        ])  # fmt: skip
        value_rows.append([
            str(p.goal), f"{o.value:.15f}", f"{p.value:.15f}", f"{abs(o.value - p.value):.1e}",
            f"{p.states_compared:,}", f"{p.max_state_diff:.1e}",
            f"{p.stop_at_zero_margin:+.3f}", str(p.horizon_draws),
        ])  # fmt: skip
        memory_rows.append([
            str(p.goal), f"{o.peak_mib:.0f}", f"{o.warm_mib:.0f}", f"{p.peak_mib:.0f}",
            f"{p.import_mib:.0f}",
        ])  # fmt: skip
    if OUR_GOAL in ours and all(p.goal != OUR_GOAL for p in peers):
        o = ours[OUR_GOAL]
        memory_rows.append([str(OUR_GOAL), f"{o.peak_mib:.0f}", f"{o.warm_mib:.0f}", "-", "-"])
    return [
        Table(
            f"Ours: cold solve, no table cache, best of {repeat} (wall and process CPU seconds; "
            "sweeps in total and the most for one stage pair)",
            ["goal", "equations", "ours s", "cpu s", "1 thread s", "sweeps", "max/pair",
             "P(0,0,0)", "goal", "status"],
            ours_rows,
            right={1, 2, 3, 4, 5, 6, 7},
        ),
        Table(
            f"Against OpenSpiel value_iteration (threshold {threshold:g}), same goal; ours best "
            f"of {repeat}, peer best of its runs (at most {peer_repeat}, each in a fresh "
            "process); speed-up = peer / ours, higher is better; cpu speed-up = the same in "
            "process CPU seconds; 1 thread = the speed-up of ours on one numba thread",
            ["goal", "ours s", "peer s", "peer runs", "speed-up", "ours/peer", "cpu speed-up",
             "1 thread", "goal", "status"],
            speed_rows,
            right={1, 2, 3, 4, 5, 6, 7},
        ),
        Table(
            "Values for player 0 in [-1, 1]: ours 2 P(0,0,0) - 1 against the peer's initial "
            "state; 'max diff' over every state both solve; 'stop@0' = the best margin of "
            "stopping over rolling at turn total 0 in the peer (negative: never chosen); "
            "'horizon draws' = enumerated states cut off by the peer's horizon",
            ["goal", "ours", "peer", "abs diff", "states", "max diff", "stop@0",
             "horizon draws"],
            value_rows,
            right={1, 2, 3, 4, 5, 6, 7},
        ),
        Table(
            "Peak RSS of one solve in a fresh process (MiB; ours 'warm' = after imports and "
            "loading numba's cache, before solving; peer 'imports' = before solving)",
            ["goal", "ours", "ours warm", "peer", "peer imports"],
            memory_rows,
            right={1, 2, 3, 4},
        ),
    ]  # fmt: skip


def machine() -> dict[str, Any]:
    from importlib.metadata import version

    import numba
    import numpy as np

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
        "peer": f"open_spiel {version('open_spiel')}",
    }


def parse_goals(text: str) -> list[int]:
    goals = sorted({int(g) for g in text.split(",") if g.strip()})
    if not goals or any(g < 1 for g in goals):
        raise ValueError(text)
    return goals


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--goals",
        default=None,
        help="comma-separated goals to solve with both ours and the peer (default "
        f"{','.join(map(str, DEFAULT_PEER_GOALS))}; {QUICK_PEER_GOALS[0]} with --quick); "
        f"ours also solves {OUR_GOAL}",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=None,
        help=f"timed solves of ours per goal, best kept (default 5, {QUICK_REPEAT} with --quick)",
    )
    parser.add_argument(
        "--peer-repeat",
        type=int,
        default=None,
        help="at most this many peer runs per goal, best kept; no new run starts once a "
        f"goal's runs took {PEER_BUDGET_S:g} s (default 3, {QUICK_PEER_REPEAT} with --quick)",
    )
    parser.add_argument(
        "--threshold",
        type=float,
        default=None,
        help="the peer's convergence threshold (default: ours, the largest change of a "
        "sweep at which our solver stops)",
    )
    parser.add_argument(
        "--quick",
        action="store_true",
        help=f"--goals {QUICK_PEER_GOALS[0]} --repeat {QUICK_REPEAT} "
        f"--peer-repeat {QUICK_PEER_REPEAT} unless given",
    )
    parser.add_argument(
        "--markdown", type=Path, default=None, help="also write the tables as Markdown to this file"
    )
    args = parser.parse_args(argv)
    if args.goals is None:
        args.goals = list(QUICK_PEER_GOALS if args.quick else DEFAULT_PEER_GOALS)
    else:
        try:
            args.goals = parse_goals(args.goals)
        except ValueError:
            parser.error(f"--goals wants whole numbers >= 1, comma-separated, not {args.goals!r}")
    if args.repeat is None:
        args.repeat = QUICK_REPEAT if args.quick else 5
    if args.peer_repeat is None:
        args.peer_repeat = QUICK_PEER_REPEAT if args.quick else 3
    if args.repeat < 1 or args.peer_repeat < 1:
        parser.error("--repeat and --peer-repeat must be >= 1")
    if args.threshold is None:
        from stratagem.games.pig.solver import TOLERANCE

        args.threshold = TOLERANCE
    if args.threshold < 0:
        parser.error("--threshold must be >= 0")
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        import pyspiel  # noqa: F401
        from open_spiel.python.algorithms import value_iteration  # noqa: F401
    except ImportError as exc:
        print(
            f"the peer is missing ({exc}): pip install -e '.[bench]'  (open_spiel, and cvxpy, "
            "which OpenSpiel's value_iteration imports but its wheel does not require)",
            file=sys.stderr,
        )
        return 2

    def log(msg: str) -> None:
        print(msg, flush=True)

    info = machine()
    log(
        f"machine: {info['cpu_count']} CPUs ({info['cpu_model']}), numba threads "
        f"{info['numba_threads']}; Python {info['python']}, numpy {info['numpy']}, numba "
        f"{info['numba']}; peer {info['peer']} (pure Python value iteration, one thread)"
    )
    warmup_s = warm_up()
    log(
        f"warm-up: {warmup_s:.2f} s (numba compilation or loading numba's disk cache: one solve "
        "of Pig to 10); excluded from every timing below"
    )

    problems: list[str] = []
    ours: dict[int, OursResult] = {}
    load = OtherLoad()
    for goal in sorted({*args.goals, OUR_GOAL}):
        r = measure_ours(goal, args.repeat)
        ours[goal] = r
        log(
            f"ours, goal {goal}: {', '.join(f'{t:.4f}' for t in r.runs_s)} s; on 1 thread "
            f"{', '.join(f'{t:.4f}' for t in r.runs_1_thread_s)} s; "
            f"{r.sweeps:,} sweeps (at most {r.max_sweeps} for one pair)"
        )
    others_ours = load.cpus()
    load = OtherLoad()
    peers = []
    for goal in args.goals:
        log(f"peer, goal {goal}:")
        p = measure_peer(goal, args.threshold, args.peer_repeat, log)
        peers.append(p)
        diff = abs(ours[goal].value - p.value)
        if diff > VALUE_TOLERANCE:
            problems.append(
                f"goal {goal}: values differ by {diff:.3g} (ours {ours[goal].value!r}, "
                f"peer {p.value!r})"
            )
        if p.max_state_diff > VALUE_TOLERANCE:
            problems.append(f"goal {goal}: some state's values differ by {p.max_state_diff:.3g}")
        if p.states_compared == 0:
            problems.append(f"goal {goal}: no state of the peer could be compared")

    others_peer = load.cpus()

    tables = build_tables(ours, peers, args.repeat, args.peer_repeat, args.threshold)
    game = peers[0].game if peers else ""
    notes = [
        f"Machine: {info['cpu_count']} CPUs ({info['cpu_model']}); ours solves on one "
        "thread (its stages depend on each other; see _kernels.solve_all), so the '1 thread' "
        f"columns only confirm it; {info['peer']} runs in one Python thread.",
        "Ours iterates each stage pair with Aitken extrapolation of P(j, i, 0) and stops, "
        "like the peer, on a plain sweep that changed no value by the threshold or more.",
        "Timings exclude numba compilation (warm-up run first); child processes load the "
        "compiled kernels from numba's disk cache.",
        f"Peer game: pyspiel.load_game({game!r}) with players=2, diceoutcomes=6, "
        "piglet=False: a d6, a 1 busts, 2..6 add. Its timing is the whole "
        "value_iteration call, which enumerates the states (get_all_states) first.",
        f"Both stop when a sweep changes no value by more than {args.threshold:g} "
        "(Gauss-Seidel: values are updated in place).",
        "Peak memory is the child process's own high-water RSS (VmHWM); getrusage's "
        "ru_maxrss would include the parent's peak, which survives exec on Linux.",
        f"Values must agree to {VALUE_TOLERANCE:g}.",
    ]
    notes.append(
        f"Other processes kept {others_ours:.2f} CPUs busy on average while ours was timed, "
        f"{others_peer:.2f} while the peer was."
    )
    spare = (os.cpu_count() or 1) - 1  # the peer needs one core
    if not others_peer < spare + BUSY_OTHERS:
        notes.append(
            "WARNING: other processes took more than the cores the peer did not need while "
            "it was timed: its times (and so the speed-ups) may be inflated."
        )
    if not others_ours < BUSY_OTHERS:
        notes.append(
            "WARNING: the machine was shared while ours was timed. Our solver synchronises "
            "its threads after every sweep, so a busy core slows its multi-threaded solves "
            "far beyond its share: compare the 1-thread column, and rerun on an idle machine."
        )
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
            "<!-- generated by benchmarks/pig_solve.py; do not edit by hand -->",
            "",
            *(f"{t.markdown()}\n" for t in tables),
            *(f"- {n}" for n in notes),
            *(f"- **Problem** {p}" for p in problems),
            "",
        ]
        args.markdown.parent.mkdir(parents=True, exist_ok=True)
        args.markdown.write_text("\n".join(md))
        print(f"Markdown written to {args.markdown}")

    headline = ours[OUR_GOAL]
    summary = {
        "benchmark": "pig_solve",
        **info,
        "repeat": args.repeat,
        "peer_repeat": args.peer_repeat,
        "threshold": args.threshold,
        "peer_horizon": PEER_HORIZON,
        "warmup_s": warmup_s,
        "other_processes_cpus_ours": others_ours,
        "other_processes_cpus_peer": others_peer,
        "peak_rss_source": "VmHWM of a fresh child process",
        "goals": {
            "ours_goal": OUR_GOAL,
            "ours_s_max": GOAL_OURS_S,
            "speedup_min": GOAL_SPEEDUP,
            "value_tolerance": VALUE_TOLERANCE,
        },
        "goals_met": {
            "ours_s": headline.s < GOAL_OURS_S,
            "speedup": all(p.s / ours[p.goal].s >= GOAL_SPEEDUP for p in peers),
        },
        "ours_s": headline.s,
        "ours_equations": headline.equations,
        "ours_sweeps": headline.sweeps,
        "ours_max_sweeps_of_one_pair": headline.max_sweeps,
        "speedup": {str(p.goal): p.s / ours[p.goal].s for p in peers},
        "values_agree": not problems,
        "problems": problems,
        "ours_by_goal": {str(g): r.as_json() for g, r in sorted(ours.items())},
        "peer_by_goal": {
            str(p.goal): {
                "game": p.game,
                "s": p.s,
                "cpu_s": p.cpu_s,
                "runs_s": p.runs_s,
                "value": p.value,
                "value_diff": abs(ours[p.goal].value - p.value),
                "states_compared": p.states_compared,
                "max_state_diff": p.max_state_diff,
                "num_values": p.num_values,
                "stop_at_zero_margin": p.stop_at_zero_margin,
                "horizon_draws": p.horizon_draws,
                "longest_enumeration_path": p.longest_path,
                "peak_mib": p.peak_mib,
                "import_mib": p.import_mib,
                "speedup": p.s / ours[p.goal].s,
                "ours_over_peer": ours[p.goal].s / p.s,
                "cpu_speedup": p.cpu_s / ours[p.goal].cpu_s,
                "speedup_1_thread": p.s / ours[p.goal].s_1_thread,
            }
            for p in peers
        },
    }
    print(json.dumps(summary))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
