"""Play Score Four against the AI in the terminal.

The board is drawn as four levels side by side; you move by naming a peg
(``a1`` .. ``d4``). After each of your moves the game shows how good it was on
the 0..1 scale of decision analysis (1 = your best move by the evaluation) and,
against the decision-analysis AI, its current estimate of your skill.
"""

from __future__ import annotations

import select
import sys
from collections.abc import Callable

import numpy as np

from stratagem.algorithms.decision_analysis import DecisionAnalysis
from stratagem.core.errors import IllegalActionError
from stratagem.core.files import bounded_input
from stratagem.games.scorefour.board import parse_peg, peg_name
from stratagem.games.scorefour.players import MinimaxAgent, move_quality
from stratagem.games.scorefour.state import DRAW, ScoreFourState, render

HELP = "type a peg (a1..d4, column then row) to drop a bead; ? shows the board; q quits"


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
        quality = move_quality(state, move)
        state = state.apply(move)
        line = f"your move {peg_name(move)}: f = {quality:.2f} (1 = your best by the evaluation)"
        write(line)
    write(render(state, _mark(state, last)))
    if state.winner == DRAW:
        write("the board is full: a draw.")
    else:
        write("you win!" if state.winner == human else "the AI wins.")
    if isinstance(ai, DecisionAnalysis) and ai.trace:
        write(f"the AI's final estimate of your skill: f = {ai.skill:.3f}")
    assert state.winner is not None
    return state.winner


def _mark(state: ScoreFourState, last: int | None) -> dict[int, str]:
    """The last bead in capitals."""
    if last is None:
        return {}
    return {last: "X" if state.beads[0] >> last & 1 else "O"}
