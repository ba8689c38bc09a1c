"""Pig's extras beside the one REST shape: the presets' rules, and the strategy map.

A Pig game is played through ``/api/sessions`` (:mod:`stratagem.web.play`) like every
game; its coach (:mod:`stratagem.games.pig.coach`) gives the page its picture, hints
and verdicts. What is left here is what only Pig's page shows:

* ``GET /api/pig/presets``: the named variants' rules (to fill the page's variant
  form) with the starter's optimal chance;
* ``GET /api/pig/sessions/{sid}/map``: where the coach rolls and holds, by the
  person's score and turn total, with the opponent on their present score
  (:meth:`~stratagem.games.pig.coach.PigCoaching.strategy_map`).

No number is computed here: the tables and the map come from ``games/pig``.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from pydantic import BaseModel, Field

from stratagem.core.errors import StratagemError
from stratagem.games.pig.coach import PigCoaching
from stratagem.games.pig.rules import PRESETS, PigRules
from stratagem.web.common import ERROR_RESPONSES, Probability, probability, run_heavy
from stratagem.web.play import open_session
from stratagem.web.sessions import ID_PATTERN

router = APIRouter(prefix="/api/pig", tags=["pig"], responses=ERROR_RESPONSES)

SessionId = Annotated[str, Path(pattern=ID_PATTERN, description="a game's id")]


class RulesView(BaseModel):
    name: str
    goal: int
    faces: int
    bust_faces: list[int]
    bust_scores_one: bool
    catch_up_turn: bool
    description: str
    p_start: Probability = Field(description="the starter's chance under optimal play")


class MapView(BaseModel):
    goal: int
    player: int = Field(ge=0, le=1)
    opponent_score: int
    starter: bool
    kind: str = Field(description="'optimum' or 'best reply' (to the fixed opponent seated)")
    against: str | None = None
    roll: list[list[int]] = Field(
        description="roll[i][k] = 1 if the coach rolls at my score i and turn total k"
    )
    rule_hold_at: list[int] | None = Field(
        None, description="the opponent's rule of thumb in my place: hold at this turn total"
    )
    me: int | None
    turn_total: int | None


def _rules_view(rules: PigRules) -> RulesView:
    coach = PigCoaching(rules)
    return RulesView(
        name=rules.name, goal=rules.goal, faces=rules.faces, bust_faces=list(rules.bust_faces),
        bust_scores_one=rules.bust_scores_one, catch_up_turn=rules.catch_up_turn,
        description=rules.describe(), p_start=probability(coach.solution.p_start),
    )  # fmt: skip


@router.get("/presets")
async def presets() -> list[RulesView]:
    """The named variants with the starter's optimal chance (solved tables, from the
    table cache after the first time)."""
    return await run_heavy(lambda: [_rules_view(r) for r in PRESETS.values()])


@router.get("/sessions/{sid}/map")
async def strategy_map(
    request: Request,
    sid: SessionId,
    player: Annotated[int, Query(ge=0, le=1, description="whose map (the person's seat)")] = 0,
    at: Annotated[
        int | None, Query(ge=0, description="the position when decision `at` was to be made")
    ] = None,
) -> MapView:
    """Where the coach rolls and holds for ``player``: the optimum, or against a fixed
    strategy the best reply to it (with that strategy's threshold in ``player``'s place)."""

    def run() -> MapView:
        with open_session(request, sid) as play:
            coach = play.coaching
            if not isinstance(coach, PigCoaching):
                raise StratagemError(f"game {sid} is not a Pig game")
            state = play.session.state if at is None else play.session.state_at(at)
            found: dict[str, Any] = coach.strategy_map(state, player)
            return MapView(**found)

    return await run_heavy(run)
