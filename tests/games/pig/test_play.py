"""``stratagem pig play``: one game through a pseudo-terminal, as a person plays it; the rest
of the dialogue through ``play_terminal``'s read/write in-process."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable

import numpy as np
import pexpect
import pytest

from stratagem.games.pig.play import play_terminal
from stratagem.games.pig.rules import PigRules, preset
from stratagem.games.pig.solver import PigSolution
from tests.terminal import Terminal

PROMPT = r"turn total (\d+): roll or hold\? > "
ODDS = re.compile(r"your chance to win: ([\d.]+)%  \(roll ([\d.]+)%(?:, hold ([\d.]+)%)?\)")


def spawn(*args: str) -> pexpect.spawn:
    return pexpect.spawn(
        sys.executable,
        ["-m", "stratagem", "pig", "play", *args],
        env=os.environ.copy(),
        encoding="utf-8",
        timeout=60,
        dimensions=(100, 200),
    )


@pytest.fixture(autouse=True)
def _solved(pig_solved: Callable[[PigRules], PigSolution]) -> None:
    pig_solved(preset("pig-raab"))
    pig_solved(preset("piglet"))


def test_taking_the_better_option_every_time_gives_away_nothing() -> None:
    child = spawn("--rules", "pig-raab", "--seed", "7")
    decisions = 0
    while True:
        i = child.expect([ODDS, r"win probability given away by your decisions: ([\d.]+)"])
        if i == 1:
            assert float(child.match.group(1)) == 0.0
            break
        roll, hold = float(child.match.group(2)), child.match.group(3)
        child.expect(PROMPT)
        child.sendline("h" if hold is not None and float(hold) >= roll else "r")
        decisions += 1
    assert decisions > 3
    child.expect(pexpect.EOF)


def test_a_poor_choice_is_priced_and_typos_are_explained(
    pig_solved: Callable[[PigRules], PigSolution],
) -> None:
    # in-process (the pexpect test above covers the terminal): `pig play --rules piglet
    # --seed 1 --ai-first`. The first decision is at turn total 1 with roll 56.74% and
    # hold 56.59%, so holding gives away 0.15 points.
    term = Terminal.scripted(["jump", "hold", "q"])
    solution = pig_solved(preset("piglet"))
    play_terminal(solution, np.random.default_rng(1), human=1, read=term.read, write=term.write)
    odds = term.expect(ODDS.pattern)
    roll, hold = float(odds.group(2)), float(odds.group(3))
    assert roll > hold
    term.expect(PROMPT)
    term.expect("type r \\(roll\\) or h \\(hold\\)")
    term.expect(PROMPT)
    given = term.expect(r"that gives away ([\d.]+) points of win probability")
    assert float(given.group(1)) == pytest.approx(roll - hold, abs=0.011)
    term.expect(r"score: you 1, AI 0")
    term.expect(PROMPT)
    term.expect("game abandoned")
    assert term.prompts == 3
