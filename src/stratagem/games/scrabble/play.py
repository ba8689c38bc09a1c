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

from collections.abc import Callable, Sequence
from typing import NoReturn

from stratagem.core.errors import IllegalActionError, StratagemError
from stratagem.core.files import bounded_input
from stratagem.core.session import Session
from stratagem.games.scrabble.board import (
    COLUMNS,
    PREMIUM_ROWS,
    SIZE,
    Placement,
    new_tiles,
    parse_coordinate,
    score_tiles,
)
from stratagem.games.scrabble.challenge import (
    RULE_HELP,
    lay_word,
    phonies,
)
from stratagem.games.scrabble.heuristic import (
    PLAY_ENDGAME_NODES,
    SCORE_WEIGHT,
    EquityAgent,
    phase_of,
)
from stratagem.games.scrabble.state import PASS, Exchange, Pass, ScrabbleState
from stratagem.games.scrabble.tracking import track_state

DEFAULT_AI = f"equity:nodes={PLAY_ENDGAME_NODES}"
"""The opponent unless another is asked for: the equity player with the endgame search."""
COACH_TOP = 10
DEFAULT_THINK = 5.0
"""Seconds the AI may think a move where a person waits (its endgame search stops then and
plays the best it has found)."""

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


def end_adjustments(final: ScrabbleState, logged: Sequence[int]) -> list[tuple[int, str, int]]:
    """The end-of-game rack adjustments: ``(player, text, points)`` for each player whose final
    score differs from the points of their moves (``logged``), e.g. ``(1, "tiles left EQ",
    -11)``; a move log of the moves' scores and these lines adds up to the final scores."""
    out = []
    for p in range(final.num_players):
        delta = final.scores[p] - logged[p]
        if delta == 0:
            continue
        rack = final.rack_text(p)
        if rack:
            out.append((p, f"tiles left {rack}", delta))
        else:
            others = "".join(final.rack_text(q) for q in range(final.num_players) if q != p)
            out.append((p, f"went out: the others' tiles {others}", delta))
    return out


def tracking_lines(state: ScrabbleState, player: int) -> list[str]:
    """The unseen tiles from ``player``'s seat, for the terminal."""
    t = track_state(state, player)
    head = "unseen (the AI's rack" + (")" if t.bag == 0 else " + the bag)")
    return [f"{head}: {t.grid() or '-'}", "  " + t.summary()]


def play_session(
    session: Session,
    read: Callable[[str], str] = bounded_input,
    write: Callable[[str], None] = print,
) -> bool:
    """Render ``session`` (two seats: a person and an agent, or two people) in the terminal
    until it ends: the board, the person's rack, the unseen tiles, and the session's moves.
    ``?`` lists the coach's rows (:class:`~.coach.ScrabbleCoaching`), ``u`` takes back your
    last move, ``q`` leaves the game (a session can be saved and resumed). Returns whether
    the game ended. Under a challenge rule (the rules' ``challenge=single|double``) a phony
    may be laid, ``c`` challenges the last placement while it is open, and the agent
    challenges exactly the phonies (the challenge is a decision of the session)."""
    from stratagem.games.scrabble.coach import ScrabbleCoaching

    state = session.state
    assert isinstance(state, ScrabbleState)
    coaching = ScrabbleCoaching(state.lexicon)
    people = [p for p, seat in enumerate(session.seats) if seat.human]
    rule = state.challenge_rule
    extra = f"; c challenges the last word ({RULE_HELP[rule]})" if rule != "none" else ""
    write(f"Scrabble ({session.rules}; {state.lexicon.source}). {HELP}; u takes back your "
          f"last move{extra}.")  # fmt: skip
    while not session.over:
        if not session.waiting_for_human:
            if session.state.bag_size() == 0:  # type: ignore[attr-defined]
                write("AI thinks (the endgame search)...")
            step = session.ai_move()
            if step.text == "challenge":
                write(f"the AI challenges: {session.state.verdict}")  # type: ignore[attr-defined]
                continue
            write(f"AI plays {coaching.public_text(step.text) if not session.over else step.text}")
            continue
        state = session.state
        assert isinstance(state, ScrabbleState)
        me = session.to_move
        write("")
        write(draw_board(state))
        scores = ", ".join(f"{'you' if q == me else f'player {q + 1}'} {state.scores[q]}"
                           for q in range(state.num_players))  # fmt: skip
        write(f"score: {scores}; bag {state.bag_size()} tiles")
        for line in tracking_lines(state, me):
            write(line)
        while True:
            try:
                text = read(f"your rack {state.rack_text(me)} > ")
            except EOFError:
                write("")
                write("game left (it can be resumed from its record)")
                return False
            cmd = text.strip()
            low = cmd.lower()
            if low in ("q", "quit"):
                write("game left (it can be resumed from its record)")
                return False
            if low in ("help", "h"):
                write(HELP + "; u takes back your last move")
                continue
            if cmd == "?":
                closing = state.bag_size() == 0
                write(f"the coach's best moves, in {coaching.unit.name} (score + "
                      + ("going out or minus the tiles kept" if closing else
                         "the value of the tiles kept") + "):")  # fmt: skip
                for i, row in enumerate(coaching.rows(state, COACH_TOP), 1):
                    extra = row["closing"] if closing else row["leave"]
                    write(f"{i:>4}. {row['move']:<22} score {row['score']:>3}  "
                          f"{'end' if closing else 'leave'} {extra:+6.1f}  "
                          f"value {row['value']:6.1f}")  # fmt: skip
                continue
            if low in ("c", "challenge"):
                if "challenge" not in session.legal_texts():
                    why = ("this game has no challenges (rule none)" if rule == "none"
                           else "there is no word to challenge now")  # fmt: skip
                    write(f"  not allowed: {why}")
                    continue
                session.submit("challenge")
                write(f"  challenge: {session.state.verdict}")  # type: ignore[attr-defined]
                break
            if low in ("u", "undo", "takeback"):
                try:
                    taken = session.takeback()
                except StratagemError as exc:
                    write(f"  not allowed: {exc}")
                    continue
                write(f"  taken back: {taken.undone} move{'s' if taken.undone != 1 else ''}")
                break
            try:
                action = read_human_move(cmd, state)
                good = rule == "none" or not phonies_of(state, action)
                verdict = coaching.judge(state, str(action)) if good else None
                session.submit(str(action))
            except StratagemError as exc:
                write(f"  not allowed: {exc}")
                continue
            if verdict is None:
                write(f"you play {action}")
            elif verdict.cost < 0.05:
                write(f"you play {action}; the coach agrees")
            else:
                write(f"you play {action}; the coach gives up {verdict.cost:.1f} points of "
                      f"equity ({verdict.label}) against {verdict.best}")  # fmt: skip
            break
    final = session.state
    assert isinstance(final, ScrabbleState)
    logged = [0] * final.num_players
    for step in session.decision_steps():
        if isinstance(step.action, Placement):
            logged[step.player] += step.action.score
    write("")
    write(draw_board(final))
    me = people[0] if people else 0
    for p, text, points in end_adjustments(final, logged):
        who = "you" if p == me else "AI"
        write(f"end of game: {who}, {text} ({points:+d})")
    you, them = final.scores[me], max(s for q, s in enumerate(final.scores) if q != me)
    write(f"final score: you {you}, AI {them}")
    write("you win!" if you > them else ("a draw." if you == them else "the AI wins."))
    return True


def phonies_of(state: ScrabbleState, action: object) -> list[str]:
    """The words of ``action`` the lexicon lacks (none for an exchange or a pass)."""
    return phonies(state, action) if isinstance(action, Placement) else []


def read_human_move(text: str, state: ScrabbleState) -> Placement | Exchange | Pass:
    """:func:`parse_move`; under the state's challenge rule a placement whose words the
    lexicon lacks is allowed too (a phony: it stands unless challenged)."""
    try:
        return parse_move(text, state)
    except IllegalActionError:
        words = text.split()
        if (
            state.challenge_rule == "none"
            or len(words) != 2
            or words[0].lower()
            in (
                "x",
                "exchange",
            )
        ):
            raise
        return lay_word(state, words[0], words[1])
