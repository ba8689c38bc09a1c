"""Nim for the adapters (the "add a game" recipe, step 3): integer ids and observations.

Action ``n - 1`` takes ``n`` stones; chance ``0`` adds no stone, ``1`` one stone.
Observation (3 values, from ``observer``'s side): the stones left, 1 if it is
``observer``'s move, 1 while the die is to be rolled.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from stratagem.core.game import Action
from stratagem.core.registry import GameSpec
from stratagem.interop.codecs import Codec, CodecSource

from .state import NimState


@dataclass
class NimCodec(Codec[NimState]):
    stones: int
    name: str = "nim"
    num_players: int = 2
    num_actions: int = 3
    num_chance_outcomes: int = 2
    observation_size: int = 3
    max_length: int = 1 << 30  # a roll may add a stone before every move: no bound

    def __post_init__(self) -> None:
        self.observation_low = np.zeros(3, dtype=np.float32)
        self.observation_high = np.array([np.inf, 1, 1], dtype=np.float32)

    def new_state(self) -> NimState:
        return NimState.new(self.stones)

    def legal_ids(self, state: NimState) -> list[int]:
        return [n - 1 for n in state.legal_actions()]

    def decode(self, state: NimState, action_id: int) -> int:
        return action_id + 1

    def action_id(self, state: NimState, action: Action) -> int:
        return int(action) - 1  # type: ignore[call-overload]

    def chance_ids(self, state: NimState, pending: tuple[int, ...]) -> list[tuple[int, float]]:
        return state.chance_outcomes()

    def apply_chance(
        self, state: NimState, pending: tuple[int, ...], chance_id: int
    ) -> tuple[NimState, tuple[int, ...]]:
        return state.apply(chance_id), ()

    def chance_text(self, state: NimState, chance_id: int) -> str:
        return "a stone added" if chance_id else "no stone added"

    def observe(self, state: NimState, observer: int, out: np.ndarray) -> None:
        out[0] = state.stones
        out[1] = state.player == observer and not state.rolling and state.winner is None
        out[2] = state.rolling


def _make(game: GameSpec, rules: str, players: int, options: Mapping[str, Any]) -> NimCodec:
    return NimCodec(game.rules_object(rules))


NIM = CodecSource(_make)
