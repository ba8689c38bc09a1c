"""Scrabble players' self-play speed on one core: heuristic and equity against greedy.

Each player plays ``--games`` self-play games against itself in this one
process (one core), and so does the GA's fitness pairing (heuristic against
greedy), through the game protocol (states, draws, every placement
re-checked by the rules' numba check), on ENABLE (``--lexicon``) or the
built-in English list (``--builtin``). The heuristic self-play is measured a
second time with the DAWG walk that the GADDAG replaced (the same games).
Greedy self-play is measured in the same run as the reference (the heuristic
player scores every move and every exchange, greedy asks the kernel for the
best move only).

The machine may be shared: besides wall-clock games/s the table gives games
per CPU second of this process (``time.process_time``), which is what one
unshared core would do.

    .venv/bin/python benchmarks/scrabble_players.py [--games 200] [--seed 2026]
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
import warnings
from pathlib import Path

import numpy as np

from stratagem.core.agent import Agent
from stratagem.core.play import play
from stratagem.games.scrabble.heuristic import EquityAgent, HeuristicAgent
from stratagem.games.scrabble.lexicon import default_lexicon, load_lexicon
from stratagem.games.scrabble.movegen import _GENERATORS, MoveGenerator
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.strategies import GreedyAgent

REPO = Path(__file__).resolve().parents[1]
DEFAULT_LEXICON = (REPO / ".." / "shared" / "lexicons" / "enable1.txt").resolve()
GOAL = 50.0


def measure(lexicon, agents: list[Agent], games: int, seed: int) -> dict[str, float]:  # type: ignore[no-untyped-def]
    # warm-up game (compiles the kernels)
    play(ScrabbleState.new(lexicon), agents, np.random.default_rng([seed, 10**6]))  # type: ignore[arg-type]
    wall, cpu = time.perf_counter(), time.process_time()
    turns = 0
    for i in range(games):
        end = play(ScrabbleState.new(lexicon), agents, np.random.default_rng([seed, i])).state  # type: ignore[arg-type]
        turns += end.turn
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    return {"games": games, "wall_s": wall, "cpu_s": cpu, "games_per_s": games / wall,
            "games_per_cpu_s": games / cpu, "turns_per_game": turns / games}  # fmt: skip


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lexicon", type=Path, default=DEFAULT_LEXICON)
    parser.add_argument("--builtin", action="store_true", help="built-in English list")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if args.builtin:
            lex = default_lexicon("english")
        elif args.lexicon.exists():
            lex = load_lexicon(args.lexicon, "english")
        else:
            print(f"lexicon {args.lexicon} not found; pass --lexicon or --builtin",
                  file=sys.stderr)  # fmt: skip
            return 2
    greedy = GreedyAgent()
    heur = HeuristicAgent(lex.tiles, endgame=False)
    players: dict[str, list[Agent]] = {
        "greedy": [greedy, greedy],
        "heuristic": [heur, heur],
        "equity": [EquityAgent(lex.tiles, endgame=False)] * 2,
        "heuristic-greedy": [heur, greedy],
    }
    rows = {name: measure(lex, agents, args.games, args.seed) for name, agents in players.items()}
    # The same heuristic games with the DAWG walk the GADDAG replaced (same moves, so the
    # same games): what the new move generator buys the player.
    _GENERATORS[lex] = MoveGenerator(lex, walk="dawg")
    rows["heuristic (DAWG walk)"] = measure(lex, players["heuristic"], args.games, args.seed)
    del _GENERATORS[lex]
    print(f"Scrabble self-play on one core, {args.games} games each, lexicon {lex.source}")
    print(f"{'players':<21} {'games/s (wall)':>15} {'games/CPU-s':>12} {'turns/game':>11}")
    for name, r in rows.items():
        print(f"{name:<21} {r['games_per_s']:>15.1f} {r['games_per_cpu_s']:>12.1f} "
              f"{r['turns_per_game']:>11.1f}")  # fmt: skip
    h = rows["heuristic"]["games_per_cpu_s"]
    print(
        f"goal: heuristic self-play >= {GOAL:g} games/s on one core: "
        f"{'met' if h >= GOAL else 'not met'} ({h:.1f} games per CPU second)"
    )
    ga_hours = 100_000 / (2 * rows["heuristic-greedy"]["games_per_cpu_s"]) / 3600
    print(
        f"GA fitness games (heuristic vs greedy): 100,000 games on 2 unshared cores "
        f"would take {ga_hours:.2f} h of CPU (goal < 1 h: {'met' if ga_hours < 1 else 'not met'})"
    )
    out = {name: {k: round(v, 3) for k, v in r.items()} for name, r in rows.items()}
    out["ga_100k_games_hours_2_cores"] = round(ga_hours, 3)  # type: ignore[assignment]
    out["heuristic_gaddag_over_dawg"] = round(  # type: ignore[assignment]
        rows["heuristic"]["games_per_cpu_s"] / rows["heuristic (DAWG walk)"]["games_per_cpu_s"], 3
    )
    out["heuristic_over_greedy"] = round(  # type: ignore[assignment]
        rows["heuristic"]["games_per_cpu_s"] / rows["greedy"]["games_per_cpu_s"], 3
    )
    out["lexicon"] = lex.source  # type: ignore[assignment]
    out["python"] = platform.python_version()  # type: ignore[assignment]
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
