"""Nim agents: the textbook strategy (leave a multiple of four)."""

from __future__ import annotations

import numpy as np

from stratagem.core.game import State, expect_state

from .state import NimState


class MultipleOfFour:
    """Takes stones so that a multiple of four is left, else one."""

    def act(self, state: State, rng: np.random.Generator) -> int:
        nim = expect_state(state, NimState, "the Nim player")
        take = nim.stones % 4
        return take if take else 1
