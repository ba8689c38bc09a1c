"""``arena run --game scrabble --lexicon PATH``: any word list, refused with a named error."""

from __future__ import annotations

from pathlib import Path

import pytest

from stratagem.core.arena import load_game, make_experiment, read_results
from stratagem.core.errors import ArenaError, InvalidRulesError
from stratagem.games.scrabble import lexicon as lexicon_module
from stratagem.games.scrabble import spec as scrabble_spec
from tests.cli_outcome import outcome
from tests.games.scrabble.conftest import SMALL_WORDS

RUN = ["arena", "run", "--game", "scrabble", "--agents", "greedy,greedy", "--workers", "1"]


@pytest.fixture(autouse=True)
def private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STRATAGEM_CACHE_DIR", str(tmp_path / "cache"))
    scrabble_spec.lexicon.cache_clear()


def word_list(tmp_path: Path) -> Path:
    path = tmp_path / "words.txt"
    path.write_text("\n".join(SMALL_WORDS) + "\n", encoding="utf-8")
    return path


def test_a_match_plays_on_the_given_word_list_and_names_it(tmp_path: Path) -> None:
    words = word_list(tmp_path)
    out = tmp_path / "r.csv"
    code, output = outcome([*RUN, "--lexicon", str(words), "--games", "2", "--out", str(out)])
    assert code == 0, output
    rows = read_results(out)
    assert len(rows) == 2
    assert {r["rules"] for r in rows} == {f"english:{words}"}
    lex = scrabble_spec.lexicon(f"english:{words}")
    assert lex.word_count == len(set(SMALL_WORDS)) and "QUIZ" in lex and "ZZZ" not in lex


def test_a_relative_path_is_made_absolute(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    word_list(tmp_path)
    monkeypatch.chdir(tmp_path)
    exp = make_experiment("scrabble", "english:words.txt", ["greedy", "greedy"], 0)
    assert exp.rules == f"english:{tmp_path / 'words.txt'}"


def test_rules_with_a_path_build_the_same_lexicon_as_load_lexicon(tmp_path: Path) -> None:
    words = word_list(tmp_path)
    game = load_game("scrabble")
    lex = game.rules_object(game.check_rules(f"english:{words}"))
    assert sorted(lex.words()) == sorted(w.upper() for w in set(SMALL_WORDS))


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read lexicon"),
        (b"caf\xe9\n", "not UTF-8"),
        (b"", "holds no word"),
        (b"x\n123\nqqqqq\n", "holds no word"),
    ],
)
def test_bad_word_lists_are_refused_with_a_named_error_and_left_alone(
    tmp_path: Path, content: bytes | None, message: str
) -> None:
    path = tmp_path / "list.txt"
    if content is not None:
        path.write_bytes(content)
    out = tmp_path / "r.csv"
    code, output = outcome([*RUN, "--lexicon", str(path), "--games", "2", "--out", str(out)])
    assert code == 2 and message in output and not out.exists()
    if content is not None:
        assert path.read_bytes() == content


def test_an_oversized_word_list_is_refused_before_it_is_read_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    words = word_list(tmp_path)
    monkeypatch.setattr(lexicon_module, "LEXICON_LIMIT", 100)
    code, output = outcome([*RUN, "--lexicon", str(words), "--out", str(tmp_path / "r.csv")])
    assert code == 2 and "larger than 100 bytes" in output


def test_a_folder_is_refused(tmp_path: Path) -> None:
    code, output = outcome([*RUN, "--lexicon", str(tmp_path), "--out", str(tmp_path / "r.csv")])
    assert code == 2 and "error:" in output and "lexicon" in output


def test_unknown_tile_set_or_bare_path_names_what_is_allowed(tmp_path: Path) -> None:
    words = word_list(tmp_path)
    with pytest.raises(ArenaError, match="the presets are: english, czech; a preset takes lexicon"):
        make_experiment("scrabble", f"klingon:{words}", ["greedy", "greedy"], 0)
    with pytest.raises(InvalidRulesError, match="write preset, preset:value or preset:key=value"):
        make_experiment("scrabble", str(words), ["greedy", "greedy"], 0)
    code, output = outcome(
        [*RUN, "--rules", "klingon", "--lexicon", str(words), "--out", str(tmp_path / "r.csv")]
    )
    assert code == 2 and "unknown rules 'klingon' for scrabble" in output


def test_the_word_list_is_a_rule_parameter(tmp_path: Path) -> None:
    words = word_list(tmp_path)
    exp = make_experiment("scrabble", f"english:lexicon={words}", ["greedy", "greedy"], 0)
    assert exp.rules == f"english:{words}"


def test_lexicon_is_a_scrabble_option(tmp_path: Path) -> None:
    words = word_list(tmp_path)
    code, output = outcome(
        ["arena", "run", "--game", "pig", "--agents", "hold:20,hold:25", "--lexicon",
         str(words), "--out", str(tmp_path / "r.csv")]
    )  # fmt: skip
    assert code == 2 and "--lexicon is for scrabble" in output


def test_a_refused_word_list_is_not_cached(tmp_path: Path) -> None:
    """A 200 MB list of NUL bytes was refused, yet left a 209 MB lexicon in the cache
    (its one enormous line kept as an example of a skipped line)."""
    from stratagem.core.tables import TableCache

    cache = TableCache(tmp_path / "lexicons")
    path = tmp_path / "zeros.txt"
    path.write_bytes(b"\x00" * 100_000 + b"\nqqqqq\n")
    with pytest.raises(InvalidRulesError, match="holds no word"):
        lexicon_module.load_lexicon(path, "english", cache)
    cached = list((tmp_path / "lexicons").rglob("*")) if (tmp_path / "lexicons").exists() else []
    assert [p for p in cached if p.is_file()] == []
    words = tmp_path / "some.txt"
    words.write_text("\x00" * 5000 + "\ncat\nat\n")
    with pytest.warns(UserWarning, match="skipped"):
        lex = lexicon_module.load_lexicon(words, "english", cache)
    assert lex.word_count == 2 and max(len(e) for e in lex.skipped_examples) <= 40
