"""What every game's API shares: settings, error bodies, size limits, heavy work, jobs.

* Every :class:`~stratagem.core.errors.StratagemError` becomes a 4xx JSON body
  ``{"detail": "..."}`` with its message (404 for an unknown session, 400
  otherwise); request validation errors become 422 with the same shape, the
  message naming each bad field. Nothing a client sends is a 500.
* Request bodies are capped (:class:`BodySizeLimit`, 413).
* Heavy work runs in worker threads (:func:`run_heavy`), at most
  ``HEAVY_THREADS`` at once, so the event loop keeps serving; a request on one
  game's session runs under that session's lock (:func:`in_session`).
* Tables built for the first time run as background :class:`Jobs` whose
  progress a page can poll instead of waiting on one long request.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal, TypeVar

import anyio
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from stratagem.core.errors import StratagemError
from stratagem.web.sessions import SessionNotFound, SessionStore

T = TypeVar("T")
G = TypeVar("G")

HEAVY_THREADS = 4
"""Worker threads for heavy work at once (the machine's cores are few)."""


@dataclass(frozen=True)
class WebSettings:
    """Server-side limits and options (``create_app``'s keyword arguments)."""

    lexicon: Path | None = None
    max_sessions: int = 500
    session_ttl_seconds: float = 3600.0
    max_body_bytes: int = 64 * 1024
    max_mcts_sims: int = 20_000
    tables: Literal["build", "cached", "off"] = "build"
    """Large tables (the Yahtzee remaining-score tables, about 1 GB): built when
    missing (``build``), only loaded when already in the cache (``cached``, for
    tests of the page), or never used (``off``)."""


class ErrorBody(BaseModel):
    """The body of every 4xx answer."""

    detail: str = Field(description="what was wrong and what is allowed")


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "bad input (the message names the problem)"},
    404: {"model": ErrorBody, "description": "unknown or expired game session"},
    413: {"model": ErrorBody, "description": "request body too large"},
    422: {"model": ErrorBody, "description": "a field out of range or of the wrong type"},
}
"""``responses=`` for every game router, so /openapi.json documents the 4xx bodies."""


def settings(request: Request) -> WebSettings:
    """The app's :class:`WebSettings`."""
    value: WebSettings = request.app.state.settings
    return value


def sessions(request: Request, game: str) -> SessionStore:
    """The session store of ``game`` (one bounded store per game)."""
    stores: dict[str, SessionStore] = request.app.state.sessions
    store = stores.get(game)
    if store is None:
        with request.app.state.lock:
            store = stores.get(game)
            if store is None:
                cfg = settings(request)
                store = stores[game] = SessionStore(cfg.max_sessions, cfg.session_ttl_seconds)
    return store


def _validation_message(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err.get("loc", ()) if p not in ("body", "query", "path"))
        msg = str(err.get("msg", "invalid"))
        parts.append(f"{loc}: {msg}" if loc else msg)
    return "; ".join(parts) or "invalid request"


def install_error_handlers(app: FastAPI) -> None:
    """Map errors to ``{"detail": "..."}`` 4xx answers."""

    async def on_not_found(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=404)

    async def on_stratagem(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return JSONResponse({"detail": _validation_message(exc)}, status_code=422)

    app.add_exception_handler(SessionNotFound, on_not_found)
    app.add_exception_handler(StratagemError, on_stratagem)
    app.add_exception_handler(RequestValidationError, on_validation)


class BodySizeLimit:
    """ASGI middleware refusing request bodies over ``max_bytes`` with 413."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = JSONResponse(
            {"detail": f"request body over the limit of {self.max_bytes} bytes"}, status_code=413
        )
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = self.max_bytes + 1
                if declared > self.max_bytes:
                    await too_big(scope, receive, send)
                    return
        seen = 0
        started = False

        class TooLarge(Exception):
            pass

        async def limited_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise TooLarge
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, limited_receive, tracking_send)
        except TooLarge:
            if not started:
                await too_big(scope, receive, send)


_LIMITER: anyio.CapacityLimiter | None = None


async def run_heavy(fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)`` in a worker thread (at most ``HEAVY_THREADS`` at once)."""
    global _LIMITER
    if _LIMITER is None:
        _LIMITER = anyio.CapacityLimiter(HEAVY_THREADS)
    return await anyio.to_thread.run_sync(lambda: fn(*args), limiter=_LIMITER)


async def new_session(
    store: SessionStore, make: Callable[[], G], view: Callable[[str, G], T]
) -> T:
    """``view(session_id, game)`` of a new game: ``make()`` builds it off the event loop
    and the store keeps it under a fresh session id."""

    def work() -> T:
        game = make()
        return view(store.create(game), game)

    return await run_heavy(work)


async def in_session(
    store: SessionStore, session_id: str, kind: type[G], view: Callable[[G], T]
) -> T:
    """``view(game)`` of the session's game, under the session's lock, off the event loop.

    What a request on one game does: open the session (404 if it is unknown or
    of another kind), hold its lock so that one request at a time changes it,
    and build the answer in a worker thread (:func:`run_heavy`).
    """

    def work() -> T:
        with store.use(session_id, kind) as game:
            return view(game)

    return await run_heavy(work)


# --- background jobs ---------------------------------------------------------------------


class JobStatus(BaseModel):
    """A background build: what it is, how far it got, whether it failed."""

    key: str
    state: Literal["missing", "building", "ready", "failed"]
    progress: float | None = Field(None, ge=0.0, le=1.0, description="fraction done, if known")
    message: str = ""
    seconds: float = Field(0.0, ge=0.0)


@dataclass
class _Job:
    key: str
    state: str = "building"
    progress: float | None = None
    message: str = ""
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    result: Any = None


ProgressFn = Callable[[float, str], None]


class Jobs:
    """Background builds by key: started once, polled by pages, the result kept.

    ``start(key, build)`` runs ``build(progress)`` in a daemon thread unless a
    job of that key exists; ``progress(fraction, message)`` records how far it got.
    """

    def __init__(self) -> None:
        self._jobs: dict[str, _Job] = {}
        self._lock = threading.Lock()

    def status(self, key: str) -> JobStatus:
        with self._lock:
            job = self._jobs.get(key)
            if job is None:
                return JobStatus(key=key, state="missing", progress=None, seconds=0.0)
            end = job.finished if job.finished is not None else time.monotonic()
            return JobStatus(
                key=key,
                state=job.state,  # type: ignore[arg-type]
                progress=job.progress,
                message=job.message,
                seconds=max(0.0, end - job.started),
            )

    def result(self, key: str) -> Any:
        """The finished job's result, or ``None`` while missing, building or failed."""
        with self._lock:
            job = self._jobs.get(key)
            return job.result if job is not None and job.state == "ready" else None

    def put(self, key: str, result: Any) -> None:
        """Record a result obtained without a build (e.g. loaded from the cache)."""
        with self._lock:
            self._jobs[key] = _Job(key, "ready", 1.0, "ready", finished=time.monotonic(),
                                   result=result)  # fmt: skip

    def start(self, key: str, build: Callable[[ProgressFn], Any]) -> JobStatus:
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and job.state in ("building", "ready"):
                return self._status_locked(job)
            job = self._jobs[key] = _Job(key)

        def progress(fraction: float, message: str) -> None:
            job.progress = min(max(float(fraction), 0.0), 1.0)
            job.message = message

        def run() -> None:
            try:
                result = build(progress)
            except Exception as exc:  # reported to the page, never raised in a thread
                job.state, job.message = "failed", f"{type(exc).__name__}: {exc}"
            else:
                job.result, job.state, job.progress = result, "ready", 1.0
            job.finished = time.monotonic()

        threading.Thread(target=run, name=f"stratagem-job-{key}", daemon=True).start()
        return self.status(key)

    def _status_locked(self, job: _Job) -> JobStatus:
        end = job.finished if job.finished is not None else time.monotonic()
        return JobStatus(key=job.key, state=job.state, progress=job.progress,  # type: ignore[arg-type]
                         message=job.message, seconds=max(0.0, end - job.started))  # fmt: skip


def jobs(request: Request) -> Jobs:
    """The app's background jobs."""
    value: Jobs = request.app.state.jobs
    return value
