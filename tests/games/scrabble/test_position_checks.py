"""Positions that legal play cannot reach are refused; unknown words only warned about."""

from __future__ import annotations

import warnings

import pytest

from stratagem.core.errors import InvalidStateError
from stratagem.games.scrabble.position import read_position

EMPTY = "." * 15


def board(*placed: tuple[int, str]) -> list[str]:
    rows = [EMPTY] * 15
    for r, text in placed:
        rows[r] = text
    return rows


def text(rows: list[str], head: str = "racks: AEI OUR\n") -> str:
    return head + "board:\n" + "\n".join(rows)


@pytest.mark.parametrize(
    ("rows", "head", "message"),
    [
        (board((7, ".......C.......")), "racks: AEI OUR\n", "single tile"),
        (board((3, "CAT............")), "racks: AEI OUR\n", "centre square"),
        (
            board((7, ".......CAT....."), (12, "..AT...........")),
            "racks: AEI OUR\n",
            "row 13, column 3 is not connected",
        ),
        (board((7, ".......CAT.....")), "racks: AEI OUR\nscores: 5 -3\n", "negative"),
        (board((7, ".......CAT.....")), "racks: AEI OUR\nscoreless: -1\n", "scoreless counts"),
        (board((7, ".......CAT.....")), "racks: AEI OUR\nscoreless: 6\n", "scoreless counts"),
        (board((7, ".......CAT.....")), "racks: AEI OUR\nturn: -4\n", "turn is one whole"),
        (board((7, ".......CAT.....")), "racks: AEI OUR\nturn: 1001\n", r"0\.\.1000"),
        (board((7, ".......CAT.....")), "racks: AEI OUR\nscores: 100001 0\n", "above 100,000"),
        (
            board((7, "......QAT......")),
            "racks: QEI OUR\n",
            "position uses 2 Q tiles; the english set has 1",
        ),
    ],
)
def test_unreachable_positions_are_refused(
    small_lexicon,  # type: ignore[no-untyped-def]
    rows: list[str],
    head: str,
    message: str,
) -> None:
    with pytest.raises(InvalidStateError, match=message):
        read_position(text(rows, head), small_lexicon)


def test_words_the_lexicon_lacks_are_kept_with_a_warning_naming_them(
    small_lexicon,  # type: ignore[no-untyped-def]
) -> None:
    rows = board((7, ".......CAT....."), (8, ".........XQZ..."))
    with pytest.warns(UserWarning, match=r"lacks .*: .*XQZ") as caught:
        state = read_position(text(rows), small_lexicon)
    assert "CAT" not in str(caught[0].message)
    assert state.board_rows()[8] == ".........XQZ..."


def test_a_legal_board_reads_without_warnings(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        read_position(text(board((7, ".......CAT....."))), small_lexicon)
