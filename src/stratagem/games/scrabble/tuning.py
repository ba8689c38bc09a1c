"""Tuning the heuristic player's weights with the genetic algorithm.

Fitness is wins against the greedy player (a tie counts half) over ``games``
games per player, played through the arena's executors on paired deals:
each generation draws ``games / 2`` deals, and every player plays each deal
twice, once in each seat, against greedy; all players of a generation meet
the same deals, so the ranking is not decided by who drew the blanks.

The run lives in ``--out DIR``: ``checkpoint.json`` (after every generation;
a killed run resumes from it), ``history.csv`` (fitness per generation),
``best_weights.json`` (the best player of the last generation).
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.algorithms.genetic import (
    GAConfig,
    GAResult,
    GeneticError,
    check_generations,
    flat,
    run_ga,
)
from stratagem.core.arena import Executor, Task, load_game
from stratagem.core.files import check_writable_target, first_line_is, prepare_folder, replacing
from stratagem.games.scrabble.heuristic import (
    LEAVE_TERM,
    PHASES,
    SOURCE_WEIGHTS,
    TERMS,
    Weights,
    save_weights,
)

OPPONENT = "greedy"
MAX_GAMES = 100_000
CHECKPOINT = "checkpoint.json"
RUN_OUTPUTS = ("history.csv", "best_weights.json")
"""What a run writes in its folder beside the checkpoint (replaced after every generation)."""


def deal_seed(seed: int, generation: int, pair: int) -> int:
    return int(np.random.SeedSequence([seed, generation, pair]).generate_state(1)[0])


def player_spec(weights: np.ndarray, extra: str = "") -> str:
    w = Weights(np.asarray(weights, dtype=float),
                TERMS if weights.shape[1] == len(TERMS) else (*TERMS, LEAVE_TERM))  # fmt: skip
    return f"heuristic:w={w.to_text()}" + (f",{extra}" if extra else "")


def fitness_tasks(
    population: np.ndarray, generation: int, games: int, seed: int, rules: str,
    extra: str = "", chunk: int = 8,
) -> list[Task]:  # fmt: skip
    """The games of one generation as arena tasks; ``game_index = player * games + j``."""
    plan = []
    for i in range(population.shape[0]):
        spec = player_spec(population[i], extra)
        for j in range(games):
            pair = j // 2
            seats = (spec, OPPONENT) if j % 2 == 0 else (OPPONENT, spec)
            plan.append((i * games + j, pair, deal_seed(seed, generation, pair), seats))
    return [Task("scrabble", rules, tuple(plan[k : k + chunk])) for k in range(0, len(plan), chunk)]


def wins_from_rows(rows: list[dict[str, Any]], players: int, games: int) -> np.ndarray:
    wins = np.zeros(players)
    for row in rows:
        i = int(row["game_index"]) // games
        seats = json.loads(row["seats"])
        returns = json.loads(row["returns"])
        me = 0 if seats[1] == OPPONENT else 1
        a, b = returns[me], returns[1 - me]
        wins[i] += 1.0 if a > b else 0.5 if a == b else 0.0
    return wins


def make_fitness(
    executor: Executor,
    games: int,
    seed: int,
    rules: str,
    extra: str = "",
    on_games: Callable[[int], None] | None = None,
) -> Callable[[np.ndarray, int], np.ndarray]:
    def fitness(population: np.ndarray, generation: int) -> np.ndarray:
        tasks = fitness_tasks(population, generation, games, seed, rules, extra)
        rows: list[dict[str, Any]] = []
        for chunk in executor.run(tasks):
            rows.extend(chunk)
            if on_games:
                on_games(len(chunk))
        if len(rows) != population.shape[0] * games:
            raise GeneticError(f"a generation played {len(rows)} games, expected "
                               f"{population.shape[0] * games}")  # fmt: skip
        return wins_from_rows(rows, population.shape[0], games)

    return fitness


def tune_config(
    population: int, games: int, seed: int, rules: str, with_leave: bool,
    roulette: float = 0.2, elite: float = 0.1, mutation_rate: float = 0.08,
    mutation_size: float = 0.5, init_spread: float = 1.0, start: Weights | None = None,
) -> GAConfig:  # fmt: skip
    if not 2 <= games <= MAX_GAMES or games % 2:
        raise GeneticError(f"--games must be an even number 2-{MAX_GAMES} (paired deals), "
                           f"got {games}")  # fmt: skip
    base = start if start is not None else SOURCE_WEIGHTS
    array = base.array
    terms = base.terms
    if with_leave and LEAVE_TERM not in terms:
        array = np.hstack([array, np.full((len(PHASES), 1), 1000.0)])
    elif not with_leave and LEAVE_TERM in terms:
        array = array[:, : len(TERMS)]
    return GAConfig(
        population=population, phases=len(PHASES), weights_per_phase=array.shape[1],
        start=flat(array), roulette=roulette, elite=elite, mutation_rate=mutation_rate,
        mutation_size=mutation_size, init_spread=init_spread, seed=seed,
        label=f"scrabble {rules}: wins of {games} paired games against {OPPONENT}",
    )  # fmt: skip


def weights_of(result: GAResult, note: str) -> Weights:
    arr = result.best_weights
    terms = TERMS if arr.shape[1] == len(TERMS) else (*TERMS, LEAVE_TERM)
    return Weights(np.asarray(arr, dtype=float), terms, note)


HISTORY_HEADER = ["generation", "best_wins", "mean_wins", "games", "best_rate", "mean_rate"]


def write_history(path: Path, result: GAResult, games: int) -> None:
    """The history CSV, replacing only a history a run wrote (never another file)."""
    check_writable_target(path, "history file", first_line_is(",".join(HISTORY_HEADER).encode()))
    with replacing(path) as tmp, open(tmp, "w", newline="", encoding="utf-8") as handle:
        w = csv.writer(handle)
        w.writerow(HISTORY_HEADER)
        for h in result.history:
            w.writerow([h["generation"], h["best"], round(h["mean"], 3), games,
                        round(h["best"] / games, 4), round(h["mean"] / games, 4)])  # fmt: skip


def tune(
    out: Path, generations: int, config: GAConfig, games: int, executor: Executor, rules: str,
    extra: str = "", on_games: Callable[[int], None] | None = None,
    on_generation: Callable[[GAResult], None] | None = None,
) -> GAResult:  # fmt: skip
    """Run (or resume) the GA in ``out``; writes the checkpoint, history and best weights.
    Generations and rules are checked, and the folder made, before any game. A folder
    that holds a history or best weights but no checkpoint to resume is refused: the new
    run would overwrite them."""
    check_generations(generations)
    load_game("scrabble").check_rules(rules)
    prepare_folder(out, "run folder")
    check_run_folder(out)
    fitness = make_fitness(executor, games, config.seed, rules, extra, on_games)
    history, best = (out / name for name in RUN_OUTPUTS)

    def after(result: GAResult) -> None:
        write_history(history, result, games)
        h = result.history[-1]
        save_weights(
            weights_of(result, f"GA generation {h['generation']}: {h['best']:g} wins of "
                               f"{games} against {OPPONENT} ({rules})"),
            best,
        )  # fmt: skip
        if on_generation:
            on_generation(result)

    return run_ga(config, generations, fitness, out / CHECKPOINT, after)


def check_run_folder(out: Path) -> None:
    """Refuse ``out`` if it holds what a run writes (:data:`RUN_OUTPUTS`) but no checkpoint:
    a new run there would overwrite those files (with a checkpoint, the run resumes and
    extends them)."""
    if (out / CHECKPOINT).exists():
        return  # resumed; run_ga refuses a checkpoint that is not this run's
    found = [name for name in RUN_OUTPUTS if os.path.lexists(out / name)]
    if found:
        raise GeneticError(
            f"run folder {out} holds {' and '.join(found)} but no {CHECKPOINT} to resume "
            "from; a new run would overwrite them: name a new or empty folder, or move them"
        )
