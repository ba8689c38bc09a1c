"""Scrabble's web extras: the assistant that lists the top moves, tile sets, options, and
the reading of a move typed in the CLI's notation into a session's decision.

Every game (with or without a challenge rule) is a session of the one REST shape
(``web/play.py``, ``/api/sessions``); this router adds only what is Scrabble's own. Moves
are the CLI's notation:
``8H WORD`` across, ``H8 WORD`` down (the whole word, letters already on the
board included; lower case letters of a mixed-case word are blanks), ``x ABC``
to exchange, ``pass``. The assistant reads the position text format of
:mod:`stratagem.games.scrabble.position` and a rack, and lists the best
placements with their exact scores (at most :data:`MAX_TOP`).

Lexicons are the built-in ones of each tile set or the word list the server
was started with (``stratagem serve --lexicon PATH``); a client never names a
file. The move generator of a lexicon reuses its buffers, so every use of a
lexicon holds that lexicon's lock.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path as FilePath
from typing import Annotated, Any, Literal

import numpy as np
from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from stratagem.core.errors import IllegalActionError, InvalidRulesError, InvalidStateError
from stratagem.core.session import MAX_DECISIONS
from stratagem.games.scrabble.assistant import (
    DEFAULT_THINK,
    MAX_POSITION_CHARS,
    THINK_RANGE,
    Analysis,
    analyse,
    read_move,
)
from stratagem.games.scrabble.board import (
    BINGO,
    PREMIUM_ROWS,
    Placement,
)
from stratagem.games.scrabble.challenge import lay_word, phonies
from stratagem.games.scrabble.coach import candidate_row, lexicon_lock
from stratagem.games.scrabble.gcg import read_gcg
from stratagem.games.scrabble.gcg_session import GcgCodec
from stratagem.games.scrabble.heuristic import COACH_SPEC, Candidate, make_coach
from stratagem.games.scrabble.lexicon import Lexicon, default_lexicon, default_name, load_lexicon
from stratagem.games.scrabble.play import (
    typed,
)
from stratagem.games.scrabble.position import (
    write_position,
)
from stratagem.games.scrabble.spec import lexicon_rules
from stratagem.games.scrabble.state import PASS, Exchange, Pass, ScrabbleState
from stratagem.games.scrabble.tiles import TILE_SETS, tile_set
from stratagem.games.scrabble.tracking import Tracking
from stratagem.web.common import (
    ERROR_RESPONSES,
    run_heavy,
    settings,
)
from stratagem.web.play import open_session, register_record_format
from stratagem.web.sessions import ID_PATTERN

MAX_TOP = 50
"""Most moves the API lists at once."""
RACK_PATTERN = r"^[^\s]{0,7}$"
TILE_NAMES = tuple(TILE_SETS)


register_record_format("scrabble", "gcg", GcgCodec())
"""``GET /api/sessions/{sid}/record?format=gcg`` and ``POST /api/sessions/import`` in GCG."""

router = APIRouter(prefix="/api/scrabble", tags=["scrabble"], responses=ERROR_RESPONSES)

TilesName = Literal["english", "czech"]
LexiconChoice = Literal["builtin", "server"]


# --- lexicons -----------------------------------------------------------------------------


@dataclass(eq=False)
class LexiconEntry:
    """A loaded lexicon and the lock that guards its (shared, reused) move generator."""

    lexicon: Lexicon

    @property
    def lock(self) -> threading.Lock:
        """The lexicon's one lock (:func:`~stratagem.games.scrabble.coach.lexicon_lock`),
        shared with the coaching of the sessions on it."""
        return lexicon_lock(self.lexicon)


_LEXICONS: dict[tuple[str, str], LexiconEntry] = {}
_LOADING = threading.Lock()


def lexicon_entry(tiles: str, choice: str, server_path: FilePath | None) -> LexiconEntry:
    """The built-in lexicon of ``tiles``, or the server's word list read with ``tiles``.

    Built on first use (seconds; the table cache keeps it), then kept in memory.
    """
    if tiles not in TILE_SETS:
        raise InvalidRulesError(
            f"unknown tile set {tiles!r}; the tile sets are: {', '.join(TILE_SETS)}"
        )
    if choice == "server" and server_path is None:
        raise InvalidRulesError(
            "this server was started without a word list (stratagem serve --lexicon PATH); "
            "use the built-in lexicon"
        )
    key = (tiles, choice)
    with _LOADING:
        entry = _LEXICONS.get(key)
        if entry is None:
            if choice == "server":
                assert server_path is not None
                lex = load_lexicon(server_path, tile_set(tiles))
            else:
                lex = default_lexicon(tile_set(tiles))
            entry = _LEXICONS[key] = LexiconEntry(lex)
    return entry


SessionId = Annotated[str, Path(pattern=ID_PATTERN, description="the game's session id")]


class Square(BaseModel):
    row: int = Field(ge=0, le=14)
    col: int = Field(ge=0, le=14)


class LaidTile(Square):
    letter: str = Field(min_length=1, max_length=1, description="lower case for a blank")


class LetterCount(BaseModel):
    letter: str = Field(description="the letter, ? for the blank")
    unseen: int = Field(ge=0)
    total: int = Field(ge=0, description="how many the set has")


class TrackingView(BaseModel):
    """The tiles a player has not seen: the opponent's rack and the bag."""

    unseen: str = Field(description="the unseen tiles as a rack text, blanks last")
    by_letter: list[LetterCount]
    unseen_total: int = Field(ge=0)
    bag: int = Field(ge=0)
    opponent_tiles: int = Field(ge=0)
    vowels: int = Field(ge=0)
    consonants: int = Field(ge=0)
    blanks: int = Field(ge=0)


def tracking_view(t: Tracking) -> TrackingView:
    return TrackingView(
        unseen=t.text,
        by_letter=[LetterCount(letter=ch, unseen=n, total=tot) for ch, n, tot in t.by_letter()],
        unseen_total=t.unseen_total, bag=t.bag, opponent_tiles=t.opponent_tiles,
        vowels=t.vowels, consonants=t.consonants, blanks=t.blanks,
    )  # fmt: skip


class AdviceRow(BaseModel):
    action: str = Field(description="the CLI's notation with the score: 8H QUIZ 48, exchange ABC, "
                        "pass")  # fmt: skip
    move: str = Field(description="what to type to play it: 8H QUIZ, x ABC or pass")
    kind: Literal["placement", "exchange", "pass"]
    score: int = Field(ge=0)
    leave: float = Field(description="the learned value of the tiles kept, in points")
    closing: float = Field(
        description="in the closing phase: points for going out, or minus the tiles kept"
    )
    value: float = Field(description="the coach's value: score + leave (+ closing), in points")
    behind: float = Field(ge=0, description="value given up against the coach's best move")
    why: str = Field(description="the move's terms in words")
    tiles: list[LaidTile] = Field(description="the tiles a placement lays (none otherwise)")


class AdviceView(BaseModel):
    total: int = Field(ge=0, description="every legal placement")
    phase: str = Field(description="the phase of the game the coach sees")
    coach: str = Field(description="the coach's registry agent")
    moves: list[AdviceRow]


class Analyse(BaseModel):
    """The assistant: a position in the text format, optionally a rack for the player to move."""

    model_config = ConfigDict(extra="forbid", strict=True)

    tiles: TilesName = "english"
    lexicon: LexiconChoice = "builtin"
    position: str = Field(
        min_length=1,
        max_length=MAX_POSITION_CHARS,
        description="the position text format (board: and 15 rows; racks:, scores: ...)",
    )
    rack: str | None = Field(
        None, pattern=RACK_PATTERN, description="rack (? for a blank); default: the position's"
    )
    top: int = Field(10, ge=1, le=MAX_TOP)
    rank: Literal["value", "score"] = Field(
        "value",
        description="value: the coach's (score + the value of the tiles kept), placements, "
        "exchanges and the pass; score: the highest-scoring placements",
    )
    unseen: str | None = Field(
        None, max_length=120,
        description="the unseen tiles (the opponent's rack + the bag), ? for a blank; checked "
        "against the board and rack (default: derived from them)",
    )  # fmt: skip
    scores: list[Annotated[int, Field(ge=0, le=100_000)]] | None = Field(
        None, min_length=2, max_length=4, description="the scores, the position's player order"
    )
    budget: float = Field(
        DEFAULT_THINK, ge=THINK_RANGE[0], le=THINK_RANGE[1],
        description="seconds the answer may take (the endgame search stops then, best found)",
    )  # fmt: skip


class PhonyView(BaseModel):
    word: str
    squares: list[Square]


class EndgameView(BaseModel):
    best_move: str = Field(description="what to type: 8H WORD or pass")
    spread: int = Field(description="the final spread for the player to move, best play")
    exact: bool = Field(description="proved to the end of the game, or the best found in time")
    depth: int
    nodes: int
    seconds: float = Field(description="CPU seconds of the search")
    line: list[str]


class AnalyseView(AdviceView):
    board: list[str] = Field(min_length=15, max_length=15)
    rack: str
    rank: Literal["value", "score"]
    scores: list[int]
    tracking: TrackingView | None
    phonies: list[PhonyView] = Field(description="words on the board the word list lacks")
    endgame: EndgameView | None = Field(None, description="with the bag empty: the search")
    budget: float
    position: str = Field(
        "",
        description="the position analysed in the text format, the "
        "unseen tiles placed (what ``POST /api/scrabble/deep/jobs`` takes)",
    )


class TileSetView(BaseModel):
    name: str
    letters: list[str]
    values: list[int]
    counts: list[int]
    blanks: int
    premium: list[str] = Field(description="15 rows: T/D triple/double word, t/d letter, .")
    bingo: int = Field(description="bonus for laying all seven tiles")


class LexiconView(BaseModel):
    tiles: TilesName
    lexicon: LexiconChoice
    available: bool
    loaded: bool
    words: int | None = None
    source: str | None = None
    name: str = Field("", description="the word list's name, as the page shows it")
    rules: str | None = Field(None, description="the rules spec that plays on it (sessions)")


def _advice_rows(
    state: ScrabbleState, cands: list[Candidate], weights: np.ndarray, phase: str, best: float
) -> list[AdviceRow]:
    """Rows of candidates with the coach's ``weights``, ``behind`` the coach's ``best`` value
    (points): :func:`~stratagem.games.scrabble.coach.candidate_row`, as this API names them."""
    rows = []
    for c in cands:
        row = candidate_row(state, c, weights, phase, best)
        rows.append(
            AdviceRow(
                action=row["action"],
                move=row["move"],
                kind=row["kind"],
                score=row["score"],
                leave=row["leave"],
                closing=row["closing"],
                value=row["value"],
                behind=row["cost"],
                why=row["why"],
                tiles=[LaidTile(**t) for t in row["tiles"]],
            )
        )
    return rows


def _entry(request: Request, tiles: str, choice: str) -> LexiconEntry:
    return lexicon_entry(tiles, choice, settings(request).lexicon)


@router.get("/tiles/{name}")
def tile_set_info(name: Annotated[TilesName, Path(description="tile set")]) -> TileSetView:
    """Letters, values and counts of a tile set, and the board's premium squares."""
    ts = tile_set(name)
    return TileSetView(
        name=ts.name, letters=list(ts.letters), values=list(ts.values), counts=list(ts.counts),
        blanks=ts.blanks, premium=list(PREMIUM_ROWS), bingo=BINGO,
    )  # fmt: skip


class OptionsView(BaseModel):
    """The lexicons (the opponents are the registry's agents: ``GET /api/games``)."""

    lexicons: list[LexiconView]


def _lexicon_name(tiles: str, choice: str, server_path: FilePath | None) -> str:
    """The built-in list's name (ENABLE, or the informal Czech list), or the server file's."""
    if choice == "server":
        return "" if server_path is None else f"this server's list ({FilePath(server_path).name})"
    return default_name(tiles)


@router.get("/options")
def options(request: Request) -> OptionsView:
    """Which lexicons this server offers (its own word list only if given)."""
    server = settings(request).lexicon is not None
    out = []
    for tiles in TILE_NAMES:
        for choice in ("builtin", "server"):
            entry = _LEXICONS.get((tiles, choice))
            out.append(
                LexiconView(
                    tiles=tiles,  # type: ignore[arg-type]
                    lexicon=choice,
                    available=choice == "builtin" or server,
                    loaded=entry is not None,
                    words=None if entry is None else entry.lexicon.word_count,
                    source=None if entry is None else entry.lexicon.source,
                    name=_lexicon_name(tiles, choice, settings(request).lexicon),
                    rules=_session_rules(tiles, choice, settings(request).lexicon),
                )
            )
    return OptionsView(lexicons=out)


def _session_rules(tiles: str, choice: str, server_path: FilePath | None) -> str | None:
    if choice == "builtin":
        return tiles
    return None if server_path is None else lexicon_rules(server_path, tiles)


class SessionPosition(BaseModel):
    """A position of a played game (``/api/sessions``) for the assistant and the replay."""

    id: str
    at: int = Field(ge=0, description="the decision number: the position it was made from")
    decisions: int = Field(ge=0, description="the game's decisions in all")
    tiles: TilesName
    rules: str
    board: list[str]
    player: int = Field(ge=0, description="the player to decide")
    rack: str
    scores: list[int]
    position: str = Field(description="the position text for the assistant (the opponents' "
                          "racks only once the game is over)")  # fmt: skip
    played: str | None = Field(None, description="the decision taken here, if it was taken")
    judged: dict[str, Any] | None = Field(None, description="the coach's verdict on it")


@router.get("/sessions/{sid}/position")
async def session_position(
    request: Request,
    sid: SessionId,
    at: Annotated[int, Query(ge=0, le=MAX_DECISIONS, description="a decision number")],
) -> SessionPosition:
    """The position of decision ``at`` of a Scrabble session, with the decision taken there
    and the coach's verdict on it: "open this move in the assistant" from the review, and
    the read-only replay. In a game still going on, only a person's own positions, with
    only their own rack."""

    def work() -> SessionPosition:
        with open_session(request, sid) as play:
            s = play.session
            if s.game.name != "scrabble":
                raise IllegalActionError(f"game {sid} is a {s.game.name} game, not Scrabble")
            n = len(s.decisions())
            if at > n or (at == n and s.over):
                raise IllegalActionError(
                    f"this game has decisions 0..{n - 1 if s.over else n}; there is no {at}"
                )
            state = s.state_at(at)
            assert isinstance(state, ScrabbleState)
            if not s.over and not s.seats[state.player].human:
                raise IllegalActionError(
                    "that position is the agent's and its rack is hidden until the game is over"
                )
            if s.over:
                text = write_position(state)
            else:
                text = (f"to_move: 0\nscores: {state.scores[state.player]} "
                        + " ".join(str(x) for q, x in enumerate(state.scores) if q != state.player)
                        + "\nboard:\n" + "\n".join(state.board_rows()) + "\n")  # fmt: skip
            played = s.decisions()[at] if at < n else None
            judged = None
            if played is not None and play.coaching is not None:
                judged = play.coaching.judge(state, played).to_json()
            return SessionPosition(
                id=play.id, at=at, decisions=n, tiles=state.tiles.name,  # type: ignore[arg-type]
                rules=s.rules, board=state.board_rows(), player=state.player,
                rack=state.rack_text(), scores=list(state.scores), position=text,
                played=played, judged=judged,
            )  # fmt: skip

    return await run_heavy(work)


class ReadMove(BaseModel):
    move: str = Field(min_length=1, max_length=40, description="8H WORD, H8 WORD, x ABC, pass")


class ReadDecision(BaseModel):
    decision: str = Field(description="the session's text of the move (POST .../move takes it)")


@router.post("/sessions/{sid}/read")
async def read_session_move(request: Request, sid: SessionId, body: ReadMove) -> ReadDecision:
    """A move in the CLI's notation (``8H WORD``: the whole word, lower case for blanks in a
    mixed-case word; ``x ABC``; ``pass``) read on a session's position into the text the
    session records (``8H WORD 30``), with the CLI's messages for what is wrong. The person
    must be to move (the move is read against their rack)."""

    def work() -> ReadDecision:
        with open_session(request, sid) as play:
            s = play.session
            if s.game.name != "scrabble":
                raise IllegalActionError(f"game {sid} is a {s.game.name} game, not Scrabble")
            if not s.waiting_for_human:
                raise IllegalActionError(
                    "the game is over" if s.over else "it is the agent's turn, not a person's"
                )
            state = s.state
            assert isinstance(state, ScrabbleState)
            with lexicon_lock(state.lexicon):
                try:
                    action = read_move(body.move, state)
                except IllegalActionError:
                    words = body.move.split()
                    if state.challenge_rule == "none" or len(words) != 2:
                        raise
                    if words[0].lower() in ("x", "exchange"):
                        raise
                    # a phony under a challenge rule: laid; it stands unless challenged
                    action = lay_word(state, words[0], words[1])
            return ReadDecision(decision=str(action))

    return await run_heavy(work)


@router.post("/analyse")
async def analyse_position(query: Analyse, request: Request) -> AnalyseView:
    """The assistant: the best moves of any position and rack, by the coach's value or by
    score, each with its exact score, the value of the tiles it keeps and why."""

    def work() -> AnalyseView:
        entry = _entry(request, query.tiles, query.lexicon)
        a = analyse(entry.lexicon, query.position, query.rack, query.top, query.rank, query.unseen,
                    query.scores, query.budget)  # fmt: skip
        return analyse_view(a, query.rank)

    return await run_heavy(work)


def analyse_view(a: Analysis, rank: str) -> AnalyseView:
    eg = a.endgame
    return AnalyseView(
        total=a.total,
        phase=a.phase,
        coach=COACH_SPEC,
        moves=_advice_rows(a.state, a.moves, a.weights, a.phase, a.best),
        board=a.state.board_rows(),
        rack=a.state.tiles.rack_text(a.rack),
        rank=rank,  # type: ignore[arg-type]
        scores=list(a.state.scores),
        tracking=None if a.tracking is None else tracking_view(a.tracking),
        phonies=[
            PhonyView(word=w, squares=[Square(row=r, col=c) for r, c in sq]) for w, sq in a.phonies
        ],
        endgame=None
        if eg is None
        else EndgameView(
            best_move=typed(eg.best_move),
            spread=eg.value,
            exact=eg.exact,
            depth=eg.depth,
            nodes=eg.nodes,
            seconds=round(eg.seconds, 2),
            line=[typed(m) for m in eg.pv],
        ),
        budget=a.budget,
        position=write_position(a.state),
    )


MAX_GCG_CHARS = 60_000
"""Largest GCG text the page sends (the request body limit is 64 KiB; a game with notes is
about 5,000 characters)."""


class OpenGcg(BaseModel):
    """A GCG game record to replay, and optionally the turn to open in the assistant."""

    model_config = ConfigDict(extra="forbid", strict=True)

    tiles: TilesName = "english"
    lexicon: LexiconChoice = "builtin"
    text: str = Field(min_length=1, max_length=MAX_GCG_CHARS, description="the GCG text")
    at: int | None = Field(None, ge=1, le=1000, description="the turn to open (1 = the first)")
    top: int = Field(10, ge=1, le=MAX_TOP)
    budget: float = Field(DEFAULT_THINK, ge=THINK_RANGE[0], le=THINK_RANGE[1])


class RecordTurn(BaseModel):
    player: int = Field(ge=0, le=1)
    nick: str
    rack: str
    text: str = Field(description="the turn in the CLI's notation")
    kind: str
    points: int
    total: int
    opens: bool = Field(description="the turn was played from a position the assistant opens")


class Review(BaseModel):
    turn: int = Field(ge=1)
    recorded: str = Field(description="the recorded move in the CLI's notation")
    recorded_row: AdviceRow | None = Field(
        None, description="the recorded move as the coach values it (none: not a move the word "
        "list allows, or not a placement)",
    )  # fmt: skip
    recorded_phonies: list[str] = Field(description="words of the recorded move the list lacks")
    analysis: AnalyseView


class GcgView(BaseModel):
    players: list[str]
    totals: list[int]
    turns: list[RecordTurn]
    review: Review | None = None


@router.post("/gcg")
async def open_gcg(query: OpenGcg, request: Request) -> GcgView:
    """Replay a GCG record (every move laid and scored, the totals checked; a problem is
    refused naming its line); with ``at``, the position of that turn in the assistant, the
    recorded move beside the coach's best."""

    def work() -> GcgView:
        entry = _entry(request, query.tiles, query.lexicon)
        with entry.lock:
            game = read_gcg(query.text, entry.lexicon)
        turns = [
            RecordTurn(player=t.player, nick=t.nick, rack=t.rack, text=t.text, kind=t.kind,
                       points=t.points, total=t.total,
                       opens=t.state is not None and t.kind in ("move", "exchange", "pass"))
            for t in game.turns
        ]  # fmt: skip
        view = GcgView(players=game.nicks, totals=game.totals, turns=turns)
        if query.at is None:
            return view
        if query.at > len(game.turns) or not turns[query.at - 1].opens:
            raise InvalidStateError(
                f"turn {query.at} cannot be opened: the record has {len(game.turns)} turns, and "
                "only moves, exchanges and passes are played from a position"
            )
        turn = game.turns[query.at - 1]
        state = game.position_at(query.at - 1)
        a = analyse(entry.lexicon, write_position(state), None, query.top, "value", None, None,
                    query.budget)  # fmt: skip
        row = None
        bad: list[str] = []
        action: Placement | Exchange | Pass | None
        if turn.move is not None:
            action = turn.move
            bad = phonies(a.state, turn.move)
        elif turn.kind == "exchange" and not turn.tiles.isdigit():
            action = Exchange(turn.tiles)
        elif turn.kind == "pass":
            action = PASS
        else:
            action = None
        if action is not None and not bad:
            coach = make_coach(a.state.tiles.name)
            with entry.lock:
                cand = coach.candidate(a.state, action)
            if cand is not None:
                row = _advice_rows(a.state, [cand], a.weights, a.phase, a.best)[0]
        view.review = Review(turn=query.at, recorded=turn.text, recorded_row=row,
                             recorded_phonies=bad, analysis=analyse_view(a, "value"))  # fmt: skip
        return view

    return await run_heavy(work)


# the assistant's deep analysis jobs (progress, cancel) add their routes to ``router``
import stratagem.web.scrabble_deep  # noqa: E402, F401
