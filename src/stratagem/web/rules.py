"""``GET /api/<game>/rules``: every preset's rules in plain words, for the shared rules dialog.

The text comes from :func:`stratagem.core.rules_text.rules_of`, which writes it from
the games' rules objects; this module only serves it.
"""

from __future__ import annotations

from functools import cache
from typing import Literal, get_args

from fastapi import APIRouter
from pydantic import BaseModel

from stratagem.core.rules_text import rules_of
from stratagem.web.common import ERROR_RESPONSES

router = APIRouter(tags=["site"], responses=ERROR_RESPONSES)

GameName = Literal["yahtzee", "pig", "scorefour", "scrabble"]


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


for _game in get_args(GameName):
    _route(_game)
