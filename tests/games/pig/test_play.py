"""``stratagem pig play``: one game through a pseudo-terminal, as a person plays it; the rest
of the dialogue through ``play_terminal``'s read/write in-process."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable

import pexpect
import pytest

from stratagem.core.session import Session
from stratagem.games.pig.play import play_terminal
from stratagem.games.pig.reply import best_reply
from stratagem.games.pig.rules import PigRules, preset
from stratagem.games.pig.solver import PigSolution, solve
from stratagem.games.pig.state import PigState
from stratagem.games.pig.strategies import HoldAt
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


def test_a_poor_choice_is_priced_and_typos_are_explained() -> None:
    # in-process (the pexpect test above covers the terminal): piglet, the AI (optimal)
    # starts, seed 1. The first decision is at turn total 1 with roll 56.74% and hold
    # 56.59%, so holding gives away 0.15 points.
    term = Terminal.scripted(["jump", "hold", "q"])
    session = Session.new("pig", "piglet", ["optimal", "human"], seed=1)
    play_terminal(session, read=term.read, write=term.write)
    odds = term.expect(ODDS.pattern)
    roll, hold = float(odds.group(2)), float(odds.group(3))
    assert roll > hold
    term.expect(PROMPT)
    term.expect("type r \\(roll\\) or h \\(hold\\)")
    term.expect(PROMPT)
    given = term.expect(r"that gives away ([\d.]+) points of win probability \(good\)")
    assert float(given.group(1)) == pytest.approx(roll - hold, abs=0.011)
    term.expect(r"score: you 1, AI 0")
    term.expect(PROMPT)
    term.expect("game abandoned")
    assert term.prompts == 3


def test_t_takes_the_last_choice_back_and_the_coin_falls_the_same_again() -> None:
    """A takeback returns to your last roll-or-hold (not the roll that starts a turn); the
    same choice again meets the same coin, since the session deals by position."""
    term = Terminal.scripted(["r", "t", "r", "q"])
    session = Session.new("pig", "piglet", ["optimal", "human"], seed=1)
    play_terminal(session, read=term.read, write=term.write)
    first = term.expect(r"turn total 1: roll or hold\? > r\n  you rolled (\w+)")
    term.expect(r"taken back: \d+ decision\(s\) undone")
    term.expect(r"your chance to win: 56.74%")
    again = term.expect(r"turn total 1: roll or hold\? > r\n  you rolled (\w+)")
    assert again.group(1) == first.group(1)
    assert len(session.takebacks) == 1


def test_against_a_fixed_strategy_the_odds_are_the_best_replys() -> None:
    """Against hold:1 on piglet the odds shown at your first choice are the best reply's
    chances against hold:1 in that position (not the optimum's)."""
    term = Terminal.scripted(["q"])
    session = Session.new("pig", "piglet", ["human", "hold:1"], seed=2)
    play_terminal(session, read=term.read, write=term.write)
    term.expect("The odds are your chances against hold:1")
    odds = term.expect(ODDS.pattern)
    state = session.state
    assert isinstance(state, PigState) and state.player == 0
    rules = preset("piglet")
    reply = best_reply(rules, HoldAt(rules, 1))
    p_roll, p_hold = reply.action_values(*state.scores, state.turn_total)
    assert p_hold is not None
    assert (odds.group(2), odds.group(3)) == (f"{100 * p_roll:.2f}", f"{100 * p_hold:.2f}")
    p_roll_opt, p_hold_opt = solve(rules, use_cache=False).action_values(
        *state.scores, state.turn_total
    )
    assert (p_roll, p_hold) != (p_roll_opt, p_hold_opt)
