"""Two-player Yahtzee: games per second, the distribution tables' cost, and the
win-seeking player against the expected-score optimum.

For each rule set (default: yahtzee and yatzy):

1. the optimal policy's remaining-score distributions (every turn-start state):
   seconds and peak memory, measured in a fresh child process;
2. ``optimal`` vs ``optimal`` games per second (two numba threads), beside the
   peer ``yatzy-solver``'s solitaire simulation in the same script when the
   bench extra is installed (one two-player game is two solitaire games);
3. ``win`` vs ``optimal`` over ``--pairs`` mirrored pairs of games: win rate
   with its 95% interval, mean scores, games per second and the cost of a
   win-seeking turn.

Results go to docs/results/yahtzee_win_bench.md (``--out``) and to stdout: the
table, then one line of JSON with the headline figures.
Usage: ``python benchmarks/yahtzee_games.py [--pairs 100000] [--rules yahtzee,yatzy]``.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numba

from stratagem.games.yahtzee.match import head_to_head
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.solver import solve

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import json, resource, sys, time
import numpy as np
from stratagem.games.yahtzee.rules import preset
from stratagem.games.yahtzee.solver import solve
from stratagem.games.yahtzee.distribution import remaining_distributions
def mib():
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
sol = solve(preset(sys.argv[1]))
remaining_distributions(sol, min_filled=sol.rules.num_categories - 1)  # compile
before = mib()
t = remaining_distributions(sol, dtype=np.float32)
print(json.dumps({"seconds": t.seconds, "table_mib": t.nbytes / 2**20, "peak_mib": mib(),
                  "before_mib": before, "states": int((t.sid >= 0).sum())}))
"""


def distribution_cost(rules: str) -> dict[str, Any]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, rules], capture_output=True, text=True, check=True
    )
    return dict(json.loads(out.stdout.strip().splitlines()[-1]))


def peer_rate(rules: str, games: int) -> float | None:
    try:
        import yatzy_solver as ys  # the peer, only here
    except ImportError:
        return None
    variant = {"yahtzee": "american+forced-joker", "yatzy": "yatzy-scandinavian"}.get(rules)
    if variant is None:
        return None
    solver = ys.Solver.build(ys.Variant(variant))
    solver.simulate(1000, seed=0)
    start = time.perf_counter()
    solver.simulate(2 * games, seed=1)
    return games / (time.perf_counter() - start)


def run(rules: str, pairs: int, seed: int) -> dict[str, Any]:
    sol = solve(preset(rules))
    r: dict[str, Any] = {"rules": rules}
    r["distribution"] = distribution_cost(rules)
    print(f"[{rules}] distribution tables: {r['distribution']}", file=sys.stderr)
    head_to_head(sol, "optimal", "optimal", 200, seed=0)  # compile
    opt = head_to_head(sol, "optimal", "optimal", 20_000, seed=seed)
    r["optimal_vs_optimal"] = opt.summary()
    r["peer_two_player_games_per_s"] = peer_rate(rules, 20_000)
    print(f"[{rules}] optimal vs optimal: {r['optimal_vs_optimal']}", file=sys.stderr)
    head_to_head(sol, "win", "optimal", 50, seed=0)  # compile and build the tables
    h = head_to_head(sol, "win", "optimal", pairs, seed=seed)
    s = h.summary()
    turns = h.games * sol.rules.num_categories  # win-seeking turns played
    s["cpu_ms_per_win_turn"] = 1000 * numba.get_num_threads() * h.seconds / turns
    r["win_vs_optimal"] = s
    print(f"[{rules}] win vs optimal: {s}", file=sys.stderr)
    return r


def markdown(results: list[dict[str, Any]], pairs: int, seed: int) -> str:
    lines = [
        "# The win-seeking player against the expected-score optimum",
        "",
        "Made by `benchmarks/yahtzee_games.py "
        f"--pairs {pairs} --seed {seed}` on {platform.machine()}, "
        f"{os.cpu_count()} cores, {numba.get_num_threads()} numba threads.",
        "",
        "`win` (games/yahtzee/match.py) picks every keep and box to maximise its chance "
        "of finishing ahead (a tie counts half), from both players' exact remaining-score "
        "distributions under the optimal strategy; `optimal` maximises its expected score. "
        f"{pairs:,} pairs of games: in the second game of a pair the players swap seats and "
        "dice streams. The interval is a t interval over the pairs (each pair's mean "
        "result), so it accounts for the pairing.",
        "",
        "| rules | games | win rate of `win` | 95% interval | wins / ties / losses "
        "| mean score `win` | mean score `optimal` |",
        "|---|---:|---:|---|---|---:|---:|",
    ]
    for r in results:
        s = r["win_vs_optimal"]
        lines.append(
            f"| {r['rules']} | {s['games']:,} | {100 * s['win_rate']:.2f}% | "
            f"{100 * s['ci95'][0]:.2f}% - {100 * s['ci95'][1]:.2f}% | "
            f"{s['wins']:,} / {s['ties']:,} / {s['losses']:,} | {s['mean_a']:.2f} | "
            f"{s['mean_b']:.2f} |"
        )
    lines += [
        "",
        "## Speed and memory",
        "",
        "| rules | tables: states | build s | table MiB | peak RSS MiB | optimal vs optimal "
        "games/s | peer (2 solitaire games) games/s | win vs optimal games/s "
        "| CPU ms per win turn |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for r in results:
        d = r["distribution"]
        o = r["optimal_vs_optimal"]
        s = r["win_vs_optimal"]
        peer = r["peer_two_player_games_per_s"]
        lines.append(
            f"| {r['rules']} | {d['states']:,} | {d['seconds']:.1f} | {d['table_mib']:.0f} | "
            f"{d['peak_mib']:.0f} | {o['games_per_second']:,.0f} | "
            f"{'not installed' if peer is None else f'{peer:,.0f}'} | "
            f"{s['games_per_second']:,.0f} | {s['cpu_ms_per_win_turn']:.3f} |"
        )
    lines += [
        "",
        "The win-seeking turn's cost is an upper bound: it is the wall time of the "
        "`win` vs `optimal` games times the threads, divided by the win-seeking turns, "
        "so the opponent's turns are in it too. The tables are built once per process "
        "and held in memory in single precision.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rules", default="yahtzee,yatzy")
    p.add_argument("--pairs", type=int, default=100_000)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--out", type=Path, default=ROOT / "docs/results/yahtzee_win_bench.md")
    args = p.parse_args()
    results = [run(rules, args.pairs, args.seed) for rules in args.rules.split(",")]
    text = markdown(results, args.pairs, args.seed)
    args.out.write_text(text)
    print(text)
    headline = {
        r["rules"]: {
            "win_rate": r["win_vs_optimal"]["win_rate"],
            "ci95": r["win_vs_optimal"]["ci95"],
            "games": r["win_vs_optimal"]["games"],
            "optimal_games_per_s": r["optimal_vs_optimal"]["games_per_second"],
            "peer_games_per_s": r["peer_two_player_games_per_s"],
            "win_games_per_s": r["win_vs_optimal"]["games_per_second"],
            "cpu_ms_per_win_turn": r["win_vs_optimal"]["cpu_ms_per_win_turn"],
            "tables_s": r["distribution"]["seconds"],
            "tables_mib": r["distribution"]["table_mib"],
            "peak_mib": r["distribution"]["peak_mib"],
        }
        for r in results
    }
    print(json.dumps(headline))


if __name__ == "__main__":
    main()
