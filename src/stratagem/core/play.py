"""One loop that plays a game to the end with agent objects.

:func:`play` is the only place a game is played out: the arena, the command
lines, the tests and the scripts call it. Its random numbers come either from
one generator (every chance event and every agent draws from it, in order) or
from a :class:`Deal`, which gives each seat its own generator and draws each
chance event from a generator seeded by the deal's seed and the event's slot
(:func:`~stratagem.core.game.chance_key`): replayed with the seats swapped,
a deal shows each seat the same dice (common random numbers).

>>> from stratagem.core.agent import RandomAgent
>>> from stratagem.games.pig.rules import preset
>>> from stratagem.games.pig.state import PigState
>>> from stratagem.games.pig.strategies import HoldAt
>>> coin = preset("coin-3")
>>> game = play(PigState.new(coin), [HoldAt(coin, 2), RandomAgent()], Deal(7))
>>> game.returns in ((1.0, 0.0), (0.0, 1.0)), game.decisions > 0
(True, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from stratagem.core.agent import Agent
from stratagem.core.errors import ArenaError
from stratagem.core.game import CHANCE, Action, State, chance_key, sample_chance

__all__ = ["MAX_STEPS", "Deal", "Played", "deal_seed", "play"]

MAX_STEPS = 1_000_000
"""The most steps (decisions and chance events) :func:`play` takes before it gives up on
a game: the protocol cannot promise that a game ends (a position may come back, and with
a deal keyed by position the same dice with it), so the loop is bounded; real games end
far sooner (a Pig game of random agents takes hundreds)."""


def deal_seed(seed: int, index: int) -> int:
    """The seed of deal ``index`` of a run seeded ``seed`` (a function of the two only,
    so one worker, many, or Ray deal the same games)."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1)[0])


class Deal:
    """The random numbers of one game for common random numbers across seatings.

    Seat ``s`` draws from ``default_rng([seed, 1, s])``; a chance event with a
    slot ``key`` from ``default_rng([seed, 2, *key])``; chance events without
    a slot from one sequential ``default_rng([seed, 0])``.
    """

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ArenaError(f"a deal seed must be a whole number >= 0, got {seed!r}")
        self.seed = seed
        self._sequential = np.random.default_rng([seed, 0])
        self._seats: dict[int, np.random.Generator] = {}

    def seat(self, player: int) -> np.random.Generator:
        """The generator of ``player``'s agent (the same object all game long)."""
        rng = self._seats.get(player)
        if rng is None:
            rng = self._seats[player] = np.random.default_rng([self.seed, 1, player])
        return rng

    def chance(self, state: State) -> np.random.Generator:
        """The generator that draws the outcome of ``state``'s chance event."""
        key = chance_key(state)
        if key is None:
            return self._sequential
        return np.random.default_rng([self.seed, 2, *key])


@dataclass(frozen=True)
class Played:
    """A finished game: its last state, each player's return and the decisions made."""

    state: State
    returns: tuple[float, ...]
    decisions: int


Observer = Callable[[State, int, Action], None]
"""``observe(state, player, action)`` before each action is applied (``CHANCE`` for chance)."""


def play(
    state: State,
    agents: Sequence[Agent],
    rng: np.random.Generator | Deal,
    observe: Observer | None = None,
    max_steps: int = MAX_STEPS,
) -> Played:
    """Play ``state`` to the end: ``agents[p]`` chooses for player ``p``.

    With a generator, chance and agents all draw from it in turn; with a
    :class:`Deal`, as that class says. A game that has not ended after ``max_steps``
    steps (decisions and chance events) raises :class:`ArenaError`.
    """
    if len(agents) != state.num_players:
        raise ArenaError(
            f"the game has {state.num_players} players but {len(agents)} agents were given"
        )
    if isinstance(max_steps, bool) or not isinstance(max_steps, int) or max_steps < 1:
        raise ArenaError(f"a step limit must be a whole number >= 1, got {max_steps!r}")
    deal = rng if isinstance(rng, Deal) else None
    decisions = 0
    steps = 0
    while not state.is_terminal():
        if steps == max_steps:
            raise ArenaError(
                f"the game did not end after {max_steps:,} steps (decisions and chance "
                "events): its positions may come back forever (with a deal keyed by "
                "position, a position that comes back meets the same chance again)"
            )
        steps += 1
        player = state.current_player
        if player == CHANCE:
            action = sample_chance(state, deal.chance(state) if deal else rng)  # type: ignore[arg-type]
        else:
            action = agents[player].act(state, deal.seat(player) if deal else rng)  # type: ignore[arg-type]
            decisions += 1
        if observe is not None:
            observe(state, player, action)
        state = state.apply(action)
    return Played(state, tuple(float(r) for r in state.returns()), decisions)
