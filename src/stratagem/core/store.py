"""Game records kept in an embedded SQLite database, bounded, and never a reason to crash.

:class:`GameStore` keeps the records of :class:`~stratagem.core.session.Session`
games (their JSON, docs/sessions.md) in one SQLite file: the path the caller gives
(``serve --data DIR``), by default ``games.sqlite3`` in the per-user data folder
(platformdirs; ``STRATAGEM_DATA_DIR`` overrides it). The file is in WAL mode (a
reader never waits for a writer) with a short busy timeout, so a page is never held
up long by another process.

The store is bounded: at most ``max_games`` games and ``max_bytes`` of records.
Saving past a bound evicts the finished games that were finished longest ago;
a game in progress is never evicted: when only games in progress are left the save
is refused (:attr:`Problem.FULL`) and the caller keeps that game in memory.

Nothing here raises for a bad file. When the file is corrupt, of another program,
locked by another process past the busy timeout, on a read-only disk or otherwise
unusable, the store carries on in memory (the games it could still read are copied
there) and says why: every operation returns or exposes a :class:`StoreStatus`
whose :attr:`~StoreStatus.problem` is typed and whose message is for people. A
refused file is left byte for byte as it was.

>>> store = GameStore(None)  # in memory only
>>> store.save("g1", {"format": "stratagem-game", "game": "pig", "rules": "pig",
...                   "decisions": ["roll"], "result": {"finished": False, "returns": None}}).ok
True
>>> [(g.id, g.game, g.finished) for g in store.list_games()]
[('g1', 'pig', False)]
"""

from __future__ import annotations

import contextlib
import enum
import errno
import json
import os
import re
import sqlite3
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

__all__ = [
    "DEFAULT_MAX_BYTES",
    "DEFAULT_MAX_GAMES",
    "GameStore",
    "GameSummary",
    "Problem",
    "StoreStatus",
    "default_store_path",
]

SCHEMA_VERSION = 1
"""``PRAGMA user_version`` of a Stratagem games database."""
DEFAULT_MAX_GAMES = 1000
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
DEFAULT_MAX_RECORD_BYTES = 1_000_000
"""As :data:`stratagem.core.session.MAX_RECORD_BYTES`: a record the session could not
read back is not stored."""
BUSY_TIMEOUT = 0.25
"""Seconds to wait for another process's lock before saying the file is locked."""
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

_SCHEMA = """
CREATE TABLE games (
    id TEXT PRIMARY KEY,
    game TEXT NOT NULL,
    rules TEXT NOT NULL,
    finished INTEGER NOT NULL,
    returns TEXT,
    decisions INTEGER NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL,
    bytes INTEGER NOT NULL,
    record TEXT NOT NULL
);
CREATE INDEX games_finished_updated ON games (finished, updated);
"""


class Problem(enum.Enum):
    """Why the store is not saving to its file, or why one save was refused."""

    CORRUPT = "corrupt"
    """The file is not a SQLite database, or a damaged one."""
    FOREIGN = "foreign"
    """A SQLite database of another program, or of another version of this one."""
    LOCKED = "locked"
    """Another process held the database past the busy timeout."""
    READ_ONLY = "read-only"
    """The file or its folder cannot be written."""
    UNAVAILABLE = "unavailable"
    """Any other failure of the file (disk full, I/O error, no such folder)."""
    FULL = "full"
    """Only games in progress are left and one more would pass a bound (one save refused)."""
    TOO_LARGE = "too-large"
    """One record is larger than a record may be (one save refused)."""


@dataclass(frozen=True)
class StoreStatus:
    """The outcome of an operation, or the health of the store: ``problem`` is ``None``
    when all is well; ``message`` says what happened in words for the page."""

    problem: Problem | None = None
    message: str = "saved"

    @property
    def ok(self) -> bool:
        return self.problem is None


@dataclass(frozen=True)
class GameSummary:
    """One stored game as the "My games" list shows it."""

    id: str
    game: str
    rules: str
    finished: bool
    returns: tuple[float, ...] | None
    decisions: int
    created: float
    updated: float
    bytes: int

    @property
    def result(self) -> str:
        """``in progress``, or the final values (``231``, ``1-0``)."""
        if not self.finished or self.returns is None:
            return "in progress"
        return "-".join(f"{r:g}" for r in self.returns)

    @property
    def date(self) -> str:
        """The last change, ISO 8601 in UTC to the second."""
        return datetime.fromtimestamp(self.updated, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def default_store_path() -> Path:
    """``$STRATAGEM_DATA_DIR/games.sqlite3``, else the per-user data folder's."""
    env = os.environ.get("STRATAGEM_DATA_DIR")
    if env:
        return Path(env) / "games.sqlite3"
    import platformdirs

    return Path(platformdirs.user_data_dir("stratagem", appauthor=False)) / "games.sqlite3"


class _Refused(Exception):
    def __init__(self, status: StoreStatus) -> None:
        super().__init__(status.message)
        self.status = status


def classify(exc: BaseException, path: Path | None) -> StoreStatus:
    """The :class:`StoreStatus` of a failure of SQLite or of the file system."""
    where = f"the games file {path}" if path is not None else "the games database"
    text = str(exc).lower()
    if isinstance(exc, OSError):
        if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM):
            return StoreStatus(Problem.READ_ONLY, f"{where} cannot be written: {exc.strerror}")
        return StoreStatus(Problem.UNAVAILABLE, f"{where} cannot be used: {exc}")
    if "locked" in text or "busy" in text:
        return StoreStatus(
            Problem.LOCKED, f"{where} is locked by another process (waited {BUSY_TIMEOUT} s)"
        )
    if "readonly" in text or "read-only" in text:
        return StoreStatus(Problem.READ_ONLY, f"{where} is read-only: {exc}")
    if "not a database" in text or "malformed" in text or "corrupt" in text:
        return StoreStatus(Problem.CORRUPT, f"{where} is damaged or not a database ({exc})")
    return StoreStatus(Problem.UNAVAILABLE, f"{where} cannot be used: {exc}")


class GameStore:
    """Game records by id, in a SQLite file (``path``) or, failing that, in memory.

    ``status`` says whether records reach the file (:attr:`persistent`) and if not,
    why. ``read_only=True`` opens an existing file for reading only (saves then go to
    memory, with :attr:`Problem.READ_ONLY`).
    """

    def __init__(
        self,
        path: Path | str | None,
        *,
        max_games: int = DEFAULT_MAX_GAMES,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES,
        busy_timeout: float = BUSY_TIMEOUT,
        read_only: bool = False,
    ) -> None:
        for name, value, low in (
            ("max_games", max_games, 1),
            ("max_bytes", max_bytes, 1024),
            ("max_record_bytes", max_record_bytes, 256),
        ):
            if isinstance(value, bool) or not isinstance(value, int) or value < low:
                raise ValueError(f"{name} must be a whole number >= {low}, got {value!r}")
        if not 0 <= busy_timeout <= 60:
            raise ValueError(f"busy_timeout must be 0..60 seconds, got {busy_timeout!r}")
        self.path = None if path is None else Path(path)
        self.max_games = max_games
        self.max_bytes = max_bytes
        self.max_record_bytes = max_record_bytes
        self.busy_timeout = busy_timeout
        self._lock = threading.Lock()
        self.status = StoreStatus(None, "games are kept in memory only (no file given)")
        self._db = self._memory()
        if self.path is not None:
            try:
                self._db = self._open_file(self.path, read_only)
                self.status = StoreStatus(None, f"games are saved in {self.path}")
                if read_only:
                    self.status = StoreStatus(
                        Problem.READ_ONLY, f"the games file {self.path} is opened read-only"
                    )
            except _Refused as refused:
                self.status = _in_memory(refused.status)
            except (sqlite3.Error, OSError) as exc:
                self.status = _in_memory(classify(exc, self.path))

    @classmethod
    def in_folder(cls, folder: Path | str | None = None, **bounds: Any) -> GameStore:
        """The store of a data folder (``serve --data DIR``): ``DIR/games.sqlite3``;
        without one, the per-user default (:func:`default_store_path`)."""
        path = default_store_path() if folder is None else Path(folder) / "games.sqlite3"
        return cls(path, **bounds)

    @property
    def persistent(self) -> bool:
        """True while saves reach the file."""
        return self.path is not None and self.status.problem is None

    # --- opening ---------------------------------------------------------------------------

    def _memory(self) -> sqlite3.Connection:
        db = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        db.executescript(_SCHEMA)
        return db

    def _open_file(self, path: Path, read_only: bool) -> sqlite3.Connection:
        if read_only:
            uri = f"{path.resolve().as_uri()}?mode=ro"
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            uri = f"{path.resolve().as_uri()}?mode=rwc"
        db = sqlite3.connect(
            uri, uri=True, timeout=self.busy_timeout, isolation_level=None, check_same_thread=False
        )
        try:
            # Read before anything is written: a file that is not ours stays as it was.
            version = db.execute("PRAGMA user_version").fetchone()[0]
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if version == 0 and not tables:
                if read_only:
                    raise _Refused(
                        StoreStatus(
                            Problem.READ_ONLY, f"the games file {path} is empty and read-only"
                        )
                    )
                db.execute("PRAGMA journal_mode=WAL")
                db.executescript(
                    "BEGIN IMMEDIATE;" + _SCHEMA + f"PRAGMA user_version={SCHEMA_VERSION}; COMMIT;"
                )
            elif version != SCHEMA_VERSION or "games" not in tables:
                raise _Refused(
                    StoreStatus(
                        Problem.FOREIGN,
                        f"the games file {path} is a database of another program or version "
                        f"(schema {version}, this Stratagem writes {SCHEMA_VERSION}); "
                        "it is left as it is",
                    )
                )
            else:
                check = db.execute("PRAGMA quick_check").fetchone()[0]
                if check != "ok":
                    raise _Refused(
                        StoreStatus(Problem.CORRUPT, f"the games file {path} is damaged: {check}")
                    )
                if not read_only:
                    db.execute("PRAGMA journal_mode=WAL")
            if not read_only:
                db.execute("PRAGMA synchronous=NORMAL")  # WAL: durable at each checkpoint
        except BaseException:
            db.close()
            raise
        return db

    def _fall_back(self, status: StoreStatus) -> None:
        """Carry on in memory with the games still readable from the file."""
        memory = self._memory()
        with contextlib.suppress(sqlite3.Error):
            rows = self._db.execute("SELECT * FROM games").fetchall()
            memory.executemany("INSERT INTO games VALUES (?,?,?,?,?,?,?,?,?,?)", rows)
        with contextlib.suppress(sqlite3.Error):
            self._db.close()
        self._db = memory
        self.status = _in_memory(status)

    # --- operations ------------------------------------------------------------------------

    def save(self, game_id: str, record: Mapping[str, Any] | str) -> StoreStatus:
        """Store (or replace) a game's record; the status says where it went, or why not.

        A record over ``max_record_bytes``, or one that would pass a bound when only
        games in progress are left, is refused and nothing stored changes."""
        _check_id(game_id)
        text = (
            record
            if isinstance(record, str)
            else json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        )
        size = len(text.encode("utf-8"))
        if size > self.max_record_bytes:
            return StoreStatus(
                Problem.TOO_LARGE,
                f"the record of game {game_id} is {size:,} "
                f"bytes; a stored record is at most {self.max_record_bytes:,}",
            )
        fields = _fields(record if not isinstance(record, str) else json.loads(text))
        with self._lock:
            try:
                return self._save(game_id, text, size, fields)
            except _Full as full:
                return full.status
            except (sqlite3.Error, OSError) as exc:
                failed = classify(exc, self.path)
            self._fall_back(failed)
            try:
                self._save(game_id, text, size, fields)
            except _Full as full:
                return full.status
            except (sqlite3.Error, OSError) as exc:  # memory itself failed: out of memory
                return classify(exc, None)
            return self.status

    def _save(self, game_id: str, text: str, size: int, fields: tuple[Any, ...]) -> StoreStatus:
        now = time.time()
        db = self._db
        with _transaction(db):
            row = db.execute("SELECT created FROM games WHERE id=?", (game_id,)).fetchone()
            created = now if row is None else row[0]
            db.execute(
                "INSERT OR REPLACE INTO games VALUES (?,?,?,?,?,?,?,?,?,?)",
                (game_id, *fields, created, now, size, text),
            )
            evicted = 0
            while True:
                count, total = db.execute(
                    "SELECT count(*), coalesce(sum(bytes), 0) FROM games"
                ).fetchone()
                if count <= self.max_games and total <= self.max_bytes:
                    break
                oldest = db.execute(
                    "SELECT id FROM games WHERE finished=1 AND id<>? ORDER BY updated LIMIT 1",
                    (game_id,),
                ).fetchone()
                if oldest is None:
                    raise _Full(
                        StoreStatus(
                            Problem.FULL,
                            f"the store holds {count - 1} games in progress "
                            f"({total - size:,} bytes; limits {self.max_games} games, "
                            f"{self.max_bytes:,} bytes): finish or "
                            f"delete one to save game {game_id}",
                        )
                    )
                db.execute("DELETE FROM games WHERE id=?", oldest)
                evicted += 1
        if self.status.problem is not None:
            return self.status
        return StoreStatus(
            None, "saved" + (f", {evicted} old finished games evicted" if evicted else "")
        )

    def load(self, game_id: str) -> dict[str, Any] | None:
        """The record of ``game_id`` (plain data, to be read by ``Session.from_record``)."""
        _check_id(game_id)
        with self._lock:
            row = self._read("SELECT record FROM games WHERE id=?", (game_id,))
        if not row:
            return None
        data: dict[str, Any] = json.loads(row[0][0])
        return data

    def list_games(self, limit: int = 100) -> list[GameSummary]:
        """Stored games, the most recently changed first."""
        if isinstance(limit, bool) or not isinstance(limit, int) or not 1 <= limit <= 10_000:
            raise ValueError(f"limit must be 1..10000, got {limit!r}")
        with self._lock:
            rows = self._read(
                "SELECT id, game, rules, finished, returns, decisions, created, updated, bytes "
                "FROM games ORDER BY updated DESC LIMIT ?",
                (limit,),
            )
        return [
            GameSummary(
                r[0],
                r[1],
                r[2],
                bool(r[3]),
                None if r[4] is None else tuple(json.loads(r[4])),
                r[5],
                r[6],
                r[7],
                r[8],
            )
            for r in rows
        ]

    def delete(self, game_id: str) -> StoreStatus:
        _check_id(game_id)
        with self._lock:
            try:
                with _transaction(self._db):
                    self._db.execute("DELETE FROM games WHERE id=?", (game_id,))
            except (sqlite3.Error, OSError) as exc:
                self._fall_back(classify(exc, self.path))
                self._db.execute("DELETE FROM games WHERE id=?", (game_id,))
            return self.status if self.status.problem else StoreStatus(None, "deleted")

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.close()

    def _read(self, sql: str, args: tuple[Any, ...]) -> list[Any]:
        try:
            return self._db.execute(sql, args).fetchall()
        except (sqlite3.Error, OSError) as exc:
            self._fall_back(classify(exc, self.path))
            return self._db.execute(sql, args).fetchall()


class _Full(Exception):
    """Raised inside a save's transaction so that it rolls back."""

    def __init__(self, status: StoreStatus) -> None:
        super().__init__(status.message)
        self.status = status


def _in_memory(status: StoreStatus) -> StoreStatus:
    return StoreStatus(status.problem, f"{status.message}; games are kept in memory only")


@contextlib.contextmanager
def _transaction(db: sqlite3.Connection) -> Iterator[None]:
    db.execute("BEGIN IMMEDIATE")
    try:
        yield
    except BaseException:
        with contextlib.suppress(sqlite3.Error):
            db.execute("ROLLBACK")
        raise
    db.execute("COMMIT")


def _check_id(game_id: str) -> None:
    if not isinstance(game_id, str) or not _ID.fullmatch(game_id):
        raise ValueError(f"a game id is 1..64 letters, digits, - or _, got {game_id!r}")


def _fields(record: Mapping[str, Any]) -> tuple[Any, ...]:
    """(game, rules, finished, returns JSON, decisions) of a record, for the listing."""
    if not isinstance(record, Mapping):
        raise ValueError("a game record is a JSON object")
    result = record.get("result") or {}
    finished = bool(result.get("finished")) if isinstance(result, Mapping) else False
    returns = result.get("returns") if isinstance(result, Mapping) else None
    decisions = record.get("decisions")
    return (
        str(record.get("game", "")),
        str(record.get("rules", "")),
        int(finished),
        None if returns is None else json.dumps(returns),
        len(decisions) if isinstance(decisions, list) else 0,
    )
