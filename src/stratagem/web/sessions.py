"""A bounded in-memory store of game sessions, shared by every game's API.

Sessions are addressed by random ids. The store holds at most ``max_sessions``
(creating one more evicts the least recently used) and forgets a session idle
for ``ttl_seconds``. It is thread-safe: endpoints run in worker threads.

>>> store = SessionStore(max_sessions=2, ttl_seconds=60)
>>> a = store.create("first"); b = store.create("second"); c = store.create("third")
>>> len(store), store.get(c)
(2, 'third')
>>> store.get(a)  # the least recently used went to make room
Traceback (most recent call last):
...
stratagem.web.sessions.SessionNotFound: no game session 'ses-...': it expired or never ...
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
ID_PATTERN = r"^ses-[A-Za-z0-9_-]{16,64}$"
"""What a session id looks like (used as the path parameter's pattern)."""


class SessionNotFound(StratagemError, LookupError):
    """An unknown or expired session id (HTTP 404)."""


@dataclass
class _Entry:
    obj: Any
    touched: float
    lock: threading.Lock = field(default_factory=threading.Lock)


class SessionStore:
    """At most ``max_sessions`` objects, each forgotten after ``ttl_seconds`` idle."""

    def __init__(
        self,
        max_sessions: int = 500,
        ttl_seconds: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if max_sessions < 1:
            raise ValueError(f"max_sessions must be at least 1, got {max_sessions}")
        if ttl_seconds <= 0:
            raise ValueError(f"ttl_seconds must be positive, got {ttl_seconds}")
        self.max_sessions = max_sessions
        self.ttl_seconds = ttl_seconds
        self._clock = clock
        self._entries: OrderedDict[str, _Entry] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            self._expire(self._clock())
            return len(self._entries)

    def _expire(self, now: float) -> None:
        while self._entries:
            sid, entry = next(iter(self._entries.items()))
            if now - entry.touched <= self.ttl_seconds:
                break
            del self._entries[sid]

    def create(self, obj: object) -> str:
        """Store ``obj`` and return its new id (evicting the least recently used if full)."""
        sid = ID_PREFIX + secrets.token_urlsafe(18)
        now = self._clock()
        with self._lock:
            self._expire(now)
            while len(self._entries) >= self.max_sessions:
                self._entries.popitem(last=False)
            self._entries[sid] = _Entry(obj, now)
        return sid

    def _entry(self, sid: str) -> _Entry:
        now = self._clock()
        with self._lock:
            self._expire(now)
            entry = self._entries.get(sid)
            if entry is None:
                shown = sid if len(sid) <= 80 else sid[:77] + "..."
                raise SessionNotFound(
                    f"no game session {shown!r}: it expired or never existed; start a new game"
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
    def use(self, sid: str, kind: type[T] | None = None) -> Iterator[T]:
        """Hold the session's own lock while using it (one request at a time per session)."""
        entry = self._entry(sid)
        if kind is not None and not isinstance(entry.obj, kind):
            raise SessionNotFound(f"session {sid!r} is not a {kind.__name__} session")
        with entry.lock:
            yield entry.obj

    def replace(self, sid: str, obj: object) -> None:
        """Store a new object under an existing id."""
        self._entry(sid).obj = obj

    def delete(self, sid: str) -> bool:
        """Forget a session; ``True`` if it existed."""
        with self._lock:
            return self._entries.pop(sid, None) is not None
