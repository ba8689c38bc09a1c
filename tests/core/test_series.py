"""The one series runner: the generic loop for any agents, compiled paths when they fit."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.errors import ArenaError
from stratagem.core.series import run_series
from stratagem.games.pig.rules import preset
from stratagem.games.pig.strategies import HoldAt, KeepPace, MatchResult, simulate


def test_fixed_pig_policies_take_the_compiled_simulation() -> None:
    rules = preset("pig")
    result = run_series("pig", rules, ["hold:20", "keep-pace"], games=500, seed=4)
    direct = simulate(rules, HoldAt(rules, 20), KeepPace(rules), 500, 4)
    assert result.compiled and isinstance(result.detail, MatchResult)
    assert result.detail == direct  # the same games as `stratagem pig simulate`
    assert result.wins()[0] == direct.a_wins
    assert np.array_equal(result.first == 0, direct.a_starts)


def test_other_agents_play_through_the_generic_loop_with_rotating_seats() -> None:
    result = run_series("pig", "coin-3", ["hold:2", "random"], games=10, seed=2)
    assert not result.compiled and result.returns.shape == (10, 2)
    assert list(result.first) == [0, 1] * 5
    assert np.all(result.returns.sum(axis=1) == 1.0)  # one winner per game
    again = run_series("pig", "coin-3", ["hold:2", "random"], games=10, seed=2)
    assert np.array_equal(result.returns, again.returns)
    forced = run_series("pig", "coin-3", ["hold:2", "hold:3"], games=4, seed=2, compiled=False)
    assert not forced.compiled


def test_bad_series_are_refused() -> None:
    with pytest.raises(ArenaError, match="number of games"):
        run_series("pig", "pig", ["hold:20", "random"], games=0, seed=1)
    with pytest.raises(ArenaError, match="2-2 players; 1 agents"):
        run_series("pig", "pig", ["hold:20"], games=2, seed=1)
