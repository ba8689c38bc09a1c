"""What a Pig computation will cost, known before it starts: time and memory.

A Pig variant may have up to 400**3 / 2 states and a 100-faced die, and the
catch-up turn adds, for every score pair, the starter's values past the goal
(``2 * goal + 50 * faces`` of them). Solving the largest variants would take
hours, and deriving rules of thumb for them gigabytes, so every command asks
here first: the estimate comes from the state count, the faces that add, and
per-operation costs measured on a two-core machine (below), and work that would
take longer than :data:`MAX_SECONDS` or need more memory than the machine has
free is refused with the estimate, before anything runs.

The estimates are meant to be right within a factor of about two or three on an
idle machine (a busy one is slower; the progress shown while the work runs
gives the time left as measured).

>>> from stratagem.games.pig.rules import preset
>>> solve_cost(preset("pig")).seconds < 5
True
>>> rules = preset("pig").with_options(goal=400, faces=100, catch_up_turn=True)
>>> solve_cost(rules).seconds > 30 * 60, thumb_cost(rules, max_rows=1).seconds > MAX_SECONDS
(True, True)
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from stratagem.core.errors import StratagemError
from stratagem.games.pig.rules import PigRules

MAX_SECONDS = 3600.0
"""Longest estimated run any command starts: an hour."""

SOLVE_NS_PER_OP = 4.0
"""Nanoseconds per (state, adding face, sweep) of value iteration, and per (score pair,
total past the goal, adding face, sweep) of the catch-up starter's values. Measured on
the project's two-core machine: goal 60 with a d100 and the catch-up turn, 14.5e9
operations in 54 s (3.7 ns); goal 150 with a d20 and the catch-up turn, 5.1e9 in 12.7 s
(2.5 ns)."""

SWEEPS_PER_PAIR = 8.0
"""Sweeps value iteration makes per score pair on average (optimal play), measured:
7.8 (goal 60, d100, catch-up turn), 8.2 (goal 100, d6; goal 150, d20, catch-up)."""

DUEL_NS_PER_OP = 3.5
"""Nanoseconds per (state, adding face) of one exact evaluation of two fixed policies
(:func:`~stratagem.games.pig._thumb_kernels.duel_policies`); also the search's unit.
Measured: ``pig rules --goal 400 --max-rows 1``, 1.1e11 operations in 223 s (2 ns),
with margin for a loaded machine."""

EVALUATIONS_PER_ROW = 1200
"""Exact evaluations the rules-of-thumb search makes for each row past the first,
measured at goal 100 (2,391 evaluations for 3 rows)."""

FIXED_SECONDS = 1.0
"""Start-up of a compiled kernel (loading it from numba's cache), whatever the size."""


@dataclass(frozen=True)
class Cost:
    """An estimate: seconds on an idle two-core machine, and bytes of memory at the peak."""

    seconds: float
    memory: int

    def describe(self) -> str:
        """``about 3 hours and 1.2 GB``."""
        return f"about {format_seconds(self.seconds)} and {format_bytes(self.memory)}"


def format_seconds(seconds: float) -> str:
    """``40 s``, ``12 minutes``, ``3.5 hours``, ``2.1 days``.

    >>> format_seconds(42), format_seconds(720), format_seconds(12600)
    ('42 s', '12 minutes', '3.5 hours')
    """
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 90 * 60:
        return f"{seconds / 60:.0f} minutes"
    if seconds < 48 * 3600:
        return f"{seconds / 3600:.1f} hours"
    return f"{seconds / 86400:.1f} days"


def format_bytes(n: int) -> str:
    """``512 MB``, ``3.1 GB``."""
    if n < 1 << 30:
        return f"{n / (1 << 20):.0f} MB"
    return f"{n / (1 << 30):.1f} GB"


class WorkTooLargeError(StratagemError):
    """Work whose estimated time or memory is more than this machine should give it."""


def _stage_work(rules: PigRules) -> tuple[int, int]:
    """(states of one table, score pairs): the sizes the costs scale with."""
    return rules.num_states, rules.goal * rules.goal


def solve_cost(rules: PigRules) -> Cost:
    """Solving ``rules`` from scratch (:func:`~stratagem.games.pig.solver.solve`)."""
    states, pairs = _stage_work(rules)
    adds = len(rules.adding_faces)
    tables = 2 if rules.catch_up_turn else 1
    sweeps = 1.0 if rules.bust_scores_one else SWEEPS_PER_PAIR  # no cycles: one pass
    ops = sweeps * states * adds * (2 if tables == 2 else 1)
    if rules.catch_up_turn:
        ops += sweeps * pairs * (2 * rules.goal + 50 * rules.faces) * adds
    # the tables, a copy while the cache file is written, and the policy tables
    memory = 8 * states * tables * 2 + 9 * states + 16 * pairs
    return Cost(FIXED_SECONDS + ops * SOLVE_NS_PER_OP * 1e-9, memory)


def evaluate_cost(rules: PigRules) -> Cost:
    """One exact evaluation of two fixed policies, both roles
    (:func:`~stratagem.games.pig.solver.evaluate`)."""
    states, pairs = _stage_work(rules)
    ops = 2 * 2 * states * len(rules.adding_faces)
    if rules.catch_up_turn:
        ops += 2 * pairs * (2 * rules.goal + 50 * rules.faces) * len(rules.adding_faces)
    return Cost(FIXED_SECONDS + ops * DUEL_NS_PER_OP * 1e-9, 2 * 8 * states + 18 * states)


def thumb_cost(rules: PigRules, max_rows: int) -> Cost:
    """Deriving a rule-of-thumb table of at most ``max_rows`` rows
    (:func:`~stratagem.games.pig.thumb.derive_tables`), after the solve.

    Every hold 1..goal is evaluated for the first row, about
    :data:`EVALUATIONS_PER_ROW` tables for each further one, and the turn losses of
    the surrogate fill a goal**3 array (about goal**4 / 3 operations).
    """
    g = rules.goal
    states, _ = _stage_work(rules)
    roles = 2 if rules.catch_up_turn else 1
    evaluations = g + EVALUATIONS_PER_ROW * (max_rows - 1)
    ops = float(evaluations * roles * states * len(rules.adding_faces))
    ops += g**4 / 3 * len(rules.adding_faces)
    # measured: 3 GB at goal 400 (turn losses, candidate grids, occupancies: ~6 goal**3
    # arrays of 8 bytes), plus the solved tables
    memory = 48 * g**3 + 16 * states * roles
    return Cost(FIXED_SECONDS + ops * DUEL_NS_PER_OP * 1e-9, memory)


def available_memory() -> int | None:
    """Bytes of memory free for new work (Linux ``MemAvailable``), or ``None`` if unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def check_cost(
    cost: Cost,
    what: str,
    max_seconds: float = MAX_SECONDS,
    hint: str = "choose a smaller goal or fewer faces",
) -> None:
    """Refuse ``what`` (``"solving pig: d100, ..."``) if ``cost`` is over the limits."""
    if cost.seconds > max_seconds:
        raise WorkTooLargeError(
            f"{what} would take {cost.describe()} (estimated before starting); the limit is "
            f"{format_seconds(max_seconds)}: {hint}"
        )
    free = available_memory()
    if free is not None and cost.memory > 0.8 * free:
        raise WorkTooLargeError(
            f"{what} would need {format_bytes(cost.memory)} of memory and "
            f"{format_bytes(free)} is free: {hint}"
        )
