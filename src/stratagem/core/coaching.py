"""What a game tells a renderer and a reviewer: its picture of a position, its coach's
rows, the unit its decisions are priced in, and a judge for one decision.

A game gives a :class:`Coaching` (through ``GameSpec.coaching(rules)``); the session
layer and every renderer (the web page, the terminal game, the review) use only this,
so that what a page shows, what the terminal prints and what the review prices come
from one module of the game (``games/<g>/coach.py``), never from the renderer.

The unit is the game's own: expected points (solitaire Yahtzee), chance of winning
(Pig, Yahtzee against an opponent), a proven result or an evaluation (Score Four),
points of equity (Scrabble). Each judged decision says whether its cost is exact
(read from a solved table or a proof) or estimated (a search, a sample).

>>> unit = Unit("chance of winning", "win %", (0.01, 0.03, 0.08), percent=True)
>>> unit.label(0.0), unit.label(0.005), unit.label(0.02), unit.label(0.05), unit.label(0.2)
('best', 'good', 'inaccuracy', 'mistake', 'blunder')
"""

from __future__ import annotations

import inspect
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol, runtime_checkable

from stratagem.core.game import State

__all__ = ["LABELS", "Coaching", "Judged", "Label", "Unit", "coaching_for", "decision_text"]

Label = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
LABELS: tuple[Label, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")

EPSILON = 1e-9
"""Costs at most this are the best option (ties of exact values differ by rounding only)."""


@dataclass(frozen=True)
class Unit:
    """The unit a game prices decisions in, and where its labels start.

    ``thresholds`` are the smallest costs (in the unit) of an inaccuracy, a mistake and
    a blunder; the page states them. ``percent``: values are chances, shown times 100.
    """

    name: str
    short: str
    thresholds: tuple[float, float, float]
    percent: bool = False

    def __post_init__(self) -> None:
        a, b, c = self.thresholds
        if not 0 < a <= b <= c:
            raise ValueError(f"thresholds of {self.name} must rise from above 0: {self.thresholds}")

    def label(self, cost: float) -> Label:
        """The label of a decision that cost ``cost`` (0 or less: the best)."""
        if cost <= EPSILON:
            return "best"
        inaccuracy, mistake, blunder = self.thresholds
        if cost >= blunder:
            return "blunder"
        if cost >= mistake:
            return "mistake"
        if cost >= inaccuracy:
            return "inaccuracy"
        return "good"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "short": self.short,
            "thresholds": dict(zip(LABELS[2:], self.thresholds, strict=True)),
            "percent": self.percent,
        }


@dataclass(frozen=True)
class Judged:
    """The coach's verdict on one decision taken: what it cost and what was best."""

    played: str
    """The decision taken, as its action's ``str`` (the session's text)."""
    best: str
    """The best decision by the coach (the played one when it was best)."""
    cost: float
    """The best option's value minus the played one's, in the game's unit (>= 0)."""
    exact: bool
    """Whether the values are exact (a solved table, a proof) rather than estimated."""
    label: Label
    value_played: float | None = None
    value_best: float | None = None
    explanation: str = ""
    """One sentence for people (why the best is better), from the game's coach."""
    extra: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "played": self.played,
            "best": self.best,
            "cost": self.cost,
            "exact": self.exact,
            "label": self.label,
            "value_played": self.value_played,
            "value_best": self.value_best,
            "explanation": self.explanation,
            **({"extra": dict(self.extra)} if self.extra else {}),
        }


@runtime_checkable
class Coaching(Protocol):
    """A game's renderer-facing knowledge, built for one rules object and one set of seats.

    Implementations live in ``games/<g>/coach.py``; the web layer and the terminal only
    call these methods and render what they return (JSON-ready dicts and lists).
    """

    unit: Unit

    def view(self, state: State) -> dict[str, Any]:
        """A JSON-ready picture of the position (dice, card, board, rack, scores...)."""
        ...

    def rows(self, state: State) -> list[dict[str, Any]]:
        """The coach's rows for the player to move, best first: each at least
        ``{"action": text, "value": float, "cost": float, "exact": bool, "label": Label}``,
        plus whatever the game explains (words, probabilities, a proof)."""
        ...

    def judge(self, state: State, played: str) -> Judged:
        """The verdict on taking decision ``played`` (an action's text) in ``state``."""
        ...

    def evaluation(self, state: State, player: int) -> float | None:
        """What the position is worth to ``player`` in the unit (the review's graph):
        a chance of winning, an expected final score, an evaluation; ``None`` where the
        game cannot say cheaply."""
        ...


def decision_text(coaching: Coaching, state: State, text: str) -> str:
    """A decision (its session text, taken in ``state``) as the game's players read it.

    A session records a decision as its action's ``str``, which need not be what a
    player reads (Score Four's ``9`` is the bead dropped on peg b3). A coaching may say
    how a decision reads with an optional ``decision_text(state, text)``; a renderer
    asks here rather than format moves itself. Without one, the text is the name.
    """
    own = getattr(coaching, "decision_text", None)
    return text if own is None else str(own(state, text))


def judged_from_rows(rows: Sequence[Mapping[str, Any]], played: str, unit: Unit) -> Judged:
    """A :class:`Judged` from a coach's rows (best first) and the played decision's text.

    The common case of a coach that prices every option: the played row's cost is the
    best's value minus its own. Raises ``KeyError`` when ``played`` is not among the rows.
    """
    by_text = {str(r["action"]): r for r in rows}
    row = by_text[played]
    best = rows[0]
    cost = max(0.0, float(best["value"]) - float(row["value"]))
    return Judged(
        played=played,
        best=str(best["action"]),
        cost=cost,
        exact=bool(row.get("exact", True)) and bool(best.get("exact", True)),
        label=unit.label(cost),
        value_played=float(row["value"]),
        value_best=float(best["value"]),
        explanation=str(row.get("explanation", "")),
    )


def coaching_for(game: Any, rules: Any, seats: Sequence[object]) -> Coaching | None:
    """``game.coaching`` (a :class:`~stratagem.core.registry.GameSpec`'s factory) for a
    rules object and the seats of a game (``"human"`` or agent specs, or ``Seat``s).

    A factory may take the seats as a keyword, ``coaching(rules, seats=...)``: Pig's
    coach is the exact best reply to the fixed strategy seated against the person, so
    its chances are against the opponent actually chosen. Other factories take the rules
    alone. ``None`` when the game offers no coaching.
    """
    factory = getattr(game, "coaching", None)
    if factory is None:
        return None
    try:
        takes_seats = "seats" in inspect.signature(factory).parameters
    except (TypeError, ValueError):  # a builtin or a C callable: the plain form
        takes_seats = False
    if takes_seats:
        made: Coaching = factory(rules, seats=[str(s) for s in seats])
        return made
    plain: Coaching = factory(rules)
    return plain
