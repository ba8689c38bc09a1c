"""The game that ends on scoreless turns charges each player the rack they really hold."""

from __future__ import annotations

import numpy as np

from stratagem.core.play import play
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.position import read_position
from stratagem.games.scrabble.state import Exchange, ScrabbleState
from stratagem.games.scrabble.strategies import GreedyAgent, selfplay
from stratagem.games.scrabble.tiles import tile_set


def test_an_exchange_as_the_sixth_scoreless_turn_draws_before_the_game_ends(
    small_lexicon,  # type: ignore[no-untyped-def]
) -> None:
    text = "racks: QVZXJKW EEEAAII\nscores: 0 0\nscoreless: 5\nboard:\n" + "\n".join(
        ["." * 15] * 15
    )
    s = read_position(text, small_lexicon)
    s = s.apply(Exchange("QVZXJKW"))
    assert not s.is_terminal() and s.drawer == 0  # the exchanger still draws seven tiles
    s = s.apply(s.sample_chance(np.random.default_rng(3)))
    assert s.is_terminal()
    assert sum(s.racks[0]) == 7 and sum(s.racks[1]) == 7
    values = s.tiles.values_array
    assert s.scores == tuple(-int(np.dot(r, values)) for r in s.racks)
    before = read_position(text, small_lexicon)
    assert sum(s.bag) + 14 == sum(before.bag) + sum(map(sum, before.racks))  # tiles conserved


def test_with_no_words_both_seats_lose_a_full_rack_on_average() -> None:
    lexicon = Lexicon.from_words([], tile_set("english"))
    for i in range(4):
        agents = [GreedyAgent(), GreedyAgent()]
        end = play(ScrabbleState.new(lexicon, 2), agents, np.random.default_rng([5, i])).state
        assert isinstance(end, ScrabbleState)
        assert end.is_terminal() and all(sum(r) == 7 for r in end.racks)
        values = end.tiles.values_array
        assert end.scores == tuple(-int(np.dot(r, values)) for r in end.racks)
    summary = selfplay(lexicon, ["greedy", "greedy"], 8, 0)
    assert all(score < -5 for score in summary["mean_score"])  # type: ignore[attr-defined]
