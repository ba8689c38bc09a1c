"""Score Four in the terminal: a renderer of a :class:`~stratagem.core.session.Session`.

The session plays the game (seats, the AI's moves, takeback, the record); this module
only draws the board, reads a peg (``b3``, column then row, parsed by
:func:`~stratagem.games.scorefour.board.parse_peg`) or a key, and prints what the coach
(:class:`~stratagem.games.scorefour.coach.ScoreFourCoaching`, the same as the web
page's and the review's) says: after each of your moves its verdict, and on ``h`` every
move, best first, in the coach's unit (proven results in words, otherwise points).
"""

from __future__ import annotations

import select
import sys
from collections.abc import Callable

from stratagem.core.coaching import Judged
from stratagem.core.errors import IllegalActionError
from stratagem.core.files import bounded_input
from stratagem.core.session import Session
from stratagem.games.scorefour import coach
from stratagem.games.scorefour.board import parse_peg, peg_name
from stratagem.games.scorefour.coach import ScoreFourCoaching
from stratagem.games.scorefour.state import DRAW, ScoreFourState, render

HELP = (
    "type a peg (a1..d4, column then row) to drop a bead; u: take back your last move; "
    "h: the coach on every move; ? shows the board; q quits"
)
TAKEBACK_KEYS = ("u", "undo", "takeback")
SIDES = "XO"


def typed_ahead() -> list[str]:
    """Lines typed on a terminal's standard input while the AI was moving (not blocking)."""
    lines: list[str] = []
    if not sys.stdin.isatty():
        return lines
    try:
        while select.select([sys.stdin], [], [], 0)[0]:
            line = sys.stdin.readline()
            if not line:
                break
            lines.append(line.strip())
    except (OSError, ValueError):  # not a selectable stream (tests, pipes on some systems)
        return lines
    return lines


def verdict_line(judged: Judged) -> str:
    """One line for a judged move: ``b2: +7 points (inaccuracy, 6 points behind a1: +13
    points)``; a best move says only its value."""
    extra = judged.extra
    head = f"{extra['played_peg']}: {extra['played_value']} ({judged.label}"
    if judged.label == "best":
        return head + ")"
    return f"{head}, {judged.cost:.0f} points behind {extra['best_peg']}: {extra['best_value']})"


def hint_lines(coaching: ScoreFourCoaching, state: ScoreFourState) -> list[str]:
    """The coach on every legal move, best first, after the sentences that explain it."""
    rows = coaching.rows(state)
    out = [f"every move by a {coaching.depth}-ply search, best first. {coach.POINTS}", coach.COST]
    for row in rows:
        cost = "" if row["cost"] <= 0 else f", {row['cost']:.0f} behind"
        out.append(f"  {row['peg']}: {row['value_text']} ({row['label']}{cost})")
    return out


def board(session: Session) -> str:
    """The board, the last bead in capitals."""
    state = _state(session)
    marks: dict[int, str] = {}
    decisions = session.decision_steps()
    if decisions:
        peg = int(decisions[-1].action)  # type: ignore[call-overload]
        level = state.heights()[peg] - 1
        cell = level * 16 + peg
        marks[cell] = "X" if state.beads[0] >> cell & 1 else "O"
    return render(state, marks)


def play_session(
    session: Session,
    coaching: ScoreFourCoaching | None = None,
    read: Callable[[str], str] = bounded_input,
    write: Callable[[str], None] = print,
    pending: Callable[[], list[str]] = lambda: [],
) -> bool:
    """Render ``session`` until it ends or the player quits; True when the game ended."""
    coaching = coaching or ScoreFourCoaching()
    humans = [i for i, seat in enumerate(session.seats) if seat.human]
    ai_seats = [i for i, seat in enumerate(session.seats) if not seat.human]
    sides = ", ".join(
        f"{SIDES[i]}: {'you' if session.seats[i].human else f'the AI ({session.seats[i]})'}"
        for i in range(len(session.seats))
    )
    write(f"Score Four: four in a line of 76 wins; X moves first. {sides}. {HELP}.")
    while not session.over:
        if not session.waiting_for_human:
            write("AI is thinking ...")
            step = session.ai_move()
            write(f"AI plays {peg_name(int(step.action))}")  # type: ignore[call-overload]
            continue
        write(board(session))
        for early in pending() if ai_seats and session.decisions() else []:
            if early:
                write(f"error: not your turn: {early!r} was typed while the AI was moving; ignored")
        if not _turn(session, coaching, read, write):
            write("game abandoned")
            return False
    write(board(session))
    winner = _state(session).winner
    if winner == DRAW:
        write("the board is full: a draw.")
    elif len(humans) == 1:
        write("you win!" if winner == humans[0] else "the AI wins.")
    else:
        assert winner is not None
        write(f"{SIDES[winner]} wins.")
    return True


def _turn(
    session: Session,
    coaching: ScoreFourCoaching,
    read: Callable[[str], str],
    write: Callable[[str], None],
) -> bool:
    """Read keys until the person to move has moved (True) or quits (False)."""
    state = _state(session)
    side = SIDES[state.player]
    while True:
        try:
            text = read(f"your move ({side}) > ")
        except EOFError:
            write("")
            return False
        word = text.strip().lower()
        if word in ("q", "quit", "exit"):
            return False
        if word in ("h", "hint"):
            for line in hint_lines(coaching, state):
                write(line)
            continue
        if word in ("?", "help", ""):
            write(HELP)
            write(board(session))
            continue
        if word in TAKEBACK_KEYS:
            try:
                taken = session.takeback()
            except IllegalActionError as exc:
                write(f"error: {exc}")
                continue
            write(f"taken back: {taken.undone} move{'s' if taken.undone != 1 else ''}")
            return True
        try:
            peg = parse_peg(word)
            judged = coaching.judge(state, peg_name(peg))
            session.submit(peg)
        except IllegalActionError as exc:
            write(f"error: {exc}")
            continue
        write(f"your move {verdict_line(judged)}")
        return True


def _state(session: Session) -> ScoreFourState:
    state = session.state
    assert isinstance(state, ScoreFourState)
    return state
