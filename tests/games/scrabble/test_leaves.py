"""Leave tables: the fit recovers a known table, files round-trip, bad files are refused."""

from __future__ import annotations

import json

import numpy as np
import pytest

from stratagem.games.scrabble.leaves import (
    MAX_COPIES,
    LeavesError,
    LeaveTable,
    SelfPlayRecords,
    anchor_leaves,
    fit_leaves,
    fit_records,
    load_leaves,
    save_leaves,
    selfplay_records,
    selfplay_samples,
    shipped_leaves,
    table_values,
    vowels,
)
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.tiles import tile_set

TS = tile_set("english")


def random_leaves(rng: np.random.Generator, n: int) -> np.ndarray:
    pool = np.repeat(np.arange(TS.size + 1), TS.bag_counts)
    out = np.zeros((n, TS.size + 1), dtype=np.int64)
    for i in range(n):
        k = int(rng.integers(0, 7))
        for t in rng.choice(pool, size=k, replace=False):
            out[i, t] += 1
    return out


def test_fit_recovers_a_known_table() -> None:
    rng = np.random.default_rng(0)
    truth = LeaveTable.zeros(TS)
    truth.per_letter[TS.size, 1] = 25.0  # one blank
    truth.per_letter[TS.index["S"], 1] = 8.0
    truth.per_letter[TS.index["Q"], 1] = -7.0
    truth.per_letter[TS.index["E"], 2] = 1.0  # two E is worth less than twice one E
    kept = random_leaves(rng, 20_000)
    target = np.array([truth.value(k) for k in kept]) + 20.0 + rng.normal(0, 1.0, len(kept))
    fitted = fit_leaves(kept, target, TS, ridge=0.1)
    anchored = anchor_leaves(truth)  # the fit's convention: a random single tile averages 0
    for rack in ["?", "S", "Q", "ES", "QS?", "EE"]:
        counts = TS.rack_counts(rack)
        assert abs(fitted.value(counts) - anchored.value(counts)) < 0.5, rack
    assert fitted.value(np.zeros(TS.size + 1)) == 0.0  # the intercept (20) is taken off
    # differences between leaves of one size are the truth's, whatever the anchor
    diff = fitted.value(TS.rack_counts("?")) - fitted.value(TS.rack_counts("Q"))
    assert abs(diff - 32.0) < 0.5


def test_fit_with_pairs_recovers_a_pair_term() -> None:
    # Q and U together are worth 6 points more than Q and U apart (the truth), and the
    # S with the blank 4 more; a fit without pair terms cannot see it, one with them can.
    rng = np.random.default_rng(1)
    truth = LeaveTable.zeros(TS)
    truth.per_letter[TS.index["Q"], 1] = -9.0
    truth.per_letter[TS.size, 1] = 20.0
    q, u, s_, blank = TS.index["Q"], TS.index["U"], TS.index["S"], TS.size
    truth.pairs[min(q, u), max(q, u)] = 6.0
    truth.pairs[s_, blank] = 4.0
    assert truth.value(TS.rack_counts("QU")) == -9.0 + 6.0
    assert truth.value(TS.rack_counts("QUU")) == -9.0 + 6.0  # one term, whatever the copies
    kept = random_leaves(rng, 40_000)
    # enough leaves with both letters of each pair for the fit to see them
    kept[:3000, q] = 1
    kept[:3000, u] = np.maximum(kept[:3000, u], 1)
    kept[3000:6000, s_] = np.maximum(kept[3000:6000, s_], 1)
    kept[3000:6000, blank] = 1
    target = np.array([truth.value(k) for k in kept]) + rng.normal(0, 1.0, len(kept))
    with_pairs = fit_leaves(kept, target, TS, ridge=0.1, pairs=True)
    without = fit_leaves(kept, target, TS, ridge=0.1)
    assert abs(with_pairs.pairs[min(q, u), max(q, u)] - 6.0) < 0.3
    assert abs(with_pairs.pairs[s_, blank] - 4.0) < 0.3
    assert np.all(without.pairs == 0.0)
    synergy = [t.value(TS.rack_counts("QU")) - t.value(TS.rack_counts("Q"))
               - t.value(TS.rack_counts("U")) for t in (with_pairs, without)]  # fmt: skip
    # with pairs the fitted synergy is the truth's (plus the balance term's share)
    truth_synergy = (anchor_leaves(truth).value(TS.rack_counts("QU"))
                     - anchor_leaves(truth).value(TS.rack_counts("Q"))
                     - anchor_leaves(truth).value(TS.rack_counts("U")))  # fmt: skip
    assert abs(synergy[0] - truth_synergy) < 0.5
    assert abs(synergy[1] - truth_synergy) > 2.0
    # the vectorised values agree with the kernel's, pair terms included
    rows = kept[:500]
    assert np.allclose(table_values(with_pairs, rows), [with_pairs.value(k) for k in rows])


def test_pairs_round_trip_and_bad_pairs_are_refused(tmp_path) -> None:  # type: ignore[no-untyped-def]
    table = LeaveTable.zeros(TS)
    q, u = TS.index["Q"], TS.index["U"]
    table.pairs[min(q, u), max(q, u)] = 5.5
    table.pairs[TS.index["S"], TS.size] = -1.25
    path = tmp_path / "p.json"
    save_leaves(table, path)
    again = load_leaves(path, TS)
    assert np.array_equal(again.pairs, table.pairs)
    assert again.value(TS.rack_counts("QU?")) == table.value(TS.rack_counts("QU?"))
    data = json.loads(path.read_text())
    written = {(frozenset(item[:2]), item[2]) for item in data["pairs"]}
    assert written == {(frozenset("QU"), 5.5), (frozenset("S?"), -1.25)}
    # a version 1 file (before the pairs) still loads, with no pair terms
    old = dict(data, version=1)
    del old["pairs"]
    path.write_text(json.dumps(old))
    assert not load_leaves(path, TS).pairs.any()
    for bad, what in [
        ([["Q", "Q", 1.0]], "other letter"),
        ([["Q", "Ü", 1.0]], "letters of"),
        ([["Q", "U"]], "letter, other letter, value"),
        ([["Q", "U", "many"]], "finite"),
        ([["Q", "U", float("nan")]], "finite"),
        ([["Q", "U", 1.0], ["U", "Q", 2.0]], "twice"),
        ([["Q", "U", 0.0], ["U", "Q", 0.0]], "twice"),
        ({"QU": 1.0}, "list"),
    ]:
        path.write_text(json.dumps(dict(data, pairs=bad)))
        before = path.read_bytes()
        with pytest.raises(LeavesError, match=what):
            load_leaves(path, TS)
        assert path.read_bytes() == before
    path.write_text(json.dumps(dict(data, version=3)))
    with pytest.raises(LeavesError, match="version 3"):
        load_leaves(path, TS)


def test_anchor_makes_a_random_single_tile_worth_zero() -> None:
    table = LeaveTable.zeros(TS)
    table.per_letter[TS.size, 1] = 30.0
    table.per_letter[TS.index["E"], 1] = 3.0
    anchored = anchor_leaves(table)
    singles = [anchored.value(np.eye(TS.size + 1, dtype=np.int64)[i]) for i in range(TS.size + 1)]
    assert abs(float(np.dot(TS.bag_counts, singles))) < 1e-9
    assert anchored.value(np.zeros(TS.size + 1, dtype=np.int64)) == 0.0


def test_vowels() -> None:
    v = vowels(TS)
    assert [TS.letters[i] for i in np.flatnonzero(v)] == ["E", "A", "I", "O", "U"]
    cz = tile_set("czech")
    names = {cz.letters[i] for i in np.flatnonzero(vowels(cz))}
    assert {"Á", "Ů", "Y", "Ě"} <= names and "Ř" not in names


def test_file_round_trip_and_errors(tmp_path) -> None:  # type: ignore[no-untyped-def]
    table = LeaveTable.zeros(TS)
    table.per_letter[3, 1] = 2.5
    table.balance[2, 1] = -1.25
    path = tmp_path / "l.json"
    save_leaves(table, path)
    again = load_leaves(path, TS)
    assert np.array_equal(again.per_letter, table.per_letter)
    assert np.array_equal(again.balance, table.balance)
    with pytest.raises(LeavesError, match="czech"):
        load_leaves(path, tile_set("czech"))
    data = json.loads(path.read_text())
    data["per_letter"]["E"] = [0.0] * MAX_COPIES
    path.write_text(json.dumps(data))
    before = path.read_bytes()
    with pytest.raises(LeavesError, match="per_letter"):
        load_leaves(path, TS)
    assert path.read_bytes() == before
    data["per_letter"]["E"] = [float("nan")] * (MAX_COPIES + 1)
    path.write_text(json.dumps(data))
    with pytest.raises(LeavesError, match="finite"):
        load_leaves(path, TS)
    path.write_text("E 1.0")
    with pytest.raises(LeavesError, match="not JSON"):
        load_leaves(path, TS)


def test_shipped_tables_load() -> None:
    for name in ("english", "czech"):
        table = shipped_leaves(name)
        assert table.per_letter.shape == (tile_set(name).size + 1, MAX_COPIES + 1)
        # both are learned tables, not the all-zero fallback: a blank kept is worth points
        blank = tile_set(name).rack_counts("?")
        assert table.value(blank) > 5.0, name


def test_selfplay_samples_pair_each_move_with_the_next() -> None:
    lex = Lexicon.from_words(["at", "ta", "cat", "act", "eat", "tea", "ate", "sea", "set"], TS)
    kept, target = selfplay_samples(lex, LeaveTable.zeros(TS), 3, seed=0)
    assert kept.shape[1] == TS.size + 1 and len(kept) == len(target) > 0
    assert np.all(kept.sum(axis=1) <= 7) and np.all(target >= 0)


def test_stage_intercepts_keep_a_stage_offset_out_of_the_leaves() -> None:
    # Early samples (stage 0) score 30 more and hold the blank twice as often: one intercept
    # would credit the blank with part of the 30; one intercept per stage does not.
    rng = np.random.default_rng(1)
    kept = random_leaves(rng, 20_000)
    stage = rng.integers(0, 2, len(kept))
    blank = TS.size
    early_blank = (stage == 0) & (rng.random(len(kept)) < 0.5)
    kept[early_blank, blank] = np.maximum(kept[early_blank, blank], 1)
    truth = LeaveTable.zeros(TS)
    truth.per_letter[blank, 1] = 20.0
    target = np.array([truth.value(k) for k in kept]) + 30.0 * (stage == 0)
    target += rng.normal(0, 1.0, len(kept))
    one = fit_leaves(kept, target, TS, ridge=0.1)
    staged = fit_leaves(kept, target, TS, ridge=0.1, stage=stage)
    diff = TS.rack_counts("?"), TS.rack_counts("E")
    assert abs(staged.value(diff[0]) - staged.value(diff[1]) - 20.0) < 0.5
    assert one.value(diff[0]) - one.value(diff[1]) > 25.0


def test_table_values_match_the_kernel() -> None:
    rng = np.random.default_rng(2)
    table = LeaveTable(TS, rng.normal(0, 5, (TS.size + 1, MAX_COPIES + 1)),
                       rng.normal(0, 5, (MAX_COPIES + 1, MAX_COPIES + 1)))  # fmt: skip
    table.per_letter[:, 0] = 0.0
    kept = random_leaves(rng, 300)
    assert np.allclose(table_values(table, kept), [table.value(k) for k in kept])


def test_refits_price_the_next_leave_by_the_table_before() -> None:
    # Holding a blank is worth 10 next move, and the blank is kept for one more move: the
    # first fit (next leave priced at 0) sees 10, the second 10 + the blank's value again.
    rng = np.random.default_rng(3)
    kept = random_leaves(rng, 5_000)
    kept[:, TS.size] = 0
    kept[::2, TS.size] = 1
    has = kept[:, TS.size] > 0
    nxt = np.zeros_like(kept)
    nxt[has, TS.size] = 1
    records = SelfPlayRecords(kept, 10.0 * has, nxt, np.ones(len(kept), bool) & has,
                              np.full(len(kept), 50))  # fmt: skip
    start = LeaveTable.zeros(TS)
    once, _ = fit_records(records, TS, start, refits=1, ridge=0.01)
    twice, changes = fit_records(records, TS, start, refits=2, ridge=0.01)
    e = TS.rack_counts("E")
    b = TS.rack_counts("E?")
    assert abs(once.value(b) - once.value(e) - 10.0) < 0.5
    assert abs(twice.value(b) - twice.value(e) - 20.0) < 0.5
    assert len(changes) == 2 and changes[1] > 5.0
    with pytest.raises(LeavesError, match="refits"):
        fit_records(records, TS, start, refits=0)


def test_selfplay_records_pair_a_move_with_the_same_players_next() -> None:
    lex = Lexicon.from_words(["at", "ta", "cat", "act", "eat", "tea", "ate", "sea", "set"], TS)
    rec = selfplay_records(lex, LeaveTable.zeros(TS), 3, seed=0)
    assert len(rec) > 0 and rec.kept.shape == rec.next_kept.shape == (len(rec), TS.size + 1)
    assert np.all(rec.bag >= 7) and np.all(rec.score >= 0)
    assert np.all(rec.kept.sum(axis=1) <= 7) and np.all(rec.next_kept.sum(axis=1) <= 7)
    again = selfplay_records(lex, LeaveTable.zeros(TS), 3, seed=0)
    assert np.array_equal(again.kept, rec.kept) and np.array_equal(again.score, rec.score)


def test_an_unseen_second_copy_is_worth_what_the_first_is() -> None:
    # No sample holds two blanks: the second blank's increment has no data and the ridge
    # keeps it at 0, so two blanks are worth one blank (not nothing).
    rng = np.random.default_rng(4)
    kept = random_leaves(rng, 5_000)
    kept[:, TS.size] = np.minimum(kept[:, TS.size], 1)
    target = 25.0 * kept[:, TS.size] + rng.normal(0, 1.0, len(kept))
    table = fit_leaves(kept, target, TS, ridge=3.0)
    one, two = table.value(TS.rack_counts("E?")), table.value(TS.rack_counts("E??"))
    assert one > 20.0 and abs(two - one) < 1.0
