"""The simulating player over several processes (``sim:workers``) against one process.

On self-play positions (the equity player on ENABLE, seeds 1..N, 4-20 moves in), the
simulation of the top ``--candidates`` moves over ``--iterations`` deals is run with one
process and with ``--workers`` processes, alternating which goes first per position; the
wall-clock budget is far out of reach, so the deal limit (and the early drops) end both,
and the figures of every candidate must be identical (exit status 1 if not). The same for
the exact pre-endgame on positions cut to one tile in the bag (every draw enumerated, each
endgame solved within 20,000 nodes). The worker processes start once, before the timing
(their start is reported apart), and both sides simulate one position of each kind untimed
first (the compiled kernels loaded, each process's endgame table allocated); each side
keeps one player for all its positions, as a game does. It prints one row per position
and, last, one JSON object with the totals and the speed-up (one process's seconds / the
workers' seconds).

    .venv/bin/python benchmarks/scrabble_sim_parallel.py [--positions 20] [--exact 6]
        [--candidates 10] [--iterations 200] [--workers 2] [--markdown FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np

from stratagem.games.scrabble import sim_pool
from stratagem.games.scrabble.heuristic import EquityAgent
from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.sim import SimAgent, SimStats
from stratagem.games.scrabble.state import ScrabbleState


def self_play(lex, seed: int, moves: int) -> ScrabbleState:  # type: ignore[no-untyped-def]
    """The position after ``moves`` equity moves of a game dealt from ``seed``."""
    rng = np.random.default_rng(seed)
    agent = EquityAgent(lex.tiles, endgame=False)
    s = ScrabbleState.new(lex)
    for _ in range(moves):
        while s.current_player < 0 and not s.finished:
            s = s.apply(s.sample_chance(rng))
        if s.finished:
            break
        s = s.apply(agent.act(s, rng))
    while s.current_player < 0 and not s.finished:
        s = s.apply(s.sample_chance(rng))
    return s


def one_tile(state: ScrabbleState) -> ScrabbleState:
    """The position with one tile left in the bag (the rest out of play)."""
    bag = [0] * len(state.bag)
    bag[next(i for i, n in enumerate(state.bag) if n)] = 1
    return replace(state, bag=tuple(bag))


def figures(stats: list[SimStats]) -> list[tuple[object, ...]]:
    return [(str(s.action), s.n, s.mean, s.win, s.se, s.pruned, s.exact, s.solved, s.proved)
            for s in stats]  # fmt: skip


def timed(agent: SimAgent, state: ScrabbleState, seed: int) -> tuple[float, list[SimStats]]:
    start = time.perf_counter()
    stats = agent.simulate(state, np.random.default_rng(seed))
    return time.perf_counter() - start, stats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20)
    parser.add_argument("--exact", type=int, default=6, help="one-tile positions")
    parser.add_argument("--candidates", type=int, default=10)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--workers", type=int, default=sim_pool.cores())
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args()
    if not (1 <= args.positions <= 1000 and 0 <= args.exact <= 200
            and 2 <= args.candidates <= 100 and 1 <= args.iterations <= 100_000):  # fmt: skip
        parser.error("--positions 1-1000, --exact 0-200, --candidates 2-100, "
                     "--iterations 1-100000")  # fmt: skip
    lex = default_lexicon("english")
    static = EquityAgent(lex.tiles, endgame=False)

    def agent(workers: int, exact: bool) -> SimAgent:
        extra = {"pre_endgame": "exact"} if exact else {}
        return SimAgent(static, args.candidates if not exact else min(args.candidates, 5),
                        iterations=args.iterations, seconds=3600.0, endgame=False,
                        workers=workers, **extra)  # fmt: skip

    start = time.perf_counter()
    # start the pool (and its workers) before any timing, on a small simulation
    warm = self_play(lex, 0, 6)
    SimAgent(static, 2, iterations=2 * args.workers, seconds=3600.0, endgame=False,
             workers=args.workers).simulate(warm, np.random.default_rng(0))  # fmt: skip
    pool_start = time.perf_counter() - start
    # one player per side and kind, as in a game, warmed up untimed (compiled kernels
    # loaded, the endgame solver's table allocated: each process keeps its own)
    agents = {(w, exact): agent(w, exact) for w in (1, args.workers) for exact in (False, True)}
    for exact in (False, True) if args.exact else (False,):
        state = one_tile(self_play(lex, 999, 18)) if exact else warm
        for workers in (1, args.workers):
            agents[(workers, exact)].simulate(state, np.random.default_rng(0))
    rows = []
    same = True
    jobs = [(s, False) for s in range(1, args.positions + 1)]
    jobs += [(1000 + s, True) for s in range(1, args.exact + 1)]
    for k, (seed, exact) in enumerate(jobs):
        state = self_play(lex, seed, 12 + seed % 6 if exact else 4 + seed % 17)
        if state.finished or state.bag_size() == 0:
            continue
        if exact:
            state = one_tile(state)
        one, many = agents[(1, exact)], agents[(args.workers, exact)]
        if k % 2:
            t_many, s_many = timed(many, state, seed)
            t_one, s_one = timed(one, state, seed)
        else:
            t_one, s_one = timed(one, state, seed)
            t_many, s_many = timed(many, state, seed)
        agree = figures(s_one) == figures(s_many)
        same &= agree
        deals = sum(s.n for s in s_one) if not exact else sum(s.solved for s in s_one)
        rows.append({"seed": seed, "kind": "pre-endgame" if exact else "sampled",
                     "bag": state.bag_size(), "deals": deals, "one": t_one, "many": t_many,
                     "same": agree})  # fmt: skip
        print(f"{seed:5d} {rows[-1]['kind']:11s} bag {state.bag_size():3d} "
              f"{deals:6d} candidate-deals  one {t_one:7.2f} s  {args.workers} workers "
              f"{t_many:7.2f} s  x{t_one / t_many:4.2f}  {'same' if agree else 'DIFFERENT'}",
              flush=True)  # fmt: skip
    sim_pool.close_all()
    summary: dict[str, object] = {"workers": args.workers, "cores": os.cpu_count(),
                                  "load": [round(x, 2) for x in os.getloadavg()],
                                  "pool_start_s": round(pool_start, 2),
                                  "same_figures": same}  # fmt: skip
    table = [
        "| positions | candidate-deals | one process (s) | "
        f"{args.workers} workers (s) | speed-up | figures |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for kind in ("sampled", "pre-endgame"):
        part = [r for r in rows if r["kind"] == kind]
        if not part:
            continue
        one = sum(float(r["one"]) for r in part)
        many = sum(float(r["many"]) for r in part)
        ratios = sorted(float(r["one"]) / float(r["many"]) for r in part)
        summary[kind] = {"positions": len(part), "one_s": round(one, 2),
                         "many_s": round(many, 2), "speedup": round(one / many, 3),
                         "speedup_range": [round(ratios[0], 2), round(ratios[-1], 2)]}  # fmt: skip
        table.append(f"| {len(part)} {kind} | {sum(int(r['deals']) for r in part):,} | "
                     f"{one:.1f} | {many:.1f} | {one / many:.2f} (per position "
                     f"{ratios[0]:.2f}-{ratios[-1]:.2f}) | "
                     f"{'identical' if all(r['same'] for r in part) else 'DIFFERENT'} "
                     "|")  # fmt: skip
    print("\n".join(table))
    if args.markdown:
        args.markdown.write_text("\n".join(table) + "\n")
    print(json.dumps(summary))
    return 0 if same else 1


if __name__ == "__main__":
    sys.exit(main())
