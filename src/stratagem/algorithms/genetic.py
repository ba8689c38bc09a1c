"""A genetic algorithm over per-phase weight vectors, checkpointed every generation.

It knows nothing of games: a player is a ``(phases, weights_per_phase)``
array of positive weights and its fitness is whatever the caller's function
returns for a whole generation (for Scrabble, wins out of M games against the
greedy player). One generation:

1. every player of the population is scored by ``fitness(population, generation)``;
2. the players are sorted by fitness (best first);
3. the next generation is built one player at a time and one phase at a
   time: with probability ``roulette`` (20%) that phase's weights are taken
   from a player chosen with probability proportional to its fitness,
   otherwise (80%) from a player chosen uniformly among the best ``elite``
   fraction (10%, at least one player);
4. with probability ``mutation_rate`` (8%) the taken phase's weights are
   mutated: each is multiplied by ``exp(N(0, mutation_size))`` (a weight of
   0 first becomes ``mutation_floor``), so that weights keep their sign and
   a mutation moves a weight by a similar factor whatever its scale.

The first population is the starting weights and ``population - 1`` copies
of them with every weight multiplied by ``exp(N(0, init_spread))``.

After each generation the whole state (configuration, population to score
next, history, random generator) is written atomically to the checkpoint, so
a killed run resumes at the generation it was in; a checkpoint written with
another configuration is refused (:class:`GeneticError`) and left as it is.

>>> import numpy as np
>>> cfg = GAConfig(population=6, phases=1, weights_per_phase=2, start=(1.0, 1.0), seed=3)
>>> def fitness(pop, gen):  # prefers the first weight high and the second low
...     return pop[:, 0, 0] / (1.0 + pop[:, 0, 1])
>>> result = run_ga(cfg, 15, fitness)
>>> result.history[-1]["best"] > result.history[0]["best"]
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from stratagem.core.errors import StratagemError
from stratagem.core.files import finite_number, parse_json_document, read_user_text, write_json

CHECKPOINT_FORMAT = "stratagem-ga-checkpoint"
CHECKPOINT_VERSION = 1
MAX_CHECKPOINT_BYTES = 50_000_000
MAX_GENERATIONS = 1_000_000


def check_generations(generations: int) -> None:
    """Refuse a generation count outside 1-:data:`MAX_GENERATIONS` (before any work)."""
    if isinstance(generations, bool) or not 1 <= generations <= MAX_GENERATIONS:
        raise GeneticError(f"generations must be 1-{MAX_GENERATIONS}, got {generations}")


Fitness = Callable[[np.ndarray, int], np.ndarray]
"""``fitness(population (N, phases, weights), generation) -> (N,)`` non-negative scores."""


class GeneticError(StratagemError, ValueError):
    """Bad GA options, or a checkpoint that is corrupt or from another configuration."""


@dataclass(frozen=True)
class GAConfig:
    """What is evolved and how; equal configurations may resume each other's checkpoints."""

    population: int = 20
    phases: int = 5
    weights_per_phase: int = 4
    start: tuple[float, ...] = ()
    roulette: float = 0.2
    elite: float = 0.1
    mutation_rate: float = 0.08
    mutation_size: float = 0.5
    mutation_floor: float = 1.0
    init_spread: float = 1.0
    seed: int = 0
    label: str = ""
    """What the fitness measures (e.g. the game, opponent and games per player)."""

    def __post_init__(self) -> None:
        def bad(text: str) -> GeneticError:
            return GeneticError(f"GA option {text}")

        if not 2 <= self.population <= 100_000:
            raise bad(f"population must be 2-100000, got {self.population}")
        if not 1 <= self.phases <= 1000 or not 1 <= self.weights_per_phase <= 1000:
            raise bad("phases and weights_per_phase must be 1-1000")
        if len(self.start) != self.phases * self.weights_per_phase:
            raise bad(
                f"start must hold phases x weights_per_phase = "
                f"{self.phases * self.weights_per_phase} numbers, got {len(self.start)}"
            )
        if not all(math.isfinite(x) for x in self.start):
            raise bad("start holds a NaN or infinity")
        for name in ("roulette", "elite", "mutation_rate"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise bad(f"{name} must lie in [0, 1], got {value}")
        if self.elite == 0.0:
            raise bad("elite must be above 0 (at least one player is kept)")
        for name in ("mutation_size", "init_spread"):
            value = getattr(self, name)
            if not 0.0 <= value <= 10.0:
                raise bad(f"{name} must lie in [0, 10], got {value}")
        if not 0.0 < self.mutation_floor < 1e9:
            raise bad(f"mutation_floor must be > 0, got {self.mutation_floor}")
        if self.seed < 0:
            raise bad(f"seed must be >= 0, got {self.seed}")

    def to_json(self) -> dict[str, Any]:
        out = asdict(self)
        out["start"] = list(self.start)
        return out


@dataclass
class GAResult:
    """The state of a run: the population to score next and one record per generation."""

    config: GAConfig
    generation: int
    population: np.ndarray
    history: list[dict[str, Any]] = field(default_factory=list)
    rng_state: dict[str, Any] = field(default_factory=dict)

    @property
    def best_weights(self) -> np.ndarray:
        """The best player of the last scored generation (its weights)."""
        if not self.history:
            return np.asarray(self.population[0])
        return np.array(self.history[-1]["best_weights"], dtype=float).reshape(
            self.config.phases, self.config.weights_per_phase
        )


def initial_population(config: GAConfig, rng: np.random.Generator) -> np.ndarray:
    start = np.array(config.start, dtype=float).reshape(config.phases, config.weights_per_phase)
    pop = np.empty((config.population, config.phases, config.weights_per_phase))
    pop[0] = start
    for i in range(1, config.population):
        base = np.where(start == 0, config.mutation_floor, start)
        pop[i] = base * np.exp(rng.normal(0.0, config.init_spread, size=start.shape))
    return pop


def _mutate(weights: np.ndarray, config: GAConfig, rng: np.random.Generator) -> np.ndarray:
    base = np.where(weights == 0, config.mutation_floor, weights)
    return np.asarray(base * np.exp(rng.normal(0.0, config.mutation_size, size=weights.shape)))


def next_generation(
    population: np.ndarray, fitness: np.ndarray, config: GAConfig, rng: np.random.Generator
) -> np.ndarray:
    """Selection and mutation as in the module docstring; ``population`` in any order."""
    n = population.shape[0]
    if fitness.shape != (n,) or not np.all(np.isfinite(fitness)) or np.any(fitness < 0):
        raise GeneticError("fitness must be one finite, non-negative number per player")
    order = np.argsort(-fitness, kind="stable")
    ranked = population[order]
    scores = fitness[order]
    n_elite = max(1, round(config.elite * n))
    total = float(scores.sum())
    probs = scores / total if total > 0 else np.full(n, 1.0 / n)
    out = np.empty_like(population)
    for i in range(n):
        for phase in range(config.phases):
            if rng.random() < config.roulette:
                parent = int(rng.choice(n, p=probs))
            else:
                parent = int(rng.integers(n_elite))
            w = ranked[parent, phase].copy()
            if rng.random() < config.mutation_rate:
                w = _mutate(w, config, rng)
            out[i, phase] = w
    return out


# --- checkpoints ----------------------------------------------------------------------------


def save_checkpoint(path: Path | str, result: GAResult) -> None:
    write_json(
        path,
        {
            "format": CHECKPOINT_FORMAT,
            "version": CHECKPOINT_VERSION,
            "config": result.config.to_json(),
            "generation": result.generation,
            "population": result.population.tolist(),
            "history": result.history,
            "rng": result.rng_state,
        },
        what="GA checkpoint",
    )


def load_checkpoint(path: Path | str, config: GAConfig) -> GAResult:
    """Read a checkpoint written for ``config``; anything else raises and is left untouched."""
    text = read_user_text(path, limit=MAX_CHECKPOINT_BYTES, what="GA checkpoint")
    data = parse_json_document(
        text, f"GA checkpoint {path}", CHECKPOINT_FORMAT, "GA checkpoint", GeneticError
    )
    if data.get("version") != CHECKPOINT_VERSION:
        raise GeneticError(f"{path} has checkpoint version {data.get('version')!r}")
    if data.get("config") != config.to_json():
        raw = data.get("config")
        theirs: dict[str, Any] = raw if isinstance(raw, dict) else {}
        diff = [k for k, v in config.to_json().items() if theirs.get(k) != v]
        raise GeneticError(
            f"checkpoint {path} was written by another GA configuration (differs in "
            f"{', '.join(diff) or 'its fields'}); use another output directory or the same "
            "options; the file is left as it is"
        )

    def bad(what: str) -> GeneticError:
        return GeneticError(f"checkpoint {path} is malformed: {what}; the file is left as it is")

    generation = data.get("generation")
    if (
        isinstance(generation, bool)
        or not isinstance(generation, int)
        or not 0 <= generation <= MAX_GENERATIONS
    ):
        raise bad(f"generation must be a whole number 0-{MAX_GENERATIONS}, got {generation!r}")
    try:
        pop = np.array(data["population"], dtype=float)
    except (KeyError, TypeError, ValueError, OverflowError):
        raise bad("population is not an array of numbers") from None
    if pop.shape != (config.population, config.phases, config.weights_per_phase):
        raise bad(f"population of shape {pop.shape}")
    if not np.all(np.isfinite(pop)) or pop.min() < 0:
        raise bad("population holds weights that are negative or not finite")
    history = data.get("history")
    if not isinstance(history, list) or len(history) != generation:
        raise bad(f"history must list one entry per generation ({generation})")
    for i, h in enumerate(history):
        if not (
            isinstance(h, dict)
            and h.get("generation") == i
            and all(finite_number(h.get(k)) for k in ("best", "mean"))
            and isinstance(h.get("fitness"), list)
            and len(h["fitness"]) == config.population
            and all(finite_number(x) for x in h["fitness"])
            and isinstance(h.get("best_weights"), list)
            and all(finite_number(x) for x in h["best_weights"])
        ):
            raise bad(f"history entry {i}")
    rng_state = data.get("rng")
    try:
        np.random.default_rng().bit_generator.state = rng_state  # type: ignore[assignment]
    except (TypeError, ValueError, KeyError, OverflowError):
        raise bad("rng is not the state of a PCG64 generator") from None
    assert isinstance(rng_state, dict)
    return GAResult(config, generation, pop, history, rng_state)


# --- the run ----------------------------------------------------------------------------------


def run_ga(
    config: GAConfig,
    generations: int,
    fitness: Fitness,
    checkpoint: Path | str | None = None,
    progress: Callable[[GAResult], None] | None = None,
) -> GAResult:
    """Evolve until ``generations`` generations are scored (resuming from ``checkpoint``).

    ``progress`` is called after every generation with the run's state.
    """
    check_generations(generations)
    path = Path(checkpoint) if checkpoint is not None else None
    if path is not None and path.exists():
        result = load_checkpoint(path, config)
        rng = np.random.default_rng()
        rng.bit_generator.state = result.rng_state
    else:
        rng = np.random.default_rng(config.seed)
        result = GAResult(config, 0, initial_population(config, rng))
    while result.generation < generations:
        scores = np.asarray(fitness(result.population, result.generation), dtype=float)
        if scores.shape != (config.population,):
            raise GeneticError(
                f"the fitness function returned shape {scores.shape}, "
                f"expected ({config.population},)"
            )
        best = int(np.argmax(scores))
        result.history.append(
            {
                "generation": result.generation,
                "best": float(scores[best]),
                "mean": float(scores.mean()),
                "best_weights": result.population[best].ravel().tolist(),
                "fitness": scores.tolist(),
            }
        )
        result.population = next_generation(result.population, scores, config, rng)
        result.generation += 1
        result.rng_state = dict(rng.bit_generator.state)
        if path is not None:
            save_checkpoint(path, result)
        if progress is not None:
            progress(result)
    return result


def flat(weights: Sequence[float] | np.ndarray) -> tuple[float, ...]:
    """A weights array as the flat tuple :class:`GAConfig` takes as ``start``."""
    return tuple(float(x) for x in np.asarray(weights, dtype=float).ravel())
