"""Superleave tables: ranks and keys, lookups with the factored fallback, files, the shipped
complete table, the equity player's leave term, and the learning step."""

from __future__ import annotations

import functools
import io
import json
from pathlib import Path

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
    fallback_values,
    keys_of,
    leave_count,
    leave_key,
    leave_rank,
    leaves_of,
    load_superleaves,
    parse_superleaves,
    ranks_of,
    save_superleaves,
    shipped_superleaves,
    value_of,
)
from stratagem.games.scrabble.tiles import tile_set

TS = tile_set("english")
WIDTH = TS.size + 1
V1 = Path(__file__).parent / "data" / "superleaves_english_v1.npz"
"""The table shipped before the complete one (version 1: the 13,695 learned leaves only)."""


def rack(text: str) -> np.ndarray:
    return TS.rack_counts(text).astype(np.int64)


def small_table(fallback: LeaveTable | None = None) -> SuperleaveTable:
    leaves = ["AEINST", "?", "QU", "S"]
    ranks = np.array([leave_rank(rack(t), TS) for t in leaves])
    order = np.argsort(ranks)
    return SuperleaveTable(TS, ranks[order], np.array([30.0, 25.0, -1.0, 8.0])[order],
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


@pytest.mark.slow
def test_every_english_leave_has_one_rank_without_a_gap() -> None:
    size = leave_count(TS)
    assert size == 914_625  # 914,624 leaves of 1-6 tiles (the count Macondo's tables have) + 1
    ranks = np.arange(size)
    counts = leaves_of(ranks, TS)
    assert np.array_equal(ranks_of(counts, TS), ranks)
    assert counts.sum(axis=1).max() == 6 and np.all(counts <= TS.bag_counts)
    assert len({c.tobytes() for c in counts[::97]}) == len(counts[::97])
    assert [leave_rank(c, TS) for c in counts[:: 50_000]] == list(ranks[:: 50_000])
    assert leave_rank(rack("AEINRST"), TS) == -1


def test_english_ranks_round_trip_on_a_sample() -> None:
    ranks = np.arange(0, leave_count(TS), 37)
    counts = leaves_of(ranks, TS)
    assert np.array_equal(ranks_of(counts, TS), ranks)
    assert counts.sum(axis=1).max() == 6 and np.all(counts <= TS.bag_counts)


def test_czech_ranks_round_trip_on_a_sample() -> None:
    cz = tile_set("czech")
    size = leave_count(cz)
    assert size == 7_781_346
    ranks = np.random.default_rng(3).integers(0, size, 20_000)
    assert np.array_equal(ranks_of(leaves_of(ranks, cz), cz), ranks)
    with pytest.raises(SuperleavesError, match="rank must be"):
        leaves_of(np.array([size]), cz)


def test_a_learned_leave_is_looked_up_and_the_others_fall_back() -> None:
    table = small_table()
    fallback = table.fallback
    assert value_of(table, "AEINST") == pytest.approx(30.0)
    assert value_of(table, "TSANIE") == pytest.approx(30.0)  # any order of the tiles
    assert value_of(table, "?") == pytest.approx(25.0)
    assert value_of(table, "AEINRT") == pytest.approx(fallback.value(rack("AEINRT")))
    assert table.learned(rack("QU")) and not table.learned(rack("Q"))
    assert table.value(np.zeros(WIDTH, dtype=np.int64)) == 0.0


@pytest.mark.parametrize("complete", [False, True])
def test_files_round_trip(tmp_path, complete) -> None:  # type: ignore[no-untyped-def]
    table = _small_complete() if complete else small_table(shipped_leaves(TS))
    save_superleaves(table, tmp_path / "t")
    back = load_superleaves(tmp_path / "t", TS)
    assert np.array_equal(back.ranks, table.ranks)
    assert np.allclose(back.values, table.values)
    assert np.array_equal(back.samples, table.samples)
    assert back.note == "test" and (back.complete is not None) == complete
    if complete:
        assert isinstance(back.complete, np.memmap)  # read in place, not copied
        for text in ("AEINST", "AEINRT", "QU", "VVW"):
            assert back.value(rack(text)) == pytest.approx(table.value(rack(text)), abs=1e-5)


def _blob(header: dict[str, object], keys: list[int], values: list[float]) -> bytes:
    buf = io.BytesIO()
    np.savez_compressed(buf, header=np.array(json.dumps(header)),
                        keys=np.array(keys, dtype=np.uint32),
                        values=np.array(values, dtype=np.float32),
                        samples=np.ones(len(keys), dtype=np.uint32))  # fmt: skip
    return buf.getvalue()


GOOD = {"format": sl.FORMAT, "version": sl.VERSION_NPZ, "tiles": "english", "leaves": 1}


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
    blob = V1.read_bytes()
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
    assert table.complete is not None and table.size == 914_624
    for text in ("?", "S", "Q", "E", "ER", "ST", "EARTS", "EINST"):
        assert table.learned(rack(text)), text
    # AEINST was never kept in 30,000 games: its value is the factored model's 14.9
    assert not table.learned(rack("AEINST"))
    assert value_of(table, "AEINST") == pytest.approx(factored.value(rack("AEINST")), abs=1e-5)
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
    samples = LeaveSamples(ranks_of(kept, TS), targets.astype(np.float32),
                           np.zeros(20_000, dtype=np.int16))  # fmt: skip
    table, by_size = build_superleaves(samples, fallback, min_samples=1)
    shrink = by_size[1]
    assert TS.letters[3] == "O"
    d = value_of(table, "O")
    others = np.mean([value_of(table, t) for t in "ABCEFG"])
    assert d - others == pytest.approx(10.0, abs=1.0)
    n = int((letters == 3).sum())
    resid = targets[letters == 3] - targets.mean()
    assert d == pytest.approx(n / (n + shrink.k) * resid.mean(), rel=1e-6)  # float32 stored
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
    assert np.array_equal(a.ranks, b.ranks) and np.array_equal(a.targets, b.targets)
    assert np.all(np.isfinite(table_values(fallback, leaves_of(a.ranks, lex.tiles))))


def test_the_complete_table_repeats_the_version_1_values_on_every_leave() -> None:
    old = load_superleaves(V1, TS)  # learned leaves + the factored model at lookup
    new = shipped_superleaves("english")
    assert new.complete is not None
    # the learned leaves: the same float32 numbers, bit for bit
    assert np.array_equal(new.ranks, old.ranks) and np.array_equal(new.values, old.values)
    assert np.array_equal(new.complete[old.ranks].astype(np.float64), old.values)
    # every other leave: the factored value as the lookup computes it, rounded to float32
    rest = np.setdiff1d(np.arange(1, leave_count(TS)), old.ranks)
    assert len(rest) == 914_624 - 13_695
    factored = fallback_values(old.fallback, leaves_of(rest, TS))
    assert np.array_equal(new.complete[rest], factored.astype(np.float32))
    assert np.abs(new.complete[rest] - factored).max() < 8e-6  # half a float32 step at 128
    # and the lookups agree, learned or not
    rng = np.random.default_rng(9)
    for r in rng.choice(leave_count(TS) - 1, 300, replace=False) + 1:
        kept = leaves_of(np.array([r]), TS)[0]
        assert new.value(kept) == pytest.approx(old.value(kept), abs=8e-6)


def test_the_equity_player_makes_the_same_moves_with_the_complete_table() -> None:
    old = SuperleaveEquityAgent(load_superleaves(V1, TS), endgame=False)
    new = SuperleaveEquityAgent(shipped_superleaves("english"), endgame=False)
    rng = np.random.default_rng(0)
    for seed in range(12):
        state = _position(100 + seed, seed % 6 * 3)
        a, b = old.candidates(state), new.candidates(state)
        assert [str(c.action) for c in a[:10]] == [str(c.action) for c in b[:10]]
        assert str(old.act(state, rng)) == str(new.act(state, rng))


@functools.cache
def _small_complete() -> SuperleaveTable:
    return small_table(shipped_leaves(TS)).completed()  # 914,625 values: built once


def _folder(tmp_path: Path, complete: bool = True) -> Path:
    folder = tmp_path / "table"
    save_superleaves(_small_complete() if complete else small_table(shipped_leaves(TS)), folder)
    return folder


def _edit_header(folder: Path, **changes: object) -> None:
    header = json.loads((folder / "header.json").read_text())
    header.update(changes)
    (folder / "header.json").write_text(json.dumps(header))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"tiles": "czech"}, "for the 'czech' tiles"),
        ({"format": "other"}, "not a stratagem-scrabble-superleaves header"),
        ({"version": 3}, "version 3"),
        ({"leaves": 13_695}, "claims 13695 leaves"),
        ({"learned": 5}, "claims 5 learned leaves"),
        ({"complete": "yes"}, "whether the table is complete"),
        ({"complete": False}, "values.npy holds 914625 values; this table has 4"),
    ],
)
def test_folders_that_are_not_what_they_claim_are_refused(tmp_path, change, message) -> None:  # type: ignore[no-untyped-def]
    folder = _folder(tmp_path)
    _edit_header(folder, **change)
    with pytest.raises(SuperleavesError, match=message):
        load_superleaves(folder, TS)


def test_truncated_oversized_and_foreign_arrays_are_refused_and_left_alone(
    tmp_path, monkeypatch
) -> None:  # type: ignore[no-untyped-def]
    folder = _folder(tmp_path)
    values = folder / "values.npy"
    blob = values.read_bytes()
    values.write_bytes(blob[: len(blob) // 2])
    with pytest.raises(SuperleavesError, match=r"values\.npy is not a whole \.npy array"):
        load_superleaves(folder, TS)
    assert values.read_bytes() == blob[: len(blob) // 2]
    values.write_bytes(blob)
    (folder / "samples.npy").write_bytes(b"not numpy")
    with pytest.raises(SuperleavesError, match=r"samples\.npy is not a whole"):
        load_superleaves(folder, TS)
    (folder / "samples.npy").unlink()
    with pytest.raises(FileInputError, match="does not exist"):
        load_superleaves(folder, TS)
    folder = _folder(tmp_path / "b")
    monkeypatch.setattr(sl, "MAX_FILE_BYTES", len(blob) - 1)
    with pytest.raises(SuperleavesError, match="larger than"):
        load_superleaves(folder, TS)
    (folder / "header.json").write_text("{")
    with pytest.raises(SuperleavesError, match="not JSON"):
        load_superleaves(folder, TS)


def test_bad_values_in_a_folder_are_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    folder = _folder(tmp_path)
    values = np.load(folder / "values.npy")
    values[77] = np.nan
    np.save(folder / "values.npy", values)
    with pytest.raises(SuperleavesError, match="finite"):
        load_superleaves(folder, TS)
    np.save(folder / "values.npy", values.astype(np.float64))
    with pytest.raises(SuperleavesError, match="float32"):
        load_superleaves(folder, TS)
    folder = _folder(tmp_path / "b", complete=False)
    np.save(folder / "learned.npy", np.load(folder / "learned.npy")[::-1].copy())
    with pytest.raises(SuperleavesError, match="sorted"):
        load_superleaves(folder, TS)


def test_a_learned_only_table_over_another_factored_model_is_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    folder = _folder(tmp_path, complete=False)
    _edit_header(folder, fallback="another model")
    with pytest.raises(SuperleavesError, match="another factored table"):
        load_superleaves(folder, TS)
    assert load_superleaves(_folder(tmp_path / "b", complete=False), TS).complete is None


def test_the_equity_agent_takes_a_table_folder(tmp_path) -> None:  # type: ignore[no-untyped-def]
    from stratagem.core.registry import make_agent

    folder = _folder(tmp_path)
    agent = make_agent("scrabble", "english", f"equity:leaves={folder},endgame=off")
    assert isinstance(agent, SuperleaveEquityAgent)
    assert agent.evaluator.superleaves.value(rack("AEINST")) == pytest.approx(30.0)


def test_the_shipped_czech_table_holds_its_learned_leaves_and_falls_back_for_the_rest() -> None:
    from stratagem.core.registry import make_agent

    cz = tile_set("czech")
    table = shipped_superleaves("czech")
    # experiments/scrabble_superleaves.py build --tiles czech --games 32500 --learned-only
    # (docs/results/scrabble_strength.md)
    assert table.complete is None and table.size == 7_781_345
    assert len(table) == 46_855 and int(table.samples.sum()) == 535_252
    met = cz.rack_counts("ENST").astype(np.int64)
    unmet = cz.rack_counts("AEINST").astype(np.int64)
    assert table.learned(met) and not table.learned(unmet)
    assert table.value(unmet) == pytest.approx(table.fallback.value(unmet))
    agent = make_agent("scrabble", "czech", "equity:leaves=super,endgame=off")
    assert isinstance(agent, SuperleaveEquityAgent) and agent.evaluator.superleaves is table


# --- bingo chances ------------------------------------------------------------------------


def test_bingo_chances_by_counting_draws_by_hand() -> None:
    from itertools import combinations
    from math import comb, prod

    from stratagem.games.scrabble.lexicon import Lexicon

    lex = Lexicon.from_words(["abcdefg", "cat", "abcdefgh"], TS, "one seven")
    # ABCDEFG as it is, with one of its 7 letters a blank, or two of them: 1 + 7 + 21 racks
    assert len(sl.bingo_racks(lex)) == 29
    chance = sl.bingo_chances(lex)
    assert chance.shape == (sl.leave_count(TS),) and chance[0] == 0.0
    n = dict(zip(TS.letters, (int(x) for x in TS.bag_counts), strict=False))  # A 9, G 3...

    def of(leave: str) -> float:
        return float(chance[sl.leave_rank(TS.rack_counts(leave), TS)])

    # ABCDEF draws 1 of the 94 other tiles: a G (3) or a blank (2)
    assert of("ABCDEF") == pytest.approx(5 / 94, rel=1e-12)
    # ABCDE draws 2 of 95: FG, F?, G? or ??
    assert of("ABCDE") == pytest.approx((2 * 3 + 2 * 2 + 3 * 2 + 1) / comb(95, 2), rel=1e-12)
    # ?? draws 5 of 98: five different letters of ABCDEFG, one tile of each
    five = sum(prod(n[ch] for ch in pick) for pick in combinations("ABCDEFG", 5))
    assert of("??") == pytest.approx(five / comb(98, 5), rel=1e-12)
    # a leave with a tile the word lacks, or a second A, never makes it
    assert of("Z") == 0.0 and of("AA") == 0.0
