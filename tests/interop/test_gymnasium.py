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
    check_env(gymnasium.make(ENV_ID, rules=rules, render_mode="rgb_array").unwrapped)


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


# --- as the frameworks' users use it (issue 33) ---------------------------------------------


def test_make_vec_env_defaults_work_rgb_array_is_a_picture():
    """Stable-Baselines3's make_vec_env calls gymnasium.make(id, render_mode="rgb_array")
    and falls back only on a TypeError; the mode is now supported, and draws the dice."""
    env = gymnasium.make(ENV_ID, render_mode="rgb_array")
    env.reset(seed=1)
    image = env.render()
    assert image.dtype == np.uint8 and image.ndim == 3 and image.shape[2] == 3
    assert len(np.unique(image.reshape(-1, 3), axis=0)) > 2  # more than a blank page
    env.step(int(np.flatnonzero(env.unwrapped.action_masks())[0]))
    assert not np.array_equal(env.render(), image)  # the dice changed


def test_an_unknown_render_mode_is_a_type_error():
    from stratagem.interop.gymnasium import RenderModeError

    with pytest.raises(TypeError, match="render_mode must be"):
        YahtzeeEnv(render_mode="video")
    assert issubclass(RenderModeError, InteropError)


def test_human_mode_prints_the_position_without_a_display(capsys):
    env = YahtzeeEnv("yatzy", render_mode="human")
    env.reset(seed=2)
    env.step(int(np.flatnonzero(env.action_masks())[0]))
    assert "rolls left" in capsys.readouterr().out


def test_a_constant_illegal_policy_is_truncated_by_the_registered_step_limit():
    env = gymnasium.make(ENV_ID)
    assert env.spec.max_episode_steps == 200
    obs, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    steps, terminated, truncated = 0, False, False
    while not (terminated or truncated) and steps < 10_000:
        obs, _, terminated, truncated, _ = env.step(illegal)
        steps += 1
    assert truncated and steps == 200


def test_illegal_actions_raise_gymnasiums_error_or_end_the_episode():
    strict = YahtzeeEnv("yahtzee", illegal="raise")
    obs, _ = strict.reset(seed=0)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(gymnasium.error.InvalidAction, match="not a legal Yahtzee action id"):
        strict.step(illegal)
    ending = YahtzeeEnv("yahtzee", illegal="end")
    ending.reset(seed=0)
    _, reward, terminated, truncated, info = ending.step(illegal)
    assert terminated and not truncated and reward == 0.0 and info["illegal_action"]


def test_gym_make_needs_no_import_of_stratagem(tmp_path):
    """Gymnasium 1.x imports the module named before the id; 0.26-0.29 run the entry point."""
    import subprocess
    import sys

    code = (
        "import gymnasium, sys\n"
        "assert 'stratagem' not in sys.modules\n"
        "ids = ['stratagem/Yahtzee-v0'] if hasattr(gymnasium.envs.registration, "
        "'load_plugin_envs') else []\n"
        "ids.append('stratagem.interop.gymnasium:stratagem/Yahtzee-v0')\n"
        "for i in ids:\n"
        "    env = gymnasium.make(i, rules='yatzy')\n"
        "    print(env.spec.max_episode_steps, env.unwrapped.rules.name)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines()[-1] == "200 yatzy"


def test_the_entry_point_is_declared_and_registers_the_env():
    import tomllib
    from importlib import import_module
    from pathlib import Path

    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    points = tomllib.loads(pyproject.read_text())["project"]["entry-points"]["gymnasium.envs"]
    module, _, function = points["__root__"].partition(":")
    register = getattr(import_module(module), function)
    gymnasium.registry.pop(ENV_ID, None)
    register()
    assert gymnasium.spec(ENV_ID).max_episode_steps == 200
