"""The Scrabble assistant's deep analysis as jobs: start, poll (fraction done, time left),
cancel.

A deep analysis runs the simulating player (:func:`~stratagem.games.scrabble.assistant.
deep_analysis`) on the assistant's position for a few seconds to a minute; the page starts
it with ``POST /api/scrabble/deep/jobs``, polls ``GET .../jobs/{id}`` and may ``DELETE``
it, as the Yahtzee Monte Carlo panel does with its searches (``web/yahtzee_mc.py``). A job
nobody polls for :data:`ABANDONED_AFTER` seconds (the page was closed, the client went
away) stops at its next deal and drops its result; a finished one is dropped after
:data:`KEEP_FINISHED` seconds, so a client that goes away leaves nothing behind.
"""

from __future__ import annotations

import secrets
import time
from dataclasses import dataclass
from typing import Annotated, Literal

from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from stratagem.games.scrabble.assistant import (
    DEEP_CANDIDATES,
    DEEP_CANDIDATES_RANGE,
    DEEP_SECONDS,
    DEEP_SECONDS_RANGE,
    MAX_POSITION_CHARS,
    DeepAnalysis,
    check_deep,
    deep_analysis,
    deep_position,
    deep_rows,
)
from stratagem.games.scrabble.sim import SimProgress
from stratagem.web.common import ErrorBody
from stratagem.web.jobs import JobTable, PollingJob, app_table
from stratagem.web.scrabble import (
    RACK_PATTERN,
    LaidTile,
    LexiconChoice,
    TilesName,
    _entry,
)
from stratagem.web.scrabble import router as scrabble_router

router = APIRouter()

MAX_RUNNING = 1
"""Deep analyses running at once on one server: each takes one of the heavy pool's threads
for up to a minute (the pool has two by default: the other stays free for the AI's moves
and the assistant's answers) and, with one tile in the bag, an endgame search's table of
about 50 MB."""
ABANDONED_AFTER = 10.0
"""Seconds without a poll after which a job stops (the page polls twice a second)."""
KEEP_FINISHED = 120.0
JOB_PATTERN = r"^deep-[A-Za-z0-9_-]{16,64}$"
JobId = Annotated[str, Path(pattern=JOB_PATTERN, description="a deep analysis job id")]


class DeepRequest(BaseModel):
    """A position for the assistant (as ``POST /api/scrabble/analyse`` takes it) and the
    simulation's budget."""

    model_config = ConfigDict(extra="forbid", strict=True)

    tiles: TilesName = "english"
    lexicon: LexiconChoice = "builtin"
    position: str = Field(min_length=1, max_length=MAX_POSITION_CHARS,
                          description="the position text format")  # fmt: skip
    rack: str | None = Field(
        None, pattern=RACK_PATTERN, description="rack (? for a blank); default: the position's"
    )
    unseen: str | None = Field(None, max_length=120, description="the unseen tiles, checked")
    scores: list[Annotated[int, Field(ge=0, le=100_000)]] | None = Field(
        None, min_length=2, max_length=2, description="the two scores, the position's order"
    )
    candidates: int = Field(DEEP_CANDIDATES, ge=DEEP_CANDIDATES_RANGE[0],
                            le=DEEP_CANDIDATES_RANGE[1],
                            description="the coach's top moves simulated")  # fmt: skip
    seconds: float = Field(DEEP_SECONDS, ge=DEEP_SECONDS_RANGE[0], le=DEEP_SECONDS_RANGE[1],
                           description="wall-clock seconds the simulation may take")  # fmt: skip


class DeepRow(BaseModel):
    action: str = Field(description="the CLI's notation with the score")
    move: str = Field(description="what to type to play it")
    kind: Literal["placement", "exchange", "pass"]
    static: float = Field(description="the coach's value (score + leave), in points")
    win: float = Field(ge=0.0, le=1.0, description="the simulation's estimate of winning")
    win_se: float = Field(ge=0.0, description="its standard error (0: every draw counted)")
    spread: float = Field(description="mean spread change over the deals (+ leaves kept)")
    spread_se: float = Field(ge=0.0)
    deals: int = Field(ge=0, description="deals this move was played over")
    pruned: bool = Field(description="dropped early: clearly behind the leader")
    exact: bool = Field(description="every draw of the bag enumerated (one tile in the bag)")
    endgames: int = Field(ge=0, description="endgames solved (one tile in the bag)")
    proved: int = Field(ge=0, description="of those, proved within the solver's node limit")
    tiles: list[LaidTile]


class DeepView(BaseModel):
    moves: list[DeepRow]
    deals: int = Field(ge=0)
    seconds: float = Field(ge=0.0)
    pre_endgame: bool = Field(description="one tile in the bag: the draws enumerated and each "
                              "endgame solved")  # fmt: skip
    stopped: Literal["finished", "budget", "cancelled"]
    candidates: int
    budget: float


class DeepJobView(BaseModel):
    id: str
    state: Literal["running", "ready", "cancelled", "failed"]
    done: int = Field(ge=0, description="deals done")
    total: int = Field(ge=0, description="deals at most (the time budget usually ends first)")
    fraction: float = Field(ge=0.0, le=1.0, description="done, counting the time budget")
    seconds: float = Field(ge=0.0, description="since the job started")
    seconds_left: float | None = Field(None, ge=0.0, description="at most, from the budget "
                                       "and the pace so far")  # fmt: skip
    message: str = ""
    result: DeepView | None = None


@dataclass(kw_only=True)
class _Job(PollingJob):
    budget: float
    progress: SimProgress | None = None
    result: DeepView | None = None


def _jobs(request: Request) -> JobTable[_Job]:
    return app_table(request, "scrabble_deep_jobs",
                     lambda: JobTable[_Job]("deep analysis", KEEP_FINISHED))  # fmt: skip


def _view(job: _Job) -> DeepJobView:
    p = job.progress
    left: float | None = None
    if job.state == "running":
        left = job.budget if p is None else p.seconds_left
    elif job.state == "ready":
        left = 0.0
    return DeepJobView(
        id=job.id, state=job.state, done=0 if p is None else p.done,  # type: ignore[arg-type]
        total=0 if p is None else p.total,
        fraction=1.0 if job.state == "ready" else 0.0 if p is None else p.fraction,
        seconds=job.seconds(), seconds_left=left, message=job.message,
        result=job.result,
    )  # fmt: skip


def deep_view(d: DeepAnalysis) -> DeepView:
    rows = [
        DeepRow(**{**row, "tiles": [LaidTile(row=r, col=c, letter=t) for r, c, t in row["tiles"]]})
        for row in deep_rows(d)
    ]
    return DeepView(moves=rows, deals=d.deals, seconds=d.seconds, pre_endgame=d.pre_endgame,
                    stopped=d.stopped, candidates=d.candidates,  # type: ignore[arg-type]
                    budget=d.budget)  # fmt: skip


@router.post(
    "/deep/jobs",
    status_code=202,
    responses={429: {"model": ErrorBody, "description": "too many analyses running"}},
)
def start_deep(request: Request, body: DeepRequest) -> DeepJobView:
    """Start a deep analysis in the background (the simulating player's ranking of the
    coach's top moves); poll it for progress and the ranking."""
    check_deep(body.candidates, body.seconds)
    entry = _entry(request, body.tiles, body.lexicon)
    # a bad position is refused now, not in the job
    deep_position(entry.lexicon, body.position, body.rack, body.unseen, body.scores)
    jobs = _jobs(request)
    job = jobs.add(
        lambda: _Job(id="deep-" + secrets.token_urlsafe(18), budget=float(body.seconds)),
        MAX_RUNNING,
        lambda running: (
            f"{running} deep analyses are running on this server (at most "
            f"{MAX_RUNNING}); wait for one to end or cancel yours"
        ),
    )

    def progress(p: SimProgress) -> None:
        job.progress = p
        job.message = ""

    def cancelled() -> bool:
        return job.should_stop(ABANDONED_AFTER, "stopped: nobody asked for it for {after:.0f} s")

    workers = request.app.state.settings.deep_workers

    def run() -> None:
        try:
            found = deep_analysis(entry.lexicon, body.position, body.rack, unseen=body.unseen,
                                  scores=body.scores, candidates=body.candidates,
                                  seconds=body.seconds, progress=progress,
                                  cancelled=cancelled, workers=workers)  # fmt: skip
        except Exception as exc:  # reported to the page, never raised in a thread
            job.state, job.message = "failed", f"{type(exc).__name__}: {exc}"
        else:
            if found.stopped == "cancelled":
                # abandoned: nobody will read it; cancelled by the player: the page shows
                # the ranking so far
                job.state = "cancelled"
                job.message = job.message or "cancelled by the player: the ranking so far"
                job.result = None if job.message.startswith("stopped") else deep_view(found)
            else:
                job.state, job.result = "ready", deep_view(found)
        job.finished = time.monotonic()

    jobs.start(job, run)
    return _view(job)


@router.get("/deep/jobs/{job_id}")
def deep_status(request: Request, job_id: JobId) -> DeepJobView:
    """How far the analysis got, the time left, and the ranking when it is ready."""
    return _view(_jobs(request).poll(job_id))


@router.delete("/deep/jobs/{job_id}")
def cancel_deep(request: Request, job_id: JobId) -> DeepJobView:
    """Stop the analysis at its next deal; its ranking so far stays readable."""
    return _view(_jobs(request).cancel(job_id))


scrabble_router.include_router(router)
