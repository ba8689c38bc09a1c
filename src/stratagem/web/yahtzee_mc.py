"""The Monte Carlo panel's searches as jobs: start, poll (fraction done, time left), cancel.

A search of a few thousand simulations takes seconds to minutes on a busy server; the
page starts it with ``POST /api/yahtzee/mcts/jobs``, polls ``GET .../jobs/{id}`` and may
``DELETE`` it. A search nobody polls for :data:`ABANDONED_AFTER` seconds (the page was
closed) stops at its next progress tick, and finished results are dropped after
:data:`KEEP_FINISHED` seconds, so a client that goes away leaves nothing behind.
"""

from __future__ import annotations

import secrets
import threading
import time
from dataclasses import dataclass, field
from typing import Annotated, Literal

from fastapi import APIRouter, HTTPException, Path, Request
from pydantic import BaseModel, Field

from stratagem.core.errors import StratagemError
from stratagem.games.yahtzee.monte_carlo import ALPHA, METHOD, MIN_PLAYOUTS, SearchCancelled
from stratagem.web import yahtzee as web
from stratagem.web.common import ErrorBody, settings, submit_heavy

router = APIRouter()

MAX_RUNNING = 2
"""Searches running at once on one server (each holds a tree of up to 20,000 nodes)."""
ABANDONED_AFTER = 20.0
KEEP_FINISHED = 120.0
JOB_PATTERN = r"^mc-[A-Za-z0-9_-]{16,64}$"
JobId = Annotated[str, Path(pattern=JOB_PATTERN, description="a Monte Carlo search job id")]


class MctsJobView(BaseModel):
    id: str
    state: Literal["running", "ready", "cancelled", "failed"]
    done: int = Field(ge=0, description="simulations done")
    simulations: int
    fraction: float = Field(ge=0.0, le=1.0)
    seconds: float = Field(ge=0.0, description="since the search started")
    seconds_left: float | None = Field(None, description="estimate from the pace so far")
    message: str = ""
    result: web.MctsView | None = None


@dataclass
class _Job:
    id: str
    simulations: int
    state: str = "running"
    done: int = 0
    message: str = ""
    started: float = field(default_factory=time.monotonic)
    polled: float = field(default_factory=time.monotonic)
    finished: float | None = None
    cancel: bool = False
    result: web.MctsView | None = None
    paced: tuple[float, int] | None = None  # (time, done) at the first tick past 0


class _Jobs:
    def __init__(self) -> None:
        self.jobs: dict[str, _Job] = {}
        self.lock = threading.Lock()

    def prune(self) -> None:
        now = time.monotonic()
        with self.lock:
            for key, job in list(self.jobs.items()):
                if job.finished is not None and now - job.finished > KEEP_FINISHED:
                    del self.jobs[key]


def _jobs(request: Request) -> _Jobs:
    state = request.app.state
    with web._LOCK:
        found = getattr(state, "yahtzee_mc_jobs", None)
        if found is None:
            found = state.yahtzee_mc_jobs = _Jobs()
    return found


def _view(job: _Job) -> MctsJobView:
    end = job.finished if job.finished is not None else time.monotonic()
    seconds = max(0.0, end - job.started)
    fraction = min(1.0, job.done / job.simulations)
    left = None
    if job.state == "running" and job.paced is not None and job.done > job.paced[1]:
        # the pace since the first tick past 0 (before it: loading the table, compiling)
        t0, d0 = job.paced
        pace = (time.monotonic() - t0) / (job.done - d0)
        left = pace * (job.simulations - job.done)
    elif job.state == "ready":
        left = 0.0
    return MctsJobView(
        id=job.id, state=job.state, done=job.done, simulations=job.simulations,  # type: ignore[arg-type]
        fraction=fraction, seconds=seconds, seconds_left=left, message=job.message,
        result=job.result,
    )  # fmt: skip


def _get(request: Request, job_id: str) -> _Job:
    jobs = _jobs(request)
    jobs.prune()
    with jobs.lock:
        job = jobs.jobs.get(job_id)
    if job is None:
        raise HTTPException(404, f"no Monte Carlo search {job_id}; it ended or was never started")
    return job


class MctsAbout(BaseModel):
    method: str
    min_playouts: int
    alpha: float


@router.get("/mcts/about")
def about_search() -> MctsAbout:
    """What the panel computes, and the playouts two options need before they are compared."""
    return MctsAbout(method=METHOD.format(rollout="the chosen"), min_playouts=MIN_PLAYOUTS,
                     alpha=ALPHA)  # fmt: skip


@router.post(
    "/mcts/jobs",
    status_code=202,
    responses={429: {"model": ErrorBody, "description": "too many searches running"}},
)
def start_search(request: Request, body: web.MctsRequest) -> MctsJobView:
    """Start a Monte Carlo search in the background; poll it for progress and the result."""
    cap = settings(request).max_mcts_sims
    if body.simulations > cap:
        raise StratagemError(f"at most {cap} simulations per search on this server")
    body.situation()  # a bad position is refused now, not in the job
    jobs = _jobs(request)
    jobs.prune()
    with jobs.lock:
        running = sum(j.state == "running" for j in jobs.jobs.values())
        if running >= MAX_RUNNING:
            raise HTTPException(
                429, f"{running} searches are running on this server (at most {MAX_RUNNING}); "
                "wait for one to end or cancel yours",
            )  # fmt: skip
        job = _Job("mc-" + secrets.token_urlsafe(18), body.simulations)
        jobs.jobs[job.id] = job

    def progress(done: int, total: int) -> None:
        job.done = done
        if done > 0 and job.paced is None:
            job.paced = (time.monotonic(), done)
            job.message = ""

    def cancelled() -> bool:
        if time.monotonic() - job.polled > ABANDONED_AFTER:
            job.message = f"nobody polled for {ABANDONED_AFTER:.0f} s"
            return True
        return job.cancel

    def run() -> None:
        job.message = "loading the exact table and the compiled playouts (once per server)"
        try:
            job.result = web._mcts(request, body, progress, cancelled)
        except SearchCancelled as exc:
            job.state, job.message = "cancelled", job.message or str(exc)
        except Exception as exc:  # reported to the page, never raised in a thread
            job.state, job.message = "failed", f"{type(exc).__name__}: {exc}"
        else:
            job.state, job.done = "ready", job.simulations
        job.finished = time.monotonic()

    # in the heavy pool: the server's and the client's limits on heavy work hold for
    # searches too (a 429 or the start-up 503 here leaves no job behind)
    job.message = "waiting for a free worker thread"
    try:
        submit_heavy(run)
    except BaseException:
        with jobs.lock:
            jobs.jobs.pop(job.id, None)
        raise
    return _view(job)


@router.get("/mcts/jobs/{job_id}")
def search_status(request: Request, job_id: JobId) -> MctsJobView:
    """How far the search got, the time left at its pace so far, and its result when ready."""
    job = _get(request, job_id)
    job.polled = time.monotonic()
    return _view(job)


@router.delete("/mcts/jobs/{job_id}")
def cancel_search(request: Request, job_id: JobId) -> MctsJobView:
    """Stop the search at its next progress tick (within 50 simulations)."""
    job = _get(request, job_id)
    job.cancel = True
    job.polled = time.monotonic()
    return _view(job)


web.router.include_router(router)
