"""Every adapter pickles: OpenSpiel games and states (as OpenSpiel's own Python games do), and
the PettingZoo and Gymnasium environments (issue 33)."""

from __future__ import annotations

import pickle
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="needs the interop extra")
pytest.importorskip("pettingzoo", reason="needs the interop extra")

from stratagem.interop import InteropError  # noqa: E402
from stratagem.interop.openspiel import GAME_CLASSES  # noqa: E402

NAMES = [
    "stratagem_pig(goal=20,catch_up_turn=true)",
    "stratagem_pig(goal=30,faces=8,bust_faces=1 8)",
    "stratagem_yahtzee(players=2,rules=yatzy)",
    "stratagem_scorefour",
]


def _played(game, moves: int, seed: int):  # type: ignore[no-untyped-def]
    rng, state = random.Random(seed), game.new_initial_state()
    for _ in range(moves):
        if state.is_terminal():
            break
        ids = [a for a, _ in state.chance_outcomes()] if state.is_chance_node() else None
        state.apply_action(rng.choice(ids or state.legal_actions()))
    return state


def test_every_game_class_lives_in_its_module() -> None:
    for cls in GAME_CLASSES.values():
        module = __import__(cls.__module__, fromlist=[cls.__name__])
        assert getattr(module, cls.__name__) is cls


@pytest.mark.parametrize("name", NAMES)
def test_games_and_states_pickle(name: str) -> None:
    game = pyspiel.load_game(name)
    again = pickle.loads(pickle.dumps(game))
    assert type(again) is type(game) and str(again) == str(game)
    state = _played(game, 12, seed=5)
    copy = pickle.loads(pickle.dumps(state))
    assert copy.history() == state.history() and str(copy) == str(state)
    assert copy.legal_actions() == state.legal_actions()


def test_scrabble_game_and_state_pickle_with_their_word_list(word_list) -> None:  # type: ignore[no-untyped-def]
    game = pyspiel.load_game("stratagem_scrabble", {"lexicon": str(word_list)})
    state = _played(game, 30, seed=2)
    copy = pickle.loads(pickle.dumps(state))
    assert str(copy) == str(state)
    assert copy.information_state_string(1) == state.information_state_string(1)


@pytest.mark.parametrize("name", [*NAMES[:1], "stratagem_scorefour"])
def test_information_state_tensor_raises_instead_of_returning_nothing(name: str) -> None:
    state = pyspiel.load_game(name).new_initial_state()
    with pytest.raises(InteropError, match="no information-state tensor"):
        state.information_state_tensor()


def test_environments_pickle_and_continue_alike(word_list) -> None:  # type: ignore[no-untyped-def]
    from stratagem.interop.gymnasium import YahtzeeEnv
    from stratagem.interop.pettingzoo import pig_env, scrabble_env, yahtzee_env

    for env in (pig_env(goal=20), yahtzee_env(), scrabble_env(lexicon=str(word_list))):
        env.reset(seed=3)
        copy = pickle.loads(pickle.dumps(env))
        for e in (env, copy):
            obs, *_ = e.last()
            e.step(int(np.flatnonzero(obs["action_mask"])[0]))
        assert np.array_equal(env.state(), copy.state())
    gym_env = YahtzeeEnv()
    gym_env.reset(seed=1)
    gym_copy = pickle.loads(pickle.dumps(gym_env))
    a = int(np.flatnonzero(gym_env.action_masks())[0])
    assert np.array_equal(gym_env.step(a)[0]["observation"], gym_copy.step(a)[0]["observation"])
