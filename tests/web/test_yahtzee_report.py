"""The Yahtzee final report (``/api/yahtzee/sessions/{id}/verdicts``): the optimum's
expected score, skill and luck that add up."""

from __future__ import annotations

import itertools
from collections.abc import Callable

import pytest
from fastapi.testclient import TestClient


def _play(client: TestClient, rules: str, seed: int, pick: Callable[[list[str]], str]) -> dict:
    """A whole solitaire game of /api/sessions choosing ``pick(legal)`` each time; the
    coach's verdicts and final report."""
    body = {"game": "yahtzee", "rules": rules, "seats": ["human"], "seed": seed}
    game = client.post("/api/sessions", json=body).json()
    while not game["over"]:
        game = client.post(
            f"/api/sessions/{game['id']}/move", json={"decision": pick(game["legal"])}
        ).json()
    answer: dict = client.get(f"/api/yahtzee/sessions/{game['id']}/verdicts").json()
    return answer


def _worst_first(legal: list[str]) -> str:
    # scores the first open box at once: many costly decisions, for a luck/skill split
    # that is far from zero
    return next(a for a in legal if a.startswith("score "))


@pytest.mark.parametrize(("rules", "published"), [("yahtzee", 254.59), ("yatzy", 248.44)])
def test_the_report_compares_with_the_optimums_expected_score_from_the_table(
    client: TestClient, rules: str, published: float
) -> None:
    # Published optima: Yahtzee 254.59 (Woodward 2003; Glenn 2006, "An optimal strategy
    # for Yahtzee"), Scandinavian Yatzy 248.44 (yatzy-solver, docs/results/yahtzee.md).
    report = _play(client, rules, 5, _worst_first)["report"]
    tables = client.post(f"/api/yahtzee/tables/{rules}", json={"remaining": False}).json()
    table = tables["expected_score"]
    assert report["optimum_expected"] == table
    assert round(report["optimum_expected"], 2) == published


def test_luck_is_the_sum_of_what_each_roll_moved_the_expected_score(client: TestClient) -> None:
    answer = _play(client, "yahtzee", 9, _worst_first)
    s, decisions = answer["report"], answer["verdicts"]
    # between one decision and the next only dice fell: the move of the expected final
    # score there (next decision's best value minus the value of the option taken) is
    # luck; so is the first roll's, from the optimum's start, and the last box's none
    luck = decisions[0]["value_best"] - s["optimum_expected"]
    for before, after in itertools.pairwise(decisions):
        luck += after["value_best"] - before["value_played"]
    luck += s["final"][0] - decisions[-1]["value_played"]
    assert s["luck"] == pytest.approx(luck, abs=1e-6)
    assert s["expected_points_lost"] == pytest.approx(sum(d["cost"] for d in decisions), abs=1e-9)
    assert s["expected_points_lost"] > 20  # the careless game lost many points
    assert s["optimum_expected"] - s["expected_points_lost"] + s["luck"] == pytest.approx(
        s["final"][0]
    )
