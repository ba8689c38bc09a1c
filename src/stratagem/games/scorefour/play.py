"""Play Score Four against the AI in the terminal.

The board is drawn as four levels side by side; you move by naming a peg
(``a1`` .. ``d4``). After each of your moves the coach (the same one as the web
page's, :mod:`stratagem.games.scorefour.coach`) says what the search makes of it
("wins in 2", or points, with f from 0 = your worst move to 1 = your best);
``h`` lists every move that way. Against the decision-analysis AI the game also
shows the AI's own estimate of your skill (its model of you).
"""

from __future__ import annotations

import select
import sys
from collections.abc import Callable

import numpy as np

from stratagem.algorithms.decision_analysis import DecisionAnalysis
from stratagem.core.errors import IllegalActionError
from stratagem.core.files import bounded_input
from stratagem.games.scorefour import coach
from stratagem.games.scorefour.board import parse_peg, peg_name
from stratagem.games.scorefour.players import MinimaxAgent
from stratagem.games.scorefour.state import DRAW, ScoreFourState, render

HELP = (
    "type a peg (a1..d4, column then row) to drop a bead; h: the coach on every move; "
    "? shows the board; q quits"
)


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


def play_terminal(
    ai: MinimaxAgent | DecisionAnalysis,
    rng: np.random.Generator,
    human: int = 0,
    read: Callable[[str], str] = bounded_input,
    write: Callable[[str], None] = print,
    pending: Callable[[], list[str]] = lambda: [],
) -> int | None:
    """Play one game; returns the winner (0 = X, 1 = O, -1 = draw) or None if abandoned."""
    state = ScoreFourState.new()
    you, it = "XO"[human], "XO"[1 - human]
    write(
        f"Score Four: four in a line of 76 wins. You are {you} "
        f"({'you start' if human == 0 else 'the AI starts'}); the AI is {it}. {HELP}."
    )
    last: int | None = None
    if isinstance(ai, DecisionAnalysis) and human == 0:
        ai.begin(state)  # learn from your first move too
    while not state.is_terminal():
        if state.player != human:
            write("AI is thinking ...")
            move = int(ai.act(state, rng))  # type: ignore[call-overload]
            last = state.drop_cell(move)
            state = state.apply(move)
            extra = ""
            if isinstance(ai, MinimaxAgent):
                extra = f" (searched {ai.last_depth} plies)"
            elif ai.trace:
                extra = f"; its estimate of your skill: f = {ai.skill:.3f}"
            write(f"AI plays {peg_name(move)}{extra}")
            continue
        write(render(state, _mark(state, last)))
        for early in pending() if last is not None else []:
            if early:
                write(f"error: not your turn: {early!r} was typed while the AI was moving; ignored")
        while True:
            try:
                text = read(f"your move ({you}) > ")
            except EOFError:
                write("")
                write("game abandoned")
                return None
            word = text.strip().lower()
            if word in ("q", "quit", "exit"):
                write("game abandoned")
                return None
            if word in ("h", "hint"):
                for text in hint_lines(state):
                    write(text)
                continue
            if word in ("?", "help", ""):
                write(HELP)
                write(render(state, _mark(state, last)))
                continue
            try:
                move = parse_peg(word)
                last = state.drop_cell(move)
            except IllegalActionError as exc:
                write(f"error: {exc}")
                continue
            break
        write(f"your move {coach.review(state, move).line()}")
        state = state.apply(move)
    write(render(state, _mark(state, last)))
    if state.winner == DRAW:
        write("the board is full: a draw.")
    else:
        write("you win!" if state.winner == human else "the AI wins.")
    if isinstance(ai, DecisionAnalysis) and ai.trace:
        write(f"the AI's final estimate of your skill: f = {ai.skill:.3f}")
    assert state.winner is not None
    return state.winner


def hint_lines(state: ScoreFourState) -> list[str]:
    """The coach on every legal move, best first, after the two sentences that explain it."""
    rows = coach.advise(state)
    return [
        f"every move by a {coach.COACH_DEPTH}-ply search, best first. {coach.POINTS}",
        coach.QUALITY,
        *(f"  {row.line()}" for row in rows),
    ]


def _mark(state: ScoreFourState, last: int | None) -> dict[int, str]:
    """The last bead in capitals."""
    if last is None:
        return {}
    return {last: "X" if state.beads[0] >> last & 1 else "O"}
