"""The simulating player's pre-endgame (one tile in the bag) against the static choice.

Positions: equity self-play games on ENABLE (endgame off), game ``i`` from
``default_rng([seed, i])``, each giving its first decision with exactly one tile in the
bag (games that skip from 2+ tiles to 0 give none). At each, ``sim`` with ``draws=1``
enumerates every draw (the bag's tile from the unseen pool, the opponent holding the rest)
and plays each of the static player's top ``--candidates`` moves out to the end of the game
by the static player: exact expected spread change and win rate under that continuation.
The table compares the sim's choice with the static player's first choice on those exact
figures (the static choice is one of the candidates, so its figures are exact too).

    python experiments/scrabble_pre_endgame.py [--games 300] [--candidates 10] [--seed 2026]
"""

from __future__ import annotations

import argparse
import json
import sys
import time

import numpy as np

from stratagem.games.scrabble.heuristic import EquityAgent
from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.sim import SimAgent
from stratagem.games.scrabble.state import ScrabbleState


def one_tile_position(lex, agent, rng):  # type: ignore[no-untyped-def]
    s = ScrabbleState.new(lex)
    while not s.finished:
        if s.current_player < 0:
            s = s.apply(s.sample_chance(rng))
            continue
        if s.bag_size() == 1:
            return s
        if s.bag_size() == 0:
            return None
        s = s.apply(agent.act(s, rng))
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=300)
    parser.add_argument("--candidates", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if not 1 <= args.games <= 100_000 or not 2 <= args.candidates <= 100:
        print("--games must be 1-100000 and --candidates 2-100", file=sys.stderr)
        return 2
    lex = default_lexicon("english")
    static = EquityAgent(lex.tiles, endgame=False)
    sim = SimAgent(static, candidates=args.candidates, draws=1, seconds=3600.0)
    rows = []
    start = time.process_time()
    for g in range(args.games):
        s = one_tile_position(lex, static, np.random.default_rng([args.seed, g]))
        if s is None:
            continue
        stats = sim.simulate(s, np.random.default_rng(0))
        if len(stats) < 2:
            continue
        first = static.ranked(s, 1)[0][0].action
        mine = stats[0]
        base = next(x for x in stats if x.action == first)
        rows.append((mine.action != first, mine.mean - base.mean, mine.win - base.win))
    changed = [r for r in rows if r[0]]
    out = {
        "positions": len(rows),
        "changed": len(changed),
        "win_gain_mean_all": round(float(np.mean([r[2] for r in rows])), 4) if rows else None,
        "spread_gain_mean_all": round(float(np.mean([r[1] for r in rows])), 3) if rows else None,
        "win_gain_when_changed": [round(r[2], 4) for r in changed],
        "spread_gain_when_changed": [round(r[1], 2) for r in changed],
        "worse_win": sum(1 for r in rows if r[2] < -1e-12),
        "cpu_seconds": round(time.process_time() - start, 1),
    }
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
