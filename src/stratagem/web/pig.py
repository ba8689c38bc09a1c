"""The Pig API: play against the optimum or a rule of thumb, with the win chance shown.

Any variant (goal, die faces, bust faces, a bust scores one, catch-up turn; a
coin is a two-faced die) is solved exactly when a game starts
(:func:`stratagem.games.pig.solver.solve`); the win probabilities, the hint
and the strategy map come from that solution, so every number here is exact.
Presets use the on-disk table cache; other variants are solved in memory
(a few kept, least recently used dropped), so clients cannot fill the disk.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Annotated, Literal

import numpy as np
from fastapi import APIRouter, Path, Request
from pydantic import BaseModel, Field

from stratagem.core.errors import IllegalActionError, StratagemError
from stratagem.core.game import CHANCE
from stratagem.core.registry import make_agent
from stratagem.games.pig.rules import PRESETS, PigRules, preset
from stratagem.games.pig.solver import PigSolution, Policy, solve, table_base
from stratagem.games.pig.state import PigAction, PigState
from stratagem.games.pig.strategies import OptimalAgent, RuleAgent
from stratagem.web.common import ERROR_RESPONSES, run_heavy, sessions
from stratagem.web.sessions import ID_PATTERN

router = APIRouter(prefix="/api/pig", tags=["pig"], responses=ERROR_RESPONSES)

PresetName = Literal["pig", "pig-raab", "piglet", "coin-3"]
SessionId = Annotated[str, Path(pattern=ID_PATTERN, description="a game session id")]
MAX_GOAL = 200
"""Largest goal on the web (the solved table grows with goal**3)."""
MAX_FACES = 20
LOG_LENGTH = 60
_CUSTOM_KEPT = 8


# --- solutions ---------------------------------------------------------------------------

_LOCK = threading.Lock()
_PRESET_SOLUTIONS: dict[str, PigSolution] = {}
_CUSTOM: OrderedDict[PigRules, PigSolution] = OrderedDict()
_POLICIES: dict[tuple[PigRules, bool], Policy] = {}


def solution_for(rules: PigRules) -> PigSolution:
    """The solved variant (presets from the disk cache, others in memory)."""
    with _LOCK:
        if rules.name in PRESETS and PRESETS[rules.name] == rules:
            found = _PRESET_SOLUTIONS.get(rules.name)
            if found is None:
                found = _PRESET_SOLUTIONS[rules.name] = solve(rules)
            return found
        found = _CUSTOM.get(rules)
        if found is None:
            found = _CUSTOM[rules] = solve(rules, use_cache=False)
            while len(_CUSTOM) > _CUSTOM_KEPT:
                _CUSTOM.popitem(last=False)
        else:
            _CUSTOM.move_to_end(rules)
        return found


def policy_for(sol: PigSolution, starter: bool) -> Policy:
    key = (sol.rules, starter)
    with _LOCK:
        found = _POLICIES.get(key)
    if found is None:
        found = sol.policy(starter)
        with _LOCK:
            _POLICIES[key] = found
            while len(_POLICIES) > 2 * _CUSTOM_KEPT + 8:
                _POLICIES.pop(next(iter(_POLICIES)))
    return found


# --- models ------------------------------------------------------------------------------


class RulesIn(BaseModel):
    """A Pig variant: a preset, optionally changed (omitted fields keep the preset's)."""

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
    p_start: float = Field(ge=0, le=1, description="the starter's chance under optimal play")


class NewGame(RulesIn):
    opponent: Literal["optimal", "hold", "keep-pace"] = "optimal"
    hold_at: int = Field(20, ge=1, le=MAX_GOAL, description="the threshold of opponent 'hold'")
    you_start: bool = True
    seed: int | None = Field(None, ge=0, le=2**63 - 1)


class ActRequest(BaseModel):
    action: Literal["roll", "hold"]


class Event(BaseModel):
    who: Literal["you", "ai"]
    kind: Literal["roll", "bust", "hold", "win", "last-turn"]
    face: int | None = None
    turn_total: int
    scores: list[int]
    text: str


class Odds(BaseModel):
    p_win: float = Field(ge=0, le=1, description="your chance to win, both playing optimally")
    p_roll: float = Field(ge=0, le=1)
    p_hold: float | None = Field(None, ge=0, le=1, description="null when holding is not allowed")
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
    p_win: float | None = Field(None, ge=0, le=1, description="your chance before this decision")
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
    rules: PigRules
    solution: PigSolution
    opponent: str
    ai: OptimalAgent | RuleAgent
    human: int
    rng: np.random.Generator
    state: PigState = field(init=False)
    events: list[Event] = field(default_factory=list)
    decisions: int = 0
    given_away: float = 0.0
    last_cost: float | None = None

    def __post_init__(self) -> None:
        self.state = PigState.new(self.rules)

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
        p_roll = advice[PigAction.ROLL]
        p_hold = advice.get(PigAction.HOLD)
        best: Literal["roll", "hold"] = (
            "hold" if p_hold is not None and p_hold >= p_roll else "roll"
        )
        return Odds(p_win=max(p_roll, p_hold or 0.0), p_roll=p_roll, p_hold=p_hold, best=best)


def _rules_view(sol: PigSolution) -> RulesView:
    r = sol.rules
    return RulesView(
        name=r.name, goal=r.goal, faces=r.faces, bust_faces=list(r.bust_faces),
        bust_scores_one=r.bust_scores_one, catch_up_turn=r.catch_up_turn,
        description=r.describe(), p_start=sol.p_start,
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


def _new_game(request: Request, body: NewGame) -> tuple[str, PigGame]:
    rules = body.rules()
    if body.opponent == "hold" and body.hold_at > rules.goal:
        raise StratagemError(f"hold_at must be 1..{rules.goal} (the goal), got {body.hold_at}")
    sol = solution_for(rules)
    spec = {"optimal": "optimal", "hold": f"hold:{body.hold_at}", "keep-pace": "keep-pace"}[
        body.opponent
    ]
    ai = make_agent("pig", rules, spec)
    assert isinstance(ai, OptimalAgent | RuleAgent)  # the three opponents above
    seed = body.seed if body.seed is not None else secrets.randbits(63)
    game = PigGame(rules, sol, spec, ai, 0 if body.you_start else 1, np.random.default_rng(seed))
    game.advance()
    return sessions(request, "pig").create(game), game


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


@router.get("/presets")
async def presets() -> list[RulesView]:
    """The named variants with the starter's optimal chance."""

    def run() -> list[RulesView]:
        return [_rules_view(solution_for(r)) for r in PRESETS.values()]

    return await run_heavy(run)


@router.post("/rules")
async def describe_rules(body: RulesIn) -> RulesView:
    """Check and solve a variant; its description and the starter's chance."""
    return _rules_view(await run_heavy(solution_for, body.rules()))


@router.post("/games")
async def new_game(request: Request, body: NewGame) -> PigView:
    """Start a game against the optimum or a rule of thumb (the variant is solved first)."""
    sid, game = await run_heavy(_new_game, request, body)
    return _view(sid, game)


@router.get("/games/{sid}")
async def game_state(request: Request, sid: SessionId) -> PigView:
    game = sessions(request, "pig").get(sid, PigGame)
    return _view(sid, game)


@router.get("/games/{sid}/legal")
async def legal_actions(request: Request, sid: SessionId) -> LegalView:
    game = sessions(request, "pig").get(sid, PigGame)
    return LegalView(actions=_view(sid, game).legal)


@router.post("/games/{sid}/act")
async def act(request: Request, sid: SessionId, body: ActRequest) -> PigView:
    """Roll or hold; the die is thrown and the AI plays until your next decision."""
    with sessions(request, "pig").use(sid, PigGame) as game:
        _act(game, body.action)
        return _view(sid, game)


@router.get("/games/{sid}/advice")
async def advice(request: Request, sid: SessionId) -> Odds:
    """The hint: your chance to win if you roll and if you hold (exact, optimal play after)."""
    game = sessions(request, "pig").get(sid, PigGame)
    odds = game.odds()
    if odds is None:
        raise IllegalActionError("there is no decision of yours to advise on now")
    return odds


@router.get("/games/{sid}/map")
def strategy_map(request: Request, sid: SessionId) -> MapView:
    """The optimal roll/hold map for the opponent's current score (and the AI's rule)."""
    game = sessions(request, "pig").get(sid, PigGame)
    state = game.state
    g = game.rules.goal
    opp = min(state.scores[1 - game.human], g - 1)
    starter = game.human == 0
    policy = policy_for(game.solution, starter)
    base = table_base(g)
    roll = []
    for i in range(g):
        start = int(base[i]) + opp * (g - i)
        roll.append([int(x) for x in policy.roll[start : start + g - i]])
    rule = None
    if isinstance(game.ai, RuleAgent):
        me = np.arange(g, dtype=np.int64)
        rule = [int(x) for x in game.ai.hold_at(me, np.full(g, opp, dtype=np.int64))]
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
