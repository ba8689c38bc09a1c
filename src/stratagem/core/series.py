"""N games of the same agents: one runner for every game, compiled where the agents allow.

:func:`run_series` seats the agents at one table (one player each), rotates
the seats from game to game, and plays every game through
:func:`stratagem.core.play.play` with fresh agents and the arena's common
random numbers (the games of one rotation share a deal). A game may offer a
compiled runner for some agents (``GameSpec.series``: Yahtzee's
optimal player alone or against itself, Pig between fixed-policy agents); the
runner uses it whenever it
accepts the agents, so a new agent works everywhere and a known one runs fast.
Compiled runners draw their dice their own way: the same seed gives the same
games on the same path, not across paths.

>>> result = run_series("pig", "coin-3", ["hold:2", "random"], games=20, seed=1)
>>> result.compiled, result.returns.shape, float(result.returns.sum())
(False, (20, 2), 20.0)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from stratagem.core.agent import Agent
from stratagem.core.errors import ArenaError
from stratagem.core.play import Deal, deal_seed, play
from stratagem.core.registry import GameSpec, load_game

__all__ = ["MAX_GAMES", "FastSeries", "SeriesResult", "run_series"]

MAX_GAMES = 100_000_000
"""Most games one series plays."""


@dataclass(frozen=True)
class SeriesResult:
    """Each agent's final value in every game, and who moved first.

    ``returns[g, i]`` is agent ``i``'s return in game ``g``; ``first[g]`` the
    agent in seat 0. ``detail`` is the compiled runner's own record (e.g.
    Yahtzee's :class:`~stratagem.games.yahtzee.strategies.SimulationResult`).
    """

    agents: tuple[str, ...]
    seed: int
    returns: np.ndarray
    first: np.ndarray
    compiled: bool
    detail: Any = None

    @property
    def games(self) -> int:
        return int(self.returns.shape[0])

    def means(self) -> np.ndarray:
        """Each agent's mean return."""
        return np.asarray(self.returns.mean(axis=0))

    def wins(self) -> np.ndarray:
        """Each agent's wins (a tie shares the win), one entry per agent."""
        best = self.returns == self.returns.max(axis=1, keepdims=True)
        return np.asarray((best / best.sum(axis=1, keepdims=True)).sum(axis=0))


FastSeries = Callable[[Any, Sequence[Agent], int, int], "SeriesResult | None"]
"""``series(rules, agents, games, seed)``: a game's compiled runner, or ``None`` when it
cannot play these agents (then the generic loop does)."""


def run_series(
    game: str | GameSpec,
    rules: Any,
    agents: Sequence[str],
    games: int,
    seed: int,
    compiled: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> SeriesResult:
    """Play ``games`` games of ``agents`` (agent spec strings, one per seat).

    ``rules`` is a preset name or the game's rules object. With ``compiled``
    the game's compiled runner is used when it accepts the agents.
    """
    g = load_game(game) if isinstance(game, str) else game
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise ArenaError(f"the number of games must be in 1..{MAX_GAMES}, got {games!r}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ArenaError(f"the seed must be a whole number >= 0, got {seed!r}")
    n = len(agents)
    if not g.min_players <= n <= g.max_players:
        raise ArenaError(
            f"{g.name} is played by {g.min_players}-{g.max_players} players; "
            f"{n} agents were given"
        )
    rules_obj = g.rules_object(rules)
    specs = tuple(str(g.check_agent(a, rules_obj)) for a in agents)
    fast: FastSeries | None = g.series
    if compiled and fast is not None:
        result = fast(rules_obj, [g.make_agent(rules_obj, a) for a in specs], games, seed)
        if result is not None:
            return SeriesResult(specs, seed, result.returns, result.first, True, result.detail)
    returns = np.empty((games, n))
    first = np.empty(games, dtype=np.int64)
    for i in range(games):
        order = [(i + s) % n for s in range(n)]  # agent in each seat
        seated = [g.make_agent(rules_obj, specs[a]) for a in order]
        played = play(g.new_state(rules_obj, n), seated, Deal(deal_seed(seed, i // n)))
        for s, a in enumerate(order):
            returns[i, a] = played.returns[s]
        first[i] = order[0]
        if progress is not None:
            progress(i + 1, games)
    return SeriesResult(specs, seed, returns, first, False)
