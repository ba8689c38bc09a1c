"""A solitaire game in the terminal, with the optimal advisor one ``?`` away.

Every decision is priced against the optimum; at the end the player sees the
average expected points lost per decision (Verhoeff's proficiency measure).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from stratagem.core.errors import StratagemError
from stratagem.core.files import bounded_input
from stratagem.core.game import sample_chance
from stratagem.games.yahtzee.state import Keep, Roll, Score, YahtzeeState
from stratagem.games.yahtzee.strategies import OptimalStrategy

HELP = """commands:
  keep 1 1 4   (or: k 114)   keep these dice and reroll the others
  keep -       (or: reroll)  reroll all five dice
  score BOX    (or: s BOX)   score the dice in a box (a unique prefix is enough)
  ?                          the advisor's table: every option priced
  card                       show the score card
  help                       this text
  quit                       leave the game"""


def parse_command(text: str, categories: tuple[str, ...]) -> Keep | Score | str:
    """A Keep or Score, or one of the words ``?``, ``help``, ``card``, ``quit``."""
    words = text.strip().lower().split()
    if not words:
        raise StratagemError("type a command ('help' lists them)")
    head, rest = words[0], words[1:]
    if head in ("?", "help", "card", "quit", "exit", "q") and not rest:
        return {"exit": "quit", "q": "quit"}.get(head, head)
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


def card_lines(state: YahtzeeState) -> list[str]:
    """The score card, with what the dice showing would score in each legal box."""
    card = state.card
    options = {} if state.rolling else card.options(state.dice)
    lines = []
    for name, value in zip(card.rules.categories, card.boxes):
        if value is not None:
            lines.append(f"  {name:<16}{value:>4}")
        elif name in options:
            points, bonus = options[name]
            extra = f" +{bonus} bonus" if bonus else ""
            lines.append(f"  {name:<16}   .   (now: {points}{extra})")
        else:
            lines.append(f"  {name:<16}   .")
    lines.append(
        f"  upper total {card.upper_total}/{card.rules.upper_bonus_threshold}"
        f"  bonuses {card.upper_bonus_points + card.yahtzee_bonus_points}  total {card.total}"
    )
    return lines


def play_terminal(
    strategy: OptimalStrategy,
    rng: np.random.Generator,
    read: Callable[[str], str] = bounded_input,
    write: Callable[[str], None] = print,
) -> tuple[int, float, int]:
    """Play one game; returns ``(final score, total loss, decisions)``."""
    rules = strategy.rules
    state = YahtzeeState.new(rules, 1)
    loss = 0.0
    decisions = 0
    write(f"Yahtzee ({rules.name}). Type 'help' for the commands, '?' for advice.")
    while not state.is_terminal():
        if state.rolling:
            roll = sample_chance(state, rng)
            assert isinstance(roll, Roll)
            state = state.apply(roll)
            if state.rolls_left == 2:
                write("")
                write("\n".join(card_lines(state)))
            continue
        dice = " ".join(map(str, state.dice))
        try:
            text = read(f"dice: {dice}   rolls left: {state.rolls_left} > ")
        except EOFError:
            write("")
            write("game abandoned")
            return state.card.total, loss, decisions
        try:
            command = parse_command(text, rules.categories)
        except StratagemError as exc:
            write(f"  {exc}")
            continue
        if command == "quit":
            write("game abandoned")
            return state.card.total, loss, decisions
        if command == "help":
            write(HELP)
            continue
        if command == "card":
            write("\n".join(card_lines(state)))
            continue
        advice = strategy.advise(state)
        if command == "?":
            for rank, a in enumerate(advice, start=1):
                write(f"  {rank:>3}. {a.action!s:<24} {a.value:9.3f}   regret {a.regret:7.3f}")
            continue
        chosen = next((a for a in advice if a.action == command), None)
        if chosen is None:
            if isinstance(command, Keep) and state.rolls_left == 0:
                write("  no rerolls left: score a box")
            elif isinstance(command, Keep):
                write(f"  cannot {command}: the dice are {dice}")
            else:
                legal = ", ".join(str(a.action)[6:] for a in advice if isinstance(a.action, Score))
                write(f"  cannot {command}; the boxes open to these dice: {legal}")
            continue
        decisions += 1
        loss += chosen.regret
        if chosen.regret > 1e-9:
            write(f"  cost {chosen.regret:.3f} expected points; best was {advice[0].action}")
        state = state.apply(command)
    final = state.card.total
    write("")
    write("\n".join(card_lines(state)))
    write(f"final score: {final}")
    write(
        f"decisions: {decisions}  expected points lost: {loss:.3f}  "
        f"average loss per decision: {loss / max(decisions, 1):.4f}"
    )
    write(f"(the optimal strategy averages {strategy.solution.expected_score:.2f})")
    return final, loss, decisions
