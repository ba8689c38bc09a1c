"""The review after a game: every decision of a person priced by the game's coach.

:func:`review` walks a :class:`~stratagem.core.session.Session` and asks the game's
:class:`~stratagem.core.coaching.Coaching` two things, and nothing else, so that one
review serves every game:

* ``coaching.judge(state, played)`` for each decision made by a person (a ``"human"``
  seat), in the position where it was made: what it cost, what was best, whether
  exact. The review's numbers are the judge's, unchanged.
* ``coaching.evaluation(state, player)`` for the graph: the position's worth to the
  **reviewed player** before every decision (people's and agents') and at the end;
  with an optional ``coaching.evaluation_text(state, player)``, also in words (Score
  Four's "wins in 3", where the graph's number is the capped evaluation).
  The reviewed player is the one human seat; with two or more human seats, or none,
  it is player 0.

**Totals** over the decisions listed (every person's): the total cost, the count per
label and the mean cost. A coach may mark a decision that threw away a proven result
(``judged.extra["result_change"]``, words such as Score Four's "threw away a win in 3",
its cost capped at the coach's scale): such decisions are counted apart
(``results_changed``) and left out of the total and mean cost, which then say what the
other decisions cost; the coach's optional ``cost_note`` says so in one sentence.

For a game with chance (its line holds at least one chance
outcome) that is over, for the reviewed player, in the unit:

* ``start`` = ``evaluation`` of the game's first position, before any chance (the
  deal: a fresh state of the game's rules); if the coach cannot evaluate it
  (``None``), the position of the first decision (``start_at`` says which);
* ``outcome`` = ``evaluation`` of the final position (the final score for solitaire
  Yahtzee; 1, 0.5 or 0 for a chance of winning);
* ``skill`` = the sum of the reviewed player's costs (what their decisions gave away,
  >= 0);
* ``luck`` = ``outcome - (start - skill)``: how far the result landed from what was
  to be expected after the decisions taken. In solitaire Yahtzee it is the final score
  minus the expected score of the decisions taken; for a chance of winning, the result
  (1, 0.5, 0) minus the chance of winning that remained. In a game against an
  opponent, the opponent's own errors fall on the luck side too: luck is everything
  that moved the result other than the reviewed player's decisions.

So ``outcome = start - skill + luck`` exactly. Luck and skill are ``None`` when the game
is not over, has no chance, an evaluation is ``None``, or the review stopped at its
bound.

**Cost of a review.** A long Scrabble game evaluates many positions, each a search.
So :func:`review` takes ``progress(done, total)`` (called after every position),
``cancelled()`` (asked before every position; when it says yes the review raises
:class:`ReviewCancelled`) and ``max_positions``: at most that many coach calls
(judged decisions plus graph points); past it the review stops, says where
(``complete`` false, ``stopped_at``), and gives totals of what it judged.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from stratagem.core.coaching import LABELS, Coaching, Judged, Unit, decision_text
from stratagem.core.errors import StratagemError
from stratagem.core.game import CHANCE, State
from stratagem.core.session import Session

__all__ = [
    "MAX_POSITIONS",
    "GraphPoint",
    "Review",
    "ReviewCancelled",
    "ReviewError",
    "ReviewedDecision",
    "Totals",
    "review",
    "reviewed_player",
]

MAX_POSITIONS = 2_000
"""The default bound on coach calls of one review (a long Scrabble game has ~30
decisions of each player and ~60 graph points; a Pig game may have hundreds)."""
MAX_POSITIONS_LIMIT = 200_000
"""The largest bound a caller may set (a record holds at most 100,000 decisions)."""

Progress = Callable[[int, int], None]


class ReviewError(StratagemError, ValueError):
    """A review that cannot be made: bad arguments, or a coach that answers nonsense."""


class ReviewCancelled(StratagemError):
    """The review was cancelled (``cancelled()`` said so) before it was complete."""


@dataclass(frozen=True)
class ReviewedDecision:
    """One decision of a person and the coach's verdict on it."""

    index: int
    """Its row in the review, from 0."""
    player: int
    decision: int
    """The position's decision number in the game, from 0 (``session.state_at(decision)``
    is where it was made; the page's ``at=`` and the branch's ``at``)."""
    judged: Judged
    played_text: str = ""
    """The played decision as players read it (:func:`~stratagem.core.coaching.decision_text`:
    Score Four's ``b3 (level 2)`` for the session's ``9``); ``judged.played`` when empty."""
    best_text: str = ""
    """The best decision, likewise."""

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "player": self.player,
            "decision": self.decision,
            **self.judged.to_json(),
            "played_text": self.played_text or self.judged.played,
            "best_text": self.best_text or self.judged.best,
        }


@dataclass(frozen=True)
class GraphPoint:
    """The reviewed player's evaluation before decision ``decision`` (or at the end)."""

    decision: int
    """The decision number; ``len(decisions)`` is the end of the game."""
    player: int | None
    """Who was to decide (``None`` at the end)."""
    by: Literal["human", "agent"] | None
    value: float | None
    text: str | None = None
    """The value in the coach's words, where it has some (``evaluation_text``)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "decision": self.decision,
            "player": self.player,
            "by": self.by,
            "value": self.value,
            "text": self.text,
        }


@dataclass(frozen=True)
class Totals:
    decisions: int
    cost: float
    """The sum of the costs of every decision listed."""
    mean_cost: float | None
    labels: dict[str, int]
    """How many decisions got each label (every label present, 0 if none)."""
    results_changed: int = 0
    """Decisions the coach marked as throwing away a proven result (left out of ``cost``)."""
    start: float | None = None
    start_at: Literal["deal", "first decision"] | None = None
    outcome: float | None = None
    skill: float | None = None
    luck: float | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "decisions": self.decisions,
            "cost": self.cost,
            "mean_cost": self.mean_cost,
            "labels": dict(self.labels),
            "results_changed": self.results_changed,
            "start": self.start,
            "start_at": self.start_at,
            "outcome": self.outcome,
            "skill": self.skill,
            "luck": self.luck,
        }


@dataclass(frozen=True)
class Review:
    """A reviewed game (see the module's doc for every definition)."""

    game: str
    rules: str
    seats: tuple[str, ...]
    player: int
    """The reviewed player: the graph and luck/skill are theirs."""
    unit: Unit
    decisions: tuple[ReviewedDecision, ...]
    graph: tuple[GraphPoint, ...]
    totals: Totals
    finished: bool
    returns: tuple[float, ...] | None
    has_chance: bool
    takebacks: int
    """Takebacks made during the game (a review says so: a taken-back player knew the
    dice or tiles they took back)."""
    complete: bool = True
    stopped_at: int | None = None
    """The decision number where a bounded review stopped (``None``: complete)."""
    positions: int = 0
    """Coach calls made (judgements and evaluations)."""
    extra: dict[str, Any] = field(default_factory=dict)
    cost_note: str | None = None
    """The coach's sentence on how its costs are priced and totalled, where it has one."""

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "rules": self.rules,
            "seats": list(self.seats),
            "player": self.player,
            "unit": self.unit.to_json(),
            "decisions": [d.to_json() for d in self.decisions],
            "graph": [p.to_json() for p in self.graph],
            "totals": self.totals.to_json(),
            "finished": self.finished,
            "returns": None if self.returns is None else list(self.returns),
            "has_chance": self.has_chance,
            "takebacks": self.takebacks,
            "complete": self.complete,
            "stopped_at": self.stopped_at,
            "positions": self.positions,
            "cost_note": self.cost_note,
        }


def reviewed_player(session: Session) -> int:
    """The one human seat, else player 0 (two people, or agents only)."""
    humans = [i for i, seat in enumerate(session.seats) if seat.human]
    return humans[0] if len(humans) == 1 else 0


def review(
    session: Session,
    coaching: Coaching,
    *,
    progress: Progress | None = None,
    cancelled: Callable[[], bool] | None = None,
    max_positions: int = MAX_POSITIONS,
) -> Review:
    """Review ``session`` with the game's ``coaching`` (see the module's doc).

    Raises :class:`ReviewCancelled` when ``cancelled()`` turns true, and
    :class:`ReviewError` for a bound out of range or a coach that returns a cost
    that is not a finite number >= 0.
    """
    if (
        isinstance(max_positions, bool)
        or not isinstance(max_positions, int)
        or not 1 <= max_positions <= MAX_POSITIONS_LIMIT
    ):
        raise ReviewError(
            f"max_positions must be a whole number 1..{MAX_POSITIONS_LIMIT:,}, "
            f"got {max_positions!r}"
        )
    # the picture of the first position first: a coach may fit its unit to the table
    # (Yahtzee's: expected points alone, chance of winning against opponents)
    coaching.view(session.state_at(0))
    unit = coaching.unit
    player = reviewed_player(session)
    steps = session.decision_steps()
    n = len(steps)
    humans = set(session.human_decisions())
    total = min(max_positions, n + 1 + len(humans) + 1)  # + the start of the deal
    done = 0

    def tick() -> None:
        nonlocal done
        done += 1
        if progress is not None:
            progress(done, total)

    def check() -> None:
        if cancelled is not None and cancelled():
            raise ReviewCancelled(f"the review was cancelled after {done} of {total} positions")

    decisions: list[ReviewedDecision] = []
    graph: list[GraphPoint] = []
    stopped_at: int | None = None
    for j, step in enumerate(steps):
        needed = 2 if j in humans else 1
        if done + needed > max_positions:
            stopped_at = j
            break
        check()
        state = session.state_at(j)
        graph.append(
            GraphPoint(j, step.player, _by(step.by), *_value_and_text(coaching, state, player))
        )
        tick()
        if j in humans:
            check()
            judged = coaching.judge(state, step.text)
            _check_judged(judged, step.text, j)
            named = ReviewedDecision(
                len(decisions),
                step.player,
                j,
                judged,
                decision_text(coaching, state, judged.played),
                decision_text(coaching, state, judged.best),
            )
            decisions.append(named)
            tick()

    has_chance = any(s.player == CHANCE for s in session.line)
    complete = stopped_at is None
    outcome = start = None
    start_at: Literal["deal", "first decision"] | None = None
    if complete and done < max_positions:
        check()
        end, end_text = _value_and_text(coaching, session.state, player)
        graph.append(GraphPoint(n, None, None, end, end_text))
        tick()
        if session.over:
            outcome = end
    elif complete:
        complete, stopped_at = False, n
    if complete and has_chance and outcome is not None:
        if done < max_positions:
            check()
            deal = session.game.new_state(session.rules, len(session.seats))
            start = _value(coaching, deal, player)
            start_at = "deal"
            tick()
        if start is None and graph and graph[0].value is not None:
            start, start_at = graph[0].value, "first decision"

    changed = [d for d in decisions if d.judged.extra.get("result_change")]
    costs = [d.judged.cost for d in decisions if not d.judged.extra.get("result_change")]
    labels: dict[str, int] = {label: 0 for label in LABELS}
    for d in decisions:
        labels[d.judged.label] += 1
    skill = luck = None
    if start is not None and outcome is not None:
        skill = math.fsum(d.judged.cost for d in decisions if d.player == player)
        luck = outcome - (start - skill)
    totals = Totals(
        decisions=len(decisions),
        cost=math.fsum(costs),
        mean_cost=math.fsum(costs) / len(costs) if costs else None,
        labels=labels,
        results_changed=len(changed),
        start=start,
        start_at=start_at if start is not None else None,
        outcome=outcome,
        skill=skill,
        luck=luck,
    )
    result = session.result()
    return Review(
        game=session.game.name,
        rules=session.rules,
        seats=tuple(str(s) for s in session.seats),
        player=player,
        unit=unit,
        decisions=tuple(decisions),
        graph=tuple(graph),
        totals=totals,
        finished=session.over,
        returns=None if result["returns"] is None else tuple(result["returns"]),
        has_chance=has_chance,
        takebacks=len(session.takebacks),
        complete=complete,
        stopped_at=stopped_at,
        positions=done,
        cost_note=_cost_note(coaching),
    )


def _cost_note(coaching: Coaching) -> str | None:
    note = getattr(coaching, "cost_note", None)
    return note if isinstance(note, str) and note else None


def _by(by: str) -> Literal["human", "agent"]:
    return "human" if by == "human" else "agent"


def _value(coaching: Coaching, state: State, player: int) -> float | None:
    value = coaching.evaluation(state, player)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise ReviewError(f"the coach evaluated a position as {value!r}, not a finite number")
    return float(value)


def _value_and_text(
    coaching: Coaching, state: State, player: int
) -> tuple[float | None, str | None]:
    """The graph's point: the evaluation and, if the coach words it, its words."""
    value = _value(coaching, state, player)
    words = getattr(coaching, "evaluation_text", None)
    if value is None or words is None:
        return value, None
    return value, str(words(state, player))


def _check_judged(judged: Judged, played: str, decision: int) -> None:
    if not isinstance(judged, Judged):
        raise ReviewError(f"the coach's judge returned {type(judged).__name__}, not a Judged")
    if not (math.isfinite(judged.cost) and judged.cost >= 0):
        raise ReviewError(
            f"the coach priced decision {decision} ({played!r}) at {judged.cost!r}; "
            "a cost is a finite number >= 0"
        )
