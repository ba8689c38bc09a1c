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
from dataclasses import dataclass
from typing import NoReturn

import numpy as np

from stratagem.core.agent import Agent
from stratagem.core.errors import IllegalActionError, StratagemError
from stratagem.core.files import bounded_input
from stratagem.core.registry import make_agent
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
    ChallengeOutcome,
    ChallengeWindow,
    ai_challenges,
    check_rule,
    lay_word,
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
    the game ended. Games under a challenge rule are played by :func:`play_terminal`."""
    from stratagem.games.scrabble.coach import ScrabbleCoaching

    state = session.state
    assert isinstance(state, ScrabbleState)
    coaching = ScrabbleCoaching(state.lexicon)
    people = [p for p, seat in enumerate(session.seats) if seat.human]
    write(f"Scrabble ({session.rules}; {state.lexicon.source}). {HELP}; u takes back your "
          "last move.")  # fmt: skip
    while not session.over:
        if not session.waiting_for_human:
            if session.state.bag_size() == 0:  # type: ignore[attr-defined]
                write("AI thinks (the endgame search)...")
            step = session.ai_move()
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
            if low in ("u", "undo", "takeback"):
                try:
                    taken = session.takeback()
                except StratagemError as exc:
                    write(f"  not allowed: {exc}")
                    continue
                write(f"  taken back: {taken.undone} move{'s' if taken.undone != 1 else ''}")
                break
            try:
                action = parse_move(cmd, state)
                verdict = coaching.judge(state, str(action))
                session.submit(action)
            except StratagemError as exc:
                write(f"  not allowed: {exc}")
                continue
            if verdict.cost < 0.05:
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


def play_terminal(
    lexicon: Lexicon,
    rng: np.random.Generator,
    human: int = 0,
    read: Callable[[str], str] = bounded_input,
    write: Callable[[str], None] = print,
    ai: Agent | None = None,
    challenge: str = "none",
    record: list[GameEvent] | None = None,
) -> ScrabbleState | None:
    """Play one game against ``ai`` (default :data:`DEFAULT_AI`) with the coach, under the
    ``challenge`` rule (:mod:`.challenge`); returns the final state, ``None`` if abandoned.
    ``record``, when given, receives the game's events (for a GCG record: :mod:`.gcg`)."""
    check_rule(challenge)
    if ai is None:
        ai = make_agent("scrabble", lexicon.tiles.name, DEFAULT_AI)
        ai.think_seconds = DEFAULT_THINK  # type: ignore[attr-defined]
    coach = make_coach(lexicon.tiles.name)
    state = ScrabbleState.new(lexicon, 2)
    events: list[GameEvent] = record if record is not None else []
    window: ChallengeWindow | None = None
    write(f"Scrabble ({lexicon.tiles.name}, {lexicon.source}; challenge rule {challenge}: "
          f"{RULE_HELP[challenge]}). {HELP}" + ("; c challenges the AI's last word." if
                                                 challenge != "none" else "."))  # fmt: skip
    logged = [0, 0]  # the points of each player's moves that stand
    while not state.is_terminal():
        if state.current_player < 0:
            state = state.apply(state.sample_chance(rng))
            continue
        player = state.current_player
        if player != human:
            budget = getattr(ai, "think_seconds", None)
            if budget is not None and state.bag_size() == 0:
                write(f"AI thinks (the endgame search, up to {budget:g} s)...")
            action = ai.act(state, rng)
            assert isinstance(action, (Placement, Exchange, Pass))
            searched = getattr(ai, "last_endgame", None)
            if searched is not None:
                ai.last_endgame = None  # type: ignore[attr-defined]
                write(f"  {'proved' if searched.exact else 'best found'}: "
                      f"{searched.depth} plies, {searched.nodes:,} nodes")  # fmt: skip
            write(f"AI plays {action}")
            events.append(GameEvent(player, state, action))
            logged[player] += action.score if isinstance(action, Placement) else 0
            after = state.apply(action)
            window = None
            if isinstance(action, Placement) and challenge != "none":
                window = ChallengeWindow(state, action, after, challenge)
            state = after
            continue
        write("")
        write(draw_board(state))
        write(
            f"score: you {state.scores[human]}, AI {state.scores[1 - human]}; "
            f"bag {state.bag_size()} tiles"
        )
        for line in tracking_lines(state, human):
            write(line)
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
            if cmd.lower() in ("c", "challenge"):
                if window is None or window.outcome is not None:
                    why = ("this game has no challenges (rule none)" if challenge == "none"
                           else "there is no word of the AI's to challenge now")  # fmt: skip
                    write(f"  not allowed: {why}")
                    continue
                moved = window.mover
                state = window.settle(state)
                assert window.outcome is not None
                write(f"  challenge: {window.outcome.text}")
                if window.outcome.phony:
                    logged[moved] -= window.move.score
                events.append(GameEvent(human, state, Challenge(window.outcome, moved)))
                if window.outcome.lost_turn == human or state.current_player != human:
                    break
                continue
            try:
                action = read_human_move(cmd, state, challenge)
                verdict = judge(coach, state, action)
                before = state
                state = (state.place_unchecked(action) if isinstance(action, Placement)
                         else state.apply(action))  # fmt: skip
            except StratagemError as exc:
                write(f"  not allowed: {exc}")
                continue
            events.append(GameEvent(human, before, action))
            logged[human] += action.score if isinstance(action, Placement) else 0
            window = None
            if verdict is None or verdict[0] < 0.05:
                write(f"you play {action}; the coach agrees" if verdict is not None
                      else f"you play {action}")  # fmt: skip
            else:
                behind, best = verdict
                write(f"you play {action}; the coach gives up {behind:.1f} against {best}")
            if isinstance(action, Placement) and challenge != "none":
                mine = ChallengeWindow(before, action, state, challenge)
                if ai_challenges(mine):
                    state = mine.settle(state)
                    assert mine.outcome is not None
                    write(f"  the AI challenges: {mine.outcome.text}")
                    events.append(GameEvent(1 - human, state, Challenge(mine.outcome, human)))
                    logged[human] -= action.score
            break
    write("")
    write(draw_board(state))
    for p, text, points in end_adjustments(state, logged):
        who = "you" if p == human else "AI"
        write(f"end of game: {who}, {text} ({points:+d})")
    you, them = state.scores[human], state.scores[1 - human]
    write(f"final score: you {you}, AI {them}")
    write("you win!" if you > them else ("a draw." if you == them else "the AI wins."))
    return state


def read_human_move(text: str, state: ScrabbleState, challenge: str) -> Placement | Exchange | Pass:
    """:func:`parse_move`; under a challenge rule a placement whose words the lexicon lacks
    is allowed too (a phony: it stands unless challenged)."""
    try:
        return parse_move(text, state)
    except IllegalActionError:
        words = text.split()
        if challenge == "none" or len(words) != 2 or words[0].lower() in ("x", "exchange"):
            raise
        return lay_word(state, words[0], words[1])


@dataclass(frozen=True)
class Challenge:
    """A challenge made in a game (for the record): what it decided, whose move it was."""

    outcome: ChallengeOutcome
    mover: int

    def __str__(self) -> str:
        return f"challenge: {self.outcome.text}"


@dataclass(frozen=True)
class GameEvent:
    """One turn of a game for its record: who, the position it was played from (or, for a
    :class:`Challenge`, the position after it), and what."""

    player: int
    state: ScrabbleState
    action: Placement | Exchange | Pass | Challenge
