"""What every game's API shares: settings, error bodies, limits, worker pools, jobs.

* Every :class:`~stratagem.core.errors.StratagemError` becomes a 4xx JSON body
  ``{"detail": "..."}`` with its message (404 for a session never started, 410 for
  one evicted or expired, saying why; 429 or 503 with ``Retry-After`` when the
  server is busy or still compiling; 400 otherwise); request validation errors
  become 422 with the same shape, the message naming each bad field. Nothing a
  client sends is a 500.
* Request bodies are capped (:class:`BodySizeLimit`, 413); a method a path does
  not take is a 405 (:class:`MethodCheck`); a state change needs a JSON body or
  this server's ``Origin`` (:class:`SameSiteOnly`, 415/403).
* Work runs in two bounded pools of worker threads (:class:`Pool`): heavy work
  (:func:`run_heavy`: searches, solves, AI moves) and light work (:func:`run_light`:
  reads, hints), so a read never waits for a thread a search holds; a full pool,
  or a client over its share, is a 429. A request on one game's session runs
  under that session's lock (:func:`in_session`), reads included.
* Tables built for the first time run as background :class:`Jobs`, one at a
  time, whose progress a page can poll instead of waiting on one long request.
* See "Web layer limits" in docs/architecture.md for the numbers."""

from __future__ import annotations

import asyncio
import re
import threading
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from contextvars import ContextVar, copy_context
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal, TypeVar

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, BeforeValidator, Field
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from stratagem.core.errors import StratagemError
from stratagem.core.tables import no_custom_tables_saved, no_large_builds
from stratagem.web.sessions import (
    ID_PATTERN,
    SessionBusy,
    SessionGone,
    SessionNotFound,
    SessionStore,
)

T = TypeVar("T")
G = TypeVar("G")

HEAVY_THREADS = 2
"""Heavy jobs at once (searches, solves, builds: one per core of a small machine)."""
HEAVY_QUEUE = 6
"""Heavy jobs waiting for a thread; one more is a 429."""
HEAVY_PER_CLIENT = 2
"""Heavy jobs of one client (address) running or waiting; one more is a 429."""
LIGHT_THREADS = 8
"""Threads for reads and cheap moves (never taken by heavy work)."""
LIGHT_QUEUE = 64


@dataclass(frozen=True)
class WebSettings:
    """Server-side limits and options (``create_app``'s keyword arguments)."""

    lexicon: Path | None = None
    max_sessions: int = 500
    session_ttl_seconds: float = 3600.0
    max_body_bytes: int = 64 * 1024
    max_mcts_sims: int = 20_000
    heavy_threads: int = HEAVY_THREADS
    heavy_queue: int = HEAVY_QUEUE
    heavy_per_client: int = HEAVY_PER_CLIENT
    light_threads: int = LIGHT_THREADS
    light_queue: int = LIGHT_QUEUE
    sessions_per_client: int = 50
    """Games one client (address) keeps per game; starting one more ends its own oldest."""
    max_table_bytes: int = 256 << 20
    """Largest solved table a request may ask for (``GameSpec.table_bytes``, estimated
    before solving: a Pig variant's goal)."""
    solved_memo_bytes: int = 1 << 30
    """Solved tables kept in memory, shared by every session (least recently used dropped)."""
    deep_workers: int = 1
    """Processes a Scrabble deep analysis plays its deals in (``serve --deep-workers``):
    1 by default, since the heavy pool's threads are shared by every player; more on a
    machine with cores to spare (at most its cores; the same figures, more deals)."""
    tables: Literal["build", "cached", "off"] = "build"
    """Large tables (the Yahtzee remaining-score tables, about 1 GB): built when
    missing (``build``), only loaded when already in the cache (``cached``, for
    tests of the page), or never used (``off``)."""


class ServerBusy(StratagemError):
    """Too much work in progress (HTTP 429 with ``Retry-After``)."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class WarmingUp(StratagemError):
    """The compiled engine a request needs is still being prepared (HTTP 503 with
    ``Retry-After``)."""

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message)
        self.retry_after = retry_after


def probability(p: float) -> float:
    """``p`` clipped to [0, 1]: sums of probabilities come out a hair past the ends
    (1.0000000019), and a chance is reported as the chance it is.

    >>> probability(1.0000000019), probability(-1e-18), probability(0.5)
    (1.0, 0.0, 0.5)
    """
    return min(max(float(p), 0.0), 1.0)


def _near_probability(p: Any) -> Any:
    """Clip a number within 1e-6 of [0, 1]; leave anything else to the range check (a
    value far outside is a bug to report, not to hide)."""
    if isinstance(p, int | float) and -1e-6 <= p <= 1 + 1e-6:
        return probability(p)
    return p


Probability = Annotated[float, BeforeValidator(_near_probability), Field(ge=0.0, le=1.0)]
"""A reported chance: a response field constrained to [0, 1], rounding past the ends clipped."""


class ErrorBody(BaseModel):
    """The body of every 4xx answer."""

    detail: str = Field(description="what was wrong and what is allowed")


ERROR_RESPONSES: dict[int | str, dict[str, Any]] = {
    400: {"model": ErrorBody, "description": "bad input (the message names the problem)"},
    403: {"model": ErrorBody, "description": "a cross-site request (Origin of another site)"},
    404: {"model": ErrorBody, "description": "no such game session"},
    410: {"model": ErrorBody, "description": "the game session was evicted or expired"},
    413: {"model": ErrorBody, "description": "request body too large"},
    415: {"model": ErrorBody, "description": "a state-changing request without a JSON body"},
    422: {"model": ErrorBody, "description": "a field out of range or of the wrong type"},
    429: {"model": ErrorBody, "description": "too much work in progress; retry after the "
          "seconds in Retry-After"},
    503: {"model": ErrorBody, "description": "the game's engine is still being prepared; "
          "retry after the seconds in Retry-After"},
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
                store = stores[game] = SessionStore(cfg.max_sessions, cfg.session_ttl_seconds,
                                                    per_owner=cfg.sessions_per_client)  # fmt: skip
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
        return JSONResponse({"detail": str(exc)},
                            status_code=410 if isinstance(exc, SessionGone) else 404)  # fmt: skip

    async def on_busy(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, ServerBusy | WarmingUp | SessionBusy)
        return JSONResponse({"detail": str(exc)}, status_code=503 if isinstance(exc, WarmingUp)
                            else 429, headers={"Retry-After": str(exc.retry_after)})  # fmt: skip

    async def on_stratagem(request: Request, exc: Exception) -> JSONResponse:
        return JSONResponse({"detail": str(exc)}, status_code=400)

    async def on_validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return JSONResponse({"detail": _validation_message(exc)}, status_code=422)

    app.add_exception_handler(SessionNotFound, on_not_found)
    app.add_exception_handler(ServerBusy, on_busy)
    app.add_exception_handler(WarmingUp, on_busy)
    app.add_exception_handler(SessionBusy, on_busy)
    app.add_exception_handler(StratagemError, on_stratagem)
    app.add_exception_handler(RequestValidationError, on_validation)


class BodySizeLimit:
    """ASGI middleware refusing request bodies over ``max_bytes`` with 413."""

    def __init__(self, app: ASGIApp, max_bytes: int, larger: dict[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.larger = larger or {}
        """Paths that take larger bodies (importing a game record), with their limit."""

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        max_bytes = self.larger.get(scope.get("path", ""), self.max_bytes)
        too_big = JSONResponse(
            {"detail": f"request body over the limit of {max_bytes} bytes"}, status_code=413
        )
        for name, value in scope.get("headers", []):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = max_bytes + 1
                if declared > max_bytes:
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
                if seen > max_bytes:
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


class MethodCheck:
    """ASGI middleware answering 405 (with ``Allow``) to a method no route of the path
    takes, before anything else looks at the request. A path spelled out by a route
    (``/api/scorefour/new``) is that route's alone, though a route with a parameter
    (``/api/scorefour/{session_id}``) would also match it: ``GET /api/scorefour/new`` is
    a 405, not a 422 about a malformed session id."""

    def __init__(self, app: ASGIApp, paths: Callable[[], dict[str, set[str]]]) -> None:
        self.app = app
        self._paths = paths
        self.literal: dict[str, set[str]] | None = None
        self.patterns: list[tuple[re.Pattern[str], set[str]]] = []

    def _load(self) -> dict[str, set[str]]:
        """The API's paths and methods (from the OpenAPI document, read on first use)."""
        if self.literal is None:
            literal = {}
            for path, methods in self._paths().items():
                if "{" in path:
                    regex = "^" + re.sub(r"\\{[^}]+\\}", "[^/]+", re.escape(path)) + "$"
                    self.patterns.append((re.compile(regex), methods))
                else:
                    literal[path] = methods
            self.literal = literal
        return self.literal

    def allowed(self, path: str) -> set[str] | None:
        literal = self._load()
        if path in literal:
            return literal[path]
        found: set[str] = set()
        for regex, methods in self.patterns:
            if regex.match(path):
                found |= methods
        return found or None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            allowed = self.allowed(scope["path"])
            # OPTIONS too: this server grants no CORS preflight, and the answer names
            # every method of the path (the router's would name its first route's only)
            if allowed is not None and scope["method"] not in allowed \
                    and not (scope["method"] == "HEAD" and "GET" in allowed):  # fmt: skip
                refused = JSONResponse({"detail": "Method Not Allowed"}, status_code=405,
                                       headers={"Allow": ", ".join(sorted(allowed))})  # fmt: skip
                await refused(scope, receive, send)
                return
        await self.app(scope, receive, send)


class SameSiteOnly:
    """ASGI middleware refusing cross-site state changes.

    A page on another site can make the browser send a form or a ``text/plain`` POST here
    without asking; it cannot send ``Content-Type: application/json`` without a CORS
    preflight, which this server never grants. So a POST, PUT, PATCH or DELETE under
    ``/api/`` needs a JSON body, or an ``Origin`` naming this server (browsers send
    ``Origin`` with every POST), and an ``Origin`` of another site is refused outright:
    no other site can start a game, a search or a table build in a user's name.
    """

    STATE_CHANGING = frozenset({"POST", "PUT", "PATCH", "DELETE"})

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (scope["type"] != "http" or scope["method"] not in self.STATE_CHANGING
                or not scope["path"].startswith("/api/")):  # fmt: skip
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1").lower(): v.decode("latin-1")
                   for k, v in scope.get("headers", [])}  # fmt: skip
        origin = headers.get("origin")
        same_origin = False
        if origin is not None:
            host = headers.get("host", "").lower()
            netloc = origin.split("://", 1)[1].lower() if "://" in origin else ""
            same_origin = bool(host) and netloc.rstrip("/") == host
            if not same_origin:
                refused = JSONResponse({"detail": f"cross-site request refused: Origin "
                                        f"{origin[:100]!r} is not this server"}, status_code=403)
                await refused(scope, receive, send)
                return
        kind = headers.get("content-type", "").split(";", 1)[0].strip().lower()
        if not same_origin and kind != "application/json":
            refused = JSONResponse(
                {"detail": f"a {scope['method']} here needs a JSON body (Content-Type: "
                 f"application/json), not {kind or 'no body'!r}"}, status_code=415)  # fmt: skip
            await refused(scope, receive, send)
            return
        await self.app(scope, receive, send)


# --- pools of worker threads ---------------------------------------------------------------

CLIENT: ContextVar[str] = ContextVar("stratagem_client", default="local")
"""The address of the client whose request is being served (set by :class:`ClientAddress`)."""


GAME: ContextVar[str | None] = ContextVar("stratagem_game", default=None)
"""The game whose API the request in progress calls (``/api/<game>/...``)."""
WARMUP: ContextVar[Any] = ContextVar("stratagem_warmup", default=None)
"""The app's kernel warm-up (:class:`stratagem.web.warmup.Warmup`), if it runs one."""


def current_client() -> str:
    """The client address of the request in progress (``"local"`` outside a request)."""
    return CLIENT.get()


class RequestContext:
    """ASGI middleware that records each request's client address (:data:`CLIENT`) and
    the app's pools (:data:`POOLS`), so limits per client apply wherever work starts."""

    def __init__(self, app: ASGIApp, pools: Pools, warmup: Any = None) -> None:
        self.app = app
        self.pools = pools
        self.warmup = warmup

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            client = scope.get("client")
            parts = scope["path"].split("/")
            token = CLIENT.set(str(client[0]) if client else "unknown")
            token_pools = POOLS.set(self.pools)
            token_game = GAME.set(parts[2] if len(parts) > 2 and parts[1] == "api" else None)
            token_warmup = WARMUP.set(self.warmup)
            try:
                # a person waits: large tables are background jobs; a client's own variants
                # stay in memory, only presets go to the disk cache
                with no_large_builds(), no_custom_tables_saved():
                    await self.app(scope, receive, send)
            finally:
                WARMUP.reset(token_warmup)
                GAME.reset(token_game)
                POOLS.reset(token_pools)
                CLIENT.reset(token)
        else:
            await self.app(scope, receive, send)


class Pool:
    """A bounded pool of worker threads: ``threads`` jobs run at once, ``queue`` more wait;
    one more is refused with :class:`ServerBusy` (429 and a retry time), as is a client's
    job beyond ``per_client`` of its own running or waiting.

    Heavy and cheap work live in different pools, so a read never waits for a thread that a
    search holds.
    """

    def __init__(self, name: str, threads: int, queue: int, per_client: int | None,
                 retry_seconds: int) -> None:  # fmt: skip
        if threads < 1 or queue < 0:
            raise StratagemError(f"pool {name}: threads must be >= 1 and queue >= 0")
        self.name = name
        self.threads = threads
        self.queue = queue
        self.per_client = per_client
        self.retry_seconds = retry_seconds
        self._executor = ThreadPoolExecutor(threads, thread_name_prefix=f"stratagem-{name}")
        self._lock = threading.Lock()
        self._jobs = 0
        self._by_client: Counter[str] = Counter()

    @property
    def jobs(self) -> int:
        """Jobs running or waiting."""
        with self._lock:
            return self._jobs

    def _admit(self, client: str) -> None:
        with self._lock:
            if self._jobs >= self.threads + self.queue:
                raise ServerBusy(
                    f"the server is busy: {self._jobs} {self.name} jobs are running or waiting "
                    f"(at most {self.threads} at once and {self.queue} waiting); "
                    f"try again in {self.retry_seconds} s",
                    self.retry_seconds,
                )
            if self.per_client is not None and self._by_client[client] >= self.per_client:
                raise ServerBusy(
                    f"you already have {self._by_client[client]} {self.name} jobs running or "
                    f"waiting (at most {self.per_client} per client); try again when they end",
                    self.retry_seconds,
                )
            self._jobs += 1
            self._by_client[client] += 1

    def _release(self, client: str) -> None:
        with self._lock:
            self._jobs -= 1
            self._by_client[client] -= 1
            if self._by_client[client] <= 0:
                del self._by_client[client]

    def submit(self, fn: Callable[..., T], *args: Any) -> Future[T]:
        """``fn(*args)`` queued in one of the pool's threads, counted against the current
        client until it ends (refused when the pool or the client's share is full); for
        work that outlives its request, such as a Monte Carlo search job."""
        client = current_client()
        self._admit(client)
        ctx = copy_context()
        try:
            future = self._executor.submit(ctx.run, fn, *args)
        except BaseException:
            self._release(client)
            raise
        # released when the job ends, not when the request does (a client that hangs up
        # does not free a thread that still computes)
        future.add_done_callback(lambda _f: self._release(client))
        return future

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in one of the pool's threads (refused when the pool is full)."""
        return await asyncio.wrap_future(self.submit(fn, *args))

    def shutdown(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)


@dataclass
class Pools:
    """The two pools of an app: ``heavy`` (searches, solves, table builds, Scrabble's AI
    and endgame) and ``light`` (reads and cheap moves)."""

    heavy: Pool
    light: Pool


def make_pools(cfg: WebSettings) -> Pools:
    return Pools(
        heavy=Pool("heavy", cfg.heavy_threads, cfg.heavy_queue, cfg.heavy_per_client, 5),
        light=Pool("light", cfg.light_threads, cfg.light_queue, None, 1),
    )


_DEFAULT_POOLS: list[Pools] = []
POOLS: ContextVar[Pools | None] = ContextVar("stratagem_pools", default=None)
"""The pools of the app serving the request in progress (set by :class:`RequestContext`)."""


def current_pools() -> Pools:
    """The pools of the app serving this request (a default pair outside any app)."""
    found = POOLS.get()
    if found is None:
        if not _DEFAULT_POOLS:
            _DEFAULT_POOLS.append(make_pools(WebSettings()))
        found = _DEFAULT_POOLS[0]
    return found


async def run_heavy(fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)`` in the heavy pool (429 when it or the client's share is full;
    503 while the game's kernels are still being compiled at start-up)."""
    warmup = WARMUP.get()
    if warmup is not None:
        warmup.check(GAME.get())
    return await current_pools().heavy.run(fn, *args)


def submit_heavy(fn: Callable[..., T], *args: Any) -> Future[T]:
    """Queue ``fn(*args)`` in the heavy pool without waiting for it, under the same
    limits and warm-up check as :func:`run_heavy`."""
    warmup = WARMUP.get()
    if warmup is not None:
        warmup.check(GAME.get())
    return current_pools().heavy.submit(fn, *args)


async def run_light(fn: Callable[..., T], *args: Any) -> T:
    """Run ``fn(*args)`` in the light pool, which heavy work never occupies."""
    return await current_pools().light.run(fn, *args)


async def new_session(
    store: SessionStore, make: Callable[[], G], view: Callable[[str, G], T], *,
    heavy: bool = True,
) -> T:  # fmt: skip
    """``view(session_id, game)`` of a new game: ``make()`` builds it off the event loop
    (in the heavy pool unless ``heavy=False``) and the store keeps it under a fresh
    session id, counted against the client's share."""
    owner = current_client()

    def work() -> T:
        game = make()
        return view(store.create(game, owner=owner), game)

    return await (run_heavy(work) if heavy else run_light(work))


async def in_session(
    store: SessionStore, session_id: str, kind: type[G], view: Callable[[G], T], *,
    heavy: bool = False,
) -> T:  # fmt: skip
    """``view(game)`` of the session's game, under the session's lock, off the event loop.

    What a request on one game does: open the session (404 if it is unknown, 410 if it was
    evicted or expired), hold its lock so that one request at a time reads or changes it
    (a read never sees a move half made), and build the answer in a worker thread: the
    heavy pool for ``heavy`` work (an AI's search), else the light pool. A request that
    cannot have the lock within :data:`~stratagem.web.sessions.LOCK_WAIT` seconds is a 429.
    """

    def work() -> T:
        with store.use(session_id, kind) as game:
            return view(game)

    return await (run_heavy(work) if heavy else run_light(work))


# --- background jobs ---------------------------------------------------------------------


class JobStatus(BaseModel):
    """A background build: what it is, how far it got, whether it failed or was cancelled."""

    key: str
    state: Literal["missing", "building", "ready", "failed", "cancelled"]
    progress: Probability | None = Field(None, description="fraction done, if known")
    message: str = ""
    seconds: float = Field(0.0, ge=0.0)


class JobCancelled(StratagemError):
    """Raised inside a build (by its progress callback) once the job is cancelled: the
    build unwinds there, so whatever it holds is freed and a half-written cache file is
    removed (:meth:`stratagem.core.tables.TableCache.load_or_build_mapped` aborts it)."""


@dataclass
class _Job:
    key: str
    state: str = "building"
    progress: float | None = None
    message: str = ""
    started: float = field(default_factory=time.monotonic)
    finished: float | None = None
    result: Any = None
    cancel: threading.Event = field(default_factory=threading.Event)
    why: str = ""
    running: bool = False
    lease: float | None = None
    seen: float = field(default_factory=time.monotonic)


ProgressFn = Callable[[float, str], None]


class Jobs:
    """Background builds by key: started once, polled by pages, the result kept.

    ``start(key, build)`` runs ``build(progress)`` in the builds' own pool unless a
    job of that key exists; ``progress(fraction, message)`` records how far it got.
    Builds run one at a time (``max_builds``): each may take a gigabyte and minutes,
    so a client asking for every rule set's tables queues them rather than running
    them at once; a queued job says what it waits for.

    ``cancel(key)`` stops a job: a queued one at once, a running one at its next
    ``progress`` call, which raises :class:`JobCancelled` inside the build. A job
    started with a ``lease`` (seconds) is cancelled the same way when nobody has read
    its status for that long: the page polls it every second while it shows the
    build, so a page that was closed or lost its connection stops the build it
    started instead of leaving it to take a core and a gigabyte for minutes.
    """

    def __init__(self, max_builds: int = 1, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock  # the leases' and the timings' clock (a test's own, to be exact)
        self._jobs: dict[str, _Job] = {}
        self._lock = threading.Lock()
        self._builds = threading.BoundedSemaphore(max_builds)

    def status(self, key: str) -> JobStatus:
        """How the job is doing (reading it renews the job's lease)."""
        with self._lock:
            job = self._jobs.get(key)
            if job is None:
                return JobStatus(key=key, state="missing", progress=None, seconds=0.0)
            job.seen = self._clock()
            return self._status_locked(job)

    def result(self, key: str) -> Any:
        """The finished job's result, or ``None`` while missing, building, failed or
        cancelled."""
        with self._lock:
            job = self._jobs.get(key)
            return job.result if job is not None and job.state == "ready" else None

    def put(self, key: str, result: Any) -> None:
        """Record a result obtained without a build (e.g. loaded from the cache)."""
        with self._lock:
            now = self._clock()
            self._jobs[key] = _Job(key, "ready", 1.0, "ready", now, now, result)

    def cancel(self, key: str, why: str = "cancelled on request") -> JobStatus:
        """Stop the job ``key`` if it is building (a finished one is left as it is)."""
        with self._lock:
            job = self._jobs.get(key)
            if job is None:
                return JobStatus(key=key, state="missing", progress=None, seconds=0.0)
            if job.state != "building":
                return self._status_locked(job)
            job.why = why
            job.cancel.set()
            if not job.running:  # queued: it will never start
                self._end_cancelled(job)
            return self._status_locked(job)

    def _end_cancelled(self, job: _Job) -> None:
        job.state, job.message, job.result = "cancelled", job.why, None
        job.finished = self._clock()

    def start(
        self, key: str, build: Callable[[ProgressFn], Any], lease: float | None = None
    ) -> JobStatus:
        with self._lock:
            job = self._jobs.get(key)
            if job is not None and job.state in ("building", "ready"):
                return self._status_locked(job)
            now = self._clock()
            job = self._jobs[key] = _Job(key, started=now, lease=lease, seen=now)

        def progress(fraction: float, message: str) -> None:
            idle = self._clock() - job.seen
            if job.lease is not None and idle > job.lease and not job.cancel.is_set():
                job.why = f"stopped: nobody asked for it for {idle:.0f} s (the page was closed)"
                job.cancel.set()
            if job.cancel.is_set():
                raise JobCancelled(job.why)
            job.progress = min(max(float(fraction), 0.0), 1.0)
            job.message = message

        def run() -> None:
            try:
                result = build(progress)
            except JobCancelled:
                with self._lock:
                    self._end_cancelled(job)
                return
            except Exception as exc:  # reported to the page, never raised in a thread
                job.state, job.message = "failed", f"{type(exc).__name__}: {exc}"
            else:
                if job.cancel.is_set():  # cancelled after its last progress call
                    with self._lock:
                        self._end_cancelled(job)
                    return
                job.result, job.state, job.progress = result, "ready", 1.0
            job.finished = self._clock()

        with self._lock:
            ahead = [k for k, j in self._jobs.items() if j.state == "building" and k != key]
        if ahead:
            job.message = f"waiting for another table build to end ({', '.join(ahead)})"

        def run_in_turn() -> None:  # a daemon thread: a build never delays the server's exit
            with self._builds:
                with self._lock:
                    if job.cancel.is_set():
                        return  # cancelled while queued (already marked)
                    job.running = True
                run()

        threading.Thread(target=run_in_turn, name=f"stratagem-job-{key}", daemon=True).start()
        return self.status(key)

    def _status_locked(self, job: _Job) -> JobStatus:
        end = job.finished if job.finished is not None else self._clock()
        return JobStatus(key=job.key, state=job.state, progress=job.progress,  # type: ignore[arg-type]
                         message=job.message, seconds=max(0.0, end - job.started))  # fmt: skip


def jobs(request: Request) -> Jobs:
    """The app's background jobs."""
    value: Jobs = request.app.state.jobs
    return value


# --- OpenAPI links -----------------------------------------------------------------------


def add_session_links(schema: dict[str, Any]) -> dict[str, Any]:
    """Declare, in an OpenAPI document, a link from every operation that starts a game
    session (a POST without path parameters whose answer has an ``id``) to every operation
    of the same game that takes the session id, passing ``$response.body#/id``: clients
    and fuzzers (schemathesis's stateful phase) then know how the operations chain.
    A POST that starts a job (``/api/yahtzee/mcts/jobs``, a 202) links the same way to the
    operations of the paths below it that take the job's id (``.../jobs/{job_id}``)."""
    paths: dict[str, dict[str, Any]] = schema.get("paths", {})
    components = schema.get("components", {}).get("schemas", {})

    def success(op: dict[str, Any]) -> str | None:
        """The operation's 2xx status (FastAPI documents one)."""
        return next((code for code in op.get("responses", {}) if code.startswith("2")), None)

    def answer_has_id(op: dict[str, Any]) -> bool:
        code = success(op)
        content = op["responses"][code].get("content", {}) if code else {}
        ref = content.get("application/json", {}).get("schema", {}).get("$ref", "")
        model = components.get(ref.rsplit("/", 1)[-1], {})
        return "id" in model.get("properties", {})

    def id_param(op: dict[str, Any], path: str, below: str) -> str | None:
        """The parameter naming the segment below ``below``, or (``below`` empty) the
        session id parameter."""
        for p in op.get("parameters", []):
            if p.get("in") != "path":
                continue
            if below and path.startswith(below + "/{" + str(p["name"]) + "}"):
                return str(p["name"])
            if not below and p.get("schema", {}).get("pattern") == ID_PATTERN:
                return str(p["name"])
        return None

    def links_to(prefix: str, below: str) -> dict[str, Any]:
        links: dict[str, Any] = {}
        for other_path, other_ops in paths.items():
            if not other_path.startswith(prefix):
                continue
            for method, op in other_ops.items():
                name = id_param(op, other_path, below)
                if name is None or "operationId" not in op:
                    continue
                links[f"{method.upper()} {other_path}"] = {
                    "operationId": op["operationId"],
                    "parameters": {name: "$response.body#/id"},
                }
        return links

    for path, ops in paths.items():
        parts = path.split("/")
        if len(parts) < 3 or "{" in path or "post" not in ops or not answer_has_id(ops["post"]):
            continue
        # a job's own paths if it has them, else the game's session operations
        links = links_to(path + "/", path) or links_to("/".join(parts[:3]) + "/", "")
        if links:
            ops["post"]["responses"][success(ops["post"])]["links"] = links
    return schema
