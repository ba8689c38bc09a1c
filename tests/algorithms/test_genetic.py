"""The GA on toy fitness functions: selection, mutation, checkpoints and resuming."""

from __future__ import annotations

import doctest
import json

import numpy as np
import pytest

from stratagem.algorithms import genetic
from stratagem.algorithms.genetic import (
    GAConfig,
    GeneticError,
    initial_population,
    load_checkpoint,
    next_generation,
    run_ga,
)


def config(**kw: object) -> GAConfig:
    base: dict[str, object] = dict(population=10, phases=2, weights_per_phase=3,
                                   start=(1.0, 2.0, 3.0, 4.0, 5.0, 6.0), seed=1)  # fmt: skip
    base.update(kw)
    return GAConfig(**base)  # type: ignore[arg-type]


def toy_fitness(pop: np.ndarray, generation: int) -> np.ndarray:
    """Highest when every weight is near 10 (a smooth hill)."""
    return np.asarray(100.0 / (1.0 + ((np.log(pop / 10.0)) ** 2).sum(axis=(1, 2))))


def test_without_roulette_or_mutation_every_phase_comes_from_the_elite() -> None:
    cfg = config(roulette=0.0, mutation_rate=0.0, elite=0.2)
    rng = np.random.default_rng(0)
    pop = initial_population(cfg, rng)
    fit = np.arange(10, dtype=float)  # players 9 and 8 are the best 20%
    nxt = next_generation(pop, fit, cfg, rng)
    for i in range(10):
        for phase in range(2):
            assert any(np.array_equal(nxt[i, phase], pop[j, phase]) for j in (8, 9))


def test_roulette_picks_in_proportion_to_fitness() -> None:
    cfg = config(population=4, roulette=1.0, mutation_rate=0.0)
    rng = np.random.default_rng(0)
    pop = initial_population(cfg, rng)
    fit = np.array([0.0, 1.0, 0.0, 3.0])
    counts = np.zeros(4)
    for _ in range(500):
        nxt = next_generation(pop, fit, cfg, rng)
        for i in range(4):
            for phase in range(2):
                j = [k for k in range(4) if np.array_equal(nxt[i, phase], pop[k, phase])]
                counts[j[0]] += 1
    assert counts[0] == counts[2] == 0  # no wins, never picked
    share = counts[3] / counts.sum()
    assert 0.72 < share < 0.78  # 3 / 4


def test_mutation_changes_weights_by_a_factor_and_keeps_signs() -> None:
    cfg = config(population=2, mutation_rate=1.0, mutation_size=0.3,
                 start=(-1.0, 2.0, 0.0, 4.0, 5.0, 6.0))  # fmt: skip
    rng = np.random.default_rng(0)
    pop = np.stack([np.array(cfg.start).reshape(2, 3)] * 2)
    nxt = next_generation(pop, np.array([1.0, 1.0]), cfg, rng)
    assert not np.any(nxt == pop)
    assert np.all(np.sign(nxt[:, 0, 0]) == -1)  # a negative weight stays negative
    assert np.all(nxt[:, 0, 2] > 0)  # zero first becomes the floor (1.0), then scaled
    ratio = nxt[:, 1, :] / pop[:, 1, :]
    assert np.all((ratio > np.exp(-2)) & (ratio < np.exp(2)))


def test_mutation_rate_is_per_phase() -> None:
    cfg = config(population=50, mutation_rate=0.08, roulette=0.0, elite=1.0)
    rng = np.random.default_rng(0)
    pop = np.stack([np.array(cfg.start).reshape(2, 3)] * 50)
    mutated = 0
    for _ in range(40):
        nxt = next_generation(pop, np.ones(50), cfg, rng)
        mutated += int(np.sum(np.any(nxt != pop, axis=2)))
    assert 0.06 < mutated / (40 * 50 * 2) < 0.10


def test_the_ga_climbs_a_toy_hill() -> None:
    cfg = config(population=20, mutation_rate=0.3, mutation_size=0.4)
    result = run_ga(cfg, 30, toy_fitness)
    first, last = result.history[0]["best"], result.history[-1]["best"]
    assert last > first


def test_a_killed_run_resumes_to_the_same_result(tmp_path) -> None:  # type: ignore[no-untyped-def]
    cfg = config()
    straight = run_ga(cfg, 6, toy_fitness, tmp_path / "a.json")
    calls = []

    def dies_in_generation_3(pop: np.ndarray, gen: int) -> np.ndarray:
        calls.append(gen)
        if gen == 3:
            raise KeyboardInterrupt
        return toy_fitness(pop, gen)

    path = tmp_path / "b.json"
    with pytest.raises(KeyboardInterrupt):
        run_ga(cfg, 6, dies_in_generation_3, path)
    assert load_checkpoint(path, cfg).generation == 3
    resumed = run_ga(cfg, 6, toy_fitness, path)
    assert [h["fitness"] for h in resumed.history] == [h["fitness"] for h in straight.history]
    assert np.array_equal(resumed.population, straight.population)


def test_a_checkpoint_of_another_configuration_is_refused_and_kept(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "c.json"
    run_ga(config(), 2, toy_fitness, path)
    before = path.read_bytes()
    with pytest.raises(GeneticError, match=r"another GA configuration.*mutation_rate"):
        run_ga(config(mutation_rate=0.5), 4, toy_fitness, path)
    assert path.read_bytes() == before
    path.write_text("{torn")
    with pytest.raises(GeneticError, match="is not JSON"):
        run_ga(config(), 4, toy_fitness, path)
    assert path.read_text() == "{torn"


def _edited(data: dict, field: str, value: object) -> dict:  # type: ignore[type-arg]
    out = json.loads(json.dumps(data))
    if field.startswith("history0."):
        out["history"][0][field.split(".", 1)[1]] = value
    elif field == "rng.state":
        out["rng"]["state"] = value
    else:
        out[field] = value
    return out


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("generation", -5, "generation must be a whole number"),
        ("generation", 10**30, "generation must be a whole number"),
        ("generation", "1", "generation must be a whole number"),
        ("generation", 1.5, "generation must be a whole number"),
        ("generation", True, "generation must be a whole number"),
        ("generation", 1, "one entry per generation"),
        ("history", "x", "one entry per generation"),
        ("history0.generation", "a", "history entry 0"),
        ("history0.best", None, "history entry 0"),
        ("history0.fitness", [1.0], "history entry 0"),
        ("rng", {"state": 5}, "PCG64"),
        ("rng.state", {"state": 10**60, "inc": 1}, "PCG64"),
        ("rng.state", {"state": -1, "inc": 1}, "PCG64"),
        ("population", [[[10**400]]], "population"),
        ("population", "weights", "population"),
    ],
)
def test_a_hand_edited_checkpoint_is_refused_before_any_work(  # type: ignore[no-untyped-def]
    tmp_path, field, value, message
) -> None:
    """Each of these crashed in numpy, or (history) ran a generation and then failed with
    the checkpoint advanced and history.csv stale."""
    path = tmp_path / "c.json"
    run_ga(config(), 2, toy_fitness, path)
    data = json.loads(path.read_text())
    path.write_text(json.dumps(_edited(data, field, value)))
    before = path.read_bytes()
    calls = []

    def counted(pop: np.ndarray, gen: int) -> np.ndarray:
        calls.append(gen)
        return toy_fitness(pop, gen)

    with pytest.raises(GeneticError, match=f"malformed: .*{message}"):
        run_ga(config(), 4, counted, path)
    assert path.read_bytes() == before and calls == []


def test_a_checkpoint_with_weights_that_are_not_finite_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "c.json"
    run_ga(config(), 1, toy_fitness, path)
    text = path.read_text()
    data = json.loads(text)
    data["population"][0][0][0] = -1.0
    path.write_text(json.dumps(data))
    with pytest.raises(GeneticError, match="negative or not finite"):
        load_checkpoint(path, config())


@pytest.mark.parametrize(
    "kw, message",
    [
        ({"population": 1}, "population"),
        ({"start": (1.0,)}, "start"),
        ({"start": (1.0, 2.0, float("nan"), 4.0, 5.0, 6.0)}, "NaN"),
        ({"roulette": 1.5}, "roulette"),
        ({"elite": 0.0}, "elite"),
        ({"mutation_size": -1.0}, "mutation_size"),
    ],
)
def test_bad_options_raise(kw: dict[str, object], message: str) -> None:
    with pytest.raises(GeneticError, match=message):
        config(**kw)


def test_fitness_of_the_wrong_shape_is_refused() -> None:
    with pytest.raises(GeneticError, match="shape"):
        run_ga(config(), 1, lambda pop, gen: np.ones(3))


def test_doctest() -> None:
    assert doctest.testmod(genetic).failed == 0
