"""The contract can fail: toy games that break one rule each are caught by its checks.

A coin game (two players; a flip decides the winner) is kept correct in :class:`Coin`, and
each broken variant changes one thing: chance probabilities summing to 0.9, a mutable
state, ``apply`` changing the state it was given, returns before the end of a game of
wins, returns outside the declared range, a player to move with no legal actions, and an
action whose text does not read back.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np
import pytest

from stratagem.core.game import CHANCE, TERMINAL
from tests.contract.checks import Contract, Forms, Outcomes, random_game

WINS = Outcomes(0.0, 1.0, win=True)
PLAIN = Contract(Forms(read_action=lambda text, state: int(text)), WINS)


class CoinRules:
    """Player 0 calls heads (1) or tails (0), a coin is flipped; the caller wins on a match."""

    call: int | None
    flip: int | None
    num_players = 2

    @property
    def current_player(self) -> int:
        if self.call is None:
            return 0
        return CHANCE if self.flip is None else TERMINAL

    def legal_actions(self) -> list[int]:
        return [0, 1] if self.call is None else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)] if self.current_player == CHANCE else []

    def apply(self, action: int) -> CoinRules:
        field = "call" if self.call is None else "flip"
        return dataclasses.replace(self, **{field: action})  # type: ignore[type-var]

    def is_terminal(self) -> bool:
        return self.flip is not None

    def returns(self) -> tuple[float, ...]:
        if self.flip is None:
            return (0.0, 0.0)
        return (1.0, 0.0) if self.flip == self.call else (0.0, 1.0)


@dataclass(frozen=True)
class Coin(CoinRules):
    call: int | None = None
    flip: int | None = None


@dataclass(frozen=True)
class LightCoin(Coin):
    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.45), (1, 0.45)] if self.current_player == CHANCE else []


@dataclass(unsafe_hash=True)
class MutableCoin(CoinRules):
    """Not frozen: its fields can be reassigned (hashable all the same)."""

    call: int | None = None
    flip: int | None = None


class InPlaceCoin:
    """Frozen in appearance, but ``apply`` changes a list the states share."""

    num_players = 2

    def __init__(self, moves: list[int] | None = None) -> None:
        self.moves = [] if moves is None else moves

    def __eq__(self, other: object) -> bool:
        return isinstance(other, InPlaceCoin) and self.moves == other.moves

    def __hash__(self) -> int:
        return hash(tuple(self.moves))

    def __setattr__(self, name: str, value: object) -> None:
        if name in self.__dict__:
            raise AttributeError(name)
        object.__setattr__(self, name, value)

    @property
    def current_player(self) -> int:
        return [0, CHANCE, TERMINAL][min(len(self.moves), 2)]

    def legal_actions(self) -> list[int]:
        return [0, 1] if not self.moves else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 0.5), (1, 0.5)] if len(self.moves) == 1 else []

    def apply(self, action: int) -> InPlaceCoin:
        self.moves.append(action)
        return InPlaceCoin(self.moves)

    def is_terminal(self) -> bool:
        return len(self.moves) >= 2

    def returns(self) -> tuple[float, ...]:
        if len(self.moves) < 2:
            return (0.0, 0.0)
        return (1.0, 0.0) if self.moves[0] == self.moves[1] else (0.0, 1.0)


@dataclass(frozen=True)
class EarlyCoin(Coin):
    def returns(self) -> tuple[float, ...]:
        return (0.5, 0.5) if self.flip is None else super().returns()


@dataclass(frozen=True)
class BigCoin(Coin):
    def returns(self) -> tuple[float, ...]:
        return tuple(2 * v for v in super().returns())


@dataclass(frozen=True)
class StuckCoin(Coin):
    def legal_actions(self) -> list[int]:
        return []


def test_the_correct_coin_keeps_the_contract() -> None:
    for seed in range(8):
        final, steps = random_game(Coin(), PLAIN, np.random.default_rng(seed))
        assert final.is_terminal() and steps == 2


@pytest.mark.parametrize(
    ("start", "contract", "message"),
    [
        (LightCoin(), PLAIN, "sum to 0.9"),
        (MutableCoin(), PLAIN, "can be reassigned"),
        (InPlaceCoin(), PLAIN, "apply changed the state it was given"),
        (EarlyCoin(), PLAIN, "before the end of a game of wins"),
        (BigCoin(), PLAIN, r"outside 0.0..1.0"),
        (StuckCoin(), PLAIN, "without legal actions"),
        (Coin(), Contract(Forms(read_action=lambda text, s: 1 - int(text)), WINS), "reads back"),
        (Coin(), Contract(Forms(action_text=lambda a: "call"), WINS), "the same text"),
    ],
    ids=["probabilities-0.9", "mutable", "apply-in-place", "early-returns", "out-of-range",
         "no-actions", "text-misread", "text-ambiguous"],
)  # fmt: skip
def test_a_broken_game_fails_the_contract(start: object, contract: Contract, message: str) -> None:
    with pytest.raises(AssertionError, match=message):
        for seed in range(8):  # every seed's game meets every state of the coin
            random_game(start, contract, np.random.default_rng(seed))  # type: ignore[arg-type]
