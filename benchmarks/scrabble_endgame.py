"""The exact Scrabble endgame solver on endgames from self-play, and what it gains per game.

Positions: greedy self-play games on ENABLE (``--lexicon``), game ``i`` drawn
from ``default_rng([seed, i])``, each stopped at its first decision with the
bag empty; games that end before that are skipped. Both racks then hold up
to 7 tiles (the mover usually 7, the player who emptied the bag fewer).

For each position it reports:

* the solve: :func:`solve_endgame` with ``--time-limit`` seconds (30 by
  default, the goal's worst case): exact or not, seconds, nodes, depth;
* the points gained against the heuristic player's own closing phase
  (``--baseline heuristic``, the default: the shipped tuned weights with the
  endgame solver switched off) or greedy: the position is played out twice
  for each seat, once with that seat playing the solver's move at every turn
  (``--play-time-limit`` seconds a move after the first) and once with it
  playing the baseline, the other seat playing the baseline both times; the
  gain is the difference of that seat's final spread. At the mover's first
  turn the solve above is reused.

It prints a table and, last, one JSON object.

    nice -n 19 .venv/bin/python benchmarks/scrabble_endgame.py [--positions 100]
        [--time-limit 30] [--play-time-limit 2] [--seed 2026] [--baseline heuristic]
        [--markdown docs/results/scrabble_endgame.md]
"""

from __future__ import annotations

import argparse
import json
import platform
import statistics
import sys
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.core.agent import Agent
from stratagem.games.scrabble.endgame import EndgameResult, EndgameSolver, solve_endgame
from stratagem.games.scrabble.heuristic import HeuristicAgent
from stratagem.games.scrabble.lexicon import Lexicon, load_lexicon
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.strategies import GreedyAgent

REPO = Path(__file__).resolve().parents[1]
DEFAULT_LEXICON = (REPO / ".." / "shared" / "lexicons" / "enable1.txt").resolve()
GOAL_MEDIAN_SECONDS = 1.0
GOAL_WORST_SECONDS = 30.0

NOTES = """\
How it is measured: each position is the first decision with the bag empty
in a greedy self-play game on ENABLE (seeded, so the same positions every
run). "Exact" means the search finished an iteration that reached the end of
every line it needed; a position that runs into the time limit keeps the
deepest finished iteration's move and is counted as not exact. Seconds are
the search's CPU time (the solver's time limit counts CPU time too, of the
thread that searches), so that other work on a shared machine changes them
little; the JSON gives the median wall-clock time as well, which on a
shared machine says more about the other jobs than about the solver.

Points gained: each position is played out from both seats. The seat under
test plays either the solver's move at each of its turns or the baseline
closing phase, the other seat plays the baseline; the gain is the
difference of the tested seat's final spread between the two playouts,
averaged over positions and seats, with a 95% interval (mean +- 1.96 SE). In
playouts the solver has the play time limit per move after the first (a
move it cannot prove in time is its deepest iteration's choice), and keeps
its transposition table from one of its turns to the next (`EndgameSolver`),
as the players do.
"""


def endgame_positions(lexicon: Lexicon, count: int, seed: int) -> list[ScrabbleState]:
    """The first empty-bag decision of greedy self-play games, ``count`` of them."""
    agent = GreedyAgent()
    out: list[ScrabbleState] = []
    i = 0
    while len(out) < count:
        rng = np.random.default_rng([seed, i])
        i += 1
        state = ScrabbleState.new(lexicon)
        while not state.is_terminal():
            if state.current_player < 0:
                state = state.apply(state.sample_chance(rng))
            elif state.bag_size() == 0:
                out.append(state)
                break
            else:
                state = state.apply(agent.act(state, rng))
    return out


def baseline_agent(name: str, lexicon: Lexicon) -> Agent:
    """The closing phase the solver is compared with (the endgame solver off)."""
    if name == "greedy":
        return GreedyAgent()
    return HeuristicAgent(lexicon.tiles, endgame=False)


def playout(
    root: ScrabbleState,
    seat: int,
    solver: EndgameSolver | None,
    first: EndgameResult | None,
    time_limit: float,
    stats: dict[str, int],
    baseline: Agent,
) -> int:
    """Final spread of ``seat`` when it plays ``solver`` (or, when None, the baseline) against
    the baseline. The solver keeps its table from one of its turns to the next, as the
    players do."""
    greedy = baseline
    rng = np.random.default_rng(0)  # the bag is empty: nothing left to chance
    state = root
    while not state.is_terminal():
        if state.player == seat and solver is not None:
            if state is root and first is not None:
                result = first
            else:
                result = solver.solve(state, time_limit=time_limit)
            stats["solves"] += 1
            stats["exact"] += int(result.exact)
            state = state.apply(result.best_move)
        else:
            state = state.apply(greedy.act(state, rng))
    return state.scores[seat] - state.scores[1 - seat]


def summarise(
    args: argparse.Namespace,
    rows: list[dict[str, Any]],
    positions: list[ScrabbleState],
    gains: list[int],
    play_stats: dict[str, int],
    start: float,
    final: bool,
) -> dict[str, Any]:
    """The table (printed when ``final``) and the Markdown file, from the positions done so far."""
    total = time.perf_counter() - start
    positions = positions[: len(rows)]

    seconds = [r["seconds"] for r in rows]
    exact = sum(r["exact"] for r in rows)
    exact_seconds = [r["seconds"] for r in rows if r["exact"]]
    gain_mean = statistics.fmean(gains)
    gain_se = statistics.stdev(gains) / len(gains) ** 0.5 if len(gains) > 1 else float("nan")
    full = [r for r in rows if r["mover_tiles"] == 7 and r["other_tiles"] == 7]
    figures = {
        "positions": len(rows),
        "positions_planned": args.positions,
        "wall_seconds_median": round(statistics.median(r["wall_seconds"] for r in rows), 3),
        "time_limit_s": args.time_limit,
        "exact": exact,
        "hit_time_limit": len(rows) - exact,
        "median_s": round(statistics.median(seconds), 3),
        "p90_s": round(float(np.percentile(seconds, 90)), 3),
        "worst_s": round(max(seconds), 3),
        "median_s_exact_only": round(statistics.median(exact_seconds), 3)
        if exact_seconds
        else None,
        "median_nodes": int(statistics.median(r["nodes"] for r in rows)),
        "max_nodes": max(r["nodes"] for r in rows),
        "mean_tiles": [
            round(statistics.fmean(r["mover_tiles"] for r in rows), 2),
            round(statistics.fmean(r["other_tiles"] for r in rows), 2),
        ],
        "seven_v_seven": len(full),
        "seven_v_seven_exact": sum(r["exact"] for r in full),
        "baseline": args.baseline,
        "gain_per_game": round(gain_mean, 2),
        "gain_ci95": [round(gain_mean - 1.96 * gain_se, 2), round(gain_mean + 1.96 * gain_se, 2)],
        "gain_playouts": len(gains),
        "playout_solves": play_stats["solves"],
        "playout_solves_exact": play_stats["exact"],
        "play_time_limit_s": args.play_time_limit,
        "seconds_total": round(total, 1),
        "python": platform.python_version(),
        "machine": platform.processor() or platform.machine(),
    }
    table_rows = [
        ("endgame positions (greedy self-play, ENABLE)", f"{len(rows)}", ""),
        (
            "tiles on the racks (mover, other), mean",
            f"{figures['mean_tiles'][0]}, {figures['mean_tiles'][1]}",
            "",
        ),
        (f"solved exactly within {args.time_limit:g} s of CPU", f"{exact} / {len(rows)}", "all"),
        ("  of which 7 v 7 tiles", f"{figures['seven_v_seven_exact']} / {len(full)}", ""),
        ("hit the time limit (not exact)", f"{len(rows) - exact}", "0"),
        ("median CPU seconds a position", f"{figures['median_s']}", f"< {GOAL_MEDIAN_SECONDS:g}"),
        ("90th percentile CPU seconds", f"{figures['p90_s']}", ""),
        ("worst CPU seconds", f"{figures['worst_s']}", f"< {GOAL_WORST_SECONDS:g}"),
        ("median CPU seconds, exact positions only", f"{figures['median_s_exact_only']}", ""),
        ("median / max nodes", f"{figures['median_nodes']} / {figures['max_nodes']}", ""),
        (
            f"points gained per game over the {args.baseline} closing phase",
            f"{gain_mean:+.2f} ({figures['gain_ci95'][0]:+.2f} to {figures['gain_ci95'][1]:+.2f})",
            "",
        ),
        (
            f"  playout solves exact (limit {args.play_time_limit:g} s a move)",
            f"{play_stats['exact']} / {play_stats['solves']}",
            "",
        ),
    ]
    width = max(len(r[0]) for r in table_rows)
    lines = [f"{'measure':<{width}}  {'result':>24}  goal", "-" * (width + 34)]
    lines += [f"{a:<{width}}  {b:>24}  {c}" for a, b, c in table_rows]
    if final:
        print("\n".join(lines))
    if args.markdown:
        md = ["| measure | result | goal |", "| --- | ---: | --- |"]
        md += [f"| {a.strip()} | {b} | {c} |" for a, b, c in table_rows]
        per = [
            "| # | racks (mover v other) | exact | seconds | nodes | value | gain (mover, other) |",
            "| ---: | --- | --- | ---: | ---: | ---: | --- |",
        ]
        for i, (r, s) in enumerate(zip(rows, positions)):
            per.append(
                f"| {i + 1} | {s.rack_text(s.player)} v {s.rack_text(1 - s.player)} | "
                f"{'yes' if r['exact'] else 'no'} | {r['seconds']} | {r['nodes']} | "
                f"{r['value']} | {r['gain_mover']}, {r['gain_other']} |"
            )
        command = " ".join(sys.argv[1:])
        text = (
            "# Scrabble endgame solver\n\n"
            + ("" if final else f"(partial: {len(rows)} of {args.positions} positions so far)\n\n")
            + f"`nice -n 19 .venv/bin/python benchmarks/scrabble_endgame.py {command}`\n\n"
            + "\n".join(md) + "\n\n" + NOTES
            + "\n## Every position\n\n" + "\n".join(per) + "\n\n```json\n"
            + json.dumps(figures, indent=1) + "\n```\n"
        )  # fmt: skip
        tmp = args.markdown.with_suffix(".tmp")
        tmp.write_text(text)
        tmp.replace(args.markdown)
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=DEFAULT_LEXICON)
    parser.add_argument("--positions", type=int, default=100)
    parser.add_argument("--time-limit", type=float, default=30.0)
    parser.add_argument("--play-time-limit", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--baseline", choices=["heuristic", "greedy"], default="heuristic")
    parser.add_argument("--quick", action="store_true", help="5 positions, 5 s limits")
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args()
    if args.quick:
        args.positions, args.time_limit, args.play_time_limit = 5, 5.0, 1.0
    if not 1 <= args.positions <= 10_000:
        print("--positions must be 1-10000", file=sys.stderr)
        return 2
    if not (0 < args.time_limit <= 3600 and 0 < args.play_time_limit <= 3600):
        print("time limits must be 0-3600 seconds", file=sys.stderr)
        return 2
    if not args.lexicon.exists():
        print(f"lexicon {args.lexicon} not found; pass --lexicon PATH to ENABLE", file=sys.stderr)
        return 2
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lexicon = load_lexicon(args.lexicon, "english")

    positions = endgame_positions(lexicon, args.positions, args.seed)
    baseline = baseline_agent(args.baseline, lexicon)
    solve_endgame(positions[0], max_depth=1)  # compile (or load) the kernels
    rows: list[dict[str, Any]] = []
    gains: list[int] = []
    play_stats = {"solves": 0, "exact": 0}
    start = time.perf_counter()
    for n, state in enumerate(positions):
        wall = time.perf_counter()
        mover_solver = EndgameSolver()
        result = mover_solver.solve(state, time_limit=args.time_limit)
        wall = time.perf_counter() - wall
        row = {
            "wall_seconds": round(wall, 3),
            "mover_tiles": sum(state.racks[state.player]),
            "other_tiles": sum(state.racks[1 - state.player]),
            "exact": result.exact,
            "seconds": round(result.seconds, 3),
            "nodes": result.nodes,
            "depth": result.depth,
            "value": result.value,
            "move": str(result.best_move),
        }
        for seat in (state.player, 1 - state.player):
            mover = seat == state.player
            with_solver = playout(
                state,
                seat,
                mover_solver if mover else EndgameSolver(),
                result if mover else None,
                args.play_time_limit,
                play_stats,
                baseline,
            )
            greedy = playout(state, seat, None, None, args.play_time_limit, play_stats, baseline)
            gains.append(with_solver - greedy)
        row["gain_mover"], row["gain_other"] = gains[-2], gains[-1]
        rows.append(row)
        print(
            f"[{n + 1}/{len(positions)}] {state.rack_text(state.player)} v "
            f"{state.rack_text(1 - state.player)}: {row['move']} value {row['value']} "
            f"exact={row['exact']} {row['seconds']} s {row['nodes']} nodes; "
            f"gains {row['gain_mover']} / {row['gain_other']}",
            file=sys.stderr,
            flush=True,
        )
        summarise(args, rows, positions, gains, play_stats, start, final=False)
    figures = summarise(args, rows, positions, gains, play_stats, start, final=True)
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
