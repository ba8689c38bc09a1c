"""Play Pig in the terminal: a renderer of a :class:`~stratagem.core.session.Session`.

The session holds the game (seats, the deal, the line, takebacks); this module only
prints what happened and reads your decisions. Before each of your decisions the
coach (:mod:`stratagem.games.pig.coach`) shows your chance of winning and what
rolling and holding would make it: against a fixed strategy such as ``hold:25``
the chance against that opponent with the best reply to it, else the optimum's.
``t`` takes your last decision back (the dice you met stay the same: the session
deals by position); at the end the win probability your decisions gave away is
added up.

>>> from stratagem.core.session import Session
>>> lines = iter(["h", "q"])
>>> s = Session.new("pig", "coin-3", ["human", "hold:2"], seed=7)
>>> _ = play_terminal(s, read=lambda prompt: next(lines), write=lambda text="": None)
>>> s.decisions()  # the forced rolls are made for you; the AI (hold:2) plays its turns
['roll', 'roll', 'roll', 'roll', 'hold', 'roll', 'roll', 'roll']
"""

from __future__ import annotations

from collections.abc import Callable

from stratagem.core.files import bounded_input
from stratagem.core.game import CHANCE
from stratagem.core.session import Session, Step
from stratagem.games.pig.coach import PigCoaching, face_name
from stratagem.games.pig.rules import PRESETS, PigRules
from stratagem.games.pig.state import PigState

HELP = "type r (roll) or h (hold); t takes your last decision back; ? repeats the odds; q quits"


def rules_spec(rules: PigRules) -> str:
    """The registry's spelling of ``rules`` (``pig:goal=50,faces=8``), for a session.

    >>> from stratagem.games.pig.rules import preset
    >>> rules_spec(preset("pig").with_options(goal=50, faces=8))
    'pig:goal=50,faces=8'
    """
    from stratagem.games.pig.spec import GAME

    base = PRESETS[rules.name]
    values: dict[str, object] = {}
    if rules.goal != base.goal:
        values["goal"] = rules.goal
    if rules.faces != base.faces:
        values["faces"] = rules.faces
    if rules.bust_faces != base.bust_faces:
        values["bust_faces"] = "/".join(map(str, rules.bust_faces))
    if rules.bust_scores_one != base.bust_scores_one:
        values["bust_scores_one"] = rules.bust_scores_one
    if rules.catch_up_turn != base.catch_up_turn:
        values["catch_up_turn"] = rules.catch_up_turn
    return GAME.rules_spec(rules.name, values)


def _read_choice(text: str) -> str | None:
    word = text.strip().lower()
    return {
        "r": "roll", "roll": "roll", "h": "hold", "hold": "hold", "?": "?",
        "t": "takeback", "takeback": "takeback", "take back": "takeback",
        "q": "quit", "quit": "quit", "help": "help",
    }.get(word)  # fmt: skip


class _Narrator:
    """Prints the session's line as it grows, step by step, in the game's words."""

    def __init__(self, session: Session, human: int, write: Callable[[str], None]) -> None:
        self.session = session
        self.human = human
        self.write = write
        self.reset()

    def reset(self) -> None:
        """Start again from the line as it is now (after a takeback), printing nothing."""
        state = self.session.game.new_state(self.session.rules, len(self.session.seats))
        for step in self.session.line:
            state = state.apply(step.action)
        assert isinstance(state, PigState)
        self.state = state
        self.shown = len(self.session.line)

    def name(self, player: int) -> str:
        return "you" if player == self.human else "AI"

    def scores(self, state: PigState) -> str:
        you, ai = state.scores[self.human], state.scores[1 - self.human]
        extra = ""
        if state.target is not None and state.winner is None:
            who = "you" if state.player == self.human else "the AI"
            extra = f" -- last turn: {who} must pass {state.target}"
        return f"score: you {you}, AI {ai}{extra}"

    def catch_up(self) -> None:
        line = self.session.line
        while self.shown < len(line):
            self._show(line[self.shown])
            self.shown += 1

    def _show(self, step: Step) -> None:
        state = self.state
        nxt = state.apply(step.action)
        assert isinstance(nxt, PigState)
        rules = state.rules
        if step.player == CHANCE:
            who = self.name(state.player)
            face = step.action
            assert isinstance(face, int)
            shown = face_name(rules, face)
            if face in rules.bust_faces:
                self.write(f"  {who} rolled {shown}: bust!")
            elif nxt.is_terminal():
                self.write(f"  {who} rolled {shown}: that makes {nxt.scores[state.player]}")
            else:
                self.write(f"  {who} rolled {shown}: turn total {nxt.turn_total}")
            if not nxt.is_terminal() and (nxt.player != state.player or nxt.target != state.target):
                self.write(self.scores(nxt))
        elif step.text == "hold":
            if step.player != self.human:
                self.write(f"  AI holds at {state.turn_total}")
            if not nxt.is_terminal():
                self.write(self.scores(nxt))
        self.state = nxt


def _last_choice(session: Session) -> int | None:
    """The decision number of the person's last real choice (roll or hold), skipping
    the roll that starts every turn: what ``t`` returns to."""
    for j in reversed(session.human_decisions()):
        if len(session.state_at(j).legal_actions()) > 1:
            return j
    return None


def play_terminal(
    session: Session,
    coach: PigCoaching | None = None,
    read: Callable[[str], str] = bounded_input,
    write: Callable[[str], None] = print,
) -> tuple[int | None, float]:
    """Play ``session`` (one person's seat and an agent's) to its end or until the person
    quits; returns (winner or None if abandoned, win probability given away)."""
    humans = [i for i, seat in enumerate(session.seats) if seat.human]
    if len(humans) != 1:
        raise ValueError("terminal Pig is one person against an agent")
    human = humans[0]
    rules = session.game.rules_object(session.rules)
    if coach is None:
        coach = PigCoaching(rules, [str(s) for s in session.seats])
    opponent = session.seats[1 - human]
    narrator = _Narrator(session, human, write)
    given: dict[int, float] = {}  # decision number -> win probability it gave away
    write(
        f"{rules.describe()}, against {opponent}. You are player {human} "
        f"({'you start' if human == 0 else 'the AI starts'}). {HELP}."
    )
    if coach.against is not None:
        write(f"The odds are your chances against {coach.against}, playing the best reply to it.")
    while True:
        narrator.catch_up()
        if session.over:
            break
        if not session.waiting_for_human:
            session.ai_move()
            continue
        if session.legal_texts() == ["roll"]:
            session.submit("roll")  # every turn starts with a roll
            continue
        rows = {r["action"]: r for r in coach.rows(session.state)}
        best = max(r["value"] for r in rows.values())
        line = f"your chance to win: {100 * best:.2f}%  (roll {100 * rows['roll']['value']:.2f}%"
        line += f", hold {100 * rows['hold']['value']:.2f}%)" if "hold" in rows else ")"
        state = session.state
        assert isinstance(state, PigState)
        if state.is_last_turn:
            line += f"  [last turn: beat {state.target}]"
        write(line)
        choice = None
        while choice not in ("roll", "hold", "takeback"):
            try:
                text = read(f"turn total {state.turn_total}: roll or hold? > ")
            except EOFError:
                write("")
                write("game abandoned")
                return None, sum(given.values())
            choice = _read_choice(text)
            if choice == "quit":
                write("game abandoned")
                return None, sum(given.values())
            if choice in ("?", "help") or choice is None:
                write(line if choice == "?" else f"  {HELP}")
                choice = None
        if choice == "takeback":
            j = _last_choice(session)
            if j is None:
                write("  nothing to take back yet")
                continue
            taken = session.takeback(j)
            for k in [k for k in given if k >= j]:
                del given[k]
            narrator.reset()
            write(f"  taken back: {taken.undone} decision(s) undone")
            write(narrator.scores(narrator.state))
            continue
        judged = coach.judge(state, choice)
        given[len(session.decisions())] = judged.cost
        if judged.cost > 1e-12:
            write(
                f"  that gives away {100 * judged.cost:.2f} points of win probability "
                f"({judged.label})"
            )
        session.submit(choice)
    final = session.state
    assert isinstance(final, PigState) and final.winner is not None
    write(narrator.scores(final))
    write("you win!" if final.winner == human else "the AI wins.")
    total = sum(given.values())
    write(f"win probability given away by your decisions: {100 * total:.2f} points")
    if session.takebacks:
        write(f"takebacks: {len(session.takebacks)}")
    return final.winner, total
