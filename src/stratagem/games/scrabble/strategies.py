"""Scrabble agents: greedy (highest score now) and random.

>>> from stratagem.games.scrabble.lexicon import Lexicon
>>> from stratagem.games.scrabble.tiles import tile_set
>>> import numpy as np
>>> lex = Lexicon.from_words(["cat", "act", "at"], tile_set("english"))
>>> s = ScrabbleState.new(lex).apply((1, 4, 4, 4, 4, 6, 13)).apply((0,) * 7)  # ANNNNTC, EEEEEEE
>>> str(GreedyAgent().act(s, np.random.default_rng(0)))
'8F ACT 10'
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from stratagem.core.agent import Advice, with_regrets
from stratagem.core.errors import StratagemError
from stratagem.core.game import Action, State, expect_state
from stratagem.core.play import play
from stratagem.games.scrabble.board import RACK_SIZE, Placement
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.state import PASS, Exchange, ScrabbleState


class GreedyAgent:
    """Plays the highest-scoring placement; with none, exchanges the whole rack or passes.

    As an advisor it prices every placement by its score (exchanges and the
    pass at 0), best first.
    """

    spec = "greedy"

    def advise(self, state: State) -> list[Advice]:
        state = expect_state(state, ScrabbleState, "the greedy Scrabble player")
        options: list[tuple[Action, float]] = []
        for action in state.legal_actions():
            options.append((action, float(action.score) if isinstance(action, Placement) else 0.0))
        return with_regrets(options)

    def act(self, state: State, rng: np.random.Generator) -> Action:
        state = expect_state(state, ScrabbleState, "the greedy Scrabble player")
        move = state.best_placement()
        if move is not None:
            return move
        if state.bag_size() >= RACK_SIZE and any(state.racks[state.player]):
            return Exchange(state.rack_text())
        return PASS


def selfplay(
    lexicon: Lexicon,
    players: list[str],
    games: int,
    seed: int,
    progress: Callable[[int, int], None] | None = None,
) -> dict[str, object]:
    """Play ``games`` games; game ``i`` draws from ``default_rng([seed, i])`` (reproducible).

    Returns the average final score per seat, wins per seat (ties split),
    bingos per game, decisions per game, and games per second. ``progress(done,
    games)`` is called after every game.
    """
    if games < 1:
        raise StratagemError(f"--games must be at least 1, got {games}")
    if not 2 <= len(players) <= 4:
        raise StratagemError(f"Scrabble takes 2-4 players, got {len(players)}: {players}")
    from stratagem.core.registry import load_game

    game = load_game("scrabble")
    for name in players:
        game.check_agent(name)
    totals = np.zeros(len(players))
    wins = np.zeros(len(players))
    bingos = 0
    turns = 0
    start = time.perf_counter()
    for i in range(games):
        rng = np.random.default_rng([seed, i])
        agents = [game.make_agent(lexicon, name) for name in players]
        played = play(ScrabbleState.new(lexicon, len(players)), agents, rng)
        end = expect_state(played.state, ScrabbleState, "selfplay")
        scores = np.array(end.scores, dtype=float)
        totals += scores
        best = scores == scores.max()
        wins += best / best.sum()
        bingos += sum(end.bingos)
        turns += end.turn
        if progress is not None:
            progress(i + 1, games)
    seconds = time.perf_counter() - start
    return {
        "players": players,
        "games": games,
        "seed": seed,
        "mean_score": [round(float(x), 2) for x in totals / games],
        "wins": [float(x) for x in wins],
        "bingos_per_game": round(bingos / games, 3),
        "turns_per_game": round(turns / games, 2),
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2),
    }
