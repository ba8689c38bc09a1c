"""Leave tables: the fit recovers a known table, files round-trip, bad files are refused."""

from __future__ import annotations

import json

import numpy as np
import pytest

from stratagem.games.scrabble.leaves import (
    MAX_COPIES,
    LeavesError,
    LeaveTable,
    anchor_leaves,
    fit_leaves,
    load_leaves,
    save_leaves,
    selfplay_samples,
    shipped_leaves,
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


def test_selfplay_samples_pair_each_move_with_the_next() -> None:
    lex = Lexicon.from_words(["at", "ta", "cat", "act", "eat", "tea", "ate", "sea", "set"], TS)
    kept, target = selfplay_samples(lex, LeaveTable.zeros(TS), 3, seed=0)
    assert kept.shape[1] == TS.size + 1 and len(kept) == len(target) > 0
    assert np.all(kept.sum(axis=1) <= 7) and np.all(target >= 0)
