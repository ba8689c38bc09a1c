"""Measure the spread model of the simulating player (``sim.SPREAD_SD_PER_TILE``).

In self-play of the equity player (shipped factored leaves, endgame solver off) on
ENABLE, every decision with tiles in the bag gives the tiles still to come into play
from the mover's view (bag + opponent's rack + one rack, as ``sim.spread_sd`` counts
them) and how much the spread moved from there to the end of the game. The figure
is the root mean square of that movement divided by the square root of the tiles,
pooled over all decisions, by least squares through the origin of the variance on the
tile count: ``var(final - now) = c^2 * tiles``.

It also prints the mean of that movement (``tempo``: what being the player to move is
worth over the rest of the game, ``sim.TEMPO``), overall and by the same bands of tiles
to come.

    python experiments/scrabble_sim_spread.py [--games 400] [--seed 2026]
"""

from __future__ import annotations

import argparse
import json
import sys

import numpy as np

from stratagem.core.play import play
from stratagem.games.scrabble.board import RACK_SIZE
from stratagem.games.scrabble.heuristic import EquityAgent
from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.state import ScrabbleState


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    if not 1 <= args.games <= 1_000_000:
        print("--games must be 1-1000000", file=sys.stderr)
        return 2
    lex = default_lexicon("english")
    agent = EquityAgent(lex.tiles, endgame=False)
    tiles_left: list[int] = []
    moved: list[float] = []
    for g in range(args.games):
        seen: list[tuple[int, int, int]] = []

        def observe(state: ScrabbleState, player: int, action: object,
                    seen: list[tuple[int, int, int]] = seen) -> None:
            if player >= 0 and state.bag_size() > 0:
                other = 1 - player
                unseen = state.bag_size() + sum(state.racks[other]) + RACK_SIZE
                seen.append((player, unseen, state.scores[player] - state.scores[other]))

        end = play(ScrabbleState.new(lex), [agent, agent], np.random.default_rng([args.seed, g]),
                   observe=observe).state  # fmt: skip
        for player, unseen, spread in seen:
            final = end.scores[player] - end.scores[1 - player]
            tiles_left.append(unseen)
            moved.append(final - spread)
    t = np.array(tiles_left, dtype=float)
    d = np.array(moved)
    c = float(np.sqrt((d**2).sum() / t.sum()))
    bands = {}
    for lo, hi in ((7, 30), (30, 60), (60, 110)):
        at = (t >= lo) & (t < hi)
        bands[f"{lo}-{hi - 1}"] = round(float(np.sqrt((d[at] ** 2).mean() / t[at].mean())), 2)
    tempo = {}
    for lo, hi in ((7, 30), (30, 60), (60, 110)):
        at = (t >= lo) & (t < hi)
        tempo[f"{lo}-{hi - 1}"] = round(float(d[at].mean()), 2)
    se = float(d.std(ddof=1) / np.sqrt(len(d)))
    print(json.dumps({"games": args.games, "decisions": len(d), "sd_per_sqrt_tile": round(c, 2),
                      "by_tiles": bands, "tempo": round(float(d.mean()), 2),
                      "tempo_naive_se": round(se, 2), "tempo_by_tiles": tempo}))  # fmt: skip
    return 0


if __name__ == "__main__":
    sys.exit(main())
