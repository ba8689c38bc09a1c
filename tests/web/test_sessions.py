"""The session store: bounded in count and idle time, thread-safe."""

from __future__ import annotations

import doctest
import importlib
import threading

import pytest

from stratagem.web.sessions import ID_PATTERN, SessionNotFound, SessionStore


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize("name", ["sessions", "app"])
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"stratagem.web.{name}")
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


def test_ids_match_the_published_pattern() -> None:
    import re

    store = SessionStore()
    assert re.match(ID_PATTERN, store.create(1))


def test_idle_sessions_expire() -> None:
    clock = Clock()
    store = SessionStore(ttl_seconds=10, clock=clock)
    sid = store.create("x")
    clock.now = 9
    assert store.get(sid) == "x"  # refreshes its idle time
    clock.now = 18
    assert store.get(sid) == "x"
    clock.now = 28.5
    with pytest.raises(SessionNotFound, match="expired: it was idle for more than 10 s"):
        store.get(sid)
    assert len(store) == 0


def test_the_least_recently_used_is_evicted_when_full() -> None:
    clock = Clock()
    store = SessionStore(max_sessions=3, clock=clock)
    ids = [store.create(i) for i in range(3)]
    store.get(ids[0])  # now ids[1] is the least recently used
    store.create(3)
    assert len(store) == 3
    assert store.get(ids[0]) == 0
    with pytest.raises(SessionNotFound):
        store.get(ids[1])


def test_wrong_kind_is_refused() -> None:
    store = SessionStore()
    sid = store.create("text")
    with pytest.raises(SessionNotFound, match="not a int session"):
        store.get(sid, int)


def test_concurrent_use_stays_bounded_and_serialised() -> None:
    store = SessionStore(max_sessions=50)
    counter = {"n": 0}
    shared = store.create(counter)

    def work() -> None:
        for _ in range(200):
            store.create(object())
            with store.use(shared, dict) as c:
                value = c["n"]
                c["n"] = value + 1

    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(store) <= 50
    # the shared session was in use constantly, so it was never the least recently used
    assert store.get(shared, dict)["n"] == 8 * 200
