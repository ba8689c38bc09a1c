"""Write the five GCG game records the GCG tests replay (run from the project root).

Each is a whole game of the equity player (with its endgame search) against greedy on
ENABLE, seeded, recorded by :func:`stratagem.games.scrabble.gcg.record_of_game`: real games
of this program, with exchanges, passes, blanks and the end-of-game adjustments as they came.

    python tests/games/scrabble/data/make_records.py ../shared/lexicons/enable1.txt
"""

from __future__ import annotations

import sys
import warnings
from pathlib import Path

import numpy as np

from stratagem.core.registry import make_agent
from stratagem.games.scrabble.gcg import record_of_game, write_gcg
from stratagem.games.scrabble.lexicon import load_lexicon
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.tiles import tile_set

SEEDS = (1, 2, 3, 4, 5)


def play(lex, seed: int) -> str:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(seed)
    agents = [make_agent("scrabble", "english", "equity:nodes=20000"),
              make_agent("scrabble", "english", "greedy")]  # fmt: skip
    if seed % 2:
        agents.reverse()
    state = ScrabbleState.new(lex, 2)
    events = []
    while not state.is_terminal():
        if state.current_player < 0:
            state = state.apply(state.sample_chance(rng))
            continue
        action = agents[state.player].act(state, rng)
        events.append((state.player, state, action))
        state = state.apply(action)
    names = tuple(getattr(a, "spec", type(a).__name__) for a in agents)
    record = record_of_game(events, state, ("p1", "p2"), names,  # type: ignore[arg-type]
                            note=f"stratagem self-play, ENABLE, seed {seed}")  # fmt: skip
    return write_gcg(record)


def main() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lex = load_lexicon(Path(sys.argv[1]), tile_set("english"))
    here = Path(__file__).parent
    for seed in SEEDS:
        (here / f"selfplay_{seed}.gcg").write_text(play(lex, seed))


if __name__ == "__main__":
    main()
