"""PettingZoo AEC environments: the framework's API and seed tests, masks, rewards."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip(
    "pettingzoo", reason="needs the interop extra: pip install 'stratagem[interop]'"
)
from pettingzoo.test import api_test, seed_test

from stratagem.interop import InteropError
from stratagem.interop.pettingzoo import (
    pig_env,
    scorefour_env,
    scrabble_env,
    yahtzee_env,
)

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")  # PettingZoo's advice on dicts


@pytest.mark.parametrize(
    "make",
    [lambda: pig_env(goal=30), lambda: pig_env("pig-raab", catch_up_turn=True), scorefour_env,
     yahtzee_env, lambda: yahtzee_env("yatzy", players=4)],
    ids=["pig", "pig-catch-up", "scorefour", "yahtzee", "yatzy-4"],
)  # fmt: skip
def test_pettingzoo_api_and_seed_tests_pass(make):
    api_test(make(), num_cycles=200)
    seed_test(make, num_cycles=50)


def test_scrabble_passes_the_api_and_seed_tests(word_list):
    def make():
        return scrabble_env(lexicon=str(word_list))

    api_test(make(), num_cycles=60)
    seed_test(make, num_cycles=20)


def _episode(env, seed: int) -> tuple[list[int], dict[str, float]]:
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    actions, totals = [], dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        totals[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        action = int(rng.choice(legal))
        actions.append(action)
        env.step(action)
    return actions, totals


def test_the_seed_decides_the_dice():
    env = yahtzee_env(players=2)
    first, _ = _episode(env, 5)
    again, _ = _episode(env, 5)
    other, _ = _episode(env, 6)
    assert first == again and first != other


def test_yahtzee_rewards_add_up_to_the_final_scores():
    env = yahtzee_env(players=2)
    _, totals = _episode(env, 1)
    assert [totals[a] for a in env.possible_agents] == list(env.position.returns())


def test_pig_pays_plus_one_to_the_winner_and_minus_one_to_the_loser():
    env = pig_env(goal=20)
    _, totals = _episode(env, 2)
    winner = env.position.winner
    assert totals[f"player_{winner}"] == 1.0 and totals[f"player_{1 - winner}"] == -1.0


def test_only_the_agent_to_move_sees_legal_actions_and_an_illegal_one_is_refused():
    env = scorefour_env()
    env.reset(seed=0)
    assert env.observe("player_0")["action_mask"].sum() == 16
    assert env.observe("player_1")["action_mask"].sum() == 0
    env2 = pig_env()
    env2.reset(seed=0)
    with pytest.raises(InteropError, match="legal ids are: 0"):
        env2.step(1)  # hold at turn total 0


@pytest.mark.slow
def test_scrabble_on_the_built_in_lexicon_passes_the_api_test():
    api_test(scrabble_env(players=3), num_cycles=300)


# --- render modes and the global state (issue 33) -------------------------------------------


def _first_move(env):
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"])[0]))


def test_ansi_returns_the_text_and_prints_nothing(capsys):
    env = scorefour_env(render_mode="ansi")
    env.reset(seed=1)
    _first_move(env)
    assert capsys.readouterr().out == ""
    assert env.render() == env.codec.key(env.position)


def test_human_mode_shows_every_step(capsys):
    env = pig_env(goal=20, render_mode="human")
    env.reset(seed=1)
    _first_move(env)
    _first_move(env)
    assert capsys.readouterr().out.count("turn total") == 2  # no display: the text


@pytest.mark.parametrize("make", [lambda: pig_env(goal=20), scorefour_env, yahtzee_env])
def test_rgb_array_is_a_picture_of_the_position(make):
    env = make()
    env.render_mode = "rgb_array"
    env.reset(seed=2)
    before = env.render()
    assert before.dtype == np.uint8 and before.shape[2] == 3
    _first_move(env)
    _first_move(env)
    assert not np.array_equal(before, env.render())


def test_state_is_pettingzoos_global_view_not_our_position():
    env = yahtzee_env(players=3)
    env.reset(seed=5)
    state = env.state()
    assert callable(env.state) and env.state_space.contains(state)
    n = env.codec.observation_size
    assert np.array_equal(state[n : 2 * n], env.codec.observation(env.position, 1))


@pytest.mark.parametrize(
    "make",
    [scorefour_env, lambda render_mode=None: pig_env(goal=20, render_mode=render_mode),
     yahtzee_env],
    ids=["scorefour", "pig", "yahtzee"],
)  # fmt: skip
def test_pettingzoos_render_test_passes_for_every_mode(make):
    from pettingzoo.test import render_test

    render_test(make)


@pytest.mark.slow
@pytest.mark.parametrize(
    "make",
    [lambda: pig_env(goal=30), scorefour_env, lambda: yahtzee_env("yatzy", players=2)],
    ids=["pig", "scorefour", "yatzy-2"],
)
def test_a_thousand_random_games_end_without_an_error(make):
    env = make()
    for seed in range(1000):
        _, totals = _episode(env, seed)
        assert env.position.is_terminal() and set(totals) == set(env.possible_agents)
