"""The terminal game as a club plays it: unseen tiles, challenges, the end adjustment, records."""

from __future__ import annotations

import itertools
import re

import numpy as np

from stratagem.core.registry import make_agent
from stratagem.games.scrabble.gcg import read_gcg, record_of_game, write_gcg
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.play import GameEvent, end_adjustments, play_terminal
from stratagem.games.scrabble.state import ScrabbleState
from tests.terminal import Terminal


def first_rack(lexicon: Lexicon, seed: int) -> str:
    """The rack ``play_terminal`` deals the person (seat 0) with this seed."""
    rng = np.random.default_rng(seed)
    state = ScrabbleState.new(lexicon, 2)
    state = state.apply(state.sample_chance(rng))
    return state.rack_text(0)


def a_phony(lexicon: Lexicon, rack: str) -> str:
    """Three letters of the rack (no blank) that are not a word."""
    letters = [ch for ch in rack if ch != "?"]
    for combo in itertools.permutations(letters, 3):
        word = "".join(combo)
        if word not in lexicon:
            return word
    raise AssertionError(f"no phony in {rack}")


def test_a_phony_is_challenged_off_and_a_wrong_challenge_loses_a_turn(
    small_lexicon: Lexicon,
) -> None:
    phony = a_phony(small_lexicon, first_rack(small_lexicon, 5))
    term = Terminal.scripted(["c", f"8H {phony}", "c", "q"])
    ai = make_agent("scrabble", "english", "greedy")
    play_terminal(small_lexicon, np.random.default_rng(5), read=term.read, write=term.write,
                  ai=ai, challenge="double")  # fmt: skip
    term.expect("challenge rule double")
    term.expect(r"unseen \(the AI's rack \+ the bag\): ")
    # out of turn: nothing of the AI's to challenge yet
    term.expect(r"not allowed: there is no word of the AI's to challenge now")
    term.expect(rf"you play 8H {phony}")
    term.expect(rf"the AI challenges: {phony} not in the word list: {phony} is taken back")
    term.expect(r"AI plays (\S+ \S+ \d+)")
    term.expect(r"score: you 0, AI \d+")  # the phony's points are gone
    term.expect(r"challenge: \S+( \S+)* good: the challenge loses a turn")
    term.expect(r"AI plays")  # the AI moves again: the person lost the turn
    term.expect("game abandoned")


def test_no_challenge_under_the_rule_none(small_lexicon: Lexicon) -> None:
    phony = a_phony(small_lexicon, first_rack(small_lexicon, 5))
    term = Terminal.scripted([f"8H {phony}", "c", "q"])
    play_terminal(small_lexicon, np.random.default_rng(5), read=term.read, write=term.write,
                  ai=make_agent("scrabble", "english", "greedy"))  # fmt: skip
    term.expect(r"not allowed: [^\n]*(lexicon|not a word|word)")
    term.expect(r"not allowed: this game has no challenges")


def test_the_unseen_tiles_shown_are_the_set_less_the_board_and_the_rack(
    small_lexicon: Lexicon,
) -> None:
    term = Terminal.scripted(["pass", "pass", "q"])
    play_terminal(small_lexicon, np.random.default_rng(2), read=term.read, write=term.write,
                  ai=make_agent("scrabble", "english", "greedy"))  # fmt: skip
    ts = small_lexicon.tiles
    for block in re.findall(r"(?s)\n(    A B C.*?)your rack (\S*) > ", term.transcript):
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


def test_the_end_adjustment_makes_the_log_add_up(small_lexicon: Lexicon) -> None:
    # the person passes every turn; the AI plays on until the game ends
    term = Terminal(lambda prompt, screen: "pass")
    events: list[GameEvent] = []
    final = play_terminal(small_lexicon, np.random.default_rng(4), read=term.read,
                          write=term.write, ai=make_agent("scrabble", "english", "greedy"),
                          record=events)  # fmt: skip
    assert final is not None and final.is_terminal()
    moves = [0, 0]
    for e in events:
        moves[e.player] += getattr(e.action, "score", 0)
    lines = end_adjustments(final, moves)
    assert lines and [moves[p] + sum(d for q, _, d in lines if q == p) for p in (0, 1)] == list(
        final.scores
    )
    term.expect(r"end of game: you, tiles left \S+ \(-\d+\)")
    # and the game's record replays to the same final scores
    record = record_of_game([(e.player, e.state, e.action) for e in events], final)
    assert read_gcg(write_gcg(record), small_lexicon).totals == list(final.scores)
