"""The exact pre-endgame (one tile in the bag, every draw's endgame solved) against the
static choice and against the play-out pre-endgame.

Positions: as ``scrabble_pre_endgame.py`` (equity self-play on ENABLE, endgame off, game
``i`` from ``default_rng([seed, i])``, its first decision with exactly one tile in the bag),
the first ``--positions`` of them. At each, ``sim`` with ``pre_endgame=exact`` enumerates
every draw and, for each of the static player's top ``--candidates`` moves, plays the move,
draws, and solves the endgame that follows with the exact endgame solver (``--nodes`` a
search): each candidate's expected final spread and win rate under best play once the bag
is empty. The static player's first choice and the play-out pre-endgame's choice
(``pre_endgame=playout``, the same candidates) are among them, so the three choices are
compared on the same solved figures.

    python experiments/scrabble_pre_endgame_exact.py [--positions 40] [--candidates 5]
        [--nodes 20000] [--seed 2026]
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from scrabble_pre_endgame import one_tile_position

from stratagem.games.scrabble.heuristic import EquityAgent
from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.sim import SimAgent


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--games", type=int, default=420, help="self-play games to look in")
    parser.add_argument("--candidates", type=int, default=5)
    parser.add_argument("--nodes", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if not (1 <= args.positions <= 10_000 and 1 <= args.games <= 100_000
            and 2 <= args.candidates <= 100 and 1024 <= args.nodes <= 10**7):  # fmt: skip
        print("--positions 1-10000, --games 1-100000, --candidates 2-100, --nodes 1024-10^7",
              file=sys.stderr)  # fmt: skip
        return 2
    lex = default_lexicon("english")
    static = EquityAgent(lex.tiles, endgame=False)
    exact = SimAgent(static, candidates=args.candidates, draws=1, seconds=3600.0,
                     pre_endgame="exact", pre_nodes=args.nodes)  # fmt: skip
    playout = SimAgent(static, candidates=args.candidates, draws=1, seconds=3600.0)
    rows = []
    solved = proved = 0
    start = time.process_time()
    for g in range(args.games):
        if len(rows) >= args.positions:
            break
        s = one_tile_position(lex, static, np.random.default_rng([args.seed, g]))
        if s is None:
            continue
        stats = exact.simulate(s, np.random.default_rng(0))
        if len(stats) < 2:
            continue
        by_move = {str(x.action): x for x in stats}
        first = by_move[str(static.ranked(s, 1)[0][0].action)]
        old = by_move[str(playout.simulate(s, np.random.default_rng(0))[0].action)]
        mine = stats[0]
        solved += sum(x.solved for x in stats)
        proved += sum(x.proved for x in stats)
        rows.append({"game": g, "changed": mine is not first, "old_changed": old is not first,
                     "win": mine.win - first.win, "spread": mine.mean - first.mean,
                     "win_vs_playout": mine.win - old.win,
                     "spread_vs_playout": mine.mean - old.mean})  # fmt: skip

    def col(key: str, where: str | None = None) -> list[float]:
        return [r[key] for r in rows if where is None or r[where]]

    eps = 1e-9
    out = {
        "positions": len(rows),
        "candidates": args.candidates,
        "nodes": args.nodes,
        "endgames_solved": solved,
        "endgames_proved": proved,
        "changed_vs_static": sum(r["changed"] for r in rows),
        "worse_win_vs_static": sum(r["win"] < -eps for r in rows),
        "better_win_vs_static": sum(r["win"] > eps for r in rows),
        "win_gain_vs_static": [round(x, 4) for x in col("win") if abs(x) > eps],
        "spread_gain_vs_static_mean_all": round(float(np.mean(col("spread"))), 3),
        "spread_gain_vs_static_when_changed": [round(x, 2) for x in col("spread", "changed")],
        "better_spread_vs_static": sum(r["spread"] > eps for r in rows),
        "worse_spread_vs_static": sum(r["spread"] < -eps for r in rows),
        "playout_choice_differs": sum(
            r["win_vs_playout"] != 0 or r["spread_vs_playout"] != 0 for r in rows
        ),
        "better_win_vs_playout": sum(r["win_vs_playout"] > eps for r in rows),
        "worse_win_vs_playout": sum(r["win_vs_playout"] < -eps for r in rows),
        "win_gain_vs_playout": [round(x, 4) for x in col("win_vs_playout") if abs(x) > eps],
        "spread_gain_vs_playout_mean_all": round(float(np.mean(col("spread_vs_playout"))), 3),
        "cpu_seconds": round(time.process_time() - start, 1),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
