"""The exceptions Stratagem raises, one class per kind of error.

Every error a user can cause by bad input is a :class:`StratagemError`, with a
message that says what was wrong and what is allowed. Nothing is silently
clamped.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TypeVar

T = TypeVar("T")


class StratagemError(Exception):
    """Base class of every error Stratagem raises on purpose."""


class InvalidRulesError(StratagemError, ValueError):
    """A rule set, preset name or rule option that does not exist or does not fit."""


class InvalidStateError(StratagemError, ValueError):
    """A game position that cannot occur (a sixth die, an impossible total), or a state of
    another game than the one expected."""


class IllegalActionError(StratagemError, ValueError):
    """An action that is not legal in the position it is applied to."""


class CacheError(StratagemError):
    """A cached table that is missing, corrupt or written for other rules."""


class ArenaError(StratagemError):
    """A bad experiment or game choice: unknown game, bad counts, a foreign results file."""


class InvalidAgentError(ArenaError):
    """An agent spec that cannot be read, names no agent, or sets a parameter out of range."""


def look_up(choices: Mapping[str, T], name: str, what: str, plural: str) -> T:
    """``choices[name]``; an unknown name raises :class:`InvalidRulesError` naming the
    choices (``unknown <what> 'x'; the <plural> are: a, b``).

    >>> look_up({"pig": 1}, "hog", "Pig rules", "presets")
    Traceback (most recent call last):
    ...
    stratagem.core.errors.InvalidRulesError: unknown Pig rules 'hog'; the presets are: pig
    """
    try:
        return choices[name]
    except KeyError:
        raise InvalidRulesError(
            f"unknown {what} {name!r}; the {plural} are: {', '.join(choices)}"
        ) from None


class RecordError(StratagemError, ValueError):
    """A game record (JSON) that cannot be read, is too large, is of another game, or
    describes a game that cannot have been played."""
