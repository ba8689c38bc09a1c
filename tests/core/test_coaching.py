"""The unit's labels and the judge built from a coach's rows."""

import pytest

from stratagem.core.coaching import Unit, judged_from_rows

UNIT = Unit("expected points", "pts", (1.0, 3.0, 8.0))


@pytest.mark.parametrize(
    ("cost", "label"),
    [
        (0.0, "best"),
        (0.5, "good"),
        (1.0, "inaccuracy"),
        (2.9, "inaccuracy"),
        (3.0, "mistake"),
        (8.0, "blunder"),
    ],
)
def test_a_cost_is_labelled_by_the_first_threshold_it_reaches(cost: float, label: str) -> None:
    assert UNIT.label(cost) == label


def test_thresholds_must_rise() -> None:
    with pytest.raises(ValueError, match="must rise"):
        Unit("x", "x", (2.0, 1.0, 3.0))


def test_the_played_rows_cost_is_the_best_value_minus_its_own() -> None:
    rows = [
        {"action": "score chance", "value": 250.0, "exact": True},
        {"action": "keep 6 6", "value": 245.5, "exact": True},
    ]
    judged = judged_from_rows(rows, "keep 6 6", UNIT)
    assert (judged.best, judged.cost, judged.label, judged.exact) == (
        "score chance",
        4.5,
        "mistake",
        True,
    )
    assert judged_from_rows(rows, "score chance", UNIT).label == "best"


def test_an_estimated_row_makes_the_verdict_estimated() -> None:
    rows = [{"action": "a", "value": 1.0, "exact": False}, {"action": "b", "value": 0.0}]
    assert judged_from_rows(rows, "b", UNIT).exact is False
