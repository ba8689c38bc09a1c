"""Exact final-score distributions of the options of one decision."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from stratagem.core.errors import IllegalActionError
from stratagem.games.yahtzee.distribution import remaining_distributions
from stratagem.games.yahtzee.outcomes import OptionDistributions
from stratagem.games.yahtzee.solver import Solution
from stratagem.games.yahtzee.state import Keep, Score, Situation
from stratagem.games.yahtzee.strategies import OptimalStrategy


@pytest.fixture(scope="module", params=["yahtzee", "yatzy"])
def late_game(
    request: pytest.FixtureRequest, solved: Callable[[str], Solution]
) -> tuple[OptionDistributions, Situation]:
    """Two boxes open: the tables are built only for states with one box left (seconds)."""
    sol = solved(request.param)
    rules = sol.rules
    tables = remaining_distributions(
        sol, "optimal", dtype=np.float64, min_filled=rules.num_categories - 1
    )
    open_boxes = {"fours", "chance"}
    filled = frozenset(set(rules.categories) - open_boxes)
    box = "yahtzee" if rules.family == "yahtzee" else None
    sit = Situation(rules, (1, 4, 4, 5, 6), 2, filled, upper=50, yahtzee_box=0 if box else None,
                    score=180)  # fmt: skip
    return OptionDistributions(OptimalStrategy(sol), tables), sit


def test_every_option_sums_to_one_with_its_exact_expected_score(
    late_game: tuple[OptionDistributions, Situation],
) -> None:
    dist, sit = late_game
    for advice in dist.strategy.advise_situation(sit):
        final = dist.final_score(sit, advice.action)  # type: ignore[arg-type]
        assert final.pmf.sum() == pytest.approx(1.0, abs=1e-12)
        assert final.mean == pytest.approx(advice.value, abs=1e-9)
        assert final.pmf[0] > 0 and final.pmf[-1] > 0  # trimmed to its support


def test_scoring_the_last_but_one_box_leaves_the_last_boxs_spread(
    late_game: tuple[OptionDistributions, Situation],
) -> None:
    dist, sit = late_game
    final = dist.final_score(sit, Score("chance"))
    # chance scores 20 now (180 -> 200, upper bonus not reached at 50 + fours below 13);
    # then fours scores 0..20 in steps of four, and 63 is reached (bonus) only with 13+
    assert final.low >= 200
    assert final.p_at_least(200) == pytest.approx(1.0)


def test_an_option_that_is_not_legal_is_refused(
    late_game: tuple[OptionDistributions, Situation],
) -> None:
    dist, sit = late_game
    with pytest.raises(IllegalActionError, match="not an option"):
        dist.final_score(sit, Keep((2, 2)))
