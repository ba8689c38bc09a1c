"""Scrabble's action ids cover every legal move, however many (issue 36: 99,525 > 65,536 crashed).

The pinned position came from a random game on the built-in (informal) English list: player 1
holds EIORS and two blanks on a half-full board, and has 187,676 legal moves (21,423 on ENABLE).
"""

from __future__ import annotations

import time

import numpy as np
import pytest

pytest.importorskip(
    "pettingzoo", reason="needs the interop extra: pip install 'stratagem[interop]'"
)

import itertools

from stratagem.games.scrabble.lexicon import informal_lexicon
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.interop.codecs import SCRABBLE_MAX_ACTIONS, MoveBlock, MoveChoice, ScrabbleCodec

BOARD = bytes.fromhex(
    "ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff03ffffff0111ffffffffffffffffff07ffff170a01ffffffffffffffffff02ffff0c0219ffffffffffffffffff12ff10070000ffffffffffffffffff000b05ff090effffffffffffffffff080300ffffffffffffffffffffffffff0514ffffffffffffffffffffffffff0a01020b03ffffffffffffff"
)
RACKS = (
    (1, 0, 1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0),
    (1, 0, 1, 1, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2),
)
BAG = (6, 6, 4, 4, 5, 3, 6, 2, 1, 2, 2, 1, 1, 2, 1, 1, 1, 0, 1, 2, 1, 1, 1, 0, 1, 0, 0)


@pytest.fixture(scope="module")
def two_blanks() -> ScrabbleState:
    # Pinned on the informal list (the English default before ENABLE), whose many short
    # "words" give this rack 137,000+ placements; the encoding does not depend on the list.
    state = ScrabbleState(
        informal_lexicon("english"), BOARD, RACKS, BAG, (164, 94), player=1, turn=7, bingos=(0, 0)
    )
    assert state.rack_text() == "EIORS??"
    return state


@pytest.fixture(scope="module")
def codec(two_blanks: ScrabbleState) -> ScrabbleCodec:
    return ScrabbleCodec(two_blanks.lexicon)


def test_the_pinned_rack_has_more_moves_than_ids(codec, two_blanks) -> None:  # type: ignore[no-untyped-def]
    assert len(codec.moves(two_blanks)) > 2 * SCRABBLE_MAX_ACTIONS


def test_the_blocks_cover_every_move_once(codec, two_blanks) -> None:  # type: ignore[no-untyped-def]
    moves = codec.moves(two_blanks)
    blocks = [codec.action(two_blanks, i) for i in codec.legal_ids(two_blanks)]
    assert all(isinstance(b, MoveBlock) for b in blocks)
    assert blocks[0].first == 0 and blocks[-1].stop == len(moves)
    assert all(a.stop == b.first for a, b in itertools.pairwise(blocks))
    assert int(codec.mask(two_blanks).sum()) == len(blocks)
    reached = []
    for block in blocks:
        choice = codec.apply(two_blanks, block)
        assert isinstance(choice, MoveChoice) and choice.current_player == 1
        ids = codec.legal_ids(choice)
        assert 0 < len(ids) <= SCRABBLE_MAX_ACTIONS and codec.mask(choice).sum() == len(ids)
        reached.extend(codec.action(choice, i) for i in (0, len(ids) // 2, len(ids) - 1))
        assert [codec.action(choice, i) for i in ids] == moves[block.first : block.stop]
    assert reached[-1] == moves[-1]


def test_a_move_past_the_first_block_is_played_in_two_steps(codec, two_blanks) -> None:  # type: ignore[no-untyped-def]
    from stratagem.interop.pettingzoo import StratagemAEC

    moves = codec.moves(two_blanks)
    target = SCRABBLE_MAX_ACTIONS + 17
    env = StratagemAEC(codec)
    env.reset(seed=1)
    env.position = two_blanks
    env.agent_selection = "player_1"
    obs, *_ = env.last()
    assert int(obs["action_mask"].sum()) == 3
    env.step(1)
    obs, reward, terminated, _truncated, _ = env.last()
    assert env.agent_selection == "player_1" and not terminated and reward == 0.0
    assert obs["observation"][-2:].tolist() == [SCRABBLE_MAX_ACTIONS + 1, 2 * SCRABBLE_MAX_ACTIONS]
    assert codec.action_id(env.position, moves[target]) == 17
    env.step(17)
    after = two_blanks.apply(moves[target])
    assert env.position.board == after.board and env.position.scores == after.scores


def test_openspiel_plays_the_block_step_as_the_players_own(codec, two_blanks) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("pyspiel")
    from stratagem.interop.openspiel import GAME_CLASSES

    game = GAME_CLASSES["stratagem_scrabble"]({})
    state = game.state_from(two_blanks)
    assert state.legal_actions() == [0, 1, 2]
    state.apply_action(2)
    assert state.current_player() == 1
    assert len(state.legal_actions()) == len(codec.moves(two_blanks)) - 2 * SCRABBLE_MAX_ACTIONS
    state.apply_action(0)
    assert state.current_player() != 1
    assert "choose among" in state.seen_by(1) and "choose among" not in state.seen_by(0)


@pytest.mark.slow
def test_a_thousand_random_pettingzoo_scrabble_games_end_without_an_error() -> None:
    """Random play on the built-in list: about 2% of games met a two-blank rack."""
    from stratagem.interop.pettingzoo import scrabble_env

    env = scrabble_env()
    widest, blocks, start = 0, 0, time.perf_counter()
    for game in range(1000):
        env.reset(seed=game)
        rng = np.random.default_rng(game)
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            widest = max(widest, len(legal))
            blocks += isinstance(env.position, MoveChoice)
            env.step(int(rng.choice(legal)))
        assert env.position.is_terminal()
    print(f"1000 games in {time.perf_counter() - start:.0f} s; {blocks} block steps")


def test_blocks_nest_when_even_the_blocks_are_too_many(word_list, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """With 4 ids (instead of 65,536) a first move of dozens of placements takes nested
    block steps, and every move is reached by exactly one path of ids."""
    import stratagem.interop.codecs as codecs
    from stratagem.games.scrabble.lexicon import load_lexicon

    monkeypatch.setattr(codecs, "SCRABBLE_MAX_ACTIONS", 4)
    small = ScrabbleCodec(load_lexicon(word_list, "english"))
    state = small.new_state()
    rng = np.random.default_rng(3)
    while state.current_player < 0:
        state = state.apply(state.sample_chance(rng))
    moves = small.moves(state)
    assert len(moves) > 16  # more than 4 blocks of 4: the blocks themselves come in blocks

    def every_path(choice):  # type: ignore[no-untyped-def]
        for i in small.legal_ids(choice):
            action = small.action(choice, i)
            if isinstance(action, MoveBlock):
                yield from every_path(small.apply(choice, action))
            else:
                yield action

    assert list(every_path(state)) == moves
    assert small.mask(state).sum() == len(small.legal_ids(state)) <= 4
