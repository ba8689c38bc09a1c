"""``stratagem scrabble play``: one game through a pseudo-terminal, the
rest of the dialogue through ``play_terminal``'s read/write in-process."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import numpy as np
import pexpect
import pytest

from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.play import play_terminal
from tests.terminal import Terminal

from .conftest import SMALL_WORDS

PROMPT = r"your rack (\S*) > "
BEST = re.compile(r"best moves: ([^\r\n]*)")


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
        child.expect(BEST)
        listed = child.match.group(1).strip()
        child.expect(PROMPT)
        if listed == "none":
            child.sendline("pass")
        else:
            coord, word, _ = listed.split(";")[0].split()
            child.sendline(f"{coord} {word}")
        child.expect(r"you play ")
        turns += 1
    assert turns >= 3
    child.expect(r"(you win!|a draw\.|the AI wins\.)")
    child.expect(pexpect.EOF)


def test_illegal_moves_are_explained_and_q_quits(small_lexicon: Lexicon) -> None:
    # in-process (the pexpect test above covers the terminal): `play --seed 5` on the same words
    term = Terminal.scripted(["8A ZZZZZZZ", "1A CAT", "Q9 CAT", "x 123", "q"])
    rng = np.random.default_rng(5)
    result = play_terminal(small_lexicon, rng, read=term.read, write=term.write)
    assert result is None  # abandoned
    term.expect(PROMPT)
    term.expect(r"not allowed: [^\r\n]+")
    term.expect(PROMPT)
    term.expect(r"not allowed: [^\r\n]*(centre|lexicon|rack)")
    term.expect(PROMPT)
    term.expect(r"not allowed: cannot read square")
    term.expect(PROMPT)
    term.expect(r"not allowed: [^\r\n]*not a tile")
    term.expect(PROMPT)
    term.expect("game abandoned")
