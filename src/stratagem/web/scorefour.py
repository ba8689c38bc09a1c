"""Score Four on the web: play the decision-analysis AI, minimax or MCTS, with move quality
and hints.

The page shows the four levels side by side; a click on a peg drops a bead.
After each of the player's moves the API reports its quality on the scale of
decision analysis (f = 1 for the player's best move by the one-ply evaluation,
0 for the worst; the paper's measure of skill) and how the hint engine (a
minimax search to :data:`HINT_DEPTH` plies) rates it against the best move.
Against the decision-analysis AI the AI's own running estimate of the
player's skill is reported after every move.

Every agent is built through the arena registry (``decision-analysis:...``,
``minimax:...``); search depth and time per move are capped here.
"""

from __future__ import annotations

import contextlib
import threading
from dataclasses import dataclass, field
from typing import Annotated, Literal

import numpy as np
from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from stratagem.algorithms.decision_analysis import DecisionAnalysis
from stratagem.core.arena import load_game, parse_spec
from stratagem.core.errors import IllegalActionError
from stratagem.games.scorefour.board import LINES, parse_peg, peg_name
from stratagem.games.scorefour.evaluation import PAPER
from stratagem.games.scorefour.players import MinimaxAgent, move_qualities
from stratagem.games.scorefour.search import Minimax, value_text
from stratagem.games.scorefour.state import DRAW, ScoreFourState
from stratagem.web.common import ERROR_RESPONSES, in_session, new_session, sessions
from stratagem.web.common import Probability as UnitInterval  # a fraction: rounding clipped
from stratagem.web.sessions import ID_PATTERN, SessionStore

MAX_MINIMAX_DEPTH = 12
"""Deepest minimax opponent offered (with the time cap it rarely finishes more than 8-9)."""
MAX_SECONDS = 2.0
"""Most thinking time per AI move, in seconds."""
MAX_MCTS_SIMS = 200_000
"""Most MCTS simulations a move offered (about half a second with the compiled search)."""
MAX_DA_DEPTH = 3
"""Deepest decision-analysis look-ahead (depth 4 costs seconds in Python per move)."""
HINT_DEPTH = 5
"""Plies the hint engine searches for every move's value (about 10 ms per position)."""
HINT_TABLE_BITS = 14
"""Transposition table of each hint search (0.5 MB, fresh per call: the values do not
depend on what was searched before)."""

_SEARCHER: Minimax | None = None
_SEARCH_LOCK = threading.Lock()


def shared_searcher() -> Minimax:
    """One alpha-beta searcher (33 MB of tables) for every minimax opponent, used under a lock.

    The search kernels release the GIL (``nogil=True``), so a search running in a worker
    thread leaves the event loop free; searches of two sessions queue behind each other
    on this lock, which keeps the memory of hundreds of sessions bounded.
    """
    global _SEARCHER
    with _SEARCH_LOCK:
        if _SEARCHER is None:
            _SEARCHER = Minimax()
        return _SEARCHER


SIDES = ("x", "o")
PEG_PATTERN = r"^[a-dA-D][1-4]$"

router = APIRouter(prefix="/api/scorefour", tags=["scorefour"], responses=ERROR_RESPONSES)


# --- the game logic, independent of HTTP --------------------------------------------------


@dataclass
class MoveRecord:
    """One move of the game; ``quality`` and the search verdict only for the player's moves."""

    side: str
    peg: int
    cell: int
    by_ai: bool
    quality: float | None = None
    rank: int | None = None
    of: int | None = None
    value: float | None = None
    best_value: float | None = None


def _winning_cells(state: ScoreFourState) -> list[int]:
    if state.winner is None or state.winner == DRAW:
        return []
    mine = state.beads[state.winner]
    cells: set[int] = set()
    for line in LINES:
        if all(mine >> c & 1 for c in line):
            cells.update(line)
    return sorted(cells)


@dataclass
class ScoreFourGame:
    """One game of a person against an AI built from the registry."""

    ai_spec: str
    human: int
    seed: int
    state: ScoreFourState = field(default_factory=ScoreFourState.new)
    history: list[MoveRecord] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.ai = load_game("scorefour").make_agent("scorefour", parse_spec(self.ai_spec))
        if isinstance(self.ai, MinimaxAgent) and self.ai.searcher.params == PAPER:
            self.ai.searcher = shared_searcher()
        self.rng = np.random.default_rng(self.seed)
        if isinstance(self.ai, DecisionAnalysis) and self.human == 0:
            self.ai.begin(self.state)  # so that it learns from the player's first move too
        self._ai_moves()

    @property
    def skill(self) -> float | None:
        """The decision-analysis AI's estimate of the player's skill (None against minimax)."""
        return self.ai.skill if isinstance(self.ai, DecisionAnalysis) else None

    @property
    def skill_trace(self) -> list[float]:
        return list(self.ai.trace) if isinstance(self.ai, DecisionAnalysis) else []

    @property
    def your_turn(self) -> bool:
        return not self.state.is_terminal() and self.state.player == self.human

    def _ai_moves(self) -> None:
        while not self.state.is_terminal() and self.state.player != self.human:
            shared = isinstance(self.ai, MinimaxAgent) and self.ai.searcher is _SEARCHER
            with _SEARCH_LOCK if shared else contextlib.nullcontext():
                peg = int(self.ai.act(self.state, self.rng))  # type: ignore[call-overload]
            cell = self.state.drop_cell(peg)
            side = SIDES[self.state.player]
            self.state = self.state.apply(peg)
            self.history.append(MoveRecord(side, peg, cell, by_ai=True))

    def play(self, peg: int) -> MoveRecord:
        """The player drops a bead on ``peg``; the AI replies. Returns the player's record."""
        if self.state.is_terminal():
            raise IllegalActionError(
                f"the game is over ({self.state.result_text()}); start a new one"
            )
        if not self.your_turn:
            raise IllegalActionError("it is the AI's turn, not yours")
        before = self.state
        cell = before.drop_cell(peg)  # raises, naming the open pegs, if the peg is full
        moves, f = move_qualities(before)
        index = moves.index(peg)
        rank = 1 + int(np.sum(f > f[index] + 1e-12))
        values = Minimax(table_bits=HINT_TABLE_BITS).move_values(before, HINT_DEPTH)
        record = MoveRecord(
            SIDES[self.human], peg, cell, by_ai=False, quality=float(f[index]), rank=rank,
            of=len(moves), value=values[peg], best_value=max(values.values()),
        )  # fmt: skip
        self.state = before.apply(peg)
        self.history.append(record)
        if self.state.is_terminal() and isinstance(self.ai, DecisionAnalysis):
            self.ai.observe(before, peg)  # the game ended on this move: the AI still learns it
        self._ai_moves()
        return record

    def hint(self) -> list[tuple[int, float, float, float]]:
        """Every legal move as (peg, search value, regret, one-ply quality f), best first."""
        if not self.your_turn:
            raise IllegalActionError(
                "no hint: " + ("the game is over" if self.state.is_terminal() else "not your turn")
            )
        values = Minimax(table_bits=HINT_TABLE_BITS).move_values(self.state, HINT_DEPTH)
        moves, f = move_qualities(self.state)
        quality = dict(zip(moves, f.tolist()))
        best = max(values.values())
        ranked = sorted(values.items(), key=lambda kv: (-kv[1], -quality[kv[0]]))
        return [(p, v, best - v, quality[p]) for p, v in ranked]

    def mean_quality(self) -> float | None:
        qs = [r.quality for r in self.history if r.quality is not None]
        return float(np.mean(qs)) if qs else None


def ai_spec(config: NewGame) -> str:
    """The registry spec of the opponent a new-game request asks for."""
    if config.ai == "minimax":
        return f"minimax:depth={config.depth},seconds={config.seconds}"
    if config.ai == "mcts":
        return f"mcts:sims={config.sims}"
    return f"decision-analysis:depth={config.da_depth},f0={config.f0},beta={config.beta}"


# --- the HTTP layer -----------------------------------------------------------------------


class NewGame(BaseModel):
    """A new game: the opponent and its settings, and which side the player takes."""

    model_config = ConfigDict(extra="forbid", strict=True)

    ai: Literal["decision-analysis", "minimax", "mcts"] = Field(
        "decision-analysis", description="the opponent"
    )
    human: Literal["x", "o"] = Field("x", description="the player's side; X moves first")
    depth: int = Field(4, ge=1, le=MAX_MINIMAX_DEPTH, description="minimax: plies searched")
    seconds: float = Field(
        1.0, gt=0, le=MAX_SECONDS, description="minimax: most thinking time per move"
    )
    sims: int = Field(
        20_000, ge=100, le=MAX_MCTS_SIMS, description="Monte Carlo tree search: simulations a move"
    )
    da_depth: int = Field(2, ge=1, le=MAX_DA_DEPTH, description="decision analysis: look-ahead")
    f0: float = Field(
        1.0, ge=0, le=1, description="decision analysis: prior estimate of the player's skill"
    )
    beta: float = Field(
        0.05, ge=0, le=1, description="decision analysis: learning rate of the skill estimate"
    )
    seed: int = Field(0, ge=0, le=2**32 - 1, description="seed of the AI's choice among ties")


class Move(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)
    action: str = Field(
        pattern=PEG_PATTERN, description="a peg, column a-d then row 1-4 (the CLI's notation)"
    )


class MoveView(BaseModel):
    side: Literal["x", "o"]
    action: str = Field(description="the peg, e.g. b3")
    cell: int = Field(ge=0, le=63, description="level * 16 + peg")
    by_ai: bool
    quality: UnitInterval | None = Field(
        None, description="f: 1 = the player's best move by one-ply evaluation"
    )
    rank: int | None = Field(None, ge=1, le=16, description="rank of the move by f (1 = best)")
    of: int | None = Field(None, ge=1, le=16, description="legal moves at the time")
    value: float | None = Field(None, description="the hint engine's value of the move")
    value_text: str | None = None
    best_value: float | None = Field(None, description="the hint engine's best value")
    best_text: str | None = None


class GameView(BaseModel):
    id: str
    ai: str = Field(description="the opponent's registry spec")
    human: Literal["x", "o"]
    board: str = Field(description="levels bottom to top, '/'-separated (the CLI's --board)")
    heights: list[int] = Field(min_length=16, max_length=16)
    to_move: Literal["x", "o"] | None
    your_turn: bool
    legal: list[str] = Field(description="the pegs you may play now")
    winner: Literal["x", "o", "draw"] | None
    result: str
    winning_cells: list[int]
    history: list[MoveView]
    skill: UnitInterval | None = Field(
        None, description="the decision-analysis AI's estimate of your skill"
    )
    skill_trace: list[float]
    mean_quality: UnitInterval | None = Field(None, description="mean f of your moves")


class LegalView(BaseModel):
    actions: list[str]


class HintRow(BaseModel):
    action: str
    value: float
    value_text: str
    regret: float = Field(ge=0)
    quality: UnitInterval


class HintView(BaseModel):
    depth: int
    options: list[HintRow]


def _move_view(r: MoveRecord) -> MoveView:
    return MoveView(
        side=r.side,  # type: ignore[arg-type]
        action=peg_name(r.peg),
        cell=r.cell,
        by_ai=r.by_ai,
        quality=r.quality,
        rank=r.rank,
        of=r.of,
        value=r.value,
        value_text=None if r.value is None else value_text(r.value),
        best_value=r.best_value,
        best_text=None if r.best_value is None else value_text(r.best_value),
    )


def game_view(session_id: str, game: ScoreFourGame) -> GameView:
    s = game.state
    winner: Literal["x", "o", "draw"] | None = None
    if s.winner is not None:
        winner = "draw" if s.winner == DRAW else SIDES[s.winner]  # type: ignore[assignment]
    return GameView(
        id=session_id,
        ai=game.ai_spec,
        human=SIDES[game.human],  # type: ignore[arg-type]
        board=s.to_string(),
        heights=s.heights(),
        to_move=None if s.is_terminal() else SIDES[s.player],  # type: ignore[arg-type]
        your_turn=game.your_turn,
        legal=[peg_name(p) for p in s.legal_actions()] if game.your_turn else [],
        winner=winner,
        result=s.result_text(),
        winning_cells=_winning_cells(s),
        history=[_move_view(r) for r in game.history],
        skill=game.skill,
        skill_trace=game.skill_trace,
        mean_quality=game.mean_quality(),
    )


SessionId = Annotated[str, Path(pattern=ID_PATTERN, description="the game's session id")]


def _store(request: Request) -> SessionStore:
    return sessions(request, "scorefour")


@router.post("/new")
async def new_game(config: NewGame, request: Request) -> GameView:
    """Start a game; when the player is O the AI has already made its first move."""

    def make() -> ScoreFourGame:
        return ScoreFourGame(ai_spec(config), SIDES.index(config.human), config.seed)

    return await new_session(_store(request), make, game_view)  # the AI may move first


@router.get("/{session_id}")
async def get_state(session_id: SessionId, request: Request) -> GameView:
    """The game as it stands."""
    return await in_session(
        _store(request), session_id, ScoreFourGame, lambda game: game_view(session_id, game)
    )


@router.get("/{session_id}/legal")
async def legal_actions(session_id: SessionId, request: Request) -> LegalView:
    """The pegs the player may play now (none while the game is over)."""

    def view(game: ScoreFourGame) -> LegalView:
        legal = game.state.legal_actions() if game.your_turn else []
        return LegalView(actions=[peg_name(p) for p in legal])

    return await in_session(_store(request), session_id, ScoreFourGame, view)


@router.post("/{session_id}/act")
async def act(session_id: SessionId, move: Move, request: Request) -> GameView:
    """Drop the player's bead on a peg; the AI replies at once (its move is in ``history``)."""
    peg = parse_peg(move.action)

    def view(game: ScoreFourGame) -> GameView:
        game.play(peg)
        return game_view(session_id, game)

    # the AI's reply is a search (up to its seconds or simulations): the heavy pool
    return await in_session(_store(request), session_id, ScoreFourGame, view, heavy=True)


@router.get("/{session_id}/advise")
async def advise(session_id: SessionId, request: Request) -> HintView:
    """Hint: every legal move with its value by a minimax search, best first."""
    rows = await in_session(_store(request), session_id, ScoreFourGame, ScoreFourGame.hint)
    return HintView(
        depth=HINT_DEPTH,
        options=[
            HintRow(action=peg_name(p), value=v, value_text=value_text(v), regret=r, quality=q)
            for p, v, r, q in rows
        ],
    )
