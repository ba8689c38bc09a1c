"""The simulating player: legal moves, its budget and cancel, the pre-endgame's enumeration
(exact against a play-out written out by hand), and its spec's ranges."""

from __future__ import annotations

import itertools
from dataclasses import replace

import numpy as np
import pytest

from stratagem.core.errors import StratagemError
from stratagem.core.registry import make_agent
from stratagem.games.scrabble import sim
from stratagem.games.scrabble.heuristic import EquityAgent
from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.sim import SimAgent, SimError, bag_sequences, win_estimate
from stratagem.games.scrabble.state import Pass, ScrabbleState

from .test_superleaves import _position


@pytest.fixture(scope="module")
def lex():  # type: ignore[no-untyped-def]
    return default_lexicon("english")


def position(lex, seed: int, moves: int) -> ScrabbleState:  # type: ignore[no-untyped-def]
    """The position after ``moves`` equity moves from ``seed`` (on ``lex``, the default list)."""
    return _position(seed, moves)


def sim_agent(lex, **kw) -> SimAgent:  # type: ignore[no-untyped-def]
    return SimAgent(EquityAgent(lex.tiles, endgame=False), **kw)


def test_the_simulated_move_is_legal_and_among_the_static_top(lex) -> None:  # type: ignore[no-untyped-def]
    agent = sim_agent(lex, candidates=4, iterations=6, seconds=600.0, endgame=False)
    for seed in (3, 4):
        state = position(lex, seed, 8)
        move = agent.act(state, np.random.default_rng(seed))
        assert str(move) in {str(a) for a in state.legal_actions()}
        top = [str(c.action) for c in agent.static.ranked(state, 4)[0]]
        assert str(move) in top
        assert all(s.n == 6 or s.pruned for s in agent.last)


def test_the_time_budget_stops_the_simulation(lex, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    clock = itertools.count(0.0, 1.0)  # every reading of the clock is one second later
    monkeypatch.setattr(sim.time, "perf_counter", lambda: next(clock))
    agent = sim_agent(lex, candidates=3, iterations=10_000, seconds=2.5)
    agent.simulate(position(lex, 5, 6), np.random.default_rng(0))
    assert max(s.n for s in agent.last) <= 3
    agent.think_seconds = 0.5  # a page's wall-clock cap wins when smaller
    agent.simulate(position(lex, 5, 6), np.random.default_rng(0))
    assert max(s.n for s in agent.last) == 1


def test_cancel_plays_the_best_so_far(lex) -> None:  # type: ignore[no-untyped-def]
    asked = itertools.count()
    agent = sim_agent(lex, candidates=3, iterations=10_000, seconds=600.0)
    agent.cancelled = lambda: next(asked) >= 2
    state = position(lex, 6, 6)
    move = agent.act(state, np.random.default_rng(0))
    assert [s.n for s in agent.last] == [2, 2, 2]
    assert move == agent.last[0].action
    agent.cancelled = lambda: True  # cancelled before any deal: the static choice
    assert agent.act(state, np.random.default_rng(0)) == agent.static.ranked(state, 1)[0][0].action


def test_bag_sequences_are_the_ordered_draws_with_their_chances() -> None:
    pool = np.zeros(27, dtype=np.int64)
    pool[[0, 1, 2]] = [2, 1, 1]  # E E A I
    seqs = dict(bag_sequences(pool, 2))
    assert sum(seqs.values()) == pytest.approx(1.0)
    assert seqs[(0, 0)] == pytest.approx(2 / 4 * 1 / 3)
    assert seqs[(1, 0)] == pytest.approx(1 / 4 * 2 / 3)
    assert (1, 1) not in seqs
    assert len(seqs) == 7


def playout(state: ScrabbleState, action, static: EquityAgent) -> int:  # type: ignore[no-untyped-def]
    """The spread change (mover's view) of ``action`` and the static player to the end; the
    one-tile bag makes every draw certain."""
    me = state.player
    before = state.scores[me] - state.scores[1 - me]
    s = state.apply(action)
    while not s.finished:
        if s.current_player < 0:
            ((draw, p),) = s.chance_outcomes()
            assert p == 1.0
            s = s.apply(draw)
        else:
            s = s.apply(static.act(s, np.random.default_rng(0)))
    return s.scores[me] - s.scores[1 - me] - before


def test_the_pre_endgame_is_the_exact_mean_over_the_draws(lex) -> None:  # type: ignore[no-untyped-def]
    state = position(lex, 9, 16)
    bag = [letter for letter, n in enumerate(state.bag) for _ in range(n)]
    one = [0] * len(state.bag)
    one[bag[0]] = 1
    state = replace(state, bag=tuple(one))  # one tile in the bag; the rest are out of play
    agent = sim_agent(lex, candidates=3, draws=1, endgame=False)
    stats = agent.simulate(state, np.random.default_rng(0))
    assert all(s.exact for s in stats)
    for s in stats:
        expected, wins = over_the_draws(
            state, lambda world, s=s: playout(world, s.action, agent.static)
        )
        assert s.mean == pytest.approx(expected)
        assert s.win == pytest.approx(wins)


def over_the_draws(state, change):  # type: ignore[no-untyped-def]
    """The mean spread change and win rate over every draw of the one tile in the bag
    (from the bag and the opponent's rack pooled), ``change(world)`` giving the spread
    change from the world where that tile is drawn."""
    me, opp = state.player, 1 - state.player
    unseen = np.array(state.bag) + np.array(state.racks[opp])
    total = unseen.sum()
    expected = wins = 0.0
    for letter in np.flatnonzero(unseen):
        rack = unseen.copy()
        rack[letter] -= 1
        bag1 = [0] * len(state.bag)
        bag1[letter] = 1
        racks = tuple(r if q == me else tuple(int(x) for x in rack)
                      for q, r in enumerate(state.racks))  # fmt: skip
        delta = change(replace(state, racks=racks, bag=tuple(bag1)))
        p = unseen[letter] / total
        expected += p * delta
        final = state.scores[me] - state.scores[opp] + delta
        wins += p * (1.0 if final > 0 else 0.5 if final == 0 else 0.0)
    return expected, wins


def test_win_estimate_is_half_at_a_tie_and_certain_at_the_end() -> None:
    assert win_estimate(0.0, 50, False) == pytest.approx(0.5)
    assert 0.5 < win_estimate(20.0, 50, False) < win_estimate(40.0, 50, False) < 1.0
    assert win_estimate(-1.0, 0, True) == 0.0
    assert win_estimate(0.0, 0, True) == 0.5


def test_the_spec_builds_the_player_with_its_parameters(lex) -> None:  # type: ignore[no-untyped-def]
    agent = make_agent("scrabble", "english",
                       "sim:candidates=5,plies=3,iterations=40,seconds=2.5,draws=2")  # fmt: skip
    assert isinstance(agent, SimAgent)
    assert (agent.candidates, agent.plies, agent.iterations, agent.seconds, agent.draws) == (
        5, 3, 40, 2.5, 2)  # fmt: skip
    assert not agent.static.endgame and agent.endgame


@pytest.mark.parametrize(
    ("spec", "name"),
    [
        ("sim:candidates=0", "candidates"),
        ("sim:candidates=101", "candidates"),
        ("sim:plies=7", "plies"),
        ("sim:iterations=0", "iterations"),
        ("sim:iterations=100001", "iterations"),
        ("sim:seconds=0", "seconds"),
        ("sim:seconds=nan", "seconds"),
        ("sim:draws=3", "draws"),
        ("sim:leaves=/nonexistent/x.npz", "x.npz"),
    ],
)
def test_out_of_range_parameters_are_refused_by_name(spec: str, name: str) -> None:
    with pytest.raises(StratagemError, match=name):
        make_agent("scrabble", "english", spec)


def test_the_constructor_checks_its_own_ranges(lex) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SimError, match="plies"):
        sim_agent(lex, plies=0)
    with pytest.raises(SimError, match="endgame solver"):
        SimAgent(EquityAgent(lex.tiles, endgame=True))


def test_the_superleave_static_player_is_available_to_the_simulation() -> None:
    agent = make_agent("scrabble", "english", "sim:leaves=super,iterations=5")
    assert isinstance(agent, SimAgent)
    assert type(agent.static).__name__ == "SuperleaveEquityAgent"


def test_the_budget_cuts_the_enumeration_short_and_says_it_is_not_exact(lex, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    state = position(lex, 9, 16)
    one = [0] * len(state.bag)
    one[next(i for i, n in enumerate(state.bag) if n)] = 1
    state = replace(state, bag=tuple(one))
    clock = itertools.count(0.0, 1.0)
    monkeypatch.setattr(sim.time, "perf_counter", lambda: next(clock))
    agent = sim_agent(lex, candidates=3, draws=1, seconds=2.5, endgame=False)
    stats = agent.simulate(state, np.random.default_rng(0))
    draws = len(list(bag_sequences(agent.unseen(state), 1)))
    assert draws > 3
    assert all(s.n <= 3 and not s.exact for s in stats)


def one_tile_state(lex, seed: int = 9, moves: int = 16) -> ScrabbleState:  # type: ignore[no-untyped-def]
    """A self-play position cut to one tile in the bag (the rest out of play)."""
    state = position(lex, seed, moves)
    one = [0] * len(state.bag)
    one[next(i for i, n in enumerate(state.bag) if n)] = 1
    return replace(state, bag=tuple(one))


def test_the_exact_pre_endgame_is_the_mean_of_the_solved_endgames(lex) -> None:  # type: ignore[no-untyped-def]
    from stratagem.games.scrabble.endgame import solve_endgame

    state = one_tile_state(lex)
    me, opp = state.player, 1 - state.player
    agent = sim_agent(lex, candidates=3, draws=1, endgame=False, pre_endgame="exact",
                      pre_nodes=200_000, seconds=600.0)  # fmt: skip
    stats = agent.simulate(state, np.random.default_rng(0))
    assert all(s.exact and s.solved == s.n for s in stats)

    def solved(world, action):  # type: ignore[no-untyped-def]
        world = world.apply(action)
        while world.current_player < 0:  # the one tile drawn, if the move drew it
            ((draw, _),) = world.chance_outcomes()
            world = world.apply(draw)
        while world.bag_size() and not world.finished:  # a pass: the static player
            world = world.apply(agent.static.act(world, np.random.default_rng(0)))
            while world.current_player < 0:
                ((draw, _),) = world.chance_outcomes()
                world = world.apply(draw)
        if world.finished:
            final = world.scores[me] - world.scores[opp]
        else:
            r = solve_endgame(world, node_limit=200_000)
            final = r.value if world.player == me else -r.value
        return final - (state.scores[me] - state.scores[opp])

    for s in stats:
        expected, wins = over_the_draws(state, lambda world, s=s: solved(world, s.action))
        assert s.mean == pytest.approx(expected)
        assert s.win == pytest.approx(wins)


def test_the_exact_pre_endgame_can_differ_from_the_play_out(lex) -> None:  # type: ignore[no-untyped-def]
    """The solver's best play after the draw is worth at least the static play-out to the
    player who moves first in the endgame; the values of some candidate differ."""
    state = one_tile_state(lex)
    kw = {"candidates": 3, "draws": 1, "endgame": False, "seconds": 600.0}
    played = sim_agent(lex, **kw).simulate(state, np.random.default_rng(0))
    solved = sim_agent(lex, pre_endgame="exact", pre_nodes=200_000, **kw).simulate(
        state, np.random.default_rng(0))  # fmt: skip
    by_move = {str(s.action): s.mean for s in played}
    assert {str(s.action) for s in solved} == set(by_move)
    assert any(abs(s.mean - by_move[str(s.action)]) > 1e-9 for s in solved)


def test_progress_counts_the_deals_and_the_time_left(lex) -> None:  # type: ignore[no-untyped-def]
    seen: list[sim.SimProgress] = []
    agent = sim_agent(lex, candidates=3, iterations=8, seconds=600.0)
    agent.progress = seen.append
    agent.simulate(position(lex, 5, 6), np.random.default_rng(0))
    assert [p.done for p in seen] == list(range(1, len(seen) + 1))
    assert all(p.total == 8 for p in seen)
    assert seen[-1].done == max(s.n for s in agent.last) == 8  # no pruning before 32 deals
    fractions = [p.fraction for p in seen]
    assert fractions == sorted(fractions) and fractions[0] > 0 and fractions[-1] == 1.0
    assert seen[-1].seconds_left == 0.0


def test_progress_counts_the_time_budget_when_it_binds(lex, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    clock = itertools.count(0.0, 1.0)
    monkeypatch.setattr(sim.time, "perf_counter", lambda: next(clock))
    seen: list[sim.SimProgress] = []
    agent = sim_agent(lex, candidates=3, iterations=10_000, seconds=20.0)
    agent.progress = seen.append
    agent.simulate(position(lex, 5, 6), np.random.default_rng(0))
    assert seen and all(p.fraction > p.done / p.total for p in seen)
    assert all(p.seconds_left <= 20.0 for p in seen)
    assert seen[-1].fraction > 0.5


def test_win_standard_error_is_that_of_the_mean_win_estimate() -> None:
    s = sim.SimStats(Pass(), 0.0)
    wins = [0.2, 0.9, 0.4, 0.7]
    for w in wins:
        s.add(0.0, w)
    assert s.win == pytest.approx(np.mean(wins))
    assert s.win_se == pytest.approx(np.std(wins, ddof=1) / np.sqrt(len(wins)))


@pytest.mark.parametrize(
    ("spec", "name"),
    [("sim:pre_endgame=solve", "pre_endgame"), ("sim:pre_nodes=1000", "pre_nodes"),
     ("sim:pre_nodes=10000001", "pre_nodes")],
)  # fmt: skip
def test_pre_endgame_parameters_out_of_range_are_refused(spec: str, name: str) -> None:
    with pytest.raises(StratagemError, match=name):
        make_agent("scrabble", "english", spec)


def test_the_spec_defaults_are_the_modules(lex) -> None:  # type: ignore[no-untyped-def]
    agent = make_agent("scrabble", "english", "sim:pre_endgame=exact")
    assert isinstance(agent, SimAgent)
    assert (agent.pre_endgame, agent.pre_nodes) == ("exact", sim.PRE_NODES)
    with pytest.raises(SimError, match="pre_endgame"):
        sim_agent(lex, pre_endgame="solve")


def test_the_player_to_move_is_worth_the_tempo_in_the_win_estimate() -> None:
    even = win_estimate(0.0, 40, False, to_move=True)
    assert even == pytest.approx(win_estimate(sim.TEMPO, 40, False))
    assert win_estimate(0.0, 40, False, to_move=False) == pytest.approx(1.0 - even)
    assert win_estimate(5.0, 0, True, to_move=False) == 1.0  # the game over: no tempo
