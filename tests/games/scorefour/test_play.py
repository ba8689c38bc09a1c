"""``scorefour play``: through a pseudo-terminal where a real terminal matters (a move typed
while the AI thinks), the rest of the dialogue through ``play_terminal``'s read/write."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Iterable

import numpy as np
import pexpect

from stratagem.algorithms.decision_analysis import DecisionAnalysis
from stratagem.core.registry import make_agent
from stratagem.games.scorefour.play import play_terminal
from stratagem.games.scorefour.players import MinimaxAgent
from stratagem.games.scorefour.state import RULES
from tests.terminal import Terminal

PROMPT = r"your move \([XO]\) > "
PEGS = [f"{c}{r}" for r in "1234" for c in "abcd"]


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "stratagem", "scorefour", "play", *args],
        env=os.environ.copy(),
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 200),
    )


def play(spec: str, lines: Iterable[str], seed: int | None = None) -> Terminal:
    """``scorefour play`` in-process: the agent the CLI makes for its options, a scripted
    terminal (for `--ai minimax --depth D`, the CLI's spec is `minimax:depth=D,seconds=60.0`)."""
    term = Terminal.scripted(lines)
    ai = make_agent("scorefour", RULES, spec)
    assert isinstance(ai, MinimaxAgent | DecisionAnalysis)
    play_terminal(ai, np.random.default_rng(seed), read=term.read, write=term.write)
    return term


def test_a_whole_game_against_decision_analysis_shows_the_skill_estimate() -> None:
    # `scorefour play --ai decision-analysis --f0 0.9 --beta 0.1 --seed 3`, a poor player
    # typing a1, b1, c1, ... in turn
    term = Terminal(lambda prompt, screen: PEGS[(term.prompts - 1) % 16])
    ai = make_agent("scorefour", RULES, "decision-analysis:f0=0.9,beta=0.1")
    assert isinstance(ai, DecisionAnalysis)
    winner = play_terminal(ai, np.random.default_rng(3), read=term.read, write=term.write)
    assert winner in (0, 1, -1)
    estimates = [
        float(f) for f in re.findall(r"its estimate of your skill: f = ([0-9.]+)", term.transcript)
    ]
    term.expect(r"you win!|the AI wins\.|a draw\.")
    final = float(term.expect(r"final estimate of your skill: f = ([0-9.]+)\n").group(1))
    assert len(estimates) >= 2 and len(set(estimates)) > 1  # it learns as the game goes
    assert 0.0 <= final < 0.9  # moves played in a fixed order are poor ones


def test_bad_input_gets_a_clear_error() -> None:
    term = play("minimax:depth=2,seconds=60.0", ["e5", "?", "q"])
    term.expect(PROMPT)
    term.expect(r"error: unknown peg 'e5': a peg is a column a-d and a row 1-4")
    term.expect(PROMPT)
    term.expect("type a peg")
    term.expect(PROMPT)
    term.expect("game abandoned")


def test_a_full_peg_is_refused() -> None:
    # a1 four times (the AI's replies may fill it sooner), then a1 once more if needed
    term = play("minimax:depth=1,seconds=60.0", ["a1"] * 5 + ["q"])
    term.expect(r"error: peg a1 is full \(4 beads\); the open pegs are: b1, ")
    term.expect(PROMPT)
    term.expect("game abandoned")


def test_a_move_out_of_turn_is_refused() -> None:
    # The one pexpect test: typed-ahead lines are read from the terminal itself.
    # The AI starts and thinks for a second: a move typed meanwhile is not a move.
    child = spawn("--ai", "minimax", "--seconds", "1.0", "--second")
    child.expect("AI is thinking")
    child.sendline("b2")
    child.expect(r"error: not your turn: 'b2' was typed while the AI was moving; ignored")
    child.expect(PROMPT)
    child.sendline("q")
    child.expect("game abandoned")
    child.expect(pexpect.EOF)


def test_h_lists_the_coachs_view_of_every_move_and_a_move_gets_its_verdict() -> None:
    term = play("minimax:depth=1", ["h", "b2", "q"])
    assert "Points are the search's evaluation" in term.transcript
    assert "f places a move between the worst legal move (0) and the best (1)" in term.transcript
    rows = re.findall(r"^  ([a-d][1-4]): ", term.transcript, re.M)
    assert sorted(rows) == sorted(PEGS)  # every peg once
    assert "a1: +13 points (best; f = 1.00)" in term.transcript
    assert "your move b2: +7 points (inaccuracy, 6 behind; f = 0.00)" in term.transcript
