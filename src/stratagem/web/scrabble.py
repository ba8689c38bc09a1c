"""Scrabble on the web: play the registry's AIs, and an assistant that lists the top moves.

A game is played against an agent of the arena registry (``greedy``, and any
stronger player that is registered later). Moves are the CLI's notation:
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

import secrets
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path as FilePath
from typing import Annotated, Literal

import numpy as np
from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, ConfigDict, Field, field_validator

from stratagem.core.arena import load_game, parse_spec
from stratagem.core.errors import IllegalActionError, InvalidRulesError, InvalidStateError
from stratagem.games.scrabble.board import (
    BINGO,
    PREMIUM_ROWS,
    RACK_SIZE,
    Placement,
    new_tiles,
    parse_coordinate,
)
from stratagem.games.scrabble.heuristic import (
    COACH_SPEC,
    FEATURE_NAMES,
    PLAY_ENDGAME_NODES,
    SCORE_WEIGHT,
    Candidate,
    explain,
    judge,
    make_coach,
    phase_of,
)
from stratagem.games.scrabble.lexicon import Lexicon, default_lexicon, load_lexicon
from stratagem.games.scrabble.movegen import move_generator
from stratagem.games.scrabble.play import choose_spelling, parse_move, refuse_placement
from stratagem.games.scrabble.position import check_within_set, read_position, tiles_on_board
from stratagem.games.scrabble.state import Exchange, Pass, ScrabbleState
from stratagem.games.scrabble.tiles import TILE_SETS, tile_set
from stratagem.web.common import (
    ERROR_RESPONSES,
    in_session,
    new_session,
    run_heavy,
    sessions,
    settings,
)
from stratagem.web.sessions import ID_PATTERN, SessionStore

MAX_TOP = 50
"""Most moves the API lists at once."""
MAX_POSITION_CHARS = 4000
"""A position text is about 400 characters; anything past this is refused."""
RACK_PATTERN = r"^[^\s]{0,7}$"
TILE_NAMES = tuple(TILE_SETS)


@dataclass(frozen=True)
class Opponent:
    """An opponent the page offers: a registry agent spec, a short label and what it does."""

    name: str
    spec: str
    label: str
    about: str


ENDGAME_NODES = PLAY_ENDGAME_NODES
"""Node limit of the opponents' endgame search a move (the registry's default of 3 million
would hold the lexicon's lock for up to 15 s)."""
OPPONENTS = (
    Opponent(
        "equity",
        f"equity:nodes={ENDGAME_NODES}",
        "equity",
        "score + the learned value of the tiles kept; exact endgame search",
    ),
    Opponent(
        "heuristic-leave",
        f"heuristic:weights=leave,nodes={ENDGAME_NODES}",
        "heuristic + leave",
        "six terms weighted per game phase, the leave value among them; exact endgame search",
    ),
    Opponent(
        "heuristic",
        f"heuristic:nodes={ENDGAME_NODES}",
        "heuristic (five terms)",
        "the source's five terms weighted per game phase, GA-tuned; exact endgame search",
    ),
    Opponent("greedy", "greedy", "greedy", "always the highest-scoring move"),
    Opponent("random", "random", "random", "any legal move"),
)
"""What the page offers, the default first: the two strongest (level against greedy without the
endgame search; docs/results/scrabble_ga.md), the source's player, then the weak ones."""
AI_NAMES = tuple(o.name for o in OPPONENTS)
_OPPONENT_SPECS = {o.name: o.spec for o in OPPONENTS}

router = APIRouter(prefix="/api/scrabble", tags=["scrabble"], responses=ERROR_RESPONSES)

TilesName = Literal["english", "czech"]
LexiconChoice = Literal["builtin", "server"]


# --- lexicons -----------------------------------------------------------------------------


@dataclass(eq=False)
class LexiconEntry:
    """A loaded lexicon and the lock that guards its (shared, reused) move generator."""

    lexicon: Lexicon
    lock: threading.Lock = field(default_factory=threading.Lock)


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


# --- games --------------------------------------------------------------------------------


@dataclass
class TurnRecord:
    """One turn: who, what (the AI's exchanged tiles are not shown), points, new squares."""

    by_ai: bool
    text: str
    score: int
    squares: list[tuple[int, int]]
    behind: float | None = None
    """Your move: the coach's value it gave up against the coach's best (points)."""
    best: str | None = None
    """Your move: the coach's best move, when yours was not as good."""


def placement_squares(state: ScrabbleState, move: Placement) -> list[tuple[int, int, str]]:
    """The squares a placement lays a tile on, with the letter (lower case for a blank)."""
    laid = new_tiles(state.board_array, move, state.tiles)
    return [(r, c, state.tiles.square_text(code)) for r, c, code in laid]


@dataclass
class ScrabbleGame:
    """A two-player game of a person against an agent of the registry."""

    entry: LexiconEntry
    ai_name: str
    human: int
    seed: int
    history: list[TurnRecord] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def __post_init__(self) -> None:
        lex = self.entry.lexicon
        game = load_game("scrabble")
        self.ai = game.make_agent(lex.tiles.name, parse_spec(_OPPONENT_SPECS[self.ai_name]))
        self.coach = make_coach(lex.tiles.name)
        self.rng = np.random.default_rng(self.seed)
        self.state = ScrabbleState.new(lex, 2)
        self._advance()

    @property
    def your_turn(self) -> bool:
        return not self.state.is_terminal() and self.state.current_player == self.human

    def _record(self, action: object, by_ai: bool, behind: float | None = None,
                best: str | None = None) -> None:  # fmt: skip
        before = self.state
        if isinstance(action, Placement):
            squares = [(r, c) for r, c, _ in placement_squares(before, action)]
            record = TurnRecord(by_ai, str(action), action.score, squares, behind, best)
        elif isinstance(action, Exchange):
            n = len(action.tiles)
            text = f"exchange {n} tile{'s' if n != 1 else ''}" if by_ai else str(action)
            record = TurnRecord(by_ai, text, 0, [], behind, best)
        else:
            record = TurnRecord(by_ai, str(action), 0, [], behind, best)
        self.state = before.apply(action)
        self.history.append(record)

    def _advance(self) -> None:
        """Draw tiles and let the AI move until it is the person's turn or the game ends."""
        with self.entry.lock:
            while not self.state.is_terminal():
                if self.state.current_player < 0:
                    self.state = self.state.apply(self.state.sample_chance(self.rng))
                elif self.state.current_player != self.human:
                    self._record(self.ai.act(self.state, self.rng), by_ai=True)
                else:
                    return

    def play(self, text: str) -> TurnRecord:
        """The person's move in the CLI's notation; the AI replies."""
        if self.state.is_terminal():
            raise IllegalActionError("the game is over; start a new one")
        if not self.your_turn:
            raise IllegalActionError("it is the AI's turn, not yours")
        with self.entry.lock:
            action = read_move(text, self.state)
            behind, best = self._judge(action)
            self._record(action, by_ai=False, behind=behind, best=best)
        record = self.history[-1]
        self._advance()
        return record

    def _judge(self, action: Placement | Exchange | Pass) -> tuple[float | None, str | None]:
        """What the coach thinks of your move: the value given up and its own best move."""
        verdict = judge(self.coach, self.state, action)
        if verdict is None:
            return None, None
        behind, best = verdict
        return round(behind, 2), (str(best) if behind > 0 else None)

    def advice(self, top: int) -> tuple[list[Candidate], int, str]:
        """The coach's ``top`` best candidates, the legal placements' count and the phase."""
        if not self.your_turn:
            raise IllegalActionError(
                "no advice: "
                + ("the game is over" if self.state.is_terminal() else "not your turn")
            )
        with self.entry.lock:
            cands, placements = self.coach.ranked(self.state, top)
        return cands, placements, phase_of(self.state)

    def top_moves(self, top: int) -> tuple[list[Placement], int]:
        if not self.your_turn:
            raise IllegalActionError(
                "no moves to list: "
                + ("the game is over" if self.state.is_terminal() else "not your turn")
            )
        return top_placements(self.entry, self.state.board_array, self.state.rack_array(), top)


def read_move(text: str, state: ScrabbleState) -> Placement | Exchange | Pass:
    """The CLI's :func:`~stratagem.games.scrabble.play.parse_move`, without listing every move.

    A placement is looked up among the generated moves that start on its square in
    its direction with its length (a rack with a blank has tens of thousands of
    placements; only these few become objects). Anything else, and every error,
    goes through the CLI's parser or its checks, so the messages are the same.
    """
    words = text.split()
    if len(words) != 2 or words[0].lower() in ("x", "exchange"):
        return parse_move(text, state)
    try:
        row, col, across = parse_coordinate(words[0])
    except IllegalActionError:
        return parse_move(text, state)
    typed = words[1]
    info, codes = move_generator(state.lexicon).raw(state.board_array, state.rack_array())
    hits = np.flatnonzero(
        (info[:, 0] == row) & (info[:, 1] == col) & (info[:, 2] == (0 if across else 1))
        & (info[:, 3] == len(typed))
    )  # fmt: skip
    order = hits[np.argsort(-info[hits, 4], kind="stable")]
    square = state.tiles.square_text
    found = []
    for k in order:
        word = "".join(square(int(x)) for x in codes[k, : len(typed)])
        if word.upper() == typed.upper():
            found.append(Placement(row, col, across, word, int(info[k, 4])))
    chosen = choose_spelling(typed, found)
    if chosen is not None:
        return chosen
    # Not legal: say why, with the CLI parser's checks (without its full move list).
    for ch in typed:
        if state.tiles.letter_index(ch) is None:
            return parse_move(text, state)  # names the foreign letter before listing moves
    refuse_placement(state, words[0], typed)


def top_placements(
    entry: LexiconEntry, board: np.ndarray, rack: np.ndarray, top: int
) -> tuple[list[Placement], int]:
    """The ``top`` best placements (in the order of ``MoveGenerator.moves``) and the count.

    Only the moves listed become :class:`Placement` objects: a rack with a blank has
    tens of thousands of placements on a busy board.
    """
    lex = entry.lexicon
    with entry.lock:
        info, words = move_generator(lex).raw(board, rack)
    order = np.argsort(-info[:, 4], kind="stable")[:top]
    moves = []
    for k in order:
        row, col, down, length, score, _ = (int(x) for x in info[k])
        text = "".join(lex.tiles.square_text(int(x)) for x in words[k, :length])
        moves.append(Placement(row, col, not down, text, score))
    return moves, int(info.shape[0])


SCORE_ONLY = np.zeros(len(FEATURE_NAMES))
SCORE_ONLY[FEATURE_NAMES.index("score")] = SCORE_WEIGHT
"""Weights that rank by the score alone (the assistant's ``rank=score``)."""


@dataclass
class Analysis:
    """The assistant's answer: the position with the rack, the moves listed, and the coach."""

    state: ScrabbleState
    rack: np.ndarray
    moves: list[Candidate]
    total: int
    phase: str
    weights: np.ndarray
    best: float
    """The coach's best value, in points (what ``behind`` is measured from)."""


def analyse(
    entry: LexiconEntry, position: str, rack: str | None, top: int, rank: str = "value"
) -> Analysis:
    """Read a position and a rack (default: the player to move's); list its ``top`` moves,
    ranked by the coach's value (``rank="value"``: placements, exchanges and the pass) or by
    the score alone (``"score"``: placements only)."""
    if len(position) > MAX_POSITION_CHARS:
        raise InvalidStateError(
            f"a position is at most {MAX_POSITION_CHARS} characters, got {len(position)}"
        )
    state = read_position(position, entry.lexicon)
    tiles = state.tiles
    if rack is None:
        rack_counts = state.rack_array()
    else:
        rack_counts = tiles.rack_counts(rack, RACK_SIZE)
        used = rack_counts + tiles_on_board(tiles, state.board_array)
        check_within_set(tiles, used, f"the board and rack {rack!r} hold")
    racks = list(state.racks)
    racks[state.player] = tuple(int(x) for x in rack_counts)
    state = replace(state, racks=tuple(racks))
    coach = make_coach(tiles.name)
    phase = phase_of(state)
    with entry.lock:
        table = coach.table(state)  # one move generation for the ranking and the coach
        best, total = coach.ranked(state, top if rank == "value" else 1, table)
        moves = best
        if rank == "score":
            # ordered by score alone, each row valued as the coach values it (with the
            # closing rule's points once the bag is empty)
            plain = table._replace(bonus=np.zeros_like(table.bonus),
                                   xbonus=np.zeros_like(table.xbonus))  # fmt: skip
            by_score, total = coach.evaluator.ranked(state, SCORE_ONLY, top, table=plain)
            moves = [
                c
                for m in by_score
                if isinstance(m.action, Placement)
                and (c := coach.candidate(state, m.action, table)) is not None
            ]
    return Analysis(state, rack_counts, moves, total, phase, coach.weights_for(phase),
                    best[0].value / SCORE_WEIGHT)  # fmt: skip


# --- the HTTP layer -----------------------------------------------------------------------


SessionId = Annotated[str, Path(pattern=ID_PATTERN, description="the game's session id")]
Top = Annotated[int, Query(ge=1, le=MAX_TOP, description=f"how many moves (at most {MAX_TOP})")]


class NewGame(BaseModel):
    """A new game: tile set and lexicon, the opponent, who starts."""

    model_config = ConfigDict(extra="forbid", strict=True)

    tiles: TilesName = Field("english", description="tile set (and built-in lexicon) language")
    lexicon: LexiconChoice = Field(
        "builtin",
        description="the built-in lexicon of the tile set, or the word list the server was "
        "started with (stratagem serve --lexicon PATH)",
    )
    ai: str = Field(
        AI_NAMES[0],
        description="the opponent (GET /options lists them with what each is)",
        json_schema_extra={"enum": list(AI_NAMES)},
    )
    ai_first: bool = Field(False, description="the AI makes the first move")
    seed: int | None = Field(
        None, ge=0, le=2**32 - 1, description="seed of the tile bag (random if left out)"
    )

    @field_validator("ai")
    @classmethod
    def _known_ai(cls, value: str) -> str:
        if value not in AI_NAMES:
            raise ValueError(f"unknown agent {value!r}; the agents are: {', '.join(AI_NAMES)}")
        return value


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    move: str = Field(
        min_length=1,
        max_length=40,
        description="the CLI's notation: 8H WORD (across), H8 WORD (down), x ABC, pass",
    )


class Square(BaseModel):
    row: int = Field(ge=0, le=14)
    col: int = Field(ge=0, le=14)


class LaidTile(Square):
    letter: str = Field(min_length=1, max_length=1, description="lower case for a blank")


class TurnView(BaseModel):
    by: Literal["you", "ai"]
    text: str = Field(description="the move in the CLI's notation (the AI's exchanges hidden)")
    score: int
    squares: list[Square]
    behind: float | None = Field(
        None, ge=0, description="your move: the coach's value it gave up against its best"
    )
    best: str | None = Field(None, description="your move: the coach's best, if yours was not")


class GameView(BaseModel):
    id: str
    tiles: TilesName
    lexicon: str = Field(description="where the words come from")
    ai: str
    board: list[str] = Field(min_length=15, max_length=15, description="rows, . empty")
    rack: str = Field(description="your tiles, ? for a blank")
    your_score: int
    ai_score: int
    bag: int = Field(ge=0, description="tiles left in the bag")
    ai_rack_size: int = Field(ge=0, le=RACK_SIZE)
    your_turn: bool
    finished: bool
    result: str
    exchange_allowed: bool
    history: list[TurnView]


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


class LegalView(BaseModel):
    placements: int = Field(ge=0, description="how many placements are legal")
    actions: list[str] = Field(description="the best placements (capped), exchange, pass")
    exchange_allowed: bool


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


class AnalyseView(AdviceView):
    board: list[str] = Field(min_length=15, max_length=15)
    rack: str
    rank: Literal["value", "score"]


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


def _advice_rows(
    state: ScrabbleState, cands: list[Candidate], weights: np.ndarray, phase: str, best: float
) -> list[AdviceRow]:
    """Rows of candidates with the coach's ``weights`` (its value: the weighed terms + the
    closing rule's points), ``behind`` the coach's ``best`` value (points)."""
    rows = []
    for c in cands:
        a = c.action
        if isinstance(a, Placement):
            kind, move, score = "placement", str(a).rsplit(" ", 1)[0], a.score
            laid = [
                LaidTile(row=r, col=col, letter=ch) for r, col, ch in placement_squares(state, a)
            ]
        elif isinstance(a, Exchange):
            kind, move, score, laid = "exchange", f"x {a.tiles}", 0, []
        else:
            kind, move, score, laid = "pass", "pass", 0, []
        value = float(c.features @ weights) / SCORE_WEIGHT + c.closing
        rows.append(
            AdviceRow(
                action=str(a),
                move=move,
                kind=kind,  # type: ignore[arg-type]
                score=score,
                leave=round(c.leave_points(weights), 2),
                closing=round(c.closing, 2),
                value=round(value, 2),
                behind=round(max(0.0, best - value), 2),
                why=explain(c, weights, phase),
                tiles=laid,
            )
        )
    return rows


def game_view(session_id: str, game: ScrabbleGame) -> GameView:
    s = game.state
    you, ai = game.human, 1 - game.human
    if s.is_terminal():
        mine, theirs = s.scores[you], s.scores[ai]
        verdict = "you win" if mine > theirs else "the AI wins" if theirs > mine else "a draw"
        result = f"game over: {verdict}, {mine} to {theirs}"
    else:
        result = "your turn" if game.your_turn else "the AI's turn"
    return GameView(
        id=session_id,
        tiles=s.tiles.name,  # type: ignore[arg-type]
        lexicon=game.entry.lexicon.source,
        ai=game.ai_name,
        board=s.board_rows(),
        rack=s.rack_text(you),
        your_score=s.scores[you],
        ai_score=s.scores[ai],
        bag=s.bag_size(),
        ai_rack_size=sum(s.racks[ai]),
        your_turn=game.your_turn,
        finished=s.is_terminal(),
        result=result,
        exchange_allowed=game.your_turn and s.bag_size() >= RACK_SIZE,
        history=[
            TurnView(
                by="ai" if t.by_ai else "you",
                text=t.text,
                score=t.score,
                squares=[Square(row=r, col=c) for r, c in t.squares],
                behind=t.behind,
                best=t.best,
            )
            for t in game.history
        ],
    )


def _store(request: Request) -> SessionStore:
    return sessions(request, "scrabble")


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


class OpponentView(BaseModel):
    name: str
    spec: str = Field(description="the registry agent it is (stratagem arena agents)")
    label: str
    about: str


class OptionsView(BaseModel):
    agents: list[OpponentView] = Field(description="the opponents offered, strongest first")
    lexicons: list[LexiconView]


@router.get("/options")
def options(request: Request) -> OptionsView:
    """The opponents, and which lexicons this server offers (its own word list only if given)."""
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
                )
            )
    agents = [
        OpponentView(name=o.name, spec=o.spec, label=o.label, about=o.about) for o in OPPONENTS
    ]
    return OptionsView(agents=agents, lexicons=out)


@router.post("/new")
async def new_game(config: NewGame, request: Request) -> GameView:
    """Start a game (the first use of a lexicon builds it: seconds, then cached)."""
    seed = config.seed if config.seed is not None else secrets.randbits(32)

    def make() -> ScrabbleGame:
        entry = _entry(request, config.tiles, config.lexicon)
        return ScrabbleGame(entry, config.ai, 1 if config.ai_first else 0, seed)

    return await new_session(_store(request), make, game_view)


@router.get("/{session_id}")
async def get_state(session_id: SessionId, request: Request) -> GameView:
    """The game as it stands (your rack only; the AI's is hidden)."""
    return await in_session(
        _store(request), session_id, ScrabbleGame, lambda game: game_view(session_id, game)
    )


@router.get("/{session_id}/legal")
async def legal_actions(session_id: SessionId, request: Request, top: Top = 10) -> LegalView:
    """How many placements are legal, the best ``top`` of them, and the other actions."""

    def view(game: ScrabbleGame) -> LegalView:
        if not game.your_turn:
            return LegalView(placements=0, actions=[], exchange_allowed=False)
        moves, total = game.top_moves(top)
        exchange = game.state.bag_size() >= RACK_SIZE
        extra = ["exchange"] if exchange else []
        return LegalView(
            placements=total,
            actions=[str(m) for m in moves] + extra + ["pass"],
            exchange_allowed=exchange,
        )

    return await in_session(_store(request), session_id, ScrabbleGame, view, heavy=True)


@router.post("/{session_id}/act")
async def act(session_id: SessionId, move: Move, request: Request) -> GameView:
    """Play your move (the CLI's notation); the AI replies at once."""

    def view(game: ScrabbleGame) -> GameView:
        game.play(move.move)
        return game_view(session_id, game)

    return await in_session(_store(request), session_id, ScrabbleGame, view, heavy=True)


@router.get("/{session_id}/advise")
async def advise(session_id: SessionId, request: Request, top: Top = 10) -> AdviceView:
    """The coach's best moves (placements, exchanges, the pass), best first, each with its
    score, the value of the tiles it keeps, what it gives up against the best, and why."""

    def view(game: ScrabbleGame) -> AdviceView:
        cands, total, phase = game.advice(top)
        weights = game.coach.weights_for(phase)
        return AdviceView(
            total=total,
            phase=phase,
            coach=COACH_SPEC,
            moves=_advice_rows(game.state, cands, weights, phase, cands[0].value / SCORE_WEIGHT),
        )

    return await in_session(_store(request), session_id, ScrabbleGame, view, heavy=True)


@router.post("/analyse")
async def analyse_position(query: Analyse, request: Request) -> AnalyseView:
    """The assistant: the best moves of any position and rack, by the coach's value or by
    score, each with its exact score, the value of the tiles it keeps and why."""

    def work() -> AnalyseView:
        entry = _entry(request, query.tiles, query.lexicon)
        a = analyse(entry, query.position, query.rack, query.top, query.rank)
        return AnalyseView(
            total=a.total,
            phase=a.phase,
            coach=COACH_SPEC,
            moves=_advice_rows(a.state, a.moves, a.weights, a.phase, a.best),
            board=a.state.board_rows(),
            rack=a.state.tiles.rack_text(a.rack),
            rank=query.rank,
        )

    return await run_heavy(work)
