"""The codecs: ids round-trip, chance ids carry our probabilities, observations fit their bounds."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.game import CHANCE
from stratagem.games.scrabble.lexicon import get_lexicon
from stratagem.interop import InteropError
from stratagem.interop.codecs import Codec, ScrabbleCodec, codec


def _walk(c: Codec, seed: int, limit: int = 10_000) -> int:
    """Play a random game through the codec, checking every step; returns the steps."""
    rng = np.random.default_rng(seed)
    state, pending, steps = c.new_state(), (), 0
    while not state.is_terminal() and steps < limit:
        if state.current_player == CHANCE:
            outcomes = c.chance_ids(state, pending)
            ids = [i for i, _ in outcomes]
            assert len(set(ids)) == len(ids) and all(0 <= i < c.num_chance_outcomes for i in ids)
            assert abs(sum(p for _, p in outcomes) - 1.0) < 1e-12
            pick = ids[rng.integers(len(ids))]
            state, pending = c.apply_chance(state, pending, pick)
        else:
            ids = c.legal_ids(state)
            assert ids == sorted(ids) and all(0 <= i < c.num_actions for i in ids)
            mask = c.mask(state)
            assert mask.sum() == len(ids) and mask[ids].all()
            for player in range(c.num_players):
                obs = c.observation(state, player)
                assert obs.shape == (c.observation_size,) and obs.dtype == np.float32
                assert (obs >= c.observation_low).all() and (obs <= c.observation_high).all()
            action = c.action(state, ids[rng.integers(len(ids))])
            assert c.action_id(state, action) in ids
            state = state.apply(action)
        steps += 1
    assert state.is_terminal()
    return steps


@pytest.mark.parametrize(
    "game, rules, players",
    [("pig", "pig", None), ("pig", "piglet", None), ("scorefour", None, None),
     ("yahtzee", "yahtzee", 1), ("yahtzee", "yatzy", 3)],
)  # fmt: skip
def test_random_games_keep_ids_masks_and_observations_consistent(game, rules, players):
    c = codec(game, rules, players)
    for seed in range(2):
        assert _walk(c, seed) > 0


def test_scrabble_codec_draws_one_tile_at_a_time_with_the_bag_odds(word_list):
    c = ScrabbleCodec(get_lexicon(word_list, "english"), 2)
    state = c.new_state()
    outcomes = dict(c.chance_ids(state, ()))
    bag = state.bag
    assert outcomes[0] == pytest.approx(bag[0] / sum(bag))  # A: 9 of 100
    assert outcomes[26] == pytest.approx(2 / 100)  # the blanks
    state, pending = c.apply_chance(state, (), 0)
    assert pending == (0,) and state.current_player == CHANCE
    assert dict(c.chance_ids(state, pending))[0] == pytest.approx((bag[0] - 1) / 99)
    assert _walk(c, 0) > 0


def test_yahtzee_ids_name_keeps_then_boxes():
    c = codec("yahtzee", "yahtzee", 1)
    assert c.num_actions == 462 + 13
    assert c.action_text(None, 0) == "keep -"
    assert c.action_text(None, 461) == "keep 6 6 6 6 6"
    assert c.action_text(None, 462) == "score ones"


def test_an_illegal_id_is_refused_with_the_legal_ones():
    c = codec("pig", "pig")
    with pytest.raises(InteropError, match="legal ids are: 0"):
        c.action(c.new_state(), 1)
    with pytest.raises(InteropError, match="whole number"):
        c.action(c.new_state(), "roll")


def test_pig_options_pass_through_and_wrong_players_are_refused():
    assert codec("pig", "pig", goal=20, catch_up_turn=True).rules.goal == 20
    with pytest.raises(InteropError, match="2 players"):
        codec("pig", "pig", 3)
    with pytest.raises(InteropError, match="unknown game"):
        codec("chess")
