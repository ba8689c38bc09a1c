"""``scorefour play``: the terminal renders a session; through a pseudo-terminal where a real
terminal matters (a move typed while the AI thinks), the rest through ``play_session``'s
read/write."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable

import pexpect

from stratagem.core.session import HUMAN, Session
from stratagem.games.scorefour.coach import ScoreFourCoaching
from stratagem.games.scorefour.play import play_session
from tests.terminal import Terminal

PROMPT = r"your move \([XO]\) > "
PEGS = [f"{c}{r}" for r in "1234" for c in "abcd"]
COACH = ScoreFourCoaching(depth=3)


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "stratagem", "scorefour", "play", *args],
        env=os.environ.copy(),
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 200),
    )


def play(spec: str, lines: Iterable[str], seed: int = 0) -> tuple[Terminal, Session]:
    """A session of a person (X) against ``spec``, rendered to a scripted terminal."""
    term = Terminal.scripted(lines)
    session = Session.new("scorefour", seats=[HUMAN, spec], seed=seed)
    play_session(session, COACH, read=term.read, write=term.write)
    return term, session


def test_a_whole_game_ends_with_its_result_and_the_session_holds_every_move() -> None:
    term = Terminal(lambda prompt, screen: PEGS[(term.prompts - 1) % 16])
    session = Session.new("scorefour", seats=[HUMAN, "minimax:depth=1"], seed=3)
    assert play_session(session, COACH, read=term.read, write=term.write) is True
    term.expect(r"you win!|the AI wins\.|a draw\.")
    assert session.over
    mine = re.findall(r"your move ([a-d][1-4]): ", term.transcript)
    assert mine == [PEGS[int(session.decisions()[j])] for j in session.human_decisions()]


def test_u_takes_back_your_move_and_the_ais_reply() -> None:
    term, session = play("minimax:depth=1", ["b2", "u", "c3", "q"])
    term.expect("your move b2: ")
    term.expect("AI plays")
    term.expect("taken back: 2 moves")
    term.expect("your move c3: ")
    assert session.decisions()[0] == "10" and len(session.takebacks) == 1  # c3 is peg 10


def test_a_takeback_before_any_move_says_there_is_none() -> None:
    term, _ = play("minimax:depth=1", ["u", "q"])
    term.expect("error: there is no decision of a person to take back")
    term.expect("game abandoned")


def test_bad_input_gets_a_clear_error() -> None:
    term, _ = play("minimax:depth=2", ["e5", "?", "q"])
    term.expect(PROMPT)
    term.expect(r"error: unknown peg 'e5': a peg is a column a-d and a row 1-4")
    term.expect(PROMPT)
    term.expect("type a peg")
    term.expect(PROMPT)
    term.expect("game abandoned")


def test_a_full_peg_is_refused() -> None:
    # a1 four times (the AI's replies may fill it sooner), then a1 once more if needed
    term, _ = play("minimax:depth=1", ["a1"] * 5 + ["q"])
    term.expect(r"error: peg a1 is full \(4 beads\); the open pegs are: b1, ")
    term.expect(PROMPT)
    term.expect("game abandoned")


def test_a_move_out_of_turn_is_refused() -> None:
    # The one pexpect test: typed-ahead lines are read from the terminal itself.
    # The AI starts and thinks for a second: a move typed meanwhile is not a move.
    child = spawn("--ai", "minimax:seconds=1.0", "--ai-first")
    child.expect("AI is thinking")
    child.sendline("b2")
    child.expect(r"error: not your turn: 'b2' was typed while the AI was moving; ignored")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("game abandoned")
    child.expect(pexpect.EOF)


def test_h_lists_the_coachs_rows_and_a_move_gets_the_coachs_verdict() -> None:
    term, session = play("minimax:depth=1", ["h", "b2", "q"])
    assert "Points are the search's evaluation" in term.transcript
    assert "A move's cost is the best move's value minus its own" in term.transcript
    rows = re.findall(r"^  ([a-d][1-4]): ", term.transcript, re.M)
    assert sorted(rows) == sorted(PEGS)  # every peg once
    judged = COACH.judge(session.state_at(0), "b2")
    assert f"your move b2: {judged.extra['played_value']} ({judged.label}, " in term.transcript
    assert f"{judged.cost:.0f} points behind {judged.extra['best_peg']}" in term.transcript
