"""Shared fixtures of the adapter tests: a small Scrabble word list (fast move lists)."""

from __future__ import annotations

from pathlib import Path

import pytest

WORDS = """
at ta act cat tac as is it its sit tis tie ties site bit bits tab tabs bat bats stab
rat rats tar tars art arts star eat eats tea teas sea set east seat rate rates tear
tears stare ear ears era eras are ore roe rot rots tore sore rose toe toes note notes
one ones eon nose not ton tons son snot on no so to do go ago dog god nod don dot
in an and end den ten net nest sent tent rent dine nine line lion loin oil soil toil
"""


@pytest.fixture(scope="session")
def word_list(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("lexicon") / "words.txt"
    path.write_text("\n".join(WORDS.split()) + "\n", encoding="utf-8")
    return path
