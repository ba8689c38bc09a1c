"""Pig's compiled game interface, for the compiled MCTS.

A :class:`PigState` becomes an int64 array (scores, player, turn total, a
pending roll, the catch-up target, the winner, the turn and roll counters,
and the rules: goal, faces, bust faces, the two options), and the moves of
``PigState.apply`` run over it in numba (:mod:`stratagem.games.pig._kernels`).
Action codes are the values of :class:`PigAction` (0 roll, 1 hold); a roll's
outcome is its face, keyed 0..faces-1. Rollout policies are those of
:mod:`stratagem.games.pig.rollout` (``random``, ``holdN``).

>>> from stratagem.algorithms.mcts import MCTS
>>> from stratagem.games.pig.rules import preset
>>> rules = preset("pig")
>>> state = PigState(rules, scores=(85, 90), turn_total=6)
>>> agent = MCTS(c=2.0, simulations=2000, seed=1, fast=fast_game(rules))
>>> advice = agent.advise(state)
>>> sum(a.n for a in advice), str(advice[0].action)
(2000, 'roll')
>>> decode(encode(state), rules) == state
True
"""

from __future__ import annotations

import functools

import numpy as np

from stratagem.algorithms.mcts_compiled import FastGame
from stratagem.core.errors import InvalidStateError
from stratagem.core.game import Action, State
from stratagem.games.pig import _kernels as K
from stratagem.games.pig.rollout import parse_policy
from stratagem.games.pig.rules import MAX_FACES, PigRules
from stratagem.games.pig.state import PigAction, PigState

__all__ = ["decode", "encode", "fast_game"]

_BUST_WORDS = 2
assert MAX_FACES < 64 * _BUST_WORDS  # every face has a bit in the bust mask


def _int64(bits: int) -> int:
    """A 64-bit pattern as the signed value numpy stores."""
    return bits - (1 << 64) if bits >= 1 << 63 else bits


@functools.lru_cache(maxsize=64)
def _rules_words(rules: PigRules) -> tuple[int, ...]:
    mask = 0
    for face in rules.bust_faces:
        mask |= 1 << face
    words = [_int64((mask >> (64 * i)) & ((1 << 64) - 1)) for i in range(_BUST_WORDS)]
    return (rules.goal, rules.faces, *words, int(rules.bust_scores_one), int(rules.catch_up_turn))


def encode(state: PigState) -> np.ndarray:
    """The state as ``K.FAST_SIZE`` int64s (rules included)."""
    s = np.empty(K.FAST_SIZE, dtype=np.int64)
    s[K.FAST_SCORE0] = state.scores[0]
    s[K.FAST_SCORE1] = state.scores[1]
    s[K.FAST_PLAYER] = state.player
    s[K.FAST_TURN] = state.turn_total
    s[K.FAST_ROLLING] = int(state.rolling)
    s[K.FAST_TARGET] = -1 if state.target is None else state.target
    s[K.FAST_WINNER] = -1 if state.winner is None else state.winner
    s[K.FAST_TURNS] = state.turns
    s[K.FAST_ROLLS] = state.rolls
    s[K.FAST_GOAL :] = _rules_words(state.rules)
    return s


def decode(s: np.ndarray, rules: PigRules) -> PigState:
    """The :class:`PigState` of ``rules`` that ``s`` encodes.

    Raises :class:`InvalidStateError` when ``s`` is no encoded state of these rules.
    """
    if s.shape != (K.FAST_SIZE,) or tuple(int(x) for x in s[K.FAST_GOAL :]) != _rules_words(rules):
        raise InvalidStateError(f"the array {s.tolist()} encodes no state of {rules.describe()}")
    target, winner = int(s[K.FAST_TARGET]), int(s[K.FAST_WINNER])
    return PigState(
        rules,
        scores=(int(s[K.FAST_SCORE0]), int(s[K.FAST_SCORE1])),
        player=int(s[K.FAST_PLAYER]),
        turn_total=int(s[K.FAST_TURN]),
        rolling=bool(s[K.FAST_ROLLING]),
        target=None if target < 0 else target,
        winner=None if winner < 0 else winner,
        turns=int(s[K.FAST_TURNS]),
        rolls=int(s[K.FAST_ROLLS]),
    )


def _policy(name: str) -> np.ndarray:
    return np.array(parse_policy(name), dtype=np.int64)


def _decode_action(state: State, code: int) -> Action:
    return PigAction(code)


@functools.lru_cache(maxsize=32)
def fast_game(rules: PigRules) -> FastGame:
    """The compiled interface for Pig states with at most ``rules.faces`` faces.

    It encodes any :class:`PigState` whose die has no more faces than
    ``rules``' (the rules travel in the array); other states are left to the
    Python search.
    """
    faces = rules.faces

    def encode_any(state: State) -> np.ndarray | None:
        if not isinstance(state, PigState) or state.rules.faces > faces:
            return None
        return encode(state)

    return FastGame.from_kernels(
        "pig",
        K,
        state_size=K.FAST_SIZE,
        max_actions=2,
        max_outcomes=faces,
        num_players=2,
        encode=encode_any,
        decode_action=_decode_action,
        policy=_policy,
    )
