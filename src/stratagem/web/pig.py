"""The Pig API: play against the optimum or a rule of thumb, with the win chance shown.

Any variant (goal, die faces, bust faces, a bust scores one, catch-up turn; a
coin is a two-faced die) is solved exactly when a game starts
(:func:`stratagem.games.pig.solver.solve`); the win probabilities, the hint
and the strategy map come from that solution, so every number here is exact.
Presets use the on-disk table cache; other variants are solved in memory only,
so clients cannot fill the disk. Solved tables live in one memo per app, bounded
in bytes and shared by every session; a variant whose table would exceed
``max_pig_table_bytes`` is refused before any work, naming its size.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Annotated, Literal, TypeVar

import numpy as np
from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, ConfigDict, Field

from stratagem.core.errors import IllegalActionError, StratagemError
from stratagem.core.game import CHANCE
from stratagem.core.registry import make_agent
from stratagem.core.tables import SolvedMemo
from stratagem.games.pig.rules import PRESETS, PigRules, preset
from stratagem.games.pig.solver import PigSolution, Policy, solve, table_base
from stratagem.games.pig.state import PigAction, PigState
from stratagem.games.pig.strategies import OptimalAgent, RuleAgent
from stratagem.web.common import (
    ERROR_RESPONSES,
    Probability,
    current_client,
    in_session,
    probability,
    run_heavy,
    run_light,
    sessions,
    settings,
)
from stratagem.web.sessions import ID_PATTERN, SessionStore

T = TypeVar("T")

router = APIRouter(prefix="/api/pig", tags=["pig"], responses=ERROR_RESPONSES)

PresetName = Literal["pig", "pig-raab", "piglet", "coin-3"]
SessionId = Annotated[str, Path(pattern=ID_PATTERN, description="a game session id")]
MAX_GOAL = 200
"""Largest goal on the web (the solved table grows with goal**3)."""
MAX_FACES = 20
LOG_LENGTH = 60


# --- solutions ---------------------------------------------------------------------------
# One memo of solved variants per app (core.tables.SolvedMemo, bounded in bytes, least
# recently used dropped), shared by every session: a session keeps its rules, not a table,
# and asks the memo on every request (a variant dropped meanwhile is solved again).


def table_bytes(rules: PigRules) -> int:
    """Bytes of the solved table of ``rules`` (float64 per state; two tables with a
    catch-up turn), known before solving."""
    return rules.num_states * 8 * (2 if rules.catch_up_turn else 1)


def _memo(request: Request) -> SolvedMemo:
    memo: SolvedMemo = request.app.state.solved
    return memo


def check_size(request: Request, rules: PigRules) -> None:
    """Refuse, before any work, a variant whose table exceeds the server's bound."""
    need = table_bytes(rules)
    limit = settings(request).max_pig_table_bytes
    if need > limit:
        raise StratagemError(
            f"this variant's solved table would take about {need / 1e6:.0f} MB "
            f"({rules.num_states:,} states{' x 2' if rules.catch_up_turn else ''}), over this "
            f"server's limit of {limit / 1e6:.0f} MB: choose a smaller goal"
        )


def is_solved(request: Request, rules: PigRules) -> bool:
    return ("pig", rules.fingerprint) in _memo(request)


def solution_for(request: Request, rules: PigRules) -> PigSolution:
    """The solved variant from the app's memo (presets through the disk cache, other
    variants in memory only: clients cannot fill the disk)."""
    check_size(request, rules)
    preset_rules = rules.name in PRESETS and PRESETS[rules.name] == rules

    def run() -> PigSolution:
        return solve(rules) if preset_rules else solve(rules, use_cache=False)

    return _memo(request).get_or_solve(
        ("pig", rules.fingerprint), run, lambda _sol: table_bytes(rules)
    )


def policy_for(request: Request, sol: PigSolution, starter: bool) -> Policy:
    return _memo(request).get_or_solve(
        ("pig-policy", sol.rules.fingerprint, starter), lambda: sol.policy(starter),
        lambda p: int(p.roll.nbytes + p.thresh.nbytes),
    )  # fmt: skip


# --- models ------------------------------------------------------------------------------


class RulesIn(BaseModel):
    """A Pig variant: a preset, optionally changed (omitted fields keep the preset's)."""

    model_config = ConfigDict(strict=True)  # 0 is not false, false is not 0

    preset: PresetName = "pig"
    goal: int | None = Field(None, ge=1, le=MAX_GOAL, description="points needed to win")
    faces: int | None = Field(None, ge=2, le=MAX_FACES, description="faces of the die (2: a coin)")
    bust_faces: list[Annotated[int, Field(ge=1, le=MAX_FACES)]] | None = Field(
        None, min_length=1, max_length=MAX_FACES - 1, description="faces that end the turn"
    )
    bust_scores_one: bool | None = Field(None, description="a bust still banks one point")
    catch_up_turn: bool | None = Field(
        None, description="when the starter reaches the goal, the other player gets one last turn"
    )

    def rules(self) -> PigRules:
        base = preset(self.preset)
        faces = self.faces if self.faces is not None else base.faces
        busts = self.bust_faces
        if busts is None and faces != base.faces:
            busts = [f for f in base.bust_faces if f <= faces] or [1]
        return base.with_options(
            goal=self.goal,
            faces=self.faces,
            bust_faces=busts,
            bust_scores_one=self.bust_scores_one,
            catch_up_turn=self.catch_up_turn,
        )


class RulesView(BaseModel):
    name: str
    goal: int
    faces: int
    bust_faces: list[int]
    bust_scores_one: bool
    catch_up_turn: bool
    description: str
    p_start: Probability = Field(description="the starter's chance under optimal play")


class NewGame(RulesIn):
    opponent: Literal["optimal", "hold", "keep-pace"] = "optimal"
    hold_at: int = Field(20, ge=1, le=MAX_GOAL, description="the threshold of opponent 'hold'")
    you_start: bool = True
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


class ActRequest(BaseModel):
    model_config = ConfigDict(strict=True)  # 0 is not false, false is not 0

    action: Literal["roll", "hold"]


class Event(BaseModel):
    who: Literal["you", "ai"]
    kind: Literal["roll", "bust", "hold", "win", "last-turn"]
    face: int | None = None
    turn_total: int
    scores: list[int]
    text: str


class Odds(BaseModel):
    p_win: Probability = Field(description="your chance to win, both playing optimally")
    p_roll: Probability
    p_hold: Probability | None = Field(None, description="null when holding is not allowed")
    best: Literal["roll", "hold"]


class PigView(BaseModel):
    id: str
    rules: RulesView
    opponent: str
    you_start: bool
    scores: list[int] = Field(description="[you, AI]")
    turn_total: int
    to_move: Literal["you", "ai", "none"]
    must_beat: int | None = Field(None, description="the target of a catch-up last turn")
    over: bool
    winner: Literal["you", "ai"] | None
    legal: list[str]
    p_win: Probability | None = Field(None, description="your chance before this decision")
    decisions: int
    given_away: float = Field(description="win probability your choices gave away")
    last_cost: float | None = None
    events: list[Event]


class MapView(BaseModel):
    goal: int
    opponent_score: int
    starter: bool
    roll: list[list[int]] = Field(
        description="roll[i][k] = 1 if the optimum rolls at my score i and turn total k"
    )
    rule_hold_at: list[int] | None = Field(
        None, description="the opponent's rule of thumb: hold at this turn total, per my score"
    )
    me: int | None
    turn_total: int | None


class LegalView(BaseModel):
    actions: list[str]


# --- games -------------------------------------------------------------------------------


@dataclass
class PigGame:
    """One game. It holds its rules, not the solved table: ``tables()`` asks the app's
    shared memo (so twenty games of one variant share one table)."""

    rules: PigRules
    tables: Callable[[], PigSolution]
    opponent: str
    rule_ai: RuleAgent | None
    human: int
    rng: np.random.Generator
    state: PigState = field(init=False)
    events: list[Event] = field(default_factory=list)
    decisions: int = 0
    given_away: float = 0.0
    last_cost: float | None = None

    def __post_init__(self) -> None:
        self.state = PigState.new(self.rules)

    @property
    def solution(self) -> PigSolution:
        return self.tables()

    @property
    def ai(self) -> OptimalAgent | RuleAgent:
        return self.rule_ai if self.rule_ai is not None else OptimalAgent(self.solution)

    def who(self, player: int) -> Literal["you", "ai"]:
        return "you" if player == self.human else "ai"

    def scores(self, state: PigState) -> list[int]:
        return [state.scores[self.human], state.scores[1 - self.human]]

    def log(self, event: Event) -> None:
        self.events.append(event)
        del self.events[:-LOG_LENGTH]

    def advance(self) -> None:
        """Throw the die, make compulsory rolls and play the AI until the human decides."""
        state = self.state
        rules = self.rules
        while not state.is_terminal():
            player = state.current_player
            if player == CHANCE:
                face = int(self.rng.integers(1, rules.faces + 1))
                mover = state.player
                nxt = state.apply(face)
                shown = ("heads" if face == 1 else "tails") if rules.faces == 2 else str(face)
                who = self.who(mover)
                name = "you" if who == "you" else "the AI"
                kind: Literal["roll", "bust", "win"]
                if face in rules.bust_faces:
                    kind, text = "bust", f"{name} rolled {shown}: bust"
                elif nxt.is_terminal():
                    kind, text = "win", f"{name} rolled {shown} and reached {nxt.scores[mover]}"
                else:
                    kind, text = "roll", f"{name} rolled {shown}: turn total {nxt.turn_total}"
                self.log(Event(who=who, kind=kind, face=face, turn_total=nxt.turn_total,
                               scores=self.scores(nxt), text=text))  # fmt: skip
                if nxt.target is not None and state.target is None and not nxt.is_terminal():
                    self._last_turn(nxt)
                state = nxt
                continue
            legal = state.legal_actions()
            if len(legal) == 1:  # a turn starts with a roll
                state = state.apply(legal[0])
                continue
            if player == self.human:
                break
            action = self.ai.act(state, self.rng)
            if action == PigAction.HOLD:
                nxt = state.apply(action)
                self.log(Event(who="ai", kind="hold", turn_total=state.turn_total,
                               scores=self.scores(nxt),
                               text=f"the AI holds at {state.turn_total}"))  # fmt: skip
                if nxt.target is not None and state.target is None:
                    self._last_turn(nxt)
                state = nxt
            else:
                state = state.apply(action)
        self.state = state

    def _last_turn(self, state: PigState) -> None:
        who = self.who(state.player)
        self.log(Event(who=who, kind="last-turn", turn_total=0, scores=self.scores(state),
                       text=f"last turn: {'you' if who == 'you' else 'the AI'} must pass "
                       f"{state.target}"))  # fmt: skip

    def odds(self) -> Odds | None:
        state = self.state
        if state.is_terminal() or state.current_player != self.human:
            return None
        advice = {a.action: a.value for a in OptimalAgent(self.solution).advise(state)}
        p_roll = probability(advice[PigAction.ROLL])
        p_hold = advice.get(PigAction.HOLD)
        p_hold = None if p_hold is None else probability(p_hold)
        best: Literal["roll", "hold"] = (
            "hold" if p_hold is not None and p_hold >= p_roll else "roll"
        )
        return Odds(p_win=max(p_roll, p_hold or 0.0), p_roll=p_roll, p_hold=p_hold, best=best)


def _rules_view(sol: PigSolution) -> RulesView:
    r = sol.rules
    return RulesView(
        name=r.name, goal=r.goal, faces=r.faces, bust_faces=list(r.bust_faces),
        bust_scores_one=r.bust_scores_one, catch_up_turn=r.catch_up_turn,
        description=r.describe(), p_start=probability(sol.p_start),
    )  # fmt: skip


def _view(sid: str, game: PigGame) -> PigView:
    state = game.state
    odds = game.odds()
    over = state.is_terminal()
    to_move: Literal["you", "ai", "none"] = (
        "none" if over else game.who(state.player) if state.current_player >= 0 else "none"
    )
    return PigView(
        id=sid,
        rules=_rules_view(game.solution),
        opponent=game.opponent,
        you_start=game.human == 0,
        scores=game.scores(state),
        turn_total=state.turn_total,
        to_move=to_move,
        must_beat=state.target,
        over=over,
        winner=None if state.winner is None else game.who(state.winner),
        legal=[] if over or to_move != "you" else [str(a) for a in state.legal_actions()],
        p_win=odds.p_win
        if odds is not None
        else (None if not over else float(state.winner == game.human)),
        decisions=game.decisions,
        given_away=game.given_away,
        last_cost=game.last_cost,
        events=list(game.events),
    )


def _new_game(request: Request, body: NewGame, owner: str) -> tuple[str, PigGame]:
    rules = body.rules()
    if body.opponent == "hold" and body.hold_at > rules.goal:
        raise StratagemError(f"hold_at must be 1..{rules.goal} (the goal), got {body.hold_at}")
    solution_for(request, rules)
    spec = {"optimal": "optimal", "hold": f"hold:{body.hold_at}", "keep-pace": "keep-pace"}[
        body.opponent
    ]
    rule_ai = None
    if spec != "optimal":  # the optimum is built from the shared table, never solved again
        made = make_agent("pig", rules, spec)
        assert isinstance(made, RuleAgent)  # hold and keep-pace
        rule_ai = made
    seed = body.seed if body.seed is not None else secrets.randbits(63)
    game = PigGame(rules, partial(solution_for, request, rules), spec, rule_ai,
                   0 if body.you_start else 1, np.random.default_rng(seed))  # fmt: skip
    game.advance()
    return sessions(request, "pig").create(game, owner=owner), game


def _act(game: PigGame, action_text: str) -> None:
    state = game.state
    if state.is_terminal():
        raise IllegalActionError("the game is over; start a new one")
    odds = game.odds()
    if odds is None:
        raise IllegalActionError("it is not your turn")
    action = PigAction.ROLL if action_text == "roll" else PigAction.HOLD
    if action not in state.legal_actions():
        raise IllegalActionError("a turn starts with a roll: you cannot hold at turn total 0")
    value = odds.p_roll if action == PigAction.ROLL else odds.p_hold
    assert value is not None
    game.decisions += 1
    game.last_cost = odds.p_win - value
    game.given_away += game.last_cost
    nxt = state.apply(action)
    if action == PigAction.HOLD:
        text = f"you hold at {state.turn_total}"
        game.log(Event(who="you", kind="hold", turn_total=state.turn_total,
                       scores=game.scores(nxt), text=text))  # fmt: skip
        if nxt.target is not None and state.target is None and not nxt.is_terminal():
            game._last_turn(nxt)
    game.state = nxt
    game.advance()


# --- endpoints ---------------------------------------------------------------------------
# A decision costs a few look-ups in the solved table: state, legal, act and advice are
# answered on the event loop; solving a variant and the map go to worker threads.


async def _solving(request: Request, rules: PigRules, fn: Callable[[], T]) -> T:
    """``fn()`` in the light pool when ``rules`` are solved already, else in the heavy
    pool (a solve takes up to seconds); too large a variant is refused first."""
    check_size(request, rules)
    if is_solved(request, rules):
        return await run_light(fn)
    return await run_heavy(fn)


@router.get("/presets")
async def presets(request: Request) -> list[RulesView]:
    """The named variants with the starter's optimal chance."""

    def run() -> list[RulesView]:
        return [_rules_view(solution_for(request, r)) for r in PRESETS.values()]

    return await run_light(run) if all(is_solved(request, r) for r in PRESETS.values()) \
        else await run_heavy(run)


@router.post("/rules")
async def describe_rules(request: Request, body: RulesIn) -> RulesView:
    """Check and solve a variant; its description and the starter's chance."""
    rules = body.rules()
    return _rules_view(await _solving(request, rules, lambda: solution_for(request, rules)))


@router.post("/games")
async def new_game(request: Request, body: NewGame) -> PigView:
    """Start a game against the optimum or a rule of thumb (the variant is solved first)."""
    owner = current_client()
    sid, game = await _solving(request, body.rules(), lambda: _new_game(request, body, owner))
    return await run_light(_view, sid, game)


def _store(request: Request) -> SessionStore:
    return sessions(request, "pig")


@router.get("/games/{sid}")
async def game_state(request: Request, sid: SessionId) -> PigView:
    return await in_session(_store(request), sid, PigGame, lambda game: _view(sid, game))


@router.get("/games/{sid}/legal")
async def legal_actions(request: Request, sid: SessionId) -> LegalView:
    return await in_session(
        _store(request), sid, PigGame, lambda game: LegalView(actions=_view(sid, game).legal)
    )


@router.post("/games/{sid}/act")
async def act(request: Request, sid: SessionId, body: ActRequest) -> PigView:
    """Roll or hold; the die is thrown and the AI plays until your next decision."""

    def run(game: PigGame) -> PigView:
        _act(game, body.action)
        return _view(sid, game)

    return await in_session(_store(request), sid, PigGame, run)


@router.get("/games/{sid}/advice")
async def advice(request: Request, sid: SessionId) -> Odds:
    """The hint: your chance to win if you roll and if you hold (exact, optimal play after)."""

    def run(game: PigGame) -> Odds:
        odds = game.odds()
        if odds is None:
            raise IllegalActionError("there is no decision of yours to advise on now")
        return odds

    return await in_session(_store(request), sid, PigGame, run)


@router.get("/games/{sid}/map")
async def strategy_map(request: Request, sid: SessionId) -> MapView:
    """The optimal roll/hold map for the opponent's current score (and the AI's rule)."""
    return await in_session(_store(request), sid, PigGame, lambda g: _map(request, g))


def _map(request: Request, game: PigGame) -> MapView:
    state = game.state
    g = game.rules.goal
    opp = min(state.scores[1 - game.human], g - 1)
    starter = game.human == 0
    policy = policy_for(request, game.solution, starter)
    base = table_base(g)
    roll = []
    for i in range(g):
        start = int(base[i]) + opp * (g - i)
        roll.append([int(x) for x in policy.roll[start : start + g - i]])
    rule = None
    if game.rule_ai is not None:
        me = np.arange(g, dtype=np.int64)
        rule = [int(x) for x in game.rule_ai.hold_at(me, np.full(g, opp, dtype=np.int64))]
    mine = state.scores[game.human]
    return MapView(
        goal=g,
        opponent_score=opp,
        starter=starter,
        roll=roll,
        rule_hold_at=rule,
        me=mine if mine < g and not state.is_terminal() else None,
        turn_total=state.turn_total if not state.is_terminal() else None,
    )
