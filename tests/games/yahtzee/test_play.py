"""``stratagem yahtzee play``: one game through a pseudo-terminal, as a person plays it; the
rest of the dialogue through ``play_terminal``'s read/write in-process."""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable

import pexpect
import pytest

from stratagem.core.session import Session
from stratagem.games.yahtzee.coach import YahtzeeCoaching
from stratagem.games.yahtzee.distribution import remaining_distributions
from stratagem.games.yahtzee.play import parse_command, play_terminal
from stratagem.games.yahtzee.rules import YAHTZEE_CATEGORIES, preset
from stratagem.games.yahtzee.solver import Solution
from stratagem.games.yahtzee.state import Keep, Score, YahtzeeState
from stratagem.games.yahtzee.strategies import OptimalStrategy
from tests.terminal import Terminal

PROMPT = r"dice: ([1-6 ]+)   rolls left: (\d) > "
ADVICE = re.compile(r"^\s+1\. (keep [-1-6 ]+?|score \w+)\s+[\d.]+\s+regret\s+0\.000", re.M)


def spawn(seed: int) -> pexpect.spawn:
    child = pexpect.spawn(
        sys.executable,
        ["-m", "stratagem", "yahtzee", "play", "--seed", str(seed)],
        env=os.environ.copy(),
        encoding="utf-8",
        timeout=120,
        dimensions=(200, 200),
    )
    child.expect("Type 'help'")
    return child


@pytest.fixture(autouse=True)
def _solved_table(solved: Callable[[str], Solution]) -> None:
    solved("yahtzee")


def test_following_the_advisor_loses_nothing() -> None:
    child = spawn(seed=1)
    decisions = 0
    while True:
        index = child.expect([PROMPT, r"final score: (\d+)"])
        if index == 1:
            break
        child.sendline("?")
        child.expect(PROMPT)
        best = ADVICE.search(child.before)
        assert best is not None, child.before
        child.sendline(best.group(1))
        decisions += 1
    final = int(child.match.group(1))
    child.expect(
        r"decisions: (\d+)\s+expected points lost: ([\d.]+)\s+"
        r"average loss per decision: ([\d.]+)"
    )
    assert int(child.match.group(1)) == decisions >= 13
    assert float(child.match.group(2)) == 0.0
    assert 0 < final < 1600
    child.expect(pexpect.EOF)


def test_a_bad_move_is_priced_and_a_mistyped_one_is_refused(
    solved: Callable[[str], Solution],
) -> None:
    # in-process (the pexpect test above covers the terminal): what `yahtzee play --seed 2` runs
    term = Terminal.scripted(["keep 7", "score nonsense", "s yahtzee", "card", "quit"])
    session = Session.new("yahtzee", "yahtzee", ["human"], seed=2)
    coach = YahtzeeCoaching(preset("yahtzee"), 1, solved("yahtzee"))
    play_terminal(session, coach, read=term.read, write=term.write)
    term.expect(PROMPT)
    term.expect("cannot keep 7")
    term.expect(PROMPT)
    term.expect("no box called 'nonsense'")
    term.expect(PROMPT)
    # scratching the Yahtzee box on the first roll is costly
    cost = term.expect(r"cost ([\d.]+) expected points; best was (keep|score)")
    assert float(cost.group(1)) > 1.0
    term.expect(PROMPT)
    term.expect(r"yahtzee\s+0")
    term.expect(PROMPT)
    term.expect("game abandoned")
    assert term.prompts == 5


def test_back_takes_a_decision_back_and_the_dice_come_again(
    solved: Callable[[str], Solution],
) -> None:
    term = Terminal.scripted(["s yahtzee", "back", "back", "quit"])
    session = Session.new("yahtzee", "yahtzee", ["human"], seed=2)
    coach = YahtzeeCoaching(preset("yahtzee"), 1, solved("yahtzee"))
    play_terminal(session, coach, read=term.read, write=term.write)
    first = term.expect(PROMPT).group(1)
    term.expect(PROMPT)  # the next turn's dice
    term.expect(r"taken back \(1 decision\)")
    assert term.expect(PROMPT).group(1) == first  # the same throw: no fishing for dice
    term.expect("no decision of a person to take back")
    assert session.decisions() == []


def test_against_an_opponent_the_coach_prices_the_chance_of_winning(
    solved: Callable[[str], Solution],
) -> None:
    # the opening twelve rounds played by the optimum for the person too, then the last
    # round in the terminal (the last-turn tables take seconds; the full ones minutes)
    sol = solved("yahtzee")
    rules = preset("yahtzee")
    session = Session.new("yahtzee", "yahtzee", ["human", "optimal"], seed=3)
    best = OptimalStrategy(sol)
    while True:
        session.play_agents()
        state = session.state
        assert isinstance(state, YahtzeeState)
        if len(state.card.filled) == rules.num_categories - 1:
            break
        session.submit(str(best.advise(state)[0].action))
    tables = remaining_distributions(sol, min_filled=rules.num_categories - 1)
    coach = YahtzeeCoaching(rules, 2, sol, tables)

    asked = [False]

    def answer(_prompt: str, screen: str) -> str:
        """'?' at each prompt, then the hint's first row."""
        asked[0] = not asked[0]
        if asked[0]:
            return "?"
        best = re.search(r"1\. (keep [-1-6 ]+?|score \w+)\s", screen)
        assert best is not None, screen
        return best.group(1)

    term = Terminal(answer)
    play_terminal(session, coach, read=term.read, write=term.write)
    assert session.over
    term.expect(r"1\. \S.*%\s+regret\s+0\.00%")  # chances of winning in the hint
    term.expect(r"player 2 \(optimal\): ")  # the opponent's moves are shown
    term.expect(r"result: (win|loss|tie)")
    term.expect(r"chance of winning given up: [\d.]+ percentage points")


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("keep 1 1 4", Keep((1, 1, 4))),
        ("k 411", Keep((1, 1, 4))),
        ("keep -", Keep(())),
        ("reroll", Keep(())),
        ("score full_house", Score("full_house")),
        ("s full", Score("full_house")),
        ("s large straight", Score("large_straight")),
        ("?", "?"),
        ("q", "quit"),
        ("back", "back"),
        ("undo", "back"),
    ],
)
def test_commands_accept_the_short_forms(text: str, expected: object) -> None:
    assert parse_command(text, YAHTZEE_CATEGORIES) == expected


@pytest.mark.parametrize(
    ("text", "message"),
    [("s s", "could be sixes, small_straight"), ("dance", "unknown command"), ("k a", "faces")],
)
def test_ambiguous_or_unknown_commands_say_why(text: str, message: str) -> None:
    from stratagem.core.errors import StratagemError

    with pytest.raises(StratagemError, match=message):
        parse_command(text, YAHTZEE_CATEGORIES)


def test_the_terminal_game_takes_a_reduced_card_in_the_rules_grammar() -> None:
    # `yahtzee play` took presets only (issue 35); the rules grammar of the rest of
    # Stratagem names a reduced card, coached in expected points when played alone
    from tests.cli_outcome import invoke

    rules = "yahtzee:boxes=ones+twos+chance"
    got = invoke(["yahtzee", "play", "--rules", rules, "--seed", "3"], "?\ncard\nquit\n")
    assert got.exit_code == 0, got.output
    assert "Yahtzee (yahtzee[ones+twos+chance])" in got.stdout
    table = [line for line in got.stdout.splitlines() if re.match(r"\s+\d+\. ", line)]
    assert {line.split()[1] for line in table} == {"keep", "score"}
    scored = {line.split()[2] for line in table if line.split()[1] == "score"}
    assert scored == {"ones", "twos", "chance"}  # the card's three boxes, no others
    assert "game abandoned" in got.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--rules", "yahtzee:boxes=ones+nope"], "unknown box(es) 'nope'"),
        (["--rules", "yahtzee:bonus=true"], "name its boxes too"),
        (["--rules", "nosuch"], "unknown rules 'nosuch'"),
        (["--opponent", "hold:5"], "--opponent 1: unknown agent 'hold'"),
        (
            ["--rules", "yahtzee:boxes=ones+twos+chance", "--opponent", "mcts:sims=0"],
            "--opponent 1: agent mcts: sims must be a whole number 1..",
        ),
        (
            [
                "--rules",
                "yahtzee:boxes=ones+twos+threes+fours+fives+sixes+three_of_a_kind+"
                "four_of_a_kind+full_house+small_straight+large_straight+yahtzee+chance",
                "--opponent",
                "random",
            ],
            "too large to solve here",
        ),
    ],
)
def test_bad_rules_or_opponents_are_refused_before_any_work(args: list[str], message: str) -> None:
    from tests.cli_outcome import invoke

    got = invoke(["yahtzee", "play", *args], "")
    assert got.exit_code == 2, got.output
    assert message in got.stderr
    assert "Type 'help'" not in got.stdout  # refused before the game began
