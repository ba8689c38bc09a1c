"""Decision analysis: normalisation, maximum-entropy reply probabilities, skill learning.

The method is Tsukamoto, Yamada and Terano, "Decision analysis in Score Four",
IJCAI 1979; it is tested here on a toy game so that nothing of Score Four leaks in.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from stratagem.algorithms.decision_analysis import (
    DecisionAnalysis,
    DecisionAnalysisConfig,
    max_entropy_probabilities,
    normalised_values,
    reply_probabilities,
    update_skill,
)
from stratagem.core.errors import InvalidRulesError, StratagemError
from stratagem.core.game import TERMINAL


def entropy(p: np.ndarray) -> float:
    q = p[p > 0]
    return float(-(q * np.log(q)).sum())


def test_normalised_values_run_from_worst_0_to_best_1() -> None:
    assert normalised_values([3.0, 7.0, 5.0]).tolist() == [0.0, 1.0, 0.5]
    assert normalised_values([2.0, 2.0]).tolist() == [1.0, 1.0]
    with pytest.raises(StratagemError):
        normalised_values([])


@given(
    st.lists(st.floats(0, 1), min_size=2, max_size=3),
    st.floats(0, 1),
)
def test_the_expected_f_equals_the_skill_inside_the_range(f: list[float], skill: float) -> None:
    fs = np.array(f)
    p = max_entropy_probabilities(fs, skill)
    assert p.sum() == pytest.approx(1.0) and (p >= 0).all()
    expected = min(max(skill, fs.min()), fs.max())
    assert p @ fs == pytest.approx(expected, abs=1e-7)


def test_it_is_the_maximum_entropy_distribution_with_that_mean() -> None:
    f = np.array([1.0, 0.6, 0.1])
    p = max_entropy_probabilities(f, 0.75)
    # Every distribution with the same mean is p + t d, d orthogonal to (1, 1, 1) and to f.
    d = np.cross(np.ones(3), f)
    checked = 0
    for t in np.linspace(-1, 1, 401):
        q = p + t * d
        if (q >= 0).all() and abs(t) > 1e-9:
            assert q @ f == pytest.approx(0.75)
            assert entropy(q) < entropy(p)
            checked += 1
    assert checked > 50


def test_skill_one_picks_the_best_and_below_f3_the_worst_of_the_three() -> None:
    assert max_entropy_probabilities([1.0, 0.5, 0.2], 1.0).tolist() == [1.0, 0.0, 0.0]
    assert max_entropy_probabilities([1.0, 0.5, 0.2], 0.1).tolist() == [0.0, 0.0, 1.0]
    # f = the uniform mean gives the uniform distribution
    assert max_entropy_probabilities([1.0, 0.5, 0.0], 0.5) == pytest.approx([1 / 3] * 3)


def test_ties_share_probability_equally() -> None:
    p = max_entropy_probabilities([1.0, 1.0, 0.2], 1.0)
    assert p.tolist() == [0.5, 0.5, 0.0]
    p = max_entropy_probabilities([1.0, 0.4, 0.4], 0.7)
    assert p[1] == pytest.approx(p[2])
    assert max_entropy_probabilities([0.3, 0.3, 0.3], 0.9).tolist() == pytest.approx([1 / 3] * 3)


def test_fewer_than_three_replies() -> None:
    assert reply_probabilities([5.0], 0.7).tolist() == [1.0]
    p = reply_probabilities([5.0, 1.0], 0.7)
    assert p @ np.array([1.0, 0.0]) == pytest.approx(0.7)


def test_only_the_best_three_replies_get_probability() -> None:
    p = reply_probabilities([10.0, 9.0, 0.0, 8.0, 1.0], 0.95)
    assert p[2] == p[4] == 0.0 and p.sum() == pytest.approx(1.0)
    assert p[0] > p[1] > p[3] > 0


def test_replies_tied_with_the_third_are_all_kept() -> None:
    p = reply_probabilities([10.0, 5.0, 5.0, 5.0, 0.0], 0.8)
    assert p[1] == p[2] == p[3] > 0 and p[4] == 0.0


def test_a_skill_below_the_third_reply_is_raised_to_it() -> None:
    # f = 1, 0.9, 0.8 for the kept three; a skill of 0.3 plays as 0.8: all on the third.
    p = reply_probabilities([10.0, 9.0, 8.0, 0.0], 0.3)
    assert p.tolist() == [0.0, 0.0, 1.0, 0.0]


def test_the_skill_update_is_an_exponential_average() -> None:
    assert update_skill(1.0, 0.5, 0.05) == pytest.approx(0.975)
    assert update_skill(0.8, 0.2, 0.0) == 0.8
    assert update_skill(0.8, 0.2, 1.0) == pytest.approx(0.2)


def test_config_is_checked() -> None:
    for bad in ({"depth": 0}, {"f0": 1.5}, {"beta": -0.1}, {"keep": 0}):
        with pytest.raises(InvalidRulesError):
            DecisionAnalysisConfig(**bad)  # type: ignore[arg-type]


# --- a toy game: players alternately add 1, 2 or 3; the state value is the running sum ----


@dataclass(frozen=True)
class Adding:
    total: int = 0
    plies: int = 0
    length: int = 4

    num_players = 2

    @property
    def current_player(self) -> int:
        return TERMINAL if self.plies >= self.length else self.plies % 2

    def legal_actions(self) -> list[int]:
        return [] if self.plies >= self.length else [1, 2, 3]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []

    def apply(self, action: object) -> Adding:
        assert isinstance(action, int)
        sign = 1 if self.plies % 2 == 0 else -1
        return Adding(self.total + sign * action, self.plies + 1, self.length)

    def is_terminal(self) -> bool:
        return self.plies >= self.length

    def returns(self) -> tuple[float, ...]:
        return (float(self.total > 0), float(self.total < 0))


def toy_value(state: object, player: int) -> float:
    assert isinstance(state, Adding)
    return float(state.total if player == 0 else -state.total)


def test_the_opponent_node_averages_with_the_modelled_probabilities() -> None:
    da = DecisionAnalysis(toy_value, DecisionAnalysisConfig(depth=2, f0=0.5))
    # After player 0 adds 3, player 1 subtracts 1, 2 or 3: f = 0, 0.5, 1; skill 0.5 -> uniform.
    assert da.value(Adding().apply(3), 0, 1) == pytest.approx(3 - 2)
    da_sharp = DecisionAnalysis(toy_value, DecisionAnalysisConfig(depth=2, f0=1.0))
    assert da_sharp.value(Adding().apply(3), 0, 1) == pytest.approx(0.0)
    advice = da.advise(Adding())
    assert advice[0].action == 3 and advice[0].value == pytest.approx(1.0)


def test_deeper_look_ahead_folds_back_max_and_average() -> None:
    da = DecisionAnalysis(toy_value, DecisionAnalysisConfig(depth=4, f0=1.0))
    # Against a perfect opponent the toy game is worth 3 - 3 + 3 - 3 = 0.
    assert da.advise(Adding())[0].value == pytest.approx(0.0)


def test_it_learns_from_the_moves_the_opponent_plays() -> None:
    da = DecisionAnalysis(toy_value, DecisionAnalysisConfig(depth=2, f0=1.0, beta=0.5))
    rng = np.random.default_rng(0)
    state = Adding(length=6)
    state = state.apply(da.act(state, rng))
    state = state.apply(1)  # the opponent's worst move: f = 0
    assert da.skill == 1.0
    state = state.apply(da.act(state, rng))
    assert da.observed == [0.0] and da.skill == pytest.approx(0.5) and da.trace == [0.5]
    state = state.apply(3)  # its best: f = 1
    da.act(state, rng)
    assert da.skill == pytest.approx(0.75)
    da.act(Adding(length=6), rng)  # a new game resets the estimate
    assert da.skill == 1.0 and da.trace == []
