"""Compiled Pig playouts for Monte Carlo tree search.

:func:`rollout` plays a game to the end from any :class:`PigState` (at a
decision or at a pending roll, catch-up turn included) in numba and returns
both players' final values (1 for the winner, 0 for the loser), the same as
``state.returns()`` at the end of a pure-Python playout with the same policy.

Policies:

* ``random``: roll or hold with equal chance whenever holding is legal (a turn
  starts with a compulsory roll); the protocol's uniform random playout.
* ``hold20`` (or ``hold:20``, any N >= 1): hold at turn total N or on reaching
  the goal, and always roll on a last catch-up turn, as ``hold:N`` in
  :mod:`stratagem.games.pig.strategies` plays.

>>> import numpy as np
>>> from stratagem.games.pig.rules import preset
>>> from stratagem.games.pig.state import PigState
>>> start = PigState.new(preset("pig"))
>>> rollout(start, "hold20", np.random.default_rng(1)) in ((1.0, 0.0), (0.0, 1.0))
True
"""

from __future__ import annotations

import re

import numpy as np

from stratagem.core.errors import InvalidRulesError, InvalidStateError
from stratagem.core.game import State
from stratagem.games.pig import _kernels as K
from stratagem.games.pig.state import PigState

__all__ = ["POLICIES", "parse_policy", "rollout"]

POLICIES = ("random", "holdN")
"""The playout policies :func:`rollout` knows (``holdN`` for any N >= 1, e.g. ``hold20``)."""

_HOLD = re.compile(r"hold:?(\d+)")

_RESULTS = ((1.0, 0.0), (0.0, 1.0))


def parse_policy(policy: str) -> tuple[int, int]:
    """``(kernel policy code, hold threshold)`` for a policy name.

    >>> parse_policy("random"), parse_policy("hold:25")
    ((0, 0), (1, 25))
    """
    parsed = _POLICY_CACHE.get(policy)
    if parsed is not None:
        return parsed
    if policy == "random":
        parsed = (K.ROLLOUT_RANDOM, 0)
    else:
        match = _HOLD.fullmatch(policy)
        if match is None or int(match.group(1)) < 1:
            raise InvalidRulesError(
                f"unknown Pig rollout policy {policy!r}; use 'random' or 'holdN' (N >= 1, "
                "e.g. 'hold20')"
            )
        parsed = (K.ROLLOUT_HOLD, int(match.group(1)))
    _POLICY_CACHE[policy] = parsed
    return parsed


_POLICY_CACHE: dict[str, tuple[int, int]] = {}


def rollout(state: State, policy: str, rng: np.random.Generator) -> tuple[float, ...]:
    """Final values ``(p0, p1)`` of one compiled playout of ``policy`` from ``state``.

    One 64-bit seed is drawn from ``rng`` per call, so a seeded generator
    gives the same playouts. A terminal state returns its own values. The
    playout is the compiled game's (``fast_rollout`` over the encoded state),
    the one MCTS's compiled search also uses.
    """
    from stratagem.games.pig.fast import encode  # fast imports this module

    if not isinstance(state, PigState):
        raise InvalidStateError(f"the Pig rollout needs a PigState, not {type(state).__name__}")
    if state.winner is not None:
        return _RESULTS[state.winner]
    code, hold_at = parse_policy(policy)
    # 63 bits, as the seed of the shared SplitMix64 stream
    stream = np.array([rng.bit_generator.random_raw() >> 1], dtype=np.uint64)
    returns = np.empty(2)
    K.fast_rollout(encode(state), stream, np.array([code, hold_at], dtype=np.int64), returns)
    return (float(returns[0]), float(returns[1]))
