"""MCTS's tick: the Python tree reports its simulations as it goes, and a tick may stop it."""

from __future__ import annotations

import pytest

from stratagem.algorithms.mcts import MCTS, TICK_EVERY
from stratagem.games.pig.rules import preset
from stratagem.games.pig.state import PigState


def test_the_tick_counts_the_simulations_done_every_tick_every() -> None:
    seen: list[int] = []
    state = PigState.new(preset("coin-3"))
    advice = MCTS(simulations=7 * TICK_EVERY + 3, seed=1, tick=seen.append).advise(state)
    assert seen == [i * TICK_EVERY for i in range(8)]
    assert sum(a.n or 0 for a in advice) == 7 * TICK_EVERY + 3
    quiet = MCTS(simulations=7 * TICK_EVERY + 3, seed=1).advise(state)
    assert [(a.action, a.value, a.n) for a in advice] == [(a.action, a.value, a.n) for a in quiet]


def test_a_tick_that_raises_stops_the_search() -> None:
    class Stop(Exception):
        pass

    def tick(done: int) -> None:
        if done >= 2 * TICK_EVERY:
            raise Stop(done)

    state = PigState.new(preset("coin-3"))
    with pytest.raises(Stop):
        MCTS(simulations=100_000, seed=1, tick=tick).advise(state)
