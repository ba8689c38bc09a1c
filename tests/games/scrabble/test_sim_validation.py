"""The simulation's win estimate against the games themselves: at a few self-play positions,
the estimate of the static player's first move agrees with the rate of winning when that
move is played out to the end of the game (the static player on both sides, the unseen
tiles dealt afresh each game) within three standard errors of their difference (the
simulation's and the play-outs').

The positions are the first ones tried (seeds 1 and 3-6 after 10 moves; seed 2 had the game
decided, both rates 100%); the second static move of seed 5 (13J RIOJA) disagrees, the
simulation's 24% against 15.5% played out over 1,000 games: a weakness the simulation's two
plies cannot see (docs/results/scrabble_strength.md).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from stratagem.games.scrabble import sim
from stratagem.games.scrabble.heuristic import EquityAgent
from stratagem.games.scrabble.sim import SimAgent, SimStats
from stratagem.games.scrabble.state import ScrabbleState

from .test_superleaves import _position


def played_out(state: ScrabbleState, stats: SimStats, static: EquityAgent, games: int,
               seed: int) -> tuple[float, float]:  # fmt: skip
    """The rate of winning (a tie half) of ``stats.action`` over ``games`` games played to
    the end, and its standard error (Agresti-Coull: not 0 at 0% or 100%)."""
    me, opp = state.player, 1 - state.player
    pool = np.array(state.bag) + np.array(state.racks[opp])
    tiles = np.repeat(np.arange(len(pool)), pool)
    size = sum(state.racks[opp])
    rng = np.random.default_rng(seed)
    wins = 0.0
    for _ in range(games):
        rack = np.bincount(rng.permutation(tiles)[:size], minlength=len(pool))
        racks = tuple(r if q == me else tuple(int(x) for x in rack)
                      for q, r in enumerate(state.racks))  # fmt: skip
        s = replace(state, racks=racks, bag=tuple(int(x) for x in pool - rack))
        s = s.apply(stats.action)
        while not s.finished:
            s = s.apply(s.sample_chance(rng) if s.current_player < 0 else static.act(s, rng))
        spread = s.scores[me] - s.scores[opp]
        wins += 1.0 if spread > 0 else 0.5 if spread == 0 else 0.0
    p = (wins + 2) / (games + 4)
    return wins / games, math.sqrt(p * (1 - p) / (games + 4))


@pytest.fixture(autouse=True)
def no_pruning(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every deal counted (pruning would end the simulation when one candidate is left)."""
    monkeypatch.setattr(sim, "MIN_ITERATIONS_TO_PRUNE", 10**9)


def check_agreement(seed: int, deals: int, games: int) -> None:
    state = _position(seed, 10)
    static = EquityAgent(state.tiles, endgame=False)
    agent = SimAgent(static, candidates=2, iterations=deals, seconds=3600.0)
    top = agent.simulate(state, np.random.default_rng(seed))
    first = next(s for s in top if s.action == static.ranked(state, 1)[0][0].action)
    assert first.n == deals
    rate, se = played_out(state, first, static, games, 1000 + seed)
    both = math.hypot(se, first.win_se)
    assert abs(first.win - rate) <= 3 * both, (
        f"seed {seed}: simulated {first.win:.3f} +- {first.win_se:.3f}, played out "
        f"{rate:.3f} +- {se:.3f}"
    )


def test_the_win_estimate_agrees_with_play_outs_on_a_small_count() -> None:
    """200 deals and 200 games: three standard errors are about 10 points, so an estimate
    off by as much as the one without the tempo term (5-17 points) fails here."""
    check_agreement(4, 200, 200)


@pytest.mark.slow
@pytest.mark.parametrize("seed", [1, 3, 4, 5, 6])
def test_the_win_estimate_agrees_with_play_outs(seed: int) -> None:
    check_agreement(seed, 1000, 1000)


def test_without_the_tempo_term_the_small_count_check_fails(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The fast check can fail: with the player to move's gain left out of the model (as
    before it was measured), the estimate at seed 1 runs about 17 points high."""
    monkeypatch.setattr(sim, "TEMPO", 0.0)
    with pytest.raises(AssertionError, match="seed 1"):
        check_agreement(1, 200, 200)
