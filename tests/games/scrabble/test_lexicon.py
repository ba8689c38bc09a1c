"""Lexicon: DAWG contents, skipped words, caching and its failure modes."""

from __future__ import annotations

import unicodedata
import warnings

import pytest

from stratagem.core.errors import InvalidRulesError
from stratagem.core.tables import TableCache
from stratagem.games.scrabble.lexicon import (
    KIND,
    Lexicon,
    default_words,
    informal_words,
    load_lexicon,
)
from stratagem.games.scrabble.tiles import tile_set

from .conftest import ENABLE, SMALL_WORDS


def test_dawg_holds_exactly_the_words(english) -> None:  # type: ignore[no-untyped-def]
    lex = Lexicon.from_words(SMALL_WORDS, english)
    assert set(lex.words()) == {w.upper() for w in SMALL_WORDS}
    assert lex.word_count == len(set(SMALL_WORDS))
    assert "quiz" in lex and "QUI" not in lex and "" not in lex and "QU1Z" not in lex


def test_dawg_is_minimal_for_shared_suffixes(english) -> None:  # type: ignore[no-untyped-def]
    lex = Lexicon.from_words(["bats", "cats", "rats", "bat", "cat", "rat"], english)
    # root -> {B,C,R} share one node -> A -> T(final) -> S(final): 5 nodes.
    assert lex.node_count == 5


def test_unspellable_words_are_counted_and_skipped(english) -> None:  # type: ignore[no-untyped-def]
    words = ["cat", "zzzz", "naïve", "a", "x" * 16, "don't", "dog"]
    lex = Lexicon.from_words(words, english)
    assert lex.word_count == 2
    assert lex.skipped == 5
    assert "ZZZZ" in lex.skipped_examples
    assert "skipped 5 words" in lex.report()


def test_czech_diacritics_in_any_normal_form(tmp_path) -> None:  # type: ignore[no-untyped-def]
    words = ["kůň", unicodedata.normalize("NFD", "řeka"), "ďábel", "chyba"]
    path = tmp_path / "cs.txt"
    path.write_text("\n".join(words) + "\n", encoding="utf-8")
    lex = load_lexicon(path, "czech", TableCache(tmp_path / "cache"))
    assert {"KŮŇ", "ŘEKA", "ĎÁBEL", "CHYBA"} <= set(lex.words())
    assert lex.skipped == 0


def test_cache_hit_and_corrupt_file_rebuilt(english, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "words.txt"
    path.write_text("\n".join(SMALL_WORDS))
    cache = TableCache(tmp_path / "cache")
    first = load_lexicon(path, english, cache)
    files = list((tmp_path / "cache").glob(f"{KIND}-*.tbl"))
    assert len(files) == 1
    second = load_lexicon(path, english, cache)
    assert set(second.words()) == set(first.words())
    blob = bytearray(files[0].read_bytes())
    blob[-3] ^= 0xFF
    files[0].write_bytes(bytes(blob))
    with pytest.warns(UserWarning, match="corrupt"):
        third = load_lexicon(path, english, cache)
    assert set(third.words()) == set(first.words())
    assert load_lexicon(path, english, cache).word_count == first.word_count


def test_changed_list_is_a_new_cache_entry(english, tmp_path) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "words.txt"
    cache = TableCache(tmp_path / "cache")
    path.write_text("cat\ndog\n")
    assert load_lexicon(path, english, cache).word_count == 2
    path.write_text("cat\ndog\nemu\n")
    assert load_lexicon(path, english, cache).word_count == 3


def test_bad_files_name_the_problem(english, tmp_path) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InvalidRulesError, match="cannot read lexicon"):
        load_lexicon(tmp_path / "missing.txt", english)
    bad = tmp_path / "latin1.txt"
    bad.write_bytes("caf\xe9\n".encode("latin-1"))
    with pytest.raises(InvalidRulesError, match="not UTF-8"):
        load_lexicon(bad, english, TableCache(tmp_path / "cache"))


def test_default_words_are_spellable(english) -> None:  # type: ignore[no-untyped-def]
    czech_words = default_words(tile_set("czech"))
    assert len(czech_words) > 100_000
    assert all(w.isalpha() and 2 <= len(w) <= 15 for w in czech_words[:1000])
    # the informal English list (the default before ENABLE) is in frequency order
    assert "THE" in informal_words(english, strip=False)[:10]
    # the built-in English list is ENABLE, upper case like the others
    english_words = default_words(english)
    assert len(english_words) == 172_823 and english_words[:3] == ["AA", "AAH", "AAHED"]


@pytest.mark.slow
def test_enable_build_and_load(english, tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    if not ENABLE.exists():
        pytest.skip("ENABLE not present")
    cache = TableCache(tmp_path)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        lex = load_lexicon(ENABLE, english, cache)
    assert lex.word_count > 168_000
    assert sum(p.stat().st_size for p in tmp_path.iterdir()) < 50e6
    monkeypatch.setattr(Lexicon, "from_words", None)  # a second build would fail: a cache hit
    again = load_lexicon(ENABLE, english, cache)
    assert again.word_count == lex.word_count and "QUIXOTIC" in again
