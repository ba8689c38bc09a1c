"""Every registered game (and the recipe's Nim) keeps the state protocol: random games to the
end with every check on every state (tests/contract/checks.py), as OpenSpiel's random
simulation test runs over all its games."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.errors import StratagemError
from tests.contract.checks import random_game
from tests.contract.games import GAMES, contract, contract_rules, registered

CASES = [
    pytest.param(name, label, make, id=f"{name}-{label}")
    for name in GAMES
    for label, make in contract_rules(name)
]


@pytest.mark.parametrize(("name", "label", "make"), CASES)
def test_random_games_keep_the_contract(name: str, label: str, make) -> None:  # type: ignore[no-untyped-def]
    with registered(name) as game:
        rules = make(game)
        terms = contract(name, rules)
        for seed, players in enumerate(sorted({game.min_players, game.max_players, 2})):
            if not game.min_players <= players <= game.max_players:
                continue
            state = game.new_state(rules, players)
            final, steps = random_game(state, terms, np.random.default_rng(seed))
            assert final.is_terminal() and steps > 0


@pytest.mark.parametrize("name", GAMES)
def test_a_game_refuses_players_outside_its_range(name: str) -> None:
    with registered(name) as game:
        for players in (game.min_players - 1, game.max_players + 1):
            with pytest.raises(StratagemError, match="players"):
                game.new_state(game.default_rules, players)
