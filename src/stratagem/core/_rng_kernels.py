"""SplitMix64 for compiled code: the one random-number generator the numba kernels share.

A stream's state is one ``uint64`` word kept in an array, so a kernel can
carry one stream per game and seat (``rng[g, seat]``) or one per call
(``rng[0]``), and the caller seeds it from its own ``numpy`` generator.
Seeding numba's Mersenne Twister would cost more than a whole Pig playout.
SplitMix64 is Steele, Lea & Flood's generator (OOPSLA 2014), as in Java's
``SplittableRandom``.

>>> import numpy as np
>>> rng = np.zeros(1, dtype=np.uint64)
>>> [int(below(rng, 6)) for _ in range(5)]
[5, 2, 0, 5, 0]
"""

from __future__ import annotations

from typing import Any

import numpy as np
from numba import njit

__all__ = ["below", "below_at", "next_u64"]

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_MUL1 = np.uint64(0xBF58476D1CE4E5B9)
_MUL2 = np.uint64(0x94D049BB133111EB)
_U30 = np.uint64(30)
_U27 = np.uint64(27)
_U31 = np.uint64(31)
_U32 = np.uint64(32)


@njit(cache=True)
def next_u64(rng: Any, i: Any) -> Any:
    """The next 64 random bits of the stream in ``rng[i]`` (which advances)."""
    s = rng[i] + _GAMMA
    rng[i] = s
    z = (s ^ (s >> _U30)) * _MUL1
    z = (z ^ (z >> _U27)) * _MUL2
    return z ^ (z >> _U31)


@njit(cache=True)
def below_at(rng: Any, i: Any, n: Any) -> Any:
    """A uniform int in 0..n-1 (n < 2**32) from the stream in ``rng[i]``."""
    return np.int64(((next_u64(rng, i) >> _U32) * np.uint64(n)) >> _U32)


@njit(cache=True)
def below(rng: Any, n: Any) -> Any:
    """A uniform int in 0..n-1 (n < 2**32) from the stream in ``rng[0]``."""
    return below_at(rng, 0, n)
