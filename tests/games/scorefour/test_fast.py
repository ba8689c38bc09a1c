"""Score Four's compiled game interface: the encoded moves agree with ScoreFourState."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.errors import InvalidRulesError, InvalidStateError
from stratagem.core.game import TERMINAL
from stratagem.games.pig.rules import preset
from stratagem.games.pig.state import PigState
from stratagem.games.scorefour import _kernels as K
from stratagem.games.scorefour.board import parse_peg
from stratagem.games.scorefour.fast import decode, encode, fast_game, policy, rollout
from stratagem.games.scorefour.state import DRAW, ScoreFourState, has_four

DRAWN = "ooxxxxoooooxxoox/xxxoxooxoxxxxooo/oxoxoxxoxoxxooxx/ooxoxooxooxoxxxo"
"""A full board without a line (tests/games/scorefour/test_state.py); O's last bead is on d4."""


def random_game(rng: np.random.Generator) -> list[ScoreFourState]:
    """The positions of one game of uniformly random moves, start and end included."""
    state = ScoreFourState.new()
    out = [state]
    while not state.is_terminal():
        moves = state.legal_actions()
        state = state.apply(moves[int(rng.integers(len(moves)))])
        out.append(state)
    return out


def check_position(state: ScoreFourState) -> None:
    """Every compiled function agrees with the protocol at ``state`` and after each move."""
    s = encode(state)
    assert decode(s) == state
    assert K.fast_player(s) == state.current_player
    legal = np.empty(16, dtype=np.int64)
    n = K.fast_legal(s, legal)
    assert legal[:n].tolist() == state.legal_actions()
    returns = np.empty(2)
    K.fast_returns(s, returns)
    if state.current_player == TERMINAL:
        assert tuple(returns) == state.returns()
        return
    assert tuple(returns) == (0.0, 0.0) == state.returns()
    after = np.empty(K.FAST_SIZE, dtype=np.int64)
    before = s.copy()
    for peg in legal[:n]:
        K.fast_apply(s, peg, after)
        assert np.array_equal(s, before)  # the source is left unchanged
        assert decode(after) == state.apply(int(peg)), (state.to_string(), peg)


def test_encoded_moves_agree_with_the_state_on_random_games() -> None:
    rng = np.random.default_rng(11)
    ends = set()
    for _ in range(60):
        for state in random_game(rng):
            check_position(state)
        ends.add(state.winner)
    assert ends >= {0, 1}


def test_a_drawn_board_and_the_top_cell_of_d4() -> None:
    # d4's top cell is bit 63, the sign bit of the encoded int64.
    before = ScoreFourState.from_string(DRAWN[:-1] + ".")
    check_position(before)
    drawn = before.apply(parse_peg("d4"))
    assert drawn.winner == DRAW
    s = encode(drawn)
    assert s[K.FAST_BEADS1] < 0 and s[K.FAST_WINNER] == K.FAST_DRAW
    check_position(drawn)
    for name in ("random", "tactical"):
        assert rollout(before, name, np.random.default_rng(0)) == (0.5, 0.5)


def test_rollouts_end_with_the_protocols_returns() -> None:
    rng = np.random.default_rng(3)
    for name in ("random", "tactical"):
        seen = {rollout(ScoreFourState.new(), name, rng) for _ in range(300)}
        assert seen <= {(1.0, 0.0), (0.0, 1.0), (0.5, 0.5)}
        assert {(1.0, 0.0), (0.0, 1.0)} <= seen
    won = ScoreFourState.from_string("xxxxooo.........")
    assert rollout(won, "random", rng) == won.returns() == (1.0, 0.0)


def test_the_tactical_playout_takes_a_win_the_random_one_may_miss() -> None:
    # X to move wins at d1; a random playout often plays elsewhere and loses.
    state = ScoreFourState.from_string("xxx.oo........../o...............")
    rng = np.random.default_rng(5)
    assert all(rollout(state, "tactical", rng) == (1.0, 0.0) for _ in range(200))
    assert any(rollout(state, "random", rng) != (1.0, 0.0) for _ in range(200))


def test_the_tactical_playout_blocks_an_immediate_loss() -> None:
    # X to move cannot win at once; O threatens d2. Blocking it is the only
    # move that does not lose next turn, and the tactical playout always takes it.
    state = ScoreFourState.from_string("x.x.ooo........./x...............")
    rng = np.random.default_rng(6)
    random_results = [rollout(state, "random", rng) for _ in range(300)]
    tactical_results = [rollout(state, "tactical", rng) for _ in range(300)]
    assert np.mean([r[0] for r in tactical_results]) > np.mean([r[0] for r in random_results])


_M64 = (1 << 64) - 1


def splitmix_below(stream: list[int], n: int) -> int:
    """``core._rng_kernels.below`` in Python: SplitMix64 (Steele, Lea & Flood 2014)."""
    stream[0] = (stream[0] + 0x9E3779B97F4A7C15) & _M64
    z = stream[0]
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    z ^= z >> 31
    return ((z >> 32) * n) >> 32


def reference_rollout(state: ScoreFourState, tactical: bool, seed: int) -> tuple[float, ...]:
    """The compiled playout written again over the protocol, drawing the same numbers."""
    stream = [seed]
    heights = state.heights()
    pegs = [p for p in range(16) if heights[p] < 4]  # removed by swapping in the last
    while not state.is_terminal():
        i = splitmix_below(stream, len(pegs))
        if tactical:
            me = state.player
            order = [(i + k) % len(pegs) for k in range(len(pegs))]
            drop = {j: 1 << state.drop_cell(pegs[j]) for j in order}
            wins = [j for j in order if has_four(state.beads[me] | drop[j])]
            blocks = [j for j in order if has_four(state.beads[1 - me] | drop[j])]
            i = (wins or blocks or [i])[0]
        peg = pegs[i]
        state = state.apply(peg)
        heights[peg] += 1
        if heights[peg] == 4:
            pegs[i] = pegs[-1]
            pegs.pop()
    return state.returns()


@pytest.mark.parametrize("name", ["random", "tactical"])
def test_the_compiled_playout_is_the_policy_over_the_protocol(name: str) -> None:
    rng = np.random.default_rng(21)
    out = np.empty(2)
    starts = [ScoreFourState.new(), ScoreFourState.from_string(DRAWN[:-2] + "..")]
    for _ in range(20):
        game = random_game(rng)
        starts.append(game[int(rng.integers(len(game)))])
    for state in starts:
        for seed in range(10):
            K.fast_rollout(encode(state), np.array([seed], np.uint64), policy(name), out)
            assert tuple(out) == reference_rollout(state, name == "tactical", seed)


def test_seeded_rollouts_repeat() -> None:
    a = [rollout(ScoreFourState.new(), "random", np.random.default_rng(9)) for _ in range(3)]
    b = [rollout(ScoreFourState.new(), "random", np.random.default_rng(9)) for _ in range(3)]
    assert a == b


def test_the_fast_game_encodes_score_four_only_and_knows_the_policies() -> None:
    fast = fast_game()
    assert fast is fast_game("scorefour")
    assert fast.encode(PigState.new(preset("pig"))) is None
    assert fast.encode(ScoreFourState.new()) is not None
    assert fast.decode_action(ScoreFourState.new(), 9) == 9
    assert fast.max_outcomes == 1 and fast.max_actions == 16 and fast.state_size == K.FAST_SIZE
    assert policy("tactical").tolist() == [K.ROLLOUT_TACTICAL]
    with pytest.raises(InvalidRulesError, match="unknown Score Four rollout policy 'greedy'"):
        policy("greedy")
    with pytest.raises(InvalidRulesError, match="one rule set"):
        fast_game("connect-four")
    with pytest.raises(InvalidStateError, match="needs a Score Four state"):
        rollout(PigState.new(preset("pig")), "random", np.random.default_rng(0))


@pytest.mark.parametrize(
    "array",
    [[0, 0], [1, 1, -1], [0, 0, 5], [0xF, 0x70, 1], [0xF, 0x70, -1]],
    ids=["short", "one-cell-twice", "bad-result", "winner-wrong", "won-but-in-play"],
)
def test_decode_refuses_arrays_that_encode_no_position(array: list[int]) -> None:
    with pytest.raises(InvalidStateError):
        decode(np.array(array, dtype=np.int64))
