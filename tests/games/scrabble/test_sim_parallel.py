"""The simulation over several processes (``sim:workers``, :mod:`.sim_pool`): the same
figures as one process, a cancel honoured, a dead worker survived, no worker left behind by
a killed parent, the number refused out of range."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from stratagem.core.errors import StratagemError
from stratagem.core.registry import make_agent
from stratagem.games.scrabble import sim_pool
from stratagem.games.scrabble.heuristic import EquityAgent
from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.sim import SimAgent, SimError, SimStats

from .test_sim import one_tile_state, position

pytestmark = pytest.mark.skipif(sim_pool.cores() < 2, reason="needs two cores")


@pytest.fixture(scope="module")
def lex():  # type: ignore[no-untyped-def]
    yield default_lexicon("english")
    sim_pool.close_all()


def figures(stats: list[SimStats]) -> list[tuple[object, ...]]:
    """Everything a simulation reports of its candidates, exactly (floats unrounded)."""
    return [(str(s.action), s.n, s.mean, s.win, s.se, s.win_se, s.pruned, s.exact, s.solved,
             s.proved) for s in stats]  # fmt: skip


def run(lex, state, workers: int, seed: int = 0, **kw):  # type: ignore[no-untyped-def]
    agent = SimAgent(EquityAgent(lex.tiles, endgame=False), endgame=False, seconds=600.0,
                     workers=workers, **kw)  # fmt: skip
    return agent, agent.simulate(state, np.random.default_rng(seed))


def test_two_workers_give_exactly_the_figures_of_one(lex) -> None:  # type: ignore[no-untyped-def]
    # sampled deals with early drops (checked at 32 and 48 deals: here at both)
    state = position(lex, 4, 10)
    _, one = run(lex, state, 1, seed=3, candidates=8, iterations=64)
    _, two = run(lex, state, 2, seed=3, candidates=8, iterations=64)
    assert figures(two) == figures(one)
    assert sorted({s.n for s in one}) == [32, 48, 64]  # dropped at each check, and kept
    # the enumerated pre-endgame, each draw's endgames solved
    state = one_tile_state(lex)
    _, one = run(lex, state, 1, candidates=3, pre_endgame="exact")
    _, two = run(lex, state, 2, candidates=3, pre_endgame="exact")
    assert figures(two) == figures(one) and all(s.exact for s in two)


def test_a_cancel_stops_the_workers_at_the_next_deal(lex) -> None:  # type: ignore[no-untyped-def]
    agent = SimAgent(EquityAgent(lex.tiles, endgame=False), candidates=3, iterations=10_000,
                     seconds=600.0, endgame=False, workers=2)  # fmt: skip
    seen: list[int] = []
    agent.progress = lambda p: seen.append(p.done)
    agent.cancelled = lambda: bool(seen) and seen[-1] >= 5
    stats = agent.simulate(position(lex, 6, 6), np.random.default_rng(0))
    assert [s.n for s in stats] == [5, 5, 5]  # the deals still out were not counted
    assert seen == [1, 2, 3, 4, 5]


def test_a_dead_worker_leaves_the_figures_unchanged(lex) -> None:  # type: ignore[no-untyped-def]
    state = position(lex, 5, 6)
    agent, before = run(lex, state, 2, candidates=4, iterations=20)
    (pool,) = [p for p in sim_pool._POOLS.values() if p.lexicon is state.lexicon]
    for pid in list(pool.executor._processes):  # the workers, killed while idle
        os.kill(pid, signal.SIGKILL)
    again = agent.simulate(state, np.random.default_rng(0))
    assert figures(again) == figures(before)
    assert pool.broken and pool not in sim_pool._POOLS.values()  # dropped, not reused
    _, third = run(lex, state, 2, candidates=4, iterations=20)  # a fresh pool
    assert figures(third) == figures(before)


@pytest.mark.parametrize("workers", [0, -1, True, 2.0, "2", 10**6])
def test_workers_out_of_range_are_refused_by_name(lex, workers) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SimError, match=r"workers must be a whole number 1\.\.") as refused:
        SimAgent(EquityAgent(lex.tiles, endgame=False), workers=workers)
    assert str(sim_pool.cores()) in str(refused.value)


def test_the_spec_takes_workers_and_refuses_more_than_the_cores() -> None:
    agent = make_agent("scrabble", "english", "sim:workers=2,iterations=5")
    assert isinstance(agent, SimAgent) and agent.workers == 2
    with pytest.raises(StratagemError, match="workers"):
        make_agent("scrabble", "english", f"sim:workers={sim_pool.cores() + 1}")


def test_players_built_alike_share_one_pool_even_once_used(lex) -> None:  # type: ignore[no-untyped-def]
    position(lex, 5, 6)  # the tile set has been used: it carries cached attributes
    pristine = replace(lex.tiles)  # the same tile set without them
    assert set(vars(pristine)) != set(vars(lex.tiles))
    fresh = EquityAgent(pristine, endgame=False)
    used = EquityAgent(lex.tiles, endgame=False)
    assert sim_pool.static_key(fresh) == sim_pool.static_key(used)
    other = make_agent("scrabble", "english", "sim:leaves=super").static  # type: ignore[attr-defined]
    assert sim_pool.static_key(other) != sim_pool.static_key(fresh)


ORPHAN = """
import sys, numpy as np
from stratagem.games.scrabble import sim_pool
from stratagem.games.scrabble.heuristic import EquityAgent
from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.sim import SimAgent
from tests.games.scrabble.test_sim import position
lex = default_lexicon("english")
state = position(lex, 5, 6)
SimAgent(EquityAgent(lex.tiles, endgame=False), iterations=4, workers=2,
         endgame=False).simulate(state, np.random.default_rng(0))
(pool,) = sim_pool._POOLS.values()
print(*pool.executor._processes, flush=True)
sys.stdin.read()
"""


def test_the_workers_of_a_killed_parent_end_too(tmp_path) -> None:  # type: ignore[no-untyped-def]
    root = Path(__file__).resolve().parents[3]
    parent = subprocess.Popen([sys.executable, "-c", ORPHAN], cwd=root, stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)  # fmt: skip
    assert parent.stdout is not None
    workers = [int(pid) for pid in parent.stdout.readline().split()]
    assert len(workers) == 2 and all(Path(f"/proc/{pid}").exists() for pid in workers)
    parent.kill()  # SIGKILL: no exit handler runs
    parent.wait()
    deadline = time.monotonic() + 10 * sim_pool.PARENT_CHECK + 5
    while time.monotonic() < deadline and any(alive(pid) for pid in workers):
        time.sleep(0.1)
    assert not any(alive(pid) for pid in workers)


def alive(pid: int) -> bool:
    """Whether ``pid`` is a live process (not gone, not a zombie)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _simulate_and_end() -> None:
    """A child process (as an arena's worker is) that simulates with two workers of its
    own and returns."""
    lex = default_lexicon("english")
    SimAgent(EquityAgent(lex.tiles, endgame=False), iterations=4, workers=2,
             endgame=False).simulate(position(lex, 5, 6), np.random.default_rng(0))  # fmt: skip


def test_a_child_process_with_a_pool_of_its_own_ends() -> None:
    import multiprocessing

    # an arena's worker ends by joining its children: its pool's idle workers must be told
    # to stop first (this hung for ever before)
    child = multiprocessing.get_context("spawn").Process(target=_simulate_and_end)
    child.start()
    child.join(120)
    if child.is_alive():
        child.kill()
    assert child.exitcode == 0
