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

import numpy as np

from stratagem.core.agent import Advice, RandomAgent, with_regrets
from stratagem.core.errors import StratagemError
from stratagem.core.game import Action, State
from stratagem.games.scrabble.board import RACK_SIZE, Placement
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.state import PASS, Exchange, ScrabbleState

AGENTS = ("greedy", "random")


class GreedyAgent:
    """Plays the highest-scoring placement; with none, exchanges the whole rack or passes.

    As an advisor it prices every placement by its score (exchanges and the
    pass at 0), best first.
    """

    spec = "greedy"

    def advise(self, state: State) -> list[Advice]:
        assert isinstance(state, ScrabbleState)
        options: list[tuple[Action, float]] = []
        for action in state.legal_actions():
            options.append((action, float(action.score) if isinstance(action, Placement) else 0.0))
        return with_regrets(options)

    def act(self, state: State, rng: np.random.Generator) -> Action:
        assert isinstance(state, ScrabbleState)
        move = state.best_placement()
        if move is not None:
            return move
        if state.bag_size() >= RACK_SIZE and any(state.racks[state.player]):
            return Exchange(state.rack_text())
        return PASS


def make_agent(name: str) -> GreedyAgent | RandomAgent:
    """``greedy`` or ``random``; anything else raises with the list of agents."""
    if name == "greedy":
        return GreedyAgent()
    if name == "random":
        return RandomAgent()
    raise StratagemError(f"unknown Scrabble agent {name!r}; the agents are: {', '.join(AGENTS)}")


def play_game(
    state: ScrabbleState, agents: list[GreedyAgent | RandomAgent], rng: np.random.Generator
) -> ScrabbleState:
    """Play from ``state`` to the end; chance draws and agents' choices use ``rng``."""
    while not state.is_terminal():
        player = state.current_player
        if player < 0:
            state = state.apply(state.sample_chance(rng))
        else:
            state = state.apply(agents[player].act(state, rng))
    return state


def selfplay(lexicon: Lexicon, players: list[str], games: int, seed: int) -> dict[str, object]:
    """Play ``games`` games; game ``i`` draws from ``default_rng([seed, i])`` (reproducible).

    Returns the average final score per seat, wins per seat (ties split),
    bingos per game, decisions per game, and games per second.
    """
    if games < 1:
        raise StratagemError(f"--games must be at least 1, got {games}")
    if not 2 <= len(players) <= 4:
        raise StratagemError(f"Scrabble takes 2-4 players, got {len(players)}: {players}")
    agents = [make_agent(name) for name in players]
    totals = np.zeros(len(players))
    wins = np.zeros(len(players))
    bingos = 0
    turns = 0
    start = time.perf_counter()
    for i in range(games):
        rng = np.random.default_rng([seed, i])
        end = play_game(ScrabbleState.new(lexicon, len(players)), agents, rng)
        scores = np.array(end.scores, dtype=float)
        totals += scores
        best = scores == scores.max()
        wins += best / best.sum()
        bingos += sum(end.bingos)
        turns += end.turn
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
