"""Challenges as decisions of a session (``english:challenge=single|double``)."""

from __future__ import annotations

import pytest

from stratagem.core.errors import IllegalActionError
from stratagem.core.session import Session
from stratagem.games.scrabble.challenge import lay_word, phonies


def _phony(session: Session) -> str:
    """The text of a phony the player to move can lay on the empty board at 8H."""
    state = session.state
    rack = state.rack_text().replace("?", "")
    for n in (3, 4, 2, 5):
        for start in range(len(rack) - n + 1):
            move = lay_word(state, "8H", rack[start : start + n])
            if phonies(state, move):
                return str(move)
    raise AssertionError(f"no phony from {rack}")


def _two_people(rule: str, seed: int = 3) -> Session:
    return Session.new("scrabble", rules=f"english:challenge={rule}", seats=["human", "human"],
                       seed=seed)  # fmt: skip


def test_a_challenged_phony_comes_off_and_its_player_loses_the_turn() -> None:
    s = _two_people("double")
    rack = s.state.rack_text(0)
    phony = _phony(s)
    s.submit(phony)
    assert s.to_move == 1 and "challenge" in s.legal_texts()
    s.submit("challenge")
    state = s.state
    assert state.rack_text(0) == rack  # the tiles are back on the rack
    assert state.scores == (0, 0) and state.board_array.max() < 0  # no score, empty board
    assert s.to_move == 1 and "not in the word list" in state.verdict
    assert "challenge" not in s.legal_texts()


def test_a_wrong_challenge_loses_a_turn_under_double() -> None:
    s = _two_people("double")
    good = s.legal_texts()[0]  # the best placement: good words
    s.submit(good)
    s.submit("challenge")
    assert s.to_move == 0 and s.state.scores[0] > 0 and "loses a turn" in s.state.verdict


def test_a_wrong_challenge_costs_nothing_under_single() -> None:
    s = _two_people("single")
    s.submit(s.legal_texts()[0])
    s.submit("challenge")
    assert s.to_move == 1 and "no penalty" in s.state.verdict
    assert "challenge" not in s.legal_texts()  # one challenge a placement


def test_a_challenge_out_of_turn_is_refused_with_a_message() -> None:
    s = _two_people("double")
    with pytest.raises(IllegalActionError, match="challenge"):
        s.submit("challenge")  # no placement yet
    s.submit(s.legal_texts()[0])
    s.submit("pass")  # the window closes with the next decision
    with pytest.raises(IllegalActionError, match="challenge"):
        s.submit("challenge")


def test_without_a_challenge_rule_a_phony_is_refused() -> None:
    s = Session.new("scrabble", rules="english", seats=["human", "human"], seed=3)
    with pytest.raises(IllegalActionError, match="not a legal decision"):
        s.submit(_phony(_two_people("double")))


def test_an_agent_challenges_exactly_the_phonies() -> None:
    s = Session.new("scrabble", rules="english:challenge=double", seats=["human", "greedy"],
                    seed=3)  # fmt: skip
    s.submit(_phony(s))
    s.ai_move()
    assert s.decisions()[-1] == "challenge" and "taken back" in s.state.verdict
    s.ai_move()  # the person lost the turn: the agent plays
    s.submit(s.legal_texts()[0])  # now a good word: the agent plays on
    s.ai_move()
    assert s.decisions()[-1] != "challenge"


def test_a_challenge_game_replays_and_takes_back_to_the_same_tiles() -> None:
    s = _two_people("double")
    s.submit(_phony(s))
    s.submit("challenge")
    s.submit(s.legal_texts()[0])
    copy = Session.from_json(s.to_json())
    assert copy.decisions() == s.decisions() and copy.state == s.state
    after = s.state_at(2)  # after the challenge, before the next placement
    s.takeback(1)  # back before the challenge: the phony stands on the board
    assert s.state.board_array.max() >= 0 and "challenge" in s.legal_texts()
    s.submit("challenge")
    assert s.state == after and s.state.racks == after.racks
