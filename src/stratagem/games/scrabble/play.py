"""Play Scrabble against an AI in the terminal, with the coach one ``?`` away.

Type a move as its first square and the whole word, e.g. ``8H QUIZ`` across or
``H8 QUIZ`` down (letters already on the board included). A word typed in
one case uses natural tiles where the rack allows; in mixed case, lower case
letters are blanks. ``x ABC`` exchanges A, B and C (``?`` for a blank),
``pass`` passes, ``?`` lists the coach's best moves (the equity player's values:
score + the learned value of the tiles kept), ``q`` quits. After each of your
moves the coach says what it gave up against its own best.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NoReturn

import numpy as np

from stratagem.core.agent import Agent
from stratagem.core.errors import IllegalActionError, StratagemError
from stratagem.core.files import bounded_input
from stratagem.core.registry import make_agent
from stratagem.games.scrabble.board import (
    COLUMNS,
    PREMIUM_ROWS,
    SIZE,
    Placement,
    new_tiles,
    parse_coordinate,
    score_tiles,
)
from stratagem.games.scrabble.heuristic import (
    PLAY_ENDGAME_NODES,
    SCORE_WEIGHT,
    EquityAgent,
    judge,
    make_coach,
    phase_of,
)
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.state import PASS, Exchange, Pass, ScrabbleState

DEFAULT_AI = f"equity:nodes={PLAY_ENDGAME_NODES}"
"""The opponent unless another is asked for: the equity player with the endgame search."""
COACH_TOP = 10

HELP = (
    "moves: 8H WORD (across) or H8 WORD (down), the whole word with letters on the board; "
    "lower case in a mixed-case word = blank; x ABC exchanges; pass; ? the coach's best moves; "
    "q quits"
)
PREMIUM_MARKS = {"T": "#", "D": "+", "t": "^", "d": ":", ".": "."}
LEGEND = "# triple word  + double word  ^ triple letter  : double letter  (lower case = blank)"


def draw_board(state: ScrabbleState) -> str:
    """The board with premium marks on empty squares, columns A-O and rows 1-15."""
    rows = state.board_rows()
    lines = ["    " + " ".join(COLUMNS)]
    for r in range(SIZE):
        cells = []
        for c in range(SIZE):
            ch = rows[r][c]
            if ch == ".":
                ch = "*" if (r, c) == (7, 7) else PREMIUM_MARKS[PREMIUM_ROWS[r][c]]
            cells.append(ch)
        lines.append(f"{r + 1:>3} " + " ".join(cells))
    lines.append(LEGEND)
    return "\n".join(lines)


def parse_move(text: str, state: ScrabbleState) -> Placement | Exchange | Pass:
    """Read the human's move; raises :class:`IllegalActionError` saying what is wrong."""
    words = text.split()
    if not words:
        raise IllegalActionError(HELP)
    head = words[0].lower()
    if head == "pass" and len(words) == 1:
        return PASS
    if head in ("x", "exchange"):
        if len(words) != 2:
            raise IllegalActionError("write x then the tiles to give back, e.g. x QV?")
        return Exchange(words[1].upper())
    if len(words) != 2:
        raise IllegalActionError(f"cannot read {text!r}; {HELP}")
    row, col, across = parse_coordinate(words[0])
    typed = words[1]
    for ch in typed:
        if state.tiles.letter_index(ch) is None:
            raise IllegalActionError(
                f"{ch!r} is not a letter of the {state.tiles.name} tiles "
                f"({''.join(state.tiles.letters)})"
            )
    same_square = [
        m
        for m in state.legal_actions()
        if isinstance(m, Placement)
        and (m.row, m.col, m.across) == (row, col, across)
        and m.word.upper() == typed.upper()
    ]
    chosen = choose_spelling(typed, same_square)
    if chosen is not None:
        return chosen
    refuse_placement(state, words[0], typed)


def choose_spelling(typed: str, candidates: list[Placement]) -> Placement | None:
    """The placement meant by ``typed`` among the legal ones on its square with its letters
    (best first): in mixed case (lower case = blank) exactly that spelling, else the best
    (natural tiles before blanks); ``None`` if there is none."""
    if typed != typed.upper() and typed != typed.lower():
        return next((m for m in candidates if m.word == typed), None)
    return candidates[0] if candidates else None


def refuse_placement(state: ScrabbleState, coordinate: str, typed: str) -> NoReturn:
    """Raise the reason why ``typed`` at ``coordinate`` is not a legal placement: the
    board's checks (:func:`new_tiles`, :func:`score_tiles`) name a problem of the
    squares or the words; if there is none, the rack lacks the tiles."""
    row, col, across = parse_coordinate(coordinate)
    mixed = typed != typed.upper() and typed != typed.lower()
    word = typed if mixed else typed.upper()
    board = state.board_array
    placed = new_tiles(board, Placement(row, col, across, word, 0), state.tiles)
    score_tiles(board, placed, state.tiles, state.lexicon.__contains__)
    # Laid out and scored fine, so the rack must be what is missing.
    raise IllegalActionError(f"your rack {state.rack_text()} cannot lay {word} at {coordinate}")


def typed(action: Placement | Exchange | Pass) -> str:
    """What to type to play ``action``: ``8H WORD``, ``x ABC`` or ``pass``."""
    if isinstance(action, Placement):
        return str(action).rsplit(" ", 1)[0]
    return f"x {action.tiles}" if isinstance(action, Exchange) else "pass"


def coach_lines(coach: EquityAgent, state: ScrabbleState, top: int = COACH_TOP) -> list[str]:
    """The coach's ``top`` best moves, one a line, with score, leave and value."""
    cands, placements = coach.ranked(state, top)
    weights = coach.weights_for(phase_of(state))
    closing = state.bag_size() == 0
    kept = "end" if closing else "leave"
    lines = [
        f"the coach's best moves ({placements} placements legal; value = score + "
        + ("going out or minus the tiles kept" if closing else "the value of the tiles kept")
        + "):"
    ]
    for i, c in enumerate(cands, 1):
        score = c.action.score if isinstance(c.action, Placement) else 0
        extra = c.closing if closing else c.leave_points(weights)
        lines.append(
            f"{i:>4}. {typed(c.action):<22} score {score:>3}  {kept} {extra:+6.1f}"
            f"  value {c.value / SCORE_WEIGHT:6.1f}"
        )
    return lines


def play_terminal(
    lexicon: Lexicon,
    rng: np.random.Generator,
    human: int = 0,
    read: Callable[[str], str] = bounded_input,
    write: Callable[[str], None] = print,
    ai: Agent | None = None,
) -> ScrabbleState | None:
    """Play one game against ``ai`` (default :data:`DEFAULT_AI`) with the coach; returns the
    final state, ``None`` if abandoned."""
    if ai is None:
        ai = make_agent("scrabble", lexicon.tiles.name, DEFAULT_AI)
    coach = make_coach(lexicon.tiles.name)
    state = ScrabbleState.new(lexicon, 2)
    write(f"Scrabble ({lexicon.tiles.name}, {lexicon.source}). {HELP}.")
    while not state.is_terminal():
        if state.current_player < 0:
            state = state.apply(state.sample_chance(rng))
            continue
        player = state.current_player
        if player != human:
            action = ai.act(state, rng)
            write(f"AI plays {action}")
            state = state.apply(action)
            continue
        write("")
        write(draw_board(state))
        write(
            f"score: you {state.scores[human]}, AI {state.scores[1 - human]}; "
            f"bag {state.bag_size()} tiles"
        )
        while True:
            try:
                text = read(f"your rack {state.rack_text()} > ")
            except EOFError:
                write("")
                write("game abandoned")
                return None
            cmd = text.strip()
            if cmd.lower() in ("q", "quit"):
                write("game abandoned")
                return None
            if cmd.lower() in ("help", "h"):
                write(HELP)
                continue
            if cmd == "?":
                for line in coach_lines(coach, state):
                    write(line)
                continue
            try:
                action = parse_move(cmd, state)
                verdict = judge(coach, state, action)
                state = state.apply(action)
            except StratagemError as exc:
                write(f"  not allowed: {exc}")
                continue
            if verdict is None or verdict[0] < 0.05:
                write(f"you play {action}; the coach agrees")
            else:
                behind, best = verdict
                write(f"you play {action}; the coach gives up {behind:.1f} against {best}")
            break
    write("")
    write(draw_board(state))
    you, them = state.scores[human], state.scores[1 - human]
    write(f"final score: you {you}, AI {them}")
    write("you win!" if you > them else ("a draw." if you == them else "the AI wins."))
    return state
