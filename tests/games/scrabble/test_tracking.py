"""Tile tracking: the unseen tiles are the set less the board and the player's own rack."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.errors import InvalidStateError
from stratagem.games.scrabble.board import board_from_text, empty_board
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.tiles import tile_set
from stratagem.games.scrabble.tracking import parse_unseen, track, track_state, vowels_of


def test_the_unseen_tiles_are_the_opponents_rack_plus_the_bag_after_every_move(
    small_lexicon,  # type: ignore[no-untyped-def]
) -> None:
    checked = known = 0
    for seed in range(20):  # until a game reaches the endgame (the small list can stall)
        rng = np.random.default_rng(seed)
        state = ScrabbleState.new(small_lexicon, 2)
        while not state.is_terminal():
            if state.current_player < 0:
                state = state.apply(state.sample_chance(rng))
                continue
            for seat in (0, 1):
                t = track_state(state, seat)
                # counted against the rules' own bag and the other seat's rack
                hidden = np.array(state.bag) + np.array(state.racks[1 - seat])
                assert list(t.unseen) == hidden.tolist()
                assert t.bag == state.bag_size()
                assert t.opponent_tiles == sum(state.racks[1 - seat])
                if state.bag_size() == 0:  # the endgame: the opponent's rack is known
                    assert t.opponent_rack_known and t.text == state.rack_text(1 - seat)
                    known += 1
            checked += 1
            state = state.apply(state.legal_actions()[0])
        if known:
            break
    assert checked > 10 and known > 0


def test_vowels_consonants_and_blanks_add_up_to_the_unseen() -> None:
    ts = tile_set("english")
    t = track(ts, empty_board(), ts.rack_counts("AEIOU??"), opponent_tiles=7)
    assert t.blanks == 0 and t.vowels == 42 - 5 and t.unseen_total == 93
    assert t.vowels + t.consonants + t.blanks == t.unseen_total
    assert t.count("A") == 8 and t.count("?") == 0 and t.bag == 86
    assert "Y" not in vowels_of(ts) and "Y" in vowels_of(tile_set("czech"))


def test_more_tiles_than_the_set_has_are_refused_naming_the_letter() -> None:
    ts = tile_set("english")
    rows = ["." * 15] * 7 + [".......ZZ......"] + ["." * 15] * 7
    with pytest.raises(InvalidStateError, match="Z tiles"):
        track(ts, board_from_text(rows, ts), ts.rack_counts(""))
    with pytest.raises(InvalidStateError, match="the opponents hold 100 tiles"):
        track(ts, empty_board(), ts.rack_counts("A"), opponent_tiles=100)


@pytest.mark.parametrize("text", ["A1", "ÆB", "?" * 3, "Q" * 2])
def test_a_hostile_unseen_text_is_refused(text: str) -> None:
    with pytest.raises(InvalidStateError):
        parse_unseen(tile_set("english"), text)
