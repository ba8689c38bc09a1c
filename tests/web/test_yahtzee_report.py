"""The Yahtzee final report: the optimum's expected score, skill and luck that add up."""

from __future__ import annotations

import itertools
from typing import Any

import pytest
from fastapi.testclient import TestClient


def _play(client: TestClient, rules: str, seed: int, pick: Any) -> tuple[dict, list[dict]]:
    """A whole coach game choosing ``pick(legal)`` each time; the final view and every
    decision as the API reported it just after it was taken."""
    game = client.post("/api/yahtzee/games", json={"seed": seed, "rules": rules}).json()
    decisions = []
    while not game["over"]:
        game = client.post(
            f"/api/yahtzee/games/{game['id']}/act", json={"action": pick(game["legal"])}
        ).json()
        decisions.append(game["last"])
    return game, decisions


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
    game, _ = _play(client, rules, 5, _worst_first)
    table = client.get(f"/api/yahtzee/tables/{rules}").json()["expected_score"]
    assert game["summary"]["optimum_expected"] == table
    assert round(game["summary"]["optimum_expected"], 2) == published


def test_luck_is_the_sum_of_what_each_roll_moved_the_expected_score(client: TestClient) -> None:
    game, decisions = _play(client, "yahtzee", 9, _worst_first)
    s = game["summary"]
    # between one decision and the next only dice fell: the move of the expected final
    # score there (next decision's best value minus the value of the option taken) is
    # luck; so is the first roll's, from the optimum's start, and the last box's none
    luck = decisions[0]["best_value"] - s["optimum_expected"]
    for before, after in itertools.pairwise(decisions):
        luck += after["best_value"] - before["value"]
    luck += s["final"][0] - decisions[-1]["value"]
    assert s["luck"] == pytest.approx(luck, abs=1e-6)
    assert s["total_loss"] == pytest.approx(sum(d["regret"] for d in decisions), abs=1e-9)
    assert s["total_loss"] > 20  # the careless game lost many points to its decisions
    assert s["optimum_expected"] - s["total_loss"] + s["luck"] == pytest.approx(s["final"][0])
