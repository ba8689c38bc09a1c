"""Pig to 20 and 30 agree with OpenSpiel's value iteration, the peer of benchmarks/pig_solve.py.

OpenSpiel's ``pig`` is our ``pig`` preset with another goal (2 players, a d6,
a 1 busts, 2..6 add to the turn total), with two differences that leave the
values unchanged: a player may also stop at turn total 0 (passing; never
better than rolling, by a margin of at least 0.46 in OpenSpiel's values),
and a game is drawn after ``horizon`` moves (set out of reach below). Its
values are player 0's, in [-1, 1]: for the player to move, 2 P - 1.
"""

from __future__ import annotations

import re
from functools import cache

import pytest

from stratagem.games.pig.rules import preset
from stratagem.games.pig.solver import PigSolution, solve

# Produced with OpenSpiel 2.0.2 (the PyPI wheel `open_spiel`) by
#
#     game = pyspiel.load_game("pig", {"players": 2, "diceoutcomes": 6, "piglet": False,
#                                      "winscore": goal, "horizon": 1000000})
#     values = open_spiel.python.algorithms.value_iteration.value_iteration(
#         game, -1, 1e-14, cyclic_game=True)
#
# and read at values[str(state)] for the states below, keyed here by
# (goal, player 0's score, player 1's score, turn total, player to move).
PEER_VALUES = {
    (20, 0, 0, 0, 0): 0.23111709961011512,  # the initial state
    (20, 5, 12, 6, 0): 0.39175973460778263,
    (20, 12, 5, 0, 1): -0.1586828806486782,
    (20, 18, 17, 0, 0): 0.7224880382775118,
    (20, 0, 18, 9, 0): 0.18822929799288965,
    (20, 14, 14, 4, 1): -0.7419354838709676,
    (30, 0, 0, 0, 0): 0.13582948898702416,  # the initial state
    (30, 5, 12, 6, 0): 0.15054172748149094,
    (30, 12, 5, 0, 1): -0.020478496118391126,
    (30, 28, 27, 0, 0): 0.7224880382775118,
    (30, 0, 28, 9, 0): -0.22378044797976837,
    (30, 14, 14, 4, 1): -0.4037594527794972,
}

# OpenSpiel stops when a sweep changes no value by more than 1e-14, and the two
# solvers agree to about 3e-14 at every state. 1e-9 leaves room for our solver's
# stopping rule to loosen (it promises 1e-12 per sweep) and still catches any
# difference of rules, which moves these values by far more.
TOLERANCE = 1e-9


@cache
def solved(goal: int) -> PigSolution:
    return solve(preset("pig").with_options(goal=goal), use_cache=False)


def value_for_player_0(goal: int, score_0: int, score_1: int, turn: int, mover: int) -> float:
    """Our value of an OpenSpiel state, on its scale: player 0's 2 P(win) - 1."""
    scores = (score_0, score_1)
    p = solved(goal).p_win(scores[mover], scores[1 - mover], turn)
    return 2.0 * p - 1.0 if mover == 0 else 1.0 - 2.0 * p


@pytest.mark.parametrize("goal", [20, 30])
def test_start_value_matches_openspiel(goal: int) -> None:
    ours = 2 * solved(goal).p_start - 1
    assert ours == pytest.approx(PEER_VALUES[(goal, 0, 0, 0, 0)], abs=TOLERANCE)


@pytest.mark.parametrize("state", sorted(PEER_VALUES))
def test_state_value_matches_openspiel(state: tuple[int, int, int, int, int]) -> None:
    assert value_for_player_0(*state) == pytest.approx(PEER_VALUES[state], abs=TOLERANCE)


_STATE = re.compile(r"Scores: (\d+) (\d+), Turn total: (\d+)\nCurrent player: ([01])\n")


@pytest.mark.slow
def test_every_state_matches_openspiel_run_live() -> None:
    pyspiel = pytest.importorskip("pyspiel")
    # value_iteration imports cvxpy, which the open_spiel wheel does not require.
    vi = pytest.importorskip("open_spiel.python.algorithms.value_iteration")
    goal = 20
    game = pyspiel.load_game(
        "pig",
        {"players": 2, "diceoutcomes": 6, "piglet": False, "winscore": goal, "horizon": 1000000},
    )
    values = vi.value_iteration(game, -1, 1e-14, cyclic_game=True)

    start = values[str(game.new_initial_state())]
    assert 2 * solved(goal).p_start - 1 == pytest.approx(start, abs=TOLERANCE)
    compared = 0
    for key, peer in values.items():
        m = _STATE.fullmatch(key)
        assert m is not None, key  # decision and terminal states only, no chance nodes
        score_0, score_1, turn, mover = map(int, m.groups())
        scores = (score_0, score_1)
        if scores[mover] + turn >= goal or scores[1 - mover] >= goal:
            continue  # the game is over, or only "stop" is left
        ours = value_for_player_0(goal, score_0, score_1, turn, mover)
        assert ours == pytest.approx(peer, abs=TOLERANCE), key
        compared += 1
    assert compared == 6574  # every reachable position short of the goal
