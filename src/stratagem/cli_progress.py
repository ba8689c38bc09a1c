"""Progress of a long command on standard error, shown the same way by every command.

:func:`progress_reporter` gives a callback ``report(done, total)`` for the
work to call now and then. On a terminal it draws a bar (opened at the first
report, so work that finishes at once, e.g. a cache hit, shows nothing, and
cleared at the end); elsewhere (a log file, a pipe) it writes a line at most
every ``every`` seconds and at the end, so a run in the background still says
how far it got. With ``quiet`` (``--json``) it gives ``None``: no progress.

Ctrl-C: the work runs in Python between reports, so the interrupt arrives at
the next report at the latest; the bar is closed, and the command line exits
with status 130 without a traceback (typer turns ``KeyboardInterrupt`` into
that exit). A command writes its output only after the work, atomically
(:func:`stratagem.core.files.write_atomic`), so an interrupted command leaves
no half-written file.

>>> import io
>>> from rich.console import Console
>>> log = Console(file=io.StringIO(), force_terminal=False)
>>> with progress_reporter("playing", "games", console=log) as report:
...     report(10, 10)
>>> log.file.getvalue()
'playing: 10/10 games\\n'
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeRemainingColumn

__all__ = ["Report", "progress_reporter"]

Report = Callable[[int, int], None]
"""``report(done, total)``: ``done`` units of ``total`` are finished."""


@contextmanager
def progress_reporter(
    label: str,
    unit: str,
    quiet: bool = False,
    *,
    console: Console | None = None,
    lines: bool = True,
    every: float = 10.0,
) -> Iterator[Report | None]:
    """A ``report(done, total)`` callback that shows ``label: done/total unit``.

    ``lines=False`` shows nothing off a terminal (for work that is usually
    short); ``quiet`` shows nothing at all and yields ``None``.
    """
    err = console if console is not None else Console(stderr=True, highlight=False, emoji=False)
    if quiet or (not lines and not err.is_terminal):
        yield None
        return
    if err.is_terminal:
        bar = Progress(
            TextColumn(label),
            BarColumn(),
            TextColumn("{task.completed:,.0f}/{task.total:,.0f} " + unit),
            TimeRemainingColumn(),
            console=err,
            transient=True,
        )
        started: list[bool] = []

        def update(done: int, total: int) -> None:
            if not started:
                bar.start()
                bar.add_task(label, total=total)
                started.append(True)
            bar.update(bar.task_ids[0], completed=done, total=total)

        try:
            yield update
        finally:
            if started:
                bar.stop()
        return
    last = [-float("inf")]
    first: list[tuple[float, int]] = []

    def line(done: int, total: int) -> None:
        now = time.monotonic()
        if not first:
            first.append((now, done))
        if now - last[0] >= every or done >= total:
            last[0] = now
            left = _time_left(first[0], now, done, total)
            err.print(f"{label}: {done:,}/{total:,} {unit}{left}", soft_wrap=True)

    yield line


def _time_left(start: tuple[float, int], now: float, done: int, total: int) -> str:
    """``, about 40 s left`` at the rate since ``start`` (time, done); empty until known."""
    began, done0 = start
    if done >= total or done <= done0 or now <= began:
        return ""
    left = (total - done) * (now - began) / (done - done0)
    if left < 90:
        return f", about {left:.0f} s left"
    if left < 5400:
        return f", about {left / 60:.0f} minutes left"
    return f", about {left / 3600:.1f} hours left"
