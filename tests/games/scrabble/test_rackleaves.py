"""Leaves learned from rack values: every rack of the bag enumerated once, a rack's value
is the equity player's best on its board, each leave's value is its exact expectation over
the draws (checked by brute force on a small bag), and runs refuse what they cannot use."""

from __future__ import annotations

import itertools
import json
import math
from pathlib import Path

import numpy as np
import pytest

from stratagem.games.scrabble import _rackleave_kernels as rk
from stratagem.games.scrabble import rackleaves as rl
from stratagem.games.scrabble._superleave_kernels import leave_rank, leave_sums
from stratagem.games.scrabble.heuristic import SCORE_WEIGHT
from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.superleaves import (
    InlineChunks,
    SuperleaveEquityAgent,
    SuperleavesError,
    _rank_table,
    shipped_superleaves,
)
from stratagem.games.scrabble.tiles import tile_set


def _brute_racks(caps: list[int], size: int) -> set[tuple[int, ...]]:
    out = set()
    for combo in itertools.product(*(range(c + 1) for c in caps)):
        if sum(combo) == size:
            out.add(combo)
    return out


@pytest.mark.parametrize("caps,size", [([2, 1, 3, 1], 3), ([1, 1, 1, 1, 1], 4), ([4, 2], 5)])
def test_every_rack_of_a_small_bag_once(caps: list[int], size: int) -> None:
    c = np.array(caps, dtype=np.int64)
    n = int(rk.count_racks(c, size))
    out = np.zeros((n, len(caps)), dtype=np.int8)
    assert rk.enumerate_racks(c, size, out) == n
    rows = {tuple(int(x) for x in r) for r in out}
    assert len(rows) == n and rows == _brute_racks(caps, size)


def test_english_racks_count() -> None:
    # 3,199,724 racks of 7 tiles: the coefficient of x^7 in the product over the 27 tiles
    # of (1 + x + ... + x^copies) for the English bag (9 A, 2 B, ..., 2 blanks)
    racks = rl.all_racks(tile_set("english"))
    assert racks.shape == (3_199_724, 27)
    assert (racks.sum(axis=1) == 7).all()
    assert (racks <= tile_set("english").bag_counts).all()


def _toy_expectation(caps: list[int], size: int, values: dict[tuple[int, ...], float]
                     ) -> dict[tuple[int, ...], float]:  # fmt: skip
    """Each leave's expected rack value by drawing tile by tile from the bag less the leave
    (a different route from the kernel's product of binomials)."""
    tiles = [t for t, c in enumerate(caps) for _ in range(c)]
    out: dict[tuple[int, ...], float] = {}
    for leave in _brute_leaves(caps, size):
        pool = list(tiles)
        for t, k in enumerate(leave):
            for _ in range(k):
                pool.remove(t)
        need = size - sum(leave)
        total, count = 0.0, 0
        for draw in itertools.combinations(range(len(pool)), need):  # every draw equally likely
            rack = list(leave)
            for i in draw:
                rack[pool[i]] += 1
            total += values[tuple(rack)]
            count += 1
        out[leave] = total / count
    return out


def _brute_leaves(caps: list[int], size: int) -> list[tuple[int, ...]]:
    return [r for k in range(1, size) for r in _brute_racks(caps, k)]


def test_leave_sums_are_the_expectation_over_draws() -> None:
    caps, size = [3, 1, 2, 2], 4
    c = np.array(caps, dtype=np.int64)
    n = int(rk.count_racks(c, size))
    racks = np.zeros((n, len(caps)), dtype=np.int8)
    rk.enumerate_racks(c, size, racks)
    rng = np.random.default_rng(3)
    values = rng.normal(0, 10, n)
    by_rack = {tuple(int(x) for x in r): float(v) for r, v in zip(racks, values, strict=True)}
    before, count = _rank_table(tuple(caps))
    total, weight = np.zeros(count), np.zeros(count)
    leave_sums(racks.astype(np.int64), values, c, before, total, weight)
    want = _toy_expectation(caps, size, by_rack)
    for leave, expected in want.items():
        rank = int(leave_rank(np.array(leave, dtype=np.int64), before))
        assert weight[rank] == pytest.approx(1.0, abs=1e-12)
        assert total[rank] == pytest.approx(expected, abs=1e-9)
    # the draw chances of the racks themselves sum to 1
    assert rk.rack_chances(racks.astype(np.int64), c).sum() == pytest.approx(1.0, abs=1e-12)


def test_board_correction_removes_each_boards_mean() -> None:
    values = np.array([10.0, 20.0, 5.0, 7.0, 100.0])
    which = np.array([0, 0, 1, 1, 2])
    out = rl.board_corrected(values, which)
    # board 0: mean 15, board 1: mean 6, board 2: mean 100; overall mean 28.4
    assert out == pytest.approx([23.4, 33.4, 27.4, 29.4, 28.4])


@pytest.fixture(scope="module")
def lexicon():  # type: ignore[no-untyped-def]
    return default_lexicon("english")


@pytest.fixture(scope="module")
def table():  # type: ignore[no-untyped-def]
    return shipped_superleaves("english")


def test_rack_value_is_the_equity_players_best(lexicon, table) -> None:  # type: ignore[no-untyped-def]
    from stratagem.core.play import play
    from stratagem.games.scrabble.state import Pass, ScrabbleState

    agent = SuperleaveEquityAgent(table, endgame=False)
    states = []

    def observe(state, player, action):  # type: ignore[no-untyped-def]
        if player >= 0 and state.bag_size() >= 7:
            states.append(state)

    play(ScrabbleState.new(lexicon, 2), [agent, agent], np.random.default_rng([5, 0]),
         observe=observe)  # fmt: skip
    checked = 0
    for state in states[::2]:
        best = agent.ranked(state, 1)[0][0]
        if isinstance(best.action, Pass):
            continue
        board = state.board_array.astype(np.int8)[None]
        rack = state.rack_array().astype(np.int8)[None]
        value = rl.rack_values(lexicon, table, board, rack, np.zeros(1, dtype=np.int64))[0]
        assert value == pytest.approx(best.value / SCORE_WEIGHT, abs=1e-3)
        checked += 1
    assert checked >= 4


def test_chunks_reproduce_from_the_seed(tmp_path: Path, lexicon, table) -> None:  # type: ignore[no-untyped-def]
    seen: list[tuple[int, int]] = []
    boards = rl.board_pool(lexicon, table, 2, 9, lambda d, n: seen.append((d, n)))
    assert seen == [(1, 2), (2, 2)]
    assert boards.ndim == 3 and boards.shape[1:] == (15, 15) and len(boards) >= 5
    pool = tmp_path / "pool.npy"
    np.save(pool, boards)
    task = rl.RackTask(3, "english", None, 11, 1, 1_000_000, 40, "", str(pool))
    a, b = rl.play_racks(task), rl.play_racks(task)
    assert np.array_equal(a["values"], b["values"]) and np.array_equal(a["boards"], b["boards"])
    other = rl.play_racks(rl.RackTask(3, "english", None, 12, 1, 1_000_000, 40, "", str(pool)))
    assert not np.array_equal(a["boards"], other["boards"])
    assert np.all(np.isfinite(a["values"])) and len(a["values"]) == 40


def test_run_refuses_bad_settings_and_missing_chunks(tmp_path: Path) -> None:
    with pytest.raises(SuperleavesError, match="chunk must be"):
        rl.RackRun(tmp_path / "r", "english", None, 1, 10, 10)
    with pytest.raises(SuperleavesError, match="board pool"):
        rl.RackRun(tmp_path / "r", "english", None, 1, 50_000, 0)
    run = rl.RackRun(tmp_path / "r", "english", None, 1, 50_000, 10)
    run.open()
    with pytest.raises(SuperleavesError, match="other settings"):
        rl.RackRun(tmp_path / "r", "english", None, 2, 50_000, 10).open()
    with pytest.raises(SuperleavesError, match="generation must be"):
        run.tasks(0, tmp_path / "pool.npy")
    assert len(run.tasks(1, tmp_path / "pool.npy")) == math.ceil(3_199_724 / 50_000)
    with pytest.raises(SuperleavesError, match=r"chunk0000\.npz is missing"):
        run.values(1)
    with pytest.raises(SuperleavesError, match="generation 1 has no table"):
        run.generation(2, None, InlineChunks())
    (run.gen_folder(1)).mkdir()
    damaged = run.chunk_path(1, 0)
    damaged.write_bytes(b"not a chunk")
    with pytest.raises(SuperleavesError, match="not a chunk of rack values"):
        run.values(1)
    assert damaged.read_bytes() == b"not a chunk"  # left as it was
    with pytest.raises(SuperleavesError, match="generations must be"):
        list(rl.rack_generations(run, 0, None, InlineChunks()))
    assert json.loads((tmp_path / "r" / rl.RUN_FILE).read_text())["seed"] == 1


def test_a_damaged_pool_or_table_is_named_before_any_work(tmp_path: Path) -> None:
    run = rl.RackRun(tmp_path / "r", "english", None, 1, 50_000, 10)
    run.open()
    pool = tmp_path / "r" / "pool.npy"
    pool.write_bytes(b"\x93NUMPY truncated")
    with pytest.raises(SuperleavesError, match="is not a board pool"):
        run.pool(None)
    assert pool.read_bytes() == b"\x93NUMPY truncated"  # left as it was
    np.save(pool, np.zeros((3, 9, 9), dtype=np.int8))
    with pytest.raises(SuperleavesError, match="15 x 15"):
        run.pool(None)
    np.save(pool, np.full((3, 15, 15), -1, dtype=np.int8))
    table = run.table_path(1)
    table.mkdir(parents=True)
    (table / "header.json").write_text("{not json")
    with pytest.raises(SuperleavesError, match=r"header\.json is not JSON"):
        run.generation(2, None, InlineChunks())
