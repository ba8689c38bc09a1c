"""Play Pig against the optimal AI in the terminal, seeing your chance to win.

Before each of your decisions the game shows your probability of winning and
what rolling and holding would make it; at the end it adds up the win
probability your choices gave away against optimal play.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from stratagem.core.files import bounded_input
from stratagem.core.game import CHANCE
from stratagem.games.pig.solver import PigSolution
from stratagem.games.pig.state import PigAction, PigState
from stratagem.games.pig.strategies import OptimalAgent

HELP = "type r (roll) or h (hold); ? repeats the odds; q quits"


def _read_choice(text: str) -> str | None:
    word = text.strip().lower()
    return {
        "r": "roll", "roll": "roll", "h": "hold", "hold": "hold", "?": "?",
        "q": "quit", "quit": "quit", "help": "help",
    }.get(word)  # fmt: skip


def play_terminal(
    solution: PigSolution,
    rng: np.random.Generator,
    human: int = 0,
    read: Callable[[str], str] = bounded_input,
    write: Callable[[str], None] = print,
) -> tuple[int | None, float]:
    """Play one game; returns (winner or None if abandoned, win probability given away)."""
    rules = solution.rules
    ai = OptimalAgent(solution)
    state = PigState.new(rules)
    given_away = 0.0
    names = {human: "you", 1 - human: "AI"}
    write(
        f"{rules.describe()}. You are player {human} "
        f"({'you start' if human == 0 else 'the AI starts'}). {HELP}."
    )
    while not state.is_terminal():
        player = state.current_player
        if player == CHANCE:
            face = int(rng.integers(1, rules.faces + 1))
            who = names[state.player]
            nxt = state.apply(face)
            shown = ("heads" if face == 1 else "tails") if rules.faces == 2 else str(face)
            if face in rules.bust_faces:
                write(f"  {who} rolled {shown}: bust!")
            elif nxt.is_terminal():
                write(f"  {who} rolled {shown}: that makes {nxt.scores[state.player]}")
            else:
                write(f"  {who} rolled {shown}: turn total {nxt.turn_total}")
            if nxt.is_terminal():
                state = nxt
                break
            if nxt.player != state.player or nxt.target != state.target:
                write(_scores(nxt, human))
            state = nxt
            continue
        if state.turn_total == 0 and not state.is_last_turn:
            state = state.apply(PigAction.ROLL)  # every turn starts with a roll
            continue
        if player != human:
            action = ai.act(state, rng)
            if action == PigAction.HOLD:
                write(f"  AI holds at {state.turn_total}")
                nxt = state.apply(action)
                if not nxt.is_terminal():
                    write(_scores(nxt, human))
                state = nxt
            else:
                state = state.apply(action)
            continue
        advice = {a.action: a for a in ai.advise(state)}
        best = max(a.value for a in advice.values())
        roll = advice[PigAction.ROLL].value
        hold = advice[PigAction.HOLD].value if PigAction.HOLD in advice else None
        line = f"your chance to win: {100 * best:.2f}%  (roll {100 * roll:.2f}%"
        line += f", hold {100 * hold:.2f}%)" if hold is not None else ")"
        if state.is_last_turn:
            line += f"  [last turn: beat {state.target}]"
        write(line)
        choice = None
        while choice not in ("roll", "hold"):
            try:
                text = read(f"turn total {state.turn_total}: roll or hold? > ")
            except EOFError:
                write("")
                write("game abandoned")
                return None, given_away
            choice = _read_choice(text)
            if choice == "quit":
                write("game abandoned")
                return None, given_away
            if choice in ("?", "help") or choice is None:
                write(line if choice == "?" else f"  {HELP}")
                choice = None
        action = PigAction.ROLL if choice == "roll" else PigAction.HOLD
        given_away += best - advice[action].value
        if best - advice[action].value > 1e-12:
            write(
                f"  that gives away {100 * (best - advice[action].value):.2f} points of "
                f"win probability"
            )
        nxt = state.apply(action)
        if action == PigAction.HOLD and not nxt.is_terminal():
            write(_scores(nxt, human))
        state = nxt
    assert state.winner is not None
    write(_scores(state, human))
    write("you win!" if state.winner == human else "the AI wins.")
    write(f"win probability given away by your decisions: {100 * given_away:.2f} points")
    return state.winner, given_away


def _scores(state: PigState, human: int) -> str:
    you, ai = state.scores[human], state.scores[1 - human]
    extra = ""
    if state.target is not None and state.winner is None:
        who = "you" if state.player == human else "the AI"
        extra = f" -- last turn: {who} must pass {state.target}"
    return f"score: you {you}, AI {ai}{extra}"
