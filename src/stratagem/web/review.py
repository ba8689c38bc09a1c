"""``GET /api/sessions/{sid}/review``: the review of a game, for every game alike.

The route only renders :func:`stratagem.core.review.review` (the game's coaching
prices each decision; see docs/sessions.md, "Review"). The review runs in the heavy
pool on a copy of the game (its record replayed), so the game itself stays free for
moves while a long game is reviewed; when the client goes away the review is
cancelled between two positions. A finished review is remembered by the game's record
(a small in-memory cache), so reloading the page does not price the game again.
"""

from __future__ import annotations

import asyncio
import hashlib
import threading
from collections import OrderedDict
from typing import Any

from fastapi import APIRouter, Request
from pydantic import BaseModel, Field

from stratagem.core.coaching import Coaching
from stratagem.core.errors import StratagemError
from stratagem.core.review import MAX_POSITIONS, review
from stratagem.core.session import Session
from stratagem.web.common import ERROR_RESPONSES, run_heavy
from stratagem.web.play import SessionId, open_session

__all__ = ["CACHED_REVIEWS", "ReviewView", "router"]

CACHED_REVIEWS = 32
"""Reviews remembered (by the game's record): a reload of the page is free."""
POLL_SECONDS = 0.25
"""How often a running review looks whether its client is still there."""

router = APIRouter(prefix="/api/sessions", tags=["sessions"], responses=ERROR_RESPONSES)

_cache: OrderedDict[str, dict[str, Any]] = OrderedDict()
_cache_lock = threading.Lock()


class ReviewView(BaseModel):
    """``core.review.Review.to_json()`` with the game's id, title and page."""

    id: str
    title: str = Field(description="the game's name for people")
    page: str = Field(description="the game's page; add id= and at= for a position")
    game: str
    rules: str
    seats: list[str]
    player: int = Field(ge=0, description="the reviewed player (graph, luck and skill)")
    unit: dict[str, Any]
    decisions: list[dict[str, Any]] = Field(
        description="each decision of a person: index, player, decision (its number in "
        "the game), played, best, cost, exact, label, value_played, value_best, explanation"
    )
    graph: list[dict[str, Any]] = Field(description="decision, player, by, value")
    totals: dict[str, Any]
    finished: bool
    returns: list[float] | None
    has_chance: bool
    takebacks: int = Field(ge=0)
    complete: bool
    stopped_at: int | None
    positions: int = Field(ge=0)
    cost_note: str | None = Field(
        default=None,
        description="the coach's sentence on how its costs are priced and totalled "
        "(Score Four: a thrown-away proven result at the evaluation's cap, counted apart)",
    )


def _page(game: str) -> str:
    from stratagem.web.app import STATIC

    return f"/{game}" if (STATIC / f"{game}.html").is_file() else f"/play?game={game}"


def _copy(request: Request, sid: str) -> tuple[Session, Coaching, str]:
    """The game (replayed from its record, so the original stays free) and its coaching."""
    with open_session(request, sid) as play:
        coaching = play.coaching_now  # Yahtzee: in expected points while tables build
        if coaching is None:
            raise StratagemError(
                f"{play.session.game.display_title} has no coaching, so its games cannot be "
                "reviewed"
            )
        record = play.session.to_json()
    return Session.from_json(record), coaching, record


@router.get("/{sid}/review")
async def get_review(request: Request, sid: SessionId) -> ReviewView:
    """The review of the game: each decision of a person with its cost in the game's unit
    (exact or estimated) and label, the thresholds, a graph of the evaluation, totals with
    luck and skill (docs/sessions.md, "Review"). Heavy pool; at most
    ``core.review.MAX_POSITIONS`` positions."""
    stop = threading.Event()

    def work() -> dict[str, Any]:
        session, coaching, record = _copy(request, sid)
        # the unit is in the key: a review priced in expected points while the tables
        # were not ready is not the one asked for once they are
        key = hashlib.sha256(f"{coaching.unit.name}\n{record}".encode()).hexdigest()
        with _cache_lock:
            if key in _cache:
                _cache.move_to_end(key)
                return _cache[key]
        data = review(
            session, coaching, cancelled=stop.is_set, max_positions=MAX_POSITIONS
        ).to_json()
        with _cache_lock:
            _cache[key] = data
            while len(_cache) > CACHED_REVIEWS:
                _cache.popitem(last=False)
        return data

    task = asyncio.ensure_future(run_heavy(work))
    try:
        while not task.done():
            await asyncio.wait({task}, timeout=POLL_SECONDS)
            if not task.done() and await request.is_disconnected():
                stop.set()
        data = task.result()
    finally:
        stop.set()  # a cancelled request (server shutdown) stops the review too
    game = str(data["game"])
    from stratagem.core.registry import load_game

    return ReviewView(id=sid, title=load_game(game).display_title, page=_page(game), **data)
