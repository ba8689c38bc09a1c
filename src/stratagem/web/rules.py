"""``GET /api/<game>/rules``: every preset's rules in plain words, for the shared rules dialog.

The text comes from :func:`stratagem.core.rules_text.rules_of`, which writes it from
the games' rules objects; this module only serves it.
"""

from __future__ import annotations

import importlib.util
from functools import cache

from fastapi import APIRouter
from pydantic import BaseModel

from stratagem.core.registry import available_games
from stratagem.core.rules_text import rules_of
from stratagem.web.common import ERROR_RESPONSES

router = APIRouter(tags=["site"], responses=ERROR_RESPONSES)

class PresetRulesView(BaseModel):
    preset: str
    title: str
    facts: list[tuple[str, str]]
    paragraphs: list[str]


class RulesView(BaseModel):
    game: str
    presets: list[PresetRulesView]


@cache
def _rules(game: str) -> RulesView:
    return RulesView(
        game=game,
        presets=[
            PresetRulesView(
                preset=r.preset, title=r.title, facts=list(r.facts), paragraphs=list(r.paragraphs)
            )
            for r in rules_of(game)
        ],
    )


def _route(game: str) -> None:
    def game_rules() -> RulesView:
        return _rules(game)

    game_rules.__doc__ = (
        f"Every preset of {game} with its rules in plain words and the numbers that set the "
        "presets apart (``facts``, the same labels for every preset)."
    )
    # one literal path per game, not ``/api/{game}/rules``: Pig's ``POST /api/pig/rules``
    # (a custom variant) shares the path, and OpenAPI matches a literal path before a
    # template, so the GET must be declared on the literal path for both to be documented
    router.add_api_route(
        f"/api/{game}/rules", game_rules, methods=["GET"], response_model=RulesView,
        name=f"{game}_rules", operation_id=f"{game}_rules",
    )  # fmt: skip


def games_with_rules() -> list[str]:
    """The registry's games that describe their rules (``games/<g>/rules_text.py``)."""
    found = []
    for game in available_games():
        try:
            if importlib.util.find_spec(f"stratagem.games.{game}.rules_text") is not None:
                found.append(game)
        except (ImportError, ValueError):
            continue
    return found


for _game in games_with_rules():
    _route(_game)
