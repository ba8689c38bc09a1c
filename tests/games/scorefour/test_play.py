"""``scorefour play`` driven through a pseudo-terminal, as a person plays it."""

from __future__ import annotations

import os
import sys

import pexpect

PROMPT = r"your move \([XO]\) > "
PEGS = [f"{c}{r}" for r in "1234" for c in "abcd"]


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "stratagem.games.scorefour.cli", "play", *args],
        env=os.environ.copy(),
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 200),
    )


def test_a_whole_game_against_decision_analysis_shows_the_skill_estimate() -> None:
    child = spawn("--ai", "decision-analysis", "--f0", "0.9", "--beta", "0.1", "--seed", "3")
    turn = 0
    estimates = []
    while True:
        index = child.expect([PROMPT, r"you win!|the AI wins\.|a draw\."])
        if index == 1:
            break
        estimate = child.before.rsplit("its estimate of your skill: f = ", 1)
        if len(estimate) == 2:
            estimates.append(float(estimate[1].split()[0]))
        child.sendline(PEGS[turn % 16])  # a poor player: a1, b1, c1, ... in turn
        turn += 1
    child.expect(r"final estimate of your skill: f = ([0-9.]+)\r?\n")
    final = float(child.match.group(1))
    child.expect(pexpect.EOF)
    assert len(estimates) >= 2 and len(set(estimates)) > 1  # it learns as the game goes
    assert 0.0 <= final < 0.9  # moves played in a fixed order are poor ones


def test_bad_input_gets_a_clear_error() -> None:
    child = spawn("--ai", "minimax", "--depth", "2")
    child.expect(PROMPT)
    child.sendline("e5")
    child.expect(r"error: unknown peg 'e5': a peg is a column a-d and a row 1-4")
    child.expect(PROMPT)
    child.sendline("?")
    child.expect("type a peg")
    child.sendline("q")
    child.expect("game abandoned")
    child.expect(pexpect.EOF)


def test_a_full_peg_is_refused() -> None:
    child = spawn("--ai", "minimax", "--depth", "1")
    child.expect(PROMPT)
    filled = False
    for _ in range(4):
        child.sendline("a1")
        index = child.expect([r"AI plays", r"error: peg a1 is full"])
        if index == 1:
            filled = True
            break
        child.expect(PROMPT)
    if not filled:
        child.expect(PROMPT)
        child.sendline("a1")
        child.expect(r"error: peg a1 is full \(4 beads\); the open pegs are: b1, ")
    child.sendline("q")
    child.expect(pexpect.EOF)


def test_a_move_out_of_turn_is_refused() -> None:
    # The AI starts and thinks for a second: a move typed meanwhile is not a move.
    child = spawn("--ai", "minimax", "--seconds", "1.0", "--second")
    child.expect("AI is thinking")
    child.sendline("b2")
    child.expect(r"error: not your turn: 'b2' was typed while the AI was moving; ignored")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("game abandoned")
    child.expect(pexpect.EOF)
