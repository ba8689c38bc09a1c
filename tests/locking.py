"""Locks shared by the pytest-xdist workers of a run (see ``run_tmp`` in conftest.py)."""

from __future__ import annotations

import fcntl
import hashlib
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import IO, Any


@contextmanager
def exclusive(directory: Path, name: str) -> Iterator[None]:
    """Held by one process at a time: one worker builds ``name`` while the others wait, then
    find it in the cache."""
    directory.mkdir(parents=True, exist_ok=True)
    with open(directory / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def one_compile_at_a_time(lock_dir: Path) -> Callable[[], None]:
    """Under pytest-xdist, each numba kernel is compiled by one worker at a time.

    On a cold cache (a clean clone, as in CI) both workers would otherwise often
    compile the same kernel at once; with this, the second waits and then loads the
    kernel from numba's on-disk cache (every kernel has ``cache=True``). Nested
    compiles (a kernel's callees) run under their caller's lock, so a process holds
    one lock at a time; a wait is bounded (10 minutes), then the compile goes ahead
    unlocked. Returns the function that undoes it.
    """
    from numba.core.dispatcher import Dispatcher

    original = Dispatcher.compile
    local = threading.local()
    lock_dir.mkdir(parents=True, exist_ok=True)

    def compile(self: Any, sig: Any) -> Any:
        if getattr(local, "inside", False):
            return original(self, sig)
        func = getattr(self, "py_func", None)
        name = f"{getattr(func, '__module__', '')}.{getattr(func, '__qualname__', 'numba')}"
        path = lock_dir / f"{hashlib.sha1(name.encode()).hexdigest()[:20]}.lock"
        with open(path, "w") as lock:
            locked = _flock_within(lock, 600.0)
            local.inside = True
            try:
                return original(self, sig)
            finally:
                local.inside = False
                if locked:
                    fcntl.flock(lock, fcntl.LOCK_UN)

    Dispatcher.compile = compile  # type: ignore[method-assign]

    def undo() -> None:
        Dispatcher.compile = original  # type: ignore[method-assign]

    return undo


def _flock_within(lock: IO[str], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while True:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline:
                return False
            time.sleep(0.02)
