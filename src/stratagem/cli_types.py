"""Ranges shared by the command line's numeric options.

Every numeric option states its range in its help and is checked before the
command starts: a value outside it is a usage error (exit status 2) that names
the option and the range. Whole numbers use typer's ``min``/``max``; real
numbers use :func:`finite`, which also refuses ``nan`` and ``inf`` (click's
own float range lets NaN through).

>>> finite(0.0, 10.0, low_open=True)("2.5")
2.5
"""

from __future__ import annotations

import math
from collections.abc import Callable

SEED_MAX = 2**63 - 1
"""Seeds are 0..2**63-1 (numpy takes any whole number >= 0; this keeps them in 64 bits)."""
GAMES_MAX = 10_000_000
"""Most games one command plays (memory and time stay bounded)."""
SECONDS_MAX = 3600.0
"""Longest time budget of one search, in seconds."""


def finite(low: float, high: float, *, low_open: bool = False) -> Callable[[str], float]:
    """A parser for a real option in ``low..high`` (``low`` excluded if ``low_open``)."""
    where = f"{'more than' if low_open else 'at least'} {low:g} and at most {high:g}"

    def parse(text: str | float) -> float:
        try:
            number = float(text)
        except ValueError:
            raise ValueError(f"{text!r} is not a number") from None
        if not math.isfinite(number):
            raise ValueError(f"{text!r} is not a finite number; give one {where}")
        if number < low or (low_open and number == low) or number > high:
            raise ValueError(f"{number:g} is out of range; give a number {where}")
        return number

    return parse
