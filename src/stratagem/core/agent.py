"""Agents play; advisors price every option. Strong agents are both.

>>> from stratagem.core.agent import Advice, with_regrets
>>> [a.regret for a in with_regrets([("x", 3.0), ("y", 5.0)])]
[0.0, 2.0]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable

import numpy as np

from stratagem.core.game import Action, State


@dataclass(frozen=True)
class Advice:
    """One option with its value and its cost against the best option.

    ``value`` is what the option is worth to the player to move: an expected
    final score (Yahtzee) or a probability of winning (Pig). ``regret`` is the
    best option's value minus this one's (0 for the best). Statistics are set
    when the value was estimated by sampling rather than computed exactly.
    """

    action: Action
    value: float
    regret: float = 0.0
    n: int | None = None
    se: float | None = None
    sd: float | None = None
    histogram: dict[int, int] | None = field(default=None, compare=False)

    def to_json(self) -> dict[str, object]:
        """A plain dict for ``--json`` output: ``{"action", "value", "regret", ...}``."""
        out: dict[str, object] = {
            "action": str(self.action),
            "value": self.value,
            "regret": self.regret,
        }
        for key in ("n", "se", "sd", "histogram"):
            if getattr(self, key) is not None:
                out[key] = getattr(self, key)
        return out


def with_regrets(options: Iterable[tuple[Action, float]]) -> list[Advice]:
    """Sort ``(action, value)`` pairs best first and attach regrets.

    The sort is stable, so options of equal value keep the order given.
    """
    ranked = sorted(options, key=lambda item: -item[1])
    if not ranked:
        return []
    best = ranked[0][1]
    return [Advice(action, value, best - value) for action, value in ranked]


@runtime_checkable
class Agent(Protocol):
    """Anything that picks an action for the player to move."""

    def act(self, state: State, rng: np.random.Generator) -> Action:
        """The action to play in ``state`` (never called at chance or terminal nodes)."""
        ...


@runtime_checkable
class Advisor(Protocol):
    """Anything that prices every legal action of a state."""

    def advise(self, state: State) -> Sequence[Advice]:
        """Every legal action with its value and regret, best first."""
        ...


class RandomAgent:
    """Plays a uniformly random legal action (a baseline for every game)."""

    spec = "random"

    def act(self, state: State, rng: np.random.Generator) -> Action:
        actions = state.legal_actions()
        return actions[int(rng.integers(len(actions)))]
