"""Score Four's compiled game interface, for the compiled MCTS.

A :class:`ScoreFourState` becomes three int64s (each side's 64-bit bead mask,
its bits read as a signed number, and the result: ``-1`` in play, the winner
0 or 1, or 2 for a draw); the side to move is the number of beads mod 2. The
moves of ``ScoreFourState.apply`` run over it in numba
(:mod:`stratagem.games.scorefour._kernels`, the same ``wins_at`` as the
alpha-beta). An action code is the peg, 0..15, as in the protocol. Score Four
has no chance node, so the search never calls the interface's ``sample`` and
``outcome_index`` (they exist for its signature; ``max_outcomes`` is 1).

Rollout policies (:data:`POLICIES`):

* ``random``: a uniformly random open peg, the protocol's random playout;
* ``tactical``: win at once if a peg does it, else take the cell where the
  opponent would win at once, else a random peg.

>>> from stratagem.algorithms.mcts import MCTS
>>> state = ScoreFourState.from_string("xxx.oo.........." + "/" + "o" + "." * 15)
>>> advice = MCTS(simulations=500, seed=1, fast=fast_game()).advise(state)
>>> str(advice[0].action), advice[0].value
('3', 1.0)
>>> decode(encode(state)) == state
True
"""

from __future__ import annotations

import functools

import numpy as np

from stratagem.algorithms.mcts_compiled import FastGame
from stratagem.core.errors import InvalidRulesError, InvalidStateError
from stratagem.core.game import Action, State
from stratagem.games.scorefour import _kernels as K
from stratagem.games.scorefour.state import DRAW, RULES, ScoreFourState

__all__ = ["POLICIES", "decode", "encode", "fast_game", "policy", "rollout"]

POLICIES = ("random", "tactical")
"""The playout policies of the compiled rollout."""

_IN_PLAY, _DRAW, _SIZE = K.FAST_IN_PLAY, K.FAST_DRAW, K.FAST_SIZE
_MASK = (1 << 64) - 1


def _int64(bits: int) -> int:
    """A 64-bit pattern as the signed value numpy stores."""
    return bits - (1 << 64) if bits >= 1 << 63 else bits


def encode(state: ScoreFourState) -> np.ndarray:
    """The state as three int64s: X's beads, O's beads, the result."""
    winner = state.winner
    code = _IN_PLAY if winner is None else _DRAW if winner == DRAW else winner
    return np.array([_int64(state.beads[0]), _int64(state.beads[1]), code], dtype=np.int64)


def decode(s: np.ndarray) -> ScoreFourState:
    """The :class:`ScoreFourState` that ``s`` encodes.

    Raises :class:`InvalidStateError` when ``s`` encodes no position: the
    wrong shape, beads on one cell twice, or a result that does not fit the
    beads (the rest is :meth:`ScoreFourState.from_string`'s check).
    """
    if s.shape != (_SIZE,):
        raise InvalidStateError(f"an encoded Score Four state is {_SIZE} int64s, got {s.shape}")
    x, o, code = int(s[0]) & _MASK, int(s[1]) & _MASK, int(s[2])
    if x & o or code not in (_IN_PLAY, 0, 1, _DRAW):
        raise InvalidStateError(f"the array {s.tolist()} encodes no Score Four state")
    text = "/".join(
        "".join(
            "x" if x >> (z * 16 + p) & 1 else "o" if o >> (z * 16 + p) & 1 else "."
            for p in range(16)
        )
        for z in range(4)
    )
    state = ScoreFourState.from_string(text)
    if state.winner != (None if code == _IN_PLAY else DRAW if code == _DRAW else code):
        raise InvalidStateError(f"the array {s.tolist()} encodes no Score Four state")
    return state


def policy(name: str) -> np.ndarray:
    """The compiled rollout's policy array of a policy name (:data:`POLICIES`)."""
    if name == "random":
        return np.array([K.ROLLOUT_RANDOM], dtype=np.int64)
    if name == "tactical":
        return np.array([K.ROLLOUT_TACTICAL], dtype=np.int64)
    raise InvalidRulesError(
        f"unknown Score Four rollout policy {name!r}; use one of {', '.join(POLICIES)}"
    )


def rollout(state: State, policy_name: str, rng: np.random.Generator) -> tuple[float, ...]:
    """Final returns ``(x, o)`` of one compiled playout of ``policy_name`` from ``state``.

    One 64-bit seed is drawn from ``rng`` per call, so a seeded generator
    gives the same playouts; a finished game returns its own values. This is
    the playout of the compiled search, for the Python tree (``rollout_fn``).
    """
    if not isinstance(state, ScoreFourState):
        raise InvalidStateError(f"a Score Four rollout needs a Score Four state, got {state!r}")
    stream = np.array([rng.bit_generator.random_raw()], dtype=np.uint64)
    out = np.empty(2, dtype=np.float64)
    K.fast_rollout(encode(state), stream, policy(policy_name), out)
    return float(out[0]), float(out[1])


def _encode_any(state: State) -> np.ndarray | None:
    return encode(state) if isinstance(state, ScoreFourState) else None


def _decode_action(state: State, code: int) -> Action:
    return int(code)


def fast_game(rules: str = RULES) -> FastGame:
    """The compiled interface for Score Four states (others are left to the Python search)."""
    ScoreFourState.new(rules)  # the one rule set, or a named error
    return _fast_game()


@functools.cache
def _fast_game() -> FastGame:
    return FastGame.from_kernels(
        "scorefour",
        K,
        state_size=_SIZE,
        max_actions=16,
        max_outcomes=1,
        num_players=2,
        encode=_encode_any,
        decode_action=_decode_action,
        policy=policy,
    )
