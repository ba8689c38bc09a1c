"""Agents that read the whole state refuse imperfect-information games (issue 33, Kuhn poker)."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.algorithms.mcts import MCTS
from stratagem.core.errors import ArenaError, InvalidStateError, StratagemError

pytest.importorskip("pyspiel")

from stratagem.core.arena import load_game
from stratagem.interop.openspiel import SpielState, spiel_state


def _kuhn_decision(my_card: int, their_card: int) -> SpielState:
    """Player 0 to act, holding ``my_card`` (0 Jack, 1 Queen, 2 King) against ``their_card``."""
    state = spiel_state("kuhn_poker")
    return state.apply(my_card).apply(their_card)


@pytest.mark.parametrize("agent", ["mcts", "mcts:sims=2000", "openspiel-mcts:sims=100"])
def test_tree_searches_refuse_kuhn_poker_when_their_spec_is_read(agent: str) -> None:
    spec = load_game("openspiel:kuhn_poker")
    with pytest.raises(ArenaError, match="imperfect-information game"):
        spec.check_agent(agent, "default")
    with pytest.raises(ArenaError, match="imperfect-information game"):
        spec.make_agent("default", agent)


def test_mcts_refuses_a_hidden_card_position_it_is_handed_directly() -> None:
    """Held a Queen, MCTS bet 20/20 against the Jack and 0/20 against the King: it saw the card."""
    with pytest.raises(InvalidStateError, match="imperfect-information"):
        MCTS(simulations=200).search(_kuhn_decision(1, 0), np.random.default_rng(1))


def test_random_still_plays_kuhn_poker() -> None:
    spec = load_game("openspiel:kuhn_poker")
    agent = spec.make_agent("default", "random")
    choices = {agent.act(_kuhn_decision(1, 0), np.random.default_rng(s)) for s in range(20)}
    assert choices == {0, 1}


def test_perfect_information_games_are_still_searched() -> None:
    spec = load_game("openspiel:tic_tac_toe")
    agent = spec.make_agent("default", "mcts:sims=50")
    state = spiel_state("tic_tac_toe")
    assert state.perfect_information and agent.act(state, np.random.default_rng(1)) in range(9)


def test_openspiel_mcts_refuses_our_scrabble(word_list) -> None:  # type: ignore[no-untyped-def]
    from stratagem.interop.openspiel import GAME_CLASSES, OpenSpielMCTSAgent

    game = GAME_CLASSES["stratagem_scrabble"]({"lexicon": str(word_list)})
    with pytest.raises(StratagemError, match="perfect-information games only"):
        OpenSpielMCTSAgent(game, 10)
