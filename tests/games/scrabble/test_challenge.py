"""Challenge rules: a phony stands until challenged; a challenge decides by the lexicon."""

from __future__ import annotations

import pytest

from stratagem.core.errors import IllegalActionError, InvalidRulesError
from stratagem.games.scrabble.challenge import (
    board_phonies,
    challenges,
    check_rule,
    lay_word,
    phonies,
)
from stratagem.games.scrabble.position import read_position
from stratagem.games.scrabble.spec import with_challenge
from stratagem.games.scrabble.state import CHALLENGE, PASS

EMPTY = ["." * 15] * 15


def start(lex, racks: str = "CTAXQZE ABCDEFG"):  # type: ignore[no-untyped-def]
    return read_position(f"racks: {racks}\nboard:\n" + "\n".join(EMPTY), lex)


def test_a_phony_can_be_laid_and_is_scored_by_the_board(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    s = start(small_lexicon)
    move = lay_word(s, "8H", "ZAX")
    assert phonies(s, move) == ["ZAX"] and move.score == 2 * (10 + 1 + 8)
    after = s.place_unchecked(move)
    assert after.scores[0] == move.score
    with pytest.raises(IllegalActionError):
        s.apply(move)  # the ordinary rule (none) still refuses it


def test_a_challenged_phony_is_taken_back_and_the_turn_lost(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    s = start(with_challenge(small_lexicon, "single"))
    move = lay_word(s, "8H", "ZAX")
    after = s.apply(move)  # under a challenge rule the phony stands, open to a challenge
    assert after.scores[0] == move.score and after.window == (s, move)
    now = after.apply((1, 1, 2))  # the mover draws three tiles (A, I, O kinds by index)
    assert now.player == 1 and now.challenge_open() and challenges(now)  # an agent would
    back = now.apply(CHALLENGE)
    assert back == s.apply(PASS) and back.scores == (0, 0) and back.player == 1
    assert back.rack_text(0) == s.rack_text(0) and "taken back" in back.verdict
    with pytest.raises(IllegalActionError, match="no word to challenge"):
        back.apply(CHALLENGE)  # challenged already


@pytest.mark.parametrize(("rule", "loses"), [("single", False), ("double", True)])
def test_a_wrong_challenge_costs_a_turn_only_under_double(small_lexicon, rule, loses) -> None:  # type: ignore[no-untyped-def]
    s = start(with_challenge(small_lexicon, rule))
    move = lay_word(s, "8H", "CAT")
    assert phonies(s, move) == []
    now = s.apply(move).apply((1, 1, 2))
    assert now.player == 1 and not challenges(now)  # an agent never challenges good words
    result = now.apply(CHALLENGE)
    assert result.scores[0] == move.score  # the word stands
    assert (result.player == 0) is loses and (result.turn > now.turn) is loses


def test_no_challenge_under_rule_none_and_none_out_of_turn(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    s = start(small_lexicon)
    move = lay_word(s, "8H", "CAT")
    with pytest.raises(IllegalActionError, match="no challenges"):
        s.apply(move).apply((1, 1, 2)).apply(CHALLENGE)
    s = start(with_challenge(small_lexicon, "double"))
    moved_on = s.apply(move).apply((1, 1, 2)).apply(PASS)  # the next player moved on
    with pytest.raises(IllegalActionError, match="only the next player"):
        moved_on.apply(CHALLENGE)
    with pytest.raises(InvalidRulesError, match="single"):
        check_rule("triple")


def test_phonies_on_a_board_are_flagged_with_their_squares(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    rows = list(EMPTY)
    rows[7] = "......ZEBRM...."
    s = read_position_quiet(small_lexicon, rows)
    flagged = board_phonies(s)
    assert flagged == [("ZEBRM", [(7, c) for c in range(6, 11)])]


def read_position_quiet(lex, rows):  # type: ignore[no-untyped-def]
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return read_position("board:\n" + "\n".join(rows), lex)


def test_lay_word_refuses_a_word_the_rack_cannot_lay(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    s = start(small_lexicon)
    with pytest.raises(IllegalActionError):
        lay_word(s, "8H", "QQQ")
    with pytest.raises(IllegalActionError, match="not a letter"):
        lay_word(s, "8H", "C1T")
