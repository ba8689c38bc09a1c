"""GCG game records: read and replayed move by move, written back, hostile records refused."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from stratagem.games.scrabble.gcg import GcgError, read_gcg, record_of_game, write_gcg
from stratagem.games.scrabble.state import ScrabbleState

DATA = Path(__file__).parent / "data"
RECORDS = sorted(DATA.glob("*.gcg"))


def recorded_finals(text: str) -> dict[str, int]:
    """The last running total of each player, read straight from the lines (not replayed)."""
    finals: dict[str, int] = {}
    for line in text.splitlines():
        if line.startswith(">"):
            nick = line[1:].split(":", 1)[0].strip()
            finals[nick] = int(line.split()[-1])
    return finals


def moves_and_scores(game):  # type: ignore[no-untyped-def]
    return [(t.nick, t.kind, t.text, t.points, t.total) for t in game.turns]


def test_there_are_five_recorded_games() -> None:
    assert len(RECORDS) == 5


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.name)
def test_a_record_replays_to_its_final_scores_and_writes_back_the_same(path, small_lexicon) -> None:  # type: ignore[no-untyped-def]
    text = path.read_text()
    game = read_gcg(text, small_lexicon)
    finals = recorded_finals(text)
    assert {n: game.totals[i] for i, n in enumerate(game.nicks)} == finals
    again = read_gcg(write_gcg(game), small_lexicon)
    assert moves_and_scores(again) == moves_and_scores(game)
    assert np.array_equal(again.board, game.board)


def test_any_turn_opens_as_a_position_with_the_recorded_rack(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    game = read_gcg(RECORDS[0].read_text(), small_lexicon)
    turn = game.turns[11]
    state = game.position_at(11)
    assert state.player == turn.player and state.rack_text() == small_lexicon.tiles.rack_text(
        small_lexicon.tiles.rack_counts(turn.rack)
    )
    assert state.scores[turn.player] == turn.total - turn.points
    assert turn.move is not None and state.place_unchecked(turn.move).scores[turn.player] == (
        turn.total
    )


def test_a_game_played_here_writes_a_record_that_replays(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(7)
    state = ScrabbleState.new(small_lexicon, 2)
    events = []
    while not state.is_terminal():
        if state.current_player < 0:
            state = state.apply(state.sample_chance(rng))
            continue
        action = state.legal_actions()[0]
        events.append((state.player, state, action))
        state = state.apply(action)
    game = read_gcg(write_gcg(record_of_game(events, state)), small_lexicon)
    assert game.totals == list(state.scores)


SAMPLE = """#player1 ann Ann
#player2 bob Bob
>ann: ACTXYZQ 8H CAT +10 10
>bob: SEEEEEE 8H ...S +6 6
"""


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (SAMPLE[:-8], "cut short"),  # truncated in the last line
        (SAMPLE.replace("+6 6", "+7 7"), "scores 6, not +7"),
        (SAMPLE.replace("+6 6", "+6 9"), "total 9 is not 0 +6 = 6"),
        (SAMPLE.replace("8H ...S", "16A ...S"), "another board"),
        (SAMPLE.replace("8H ...S", "P8 ...S"), "another board"),
        (SAMPLE.replace("SEEEEEE", "EEEEEEE"), "needs S that the rack EEEEEEE lacks"),
        (SAMPLE.replace("8H CAT", "1A CAT"), "centre square"),
        (SAMPLE.replace("...S", "DOGS"), "the board has"),
        (SAMPLE.replace("ACTXYZQ", "ACTXYZQQ"), "8 tiles"),
        (SAMPLE.replace("ACTXYZQ", "ACTXY1Q"), "'1'"),
        (SAMPLE.replace(">bob:", ">eve:"), "not a player"),
        ("#player1 a A\n#player2 b B\n", "no turn"),
        ("hello\n", "cannot read"),
        ("#tile-distribution german\n" + SAMPLE, "german tiles"),
        ("#board-layout SuperScrabble\n" + SAMPLE, "standard 15x15"),
        ("#character-encoding ISO-8859-1\n" + SAMPLE, "read as UTF-8"),
        (SAMPLE + ">ann: (EEE) +5 15\n", "going out against EEE is worth 3"),
        (SAMPLE + ">bob: EEEEEE -- -6 0\n>bob: EEEEEE -- -6 0\n", "no move to take back"),
        (SAMPLE + ">ann: XYZQE -EE +0 10\n", "cannot exchange EE"),
        (SAMPLE + ">ann: XYZQ - +3 13\n", "a pass scores 0"),
        (SAMPLE + ">ann: CC 9H C +0 10\n", "more tiles of a kind"),
        (SAMPLE + ">ann: XYZQEEE 1A EE +2 12\n", "must touch a tile already on the board"),
        (SAMPLE + ">ann: XYZQEEE 8H CATS +6 16\n", "at least one tile"),
    ],
)
def test_a_hostile_record_is_refused_naming_the_problem(text, message, small_lexicon) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(GcgError, match=message.replace("+", r"\+")):
        read_gcg(text, small_lexicon)


def test_a_phony_taken_back_leaves_the_board_as_it_was(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    # CZ down through 9H: C 3 + Z 10, then taken back
    game = read_gcg(SAMPLE + ">ann: XYZQEEE 9H Z +13 23\n>ann: XYZQEEE -- -13 10\n", small_lexicon)
    assert game.totals == [10, 6] and game.turns[-1].kind == "withdrawn"
    assert int((game.board >= 0).sum()) == 4  # CATS only: the Z went back


def test_a_huge_record_is_refused_before_replay(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    lines = SAMPLE + ">ann: ACTXYZQ - +0 10\n" * 600
    with pytest.raises(GcgError, match="more than 500 turns"):
        read_gcg(lines, small_lexicon)
