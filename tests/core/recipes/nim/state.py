"""Nim with a die: players take 1-3 stones in turn, the one who takes the last wins;
before each move a die roll may add a stone (chance), so the game has chance nodes."""

from __future__ import annotations

from dataclasses import dataclass

from stratagem.core.errors import IllegalActionError, InvalidRulesError, InvalidStateError
from stratagem.core.game import CHANCE, TERMINAL

PRESETS = {"nim-7": 7, "nim-12": 12}


@dataclass(frozen=True)
class NimState:
    stones: int
    player: int = 0
    rolling: bool = True
    winner: int | None = None
    rolls: int = 0
    """The die's rolls so far: the slot of the next one (see :meth:`chance_key`)."""

    @classmethod
    def new(cls, rules: int, players: int = 2) -> NimState:
        if not isinstance(rules, int) or rules < 1:
            raise InvalidRulesError(f"Nim needs at least one stone, got {rules!r}")
        if players != 2:
            raise InvalidStateError(f"Nim takes 2 players, got {players}")
        return cls(rules)

    @property
    def num_players(self) -> int:
        return 2

    @property
    def current_player(self) -> int:
        if self.winner is not None:
            return TERMINAL
        return CHANCE if self.rolling else self.player

    def legal_actions(self) -> list[int]:
        if self.rolling or self.winner is not None:
            return []
        return [n for n in (1, 2, 3) if n <= self.stones]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 5 / 6), (1, 1 / 6)] if self.rolling else []

    def chance_key(self) -> tuple[int, ...]:
        # One slot per roll of the game, so a deal gives both seatings the same die. Not
        # the position: stones come back (a six adds one, a player takes one), and a die
        # keyed by (stones, player) rolled the same six there again, forever.
        return (self.rolls,)

    def apply(self, action: int) -> NimState:
        if self.rolling:
            return NimState(self.stones + action, self.player, False, rolls=self.rolls + 1)
        if action not in self.legal_actions():
            raise IllegalActionError(f"take 1-3 stones of {self.stones}, not {action!r}")
        left = self.stones - action
        if left == 0:
            return NimState(0, self.player, False, winner=self.player, rolls=self.rolls)
        return NimState(left, 1 - self.player, True, rolls=self.rolls)

    def is_terminal(self) -> bool:
        return self.winner is not None

    def returns(self) -> tuple[float, ...]:
        if self.winner is None:
            return (0.0, 0.0)
        return (1.0, 0.0) if self.winner == 0 else (0.0, 1.0)
