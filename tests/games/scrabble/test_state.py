"""The game protocol: deal, draws as chance events, exchanges, passes, the end of the game."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.errors import IllegalActionError, InvalidStateError
from stratagem.core.game import CHANCE, TERMINAL, State, sample_chance
from stratagem.core.play import play
from stratagem.games.scrabble.board import Placement
from stratagem.games.scrabble.position import read_position
from stratagem.games.scrabble.state import PASS, Exchange, ScrabbleState
from stratagem.games.scrabble.strategies import GreedyAgent, selfplay

EMPTY = ["." * 15] * 15


def position(lexicon, racks, bag=None, scores="0 0", board=EMPTY, scoreless=0):  # type: ignore[no-untyped-def]
    """A position; without ``bag`` the bag holds every tile not on the board or a rack."""
    text = f"racks: {racks}\nscores: {scores}\nscoreless: {scoreless}\n"
    if bag is not None:
        text += f"bag: {bag}\n"
    text += "board:\n" + "\n".join(board)
    return read_position(text, lexicon)


def test_new_game_deals_each_rack_by_chance(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    s = ScrabbleState.new(small_lexicon, players=3)
    assert isinstance(s, State)
    rng = np.random.default_rng(0)
    draws = 0
    while s.current_player == CHANCE:
        s = s.apply(sample_chance(s, rng))
        draws += 1
    assert draws == 3 and s.current_player == 0
    assert [len(s.rack_text(p)) for p in range(3)] == [7, 7, 7]
    assert s.bag_size() == 79


def test_chance_outcomes_are_a_distribution(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    s = position(small_lexicon, "CATSXYZ ABCDEFG", bag="AAB?")
    s = s.apply(Placement(7, 6, True, "CAT", 10))
    assert s.current_player == CHANCE
    outcomes = dict(s.chance_outcomes())
    assert pytest.approx(sum(outcomes.values())) == 1.0
    a, b, blank = 1, 12, 26
    assert pytest.approx(outcomes[(a, a, b)]) == 1 / 4  # C(2,2)*C(1,1) / C(4,3)
    assert pytest.approx(outcomes[(a, b, blank)]) == 2 / 4
    after = s.apply((a, b, blank))
    assert after.current_player == 1 and after.bag_size() == 1
    assert sorted(after.rack_text(0)) == sorted("SXYZAB?")


def test_placement_scores_and_refills(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    s = position(small_lexicon, "CATSXYZ ABCDEFG")
    s2 = s.apply(Placement(7, 6, True, "CAT", 10))
    assert s2.scores == (10, 0) and s2.current_player == CHANCE
    assert s.scores == (0, 0)  # states are immutable


def test_illegal_placements_are_refused(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    s = position(small_lexicon, "CATSXYZ ABCDEFG")
    with pytest.raises(IllegalActionError, match="scores 10, not 12"):
        s.apply(Placement(7, 6, True, "CAT", 12))
    with pytest.raises(IllegalActionError, match="not in the lexicon"):
        s.apply(Placement(7, 6, True, "TAC", 10))
    with pytest.raises(IllegalActionError, match="does not hold"):
        s.apply(Placement(7, 6, True, "BAT", 10))
    with pytest.raises(IllegalActionError, match="not a Scrabble move"):
        s.apply("CAT")
    with pytest.raises(IllegalActionError, match=r"at \(7, 15\) runs off the board"):
        s.apply(Placement(7, 15, False, "CAT", 10))


def test_exchange_needs_seven_in_the_bag(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    s = position(small_lexicon, "CATSXYZ ABCDEFG", bag="AAEEII")
    assert not any(isinstance(a, Exchange) for a in s.legal_actions())
    with pytest.raises(IllegalActionError, match="at least 7"):
        s.apply(Exchange("XYZ"))
    full = position(small_lexicon, "CATSXYZ ABCDEFG")
    exchanges = [a for a in full.legal_actions() if isinstance(a, Exchange)]
    assert len(exchanges) == 2**7 - 1  # seven distinct tiles
    after = full.apply(Exchange("XYZ"))
    assert after.current_player == CHANCE and after.rack_text(0) == "ATSC"
    drawn = after.sample_chance(np.random.default_rng(1))
    done = after.apply(drawn)
    assert done.bag_size() == full.bag_size() and done.current_player == 1


def test_going_out_takes_the_others_racks(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    board = [*EMPTY[:7], ".......CAR.....", *EMPTY[8:]]
    s = position(small_lexicon, "E QZ", bag="", scores="50 60", board=board)
    end = s.apply(Placement(7, 7, True, "CARE", 6))
    assert end.current_player == TERMINAL
    # CARE scores 3+1+1+1 = 6; Q + Z = 20 moves from player 1 to player 0.
    assert end.scores == (50 + 6 + 20, 60 - 20)
    assert end.returns() == (76.0, 40.0)


def test_six_scoreless_turns_end_the_game(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    board = [*EMPTY[:7], ".......CAT.....", *EMPTY[8:]]
    s = position(small_lexicon, "QV ZE", bag="", scores="30 30", board=board)
    for turn in range(6):
        assert not s.is_terminal(), turn
        s = s.apply(PASS)
    assert s.is_terminal()
    assert s.scores == (30 - 14, 30 - 11)  # each loses their own rack


def test_scoring_move_resets_the_scoreless_count(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    s = position(small_lexicon, "CATSXYZ ABCDEFG", scoreless=5)
    s = s.apply(Placement(7, 6, True, "CAT", 10))
    assert s.scoreless == 0 and not s.is_terminal()


def test_bad_player_counts(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidStateError, match="2-4 players"):
        ScrabbleState.new(small_lexicon, players=5)


def test_greedy_game_is_reproducible(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    agents = [GreedyAgent(), GreedyAgent()]
    a = play(ScrabbleState.new(small_lexicon), agents, np.random.default_rng(5)).state
    b = play(ScrabbleState.new(small_lexicon), agents, np.random.default_rng(5)).state
    assert a == b and a.is_terminal()


def test_selfplay_summary(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    result = selfplay(small_lexicon, ["greedy", "random"], games=3, seed=1)
    assert result["games"] == 3 and len(result["mean_score"]) == 2  # type: ignore[arg-type]
    assert sum(result["wins"]) == 3  # type: ignore[arg-type]
    again = selfplay(small_lexicon, ["greedy", "random"], games=3, seed=1)
    assert again["mean_score"] == result["mean_score"]


def test_tiles_are_conserved_through_a_game(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    counts: list[int] = []

    def count(s: ScrabbleState, player: int, action: object) -> None:
        on_board = int((s.board_array >= 0).sum())
        counts.append(on_board + sum(sum(r) for r in s.racks) + s.bag_size() + sum(s.returned))

    end = play(
        ScrabbleState.new(small_lexicon),
        [GreedyAgent()] * 2,
        np.random.default_rng(3),
        observe=count,
    )  # type: ignore[arg-type]
    count(end.state, -2, None)  # type: ignore[arg-type]
    assert len(counts) > 10 and set(counts) == {100}


def test_greedy_advice_is_every_action_priced_by_score(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    s = position(small_lexicon, "CATSXYZ ABCDEFG")
    advice = GreedyAgent().advise(s)
    assert len(advice) == len(s.legal_actions())
    assert advice[0].regret == 0 and advice[0].value == max(a.value for a in advice)
    assert isinstance(advice[0].action, Placement)
    assert str(GreedyAgent().act(s, np.random.default_rng(0))) == str(advice[0].action)


def test_a_state_can_be_left_by_several_placements(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    # Searches apply many moves to one state: a placement must not write into
    # the board that the state caches.
    s = position(small_lexicon, "CATDOG? EEEEEEE", bag="")
    first, second = [a for a in s.legal_actions() if isinstance(a, Placement)][:2]
    before = s.board_rows()
    assert s.apply(first).board_rows() != before
    assert s.board_rows() == before
    s.apply(second)
    assert s.board_rows() == before


def _mutations(move: Placement) -> list[Placement]:
    """The move itself and nearby moves that are mostly illegal: shifted, turned, a letter
    changed or played as a blank, a word cut short, a wrong score."""
    out = [move, Placement(move.row, move.col, move.across, move.word, move.score + 1)]
    for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)):
        out.append(Placement(move.row + dr, move.col + dc, move.across, move.word, move.score))
    out.append(Placement(move.row, move.col, not move.across, move.word, move.score))
    for i in range(len(move.word)):
        w = move.word
        out.append(Placement(move.row, move.col, move.across, w[:i] + w[i].lower() + w[i + 1 :], 0))
        out.append(Placement(move.row, move.col, move.across, w[:i] + "E" + w[i + 1 :], move.score))
    out.append(Placement(move.row, move.col, move.across, move.word[:-1], move.score))
    out.append(Placement(move.row, move.col, move.across, move.word + "S", move.score))
    return out


def test_the_numba_check_of_a_placement_agrees_with_the_python_rules(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    # The numba check (state._check_fast) answers only legal moves that score what they
    # claim; for everything else apply falls back to the Python rules, which name the
    # broken rule. Over legal moves and near misses from greedy games they must agree.
    rng = np.random.default_rng(7)
    s = ScrabbleState.new(small_lexicon)
    agent = GreedyAgent()
    accepted = refused = 0
    while not s.is_terminal():
        if s.current_player == CHANCE:
            s = s.apply(s.sample_chance(rng))
            continue
        moves = [a for a in s.legal_actions() if isinstance(a, Placement)]
        for move in moves[:12]:
            for probe in _mutations(move):
                board = s.board_array.copy()
                fast = s._check_fast(probe, board)
                try:
                    slow = s._check(probe, board)
                except IllegalActionError:
                    assert fast is None, probe
                    refused += 1
                    continue
                if slow[2] == probe.score:
                    assert fast == slow, probe
                    accepted += 1
                else:
                    assert fast is None, probe
                    refused += 1
                assert np.array_equal(board, s.board_array)  # neither wrote the board
        s = s.apply(agent.act(s, rng))
    assert accepted > 100 and refused > 1000


def test_an_impossible_exchange_is_named_an_exchange_not_a_rack(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    """Issue 33: `x ZZZZZZZ` said "rack holds more Z tiles than the english set has"."""
    full = position(small_lexicon, "CATSXYZ ABCDEFG")
    with pytest.raises(InvalidStateError, match=r"^the exchange 'ZZZZZZZ' holds more Z tiles"):
        full.apply(Exchange("ZZZZZZZ"))
    with pytest.raises(InvalidStateError, match=r"^the exchange 'ZZZZZZZZ' holds 8 tiles"):
        full.apply(Exchange("ZZZZZZZZ"))


def test_an_impossible_bag_is_named_the_bag(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidStateError, match="bag 'ZZ' holds more Z tiles"):
        position(small_lexicon, "CATSXYZ ABCDEFG", bag="ZZ")
