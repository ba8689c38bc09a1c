"""Jobs a page starts, polls and may cancel: the Yahtzee Monte Carlo searches
(``web/yahtzee_mc.py``) and the Scrabble assistant's deep analyses (``web/scrabble_deep.py``).

Each runs in the heavy pool (the server's and the client's limits on heavy work hold for
them too), reports its progress through its job, and checks between steps whether it
should stop: the player cancelled it, or nobody polled it for a while (the page was
closed, the client went away), so an abandoned job frees its thread at its next step.
Finished jobs are dropped some time later, so a client that goes away leaves nothing
behind. These differ from the table builds of :class:`stratagem.web.common.Jobs`, which
are keyed by what they build, shared by every client and run one at a time in their own
threads.

What each module keeps for itself: its job's fields and view, how many of its jobs may
run at once and the words of its refusals, how long a job may go unpolled and what it
says when it stops for that.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Generic, TypeVar

from fastapi import HTTPException, Request

from stratagem.web.common import submit_heavy


@dataclass(kw_only=True)
class PollingJob:
    """What every polled job records: its state and message for the page, when it
    started, was last polled and finished, and whether the player cancelled it."""

    id: str
    state: str = "running"
    message: str = ""
    started: float = field(default_factory=time.monotonic)
    polled: float = field(default_factory=time.monotonic)
    finished: float | None = None
    cancel: bool = False

    def seconds(self) -> float:
        """Seconds since the job started, until it finished."""
        end = self.finished if self.finished is not None else time.monotonic()
        return max(0.0, end - self.started)

    def should_stop(self, abandoned_after: float, why: str) -> bool:
        """Whether the job's work should stop now: cancelled, or not polled for
        ``abandoned_after`` seconds (then ``why``, formatted with ``after``, becomes its
        message). The work calls this between its steps."""
        if time.monotonic() - self.polled > abandoned_after:
            self.message = why.format(after=abandoned_after)
            return True
        return self.cancel


J = TypeVar("J", bound=PollingJob)


class JobTable(Generic[J]):
    """One app's jobs of one kind by id, under a lock (the jobs' threads and the
    requests read it at once)."""

    def __init__(self, what: str, keep_finished: float) -> None:
        self.what = what  # how a 404 names the job: "deep analysis", "Monte Carlo search"
        self.keep_finished = keep_finished
        self.jobs: dict[str, J] = {}
        self.lock = threading.Lock()

    def prune(self) -> None:
        """Drop the jobs that finished more than ``keep_finished`` seconds ago."""
        now = time.monotonic()
        with self.lock:
            for key, job in list(self.jobs.items()):
                if job.finished is not None and now - job.finished > self.keep_finished:
                    del self.jobs[key]

    def add(self, make: Callable[[], J], max_running: int, busy: Callable[[int], str]) -> J:
        """A new job from ``make()`` in the table, or a 429 saying ``busy(running)`` when
        ``max_running`` jobs are running already."""
        self.prune()
        with self.lock:
            running = sum(j.state == "running" for j in self.jobs.values())
            if running >= max_running:
                raise HTTPException(429, busy(running))
            job = make()
            self.jobs[job.id] = job
        return job

    def start(self, job: J, run: Callable[[], None]) -> None:
        """Queue ``run`` in the heavy pool; if that is refused (a 429, the start-up 503)
        the job is removed, so a refusal leaves no job behind."""
        job.message = "waiting for a free worker thread"
        try:
            submit_heavy(run)
        except BaseException:
            with self.lock:
                self.jobs.pop(job.id, None)
            raise

    def get(self, job_id: str) -> J:
        """The job ``job_id``, or a 404 saying it ended or never started."""
        self.prune()
        with self.lock:
            job = self.jobs.get(job_id)
        if job is None:
            raise HTTPException(404, f"no {self.what} {job_id}; it ended or was never started")
        return job

    def poll(self, job_id: str) -> J:
        """The job ``job_id``, its poll recorded (it is not abandoned)."""
        job = self.get(job_id)
        job.polled = time.monotonic()
        return job

    def cancel(self, job_id: str) -> J:
        """The job ``job_id``, asked to stop at its next step."""
        job = self.get(job_id)
        job.cancel = True
        job.polled = time.monotonic()
        return job


_MAKE_LOCK = threading.Lock()


def app_table(request: Request, name: str, make: Callable[[], JobTable[J]]) -> JobTable[J]:
    """The app's job table kept as ``app.state.<name>``, made on first use."""
    state = request.app.state
    with _MAKE_LOCK:
        found: JobTable[J] | None = getattr(state, name, None)
        if found is None:
            found = make()
            setattr(state, name, found)
    return found
