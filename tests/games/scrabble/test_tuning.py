"""The GA's Scrabble fitness: paired deals through the arena, wins counted per player."""

from __future__ import annotations

import json

import numpy as np
import pytest

from stratagem.algorithms.genetic import GeneticError
from stratagem.core.arena import InlineExecutor
from stratagem.games.scrabble.heuristic import SOURCE_WEIGHTS, load_weights
from stratagem.games.scrabble.tuning import (
    fitness_tasks,
    player_spec,
    tune,
    tune_config,
    wins_from_rows,
)


def test_every_player_meets_the_same_deals_in_both_seats() -> None:
    pop = np.stack([SOURCE_WEIGHTS.array, SOURCE_WEIGHTS.array * 2])
    tasks = fitness_tasks(pop, generation=3, games=4, seed=7, rules="english", chunk=3)
    games = [g for t in tasks for g in t.games]
    assert [g[0] for g in games] == list(range(8))
    deals = {}
    for index, pair, seed, seats in games:
        player = index // 4
        me = seats.index(player_spec(pop[player]))
        deals.setdefault(player, []).append((pair, seed, me))
    assert deals[0] == [(p, s, 1 - m) for p, s, m in [(x[0], x[1], 1 - x[2]) for x in deals[1]]]
    assert sorted(m for _, _, m in deals[0]) == [0, 0, 1, 1]
    other = fitness_tasks(pop, generation=4, games=4, seed=7, rules="english")
    assert other[0].games[0][2] != tasks[0].games[0][2]  # new deals each generation


def test_wins_count_ties_as_half() -> None:
    spec = player_spec(SOURCE_WEIGHTS.array)
    rows = [
        {"game_index": 0, "seats": json.dumps([spec, "greedy"]), "returns": "[300, 200]"},
        {"game_index": 1, "seats": json.dumps(["greedy", spec]), "returns": "[300, 200]"},
        {"game_index": 2, "seats": json.dumps([spec, "greedy"]), "returns": "[250, 250]"},
        {"game_index": 3, "seats": json.dumps(["greedy", spec]), "returns": "[100, 400]"},
    ]
    assert wins_from_rows(rows, players=2, games=2).tolist() == [1.0, 1.5]


def test_games_must_be_even() -> None:
    with pytest.raises(GeneticError, match="even"):
        tune_config(4, 3, 0, "english", False)
    assert tune_config(4, 2, 0, "english", True).weights_per_phase == 5


@pytest.mark.slow
def test_a_tiny_tuning_run_writes_and_resumes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    cfg = tune_config(3, 2, 0, "english", False)
    result = tune(tmp_path, 1, cfg, 2, InlineExecutor(), "english", "endgame=off")
    assert result.generation == 1 and len(result.history) == 1
    again = tune(tmp_path, 2, cfg, 2, InlineExecutor(), "english", "endgame=off")
    assert again.history[0] == result.history[0] and len(again.history) == 2
    assert load_weights(tmp_path / "best_weights.json").array.shape == (5, 4)
    assert (tmp_path / "history.csv").read_text().count("\n") == 3
