"""Results files of arena experiments: one row per game, in CSV or Parquet.

A run streams its rows into a CSV file (or, for Parquet, into a CSV journal
next to it that is folded into the Parquet file when the run ends), so an
interrupted run resumes from the file without repeating or losing a game.

A file is only ever changed after it has been read whole and found to be a
results file of the very experiment being run: the right header, every row
well formed and of this experiment, and at most a torn last line that is the
start of a row of this experiment (what an interrupted write leaves). Any
other file is refused and left byte-for-byte as it was.

>>> journal_path(Path("runs/r.parquet")).name
'r.parquet.journal.csv'
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import stat
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from stratagem.core.errors import ArenaError, StratagemError
from stratagem.core.files import (
    check_readable,
    check_writable_target,
    decode_utf8,
    finite_number,
    read_user_bytes,
    replacing,
    write_atomic,
)

if TYPE_CHECKING:
    from stratagem.core.arena import Experiment

RESULT_COLUMNS = (
    "experiment", "game", "rules", "mode", "game_index", "pair_index", "deal_seed",
    "seats", "returns", "length", "seconds",
)  # fmt: skip
MODES = ("solitaire", "match", "round-robin")
RESULTS_LIMIT = 1 << 30
"""Largest results file read (1 GiB, about six million games)."""
_INT_COLUMNS = ("game_index", "pair_index", "deal_seed", "length")
_EXPERIMENT_ID = re.compile(r"[0-9a-f]{16}")


def results_format(path: Path) -> Literal["csv", "parquet"]:
    """``csv`` or ``parquet``, from the file name's suffix."""
    suffix = path.suffix.lower()
    if suffix == ".csv":
        return "csv"
    if suffix in (".parquet", ".pq"):
        return "parquet"
    raise ArenaError(f"results file {path} must end in .csv or .parquet")


def journal_path(path: Path) -> Path:
    """The CSV journal that collects a Parquet run's rows until the run ends."""
    return path.with_name(path.name + ".journal.csv")


# --- reading ------------------------------------------------------------------------------


def _whole(value: Any, column: str, least: int = 0) -> int:
    if isinstance(value, bool):
        raise ValueError(f"{column} must be a whole number, got {value!r}")
    if isinstance(value, int):
        number = value
    elif isinstance(value, str) and re.fullmatch(r"-?[0-9]{1,30}", value.strip()):
        number = int(value)
    else:
        raise ValueError(f"{column} must be a whole number, got {str(value)[:40]!r}")
    if number < least:
        raise ValueError(f"{column} must be at least {least}, got {number}")
    return number


def _json_list(value: Any, column: str) -> list[Any]:
    if not isinstance(value, str):
        raise ValueError(f"{column} must be a JSON list, got {str(value)[:40]!r}")
    try:
        items = json.loads(value)
    except (ValueError, RecursionError):
        raise ValueError(f"{column} is not JSON: {value[:40]!r}") from None
    if not isinstance(items, list) or not items:
        raise ValueError(f"{column} must be a non-empty JSON list, got {value[:40]!r}")
    return items


def typed_row(row: Mapping[str, Any]) -> dict[str, Any]:
    """A results row with numbers as numbers, checked; ValueError names the bad field."""
    out: dict[str, Any] = {}
    for column in ("experiment", "game", "rules", "mode", "seats", "returns"):
        value = row.get(column)
        if not isinstance(value, str) or not value:
            raise ValueError(f"{column} is missing")
        out[column] = value
    if not _EXPERIMENT_ID.fullmatch(out["experiment"]):
        raise ValueError(f"experiment must be 16 hex digits, got {out['experiment'][:40]!r}")
    if out["mode"] not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, got {out['mode'][:40]!r}")
    for column in _INT_COLUMNS:
        out[column] = _whole(row.get(column), column)
    seconds = row.get("seconds")
    try:
        out["seconds"] = math.nan if isinstance(seconds, bool) else float(str(seconds))
    except ValueError:
        out["seconds"] = math.nan
    if not (math.isfinite(out["seconds"]) and out["seconds"] >= 0):
        raise ValueError(f"seconds must be a number >= 0, got {str(seconds)[:40]!r}")
    seats = _json_list(out["seats"], "seats")
    if not all(isinstance(s, str) and s for s in seats):
        raise ValueError(f"seats must list agent names, got {out['seats'][:40]!r}")
    returns = _json_list(out["returns"], "returns")
    if not all(finite_number(r) for r in returns):
        raise ValueError(f"returns must list finite numbers, got {out['returns'][:40]!r}")
    if len(returns) != len(seats):
        raise ValueError(f"{len(seats)} seats but {len(returns)} returns")
    return out


class _CsvContent:
    """A results CSV read (never changed): its rows and the torn tail, if any."""

    def __init__(self, path: Path, what: str) -> None:
        self.path = path
        blob = read_user_bytes(path, limit=RESULTS_LIMIT, what=what)
        self.size = len(blob)
        self.complete = blob.rfind(b"\n") + 1  # bytes up to the end of the last full line
        self.tail = blob[self.complete :]
        self.rows: list[dict[str, Any]] = []
        self.has_header = False
        if not blob:
            return
        if b"\x00" in blob:
            raise ArenaError(f"{path} is not a Stratagem results file (it holds binary data)")
        text = decode_utf8(blob[: self.complete], path, what)
        if not text:
            raise ArenaError(f"{path} is not a Stratagem results file (no complete header line)")
        reader = csv.reader(io.StringIO(text, newline=""))
        try:
            header = next(reader)
            if tuple(header) != RESULT_COLUMNS:
                raise ArenaError(
                    f"{path} is not a Stratagem results file (its columns are "
                    f"{','.join(header)[:80]!r}, not {','.join(RESULT_COLUMNS)!r})"
                )
            self.has_header = True
            for cells in reader:
                line = reader.line_num
                if len(cells) != len(RESULT_COLUMNS):
                    raise ArenaError(
                        f"{path} line {line}: {len(cells)} fields, a results row has "
                        f"{len(RESULT_COLUMNS)}"
                    )
                try:
                    self.rows.append(typed_row(dict(zip(RESULT_COLUMNS, cells))))
                except ValueError as exc:
                    raise ArenaError(f"{path} line {line} is malformed: {exc}") from None
        except csv.Error as exc:
            raise ArenaError(f"{path} is not a readable CSV file: {exc}") from None

    def tail_belongs_to(self, experiment_id: str) -> bool:
        """Whether the torn tail is the start of a row of ``experiment_id``."""
        if not self.tail:
            return True
        prefix = (experiment_id + ",").encode()
        return prefix.startswith(self.tail) or self.tail.startswith(prefix)


def _read_parquet(path: Path) -> list[dict[str, Any]]:
    check_readable(path, "results file")
    if not stat.S_ISREG(path.stat().st_mode):
        raise ArenaError(f"results file {path} is not a regular file")
    if path.stat().st_size > RESULTS_LIMIT:
        raise ArenaError(f"results file {path} is larger than {RESULTS_LIMIT} bytes")
    import pyarrow.parquet as pq

    try:
        table = pq.read_table(path)
    except Exception as exc:  # pyarrow raises several types for a bad file
        raise ArenaError(f"{path} is not a Stratagem results file: {exc}") from None
    if tuple(table.column_names) != RESULT_COLUMNS:
        raise ArenaError(f"{path} is not a Stratagem results file (columns {table.column_names})")
    rows = []
    for number, row in enumerate(table.to_pylist()):
        try:
            rows.append(typed_row(row))
        except ValueError as exc:
            raise ArenaError(f"{path} row {number} is malformed: {exc}") from None
    return rows


def read_results(path: Path | str) -> list[dict[str, Any]]:
    """Every row of a results file (CSV, or Parquet plus the journal of a run in progress).

    Read-only: a torn last line (a run interrupted while writing) is skipped.
    """
    path = Path(path)
    if results_format(path) == "csv":
        if not path.exists() and not path.is_symlink():
            raise ArenaError(f"no results file {path}")
        return _CsvContent(path, "results file").rows
    journal = journal_path(path)
    if not path.exists() and not journal.exists():
        raise ArenaError(f"no results file {path}")
    rows = _read_parquet(path) if path.exists() else []
    if journal.exists():
        rows += _CsvContent(journal, "journal").rows
    return rows


# --- writing ------------------------------------------------------------------------------


def _check_own(content: _CsvContent, exp: Experiment, path: Path) -> None:
    _check_rows(content.rows, exp, path)
    if not content.tail_belongs_to(exp.id):
        raise ArenaError(
            f"{path} ends in an incomplete line that is not a row of this experiment; "
            "use another --out file"
        )


def _check_rows(rows: Sequence[Mapping[str, Any]], exp: Experiment, path: Path) -> None:
    for row in rows:
        if (row["experiment"], row["game"], row["rules"], row["mode"]) != (
            exp.id,
            exp.game,
            exp.rules,
            exp.mode,
        ):
            raise ArenaError(
                f"{path} holds results of another experiment (not {exp.describe()}); "
                "use another --out file or delete it"
            )


def _header() -> bytes:
    buffer = io.StringIO(newline="")
    csv.writer(buffer).writerow(RESULT_COLUMNS)
    return buffer.getvalue().encode()


class ResultsWriter:
    """Opens ``path`` for a run of ``exp``: checks it, repairs a torn last line, appends.

    Nothing is changed unless the file (and for Parquet its journal) is missing,
    empty, or holds only rows of ``exp``; :attr:`existing` are those rows.
    A missing parent folder is an error, never created silently.
    """

    def __init__(self, path: Path, exp: Experiment) -> None:
        self.path = path
        self.exp = exp
        self.kind = results_format(path)
        check_writable_target(path, "results file")
        self.target = path if self.kind == "csv" else journal_path(path)
        if self.kind == "parquet":
            check_writable_target(self.target, "journal")
        # 1. read and check everything, changing nothing
        existing: list[dict[str, Any]] = []
        if self.kind == "parquet" and path.exists():
            existing = _read_parquet(path)
            _check_rows(existing, exp, path)
        content = _CsvContent(self.target, "results file") if self.target.exists() else None
        if content is not None:
            _check_own(content, exp, self.target)
            existing += content.rows
        self.existing = existing
        # 2. only now change the file: cut a torn last line, or start a new file
        if content is None or content.size == 0:
            write_atomic(self.target, _header())
        elif content.tail:
            with open(self.target, "r+b") as handle:
                handle.truncate(content.complete)
        # O_NOFOLLOW: a link put in the file's place since the check is not written through
        fd = os.open(self.target, os.O_WRONLY | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0))
        self.handle = open(fd, "a", newline="", encoding="utf-8")  # noqa: SIM115
        self.writer = csv.DictWriter(self.handle, fieldnames=RESULT_COLUMNS)

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

            rows = dedupe(read_results(self.path))
            rows.sort(key=lambda r: r["game_index"])
            table = pa.Table.from_pylist(
                [{c: r[c] for c in RESULT_COLUMNS} for r in rows],
                schema=pa.schema(
                    [(c, pa.int64() if c in _INT_COLUMNS
                      else pa.float64() if c == "seconds" else pa.string())
                     for c in RESULT_COLUMNS]
                ),
            )  # fmt: skip
            with replacing(self.path) as tmp:
                pq.write_table(table, tmp)
            journal_path(self.path).unlink(missing_ok=True)


def dedupe(rows: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One row per (experiment, game): a game written twice (a run killed between folding
    its journal and deleting it) counts once; two different results of one game are an error.
    """
    seen: dict[tuple[str, int], dict[str, Any]] = {}
    for row in rows:
        key = (row["experiment"], row["game_index"])
        first = seen.get(key)
        if first is None:
            seen[key] = dict(row)
        elif any(first[c] != row[c] for c in RESULT_COLUMNS if c != "seconds"):
            raise ArenaError(
                f"game {row['game_index']} appears twice with different results; "
                "the file has been edited or merged from two runs"
            )
    return list(seen.values())


# --- reporting ----------------------------------------------------------------------------


def _seat_labels(seats: Sequence[str]) -> list[str]:
    """The agents of a row, told apart by seat when one agent sits twice (``a (seat 1)``)."""
    if len(set(seats)) == len(seats):
        return list(seats)
    return [f"{agent} (seat {i + 1})" for i, agent in enumerate(seats)]


def _interval(
    values: Sequence[float], confidence: float, bounds: tuple[float, float] | None
) -> dict[str, Any]:
    from stratagem.core.stats import mean_ci

    s = mean_ci(values, confidence, bounds)
    return {"pairs": s.n, **{k: v for k, v in s.to_json().items() if k in ("se", "lo", "hi")},
            "mean_diff": s.mean}  # fmt: skip


@dataclass(frozen=True)
class ReturnsKind:
    """What a game's returns are, for its report: the range a return lies in (``None``
    when the game declares none) and whether a two-seat game has a winner (the higher
    return) worth a win rate."""

    bounds: tuple[float, float] | None
    wins: bool


def returns_kind(game: str, rules: str) -> ReturnsKind:
    """The range of one game's returns under ``rules``, from its spec.

    A ``win`` game returns 1 or 0 (a draw 0.5); other games may declare the
    range as ``returns_range`` (a function of the rules object):
    OpenSpiel games give their ``min_utility`` / ``max_utility``, Yahtzee 0 to
    its highest card. ``wins=False`` says a game has no winner (a
    cooperative game, where every seat gets the same return).
    """
    from stratagem.core.arena import load_game

    try:
        spec = load_game(game)
    except StratagemError:  # a file of a game this installation does not have
        return ReturnsKind(None, True)
    wins = spec.wins
    hook = spec.returns_range
    if hook is not None:
        try:
            low, high = hook(spec.rules_object(rules))
        except StratagemError:  # rules this installation cannot build (a missing word list)
            low, high = -math.inf, math.inf
        if math.isfinite(low) or math.isfinite(high):
            return ReturnsKind((float(low), float(high)), wins)
        return ReturnsKind(None, wins)
    if spec.result == "win":
        return ReturnsKind((0.0, 1.0), wins)
    return ReturnsKind(None, wins)


def _check_within(values: Sequence[float], bounds: tuple[float, float] | None, game: str) -> None:
    if bounds is None:
        return
    outside = [v for v in values if not bounds[0] <= v <= bounds[1]]
    if outside:
        raise ArenaError(
            f"a return of {outside[0]} lies outside {game}'s range {bounds[0]}..{bounds[1]}; "
            "the file does not hold this game's results"
        )


def report(rows: Sequence[Mapping[str, Any]], confidence: float = 0.95) -> dict[str, Any]:
    """Per agent: games, mean/SD/CI of results, and in matches win rate (Wilson) and the
    paired difference per deal with its interval.

    A game that appears twice counts once. Where a sample is too small for a
    spread (one game, one deal), SD, SE and the interval are ``None``.
    """
    from stratagem.core.stats import mean_ci, wilson

    if not rows:
        raise ArenaError("no games to report")
    rows = dedupe(rows)
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
        seats = _seat_labels(json.loads(r["seats"]))
        returns = json.loads(r["returns"])
        for seat, agent in enumerate(seats):
            per_agent.setdefault(agent, []).append(returns[seat])
        if len(seats) == 2:
            a, b = seats
            ra, rb = returns
            for agent in seats:
                counts[agent] = counts.get(agent, 0) + 1
            wins[a] = wins.get(a, 0.0) + (1.0 if ra > rb else 0.5 if ra == rb else 0.0)
            wins[b] = wins.get(b, 0.0) + (1.0 if rb > ra else 0.5 if ra == rb else 0.0)
            first_agent, second_agent = sorted((a, b))
            margin = (ra - rb) if a == first_agent else (rb - ra)
            by_pair.setdefault((r["pair_index"], first_agent, second_agent), []).append(margin)
        elif mode == "solitaire":
            by_pair.setdefault((r["pair_index"], seats[0], ""), []).append(returns[0])
    kind = returns_kind(first["game"], first["rules"])
    bounds = kind.bounds
    # A difference of two returns (or the mean of two) lies within the range's width.
    spread = None if bounds is None else (bounds[0] - bounds[1], bounds[1] - bounds[0])
    agents_out: dict[str, Any] = {}
    for agent, values in per_agent.items():
        _check_within(values, bounds, first["game"])
        summary = mean_ci(values, confidence, bounds)
        entry: dict[str, Any] = {"games": len(values), **summary.to_json()}
        if bounds is not None:
            entry["range"] = list(bounds)
        if counts.get(agent) and kind.wins:
            # a tie counts half a win; Wilson's interval takes the count as it is
            rate, lo, hi = wilson(wins[agent], counts[agent], confidence)
            entry["win_rate"], entry["win_lo"], entry["win_hi"] = rate, lo, hi
        agents_out[agent] = entry
    paired: list[dict[str, Any]] = []
    if mode in ("match", "round-robin"):
        margins: dict[tuple[str, str], list[float]] = {}
        for (_, a, b), ms in by_pair.items():
            if len(ms) == 2:  # both games of the pair finished
                margins.setdefault((a, b), []).append(sum(ms) / 2)
        for (a, b), ms in sorted(margins.items()):
            paired.append({"a": a, "b": b, **_interval(ms, confidence, spread)})
    elif mode == "solitaire" and len(per_agent) > 1:
        deals: dict[int, dict[str, float]] = {}
        for (pair, agent, _), values in by_pair.items():
            deals.setdefault(pair, {})[agent] = values[0]
        names = list(per_agent)
        for other in names[1:]:
            diffs = [d[other] - d[names[0]] for d in deals.values() if other in d and names[0] in d]
            if diffs:
                paired.append({"a": other, "b": names[0], **_interval(diffs, confidence, spread)})
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


__all__ = [
    "MODES",
    "RESULTS_LIMIT",
    "RESULT_COLUMNS",
    "ArenaError",
    "ResultsWriter",
    "ReturnsKind",
    "StratagemError",
    "dedupe",
    "journal_path",
    "read_results",
    "report",
    "results_format",
    "returns_kind",
    "typed_row",
]
