"""Each registered game's contract: its text forms, its declared outcomes, and the rules the
contract plays it under.

Positions have a text form in Score Four (``to_string``) and Scrabble (``write_position``)
only; Pig, Yahtzee and the recipe's Nim have none, so for them the contract checks actions
only. Every game's actions have a ``str`` that tells the legal ones apart; Yahtzee
(``parse_action``), Score Four (``parse_peg`` of ``peg_name``) and Scrabble (``parse_move``)
also read it back. Scrabble plays under a small word list built in the test (the presets
read ENABLE or a Czech list from disk, which a contract test should not need).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import stratagem.games
from stratagem.core.game import State
from stratagem.core.registry import GameSpec, available_games, load_game
from tests.contract.checks import Contract, Forms, Outcomes

RECIPES = Path(__file__).resolve().parents[1] / "core" / "recipes"
RECIPE_GAME = "nim"
"""The game of docs/architecture.md's "add a game" recipe (tests/core/recipes/nim)."""

GAMES = [*available_games(), RECIPE_GAME]

WINS = Outcomes(0.0, 1.0, win=True)


@contextmanager
def registered(name: str) -> Iterator[GameSpec]:
    """The game's spec, through the registry; the recipe game's folder is put among the
    games for the duration (as tests/core/test_recipes.py does)."""
    import sys

    if name != RECIPE_GAME:
        yield load_game(name)
        return
    saved = list(stratagem.games.__path__)
    stratagem.games.__path__[:] = [*saved, str(RECIPES)]
    try:
        yield load_game(name)
    finally:
        stratagem.games.__path__[:] = saved
        for module in [m for m in sys.modules if m.startswith(f"stratagem.games.{RECIPE_GAME}")]:
            del sys.modules[module]


def small_lexicon() -> Any:
    from stratagem.games.scrabble.lexicon import Lexicon
    from stratagem.games.scrabble.tiles import tile_set
    from tests.games.scrabble.conftest import SMALL_WORDS

    return Lexicon.from_words(SMALL_WORDS, tile_set("english"), "small test list")


def contract(name: str, rules: Any) -> Contract:
    """The contract of game ``name`` under ``rules`` (its rules object)."""
    if name == "yahtzee":
        from stratagem.games.yahtzee.duel import Variant
        from stratagem.games.yahtzee.duel_play import highest_score
        from stratagem.games.yahtzee.state import highest_final_score, parse_action

        most = highest_score(rules) if isinstance(rules, Variant) else highest_final_score(rules)
        return Contract(
            Forms(read_action=lambda text, state: parse_action(text)),
            Outcomes(0.0, float(most)),
        )
    if name == "scorefour":
        from stratagem.games.scorefour.board import parse_peg, peg_name
        from stratagem.games.scorefour.state import ScoreFourState

        return Contract(
            Forms(
                action_text=lambda peg: peg_name(int(peg)),  # type: ignore[call-overload]
                read_action=lambda text, state: parse_peg(text),
                position_text=lambda state: state.to_string(),  # type: ignore[attr-defined]
                read_position=lambda text, state: ScoreFourState.from_string(text),
            ),
            WINS,
        )
    if name == "scrabble":
        from stratagem.games.scrabble.play import parse_move
        from stratagem.games.scrabble.position import MAX_SCORE, read_position, write_position

        tiles = rules.tiles
        all_tiles = sum(v * n for v, n in zip(tiles.values, tiles.counts, strict=False))
        return Contract(
            Forms(
                action_text=scrabble_move_text,
                read_action=lambda text, state: parse_move(text, state),  # type: ignore[arg-type]
                position_text=write_position,  # type: ignore[arg-type]
                read_position=lambda text, state: read_position(text, state.lexicon),  # type: ignore[attr-defined]
            ),
            Outcomes(float(-all_tiles), float(MAX_SCORE)),
            width=scrabble_draw_width,
        )
    if name in ("pig", RECIPE_GAME):
        return Contract(Forms(), WINS)
    raise AssertionError(f"no contract written for game {name!r}: add it to {__name__}")


def scrabble_move_text(move: Any) -> str:
    """What a player types: ``8H QUIZ`` (a placement's ``str`` without its score), ``pass``,
    ``exchange QV?``."""
    from stratagem.games.scrabble.board import Placement

    return str(move).rsplit(" ", 1)[0] if isinstance(move, Placement) else str(move)


def scrabble_draw_width(state: Any) -> int:
    """At most how many multisets a draw lists (kinds in the bag, tiles drawn)."""
    kinds = sum(1 for n in state.bag if n)
    k = min(7 - sum(state.racks[state.drawer]), sum(state.bag))
    return math.comb(kinds + k - 1, k) if k > 0 else 1


def contract_rules(name: str) -> list[tuple[str, Callable[[GameSpec], Any]]]:
    """(label, rules of a game spec) the contract plays ``name`` under: every preset, except
    Scrabble's (which read word lists from disk): a small list built here."""
    if name == "scrabble":
        return [("small-english", lambda game: small_lexicon())]
    with registered(name) as game:
        presets = game.presets
    made = [(p, lambda game, p=p: game.rules_object(p)) for p in presets]
    if name == "yahtzee":  # a reduced card (duel variant) too
        variant = "yahtzee:boxes=ones+twos+chance,bonus=true"
        made.append((variant, lambda game: game.rules_object(variant)))
    return made


def new_state(game: GameSpec, rules: Any, players: int) -> State:
    return game.new_state(rules, players)


def agent_names(name: str) -> list[str]:
    with registered(name) as game:
        return list(game.agents)
