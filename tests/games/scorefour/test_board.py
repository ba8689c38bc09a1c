"""Score Four geometry: the 76 lines and the 8 symmetries."""

from __future__ import annotations

from collections import Counter

import pytest

from stratagem.core.errors import IllegalActionError
from stratagem.games.scorefour.board import (
    LINE_COUNT,
    LINES,
    SYM_CELL,
    SYM_PEG,
    SYM_PEG_INV,
    line_kind,
    parse_peg,
    peg_name,
    playable,
    transform,
)


def test_there_are_76_lines_48_straight_24_planar_4_space() -> None:
    assert len(LINES) == len(set(LINES)) == 76
    assert Counter(line_kind(line) for line in LINES) == {"straight": 48, "planar": 24, "space": 4}


def test_every_line_has_four_distinct_cells() -> None:
    assert all(len(set(line)) == 4 and all(0 <= c < 64 for c in line) for line in LINES)


def test_corner_cells_lie_on_seven_lines_and_face_cells_on_four() -> None:
    # a1 at the bottom: 3 straight, 3 planar diagonals, 1 space diagonal.
    assert LINE_COUNT[0] == 7
    # b1 at the bottom (an edge cell of the outside face): 3 straight + 1 planar.
    assert LINE_COUNT[1] == 4
    assert LINE_COUNT.sum() == 76 * 4


def test_the_eight_symmetries_map_lines_to_lines() -> None:
    lines = set(LINES)
    for k in range(8):
        images = {tuple(sorted(int(SYM_CELL[k, c]) for c in line)) for line in LINES}
        assert images == lines


def test_the_eight_symmetries_are_distinct_and_inverted() -> None:
    assert len({tuple(row) for row in SYM_PEG}) == 8
    for k in range(8):
        assert [int(SYM_PEG_INV[k, SYM_PEG[k, p]]) for p in range(16)] == list(range(16))


def test_transform_keeps_levels_and_bead_counts() -> None:
    mask = (1 << 0) | (1 << 17) | (1 << 63)
    for k in range(8):
        image = transform(mask, k)
        assert image.bit_count() == 3
        assert {c // 16 for c in range(64) if image >> c & 1} == {0, 1, 3}


@pytest.mark.parametrize("name", [f"{c}{r}" for c in "abcd" for r in "1234"])
def test_peg_names_round_trip(name: str) -> None:
    assert peg_name(parse_peg(name)) == name
    assert parse_peg(name.upper()) == parse_peg(name)


@pytest.mark.parametrize("bad", ["e5", "a0", "a5", "", "b", "b22", "11"])
def test_unknown_pegs_are_refused_by_name(bad: str) -> None:
    with pytest.raises(IllegalActionError, match="unknown peg"):
        parse_peg(bad)


def test_playable_cells_sit_on_the_beads_below() -> None:
    assert playable(0) == 0xFFFF
    assert playable(1) == (0xFFFF ^ 1) | (1 << 16)
    full_peg = sum(1 << (16 * z) for z in range(4))
    assert playable(full_peg) == 0xFFFF ^ 1
