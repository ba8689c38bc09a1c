"""``stratagem scrabble play``: one game through a pseudo-terminal, the
rest of the dialogue through ``play_session``'s read/write in-process."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import pexpect
import pytest

from stratagem.core.session import Session
from stratagem.games.scrabble.play import play_session
from tests.terminal import Terminal

from .conftest import SMALL_WORDS

PROMPT = r"your rack (\S*) > "
# a line of the coach's list: "   1. 8D HAZEM               score  46  leave   -3.3  value   42.7"
COACH_LINE = r"\n\s*\d+\. (\S+(?: (?!score)\S+)?)\s+score\s+\d+\s+\S+\s+\S+\s+value\s+(-?[\d.]+)"


@pytest.fixture()
def words(tmp_path: Path) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(SMALL_WORDS) + "\n")
    return path


def spawn(words: Path, tmp_path: Path, *args: str) -> pexpect.spawn:
    env = os.environ.copy()
    env["STRATAGEM_CACHE_DIR"] = str(tmp_path / "cache")
    return pexpect.spawn(
        sys.executable,
        ["-m", "stratagem", "scrabble", "play", "--lexicon", str(words), *args],
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(60, 200),
    )


def test_a_whole_game_taking_the_top_move(words: Path, tmp_path: Path) -> None:
    child = spawn(words, tmp_path, "--seed", "3")
    child.expect("double letter")  # the legend under the board
    turns = 0
    while True:
        i = child.expect([PROMPT, r"final score: you (-?\d+), AI (-?\d+)"])
        if i == 1:
            break
        child.sendline("?")
        child.expect(PROMPT)
        listed = [(m, float(v)) for m, v in re.findall(COACH_LINE, child.before)]
        assert listed and [v for _, v in listed] == sorted((v for _, v in listed), reverse=True)
        best, value = listed[0]
        worse = [(m, v) for m, v in listed if v < value - 0.05]
        if turns == 0:
            # Not the coach's best: it says what the move gave up.
            move, move_value = worse[0]
            child.sendline(move)
            child.expect(r"you play [^\r\n]*; the coach gives up (\d+\.\d)")
            assert float(child.match.group(1)) == pytest.approx(value - move_value, abs=0.11)
        else:
            child.sendline(best)
            child.expect(r"you play [^\r\n]*; the coach agrees")
        turns += 1
    assert turns >= 3
    child.expect(r"(you win!|a draw\.|the AI wins\.)")
    child.expect(pexpect.EOF)


def test_illegal_moves_are_explained_and_q_quits() -> None:
    # in-process (the pexpect test above covers the terminal): a session of `play --seed 5`
    term = Terminal.scripted(["8A ZZZZZZZ", "1A CAT", "Q9 CAT", "x 123", "q"])
    session = Session.new("scrabble", "english", ["human", "greedy"], seed=5)
    assert play_session(session, read=term.read, write=term.write) is False  # left
    term.expect(PROMPT)
    term.expect(r"not allowed: [^\r\n]+")
    term.expect(PROMPT)
    term.expect(r"not allowed: [^\r\n]*(centre|lexicon|rack)")
    term.expect(PROMPT)
    term.expect(r"not allowed: cannot read square")
    term.expect(PROMPT)
    term.expect(r"not allowed: [^\r\n]*not a tile")
    term.expect(PROMPT)
    term.expect("game left")
