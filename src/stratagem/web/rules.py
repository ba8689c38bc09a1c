"""``GET /api/{game}/rules``: every preset's rules in plain words, for the shared rules dialog.

The text comes from :func:`stratagem.core.rules_text.rules_of`, which writes it from
the games' rules objects; this module only serves it.
"""

from __future__ import annotations

from functools import cache
from typing import Literal

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


@router.get("/api/{game}/rules")
def game_rules(game: GameName) -> RulesView:
    """Every preset of ``game`` with its rules in plain words and the numbers that set the
    presets apart (``facts``, the same labels for every preset)."""
    return _rules(game)
