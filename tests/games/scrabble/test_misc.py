"""The arena entry, and Czech end to end (the doctests run with pytest --doctest-modules)."""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from stratagem.core.arena import load_game, play_game
from stratagem.games.scrabble.board import empty_board, new_tiles, score_tiles
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.movegen import MoveGenerator
from stratagem.games.scrabble.tiles import tile_set


def test_arena_plays_a_greedy_game(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(tmp_path))
    game = load_game("scrabble")
    assert game.check_rules("czech") == "czech"
    arena = importlib.import_module("stratagem.games.scrabble.spec")
    arena.lexicon.cache_clear()
    returns, decisions = play_game(game, "english", ["greedy", "random"], deal_seed=3)
    assert len(returns) == 2 and decisions > 5
    arena.lexicon.cache_clear()


def test_czech_moves_with_diacritics() -> None:
    ts = tile_set("czech")
    words = ["kůň", "kůže", "žena", "řeka", "ďábel", "ano", "no", "on", "ona", "an"]
    lex = Lexicon.from_words(words, ts)
    gen = MoveGenerator(lex)
    moves = gen.moves(empty_board(), ts.rack_counts("ŽENAKŮ?"))
    found = {m.word.upper() for m in moves}
    assert {"ŽENA", "KŮŽE", "KŮŇ", "ANO"} <= found
    is_word = {w.upper() for w in words}.__contains__
    for m in moves:
        score, _ = score_tiles(empty_board(), new_tiles(empty_board(), m, ts), ts, is_word)
        assert score == m.score
    # ŽENA over 8E-8H: Ž 4 + E 1 + N 1 + A 1 = 7, x2 on the star = 14 (no letter premium).
    assert any(str(m) == "8E ŽENA 14" for m in moves)
    assert np.all(ts.bag_counts >= 1)


def test_arena_endgame_agent_takes_a_cpu_budget() -> None:
    from stratagem.core.arena import ArenaError, parse_spec
    from stratagem.games.scrabble.endgame import EndgameAgent

    game = load_game("scrabble")
    agent = game.make_agent("english", parse_spec("endgame:time=1.5"))
    assert isinstance(agent, EndgameAgent) and agent.time_limit == 1.5
    for bad in ("0", "nan", "x", "4000"):
        with pytest.raises(ArenaError, match=r"time must be a number > 0\.0 and <= 3600\.0"):
            game.make_agent("english", parse_spec(f"endgame:time={bad}"))
