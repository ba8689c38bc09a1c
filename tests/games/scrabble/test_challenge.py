"""Challenge rules: a phony stands until challenged; a challenge decides by the lexicon."""

from __future__ import annotations

import pytest

from stratagem.core.errors import IllegalActionError, InvalidRulesError
from stratagem.games.scrabble.challenge import (
    ChallengeWindow,
    ai_challenges,
    board_phonies,
    check_rule,
    lay_word,
    phonies,
)
from stratagem.games.scrabble.position import read_position
from stratagem.games.scrabble.state import PASS

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
    s = start(small_lexicon)
    move = lay_word(s, "8H", "ZAX")
    window = ChallengeWindow(s, move, s.place_unchecked(move), "single")
    assert ai_challenges(window)
    back = window.settle(window.after)
    assert back == s.apply(PASS) and back.scores == (0, 0) and back.player == 1
    assert window.outcome is not None and window.outcome.lost_turn == 0
    with pytest.raises(IllegalActionError, match="challenged already"):
        window.settle(back)


@pytest.mark.parametrize(("rule", "loses"), [("single", False), ("double", True)])
def test_a_wrong_challenge_costs_a_turn_only_under_double(small_lexicon, rule, loses) -> None:  # type: ignore[no-untyped-def]
    s = start(small_lexicon)
    move = lay_word(s, "8H", "CAT")
    assert phonies(s, move) == []
    after = s.apply(move)
    now = after.apply((1, 1, 2))  # the mover draws three tiles (A, I, O kinds by index)
    assert now.player == 1
    window = ChallengeWindow(s, move, after, rule)
    assert not ai_challenges(window)
    result = window.settle(now)
    assert result.scores[0] == move.score  # the word stands
    assert (result.player == 0) is loses and (result.turn > now.turn) is loses


def test_no_challenge_under_rule_none_and_none_out_of_turn(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    s = start(small_lexicon)
    move = lay_word(s, "8H", "CAT")
    with pytest.raises(IllegalActionError, match="no challenges"):
        ChallengeWindow(s, move, s.apply(move), "none").settle(s.apply(move))
    after = s.apply(move).apply((1, 1, 2))
    moved_on = after.apply(PASS)  # the next player moved: the window is closed for them
    with pytest.raises(IllegalActionError, match="only the next player"):
        ChallengeWindow(s, move, after, "double").settle(moved_on)
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
