"""The FastAPI app: the one REST shape of every game (:mod:`stratagem.web.play`), each
game's own extras, the static pages, the limits.

The games come from the registry (:func:`~stratagem.core.registry.available_games`): a
game's extras router is ``stratagem.web.<game>`` when that module exists, its page
``static/<game>.html`` when that file exists (else the generic ``/play?game=<game>``).

>>> paths = create_app().openapi()["paths"]
>>> "/api/sessions/{sid}/move" in paths, "/api/pig/sessions/{sid}/map" in paths
(True, True)
"""

from __future__ import annotations

import importlib
import importlib.util
import re
import threading
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, Literal

from fastapi import APIRouter, FastAPI, HTTPException
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

from stratagem import __version__
from stratagem.core.errors import StratagemError
from stratagem.core.registry import GameSpec, Param, available_games, load_game
from stratagem.core.store import GameStore
from stratagem.core.tables import SolvedMemo
from stratagem.web.common import (
    BodySizeLimit,
    Jobs,
    MethodCheck,
    RequestContext,
    SameSiteOnly,
    WebSettings,
    add_session_links,
    install_error_handlers,
    make_pools,
)
from stratagem.web.play import IMPORT_BODY_BYTES, PlayRoom
from stratagem.web.play import router as play_router
from stratagem.web.sessions import SessionStore
from stratagem.web.warmup import WARMERS, Warmup

STATIC = Path(__file__).with_name("static")
_PAGE = re.compile(r"^[a-z0-9_-]{1,40}$")


class ParamInfo(BaseModel):
    """One typed parameter of an agent or of the rules (the registry's ``Param``)."""

    name: str
    type: Literal["int", "float", "bool", "str"]
    kind: str = Field(description="type and range in words, e.g. 'whole number 1..100'")
    default: int | float | str | bool | None = None
    min: int | float | None = None
    max: int | float | None = None
    low_open: bool = False
    choices: list[str] = Field(default_factory=list)
    required: bool = False
    help: str = ""


class AgentOffer(BaseModel):
    name: str
    summary: str
    usage: str
    positional: str | None = None
    min_players: int = Field(ge=1)
    params: list[ParamInfo]


class GameInfo(BaseModel):
    """A game as the start page, the navigation and the pages' opponent lists show it."""

    name: str
    title: str
    summary: str = ""
    page: str = Field(description="/<name> when the game has a page of its own, else /play?game=")
    api: str = Field(description="the game's own extras (/api/<name>), or the sessions API")
    presets: list[str]
    default_rules: str
    rule_params: list[ParamInfo]
    min_players: int = Field(ge=1)
    max_players: int = Field(ge=1)
    result: str
    agents: list[AgentOffer]
    unit: dict[str, Any] | None = None
    has_coaching: bool
    record_formats: list[str]


class Health(BaseModel):
    status: str
    version: str
    games: list[GameInfo]
    engines: dict[str, Literal["waiting", "warming", "ready", "failed"]] = Field(
        default_factory=dict,
        description="start-up compilation of each game's engines (empty when not warmed)",
    )


def game_routers() -> dict[str, APIRouter]:
    """``router`` of every ``stratagem.web.<game>`` module that exists, by game of the
    registry."""
    routers = {}
    for game in available_games():
        try:
            found = importlib.util.find_spec(f"stratagem.web.{game}")
        except (ImportError, ValueError):
            found = None
        if found is None:
            continue
        module = importlib.import_module(f"stratagem.web.{game}")
        routers[game] = module.router
    return routers


def game_warmers(routers: Mapping[str, APIRouter]) -> dict[str, Callable[[], None]]:
    """Each game's start-up warm-up: its extras module's ``warm()`` if it declares one,
    else the one :data:`~stratagem.web.warmup.WARMERS` holds for it; the known ones
    first (cheapest first), then the others."""
    found: dict[str, Callable[[], None]] = {}
    # a game without an extras router (Score Four: its page is all /api/sessions) keeps
    # the warm-up WARMERS holds for it
    for game in [*WARMERS, *(g for g in routers if g not in WARMERS)]:
        module = importlib.import_module(f"stratagem.web.{game}") if game in routers else None
        warm = getattr(module, "warm", None)
        if callable(warm):
            found[game] = warm
        elif game in WARMERS:
            found[game] = WARMERS[game]
    return found


def _param(p: Param) -> ParamInfo:
    return ParamInfo(
        name=p.name, type=p.type.__name__, kind=p.kind(), default=p.default,  # type: ignore[arg-type]
        min=p.low, max=p.high, low_open=p.low_open, choices=list(p.choices),
        required=p.required, help=p.help,
    )  # fmt: skip


def game_info(spec: GameSpec, routers: Mapping[str, APIRouter]) -> GameInfo:
    """What ``GET /api/games`` says of one game, all of it from its registry spec."""
    from stratagem.web.play import record_formats

    unit = None
    if spec.coaching is not None:
        unit = spec.coaching(spec.rules_object(spec.default_rules)).unit.to_json()
    own_page = (STATIC / f"{spec.name}.html").is_file()
    return GameInfo(
        name=spec.name,
        title=spec.display_title,
        summary=spec.summary,
        page=f"/{spec.name}" if own_page else f"/play?game={spec.name}",
        api=f"/api/{spec.name}" if spec.name in routers else "/api/sessions",
        presets=list(spec.presets),
        default_rules=spec.default_rules,
        rule_params=[_param(p) for p in spec.rule_params],
        min_players=spec.min_players,
        max_players=spec.max_players,
        result=spec.result,
        agents=[
            AgentOffer(
                name=a.name,
                summary=a.summary,
                usage=a.usage(),
                positional=a.positional,
                min_players=a.min_players,
                params=[_param(p) for p in a.params],
            )
            for a in spec.agents.values()
        ],
        unit=unit,
        has_coaching=spec.coaching is not None,
        record_formats=["json", *sorted(record_formats(spec))],
    )


def create_app(
    *,
    lexicon: Path | None = None,
    data: Path | str | GameStore | None = None,
    max_sessions: int = 500,
    session_ttl_seconds: float = 3600.0,
    max_body_bytes: int = 64 * 1024,
    max_mcts_sims: int = 20_000,
    tables: Literal["build", "cached", "off"] = "build",
    warm_kernels: bool = False,
    **limits: int,
) -> FastAPI:
    """The web app. ``lexicon`` is a server-side Scrabble word list (never a client's path);
    ``data`` is the folder of the games database (``serve --data DIR``; a
    :class:`~stratagem.core.store.GameStore` itself; ``None``: games are kept in memory only);
    ``tables`` says whether large tables are built, only loaded from the cache, or off;
    ``warm_kernels`` compiles (or loads) every game's numba kernels in a background thread
    at start-up, and requests that need a kernel not yet ready answer 503 with a retry
    time (``stratagem serve`` turns it on). ``limits`` override :class:`WebSettings`'
    pool sizes and per-client limits (``heavy_threads=1``, ``sessions_per_client=5``...)."""
    if lexicon is not None:
        from stratagem.games.scrabble.lexicon import check_word_list

        lexicon = check_word_list(lexicon)  # a bad file fails at startup, not per request
    if tables not in ("build", "cached", "off"):
        raise StratagemError(f"tables must be build, cached or off, not {tables!r}")
    known = set(WebSettings.__dataclass_fields__) - {"lexicon", "tables"}
    for name in limits:
        if name not in known:
            raise StratagemError(f"unknown server limit {name!r}; known: {sorted(known)}")
    for name, value in (("max_sessions", max_sessions), ("max_body_bytes", max_body_bytes),
                        ("max_mcts_sims", max_mcts_sims), *limits.items()):  # fmt: skip
        if value < (0 if name in ("heavy_queue", "light_queue") else 1):
            raise StratagemError(f"{name} must be at least 1, got {value}")
    if "deep_workers" in limits:
        from stratagem.games.scrabble.sim import check_workers

        check_workers(limits["deep_workers"])
    app = FastAPI(
        title="Stratagem",
        version=__version__,
        description="Play against strong strategies, or play with them as a coach: "
        "every game of the registry (GET /api/games lists them).",
        # Swagger UI and ReDoc load from a CDN; every asset here must work offline.
        docs_url=None,
        redoc_url=None,
    )
    app.state.settings = WebSettings(
        lexicon=Path(lexicon) if lexicon is not None else None,
        max_sessions=max_sessions,
        session_ttl_seconds=session_ttl_seconds,
        max_body_bytes=max_body_bytes,
        max_mcts_sims=max_mcts_sims,
        tables=tables,
        **limits,
    )
    app.state.sessions = {}
    store = (
        data
        if isinstance(data, GameStore)
        else GameStore(None)
        if data is None
        else (GameStore.in_folder(data))
    )
    cfg = app.state.settings
    app.state.play = PlayRoom(
        store,
        SessionStore(cfg.max_sessions, cfg.session_ttl_seconds, per_owner=cfg.sessions_per_client),
    )
    app.state.pools = make_pools(app.state.settings)
    app.state.solved = SolvedMemo(app.state.settings.solved_memo_bytes)
    app.state.jobs = Jobs()
    app.state.lock = threading.Lock()
    install_error_handlers(app)
    app.add_middleware(SameSiteOnly)  # inside the size limit: an oversized body is a 413
    app.add_middleware(
        BodySizeLimit,
        max_bytes=max_body_bytes,
        larger={"/api/sessions/import": max(max_body_bytes, IMPORT_BODY_BYTES)},
    )
    app.state.warmup = Warmup()
    app.add_middleware(RequestContext, pools=app.state.pools, warmup=app.state.warmup)

    # before the games' routers: Score Four's and Scrabble's /api/<game>/{session_id} would take it
    app.include_router(importlib.import_module("stratagem.web.rules").router)
    app.include_router(play_router)  # before the games': /api/sessions is no game's
    app.include_router(importlib.import_module("stratagem.web.review").router)
    routers = game_routers()
    for router in routers.values():
        app.include_router(router)
    if warm_kernels:
        warmers = game_warmers(routers)
        app.state.warmup.start(warmers, warmers)
    games: list[GameInfo] = []

    @app.get("/api/games", tags=["site"])
    def list_games() -> Health:
        """The games this server offers (from the registry: titles, pages, presets, rule
        parameters, agents with their typed parameters, the unit of their coaching), and
        how far each game's engines are prepared."""
        with app.state.lock:
            if not games:
                games.extend(game_info(load_game(g), routers) for g in available_games())
        return Health(status="ok", version=__version__, games=games,
                      engines=app.state.warmup.states())  # fmt: skip

    app.add_middleware(
        MethodCheck,
        paths=lambda: {  # outermost: a 405 first
            path: {m.upper() for m in ops} for path, ops in app.openapi()["paths"].items()
        },
    )

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/", include_in_schema=False)
    def index() -> FileResponse:
        return FileResponse(STATIC / "index.html")

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        return FileResponse(STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.get("/{page}", include_in_schema=False)
    def page(page: str) -> Any:
        path = STATIC / f"{page}.html"
        if not _PAGE.match(page) or not path.is_file():
            raise HTTPException(404, f"no page /{page}; the start page is /")
        return FileResponse(path)

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = add_session_links(FastAPI.openapi(app))
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]

    async def http_error(request: Any, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        # keep the error's headers (a 405 names the allowed methods in Allow)
        return JSONResponse({"detail": str(exc.detail)}, status_code=exc.status_code,
                            headers=exc.headers)  # fmt: skip

    app.add_exception_handler(StarletteHTTPException, http_error)
    return app
