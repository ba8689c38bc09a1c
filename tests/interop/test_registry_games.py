"""The adapters offer every game of the registry whose spec names a codec, and no list of
their own."""

from __future__ import annotations

import pytest

pytest.importorskip("pyspiel", reason="needs the interop extra (pip install 'stratagem[interop]')")
pytest.importorskip("pettingzoo", reason="needs the interop extra")

from stratagem.core.registry import available_games, load_game
from stratagem.interop import InteropError
from stratagem.interop.codecs import adapted_games, codec
from stratagem.interop.openspiel import GAME_CLASSES
from stratagem.interop.pettingzoo import env


def test_openspiel_registers_every_game_with_a_codec() -> None:
    with_codec = {g for g in available_games() if load_game(g).codec is not None}
    assert {"pig", "scorefour", "scrabble", "yahtzee"} <= with_codec
    assert set(adapted_games()) == with_codec
    assert set(GAME_CLASSES) == {f"stratagem_{g}" for g in with_codec}
    for short_name, cls in GAME_CLASSES.items():  # pickle finds each class by its name
        import stratagem.interop.openspiel as module

        assert getattr(module, cls.__name__) is cls and cls.short_name == short_name


def test_the_openspiel_game_takes_its_facts_from_the_spec() -> None:
    import pyspiel

    scrabble = pyspiel.load_game("stratagem_scrabble").get_type()
    assert scrabble.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
    assert (scrabble.min_num_players, scrabble.max_num_players) == (2, 4)
    four = pyspiel.load_game("stratagem_scorefour").get_type()
    assert four.chance_mode == pyspiel.GameType.ChanceMode.DETERMINISTIC
    assert four.utility == pyspiel.GameType.Utility.ZERO_SUM


def test_pettingzoo_makes_any_adapted_game_by_name() -> None:
    made = env("pig", "pig:goal=20")
    assert made.codec.rules.goal == 20 and made.possible_agents == ["player_0", "player_1"]
    assert env("yahtzee", "yatzy", players=3).codec.num_players == 3


def test_a_game_or_option_the_adapters_do_not_know_is_named() -> None:
    with pytest.raises(InteropError, match="unknown game 'chess'"):
        codec("chess")
    with pytest.raises(InteropError, match=r"Yahtzee takes no options besides rules and players"):
        codec("yahtzee", "yahtzee", colour="red")
    with pytest.raises(InteropError, match=r"takes the options lexicon; got \['goal'\]"):
        codec("scrabble", goal=3)
