"""The one REST shape of every game: sessions of :class:`~stratagem.core.session.Session`,
kept in memory for speed and in a :class:`~stratagem.core.store.GameStore` for good.

Every game of the registry is played through the same routes (docs/architecture.md,
"One REST shape"): ``POST /api/sessions`` starts a game from registry specs,
``/move``, ``/ai``, ``/takeback``, ``/advice``, ``/record``, ``/branch`` change or read
it, ``GET /api/sessions`` lists the stored games ("My games"). The page of a game only
renders what these answer.

A game in play is a :class:`PlaySession` in the app's bounded
:class:`~stratagem.web.sessions.SessionStore` (at most so many, so many per client, an
idle time), held under its own lock while a request uses it. Every change is saved to
the :class:`GameStore` (``stratagem serve --data DIR``); a game that is not in memory
(evicted, expired, or the server restarted) is read back from the store and replayed,
so it keeps its id and its URL. A store that fails (a corrupt, locked or read-only
file, a full store) never fails a request: the game goes on in memory and the answer's
``storage.message`` says so.

Other routers use :func:`open_session`::

    with open_session(request, sid) as play:
        rows = play.coaching.rows(play.session.state)
"""

from __future__ import annotations

import contextlib
import json
import secrets
import threading
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Protocol

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import JSONResponse, PlainTextResponse, Response
from pydantic import BaseModel, Field

from stratagem.core.coaching import Coaching, coaching_for
from stratagem.core.errors import (
    IllegalActionError,
    InvalidAgentError,
    RecordError,
    StratagemError,
)
from stratagem.core.registry import GameSpec, load_game, names_file
from stratagem.core.session import (
    HUMAN,
    MAX_DECISIONS,
    MAX_RECORD_BYTES,
    MAX_SEED,
    MAX_TEXT,
    Seat,
    Session,
)
from stratagem.core.store import GameStore, Problem, StoreStatus
from stratagem.web.common import (
    ERROR_RESPONSES,
    WARMUP,
    current_client,
    run_heavy,
    run_light,
    settings,
)
from stratagem.web.sessions import (
    ID_PATTERN,
    LOCK_WAIT,
    SessionGone,
    SessionNotFound,
    SessionStore,
)

__all__ = [
    "MAX_LEGAL_SHOWN",
    "PlayRoom",
    "PlaySession",
    "RecordCodec",
    "SessionView",
    "open_session",
    "record_formats",
    "register_record_format",
    "router",
    "session_view",
]

MAX_LEGAL_SHOWN = 2000
"""Legal decisions listed in a view (a Scrabble rack may have thousands; the rest are
counted in ``legal_more`` and still accepted by ``/move``)."""
MAX_SEATS = 8
IMPORT_BODY_BYTES = 2 * MAX_RECORD_BYTES + 4096
"""The largest body ``POST /api/sessions/import`` takes: a record of
:data:`~stratagem.core.session.MAX_RECORD_BYTES` as a JSON string, escapes included
(the record's own limit is then checked, with a message naming it)."""
STORED_ID_LENGTH = 64
"""Longest id the store keeps (:mod:`stratagem.core.store`)."""


# --- record formats other than JSON ------------------------------------------------------


class RecordCodec(Protocol):
    """A text format of a game's records besides the JSON one (Scrabble's GCG).

    ``write`` gives the text of a session; ``read`` replays a text as a session, raising
    :class:`~stratagem.core.errors.RecordError` naming what is wrong."""

    media_type: str

    def write(self, session: Session) -> str: ...

    def read(self, text: str) -> Session: ...


_CODECS: dict[str, dict[str, RecordCodec]] = {}
_CODECS_LOCK = threading.Lock()


def register_record_format(game: str, name: str, codec: RecordCodec) -> None:
    """Offer ``?format=<name>`` for records of ``game`` (a game's web module calls this
    at import, e.g. ``register_record_format("scrabble", "gcg", GcgCodec())``)."""
    if name == "json" or not name.isalnum() or not name.islower() or len(name) > 20:
        raise ValueError(
            f"a record format is a short lower-case word other than json, not {name!r}"
        )
    with _CODECS_LOCK:
        _CODECS.setdefault(game, {})[name] = codec


def record_formats(game: GameSpec | str) -> dict[str, RecordCodec]:
    """The text formats of a game's records besides JSON: those registered with
    :func:`register_record_format`, and those its spec declares as ``record_formats``
    (a mapping of format name to codec, if the spec has one)."""
    spec = load_game(game) if isinstance(game, str) else game
    declared: Mapping[str, RecordCodec] = getattr(spec, "record_formats", None) or {}
    with _CODECS_LOCK:
        return {**dict(declared), **_CODECS.get(spec.name, {})}


# --- sessions in memory and on disk ------------------------------------------------------


@dataclass
class PlaySession:
    """A game being played on this server: its :class:`Session`, the game's coaching,
    and where its record is kept. Used only inside :func:`open_session`, which holds the
    game's lock."""

    id: str
    session: Session
    room: PlayRoom = field(repr=False)
    storage: StoreStatus = field(default_factory=lambda: StoreStatus(None, "not saved yet"))
    _coaching: Coaching | None = field(default=None, repr=False)
    _coaching_built: bool = field(default=False, repr=False)

    @property
    def coaching(self) -> Coaching | None:
        """The game's :class:`~stratagem.core.coaching.Coaching` for these rules
        (``GameSpec.coaching(rules)``), built on first use; ``None`` when the game
        offers none."""
        if not self._coaching_built:
            spec = self.session.game
            if spec.coaching is not None:
                rules = spec.rules_object(self.session.rules)
                self._coaching = coaching_for(spec, rules, self.session.seats)
            self._coaching_built = True
        return self._coaching

    @property
    def coaching_now(self) -> Coaching | None:
        """The coaching to answer with now: :attr:`coaching`, or the stand-in it names
        with an optional ``for_now()`` while part of it cannot be priced on this server
        yet (Yahtzee against opponents prices in expected points until its probability
        tables are ready). One answer uses one coaching, so its rows, unit and note agree."""
        coaching = self.coaching
        for_now = getattr(coaching, "for_now", None)
        if for_now is None:
            return coaching
        now: Coaching = for_now()
        return now

    def save(self) -> StoreStatus:
        """Save the record in the store; never raises: a failure is the status."""
        self.storage = self.room.save(self.id, self.session)
        return self.storage


class PlayRoom:
    """The games in play (bounded, in memory) and the store of their records."""

    def __init__(self, store: GameStore, sessions: SessionStore) -> None:
        self.store = store
        self.sessions = sessions
        self._loading = threading.Lock()

    @classmethod
    def in_memory(cls) -> PlayRoom:
        return cls(GameStore(None), SessionStore())

    def create(self, session: Session, coaching: Coaching | None = None) -> PlaySession:
        """A new game under a fresh id, saved once (``coaching``: the game's coach, when
        it was built already to check the game could be coached)."""
        play = PlaySession("", session, self)
        if coaching is not None:
            play._coaching, play._coaching_built = coaching, True
        play.id = self.sessions.create(play, owner=current_client())
        play.save()
        return play

    def save(self, sid: str, session: Session) -> StoreStatus:
        if len(sid) > STORED_ID_LENGTH:
            return StoreStatus(
                Problem.UNAVAILABLE, "this game's id is too long to be stored; it goes on in memory"
            )
        try:
            status = self.store.save(sid, session.to_record())
        except Exception as exc:  # a store problem never fails a request
            return StoreStatus(
                Problem.UNAVAILABLE, f"the game could not be saved ({exc}); it goes on in memory"
            )
        if status.problem in (Problem.FULL, Problem.TOO_LARGE):
            return StoreStatus(status.problem, f"{status.message}; this game goes on in memory")
        return status

    def storage(self) -> StoreStatus:
        return self.store.status

    def _load(self, sid: str, missing: SessionNotFound) -> None:
        """Read a game that is not in memory back from the store and replay it."""
        if len(sid) > STORED_ID_LENGTH:
            raise missing
        try:
            record = self.store.load(sid)
        except Exception:  # a damaged row: as if it were not there
            record = None
        if record is None:
            raise missing
        try:
            session = Session.from_record(record)
        except StratagemError as exc:
            raise SessionGone(
                f"game {sid} is stored but cannot be replayed ({exc}); start a new game"
            ) from None
        with self._loading:
            self.sessions.put(
                sid, PlaySession(sid, session, self, self.store.status), owner=current_client()
            )

    @contextlib.contextmanager
    def use(self, sid: str, wait: float = LOCK_WAIT) -> Iterator[PlaySession]:
        try:
            self.sessions.get(sid, PlaySession)
        except SessionNotFound as missing:
            self._load(sid, missing)
        with self.sessions.use(sid, PlaySession, wait) as play:
            yield play

    def delete(self, sid: str) -> StoreStatus:
        known = self.sessions.delete(sid)
        stored = len(sid) <= STORED_ID_LENGTH and self._stored(sid)
        if not known and not stored:
            raise SessionNotFound(f"no game {sid!r} is in play or stored here")
        try:
            return self.store.delete(sid) if stored else StoreStatus(None, "deleted")
        except Exception as exc:
            return StoreStatus(
                Problem.UNAVAILABLE, f"the stored record could not be deleted ({exc})"
            )

    def _stored(self, sid: str) -> bool:
        try:
            return self.store.load(sid) is not None
        except Exception:
            return False


_DEFAULT_ROOM: list[PlayRoom] = []


def play_room(request: Request | None) -> PlayRoom:
    """The app's room (``app.state.play``), or, outside a request, one shared in-memory
    room (a script or a test that uses :func:`open_session` without an app)."""
    if request is not None:
        room: PlayRoom = request.app.state.play
        return room
    if not _DEFAULT_ROOM:
        _DEFAULT_ROOM.append(PlayRoom.in_memory())
    return _DEFAULT_ROOM[0]


@contextlib.contextmanager
def open_session(request: Request | None, sid: str) -> Iterator[PlaySession]:
    """The game ``sid`` under its lock (one request at a time per game): from memory, or
    read back from the store and replayed. Unknown ids raise ``SessionNotFound`` (404),
    evicted ones that were not stored ``SessionGone`` (410), a game held by another request
    past the wait ``SessionBusy`` (429). Save with ``play.save()`` after a change."""
    with play_room(request).use(sid) as play:
        yield play


# --- the answers -------------------------------------------------------------------------


class Storage(BaseModel):
    persistent: bool = Field(description="whether the record reaches the games file")
    ok: bool = Field(description="whether the last save went where it should")
    message: str = Field(description="for people: where the game is kept, or why only in memory")


class DecisionView(BaseModel):
    index: int = Field(ge=0)
    player: int = Field(ge=0)
    text: str
    by: Literal["human", "agent"]


class StepView(BaseModel):
    player: int = Field(description="the deciding player, or -1 for chance")
    text: str
    by: Literal["human", "agent", "chance"]


class ResultView(BaseModel):
    finished: bool
    returns: list[float] | None = None


class SessionView(BaseModel):
    """A game as every page renders it."""

    id: str
    game: str
    title: str
    rules: str
    seats: list[str]
    seed: int | None = Field(
        None, ge=0, description="the deal; null while a game of hidden information goes on "
        "(the seed would tell the tiles still hidden)"
    )
    coach: str | None = None
    to_move: int | None = Field(None, description="the player to decide; null once over")
    over: bool
    human_to_move: bool
    legal: list[str] = Field(description=f"the legal decisions (at most {MAX_LEGAL_SHOWN})")
    legal_more: int = Field(0, ge=0, description="legal decisions beyond those listed")
    decisions: list[DecisionView]
    takeback_to: list[int] = Field(description="decision numbers a takeback may return to")
    line: list[StepView]
    view: dict[str, Any]
    result: ResultView
    unit: dict[str, Any] | None = None
    has_coaching: bool
    replay_at: int | None = Field(
        None, ge=0, description="set when this is a read-only replay of decision `at`"
    )
    total_decisions: int = Field(ge=0, description="decisions of the whole game")
    storage: Storage


class AdviceView(BaseModel):
    unit: dict[str, Any] | None
    rows: list[dict[str, Any]]


class StoredGame(BaseModel):
    id: str
    game: str
    title: str
    rules: str
    seats: list[str]
    finished: bool
    result: str
    returns: list[float] | None = None
    decisions: int = Field(ge=0)
    updated: str = Field(description="last change, ISO 8601 UTC")
    page: str = Field(description="the page that resumes it")


class MyGames(BaseModel):
    storage: Storage
    games: list[StoredGame]


class Deleted(BaseModel):
    id: str
    deleted: bool
    storage: Storage


def _storage(play_storage: StoreStatus, room: PlayRoom) -> Storage:
    return Storage(
        persistent=room.store.persistent and play_storage.ok,
        ok=play_storage.ok,
        message=play_storage.message,
    )


def session_view(play: PlaySession, at: int | None = None) -> SessionView:
    """The :class:`SessionView` of a game (what every page renders); with ``at``, the
    position when decision ``at`` was to be made, read only (a review's link to a move):
    the line and decisions up to there, nothing legal, no takeback."""
    s = play.session
    coaching = play.coaching_now
    steps = s.decision_steps()
    line = list(s.line)
    # A game of hidden information (Scrabble's racks) shows one person's seat: their view,
    # their legal moves, no draws while it goes on (scrabble34).
    hidden = not s.game.perfect_information and not s.over
    if at is None or at == len(steps):
        over, human, takeback_to = s.over, s.waiting_for_human, s.human_decisions()
        # an agent's moves are not shown in a game of hidden information, so not listed
        # (a Scrabble rack with blanks has tens of thousands); the session keeps the list
        # of the position, so a view asked again lists nothing anew
        state, replay = s.state, None
        legal = [] if hidden and not human else s.legal_texts()
        result = ResultView(**s.result())
    else:
        state = s.state_at(at)  # checks 0 <= at <= decisions, naming the range
        cut = [i for i, step in enumerate(line) if step.player >= 0][at]
        line, steps, legal, replay = line[:cut], steps[:at], [], at
        over, human, takeback_to = False, False, []
        result = ResultView(finished=False, returns=None)
    viewer = _viewer(s)
    view_for = getattr(coaching, "view_for", None)
    # what the others' decisions show of their hidden tiles (an exchange: how many)
    public = getattr(coaching, "public_text", None) if hidden else None
    if view_for is not None:
        view = view_for(state, viewer)
    else:
        view = coaching.view(state) if coaching is not None else {"text": str(state)}
    to_move = state.current_player
    return SessionView(
        id=play.id,
        game=s.game.name,
        title=s.game.display_title,
        rules=s.rules,
        seats=[str(seat) for seat in s.seats],
        seed=None if hidden else s.seed,
        coach=s.coach_spec,
        to_move=None if over or to_move < 0 else to_move,
        over=over,
        human_to_move=human,
        legal=legal[:MAX_LEGAL_SHOWN],
        legal_more=max(0, len(legal) - MAX_LEGAL_SHOWN),
        decisions=[
            DecisionView(
                index=j,
                player=step.player,
                text=public(step.text) if public and step.player != viewer else step.text,
                by=step.by,  # type: ignore[arg-type]
            )
            for j, step in enumerate(steps)
        ],
        takeback_to=takeback_to,
        line=[
            StepView(
                player=step.player,
                text="" if hidden and step.by == "chance" else step.text,
                by=step.by,
            )
            for step in line
        ],
        view=view,
        result=result,
        unit=coaching.unit.to_json() if coaching is not None else None,
        has_coaching=coaching is not None,
        replay_at=replay,
        total_decisions=len(s.decision_steps()),
        storage=_storage(play.storage, play.room),
    )


def _viewer(s: Session) -> int | None:
    """The seat a view is for: the person to move, else the first person seated."""
    if not s.over and s.seats[s.to_move].human:
        return s.to_move
    return next((p for p, seat in enumerate(s.seats) if seat.human), None)


# --- request bodies ----------------------------------------------------------------------

Text = Annotated[str, Field(min_length=1, max_length=MAX_TEXT)]
GameName = Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[A-Za-z0-9_.:-]+$")]


class NewSession(BaseModel):
    game: GameName = Field(description="a game of GET /api/games")
    rules: Text | None = Field(None, description="a rules spec; default: the game's")
    seats: list[Text] = Field(
        min_length=1,
        max_length=MAX_SEATS,
        description='one per player: "human" or an agent spec of GET /api/games',
    )
    seed: int | None = Field(None, ge=0, le=MAX_SEED, description="the deal; default: random")
    coach: Text | None = Field(None, description="an agent spec that prices the options")


class Move(BaseModel):
    decision: Text = Field(description="the text of a legal decision (the view's legal)")


class Takeback(BaseModel):
    decision: int | None = Field(
        None,
        ge=0,
        le=MAX_DECISIONS,
        description="the decision number (of a person) to return to; default: the last",
    )


class Branch(BaseModel):
    at: int = Field(ge=0, le=MAX_DECISIONS, description="decisions kept from the game's start")


class Import(BaseModel):
    record: str = Field(min_length=1, max_length=IMPORT_BODY_BYTES, description="the record's text")
    format: Annotated[str, Field(pattern=r"^[a-z0-9]{1,20}$")] = "json"
    game: GameName | None = Field(None, description="the game, to refuse a record of another")


# --- the routes --------------------------------------------------------------------------

SessionId = Annotated[str, Path(pattern=ID_PATTERN, description="a game's id")]
router = APIRouter(prefix="/api/sessions", tags=["sessions"], responses=ERROR_RESPONSES)


def _check_warm(game: str) -> None:
    """503 while the game's compiled engines are still being prepared at start-up."""
    warmup = WARMUP.get()
    if warmup is not None:
        warmup.check(game)


class NamesServerFile(StratagemError):
    """A spec from a client names a file on the server (HTTP 400): only the server's
    operator chooses files (``serve --lexicon``)."""


def _refuse_files(spec: GameSpec, rules: str | None, seats: list[str], coach: str | None) -> None:
    """Refuse, before any work, a rules or agent spec that names a file on the server (a
    word list, a leave table, a rule table): the page may only choose what the server
    offers, never read the server's files."""
    if rules is not None:
        _preset, values = spec.parse_rules(rules)
        for p in spec.rule_params:
            if names_file(p, values.get(p.name)):
                raise NamesServerFile(
                    f"rules {rules!r}: the page cannot name a file on the server ({p.name}); "
                    "the server's operator chooses word lists with serve --lexicon"
                )
    for who, text in [(f"seat {i}", t) for i, t in enumerate(seats)] + [("coach", coach)]:
        if text is None or text == HUMAN:
            continue
        try:
            parsed = spec.check_agent(text)
            info = spec.agent_info(parsed.name)
            values = info.values(parsed)
        except StratagemError as exc:
            raise InvalidAgentError(f"{who}: {exc}") from None
        for p in info.params:
            if names_file(p, values.get(p.name)):
                raise NamesServerFile(
                    f"{who}: {text!r} names a file on the server ({p.name}); the page can "
                    "only choose the agents' shipped tables"
                )
            value = values.get(p.name)
            if p.web_high is not None and value is not None and value > p.web_high:
                raise InvalidAgentError(
                    f"{who}: {p.name}={value} is more work than this server takes from a "
                    f"page; at most {p.web_high}"
                )


def _check_table(spec: GameSpec, rules: str, limit: int) -> None:
    """Refuse, before any work, rules whose solved table is larger than the server's bound."""
    if spec.table_bytes is None:
        return
    need = spec.table_bytes(spec.rules_object(rules))
    if need > limit:
        raise StratagemError(
            f"the solved table of {spec.display_title} rules {rules!r} would take about "
            f"{need / 1e6:,.0f} MB, over this server's limit of {limit / 1e6:,.0f} MB: "
            "choose smaller rules (a lower goal)"
        )


def _new_session(body: NewSession, max_table_bytes: int) -> tuple[Session, Coaching | None]:
    spec = load_game(body.game)
    _refuse_files(spec, body.rules, list(body.seats), body.coach)
    rules = spec.check_rules(body.rules if body.rules is not None else spec.default_rules)
    _check_table(spec, rules, max_table_bytes)
    n = len(body.seats)
    if not spec.min_players <= n <= spec.max_players:
        raise StratagemError(
            f"{spec.name} is played by {spec.min_players}-{spec.max_players} players; "
            f"{n} seats were given"
        )
    seats = []
    for i, text in enumerate(body.seats):
        if text == HUMAN:
            seats.append(Seat())
            continue
        try:
            spec.check_agent(text, rules)
        except StratagemError as exc:
            raise InvalidAgentError(f"seat {i}: {exc}") from None
        seats.append(Seat(text))
    if body.coach is not None:
        try:
            spec.check_agent(body.coach, rules)
        except StratagemError as exc:
            raise InvalidAgentError(f"coach: {exc}") from None
        # Whether the agent can price options (an Advisor) is known only once it is built,
        # which may solve a table: that happens on the first advice (a 400 naming it then),
        # in the heavy pool, not here.
    seed = body.seed if body.seed is not None else secrets.randbits(63)
    session = Session(spec, rules, seats, seed, body.coach)
    # The game's coach is made now, before the game is kept: a coach that cannot serve
    # these rules and seats (a reduced Yahtzee card too large to solve here) is a 4xx
    # naming why, not a stored game that fails on every view.
    coaching = coaching_for(spec, spec.rules_object(rules), seats) if spec.coaching else None
    return session, coaching


def _changed(
    request: Request, sid: str, change: Callable[[Session], object], heavy_game: bool = False
) -> SessionView:
    with open_session(request, sid) as play:
        if heavy_game:
            _check_warm(play.session.game.name)
        change(play.session)
        play.save()
        return session_view(play)


@router.post("", status_code=201)
async def create_session(request: Request, body: NewSession) -> SessionView:
    """Start a game: seats are "human" or agent specs, checked through the registry."""
    session, coaching = await run_light(_new_session, body, settings(request).max_table_bytes)

    def start() -> SessionView:
        play = play_room(request).create(session, coaching)
        with open_session(request, play.id) as held:
            return session_view(held)

    return await run_light(start)


@router.get("")
async def my_games(request: Request, limit: int = Query(100, ge=1, le=1000)) -> MyGames:
    """The stored games, the most recently changed first ("My games")."""

    def listing() -> MyGames:
        room = play_room(request)
        games = []
        for g in room.store.list_games(limit):
            try:
                spec = load_game(g.game)
                title, page = spec.display_title, _page(spec.name)
            except StratagemError:
                continue  # a game this server no longer offers
            try:
                record = room.store.load(g.id) or {}
                seats = [s.get("spec", HUMAN) for s in record.get("seats", [])]
            except Exception:
                seats = []
            games.append(
                StoredGame(
                    id=g.id,
                    game=g.game,
                    title=title,
                    rules=g.rules,
                    seats=seats,
                    finished=g.finished,
                    result=g.result,
                    returns=None if g.returns is None else list(g.returns),
                    decisions=g.decisions,
                    updated=g.date,
                    page=page,
                )
            )
        status = room.store.status
        return MyGames(
            storage=Storage(persistent=room.store.persistent, ok=status.ok, message=status.message),
            games=games,
        )

    return await run_light(listing)


@router.get("/{sid}")
async def get_session(
    request: Request,
    sid: SessionId,
    at: Annotated[int | None, Query(ge=0, le=MAX_DECISIONS)] = None,
) -> SessionView:
    """The game as it is now (read back from the store if the server restarted); with
    ``at``, read only, the position when decision ``at`` (from 0) was to be made."""

    def read() -> SessionView:
        with open_session(request, sid) as play:
            return session_view(play, at)

    return await run_light(read)


@router.post("/{sid}/move")
async def move(request: Request, sid: SessionId, body: Move) -> SessionView:
    """A person's decision, by its text; agents do not move (call /ai)."""
    return await run_light(_changed, request, sid, lambda s: s.submit(body.decision))


@router.post("/{sid}/ai")
async def ai(request: Request, sid: SessionId) -> SessionView:
    """One decision of the agent whose turn it is (in the heavy pool)."""
    return await run_heavy(_changed, request, sid, lambda s: s.ai_move(), True)


@router.post("/{sid}/takeback")
async def takeback(request: Request, sid: SessionId, body: Takeback) -> SessionView:
    """Back to a person's decision (default: their last), undoing it and all after."""
    return await run_light(_changed, request, sid, lambda s: s.takeback(body.decision))


@router.get("/{sid}/advice")
async def advice(request: Request, sid: SessionId) -> AdviceView:
    """The coach's rows for the player to move, best first (in the heavy pool)."""

    def rows() -> AdviceView:
        with open_session(request, sid) as play:
            s = play.session
            _check_warm(s.game.name)
            if s.over:
                raise IllegalActionError("the game is over: there is nothing to advise")
            if not s.game.perfect_information and not s.waiting_for_human:
                raise IllegalActionError("advice is for a person to move: an agent is to move")
            coaching = play.coaching_now
            if coaching is not None:
                return AdviceView(unit=coaching.unit.to_json(), rows=coaching.rows(s.state))
            if s.coach_spec is None:
                raise StratagemError(
                    f"{s.game.name} has no coaching of its own and this game has no coach; "
                    "start a game with a coach (an agent spec) to have advice"
                )
            return AdviceView(unit=None, rows=[a.to_json() for a in s.advice()])

    return await run_heavy(rows)


@router.get(
    "/{sid}/record",
    response_model=None,
    responses={
        200: {
            "description": "the record: JSON (docs/sessions.md), or the text of ?format",
            "content": {"application/json": {}, "text/plain": {}},
        }
    },
)
async def record(
    request: Request,
    sid: SessionId,
    format: Annotated[str, Query(pattern=r"^[a-z0-9]{1,20}$")] = "json",
) -> Response:
    """The game's record, to download: JSON, or a format of the game's own (``gcg``)."""

    def write() -> Response:
        with open_session(request, sid) as play:
            s = play.session
            name = f"{s.game.name}-{play.id}"
            if format == "json":
                if not s.game.perfect_information and not s.over:
                    raise StratagemError(
                        f"the JSON record of a {s.game.display_title} game holds the deal "
                        "(every hidden tile); it can be had once the game is over"
                        + (", the " + ", ".join(sorted(record_formats(s.game))) + " record now"
                           if record_formats(s.game) else "")
                    )
                return JSONResponse(s.to_record(), headers=_attachment(f"{name}.json"))
            codec = _codec(s.game, format)
            return PlainTextResponse(
                codec.write(s), media_type=codec.media_type, headers=_attachment(f"{name}.{format}")
            )

    return await run_light(write)


@router.post("/import", status_code=201)
async def import_record(request: Request, body: Import) -> SessionView:
    """Replay a record (JSON, or a game's own format) as a new game; a record that is
    truncated, too large, of another game or impossible is refused, naming the problem."""
    limit = settings(request).max_table_bytes

    def read() -> SessionView:
        session = _read_record(body)
        _check_table(session.game, session.rules, limit)
        play = play_room(request).create(session)
        with open_session(request, play.id) as held:
            return session_view(held)

    return await run_light(read)


@router.post("/{sid}/branch", status_code=201)
async def branch(request: Request, sid: SessionId, body: Branch) -> SessionView:
    """A new game from the first ``at`` decisions of this one, every seat a person's and
    the coach kept: "open this position in the assistant"."""

    def fork() -> SessionView:
        with open_session(request, sid) as play:
            s = play.session
            decisions = s.decisions()
            if body.at > len(decisions):
                raise IllegalActionError(
                    f"this game has {len(decisions)} decisions; branch at 0..{len(decisions)}"
                )
            data = {
                "format": "stratagem-game",
                "version": 1,
                "game": s.game.name,
                "rules": s.rules,
                "seats": [{"kind": HUMAN}] * len(s.seats),
                "seed": s.seed,
                "coach": s.coach_spec,
                "decisions": decisions[: body.at],
                **({"dealt": list(s.dealt)} if s.dealt is not None else {}),
            }
            fork = Session.from_record(data)
        new = play_room(request).create(fork)
        with open_session(request, new.id) as held:
            return session_view(held)

    return await run_light(fork)


@router.delete("/{sid}")
async def delete_session(request: Request, sid: SessionId) -> Deleted:
    """End a game: forgotten in memory and deleted from the store."""

    def drop() -> Deleted:
        room = play_room(request)
        status = room.delete(sid)
        return Deleted(
            id=sid,
            deleted=True,
            storage=Storage(persistent=room.store.persistent, ok=status.ok, message=status.message),
        )

    return await run_light(drop)


def _attachment(filename: str) -> dict[str, str]:
    return {"Content-Disposition": f'attachment; filename="{filename}"'}


def _codec(spec: GameSpec, fmt: str) -> RecordCodec:
    codecs = record_formats(spec)
    codec = codecs.get(fmt)
    if codec is None:
        raise StratagemError(
            f"{spec.name} records come as {', '.join(['json', *sorted(codecs)])}, not {fmt!r}"
        )
    return codec


def _refuse_record_files(text: str) -> None:
    """Refuse a JSON record whose rules, seats or coach name a file on the server, before
    the record is replayed (which would read it). What else is wrong with the record is
    left to :meth:`Session.from_json`, which names it."""
    try:
        data = json.loads(text)
    except ValueError:
        return
    if not isinstance(data, dict) or not isinstance(data.get("game"), str):
        return
    try:
        spec = load_game(data["game"])
    except StratagemError:
        return
    rules = data.get("rules") if isinstance(data.get("rules"), str) else None
    seats = [
        seat["spec"]
        for seat in data.get("seats") or []
        if isinstance(seat, dict) and isinstance(seat.get("spec"), str)
    ]
    coach = data.get("coach") if isinstance(data.get("coach"), str) else None
    _refuse_files(spec, rules, seats, coach)


def _read_record(body: Import) -> Session:
    size = len(body.record.encode("utf-8"))
    if size > MAX_RECORD_BYTES:
        raise RecordError(
            f"the record is {size:,} bytes; a game record is at most {MAX_RECORD_BYTES:,}"
        )
    if body.format == "json":
        _refuse_record_files(body.record)
        return Session.from_json(body.record, game=body.game)
    if body.game is not None:
        return _codec(load_game(body.game), body.format).read(body.record)
    with _CODECS_LOCK:
        games = sorted(g for g, codecs in _CODECS.items() if body.format in codecs)
    if len(games) != 1:
        offered = sorted({f for codecs in _CODECS.values() for f in codecs})
        raise RecordError(
            f"no game reads records in format {body.format!r}; the formats are: "
            + ", ".join(["json", *offered])
            if not games
            else f"records in format {body.format!r} are read by {', '.join(games)}: name the game"
        )
    session = _codec(load_game(games[0]), body.format).read(body.record)
    return session


def _page(game: str) -> str:
    """The page that plays ``game``: its own (``/<game>``) if the site has one, else the
    generic page."""
    from stratagem.web.app import STATIC

    return f"/{game}" if (STATIC / f"{game}.html").is_file() else f"/play?game={game}"
