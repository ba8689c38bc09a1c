"""The terminal game as a club plays it (a session rendered by ``play_session``): challenges,
unseen tiles, the end adjustment, records."""

from __future__ import annotations

import re

import numpy as np

from stratagem.core.session import Session
from stratagem.games.scrabble.challenge import lay_word, phonies
from stratagem.games.scrabble.gcg import read_gcg
from stratagem.games.scrabble.gcg_session import session_to_gcg
from stratagem.games.scrabble.play import end_adjustments, play_session
from stratagem.games.scrabble.state import Placement, ScrabbleState
from tests.terminal import Terminal


def a_phony(state: ScrabbleState) -> str:
    """Three letters of the rack to move (no blank), typed at 8H, that make no word."""
    rack = state.rack_text().replace("?", "")
    for start in range(len(rack) - 2):
        typed = rack[start : start + 3]
        if phonies(state, lay_word(state, "8H", typed)):
            return typed
    raise AssertionError(f"no phony in {rack}")


def test_a_phony_is_challenged_off_and_a_wrong_challenge_loses_a_turn() -> None:
    session = Session.new("scrabble", "english:challenge=double", ["human", "greedy"], seed=5)
    phony = a_phony(session.state)  # type: ignore[arg-type]
    term = Terminal.scripted(["c", f"8H {phony}", "c", "q"])
    play_session(session, read=term.read, write=term.write)
    term.expect("c challenges the last word")
    term.expect(r"unseen \(the AI's rack \+ the bag\): ")
    # out of turn: no word to challenge yet
    term.expect(r"not allowed: there is no word to challenge now")
    term.expect(rf"you play 8H {phony}")
    term.expect(rf"the AI challenges: {phony} not in the word list: {phony} is taken back")
    term.expect(r"AI plays (\S+ \S+ \d+)")
    term.expect(r"score: you 0, player 2 \d+")  # the phony's points are gone
    term.expect(r"challenge: \S+( \S+)* good: the challenge loses a turn")
    term.expect(r"AI plays")  # the AI moves again: the person lost the turn
    term.expect("game left")


def test_no_challenge_under_the_rule_none() -> None:
    session = Session.new("scrabble", "english", ["human", "greedy"], seed=5)
    phony = a_phony(session.state)  # type: ignore[arg-type]
    term = Terminal.scripted([f"8H {phony}", "c", "q"])
    play_session(session, read=term.read, write=term.write)
    term.expect(r"not allowed: [^\n]*(lexicon|not a word|word)")
    term.expect(r"not allowed: this game has no challenges")


def test_the_unseen_tiles_shown_are_the_set_less_the_board_and_the_rack() -> None:
    session = Session.new("scrabble", "english", ["human", "greedy"], seed=2)
    term = Terminal.scripted(["pass", "pass", "q"])
    play_session(session, read=term.read, write=term.write)
    ts = session.state.tiles  # type: ignore[attr-defined]
    blocks = re.findall(r"(?s)\n(    A B C.*?)your rack (\S*) > ", term.transcript)
    assert len(blocks) >= 2
    for block in blocks:
        rows = block[0].splitlines()[1:16]
        board = "".join(ch for r in rows for ch in r.split()[1:] if ch.isalpha())
        seen = np.zeros(ts.size + 1, dtype=np.int64)
        for ch in board:  # lower case: a blank
            seen[ts.size if ch.islower() else ts.index[ch]] += 1
        seen += ts.rack_counts(block[1])
        unseen = ts.bag_counts - seen
        grid = re.search(r"unseen \([^)]*\): ([^\n]*)", block[0])
        assert grid is not None
        shown = {kv[0]: int(kv[1:]) for kv in grid.group(1).split()}
        names = [*ts.letters, "?"]
        assert shown == {names[i]: int(n) for i, n in enumerate(unseen) if n}


def test_the_end_adjustment_makes_the_log_add_up() -> None:
    # the person passes every turn; the AI plays on until the game ends
    session = Session.new("scrabble", "english", ["human", "greedy"], seed=4)
    term = Terminal(lambda prompt, screen: "pass")
    assert play_session(session, read=term.read, write=term.write) is True
    final = session.state
    assert isinstance(final, ScrabbleState) and final.is_terminal()
    moves = [0, 0]
    for step in session.decision_steps():
        if isinstance(step.action, Placement):
            moves[step.player] += step.action.score
    lines = end_adjustments(final, moves)
    assert lines and [moves[p] + sum(d for q, _, d in lines if q == p) for p in (0, 1)] == list(
        final.scores
    )
    term.expect(r"end of game: you, tiles left \S+ \(-\d+\)")
    # and the game's record replays to the same final scores
    assert read_gcg(session_to_gcg(session), final.lexicon).totals == list(final.scores)


def test_a_challenge_game_writes_its_phony_taken_back_in_the_record() -> None:
    session = Session.new("scrabble", "english:challenge=double", ["human", "greedy"], seed=5)
    phony = a_phony(session.state)  # type: ignore[arg-type]
    term = Terminal.scripted([f"8H {phony}", "q"])
    play_session(session, read=term.read, write=term.write)
    text = session_to_gcg(session)
    assert re.search(rf"^>p1: \S+ 8H {phony} \+\d+ \d+\n>p1: \S+ -- -\d+ 0$", text, re.M)
    record = read_gcg(text, session.state.lexicon)  # type: ignore[attr-defined]
    assert record.totals == list(session.state.scores)  # type: ignore[attr-defined]
