"""The built-in word lists: ENABLE shipped in the package for English, the informal list
stripped of abbreviations, foreign tokens and proper names for Czech."""

from __future__ import annotations

import gzip
import hashlib
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from stratagem.core.errors import InvalidRulesError
from stratagem.games.scrabble import lexicon as lexicon_module
from stratagem.games.scrabble.lexicon import (
    ENABLE_FILE,
    ENABLE_NAME,
    ENABLE_SHA256,
    default_name,
    enable_text,
    informal_words,
    is_abbreviation,
)
from stratagem.games.scrabble.tiles import tile_set
from tests.games.scrabble.conftest import ENABLE
from tests.locking import exclusive

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = ROOT / "src" / "stratagem" / "games" / "scrabble" / "data" / ENABLE_FILE


def test_the_shipped_enable_decodes_to_the_published_list() -> None:
    text = enable_text()
    # SHA-256 of enable1.txt as published (172,823 words), the copy in shared/lexicons.
    assert hashlib.sha256(text.encode()).hexdigest() == ENABLE_SHA256
    assert ENABLE_SHA256 == "3f16130220645692ed49c7134e24a18504c2ca55b3c012f7290e3e77c63b1a89"
    assert text.count("\n") == 172_823 and text.startswith("aa\naah\naahed\n")


def test_the_shipped_enable_is_the_shared_copy_byte_for_byte() -> None:
    if not ENABLE.exists():
        pytest.skip(f"ENABLE word list not found at {ENABLE}")
    assert enable_text().encode() == ENABLE.read_bytes()


def test_the_build_script_makes_the_shipped_file_again(tmp_path: Path) -> None:
    if not ENABLE.exists():
        pytest.skip(f"ENABLE word list not found at {ENABLE}")
    out = tmp_path / ENABLE_FILE
    script = ROOT / "scripts" / "build_enable.py"
    cmd = [sys.executable, str(script), "--source", str(ENABLE), "--out", str(out)]
    subprocess.run(cmd, check=True, capture_output=True)
    assert out.read_bytes() == SHIPPED.read_bytes()  # reproducible: gzip without a date


def test_a_damaged_shipped_list_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with gzip.open(SHIPPED) as fh:
        coded = bytearray(fh.read())
    coded[1000] = ord("z") if coded[1000] != ord("z") else ord("y")  # one letter changed
    data = tmp_path / "data"
    data.mkdir()
    (data / ENABLE_FILE).write_bytes(gzip.compress(bytes(coded)))
    monkeypatch.setattr(lexicon_module.resources, "files", lambda _package: tmp_path)
    with pytest.raises(InvalidRulesError, match="damaged"):
        enable_text()


def test_a_missing_shipped_list_says_to_reinstall(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(lexicon_module.resources, "files", lambda _package: tmp_path)
    with pytest.raises(InvalidRulesError, match="reinstall"):
        enable_text()


@pytest.fixture(scope="module")
def default_english(run_tmp: Path):  # type: ignore[no-untyped-def]
    """The arena's (and so the CLI's and the page's) built-in English lexicon, built once
    for the xdist workers in the user's table cache (``$STRATAGEM_CACHE_DIR`` in CI)."""
    from stratagem.games.scrabble.spec import lexicon

    with warnings.catch_warnings(), exclusive(run_tmp / "lexcache", "default-english"):
        warnings.simplefilter("ignore")  # the skipped-words report
        return lexicon("english")


def test_the_default_english_lexicon_is_enable(default_english) -> None:  # type: ignore[no-untyped-def]
    lex = default_english
    assert lex.source == ENABLE_NAME == default_name("english")
    assert lex.word_count == 168_541  # ENABLE's words of 2-15 letters
    # words the informal list played or proposed (issue 36) are not words here
    for phony in ("GHT", "PCV", "FR", "YH", "QUT", "EXPL", "SYDOW", "FABIEN", "VIGO", "MACAU",
                  "CA", "MARTINEZ", "CATERINA", "KATERINA"):  # fmt: skip
        assert phony not in lex, phony
    for word in ("AA", "XU", "QAT", "MUZJIKS", "CWM"):  # (QI and ZA came after ENABLE)
        assert word in lex, word


def test_czech_abbreviations_are_the_words_without_a_syllable() -> None:
    czech = tile_set("czech")
    for abbreviation in ("ČR", "KČ", "TZV", "ČSSD", "HTTP", "DPH", "MHD"):
        assert is_abbreviation(abbreviation, czech), abbreviation
    # syllabic R and L carry a syllable between consonants (VLK, SMRT, ČTVRT, PRST)
    for word in ("VLK", "SMRT", "ČTVRT", "PRST", "KRK", "PES", "DEN"):
        assert not is_abbreviation(word, czech), word


@pytest.fixture(scope="module")
def czech_lists() -> tuple[set[str], set[str]]:
    """The built-in informal Czech list and the same walk unstripped (built once here)."""
    czech = tile_set("czech")
    return set(informal_words(czech)), set(informal_words(czech, strip=False))


def test_the_informal_czech_list_leaves_out_abbreviations_and_foreign_tokens(
    czech_lists: tuple[set[str], set[str]],
) -> None:
    words, unstripped = czech_lists
    assert len(words) == len(unstripped) == 250_000  # filled from further down the ranking
    for token in ("ČR", "KČ", "TZV", "ČSSD", "AND", "YOU", "HOUSE", "SCHOOL", "MADRID", "CHICAGO"):
        assert token in unstripped and token not in words, token
    for word in ("DEN", "ON", "NO", "PES", "VLK", "SMRT", "ŽIVOT", "PRAVDA", "KNIHA"):
        assert word in words, word


def test_the_informal_czech_list_leaves_out_names_but_keeps_words_that_are_names_too(
    czech_lists: tuple[set[str], set[str]],
) -> None:
    words, unstripped = czech_lists
    # names of issue 36 and docs/lexicons.md, with declined forms
    for name in ("PETR", "PETROVI", "PETREM", "JANA", "JANĚ", "JANOU", "PRAHA", "PRAZE", "BRNO",
                 "BRNĚ", "PAVEL", "PAVLA", "TOMÁŠE", "JIŘÍHO", "LENCE", "ŠIMONOVI", "ZLÍN",
                 "OLOMOUCI", "PARDUBICÍCH", "BOSTON", "ROLAND", "MARTINA", "HONZA", "JOHN",
                 "JOHNA", "HARRY", "HARRYHO", "SMITH", "ČECH", "ČEŠI", "NĚMCI", "GOOGLE",
                 "GOOGLU"):  # fmt: skip
        assert name in unstripped and name not in words, name
    # words that are names too (a town, a surname, a given name, a form of one) stay
    for word in ("PÍSEK", "TÁBOR", "OSTROV", "HRANICE", "SVOBODA", "SVOBODU", "ČERNÝ", "KRÁL",
                 "VÍTE", "DANĚ", "NADĚJE", "LEV", "VERONIKA", "FILIP", "TOM", "TOMU", "VĚRU",
                 "ČESKU", "KLADNĚ", "PRAHU", "PARK", "ROD", "BUD", "NORA", "NORY", "ŘEKA", "MÍRA",
                 "FANDA", "POLKA", "SONG"):  # fmt: skip
        assert word in words, word


def _words_played(games: int, seed: int) -> tuple[set[str], int]:
    """Every word (main and cross words) that greedy vs greedy formed in ``games`` games on
    the arena's default English rules, and how many placements were played."""
    from stratagem.core.play import Deal, play
    from stratagem.core.registry import load_game
    from stratagem.games.scrabble.board import Placement, new_tiles, score_tiles

    game = load_game("scrabble")
    words: set[str] = set()
    placements = 0

    def observe(state, player, action) -> None:  # type: ignore[no-untyped-def]
        nonlocal placements
        if player >= 0 and isinstance(action, Placement):
            laid = new_tiles(state.board_array, action, state.tiles)
            _, formed = score_tiles(state.board_array, laid, state.tiles)
            words.update(w.upper() for w in formed)
            placements += 1

    for i in range(games):
        agents = [game.make_agent("english", "greedy") for _ in range(2)]
        play(game.new_state("english", 2), agents, Deal(seed + i), observe)
    return words, placements


def _enable_words() -> set[str]:
    # the published file when present (independent of the package), else the shipped copy,
    # whose SHA-256 is the published file's (test above)
    text = ENABLE.read_text() if ENABLE.exists() else enable_text()
    return {w.upper() for w in text.split()}


def test_every_word_of_200_self_play_games_is_in_enable(default_english) -> None:  # type: ignore[no-untyped-def]
    # greedy self-play is fast (about 15 s for the 200 games on a loaded 2-core machine)
    words, placements = _words_played(200, seed=3600)
    assert placements > 200 * 15
    assert words - _enable_words() == set()
