"""Superleave tables: keys, lookups with the factored fallback, files, the shipped table, the
equity player's leave term, and the learning step."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from stratagem.core.files import FileInputError
from stratagem.games.scrabble import superleaves as sl
from stratagem.games.scrabble.heuristic import EquityAgent
from stratagem.games.scrabble.leaves import LeaveTable, shipped_leaves, table_values
from stratagem.games.scrabble.lexicon import default_lexicon
from stratagem.games.scrabble.state import ScrabbleState
from stratagem.games.scrabble.superleaves import (
    LeaveSamples,
    SuperleaveEquityAgent,
    SuperleavesError,
    SuperleaveTable,
    build_superleaves,
    counts_of,
    keys_of,
    leave_key,
    load_superleaves,
    parse_superleaves,
    save_superleaves,
    shipped_superleaves,
    value_of,
)
from stratagem.games.scrabble.tiles import tile_set

TS = tile_set("english")
WIDTH = TS.size + 1


def rack(text: str) -> np.ndarray:
    return TS.rack_counts(text).astype(np.int64)


def small_table(fallback: LeaveTable | None = None) -> SuperleaveTable:
    leaves = ["AEINST", "?", "QU", "S"]
    keys = np.array([leave_key(rack(t), TS) for t in leaves])
    order = np.argsort(keys)
    return SuperleaveTable(TS, keys[order], np.array([30.0, 25.0, -1.0, 8.0])[order],
                           np.array([5, 900, 40, 2000])[order],
                           fallback or shipped_leaves(TS), "test")  # fmt: skip


def test_keys_round_trip_and_agree_with_the_kernel() -> None:
    rng = np.random.default_rng(5)
    pool = np.repeat(np.arange(WIDTH), TS.bag_counts)
    kept = np.zeros((300, WIDTH), dtype=np.int64)
    for i in range(300):
        for t in rng.choice(pool, size=int(rng.integers(1, 7)), replace=False):
            kept[i, t] += 1
    keys = keys_of(kept)
    assert np.array_equal(counts_of(keys, WIDTH), kept)
    assert [leave_key(k, TS) for k in kept[:50]] == list(keys[:50])
    assert leave_key(rack("AEINRST"), TS) == -1  # seven tiles are no leave


def test_a_learned_leave_is_looked_up_and_the_others_fall_back() -> None:
    table = small_table()
    fallback = table.fallback
    assert value_of(table, "AEINST") == pytest.approx(30.0)
    assert value_of(table, "TSANIE") == pytest.approx(30.0)  # any order of the tiles
    assert value_of(table, "?") == pytest.approx(25.0)
    assert value_of(table, "AEINRT") == pytest.approx(fallback.value(rack("AEINRT")))
    assert table.learned(rack("QU")) and not table.learned(rack("Q"))
    assert table.value(np.zeros(WIDTH, dtype=np.int64)) == 0.0


def test_files_round_trip(tmp_path) -> None:  # type: ignore[no-untyped-def]
    table = small_table()
    path = tmp_path / "t.npz"
    save_superleaves(table, path)
    back = load_superleaves(path, TS)
    assert np.array_equal(back.keys, table.keys)
    assert np.allclose(back.values, table.values)
    assert np.array_equal(back.samples, table.samples)
    assert back.note == "test"


def _blob(header: dict[str, object], keys: list[int], values: list[float]) -> bytes:
    buf = io.BytesIO()
    np.savez_compressed(buf, header=np.array(json.dumps(header)),
                        keys=np.array(keys, dtype=np.uint32),
                        values=np.array(values, dtype=np.float32),
                        samples=np.ones(len(keys), dtype=np.uint32))  # fmt: skip
    return buf.getvalue()


GOOD = {"format": sl.FORMAT, "version": sl.VERSION, "tiles": "english", "leaves": 1}


@pytest.mark.parametrize(
    ("header", "keys", "values", "message"),
    [
        ({**GOOD, "tiles": "czech"}, [1], [1.0], "czech"),
        ({**GOOD, "format": "other"}, [1], [1.0], "not a stratagem-scrabble-superleaves"),
        ({**GOOD, "version": 9}, [1], [1.0], "version 9"),
        ({**GOOD, "leaves": 5}, [1], [1.0], "claims 5 leaves"),
        (GOOD, [26 | (26 << 5)], [1.0], "more copies"),  # ZZ: one Z in the bag
        (GOOD, [28], [1.0], "beyond"),
        (GOOD, [1], [float("nan")], "finite"),
        (GOOD, [1], [500.0], "finite"),
        ({**GOOD, "leaves": 2}, [2, 1], [1.0, 1.0], "sorted"),
    ],
)
def test_bad_files_are_refused_naming_the_problem(header, keys, values, message) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SuperleavesError, match=message):
        parse_superleaves(_blob(header, keys, values), TS)


def test_truncated_oversized_and_foreign_files_are_refused_and_left_alone(
    tmp_path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    blob = small_table().to_bytes()
    path = tmp_path / "cut.npz"
    path.write_bytes(blob[: len(blob) // 2])
    with pytest.raises(SuperleavesError, match="not a superleave table"):
        load_superleaves(path, TS)
    assert path.read_bytes() == blob[: len(blob) // 2]
    text = tmp_path / "leaves.json"
    text.write_text('{"format": "stratagem-scrabble-leaves"}')
    with pytest.raises(SuperleavesError, match="not a superleave table"):
        load_superleaves(text, TS)
    whole = tmp_path / "whole.npz"
    whole.write_bytes(blob)
    monkeypatch.setattr(sl, "MAX_FILE_BYTES", len(blob) - 1)
    with pytest.raises(FileInputError):
        load_superleaves(whole, TS)


def test_the_shipped_table_loads_and_says_what_the_data_says() -> None:
    table = shipped_superleaves("english")
    factored = table.fallback
    # experiments/scrabble_superleaves.py build --games 30000 (docs/results/scrabble_strength.md)
    assert len(table) == 13_695 and int(table.samples.sum()) == 421_167
    for text in ("?", "S", "Q", "E", "ER", "ST", "EARTS", "EINST"):
        assert table.learned(rack(text)), text
    # AEINST was never kept in 30,000 games: its value is the factored model's 14.9
    assert not table.learned(rack("AEINST"))
    assert value_of(table, "AEINST") == pytest.approx(factored.value(rack("AEINST")))
    assert factored.value(rack("AEINST")) == pytest.approx(14.9, abs=0.05)
    # the five-tile stems met often moved up from the factored values
    for text in ("EARTS", "EINST"):
        assert value_of(table, text) > factored.value(rack(text)) + 0.5, text
    singles = {t: value_of(table, t) for t in "ABCDEFGHIJKLMNOPQRSTUVWXYZ?"}
    assert max(singles, key=singles.__getitem__) == "?"
    assert sorted(singles, key=singles.__getitem__)[-2] == "S"
    assert min(singles, key=singles.__getitem__) == "Q"


def _position(seed: int, moves: int) -> ScrabbleState:
    lex = default_lexicon("english")
    rng = np.random.default_rng(seed)
    agent = EquityAgent(lex.tiles, endgame=False)
    s = ScrabbleState.new(lex)
    for _ in range(moves):
        while s.current_player < 0:
            s = s.apply(s.sample_chance(rng))
        s = s.apply(agent.act(s, rng))
    while s.current_player < 0:
        s = s.apply(s.sample_chance(rng))
    return s


def test_the_equity_players_leave_term_is_the_superleave_value() -> None:
    table = small_table()
    agent = SuperleaveEquityAgent(table, endgame=False)
    for seed in (1, 2):
        state = _position(seed, 6)
        cands = agent.candidates(state)
        assert len(cands) > 20
        for c in cands:
            after = state.apply(c.action)
            kept = np.array(after.racks[state.player], dtype=np.int64)
            assert c.leave_points(agent.weights_for("middle")) == pytest.approx(table.value(kept))


def test_build_pulls_a_leave_toward_its_mean_by_how_often_it_was_met() -> None:
    rng = np.random.default_rng(0)
    fallback = LeaveTable.zeros(TS)
    letters = rng.integers(0, TS.size, size=20_000)
    kept = np.zeros((20_000, WIDTH), dtype=np.int64)
    kept[np.arange(20_000), letters] = 1
    offset = np.where(letters == 3, 10.0, 0.0)  # O (letter 3) is worth 10 more than the rest
    targets = rng.normal(20.0, 5.0, size=20_000) + offset
    samples = LeaveSamples(keys_of(kept), targets.astype(np.float32),
                           np.zeros(20_000, dtype=np.int16))  # fmt: skip
    table, by_size = build_superleaves(samples, fallback, min_samples=1)
    shrink = by_size[1]
    assert TS.letters[3] == "O"
    d = value_of(table, "O")
    others = np.mean([value_of(table, t) for t in "ABCEFG"])
    assert d - others == pytest.approx(10.0, abs=1.0)
    n = int((letters == 3).sum())
    resid = targets[letters == 3] - targets.mean()
    assert d == pytest.approx(n / (n + shrink.k) * resid.mean(), rel=1e-6)
    assert shrink.within == pytest.approx(25.0, rel=0.1)


def test_build_refuses_too_little_data() -> None:
    samples = LeaveSamples(np.array([1] * 50), np.zeros(50, np.float32), np.zeros(50, np.int16))
    with pytest.raises(SuperleavesError, match="at least 100"):
        build_superleaves(samples, LeaveTable.zeros(TS))


def test_samples_reproduce_from_the_same_seed() -> None:
    from stratagem.games.scrabble.leaves import selfplay_records

    lex = default_lexicon("english")
    fallback = shipped_leaves(lex.tiles)
    a = LeaveSamples.of(selfplay_records(lex, fallback, 3, seed=11), fallback)
    b = LeaveSamples.of(selfplay_records(lex, fallback, 3, seed=11), fallback)
    assert len(a) > 20
    assert np.array_equal(a.keys, b.keys) and np.array_equal(a.targets, b.targets)
    # and the targets are next points + the factored value of the next leave
    assert np.all(np.isfinite(table_values(fallback, counts_of(a.keys, WIDTH))))
