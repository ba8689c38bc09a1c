"""Solitaire Yahtzee as a Gymnasium environment: the checker, masks, rewards, the optimum."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("gymnasium", reason="needs the interop extra: pip install 'stratagem[interop]'")
import gymnasium
from gymnasium.utils.env_checker import check_env

from stratagem.core.stats import mean_ci
from stratagem.games.yahtzee.rules import PRESETS, preset
from stratagem.interop import InteropError
from stratagem.interop.gymnasium import ENV_ID, YahtzeeEnv

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # the checker's render advice


@pytest.mark.parametrize("rules", list(PRESETS))
def test_gymnasium_env_checker_passes_for_every_preset(rules):
    check_env(YahtzeeEnv(rules))
    check_env(gymnasium.make(ENV_ID, rules=rules, render_mode="ansi").unwrapped)


def test_rewards_add_up_to_the_final_score_and_masks_hold():
    env = YahtzeeEnv("yatzy")
    obs, _ = env.reset(seed=4)
    rng = np.random.default_rng(4)
    total, steps, done = 0.0, 0, False
    while not done:
        assert obs["observation"].shape == env.observation_space["observation"].shape
        legal = np.flatnonzero(obs["action_mask"])
        assert np.array_equal(env.action_masks(), obs["action_mask"].astype(bool))
        obs, reward, done, truncated, info = env.step(int(rng.choice(legal)))
        total += reward
        steps += 1
        assert not truncated and info == {}
    assert total == env.state.cards[0].total and steps >= 15


def test_an_illegal_action_changes_nothing_or_raises_if_asked():
    env = YahtzeeEnv("yahtzee")
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.state
    _, reward, done, _, info = env.step(illegal)
    assert env.state is before and reward == 0.0 and not done and info == {"illegal_action": True}
    strict = YahtzeeEnv("yahtzee", illegal="raise")
    strict.reset(seed=0)
    with pytest.raises(InteropError, match="not a legal Yahtzee action id"):
        strict.step(illegal)


@pytest.mark.slow
@pytest.mark.parametrize("rules", ["yahtzee", "yatzy"])
def test_our_optimal_agent_through_the_env_scores_the_solver_expected_value(rules):
    from stratagem.games.yahtzee.solver import solve
    from stratagem.games.yahtzee.strategies import OptimalStrategy

    solution = solve(preset(rules))
    agent = OptimalStrategy(solution)
    env = YahtzeeEnv(rules)
    rng = np.random.default_rng(0)
    scores = []
    for game in range(400):
        obs, _ = env.reset(seed=game)
        total, done = 0.0, False
        while not done:
            action = env.codec.action_id(env.state, agent.act(env.state, rng))
            assert obs["action_mask"][action] == 1
            obs, reward, done, _, _ = env.step(action)
            total += float(reward)
        scores.append(total)
    summary = mean_ci(scores, 0.99)
    assert summary.lo <= solution.expected_score <= summary.hi
