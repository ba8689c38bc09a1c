"""The Score Four coach: what the page and the terminal say about every move.

One judge, the alpha-beta search (:class:`~stratagem.games.scorefour.search.Minimax`
to :data:`COACH_DEPTH` plies), rates every legal move. Where the search proves the
result it is said in words, counted in the mover's own moves: "wins in 2" means the
mover's second move from now (this one included) completes a line whatever the
opponent does; "loses in 2" means the opponent completes one on its second move.
Otherwise the move has one number, its evaluation in *points* (defined in
:data:`POINTS`). The search's internal scores for proven results (a million minus
the plies) are never shown.

Every move also gets a quality ``f`` between 0 (the worst legal move by the same
search) and 1 (the best), so that the rows, the verdict on a played move and the
mean quality of a player's moves all follow one judge. The decision-analysis AI
keeps its own estimate of the player's skill on the paper's one-ply scale; that
is the AI's model of the player, described by :data:`AI_MODEL`, not the coach's
verdict.

>>> from stratagem.games.scorefour.state import ScoreFourState
>>> rows = advise(ScoreFourState.new(), depth=2)
>>> len(rows), rows[0].verdict in ("best", "as good as the best")
(16, True)
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass, replace
from typing import Any, Literal

from stratagem.core.coaching import EPSILON, Judged, Unit, judged_from_rows
from stratagem.core.errors import IllegalActionError, InvalidRulesError
from stratagem.core.game import State, expect_state
from stratagem.games.scorefour import _kernels
from stratagem.games.scorefour.board import LINES, PEGS, parse_peg, peg_name
from stratagem.games.scorefour.search import Minimax
from stratagem.games.scorefour.state import DRAW, RULES, ScoreFourState

COACH_DEPTH = 5
"""Plies the coach searches for every move (about 10 ms a position with the compiled search)."""
COACH_TABLE_BITS = 14
"""Transposition table of each coach search (0.5 MB, fresh per call, so a verdict does not
depend on what was searched before)."""
MAX_COACH_DEPTH = 8
"""Deepest search a caller may ask the coach for (depth 8 takes about a second early on)."""

POINTS = (
    "Points are the search's evaluation of the position after the move, the paper's line "
    "count: each line still open to you scores by how many of your beads it holds "
    "(1 for one bead, up to 70 for three with the fourth cell playable), minus the same "
    "for the AI's lines."
)
"""One sentence: what the unit of an unproven move's value is."""
QUALITY = (
    "f places a move between the worst legal move (0) and the best (1) by this same search; "
    "the mean f is the average over your moves."
)
"""One sentence: what f is."""
AI_MODEL = (
    "The decision-analysis AI keeps its own estimate of your skill on the paper's one-ply "
    "scale: it starts at f0 and moves a fraction beta towards each move's one-ply quality, "
    "so with beta = 0 it never changes."
)
"""One sentence: what the decision-analysis AI's skill estimate is (its model, not the coach's)."""

INACCURACY = 5.0
"""Points behind the best move from which an unproven move is called an inaccuracy."""
MISTAKE = 30.0
"""Points behind the best from which it is a mistake (an open three of the side not to move
is worth 30)."""

_CAP = 10_000.0
"""Proven results sit beyond every evaluation on the scale f is measured on."""

Outcome = Literal["win", "loss", "eval"]
Severity = Literal["good", "warn", "bad"]


@dataclass(frozen=True)
class MoveAdvice:
    """The coach's view of one legal move, for the mover."""

    peg: int
    outcome: Outcome
    """``win`` / ``loss``: proven by the search; ``eval``: the search's evaluation."""
    moves: int | None
    """For a proven result, the mover's own moves to the win, or the opponent's to the loss."""
    points: float | None
    """For ``eval``: the evaluation in points (see :data:`POINTS`)."""
    behind: float | None
    """Points behind the best move, when both are unproven; else None."""
    quality: float
    """f in [0, 1] by the search (see :data:`QUALITY`)."""
    verdict: str
    """``best`` or ``as good as the best`` (with "; every move loses" in a lost position),
    ``good``, ``inaccuracy``, ``mistake``, ``blunder: loses``, ``misses the win``, ..."""
    severity: Severity

    @property
    def action(self) -> str:
        return peg_name(self.peg)

    @property
    def value_text(self) -> str:
        """The move's value in words: ``wins in 2``, ``loses in 3`` or ``+12 points``."""
        if self.outcome == "win":
            return f"wins in {self.moves}"
        if self.outcome == "loss":
            return f"loses in {self.moves}"
        assert self.points is not None
        return f"{self.points:+.0f} points"

    def line(self) -> str:
        """One line for the terminal."""
        behind = "" if self.behind is None or self.behind <= 0 else f", {self.behind:.0f} behind"
        return f"{self.action}: {self.value_text} ({self.verdict}{behind}; f = {self.quality:.2f})"


def _split(value: float) -> tuple[Outcome, int | None, float | None]:
    """The search value as (outcome, moves, points); plies become the side's own moves."""
    if value > _kernels.MATE_ZONE:
        plies = round(_kernels.WIN - value)  # odd: the mover's own last move wins
        return "win", (plies + 1) // 2, None
    if value < -_kernels.MATE_ZONE:
        plies = round(_kernels.WIN + value)  # even: the opponent's move wins
        return "loss", max(plies // 2, 1), None
    return "eval", None, value


def _scale(value: float) -> float:
    """A value on one finite scale: a sooner win higher, a later loss higher."""
    outcome, moves, points = _split(value)
    if outcome == "win":
        assert moves is not None
        return _CAP - moves
    if outcome == "loss":
        assert moves is not None
        return -_CAP + moves
    assert points is not None
    return points


def _judge(mine: float, best: float, equal: bool) -> tuple[str, Severity, float | None]:
    """Verdict, severity and points behind, for a move of value ``mine`` against the best."""
    m, _, mp = _split(mine)
    b, _, bp = _split(best)
    if equal:
        return "as good as the best", "good", (0.0 if m == "eval" else None)
    if m == "win":  # the best wins sooner
        return "wins, more slowly than the best", "good", None
    if b == "win":
        return ("misses the win, and loses" if m == "loss" else "misses the win"), "bad", None
    if m == "loss":
        if b == "loss":
            return "loses sooner than the best", "warn", None
        return "blunder: loses", "bad", None
    # both unproven (a proven loss cannot be the best while this move is unproven)
    assert mp is not None and bp is not None
    behind = bp - mp
    if behind < INACCURACY:
        return "good", "good", behind
    if behind < MISTAKE:
        return "inaccuracy", "warn", behind
    return "mistake", "bad", behind


def judge(values: dict[int, float]) -> list[MoveAdvice]:
    """Every move's advice from its search value, best first (ties by peg)."""
    if not values:
        raise IllegalActionError("no legal move to judge")
    scaled = {p: _scale(v) for p, v in values.items()}
    top, bottom = max(scaled.values()), min(scaled.values())
    best_peg = max(values, key=lambda p: (scaled[p], -p))
    rows = []
    for peg, value in values.items():
        equal = scaled[peg] >= top
        verdict, severity, behind = _judge(value, values[best_peg], equal)
        if equal and peg == best_peg:
            verdict = "best"
        if equal and _split(value)[0] == "loss":
            verdict += "; every move loses"  # the best of a lost position: still no mistake
        outcome, moves, points = _split(value)
        quality = 1.0 if top == bottom else (scaled[peg] - bottom) / (top - bottom)
        rows.append(MoveAdvice(peg, outcome, moves, points, behind, quality, verdict, severity))
    rows.sort(key=lambda r: (-scaled[r.peg], r.peg))
    return rows


def advise(state: ScoreFourState, depth: int = COACH_DEPTH) -> list[MoveAdvice]:
    """Every legal move of the player to move, judged by a ``depth``-ply search, best first."""
    if isinstance(depth, bool) or not isinstance(depth, int) or not 1 <= depth <= MAX_COACH_DEPTH:
        raise InvalidRulesError(f"the coach's depth must be 1..{MAX_COACH_DEPTH}, got {depth!r}")
    if state.is_terminal():
        raise IllegalActionError(f"the game is over ({state.result_text()}); nothing to advise")
    values = Minimax(table_bits=COACH_TABLE_BITS).move_values(state, depth)
    return judge(values)


def review(state: ScoreFourState, peg: int, depth: int = COACH_DEPTH) -> MoveAdvice:
    """The coach's advice on the move ``peg`` the mover chose (raises if it is not legal)."""
    state.drop_cell(peg)  # names the open pegs if this one is full
    for row in advise(state, depth):
        if row.peg == peg:
            return row
    raise IllegalActionError(f"{peg_name(peg)} is not a legal move here")  # pragma: no cover


# --- the Coaching a session's renderers and the review use (core/coaching.py) ---------------

PROVEN = 1000.0
"""A proven result's place on the evaluation scale: a win in n of the mover's moves is worth
``PROVEN - n`` points, a loss in n of the opponent's moves ``-(PROVEN - n)``."""
EVAL_CAP = 500.0
"""Evaluations are capped at +/- this on the scale, so every proven result lies beyond
every evaluation (the paper's line count rarely passes 200)."""
BLUNDER = 200.0
"""Points behind the best from which a move is a blunder. Every move that throws a proven
result away is one: it is priced at :data:`EVAL_CAP` (see :data:`COST`)."""
UNIT = Unit("evaluation", "points", (INACCURACY, MISTAKE, BLUNDER))
MEMO_POSITIONS = 256
"""Positions whose rows a coach keeps (a whole game's, a few kB each)."""
COST = (
    f"A move's cost is the best move's value minus its own, in points. A move that throws "
    f"away a result the search proves (misses a win, or turns an open game into a lost one) "
    f"is said in words (\"threw away a win in 3\") and costs {EVAL_CAP:.0f} points, the "
    f"evaluation's cap, so it is a blunder; winning more slowly or losing sooner than the "
    f"best costs a point a move. "
    f"Inaccuracy from {INACCURACY:.0f} points, mistake from {MISTAKE:.0f}, blunder from "
    f"{BLUNDER:.0f}."
)
"""One paragraph: how a cost is priced and where the labels start (the page states it)."""
COST_NOTE = (
    f"A move that threw away a proven result is named in words and priced at the evaluation's "
    f"cap, {EVAL_CAP:.0f} points; the totals count such moves apart, and the total cost is "
    f"what the other moves cost."
)
"""One sentence for the review: how thrown-away results are priced and totalled."""


def result_change(best: MoveAdvice, row: MoveAdvice, *, past: bool = False) -> str | None:
    """Words for a move that changes the result the search proves, else None.

    Such a move is priced at :data:`EVAL_CAP` rather than by the distance between the proven
    result's place on the scale (``PROVEN - n``) and its own: that distance is an artefact of
    where proofs are put, and a player reads it as a score.
    """
    throws, turns = ("threw away", "turned") if past else ("throws away", "turns")
    if best.outcome == "win" and row.outcome != "win":
        also = f", and loses in {row.moves}" if row.outcome == "loss" else ""
        return f"{throws} a win in {best.moves}{also}"
    if best.outcome == "eval" and row.outcome == "loss":
        return f"{turns} an open game into a loss in {row.moves}"
    return None


def scaled(row: MoveAdvice) -> float:
    """A row's value on the one finite scale of the unit (see :data:`COST`)."""
    if row.outcome == "win":
        assert row.moves is not None
        return PROVEN - row.moves
    if row.outcome == "loss":
        assert row.moves is not None
        return -(PROVEN - row.moves)
    assert row.points is not None
    return max(-EVAL_CAP, min(EVAL_CAP, row.points))


def winning_lines(state: ScoreFourState) -> list[list[int]]:
    """Each completed line's four cells (one line, or two or three through the last bead)."""
    if state.winner is None or state.winner == DRAW:
        return []
    mine = state.beads[state.winner]
    return [list(line) for line in LINES if all(mine >> c & 1 for c in line)]


def read_move(state: ScoreFourState, text: str) -> int:
    """A move in either text form: the session's ``9`` (the action's ``str``) or the
    player's ``b3``; raises naming the open pegs when the peg is full."""
    word = text.strip()
    peg = int(word) if word.isdigit() and len(word) <= 2 and int(word) < PEGS else parse_peg(word)
    state.drop_cell(peg)
    return peg


class ScoreFourCoaching:
    """The Score Four coach as a :class:`~stratagem.core.coaching.Coaching`.

    Unit "evaluation" in points (:data:`COST` says how proven results are priced);
    a row or verdict is ``exact`` when the search proved its result (both the played
    and the best move's, for a verdict), estimated when it rests on the evaluation.

    >>> from stratagem.games.scorefour.state import ScoreFourState
    >>> c = ScoreFourCoaching(depth=2)
    >>> s = ScoreFourState.from_string("xxx.ooo.........")
    >>> j = c.judge(s, "d2")   # blocks O but misses the win at d1 (peg 3)
    >>> j.best, j.label, j.exact, j.cost > BLUNDER
    ('3', 'blunder', False, True)
    """

    unit = UNIT
    cost_note = COST_NOTE

    def __init__(self, rules: str = RULES, depth: int = COACH_DEPTH) -> None:
        if rules != RULES:
            raise InvalidRulesError(f"Score Four has one rule set, {RULES!r}; got {rules!r}")
        self.depth = depth
        # A review asks judge and evaluation of the same position, a page asks the rows
        # before a move and again for the hint: one search a position serves them all.
        self._memo: OrderedDict[ScoreFourState, list[MoveAdvice]] = OrderedDict()
        self._lock = threading.Lock()

    def view(self, state: State) -> dict[str, Any]:
        """The board: per cell x/o/. (``cells``, cell = level * 16 + row * 4 + column),
        the levels as text, the pegs' heights, who is to move, the result and the winning
        line(s). The last move is the session line's last decision (a peg)."""
        s = _state(state)
        text = s.to_string()
        winner = None if s.winner is None else "draw" if s.winner == DRAW else "xo"[s.winner]
        return {
            "board": text,
            "cells": text.replace("/", ""),
            "heights": s.heights(),
            "pegs": [peg_name(p) for p in range(PEGS)],
            "to_move": None if s.is_terminal() else "xo"[s.player],
            "winner": winner,
            "result": s.result_text(),
            "winning_lines": winning_lines(s),
            "text": str(s),
            "explain": {"points": POINTS, "quality": QUALITY, "cost": COST},
        }

    def _rows(self, state: ScoreFourState) -> list[MoveAdvice]:
        with self._lock:
            if state in self._memo:
                self._memo.move_to_end(state)
                return self._memo[state]
        rows = advise(state, self.depth)
        with self._lock:
            self._memo[state] = rows
            while len(self._memo) > MEMO_POSITIONS:
                self._memo.popitem(last=False)
        return rows

    def rows(self, state: State) -> list[dict[str, Any]]:
        """Every legal move, best first: ``action`` (the session's text, ``"9"``), ``peg``
        (``b3``), ``value`` on the unit's scale, ``cost``, ``exact``, ``label``, and the
        coach's words (``value_text`` "wins in 2" or "+12 points", ``verdict``, ``quality``)."""
        advice = self._rows(_state(state))
        top = scaled(advice[0])
        out = []
        for row in advice:
            value = scaled(row)
            change = result_change(advice[0], row)
            cost = EVAL_CAP if change is not None else max(0.0, top - value)
            out.append(
                {
                    "action": str(row.peg),
                    "peg": row.action,
                    "value": value,
                    "cost": cost,
                    "exact": row.outcome != "eval",
                    "label": self.unit.label(cost),
                    "outcome": row.outcome,
                    "moves": row.moves,
                    "points": row.points,
                    "value_text": row.value_text,
                    "verdict": row.verdict,
                    "quality": row.quality,
                    "explanation": f"{row.action}: {row.value_text} ({row.verdict})",
                    "result_change": change,
                }
            )
        return out

    def judge(self, state: State, played: str) -> Judged:
        """The verdict on ``played`` (``"9"`` or ``"b3"``); the peg names are in ``extra``."""
        s = _state(state)
        peg = read_move(s, played)
        rows = self.rows(s)
        judged = judged_from_rows(rows, str(peg), self.unit)
        mine = next(r for r in rows if r["action"] == str(peg))
        best = rows[0]
        explanation = f"{mine['peg']}: {mine['value_text']}"
        if judged.cost > EPSILON:
            explanation += f"; the best, {best['peg']}: {best['value_text']}"
        extra = {
            "played_peg": mine["peg"],
            "best_peg": best["peg"],
            "played_value": mine["value_text"],
            "best_value": best["value_text"],
        }
        cost = float(mine["cost"])  # capped at EVAL_CAP where the move changed the result
        if mine["result_change"] is not None:
            advice = self._rows(s)
            words = result_change(advice[0], next(a for a in advice if a.peg == peg), past=True)
            extra["result_change"] = words
            explanation = f"{words}: {explanation}"
        return replace(
            judged,
            cost=cost,
            label=self.unit.label(cost),
            explanation=explanation,
            extra=extra,
            # on the scale every page and the review show (a proven result at the cap)
            value_played=max(-EVAL_CAP, min(EVAL_CAP, float(mine["value"]))),
            value_best=max(-EVAL_CAP, min(EVAL_CAP, float(best["value"]))),
        )

    def decision_text(self, state: State, text: str) -> str:
        """A move as players read it: its peg and the level its bead lands on
        (``b3 (level 2)``), for the session's ``9`` or the player's ``b3``."""
        s = _state(state)
        peg = read_move(s, text)
        return f"{peg_name(peg)} (level {s.heights()[peg] + 1})"

    def evaluation(self, state: State, player: int) -> float | None:
        """The position's worth to ``player`` for the review's graph, in points: the best
        move's evaluation for the side to move (its negation for the other side), capped at
        +/- :data:`EVAL_CAP` like every evaluation the coach shows; a proven result (and a
        finished game) sits at the cap, +EVAL_CAP for a win, and :meth:`evaluation_text`
        says it in words ("wins in 3"). A proven result's place on the cost scale
        (``PROVEN - n``, :data:`COST`) is for pricing moves, never a point of the graph."""
        s = _state(state)
        if player not in (0, 1):
            raise IllegalActionError(f"Score Four's players are 0 (X) and 1 (O), not {player!r}")
        if s.is_terminal():
            if s.winner == DRAW:
                return 0.0
            return EVAL_CAP if s.winner == player else -EVAL_CAP
        best = max(-EVAL_CAP, min(EVAL_CAP, scaled(self._rows(s)[0])))
        return best if s.player == player else -best

    def evaluation_text(self, state: State, player: int) -> str:
        """:meth:`evaluation` in words for ``player``: ``wins in 3`` or ``loses in 2``
        where the search proves it (counted as in :class:`MoveAdvice`: a win in the
        winner's own moves), else ``+12 points``; ``won``, ``lost`` or ``a draw`` at the
        end."""
        s = _state(state)
        if player not in (0, 1):
            raise IllegalActionError(f"Score Four's players are 0 (X) and 1 (O), not {player!r}")
        if s.is_terminal():
            return "a draw" if s.winner == DRAW else "won" if s.winner == player else "lost"
        best = self._rows(s)[0]
        mine = s.player == player
        if best.outcome == "win":
            return f"{'wins' if mine else 'loses'} in {best.moves}"
        if best.outcome == "loss":
            return f"{'loses' if mine else 'wins'} in {best.moves}"
        assert best.points is not None
        points = max(-EVAL_CAP, min(EVAL_CAP, best.points if mine else -best.points))
        return f"{points:+.0f} points"


def coaching(rules: str) -> ScoreFourCoaching:
    """``GameSpec.coaching``: the coach for the one rule set."""
    return ScoreFourCoaching(rules)


def _state(state: State) -> ScoreFourState:
    return expect_state(state, ScoreFourState, "the Score Four coach")
