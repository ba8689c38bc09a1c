"""The game protocol every game implements (modelled on OpenSpiel's).

A state is immutable and hashable. At a chance node ``current_player`` is
:data:`CHANCE` and :meth:`State.chance_outcomes` lists the outcomes with their
probabilities; at a terminal state it is :data:`TERMINAL` and
:meth:`State.returns` gives each player's final value (the score in Yahtzee,
1/0 for a win in Pig).

Algorithms (MCTS, expectimax, the arena) are written against this protocol
only, so they work on every game.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Protocol, TypeVar, runtime_checkable

import numpy as np

from stratagem.core.errors import InvalidStateError

CHANCE = -1
"""``current_player`` at a chance node (a roll of the dice, a draw from the bag)."""

TERMINAL = -2
"""``current_player`` once the game is over."""

Action = Hashable
"""A small int or a frozen dataclass whose ``str()`` is stable (CLI, web API)."""

S = TypeVar("S", bound="State")


@runtime_checkable
class State(Protocol):
    """One position of a game, including whose turn it is."""

    @property
    def num_players(self) -> int:
        """How many players take part."""
        ...

    @property
    def current_player(self) -> int:
        """The player to act, :data:`CHANCE` or :data:`TERMINAL`."""
        ...

    def legal_actions(self) -> Sequence[Action]:
        """The actions the player to move may take (empty at chance and terminal nodes)."""
        ...

    def chance_outcomes(self) -> Sequence[tuple[Action, float]]:
        """``[(outcome, probability)]`` at a chance node; the probabilities sum to 1."""
        ...

    def apply(self: S, action: Action) -> S:
        """The state after ``action`` (a move, or a chance outcome); ``self`` is unchanged."""
        ...

    def is_terminal(self) -> bool:
        """True once the game is over."""
        ...

    def returns(self) -> tuple[float, ...]:
        """Each player's final value; only meaningful at a terminal state."""
        ...


T = TypeVar("T")


def expect_state(state: object, kind: type[T], who: str) -> T:
    """``state`` if it is a ``kind``; else :class:`InvalidStateError` saying who needed one.

    >>> expect_state(3, str, "a word game")
    Traceback (most recent call last):
    ...
    stratagem.core.errors.InvalidStateError: a word game needs a str, not a int
    """
    if not isinstance(state, kind):
        raise InvalidStateError(f"{who} needs a {kind.__name__}, not a {type(state).__name__}")
    return state


def chance_key(state: State) -> tuple[int, ...] | None:
    """The slot of a chance event, for common random numbers, or ``None``.

    A game may name each chance event by a tuple of ints, e.g. (player, turn,
    throw) in Yahtzee. The arena draws the outcome of a slot from a generator
    seeded by (deal seed, slot), so when a deal is replayed with the seats
    swapped every seat sees the same dice in the same slots, even after the
    players' decisions have differed.
    """
    own = getattr(state, "chance_key", None)
    return None if own is None else tuple(own())


def sample_chance(state: State, rng: np.random.Generator) -> Action:
    """Draw one outcome of a chance node from its distribution.

    Games whose chance node is too wide to list provide their own
    ``sample_chance(rng)``; this default uses :meth:`State.chance_outcomes`.
    """
    own = getattr(state, "sample_chance", None)
    if own is not None:
        return own(rng)  # type: ignore[no-any-return]
    outcomes = state.chance_outcomes()
    probabilities = np.fromiter((p for _, p in outcomes), dtype=np.float64, count=len(outcomes))
    index = int(rng.choice(len(outcomes), p=probabilities / probabilities.sum()))
    return outcomes[index][0]
