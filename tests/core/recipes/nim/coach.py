"""Nim's coaching (what the "add a game" recipe gives for a review): exact chances of winning.

The game is tiny, so its coach solves it exactly, in fractions. Let ``W(n)`` be the
chance that the player to take, facing ``n`` stones, wins with best play from both
sides, and ``R(m) = 5/6 W(m) + 1/6 W(m + 1)`` the chance of the player about to roll
the die with ``m`` stones (a six adds a stone). Taking ``k`` of ``n`` is worth 1 when
``k == n`` (the last stone) and ``1 - R(n - k)`` otherwise. Taking one stone may hand
the opponent ``n`` stones again (``R(n - 1)`` holds ``W(n)``), so ``W(n)`` is the fixed
point of ``W = max(a, c - W / 6)``, with ``a`` the best of taking 2 or 3 and
``c = 1 - 5/6 W(n - 1)``: that is ``W(n) = max(a, 6c / 7)`` (the map is a contraction,
its slope at most 1/6, so the fixed point is unique).

By hand: ``W(1) = W(2) = W(3) = 1``; with 4 stones taking 2 or 3 leaves a sure win
to the opponent (``a = 0``), ``c = 1 - 5/6 = 1/6``, so ``W(4) = 1/7``; with 5 stones
``W(5) = 37/49`` (take one).

>>> from fractions import Fraction
>>> win_chance(4), win_chance(5)
(Fraction(1, 7), Fraction(37, 49))
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from typing import Any

from stratagem.core.coaching import Judged, Unit, judged_from_rows
from stratagem.core.errors import IllegalActionError
from stratagem.core.game import State, expect_state

from .state import NimState

UNIT = Unit("chance of winning", "win %", (0.02, 0.05, 0.10), percent=True)
"""Nim's decisions are priced in chances of winning; a loss of 2 points of chance is an
inaccuracy, 5 a mistake, 10 a blunder."""

SIX = Fraction(1, 6)


@cache
def win_chance(stones: int) -> Fraction:
    """``W(stones)``: the chance that the player to take wins, with best play."""
    if stones < 1:
        raise ValueError(f"a player takes from at least one stone, not {stones}")
    if stones <= 3:
        return Fraction(1)
    others = [take_value(stones, k) for k in (2, 3)]
    c = 1 - 5 * SIX * win_chance(stones - 1)
    return max(max(others), Fraction(6, 7) * c)


def roll_chance(stones: int) -> Fraction:
    """``R(stones)``: the chance of the player about to roll the die with ``stones``."""
    return 5 * SIX * win_chance(stones) + SIX * win_chance(stones + 1)


def take_value(stones: int, k: int) -> Fraction:
    """The taker's chance of winning after taking ``k`` of ``stones`` (best play after)."""
    if k == stones:
        return Fraction(1)
    return 1 - roll_chance(stones - k)


class NimCoaching:
    """The :class:`~stratagem.core.coaching.Coaching` of Nim: every value exact."""

    unit = UNIT

    def __init__(self, rules: object = None) -> None:
        self.rules = rules

    def view(self, state: State) -> dict[str, Any]:
        nim = expect_state(state, NimState, "Nim's coach")
        return {
            "stones": nim.stones,
            "to_move": None if nim.winner is not None else nim.player,
            "rolling": nim.rolling and nim.winner is None,
            "winner": nim.winner,
            "text": f"{nim.stones} stones" if nim.winner is None else f"player {nim.winner} won",
        }

    def rows(self, state: State) -> list[dict[str, Any]]:
        nim = expect_state(state, NimState, "Nim's coach")
        if nim.current_player < 0:
            raise IllegalActionError("no one is to take stones here: there is nothing to advise")
        values = {k: take_value(nim.stones, k) for k in nim.legal_actions()}
        best = max(values.values())
        rows = [
            {
                "action": str(k),
                "value": float(v),
                "fraction": str(v),
                "cost": float(best - v),
                "exact": True,
                "label": UNIT.label(float(best - v)),
                "explanation": (
                    "takes the last stone"
                    if k == nim.stones
                    else f"leaves {nim.stones - k} to the opponent's roll"
                ),
            }
            for k, v in values.items()
        ]
        rows.sort(key=lambda r: (-r["value"], int(r["action"])))
        return rows

    def judge(self, state: State, played: str) -> Judged:
        rows = self.rows(state)
        if played not in {r["action"] for r in rows}:
            legal = ", ".join(r["action"] for r in rows)
            raise IllegalActionError(f"{played!r} is not a legal take here; legal: {legal}")
        return judged_from_rows(rows, played, UNIT)

    def evaluation(self, state: State, player: int) -> float | None:
        nim = expect_state(state, NimState, "Nim's coach")
        if player not in (0, 1):
            raise IllegalActionError(f"Nim's players are 0 and 1, not {player!r}")
        if nim.winner is not None:
            return float(nim.returns()[player])
        mover = roll_chance(nim.stones) if nim.rolling else win_chance(nim.stones)
        return float(mover if player == nim.player else 1 - mover)
