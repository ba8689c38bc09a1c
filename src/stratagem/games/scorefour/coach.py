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

from dataclasses import dataclass
from typing import Literal

from stratagem.core.errors import IllegalActionError, InvalidRulesError
from stratagem.games.scorefour import _kernels
from stratagem.games.scorefour.board import peg_name
from stratagem.games.scorefour.search import Minimax
from stratagem.games.scorefour.state import ScoreFourState

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
