"""Three players solved exactly on the smallest reduced cards."""

from __future__ import annotations

import pytest

from stratagem.core.errors import InvalidRulesError
from stratagem.games.yahtzee.duel import Variant
from stratagem.games.yahtzee.duel3 import ThreeSolver, filled, start_value

SMALL = Variant("yahtzee", ("ones", "twos"))


def test_seats_fill_their_cards_in_turn():
    assert [[filled(s, t) for s in range(3)] for t in range(7)] == [
        [0, 0, 0], [1, 0, 0], [1, 1, 0], [1, 1, 1], [2, 1, 1], [2, 2, 1], [2, 2, 2],
    ]  # fmt: skip


def test_the_expected_score_optimum_against_itself_shares_the_win_equally():
    shares, _ = start_value(SMALL, ("es", "es", "es"))
    assert shares == pytest.approx((1 / 3, 1 / 3, 1 / 3), abs=1e-12)


def test_the_equilibrium_shares_sum_to_one_and_favour_the_last_seat():
    shares, _ = start_value(SMALL, ("max", "max", "max"))
    assert sum(shares) == pytest.approx(1.0, abs=1e-12)
    assert shares[0] < shares[1] < shares[2]


@pytest.mark.parametrize("seat", [0, 1, 2])
def test_a_best_response_does_no_worse_than_the_strategy_it_replaces(seat):
    modes = ["es", "es", "es"]
    modes[seat] = "max"
    shares, _ = start_value(SMALL, modes)
    assert shares[seat] >= 1 / 3 - 1e-12
    assert sum(shares) == pytest.approx(1.0, abs=1e-12)


def test_a_variant_too_large_is_refused_before_any_work():
    with pytest.raises(InvalidRulesError, match="too large for the three-player solver"):
        ThreeSolver(Variant("yahtzee", ("ones", "twos"), upper_bonus=True), ("max",) * 3)


def test_modes_other_than_max_and_es_are_refused():
    with pytest.raises(InvalidRulesError, match="three modes"):
        ThreeSolver(SMALL, ("max", "win", "es"))  # type: ignore[arg-type]
