"""Scrabble racks and positions: any text gives a result or a StratagemError."""

from __future__ import annotations

import warnings

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from stratagem.core.errors import StratagemError
from stratagem.games.scrabble.position import read_position
from stratagem.games.scrabble.tiles import tile_set

ROW = st.text(alphabet="....ACTEISa?", min_size=13, max_size=16)


@settings(max_examples=200)
@given(st.text(max_size=12), st.integers(-3, 20))
def test_racks(rack: str, most: int) -> None:
    tiles = tile_set("english")
    try:
        counts = tiles.rack_counts(rack, most)
    except StratagemError:
        return
    assert counts.sum() <= most and (counts >= 0).all()


@settings(max_examples=120, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    head=st.lists(
        st.sampled_from(["racks: ", "scores: ", "scoreless: ", "turn: ", "to_move: ", "bag: ",
                         "tiles: ", "x: ", ""])
        .flatmap(lambda k: st.text(alphabet="AEIST?- 0123456789", max_size=12).map(k.__add__)),
        max_size=4,
    ),
    rows=st.lists(ROW, min_size=0, max_size=16),
    tail=st.text(max_size=10),
)  # fmt: skip
def test_positions(small_lexicon, head: list[str], rows: list[str], tail: str) -> None:  # type: ignore[no-untyped-def]
    text = "\n".join([*head, "board:", *rows, tail])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            state = read_position(text, small_lexicon)
        except StratagemError:
            return
    assert 2 <= state.num_players <= 4 and all(s >= 0 for s in state.scores)
