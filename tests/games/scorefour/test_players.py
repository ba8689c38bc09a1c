"""Score Four agents: minimax, decision analysis, the simulated opponents, the arena specs."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.algorithms.decision_analysis import DecisionAnalysisConfig
from stratagem.core.arena import load_game, play_game
from stratagem.core.errors import InvalidAgentError, InvalidRulesError
from stratagem.games.scorefour.board import parse_peg
from stratagem.games.scorefour.players import (
    EpsilonGreedyAgent,
    MinimaxAgent,
    SoftmaxAgent,
    decision_analysis,
    move_qualities,
    move_quality,
)
from stratagem.games.scorefour.state import ScoreFourState

THREAT = ScoreFourState.from_string("xxx.ooo.........")  # X to move, d1 wins


def play(a: object, b: object, seed: int) -> tuple[ScoreFourState, list[list[float]]]:
    rng = np.random.default_rng(seed)
    state = ScoreFourState.new()
    agents = [a, b]
    quality: list[list[float]] = [[], []]
    while not state.is_terminal():
        move = agents[state.player].act(state, rng)  # type: ignore[attr-defined]
        quality[state.player].append(move_quality(state, move))
        state = state.apply(move)
    return state, quality


def test_move_quality_is_1_for_the_best_move_and_0_for_the_worst() -> None:
    _, f = move_qualities(THREAT)
    assert f.max() == 1.0 and f.min() == 0.0
    assert move_quality(THREAT, parse_peg("d1")) == 1.0


def test_every_agent_takes_an_immediate_win() -> None:
    rng = np.random.default_rng(0)
    for agent in (
        MinimaxAgent(depth=2),
        decision_analysis(),
        EpsilonGreedyAgent(0.0),
        SoftmaxAgent(0.01),
    ):
        assert agent.act(THREAT, rng) == parse_peg("d1")


def test_softmax_temperature_sets_the_skill() -> None:
    sharp = np.mean(
        [q for s in range(3) for q in play(SoftmaxAgent(0.02), SoftmaxAgent(0.02), s)[1][0]]
    )
    loose = np.mean(
        [q for s in range(3) for q in play(SoftmaxAgent(1.0), SoftmaxAgent(1.0), s)[1][0]]
    )
    assert sharp > 0.95 and loose < sharp - 0.1


def test_epsilon_greedy_with_epsilon_0_always_plays_f_1() -> None:
    _, quality = play(EpsilonGreedyAgent(0.0), EpsilonGreedyAgent(1.0), 1)
    assert all(q == 1.0 for q in quality[0])


def test_minimax_beats_a_random_opponent() -> None:
    results = [play(MinimaxAgent(depth=2), EpsilonGreedyAgent(1.0), s)[0].winner for s in range(4)]
    assert results == [0, 0, 0, 0]


def test_decision_analysis_learns_the_opponent_skill_during_a_game() -> None:
    da = decision_analysis(DecisionAnalysisConfig(f0=1.0, beta=0.2))
    _, quality = play(da, EpsilonGreedyAgent(1.0), 2)
    assert len(da.observed) >= 3
    # the opponent's first move is seen before any update: the trace lags by one move
    assert da.observed == pytest.approx(quality[1][: len(da.observed)])
    assert da.skill < 1.0


def test_bad_agent_settings_are_refused() -> None:
    with pytest.raises(InvalidRulesError, match="temperature"):
        SoftmaxAgent(0.0)
    with pytest.raises(InvalidRulesError, match="epsilon"):
        EpsilonGreedyAgent(1.5)


def test_the_arena_finds_the_game_and_its_agents() -> None:
    game = load_game("scorefour")
    specs = [
        "minimax:depth=2", "minimax:seconds=0.05", "decision-analysis:f0=0.5,beta=0.05",
        "softmax:t=0.1", "epsilon-greedy:e=0.2", "random",
    ]  # fmt: skip
    kinds = [type(game.make_agent("scorefour", spec)).__name__ for spec in specs]
    assert kinds == [
        "MinimaxAgent", "MinimaxAgent", "DecisionAnalysis", "SoftmaxAgent", "EpsilonGreedyAgent",
        "RandomAgent",
    ]  # fmt: skip
    timed = game.make_agent("scorefour", "minimax:seconds=0.05")
    assert isinstance(timed, MinimaxAgent) and (timed.depth, timed.seconds) == (None, 0.05)
    fixed = game.make_agent("scorefour", "minimax")
    assert isinstance(fixed, MinimaxAgent) and (fixed.depth, fixed.seconds) == (4, None)
    returns, decisions = play_game(game, "scorefour", ["minimax:depth=2", "random"], 1)
    assert returns == (1.0, 0.0) and 7 <= decisions <= 64


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("softmax:t=x", "t must be a number > 0.0 and <= 1000000.0, got 'x'"),
        ("softmax", "softmax needs t=..."),
        ("softmax:t=0", "t must be a number > 0.0"),
        ("decision-analysis:f0=2", "f0 must be a number 0.0..1.0, got '2'"),
        ("decision-analysis:depth=100000000000000000000", "depth must be a whole number 1..4"),
        ("decision-analysis:depth=5", "depth must be a whole number 1..4"),
        ("minimax:seconds=-1", "seconds must be a number > 0.0 and <= 3600.0"),
        ("epsilon-greedy:e=1.5", "e must be a number 0.0..1.0"),
    ],
)
def test_bad_agent_parameters_are_refused(spec: str, message: str) -> None:
    with pytest.raises(InvalidAgentError, match=message):
        load_game("scorefour").make_agent("scorefour", spec)


def test_a_depth_only_minimax_in_the_arena_is_capped_like_the_command_line(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """`arena run --agents minimax:depth=64,random` searched without a time limit, where
    `scorefour best --depth 64` stops after DEPTH_TIME_LIMIT seconds."""
    from stratagem.core.arena import load_game
    from stratagem.games.scorefour import players
    from stratagem.games.scorefour.state import ScoreFourState

    seen = []

    def search(self, state, depth, seconds):  # type: ignore[no-untyped-def]
        seen.append((depth, seconds))
        return real(self, state, depth, seconds)

    real = players.Minimax.search
    monkeypatch.setattr(players.Minimax, "search", search)
    agent = load_game("scorefour").make_agent(None, "minimax:depth=3")
    agent.act(ScoreFourState.new(), np.random.default_rng(0))
    assert seen == [(3, players.DEPTH_TIME_LIMIT)]
