"""A bounded in-memory store of game sessions, shared by every game's API.

Sessions are addressed by random ids. The store holds at most ``max_sessions``
(creating one more evicts the least recently used), at most ``per_owner`` of one
owner (a client address: its own oldest goes first, so one client cannot push
everyone else's games out), and forgets a session idle for ``ttl_seconds``. A
session that was evicted or expired says so (:class:`SessionGone`, HTTP 410),
distinct from an id that never existed (:class:`SessionNotFound`, 404). It is
thread-safe: endpoints run in worker threads.

>>> store = SessionStore(max_sessions=2, ttl_seconds=60)
>>> a = store.create("first"); b = store.create("second"); c = store.create("third")
>>> len(store), store.get(c)
(2, 'third')
>>> store.get(a)  # the least recently used went to make room
Traceback (most recent call last):
...
stratagem.web.sessions.SessionGone: this game was evicted because the server keeps at most 2 ...
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, TypeVar

from stratagem.core.errors import StratagemError

T = TypeVar("T")

ID_PREFIX = "ses-"
LOCK_WAIT = 20.0
"""Seconds a request waits for a game another request is using (then a 429)."""
TOMBSTONES = 20_000
"""Ended sessions remembered with the reason (so their ids say why they are gone)."""
ID_PATTERN = r"^ses-[A-Za-z0-9_-]{16,64}$"
"""What a session id looks like (used as the path parameter's pattern)."""


class SessionNotFound(StratagemError, LookupError):
    """A session id that never existed here (HTTP 404)."""


class SessionGone(SessionNotFound):
    """A session that existed and was evicted or expired (HTTP 410); the message says why."""


class SessionBusy(StratagemError):
    """Another request has held the game for :data:`LOCK_WAIT` seconds (HTTP 429)."""

    retry_after = 2


@dataclass
class _Entry:
    obj: Any
    touched: float
    owner: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)


class SessionStore:
    """At most ``max_sessions`` objects, each forgotten after ``ttl_seconds`` idle."""

    def __init__(
        self,
        max_sessions: int = 500,
        ttl_seconds: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
        per_owner: int | None = None,
    ) -> None:
        if max_sessions < 1:
            raise ValueError(f"max_sessions must be at least 1, got {max_sessions}")
        if ttl_seconds <= 0:
            raise ValueError(f"ttl_seconds must be positive, got {ttl_seconds}")
        self.max_sessions = max_sessions
        self.ttl_seconds = ttl_seconds
        self.per_owner = per_owner
        self._clock = clock
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._owned: dict[str, int] = {}
        self._gone: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            self._expire(self._clock())
            return len(self._entries)

    def _forget(self, sid: str, why: str) -> None:
        entry = self._entries.pop(sid)
        if entry.owner is not None:
            left = self._owned[entry.owner] - 1
            if left:
                self._owned[entry.owner] = left
            else:
                del self._owned[entry.owner]
        self._gone[sid] = why
        while len(self._gone) > TOMBSTONES:
            self._gone.popitem(last=False)

    def _expire(self, now: float) -> None:
        while self._entries:
            sid, entry = next(iter(self._entries.items()))
            if now - entry.touched <= self.ttl_seconds:
                break
            self._forget(
                sid, f"this game expired: it was idle for more than {self.ttl_seconds:g} s"
            )

    def create(self, obj: object, owner: str | None = None) -> str:
        """Store ``obj`` and return its new id. Over ``per_owner`` games of ``owner``, its
        own least recently used goes; over ``max_sessions``, the least recently used."""
        sid = ID_PREFIX + secrets.token_urlsafe(18)
        self.put(sid, obj, owner)
        return sid

    def put(self, sid: str, obj: object, owner: str | None = None) -> object:
        """Keep ``obj`` under a given id (a game read back from disk keeps its id), under
        the same bounds as :meth:`create`; an object already there stays and is returned
        (two requests that loaded the same game at once share the first)."""
        now = self._clock()
        with self._lock:
            present = self._entries.get(sid)
            if present is not None:
                return present.obj
            self._gone.pop(sid, None)
            self._expire(now)
            if owner is not None and self.per_owner is not None:
                while self._owned.get(owner, 0) >= self.per_owner:
                    oldest = next(k for k, e in self._entries.items() if e.owner == owner)
                    why = (f"this game was evicted because its client started more than "
                           f"{self.per_owner} games (the oldest go first)")
                    self._forget(oldest, why)
            while len(self._entries) >= self.max_sessions:
                why = (f"this game was evicted because the server keeps at most "
                       f"{self.max_sessions} games and it was the least recently used")
                self._forget(next(iter(self._entries)), why)
            self._entries[sid] = _Entry(obj, now, owner)
            if owner is not None:
                self._owned[owner] = self._owned.get(owner, 0) + 1
        return obj

    def _entry(self, sid: str) -> _Entry:
        now = self._clock()
        with self._lock:
            self._expire(now)
            entry = self._entries.get(sid)
            if entry is None:
                why = self._gone.get(sid)
                if why is not None:
                    raise SessionGone(f"{why}; start a new game")
                shown = sid if len(sid) <= 80 else sid[:77] + "..."
                raise SessionNotFound(
                    f"no game session {shown!r} was ever started on this server (or it ended "
                    "so long ago that it is forgotten); start a new game"
                )
            entry.touched = now
            self._entries.move_to_end(sid)
            return entry

    def get(self, sid: str, kind: type[T] | None = None) -> T:
        """The object stored under ``sid`` (refreshing its idle time).

        Unknown or expired ids, and objects not of ``kind``, raise
        :class:`SessionNotFound`.
        """
        obj = self._entry(sid).obj
        if kind is not None and not isinstance(obj, kind):
            raise SessionNotFound(f"session {sid!r} is not a {kind.__name__} session")
        return obj  # type: ignore[no-any-return]

    @contextmanager
    def use(self, sid: str, kind: type[T] | None = None, wait: float = LOCK_WAIT) -> Iterator[T]:
        """Hold the session's own lock while using it (one request at a time per session:
        a read never sees a move half made). Waiting longer than ``wait`` seconds raises
        :class:`SessionBusy`."""
        entry = self._entry(sid)
        if kind is not None and not isinstance(entry.obj, kind):
            raise SessionNotFound(f"session {sid!r} is not a {kind.__name__} session")
        if not entry.lock.acquire(timeout=wait):
            raise SessionBusy(
                f"this game has been busy with another request for {wait:g} s; "
                f"try again in {SessionBusy.retry_after} s"
            )
        try:
            yield entry.obj
        finally:
            entry.lock.release()

    def replace(self, sid: str, obj: object) -> None:
        """Store a new object under an existing id."""
        self._entry(sid).obj = obj

    def delete(self, sid: str) -> bool:
        """Forget a session; ``True`` if it existed."""
        with self._lock:
            if sid not in self._entries:
                return False
            self._forget(sid, "this game was ended")
            return True
