"""MCTS on Score Four: wins and blocks, compiled and Python trees alike, seeds, the registry."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from stratagem.algorithms.mcts import MCTS
from stratagem.core.agent import Advice
from stratagem.core.arena import InlineExecutor, make_experiment, play_game, report, run
from stratagem.core.errors import InvalidAgentError
from stratagem.core.registry import load_game, make_agent
from stratagem.games.scorefour._kernels import CENTRALITY
from stratagem.games.scorefour.board import parse_peg
from stratagem.games.scorefour.fast import fast_game
from stratagem.games.scorefour.spec import GAME, MCTS_C
from stratagem.games.scorefour.state import RULES, ScoreFourState

# Hand-made positions (levels bottom to top, each a1 b1 c1 d1 a2 .. d4) and
# the one move that does not lose at once.
X_WINS = ("xxx.oo........../o...............", "d1")  # X completes a1-d1
X_BLOCKS = ("x.x.ooo........./x...............", "d2")  # O threatens a2-d2; X has no win
O_WINS = ("xxx.ooo.x.......", "d2")  # both threaten; O, to move, wins first
O_BLOCKS = ("xxx.o.....o..o.x", "d1")  # X threatens a1-d1; O has no win
POSITIONS = {"x-wins": X_WINS, "x-blocks": X_BLOCKS, "o-wins": O_WINS, "o-blocks": O_BLOCKS}


def position(name: str) -> tuple[ScoreFourState, int]:
    board, move = POSITIONS[name]
    return ScoreFourState.from_string(board), parse_peg(move)


def test_the_hand_made_positions_are_what_they_claim() -> None:
    for name, (board, move) in POSITIONS.items():
        state = ScoreFourState.from_string(board)
        assert state.current_player == (0 if name.startswith("x") else 1)
        me = state.current_player
        winning = [p for p in state.legal_actions() if state.apply(p).winner == me]
        assert winning == ([parse_peg(move)] if name.endswith("wins") else [])
        # in the blocking positions every other move lets the opponent win at once
        for p in state.legal_actions():
            if p != parse_peg(move) and name.endswith("blocks"):
                after = state.apply(p)
                assert any(after.apply(q).winner == 1 - me for q in after.legal_actions())


@pytest.mark.parametrize("rollout", ["random", "tactical"])
@pytest.mark.parametrize("name", list(POSITIONS))
def test_compiled_mcts_wins_and_blocks(name: str, rollout: str) -> None:
    state, move = position(name)
    agent = make_agent("scorefour", RULES, f"mcts:sims=3000,rollout={rollout}")
    for seed in range(3):
        assert agent.act(state, np.random.default_rng(seed)) == move


@pytest.mark.parametrize("name", ["x-wins", "o-blocks"])
def test_the_python_tree_wins_and_blocks_too(name: str) -> None:
    state, move = position(name)
    advice = MCTS(simulations=1500, seed=2).advise(state)  # through the protocol only
    assert advice[0].action == move


def assert_same_values(a: list[Advice], b: list[Advice]) -> None:
    """Each action's mean agrees between two searches within the sampling error."""
    by_action = {x.action: x for x in b}
    for x in a:
        y = by_action[x.action]
        se = math.hypot(x.se or 0.0, y.se or 0.0)
        assert abs(x.value - y.value) <= 4.5 * se + 1e-9, (x, y)


def test_compiled_and_python_searches_agree_on_a_quiet_position() -> None:
    # A position without an immediate threat: the two trees run the same
    # algorithm with random playouts, so each move's mean agrees within the
    # sampling error, and both put first a peg with the most lines through it
    # (the four corners and the four centre pegs, seven lines per cell).
    state = ScoreFourState.from_string("x..o............")
    compiled = MCTS(simulations=1600, seed=4, fast=fast_game()).advise(state)
    python = MCTS(simulations=1600, seed=4).advise(state)
    assert sum(a.n for a in compiled) == sum(a.n for a in python) == 1600
    assert {a.action for a in compiled} == {a.action for a in python} == set(range(16))
    assert_same_values(compiled, python)
    best = {p for p in range(16) if CENTRALITY[p] == CENTRALITY.max()}
    assert best == {parse_peg(p) for p in ("a1", "d1", "b2", "c2", "b3", "c3", "a4", "d4")}
    assert compiled[0].action in best and python[0].action in best


def test_seeded_searches_repeat_exactly() -> None:
    state = ScoreFourState.from_string("x..o.x..........")
    for rollout in ("random", "tactical"):
        spec = f"mcts:sims=800,rollout={rollout},seed=7"
        a = make_agent("scorefour", RULES, spec).advise(state)  # type: ignore[attr-defined]
        b = make_agent("scorefour", RULES, spec).advise(state)  # type: ignore[attr-defined]
        assert a == b
        agent = make_agent("scorefour", RULES, spec)
        moves = [agent.act(state, np.random.default_rng(s)) for s in (1, 1, 2, 3, 4)]
        assert moves[0] == moves[1]
    game = load_game("scorefour")
    seats = ("mcts:sims=300", "minimax:depth=1")
    assert play_game(game, RULES, seats, 5) == play_game(game, RULES, seats, 5)


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts:sims=0", "agent mcts: sims must be a whole number 1..10000000, got '0'"),
        ("mcts:sims=10000001", "sims must be a whole number 1..10000000"),
        ("mcts:c=-1", "c must be a number 0.0..1000.0, got '-1'"),
        ("mcts:c=nan", "c must be a number 0.0..1000.0"),
        ("mcts:expand=0", "expand must be a whole number 1..10000000"),
        ("mcts:seed=-1", "seed must be a whole number 0..9223372036854775807"),
        ("mcts:rollout=greedy", "rollout must be one of random, tactical, got 'greedy'"),
        ("mcts:depth=2", "agent mcts has no parameter 'depth'"),
    ],
)
def test_bad_parameters_are_refused_by_name(spec: str, message: str) -> None:
    with pytest.raises(InvalidAgentError, match=message.replace("(", r"\(").replace(".", r"\.")):
        make_agent("scorefour", RULES, spec)


def test_the_registry_lists_mcts_with_the_score_four_playouts_and_c() -> None:
    params = {p.name: p for p in GAME.agent_info("mcts").params}
    assert params["rollout"].choices == ("random", "tactical")
    assert params["rollout"].default == "tactical"
    assert params["c"].default == MCTS_C == 1.41  # Score Four's own; Pig keeps 0.71
    pig = {p.name: p for p in load_game("pig").agent_info("mcts").params}
    assert pig["c"].default == 0.71 and pig["c"].low == params["c"].low
    agent = GAME.make_agent(RULES, "mcts:rollout=tactical,sims=10")
    assert isinstance(agent, MCTS) and agent.fast is fast_game()
    assert agent.spec == "mcts:c=1.41,sims=10,rollout=tactical"


def test_an_arena_match_plays_mcts_against_minimax(tmp_path: Path) -> None:
    exp = make_experiment("scorefour", None, ["mcts:sims=200", "minimax:depth=1"], seed=3)
    rows = run(exp, 4, tmp_path / "r.csv", InlineExecutor())
    assert report(rows)["agents"]["mcts:sims=200"]["games"] == 4
    assert sorted(r["seats"] for r in rows) == sorted(
        ['["mcts:sims=200", "minimax:depth=1"]', '["minimax:depth=1", "mcts:sims=200"]'] * 2
    )
