"""Tile sets, the premium layout and hand-checked scores."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.errors import IllegalActionError, InvalidRulesError, InvalidStateError
from stratagem.games.scrabble.board import (
    LETTER_MULT,
    WORD_MULT,
    board_from_text,
    board_text,
    empty_board,
    parse_coordinate,
    score_tiles,
)
from stratagem.games.scrabble.tiles import BLANK_FLAG, TILE_SETS, tile_set


@pytest.mark.parametrize("name", sorted(TILE_SETS))
def test_each_set_has_100_tiles_with_two_blanks(name: str) -> None:
    ts = tile_set(name)
    assert ts.total_tiles == 100 and ts.blanks == 2


def test_english_values() -> None:
    ts = tile_set("english")
    assert sum(c * v for c, v in zip(ts.counts, ts.values)) == 187  # the usual bag total
    assert ts.counts[ts.index["E"]] == 12 and ts.value("Z") == 10


def test_czech_letters() -> None:
    ts = tile_set("czech")
    assert ts.size == 39
    assert ts.value("Ď") == 8 and ts.counts[ts.index["O"]] == 6 and ts.value("ů") == 4


def test_unknown_tile_set() -> None:
    with pytest.raises(InvalidRulesError, match="english, czech"):
        tile_set("klingon")


def test_bad_racks_name_the_problem() -> None:
    ts = tile_set("english")
    with pytest.raises(InvalidStateError, match="8 tiles"):
        ts.rack_counts("ABCDEFGH")
    with pytest.raises(InvalidStateError, match="'1'"):
        ts.rack_counts("AB1")
    with pytest.raises(InvalidStateError, match="more Z"):
        ts.rack_counts("ZZ")
    with pytest.raises(InvalidStateError, match="Ř"):
        ts.rack_counts("AŘ")


def test_premium_counts() -> None:
    assert (WORD_MULT == 3).sum() == 8
    assert (WORD_MULT == 2).sum() == 17 and WORD_MULT[7, 7] == 2
    assert (LETTER_MULT == 3).sum() == 12
    assert (LETTER_MULT == 2).sum() == 24
    assert (WORD_MULT == WORD_MULT.T).all() and (LETTER_MULT[::-1] == LETTER_MULT).all()


def test_coordinates() -> None:
    assert parse_coordinate("15O") == (14, 14, True)
    assert parse_coordinate("a1") == (0, 0, False)
    with pytest.raises(IllegalActionError, match="rows 1-15"):
        parse_coordinate("16A")


def lay(board, tiles, row, col, word, across=True):  # type: ignore[no-untyped-def]
    placed = []
    for i, ch in enumerate(word):
        r, c = (row, col + i) if across else (row + i, col)
        if board[r, c] < 0:
            placed.append((r, c, tiles.square_code(ch)))
    return placed


def test_first_word_doubled_on_the_star() -> None:
    ts = tile_set("english")
    # CAT over 8G-8I: (3 + 1 + 1) x 2 for the centre star.
    assert score_tiles(empty_board(), lay(empty_board(), ts, 7, 6, "CAT"), ts)[0] == 10
    # QUIZ over 8E-8H: (10 + 1 + 1 + 10) x 2 = 44.
    assert score_tiles(empty_board(), lay(empty_board(), ts, 7, 4, "QUIZ"), ts)[0] == 44


def test_blanks_score_zero_and_bingo_adds_50() -> None:
    ts = tile_set("english")
    # RETAINs from 8B, T on the double letter 8D, the blank s on the star (which
    # still doubles the word): (1 + 1 + 2 + 1 + 1 + 1 + 0) x 2 + 50 = 64.
    placed = lay(empty_board(), ts, 7, 1, "RETAINs")
    assert len(placed) == 7
    assert score_tiles(empty_board(), placed, ts)[0] == 64
    # A blank z on the double letter 8D wastes it: (0 + 1 + 8 + 1 + 1) x 2 = 22.
    assert score_tiles(empty_board(), lay(empty_board(), ts, 7, 3, "zAXES"), ts)[0] == 22


def test_premiums_only_under_new_tiles_and_cross_words() -> None:
    ts = tile_set("english")
    board = empty_board()
    for r, c, code in lay(board, ts, 7, 7, "AX"):
        board[r, c] = code
    # OX down to the X already on 8I: O on the double letter 7I + X = 2 + 8 = 10.
    assert score_tiles(board, lay(board, ts, 6, 8, "OX", across=False), ts) == (10, ["OX"])
    # XI down from the X: I on 9I is a double letter: 8 + 1*2 = 10.
    assert score_tiles(board, lay(board, ts, 7, 8, "XI", across=False), ts)[0] == 10
    # ZA down ending on A (8H): Z on 7H (plain) -> 10 + 1 = 11.
    assert score_tiles(board, lay(board, ts, 6, 7, "ZA", across=False), ts)[0] == 11
    # HE on 9H-9I under AX: H (4) + E on a double letter (2) = 6, with the
    # cross words AH (1 + 4 = 5) and XE (8 + 2 = 10): 21.
    score, words = score_tiles(board, lay(board, ts, 8, 7, "HE"), ts)
    assert (score, words) == (21, ["HE", "AH", "XE"])


def test_word_multiplier_on_cross_word() -> None:
    ts = tile_set("english")
    board = empty_board()
    board[5, 4], board[5, 5] = ts.index["A"], ts.index["T"]
    # BE on 5E-5F, B on the double word 5E: main BE (3 + 1) x 2 = 8, cross word
    # BA (3 + 1) x 2 = 8, cross word ET 1 + 1 = 2 (5F is plain): 18.
    assert score_tiles(board, lay(board, ts, 4, 4, "BE"), ts) == (18, ["BE", "BA", "ET"])


def test_illegal_placements_name_the_rule() -> None:
    ts = tile_set("english")
    with pytest.raises(IllegalActionError, match="centre"):
        score_tiles(empty_board(), lay(empty_board(), ts, 0, 0, "CAT"), ts)
    board = empty_board()
    for r, c, code in lay(board, ts, 7, 7, "AT"):
        board[r, c] = code
    with pytest.raises(IllegalActionError, match="touch"):
        score_tiles(board, lay(board, ts, 0, 0, "CAT"), ts)
    with pytest.raises(IllegalActionError, match="one row or one column"):
        score_tiles(board, [(6, 7, 2), (8, 8, 2)], ts)
    with pytest.raises(IllegalActionError, match="ZT is not in the lexicon"):
        score_tiles(board, [(6, 8, ts.index["Z"])], ts, {"AT"}.__contains__)


def test_board_text_round_trip() -> None:
    ts = tile_set("czech")
    board = empty_board()
    board[7, 7] = ts.index["Ř"]
    board[7, 8] = ts.index["Í"] + BLANK_FLAG
    rows = board_text(board, ts)
    assert rows[7] == ".......Ří......"
    assert np.array_equal(board_from_text(rows, ts), board)
    with pytest.raises(InvalidStateError, match="row 3"):
        board_from_text([*rows[:2], "....W..........", *rows[3:]], ts)
