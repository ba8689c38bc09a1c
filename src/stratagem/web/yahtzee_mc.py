"""The Monte Carlo panel's searches as jobs: start, poll (fraction done, time left), cancel.

A search of a few thousand simulations takes seconds to minutes on a busy server; the
page starts it with ``POST /api/yahtzee/mcts/jobs``, polls ``GET .../jobs/{id}`` and may
``DELETE`` it. A search nobody polls for :data:`ABANDONED_AFTER` seconds (the page was
closed) stops at its next progress tick, and finished results are dropped after
:data:`KEEP_FINISHED` seconds, so a client that goes away leaves nothing behind.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, Field

from stratagem.core.errors import StratagemError
from stratagem.games.yahtzee.monte_carlo import ALPHA, METHOD, MIN_PLAYOUTS, SearchCancelled
from stratagem.web import yahtzee as web
from stratagem.web.common import ErrorBody, settings
from stratagem.web.jobs import JobTable, PollingJob, app_table

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


@dataclass(kw_only=True)
class _Job(PollingJob):
    simulations: int
    done: int = 0
    result: web.MctsView | None = None
    paced: tuple[float, int] | None = None  # (time, done) at the first tick past 0


def _jobs(request: Request) -> JobTable[_Job]:
    return app_table(request, "yahtzee_mc_jobs",
                     lambda: JobTable[_Job]("Monte Carlo search", KEEP_FINISHED))  # fmt: skip


def _view(job: _Job) -> MctsJobView:
    seconds = job.seconds()
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
    job = jobs.add(
        lambda: _Job(id="mc-" + secrets.token_urlsafe(18), simulations=body.simulations),
        MAX_RUNNING,
        lambda running: (
            f"{running} searches are running on this server (at most "
            f"{MAX_RUNNING}); wait for one to end or cancel yours"
        ),
    )

    def progress(done: int, total: int) -> None:
        job.done = done
        if done > 0 and job.paced is None:
            job.paced = (time.monotonic(), done)
            job.message = ""

    def cancelled() -> bool:
        return job.should_stop(ABANDONED_AFTER, "nobody polled for {after:.0f} s")

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
    jobs.start(job, run)
    return _view(job)


@router.get("/mcts/jobs/{job_id}")
def search_status(request: Request, job_id: JobId) -> MctsJobView:
    """How far the search got, the time left at its pace so far, and its result when ready."""
    return _view(_jobs(request).poll(job_id))


@router.delete("/mcts/jobs/{job_id}")
def cancel_search(request: Request, job_id: JobId) -> MctsJobView:
    """Stop the search at its next progress tick (within 50 simulations)."""
    return _view(_jobs(request).cancel(job_id))


web.router.include_router(router)
