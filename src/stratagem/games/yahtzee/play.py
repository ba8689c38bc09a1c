"""Yahtzee in the terminal: a renderer of a play :class:`~stratagem.core.session.Session`.

The session holds the game (seats, the deal, takeback); the coach
(:class:`~.coach.YahtzeeCoaching` for a preset's card,
:class:`~.variant_coach.VariantCoaching` for a reduced one, both
:class:`~.coach.CardCoaching`) prices every option and every decision in the unit
of the game being played: expected points alone, chance of winning against
opponents. This module only reads commands and prints what those two return.

Alone, the final line is the average expected points lost per decision (Verhoeff's
proficiency measure) beside the optimum's expected score.
"""

from __future__ import annotations

from collections.abc import Callable

from stratagem.core.coaching import Judged
from stratagem.core.errors import StratagemError
from stratagem.core.files import bounded_input
from stratagem.core.session import Session
from stratagem.games.yahtzee.coach import CardCoaching, final_report
from stratagem.games.yahtzee.state import Keep, Score, TurnState

HELP = """commands:
  keep 1 1 4   (or: k 114)   keep these dice and reroll the others
  keep -       (or: reroll)  reroll all five dice
  score BOX    (or: s BOX)   score the dice in a box (a unique prefix is enough)
  ?                          the coach's table: every option priced
  card                       show the score cards
  back                       take back your last decision (the dice stay the same)
  help                       this text
  quit                       leave the game"""

WORDS = ("?", "help", "card", "quit", "back")


def parse_command(text: str, categories: tuple[str, ...]) -> Keep | Score | str:
    """A Keep or Score, or one of the words ``?``, ``help``, ``card``, ``back``, ``quit``."""
    words = text.strip().lower().split()
    if not words:
        raise StratagemError("type a command ('help' lists them)")
    head, rest = words[0], words[1:]
    aliases = {"exit": "quit", "q": "quit", "undo": "back", "takeback": "back"}
    if (head in WORDS or head in aliases) and not rest:
        return aliases.get(head, head)
    if head in ("reroll", "r") and not rest:
        return Keep(())
    if head in ("keep", "k"):
        if rest in ([], ["-"]):
            return Keep(())
        digits = "".join(rest)
        if not digits.isdigit():
            raise StratagemError(f"cannot read {text.strip()!r}: keep takes faces, e.g. keep 1 1 4")
        return Keep(tuple(sorted(int(d) for d in digits)))
    if head in ("score", "s"):
        name = "_".join(rest)
        if not name:
            raise StratagemError("score which box? e.g. score chance")
        if name in categories:
            return Score(name)
        matches = [c for c in categories if c.startswith(name)]
        if len(matches) == 1:
            return Score(matches[0])
        if matches:
            raise StratagemError(f"{name!r} could be {', '.join(matches)}")
        raise StratagemError(f"no box called {name!r}; the boxes are: {', '.join(categories)}")
    raise StratagemError(f"unknown command {text.strip()!r} ('help' lists them)")


def card_lines(view: dict[str, object], seat: int, names: list[str]) -> list[str]:
    """One card of the coach's view, with what the dice would score in each open box
    (shown on the card of the player to move)."""
    cards = view["cards"]
    assert isinstance(cards, list)
    card = cards[seat]
    options = view["box_points"] if view["player"] == seat else {}
    assert isinstance(options, dict)
    lines = [f"  {names[seat]}"] if len(cards) > 1 else []
    for name, value in card["boxes"].items():
        if value is not None:
            lines.append(f"  {name:<16}{value:>4}")
        elif name in options:
            lines.append(f"  {name:<16}   .   (now: {options[name]})")
        else:
            lines.append(f"  {name:<16}   .")
    bonus = card["upper_bonus"] + card["yahtzee_bonus"]
    lines.append(
        f"  upper total {card['upper_total']}/{card['upper_bonus_threshold']}"
        f"  bonuses {bonus}  total {card['total']}"
    )
    return lines


def _amount(coach: CardCoaching, value: float) -> str:
    return f"{100 * value:6.2f}%" if coach.unit.percent else f"{value:9.3f}"


def play_terminal(
    session: Session,
    coach: CardCoaching,
    read: Callable[[str], str] = bounded_input,
    write: Callable[[str], None] = print,
) -> Session:
    """Play ``session`` to its end (or until the person quits); returns it."""
    names = [
        "you" if seat.human else f"player {i + 1} ({seat})" for i, seat in enumerate(session.seats)
    ]
    judged: dict[int, Judged] = {}  # decision number -> the coach's verdict
    write(f"Yahtzee ({coach.name}). Type 'help' for the commands, '?' for advice.")
    write(coach.note)
    shown_turn: tuple[int, int] | None = None
    while not session.over:
        for step in session.play_agents():
            write(f"  {names[step.player]}: {step.text}")
        if session.over:
            break
        state = session.state
        assert isinstance(state, TurnState)
        view = coach.view(state)
        turn = (state.player, len(state.card.filled))
        if turn != shown_turn and state.rolls_left == 2:
            write("")
            write("\n".join(card_lines(view, state.player, names)))
            shown_turn = turn
        dice = " ".join(map(str, state.dice))
        try:
            text = read(f"dice: {dice}   rolls left: {state.rolls_left} > ")
        except EOFError:
            write("")
            write("game abandoned")
            return session
        try:
            command = parse_command(text, coach.categories)
        except StratagemError as exc:
            write(f"  {exc}")
            continue
        if command == "quit":
            write("game abandoned")
            return session
        if command == "help":
            write(HELP)
            continue
        if command == "card":
            for seat in range(len(session.seats)):
                write("\n".join(card_lines(view, seat, names)))
            continue
        if command == "back":
            try:
                back = session.takeback()
            except StratagemError as exc:
                write(f"  {exc}")
                continue
            for j in [j for j in judged if j >= back.to]:
                del judged[j]
            shown_turn = None
            write(f"  taken back ({back.undone} decision{'s' if back.undone != 1 else ''})")
            continue
        if command == "?":
            for rank, row in enumerate(coach.rows(state), start=1):
                value = _amount(coach, row["value"])
                cost = _amount(coach, row["cost"])
                points = f"   {row['expected_score']:8.2f} pts" if coach.unit.percent else ""
                write(
                    f"  {rank:>3}. {row['action']:<24} {value}   regret {cost}{points}"
                    f"   {row['label']}"
                )
            continue
        assert isinstance(command, Keep | Score)
        text = str(command)
        if text not in session.legal_texts():
            if isinstance(command, Keep) and state.rolls_left == 0:
                write("  no rerolls left: score a box")
            elif isinstance(command, Keep):
                write(f"  cannot {command}: the dice are {dice}")
            else:
                boxes = ", ".join(view["box_points"])
                write(f"  cannot {command}; the boxes open to these dice: {boxes}")
            continue
        number = len(session.decisions())
        verdict = coach.judge(state, text)
        judged[number] = verdict
        if verdict.cost > 1e-9:
            write(f"  cost {coach.amount(verdict.cost)}; best was {verdict.best} ({verdict.label})")
        session.submit(text)
    final = session.state
    assert isinstance(final, TurnState)
    view = coach.view(final)
    write("")
    for seat in range(len(session.seats)):
        write("\n".join(card_lines(view, seat, names)))
    totals = [card.total for card in final.cards]
    human = next((i for i, s in enumerate(session.seats) if s.human), 0)
    verdicts = [judged[j] for j in sorted(judged)]
    report = final_report(coach, totals, verdicts, human)
    write(f"final score: {totals[human]}")
    if len(totals) > 1:
        write("scores: " + ", ".join(f"{n} {t}" for n, t in zip(names, totals, strict=True)))
        write(f"result: {report['result']}")
    n = report["decisions"]
    lost = report["expected_points_lost"]
    write(
        f"decisions: {n}  expected points lost: {lost:.3f}  "
        f"average loss per decision: {lost / max(n, 1):.4f}"
    )
    if coach.unit.percent:
        write(f"chance of winning given up: {100 * report['total_cost']:.1f} percentage points")
    write(
        f"the optimal strategy averages {report['optimum_expected']:.1f}; "
        f"luck {report['luck']:+.1f}, skill {-lost:+.1f} (final = optimum + luck + skill)"
    )
    return session
