"""Matches, tournaments and solitaire series between agents, with fair seating.

Every strength claim is an experiment run here: games are played through the
game protocol by agents named by spec strings (``optimal``, ``hold:20``,
``mcts:c=0.71,sims=2500``), seats are rotated, and in a head-to-head series
every deal is played twice with the seats swapped (common random numbers):
each chance event is drawn from a generator seeded by the deal's seed and the
event's slot (:func:`stratagem.core.game.chance_key`), so each seat sees the
same dice in both games of a pair. Deal seeds depend only on the experiment's
seed and the pair number, so one worker, many, or Ray give the same games.

Results stream to a CSV or Parquet file, one row per game; a run that is
interrupted resumes from the file without repeating or losing a game.

Games and agents are found through :mod:`stratagem.core.registry` (its names
are re-exported here); each game is played by :func:`stratagem.core.play.play`.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, Protocol

from stratagem.core.errors import ArenaError
from stratagem.core.play import Deal, deal_seed, play
from stratagem.core.registry import (
    AgentInfo,
    AgentSpec,
    GameSpec,
    available_games,
    load_game,
    make_agent,
    parse_spec,
    split_specs,
)
from stratagem.core.results import (
    RESULT_COLUMNS,
    ResultsWriter,
    read_results,
    report,
    results_format,
)

__all__ = [
    "RESULT_COLUMNS",
    "AgentInfo",
    "AgentSpec",
    "ArenaError",
    "Executor",
    "Experiment",
    "GameSpec",
    "InlineExecutor",
    "LocalExecutor",
    "RayExecutor",
    "Task",
    "available_games",
    "deal_seed",
    "games_beyond",
    "load_game",
    "make_agent",
    "make_executor",
    "make_experiment",
    "parse_spec",
    "play_game",
    "read_results",
    "report",
    "run",
    "run_task",
    "schedule",
    "split_specs",
]  # fmt: skip

Mode = Literal["solitaire", "match", "round-robin"]


# --- playing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Task:
    """A work unit: some games of one experiment (plain data, picklable)."""

    game: str
    rules: str
    games: tuple[tuple[int, int, int, tuple[str, ...]], ...]
    """``(game_index, pair_index, deal_seed, agent spec per seat)`` for each game."""


def play_game(
    game: GameSpec, rules: str, seats: Sequence[str], deal_seed: int
) -> tuple[tuple[float, ...], int]:
    """Play one game with a fresh agent per seat; returns (each seat's final value, decisions).

    Agents are made anew for every game and seat (an agent may learn during a
    game); what is costly to build, solved tables, the games cache themselves.
    """
    agents = [game.make_agent(rules, spec) for spec in seats]
    played = play(game.new_state(rules, len(seats)), agents, Deal(deal_seed))
    return played.returns, played.decisions


def run_task(task: Task) -> list[dict[str, Any]]:
    """Play the games of a task (top-level, so that process pools and Ray can ship it)."""
    game = load_game(task.game)
    rows = []
    for game_index, pair_index, seed, seats in task.games:
        start = time.perf_counter()
        returns, length = play_game(game, task.rules, seats, seed)
        rows.append(
            {
                "game_index": game_index,
                "pair_index": pair_index,
                "deal_seed": seed,
                "seats": json.dumps(list(seats)),
                "returns": json.dumps(list(returns)),
                "length": length,
                "seconds": time.perf_counter() - start,
            }
        )
    return rows


# --- experiments --------------------------------------------------------------------------


@dataclass(frozen=True)
class Experiment:
    """What is played: the game, rules, agents, mode and seed (not how many games)."""

    game: str
    rules: str
    agents: tuple[str, ...]
    mode: Mode
    seed: int

    @property
    def id(self) -> str:
        blob = json.dumps(
            {"game": self.game, "rules": self.rules, "agents": list(self.agents),
             "mode": self.mode, "seed": self.seed}, sort_keys=True,
        )  # fmt: skip
        return hashlib.sha256(blob.encode()).hexdigest()[:16]

    def describe(self) -> str:
        return (
            f"{self.game} ({self.rules}), {self.mode}, agents {', '.join(self.agents)}, "
            f"seed {self.seed}"
        )


def make_experiment(
    game: str, rules: str | None, agents: Sequence[str], seed: int, mode: Mode | None = None
) -> Experiment:
    """Validate names and counts, infer the mode, and build every agent once to check it."""
    spec = load_game(game)
    rules = spec.check_rules(rules or spec.default_rules)
    if not agents:
        raise ArenaError("name at least one agent")
    canonical = tuple(str(parse_spec(a)) for a in agents)
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ArenaError(f"the seed must be a whole number >= 0, got {seed!r}")
    if mode is None:
        if len(canonical) == 1:
            mode = "solitaire"
        elif spec.max_players >= 2 and spec.min_players <= 2:
            mode = "match" if len(canonical) == 2 else "round-robin"
        else:
            mode = "solitaire"
    if mode == "solitaire" and spec.min_players > 1:
        raise ArenaError(f"{game} needs at least {spec.min_players} players: no solitaire")
    if mode == "match" and len(canonical) != 2:
        raise ArenaError(f"a match needs exactly two agents, got {len(canonical)}")
    if mode == "round-robin" and len(canonical) < 3:
        raise ArenaError("a round robin needs at least three agents")
    if mode in ("match", "round-robin") and not spec.min_players <= 2 <= spec.max_players:
        raise ArenaError(f"{game} is not played by two players")
    for a in canonical:
        parsed = spec.check_agent(a, rules)  # fail now, not in a worker
        need = spec.agent_info(parsed.name).min_players
        if mode == "solitaire" and need > 1:
            raise ArenaError(
                f"agent {parsed.name} needs an opponent ({need} players): name two agents "
                "for a match, not one for solitaire"
            )
    return Experiment(game, rules, canonical, mode, seed)


def schedule(exp: Experiment, games: int) -> list[tuple[int, int, int, tuple[str, ...]]]:
    """Every game of the experiment: (index, pair, deal seed, agent per seat).

    Solitaire: each agent plays every deal (game i is deal i // agents).
    Match: deal p is played twice, A-B then B-A. Round robin: the pairings take
    turns, each as a paired match.
    """
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ArenaError(f"the number of games must be at least 1, got {games!r}")
    out = []
    n = len(exp.agents)
    pairings = [(a, b) for i, a in enumerate(exp.agents) for b in exp.agents[i + 1 :]]
    for g in range(games):
        if exp.mode == "solitaire":
            pair = g // n
            seats: tuple[str, ...] = (exp.agents[g % n],)
        elif exp.mode == "match":
            pair = g // 2
            a, b = exp.agents
            seats = (a, b) if g % 2 == 0 else (b, a)
        else:
            pair = g // 2
            a, b = pairings[pair % len(pairings)]
            seats = (a, b) if g % 2 == 0 else (b, a)
        out.append((g, pair, deal_seed(exp.seed, pair), seats))
    return out


# --- executors ----------------------------------------------------------------------------


class Executor(Protocol):
    def run(self, tasks: Sequence[Task]) -> Iterator[list[dict[str, Any]]]:
        """Yield each task's rows as it finishes (in any order)."""
        ...


class InlineExecutor:
    """Runs tasks in this process, one after another."""

    def run(self, tasks: Sequence[Task]) -> Iterator[list[dict[str, Any]]]:
        for task in tasks:
            yield run_task(task)


WATCH_PARENT_SECONDS = 1.0
"""How often a worker checks that the process that started it is still there."""


def end_with_parent(parent: int) -> None:
    """Make this worker process end when ``parent`` (the arena run) ends, however it ends.

    A worker the parent no longer waits for would play on for ever (a ``kill -9`` of
    ``arena run`` skips every clean-up). On Linux the kernel kills the worker at once
    (``prctl(PR_SET_PDEATHSIG)``); everywhere a daemon thread checks every
    :data:`WATCH_PARENT_SECONDS` that the parent is still this process's parent.
    """
    import signal
    import sys
    import threading

    if sys.platform.startswith("linux"):
        try:
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            pr_set_pdeathsig = 1
            libc.prctl(pr_set_pdeathsig, int(signal.SIGKILL), 0, 0, 0)
        except (OSError, AttributeError):
            pass  # the watchdog below still ends the worker
    if os.getppid() != parent:  # the parent went before the signal was asked for
        os._exit(1)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_PARENT_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="stratagem-parent-watch", daemon=True).start()


class LocalExecutor:
    """A pool of local processes (spawned: safe with numba's threads) that end with the
    process that started them (:func:`end_with_parent`)."""

    def __init__(self, workers: int) -> None:
        if workers < 1:
            raise ArenaError(f"workers must be at least 1, got {workers}")
        self.workers = workers

    def run(self, tasks: Sequence[Task]) -> Iterator[list[dict[str, Any]]]:
        if self.workers == 1:
            yield from InlineExecutor().run(tasks)
            return
        import multiprocessing

        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(
            self.workers, mp_context=context, initializer=end_with_parent, initargs=(os.getpid(),)
        ) as pool:
            pending: set[Future[list[dict[str, Any]]]] = set()
            queue = list(tasks)
            while queue or pending:
                while queue and len(pending) < 2 * self.workers:
                    pending.add(pool.submit(run_task, queue.pop(0)))
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield future.result()


class RayExecutor:
    """Ray tasks: connects to ``$RAY_ADDRESS`` when set, else starts a local Ray."""

    def __init__(self, address: str | None = None) -> None:
        try:
            import ray
        except ImportError:
            raise ArenaError(
                "the Ray backend needs the 'distributed' extra: "
                "pip install 'stratagem[distributed]'"
            ) from None
        self.ray = ray
        if not ray.is_initialized():
            ray.init(address=address or os.environ.get("RAY_ADDRESS"), log_to_driver=False)

    def run(self, tasks: Sequence[Task]) -> Iterator[list[dict[str, Any]]]:
        remote = self.ray.remote(run_task)
        pending = [remote.remote(task) for task in tasks]
        while pending:
            done, pending = self.ray.wait(pending, num_returns=1)
            for ref in done:
                yield self.ray.get(ref)


def make_executor(backend: str, workers: int | None) -> Executor:
    if backend == "local":
        return LocalExecutor(workers or os.cpu_count() or 1)
    if backend == "ray":
        return RayExecutor()
    raise ArenaError(f"unknown backend {backend!r}; use local or ray")


# --- running ------------------------------------------------------------------------------


def run(
    exp: Experiment,
    games: int,
    out: Path | str,
    executor: Executor | None = None,
    chunk: int = 8,
    progress: Callable[[int, int], None] | None = None,
) -> list[dict[str, Any]]:
    """Play the games of ``exp`` not yet in ``out``; returns the rows of games
    ``0..games-1``, the games asked for.

    Refuses a file that holds another experiment's results. A file that holds more games
    than asked (an earlier run with a larger ``games``) keeps them; they are not in the
    rows returned, so that a report covers exactly the games asked for
    (:func:`games_beyond` counts them, for a note).
    """
    out = Path(out)
    results_format(out)
    plan = schedule(exp, games)
    if isinstance(chunk, bool) or not isinstance(chunk, int) or chunk < 1:
        raise ArenaError(f"chunk must be a whole number >= 1, got {chunk!r}")
    writer = ResultsWriter(out, exp)  # refuses any file but this experiment's, untouched
    done = {r["game_index"] for r in writer.existing}
    todo = [g for g in plan if g[0] not in done]
    tasks = [
        Task(exp.game, exp.rules, tuple(todo[i : i + chunk])) for i in range(0, len(todo), chunk)
    ]
    finished = len(done & {g[0] for g in plan})
    if progress:
        progress(finished, games)
    try:
        for rows in (executor or InlineExecutor()).run(tasks):
            writer.write(rows)
            finished += len(rows)
            if progress:
                progress(finished, games)
    finally:
        writer.close()
    return [row for row in read_results(out) if int(row["game_index"]) < games]


def games_beyond(out: Path | str, games: int) -> int:
    """Games in the results file ``out`` past the first ``games`` (from a longer run)."""
    return sum(1 for row in read_results(out) if int(row["game_index"]) >= games)
