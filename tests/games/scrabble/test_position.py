"""The position text format: round trips and malformed files."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.errors import InvalidStateError
from stratagem.core.play import play
from stratagem.games.scrabble.position import read_position, write_position
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.strategies import GreedyAgent

EMPTY = "\n".join(["." * 15] * 15)


def test_round_trip_of_a_played_position(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(4)
    s = ScrabbleState.new(small_lexicon)
    agent = GreedyAgent()
    for _ in range(12):
        s = s.apply(s.sample_chance(rng)) if s.current_player < 0 else s.apply(agent.act(s, rng))
    while s.current_player < 0:
        s = s.apply(s.sample_chance(rng))
    again = read_position(write_position(s), small_lexicon)
    assert again.board == s.board and again.racks == s.racks and again.bag == s.bag
    assert again.scores == s.scores and again.player == s.player
    assert write_position(again) == write_position(s)
    final = play(again, [agent, agent], rng).state
    assert final.is_terminal()


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("racks: A B\n", "no 'board:'"),
        ("board:\n" + "\n".join(["." * 15] * 14), "14 rows"),
        ("board:\n" + EMPTY.replace(".", "1", 1), "row 1, column A"),
        ("board:\n" + EMPTY.replace("." * 15, "." * 14, 1), "row 1 has 14"),
        ("colour: blue\nboard:\n" + EMPTY, "line 1"),
        ("racks: ABCDEFGH A\nboard:\n" + EMPTY, "8 tiles"),
        ("racks: A\nboard:\n" + EMPTY, "2-4 players"),
        ("racks: A B\nscores: 1\nboard:\n" + EMPTY, "1 scores for 2"),
        ("racks: A B\nscores: x y\nboard:\n" + EMPTY, "whole numbers"),
        ("racks: A B\nto_move: 2\nboard:\n" + EMPTY, "to_move"),
        ("racks: ZA Z\nboard:\n" + EMPTY, "2 Z tiles"),
        ("tiles: czech\nboard:\n" + EMPTY, "czech tiles"),
        ("board:\n" + EMPTY + "\nboard:\n", "twice"),
    ],
)
def test_malformed_positions_name_the_problem(small_lexicon, text, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidStateError, match=message):
        read_position(text, small_lexicon)


def test_comments_and_spaces_are_ignored(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    rows = ["." * 15] * 7 + [". . . . . . . C A T . . . . ."] + ["." * 15] * 7
    text = "# a test\nracks: QZ? -   # two players\nboard:\n" + "\n".join(rows)
    s = read_position(text, small_lexicon)
    assert s.board_rows()[7].startswith(".......CAT") and s.rack_text(0) == "QZ?"


def test_without_a_turn_line_the_moves_played_follow_the_tiles_on_the_board() -> None:
    # A pasted busy board is not an opening: one move per 4 tiles (at least 1) unless the
    # position says how many moves were played.
    from stratagem.games.scrabble.heuristic import phase_of
    from stratagem.games.scrabble.lexicon import Lexicon
    from stratagem.games.scrabble.tiles import tile_set

    lex = Lexicon.from_words(["cat"], tile_set("english"))
    rows = ["." * 15] * 15
    few = [*rows[:7], ".......CAT.....", *rows[8:]]
    busy = [*rows[:7], "...ENTRAILS....", "...ENTRAILS....", *rows[9:]]  # 16 tiles
    body = "racks: - -\nboard:\n"
    few_state = read_position(body + "\n".join(few), lex)
    assert few_state.turn == 1 and phase_of(few_state) == "opening"
    with pytest.warns(UserWarning):  # the words are not in this lexicon
        busy_state = read_position(body + "\n".join(busy), lex)
        said = read_position("turn: 2\n" + body + "\n".join(busy), lex)
    assert busy_state.turn == 4 and phase_of(busy_state) == "development"
    assert said.turn == 2 and phase_of(said) == "opening"
