"""Score Four MCTS: compiled vs Python simulations per second; its strength against minimax.

No peer MCTS for Score Four is installed (OpenSpiel and pgx have no 4x4x4
gravity game), so the peers are our own searches over the same game, timed in
the same run on the same positions (the empty board and random positions of
6-20 beads that neither side wins in one move), decisions alternated between
them so that a change in the machine's load hits each alike:

* compiled: ``MCTS(c, N, rollout, fast=fast_game())``, the whole search in
  numba (:mod:`stratagem.algorithms.mcts_compiled`), with the ``random`` and
  the ``tactical`` playout;
* Python tree, compiled playouts: ``MCTS(c, n, "random", rollout_fn=rollout)``;
* Python over the protocol: ``MCTS(c, n, "random")``, the tree and the
  uniformly random playouts both through ``ScoreFourState``;

each a fresh search per decision, the rate of the fastest of ``--repeat``
decisions per position (and the geometric mean over positions of the ratios).

The strength table plays ``mcts:sims=B,rollout=R`` (the registry's agent,
c = 1.41; R tactical unless ``--rollout random``) against ``minimax:depth=2``
and ``minimax:depth=4`` in the arena: each pair of games has the seats swapped,
so each agent moves first once. It reports MCTS's score (a draw counts half)
with Wilson's 95% interval over games, the paired margin per pair with its
interval, and the mean seconds per game.

    .venv/bin/python benchmarks/scorefour_mcts.py [--quick] [--pairs 100]
        [--budgets 1000,5000,20000] [--rollout tactical|random]
        [--markdown docs/results/scorefour_mcts.md]

Prints the tables and, as its last line, one JSON object with the headline figures.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.algorithms.mcts import MCTS
from stratagem.core.arena import InlineExecutor, LocalExecutor, make_experiment, report, run
from stratagem.games.scorefour.fast import fast_game, rollout
from stratagem.games.scorefour.spec import MCTS_C
from stratagem.games.scorefour.state import ScoreFourState, has_four, random_positions

DEFAULT_SIMS = 20_000  # per compiled decision
DEFAULT_PYTHON_SIMS = 1_000  # per decision of the Python trees (~1,000 sims/s over the protocol)
DEFAULT_REPEAT = 3
DEFAULT_PAIRS = 100
DEFAULT_BUDGETS = (1_000, 5_000, 20_000)
OPPONENTS = ("minimax:depth=2", "minimax:depth=4")
QUICK = {"sims": 5_000, "python_sims": 300, "repeat": 1, "pairs": 5, "positions": 3}

SEARCHES = ("compiled", "compiled-tactical", "tree", "protocol")
LABELS = {
    "compiled": "compiled tree, random playouts (fast=fast_game())",
    "compiled-tactical": "compiled tree, tactical playouts",
    "tree": "Python tree, compiled random playouts (rollout_fn)",
    "protocol": "Python tree, random playouts through the protocol",
}


def positions(n: int, seed: int) -> list[ScoreFourState]:
    """The empty board and random positions of 6-20 beads that no side wins in one move."""

    def no_threat(state: ScoreFourState) -> bool:
        return not any(
            has_four(state.beads[me] | 1 << state.drop_cell(peg))
            for me in (0, 1)
            for peg in state.legal_actions()
        )

    return random_positions(n, seed, no_threat)


def searcher(kind: str, sims: int) -> MCTS:
    if kind == "compiled":
        return MCTS(MCTS_C, sims, "random", fast=fast_game())
    if kind == "compiled-tactical":
        return MCTS(MCTS_C, sims, "tactical", fast=fast_game())
    if kind == "tree":
        return MCTS(MCTS_C, sims, "random", rollout_fn=rollout)
    return MCTS(MCTS_C, sims, "random")


def time_searches(
    states: list[ScoreFourState], sims: int, python_sims: int, repeat: int, seed: int
) -> dict[str, list[float]]:
    """Sims per second of each search at each position (fastest of ``repeat``)."""
    rates: dict[str, list[float]] = {k: [] for k in SEARCHES}
    rng = np.random.default_rng(seed)
    for state in states:
        best = dict.fromkeys(SEARCHES, math.inf)
        for _ in range(repeat):
            for kind in SEARCHES:  # alternated, so that load changes hit each alike
                n = sims if kind.startswith("compiled") else python_sims
                agent = searcher(kind, n)
                start = time.perf_counter()
                advice = agent.search(state, rng)
                seconds = time.perf_counter() - start
                if sum(a.n or 0 for a in advice) != n:
                    sys.exit(f"{kind} ran {sum(a.n or 0 for a in advice)} simulations, not {n}")
                best[kind] = min(best[kind], seconds)
        for kind in SEARCHES:
            n = sims if kind.startswith("compiled") else python_sims
            rates[kind].append(n / best[kind])
    return rates


def geometric_mean(values: list[float]) -> float:
    return math.exp(sum(math.log(v) for v in values) / len(values))


def play_match(
    budget: int, opponent: str, rollout_name: str, pairs: int, seed: int, workers: int
) -> dict[str, Any]:
    """MCTS at ``budget`` simulations against ``opponent``, ``pairs`` pairs of games."""
    spec = f"mcts:sims={budget},rollout={rollout_name}"
    exp = make_experiment("scorefour", None, [spec, opponent], seed)
    executor = InlineExecutor() if workers <= 1 else LocalExecutor(workers)
    with tempfile.TemporaryDirectory() as folder:
        start = time.perf_counter()
        rows = run(exp, 2 * pairs, Path(folder) / "games.csv", executor)
        wall = time.perf_counter() - start
    summary = report(rows)
    mine = summary["agents"][spec]
    paired = summary["paired"][0]
    sign = 1.0 if paired["a"] == spec else -1.0
    lo, hi = sorted((sign * (paired["lo"] or 0.0), sign * (paired["hi"] or 0.0)))
    decided = [json.loads(r["returns"]) for r in rows]
    return {
        "mcts": spec,
        "opponent": opponent,
        "games": len(rows),
        "score": mine["win_rate"],
        "score_lo": mine["win_lo"],
        "score_hi": mine["win_hi"],
        "margin": sign * paired["mean_diff"],
        "margin_lo": lo,
        "margin_hi": hi,
        "draws": sum(1 for r in decided if r[0] == r[1]),
        "seconds_per_game": sum(float(r["seconds"]) for r in rows) / len(rows),
        "plies_per_game": sum(int(r["length"]) for r in rows) / len(rows),
        "wall_seconds": wall,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: few sims and games")
    parser.add_argument("--sims", type=int, default=DEFAULT_SIMS)
    parser.add_argument("--python-sims", type=int, default=DEFAULT_PYTHON_SIMS)
    parser.add_argument("--repeat", type=int, default=DEFAULT_REPEAT)
    parser.add_argument("--positions", type=int, default=6)
    parser.add_argument("--pairs", type=int, default=DEFAULT_PAIRS)
    parser.add_argument(
        "--budgets",
        default=",".join(map(str, DEFAULT_BUDGETS)),
        help="MCTS simulations, e.g. 1000,5000",
    )
    parser.add_argument("--rollout", default="tactical", choices=("random", "tactical"))
    parser.add_argument("--workers", type=int, default=1, help="arena processes")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--markdown", type=Path, default=None)
    args = parser.parse_args()
    if args.quick:
        for key, value in QUICK.items():
            setattr(args, key, value)
    budgets = [int(b) for b in args.budgets.split(",") if b]

    states = positions(args.positions, args.seed)
    for kind in SEARCHES:  # compile or load the kernels before any timing
        searcher(kind, 50).search(states[0], np.random.default_rng(0))
    cpu0 = time.process_time()
    rates = time_searches(states, args.sims, args.python_sims, args.repeat, args.seed)
    speed_cpu = time.process_time() - cpu0
    ratio = [c / p for c, p in zip(rates["compiled"], rates["protocol"], strict=True)]
    ratio_tree = [c / p for c, p in zip(rates["compiled"], rates["tree"], strict=True)]

    matches = []
    cpu0 = time.process_time()
    for budget in budgets:
        for opponent in OPPONENTS:
            matches.append(
                play_match(budget, opponent, args.rollout, args.pairs, args.seed, args.workers)
            )
            m = matches[-1]
            print(
                f"  {m['mcts']} vs {m['opponent']}: {m['score']:.3f} "
                f"({m['score_lo']:.3f}-{m['score_hi']:.3f}), {m['wall_seconds']:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    arena_cpu = time.process_time() - cpu0

    lines = [
        "<!-- generated by benchmarks/scorefour_mcts.py; do not edit by hand -->",
        "# Score Four: Monte Carlo tree search",
        "",
        f"Machine: {platform.machine()}, {os.cpu_count()} cores (shared), Python "
        f"{platform.python_version()}; one thread. Command: `python benchmarks/scorefour_mcts.py "
        + " ".join(sys.argv[1:])
        + "`.",
        "",
        "## Simulations per second",
        "",
        "No peer MCTS plays Score Four (OpenSpiel and pgx have no 4x4x4 gravity game), so the "
        "compiled search is set against our Python tree over the same game, in the same run, "
        f"on the same {len(states)} positions (the empty board and random positions of 6-20 "
        f"beads that no side wins in one move; seed {args.seed}). c = {MCTS_C}; each decision "
        f"a fresh search; compiled {args.sims:,} simulations a decision, Python "
        f"{args.python_sims:,}; the fastest of {args.repeat} decisions per position, the "
        "searches alternated.",
        "",
        "| position | beads | "
        + " | ".join(LABELS[k] for k in SEARCHES)
        + " | compiled / protocol | compiled / Python tree |",
        "| :--- | ---: | " + " | ".join("---:" for _ in SEARCHES) + " | ---: | ---: |",
    ]
    for i, state in enumerate(states):
        name = "empty" if i == 0 else f"random {i}"
        cells = " | ".join(f"{rates[k][i]:,.0f}" for k in SEARCHES)
        lines.append(
            f"| {name} | {state.plies} | {cells} | {ratio[i]:,.0f}x | {ratio_tree[i]:,.1f}x |"
        )
    geo = {k: geometric_mean(rates[k]) for k in SEARCHES}
    lines.append(
        "| geometric mean | | "
        + " | ".join(f"{geo[k]:,.0f}" for k in SEARCHES)
        + f" | **{geometric_mean(ratio):,.0f}x** | {geometric_mean(ratio_tree):,.1f}x |"
    )
    lines += [
        "",
        f"The tactical playout (win at once, else block, else random) costs "
        f"{geo['compiled'] / geo['compiled-tactical']:.1f}x the random one per simulation. "
        f"Timing took {speed_cpu:.0f} s of CPU.",
        "",
        "## Against minimax",
        "",
        f"`mcts:sims=B,rollout={args.rollout}` (the registry's agent, c = {MCTS_C}) against "
        "the alpha-beta with the paper's evaluation at 2 and 4 plies, "
        f"{args.pairs} pairs of games each (seats swapped within a pair; arena seed "
        f"{args.seed}). Score: MCTS's wins plus half its draws, per game, with Wilson's 95% "
        "interval; margin: MCTS's result minus the opponent's, averaged per pair, with its "
        "95% interval (-1 = lost every game, +1 = won every game).",
        "",
        "| MCTS | opponent | games | MCTS score | 95% interval | paired margin | 95% interval "
        "| draws | plies a game | s a game |",
        "| :--- | :--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ]
    for m in matches:
        lines.append(
            f"| `{m['mcts']}` | `{m['opponent']}` | {m['games']} | {m['score']:.3f} | "
            f"{m['score_lo']:.3f}-{m['score_hi']:.3f} | {m['margin']:+.3f} | "
            f"{m['margin_lo']:+.3f} to {m['margin_hi']:+.3f} | {m['draws']} | "
            f"{m['plies_per_game']:.1f} | {m['seconds_per_game']:.2f} |"
        )
    lines += [
        "",
        f"The matches took {arena_cpu:.0f} s of CPU in this process"
        + (f" ({args.workers} worker processes)." if args.workers > 1 else "."),
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if args.markdown is not None:
        args.markdown.write_text(text)
    print(
        json.dumps(
            {
                "compiled_sims_per_second": geo["compiled"],
                "compiled_tactical_sims_per_second": geo["compiled-tactical"],
                "python_tree_sims_per_second": geo["tree"],
                "protocol_sims_per_second": geo["protocol"],
                "ratio_compiled_vs_protocol": geometric_mean(ratio),
                "ratio_compiled_vs_python_tree": geometric_mean(ratio_tree),
                "matches": [
                    {
                        k: m[k]
                        for k in (
                            "mcts",
                            "opponent",
                            "games",
                            "score",
                            "score_lo",
                            "score_hi",
                            "margin",
                            "margin_lo",
                            "margin_hi",
                        )
                    }
                    for m in matches
                ],
            }
        )
    )


if __name__ == "__main__":
    main()
