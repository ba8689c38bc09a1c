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

import csv
import hashlib
import json
import os
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
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

__all__ = [
    "AgentInfo", "AgentSpec", "ArenaError", "Executor", "Experiment", "GameSpec",
    "InlineExecutor", "LocalExecutor", "RayExecutor", "Task", "available_games", "deal_seed",
    "load_game", "make_agent", "make_executor", "make_experiment", "parse_spec", "play_game",
    "read_results", "report", "run", "run_task", "schedule", "split_specs",
]  # fmt: skip

Mode = Literal["solitaire", "match", "round-robin"]
RESULT_COLUMNS = (
    "experiment", "game", "rules", "mode", "game_index", "pair_index", "deal_seed",
    "seats", "returns", "length", "seconds",
)  # fmt: skip


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
        spec.check_agent(a)  # fail now, not in a worker
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


# --- results files ------------------------------------------------------------------------


def _fmt(path: Path) -> Literal["csv", "parquet"]:
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix in (".parquet", ".pq"):
        return "parquet"
    raise ArenaError(f"results file {path} must end in .csv or .parquet")


def _journal(path: Path) -> Path:
    return path.with_name(path.name + ".journal.csv")


def _read_csv(path: Path, repair: bool = False) -> list[dict[str, Any]]:
    """Rows of a results CSV; a torn last line (interrupted write) is cut off if ``repair``."""
    if not path.exists():
        return []
    raw = path.read_bytes()
    if raw and not raw.endswith(b"\n"):
        cut = raw.rfind(b"\n") + 1
        if repair:
            with open(path, "r+b") as handle:
                handle.truncate(cut)
        raw = raw[:cut]
    lines = raw.decode("utf-8").splitlines()
    if not lines:
        return []
    reader = csv.DictReader(lines)
    if tuple(reader.fieldnames or ()) != RESULT_COLUMNS:
        raise ArenaError(f"{path} is not a Stratagem results file (columns {reader.fieldnames})")
    return [_typed(row, path) for row in reader]


def _typed(row: Mapping[str, Any], path: Path) -> dict[str, Any]:
    try:
        return {
            **row,
            "game_index": int(row["game_index"]),
            "pair_index": int(row["pair_index"]),
            "deal_seed": int(row["deal_seed"]),
            "length": int(row["length"]),
            "seconds": float(row["seconds"]),
        }
    except (KeyError, TypeError, ValueError) as exc:
        raise ArenaError(f"{path} has a malformed row: {exc}") from None


def read_results(path: Path | str) -> list[dict[str, Any]]:
    """Every row of a results file (CSV, or Parquet plus its journal of a run in progress)."""
    path = Path(path)
    kind = _fmt(path)
    if kind == "csv":
        if not path.exists():
            raise ArenaError(f"no results file {path}")
        return _read_csv(path)
    rows: list[dict[str, Any]] = []
    if path.exists():
        import pyarrow.parquet as pq

        try:
            table = pq.read_table(path)
        except Exception as exc:  # pyarrow raises several types for a bad file
            raise ArenaError(f"cannot read {path}: {exc}") from None
        if tuple(table.column_names) != RESULT_COLUMNS:
            raise ArenaError(f"{path} is not a Stratagem results file")
        rows = [_typed(r, path) for r in table.to_pylist()]
    rows += _read_csv(_journal(path))
    if not rows and not path.exists():
        raise ArenaError(f"no results file {path}")
    return rows


class _Writer:
    """Appends rows as they arrive: straight into a CSV, or into a CSV journal that is
    folded into the Parquet file (atomically) when the run ends."""

    def __init__(self, path: Path, exp: Experiment) -> None:
        self.path = path
        self.exp = exp
        self.kind = _fmt(path)
        self.target = path if self.kind == "csv" else _journal(path)
        new = not self.target.exists() or self.target.stat().st_size == 0
        self.target.parent.mkdir(parents=True, exist_ok=True)
        self.handle = open(self.target, "a", newline="", encoding="utf-8")  # noqa: SIM115
        self.writer = csv.DictWriter(self.handle, fieldnames=RESULT_COLUMNS)
        if new:
            self.writer.writeheader()
            self.handle.flush()

    def write(self, rows: Iterable[Mapping[str, Any]]) -> None:
        for row in rows:
            self.writer.writerow(
                {"experiment": self.exp.id, "game": self.exp.game, "rules": self.exp.rules,
                 "mode": self.exp.mode, **row}
            )  # fmt: skip
        self.handle.flush()
        os.fsync(self.handle.fileno())

    def close(self) -> None:
        self.handle.close()
        if self.kind == "parquet":
            import pyarrow as pa
            import pyarrow.parquet as pq

            rows = read_results(self.path)
            rows.sort(key=lambda r: r["game_index"])
            table = pa.Table.from_pylist(
                [{c: r[c] for c in RESULT_COLUMNS} for r in rows],
                schema=pa.schema(
                    [(c, pa.int64() if c in ("game_index", "pair_index", "deal_seed", "length")
                      else pa.float64() if c == "seconds" else pa.string())
                     for c in RESULT_COLUMNS]
                ),
            )  # fmt: skip
            tmp = self.path.with_name(self.path.name + ".tmp")
            pq.write_table(table, tmp)
            os.replace(tmp, self.path)
            _journal(self.path).unlink(missing_ok=True)


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


class LocalExecutor:
    """A pool of local processes (spawned: safe with numba's threads)."""

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
        with ProcessPoolExecutor(self.workers, mp_context=context) as pool:
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
    """Play the games of ``exp`` not yet in ``out``; returns every row of the file.

    Refuses a file that holds another experiment's results.
    """
    out = Path(out)
    _fmt(out)
    plan = schedule(exp, games)
    existing: list[dict[str, Any]] = []
    if out.exists() or _journal(out).exists():
        if _fmt(out) == "csv":
            existing = _read_csv(out, repair=True)
        else:
            journal = _read_csv(_journal(out), repair=True)
            existing = read_results(out) if out.exists() else journal  # parquet + journal
        foreign = {r["experiment"] for r in existing} - {exp.id}
        if foreign:
            raise ArenaError(
                f"{out} holds results of another experiment (not {exp.describe()}); "
                "use another --out file or delete it"
            )
    done = {r["game_index"] for r in existing}
    todo = [g for g in plan if g[0] not in done]
    if chunk < 1:
        raise ArenaError(f"chunk must be at least 1, got {chunk}")
    tasks = [
        Task(exp.game, exp.rules, tuple(todo[i : i + chunk])) for i in range(0, len(todo), chunk)
    ]
    writer = _Writer(out, exp)
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
    return read_results(out)


# --- reporting ----------------------------------------------------------------------------


def report(rows: Sequence[Mapping[str, Any]], confidence: float = 0.95) -> dict[str, Any]:
    """Per agent: games, mean/SD/CI of results, and in matches win rate (Wilson) and the
    paired difference per deal with its interval."""
    from stratagem.core.stats import mean_ci, wilson

    if not rows:
        raise ArenaError("no games to report")
    ids = {r["experiment"] for r in rows}
    if len(ids) > 1:
        raise ArenaError("the file mixes several experiments")
    first = rows[0]
    mode = first["mode"]
    per_agent: dict[str, list[float]] = {}
    wins: dict[str, float] = {}
    counts: dict[str, int] = {}
    by_pair: dict[tuple[int, str, str], list[float]] = {}
    for r in rows:
        seats = json.loads(r["seats"])
        returns = json.loads(r["returns"])
        for seat, agent in enumerate(seats):
            per_agent.setdefault(agent, []).append(returns[seat])
            counts[agent] = counts.get(agent, 0) + 1
        if len(seats) == 2:
            a, b = seats
            ra, rb = returns
            wins[a] = wins.get(a, 0.0) + (1.0 if ra > rb else 0.5 if ra == rb else 0.0)
            wins[b] = wins.get(b, 0.0) + (1.0 if rb > ra else 0.5 if ra == rb else 0.0)
            first_agent, second_agent = sorted((a, b))
            margin = (ra - rb) if a == first_agent else (rb - ra)
            by_pair.setdefault((r["pair_index"], first_agent, second_agent), []).append(margin)
        elif mode == "solitaire":
            by_pair.setdefault((r["pair_index"], agent, ""), []).append(returns[0])
    agents_out: dict[str, Any] = {}
    for agent, values in per_agent.items():
        summary = mean_ci(values, confidence)
        entry: dict[str, Any] = {"games": len(values), **summary.to_json()}
        if agent in wins:
            # a tie counts half a win; Wilson's interval takes the rounded count
            _, lo, hi = wilson(round(wins[agent]), counts[agent], confidence)
            entry["win_rate"] = wins[agent] / counts[agent]
            entry["win_lo"], entry["win_hi"] = lo, hi
        agents_out[agent] = entry
    paired: list[dict[str, Any]] = []
    if mode in ("match", "round-robin"):
        margins: dict[tuple[str, str], list[float]] = {}
        for (_, a, b), ms in by_pair.items():
            if len(ms) == 2:  # both games of the pair finished
                margins.setdefault((a, b), []).append(sum(ms) / 2)
        for (a, b), ms in sorted(margins.items()):
            s = mean_ci(ms, confidence)
            paired.append(
                {
                    "a": a,
                    "b": b,
                    "pairs": len(ms),
                    "mean_diff": s.mean,
                    "se": s.se,
                    "lo": s.lo,
                    "hi": s.hi,
                }
            )
    elif mode == "solitaire" and len(per_agent) > 1:
        deals: dict[int, dict[str, float]] = {}
        for (pair, agent, _), values in by_pair.items():
            deals.setdefault(pair, {})[agent] = values[0]
        names = list(per_agent)
        for other in names[1:]:
            diffs = [d[other] - d[names[0]] for d in deals.values() if other in d and names[0] in d]
            if len(diffs) > 1:
                s = mean_ci(diffs, confidence)
                paired.append(
                    {
                        "a": other,
                        "b": names[0],
                        "pairs": len(diffs),
                        "mean_diff": s.mean,
                        "se": s.se,
                        "lo": s.lo,
                        "hi": s.hi,
                    }
                )
    return {
        "experiment": first["experiment"],
        "game": first["game"],
        "rules": first["rules"],
        "mode": mode,
        "games": len(rows),
        "confidence": confidence,
        "agents": agents_out,
        "paired": paired,
    }
