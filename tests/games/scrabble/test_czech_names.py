"""Czech proper names and their forms (stratagem.games.scrabble.czech_names), which the
informal Czech list leaves out."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.core.errors import InvalidRulesError
from stratagem.games.scrabble import czech_names
from stratagem.games.scrabble.czech_names import (
    COMMON_WORDS,
    KINDS,
    NAMES_FILE,
    name_forms,
    name_test,
    read_names,
)


def test_given_names_decline_as_czech_declines_them() -> None:
    assert {"PETRA", "PETROVI", "PETŘE", "PETREM", "PETROVÉ", "PETRŮV", "PETROVA"} <= name_forms(
        "PETR", "given"
    )
    assert {"JANY", "JANĚ", "JANU", "JANO", "JANOU", "JANIN"} <= name_forms("JANA", "given")
    assert {"LENKY", "LENCE", "LENČIN"} <= name_forms("LENKA", "given")
    assert {"MARKA", "MARKOVI", "MARKEM", "MARKU"} <= name_forms("MAREK", "given")
    assert {"ZDEŇKA", "ZDEŇKOVI"} <= name_forms("ZDENĚK", "given")
    assert {"PAVLA", "PAVLOVI", "PAVLE"} <= name_forms("PAVEL", "given")
    assert {"TOMÁŠE", "TOMÁŠI", "TOMÁŠEM"} <= name_forms("TOMÁŠ", "given")
    assert {"JIŘÍHO", "JIŘÍMU", "JIŘÍM"} <= name_forms("JIŘÍ", "given")
    assert {"MARII", "MARIÍ"} <= name_forms("MARIE", "given")


def test_the_vocative_is_among_the_forms() -> None:
    # name -> vocative pairs from the test lists of the npm package vokativ 1.0.1 (MIT,
    # David Menger): test/man_first_name_tests, woman_first_name_tests, man_last_name_tests
    for name, vocative, kind in [
        ("PETR", "PETŘE", "given"), ("JAN", "JANE", "given"), ("TOMÁŠ", "TOMÁŠI", "given"),
        ("JIŘÍ", "JIŘÍ", "given"), ("PAVEL", "PAVLE", "given"), ("MAREK", "MARKU", "given"),
        ("ZDENĚK", "ZDEŇKU", "given"), ("DANIEL", "DANIELI", "given"), ("EVA", "EVO", "given"),
        ("JANA", "JANO", "given"), ("MARIE", "MARIE", "given"), ("NĚMEC", "NĚMČE", "surname"),
        ("KRÁL", "KRÁLI", "surname"), ("SVOBODA", "SVOBODO", "surname"),
        ("NOVÁKOVÁ", "NOVÁKOVÁ", "surname"),
    ]:  # fmt: skip
        assert vocative in name_forms(name, kind), (name, vocative)


def test_surnames_give_the_womens_forms() -> None:
    assert {"NOVÁKOVÁ", "NOVÁKOVÉ", "NOVÁKOVOU", "NOVÁKOVI"} <= name_forms("NOVÁK", "surname")
    assert {"NOVOTNÉHO", "NOVOTNÉMU"} <= name_forms("NOVOTNÝ", "surname")


def test_place_names_decline_by_their_ending() -> None:
    assert {"PRAZE", "PRAHY", "PRAHOU"} <= name_forms("PRAHA", "place")
    assert {"BRNA", "BRNĚ", "BRNEM"} <= name_forms("BRNO", "place")
    assert {"PARDUBIC", "PARDUBICÍCH"} <= name_forms("PARDUBICE", "place")
    assert {"SVITAV", "SVITAVÁCH"} <= name_forms("SVITAVY", "place")
    assert {"ZLÍNĚ", "ZLÍNA", "ZLÍNEM"} <= name_forms("ZLÍN", "place")
    assert {"OLOMOUCI", "OLOMOUCE"} <= name_forms("OLOMOUC", "place")
    assert {"LIBERCE", "LIBERCI"} <= name_forms("LIBEREC", "place")
    # ČESKU is also the word of "po česku" (in Czech): not made from ČESKO
    assert "ČESKU" not in name_forms("ČESKO", "place")


def test_nationalities_brands_and_names_from_abroad_decline_too() -> None:
    assert {"ČEŠI", "ČECHA", "ČECHŮ", "ČECHOVI"} <= name_forms("ČECH", "nationality")
    assert {"NĚMCI", "NĚMCE", "NĚMCEM"} <= name_forms("NĚMEC", "nationality")
    # a woman of a nation has no possessive: NĚMKA would make NĚMČINA, the language
    assert "ČEŠCE" in name_forms("ČEŠKA", "nationality")
    assert "NĚMČINA" not in name_forms("NĚMKA", "nationality")
    assert {"GOOGLU", "GOOGLEM"} <= name_forms("GOOGLE", "brand")
    assert {"SPARTY", "SPARTĚ"} <= name_forms("SPARTA", "brand")
    assert {"JOHNA", "JOHNOVI", "JOHNEM"} <= name_forms("JOHN", "foreign")
    assert {"HARRYHO", "HARRYMU"} <= name_forms("HARRY", "foreign")


def test_a_name_from_abroad_is_one_only_where_english_text_has_it_more() -> None:
    names = {n for n, _ in read_names()["foreign"]}
    assert {"JOHN", "HARRY", "SMITH"} <= names
    czech = {"JOHN": 4.5, "HARRY": 4.2, "LINDA": 3.6}
    english = {"JOHN": 5.3, "HARRY": 4.6, "LINDA": 3.4}
    is_name = name_test(lambda w: czech.get(w, 1.0), lambda w: english.get(w, 1.0))
    assert is_name("JOHN") and is_name("JOHNA") and is_name("HARRYHO")
    assert "LINDA" in names and not is_name("LINDA")  # made-up: more at home in Czech
    assert not name_test(lambda w: czech.get(w, 1.0))("JOHN")  # no English: not used


def test_an_unknown_kind_of_name_is_refused() -> None:
    with pytest.raises(ValueError, match="kind of name"):
        name_forms("PETR", "pet")


def test_the_shipped_list_holds_each_kind() -> None:
    names = read_names()
    assert set(names) == set(KINDS)
    given = {n for n, _ in names["given"]}
    places = dict(names["place"])
    assert {"PETR", "JANA", "JAN", "MARIE", "JIŘÍ"} <= given
    assert {"NOVÁK", "NOVÁKOVÁ"} <= {n for n, _ in names["surname"]}
    assert places["ZLÍN"] is not None and places["ZLÍN"] > 10_000
    assert places["PRAHA"] is None  # written for the list (no population: no guard)
    assert "DOBRÁ" not in places  # adjectival place names are words: left out
    assert {"ČECH", "ČEŠKA"} <= {n for n, _ in names["nationality"]}
    assert "GOOGLE" in {n for n, _ in names["brand"]}


def test_names_are_recognised_and_words_that_are_names_too_are_kept() -> None:
    freq = {"PETR": 4.8, "PETROVI": 3.5, "ZLÍN": 4.6, "ZLÍNĚ": 4.0, "PÍSEK": 4.2, "TOM": 6.0}
    is_name = name_test(lambda w: freq.get(w, 1.0))
    for name in ("PETR", "PETROVI", "ZLÍN", "ZLÍNĚ", "NOVÁKOVÁ"):
        assert is_name(name), name
    # common words that are names too: PÍSEK (sand, a town), TOM (that), SVOBODA (freedom)
    for word in ("PÍSEK", "TOM", "TOMU", "SVOBODA", "SVOBODU", "MOST", "VÍTE"):
        assert not is_name(word), word
    assert {"PÍSEK", "TOM", "SVOBODA", "MOST"} <= COMMON_WORDS  # SVOBODU: not made at all
    assert not is_name("ŽIVOT")  # no name at all


def test_a_form_far_more_frequent_than_its_name_is_a_word() -> None:
    assert "ALEŠE" in name_forms("ALEŠ", "given")
    rare = name_test(lambda w: {"ALEŠ": 4.0, "ALEŠE": 3.6}.get(w, 1.0))
    common = name_test(lambda w: {"ALEŠ": 4.0, "ALEŠE": 4.6}.get(w, 1.0))
    assert rare("ALEŠE") and not common("ALEŠE")


def test_a_village_named_far_more_than_its_size_would_be_is_a_word() -> None:
    population = dict(read_names()["place"])["DOUBRAVA"]
    assert population is not None and population < czech_names.BIG_PLACE
    assert name_test(lambda w: 1.0)("DOUBRAVA")  # as rare as a village: a name
    assert not name_test(lambda w: 5.0)("DOUBRAVA")  # an oak wood too: a word


def test_a_damaged_shipped_list_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    data.mkdir()
    (data / NAMES_FILE).write_text("given\tPETR\nanimal\tPES\n", encoding="utf-8")
    monkeypatch.setattr(czech_names.resources, "files", lambda _package: tmp_path)
    with pytest.raises(InvalidRulesError, match=r"damaged \(line 2\); reinstall"):
        read_names()


def test_a_missing_shipped_list_says_to_reinstall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(czech_names.resources, "files", lambda _package: tmp_path)
    with pytest.raises(InvalidRulesError, match="reinstall"):
        read_names()
