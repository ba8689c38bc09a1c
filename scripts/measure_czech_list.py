"""Measure the informal Czech word list against hunspell-cs (the table in docs/lexicons.md).

hunspell-cs is GPL-2: it is used here, on a developer's machine, as a yardstick only; the
package neither ships nor reads it. Expand it first with Debian's ``unmunch``::

    apt-get install hunspell-cs hunspell-tools
    unmunch /usr/share/hunspell/cs_CZ.dic /usr/share/hunspell/cs_CZ.aff > cs_forms.txt
    python scripts/measure_czech_list.py cs_forms.txt

A form listed in lower case counts as a word; one listed only capitalised as a name. The
script prints, for the unstripped list, the list with filter 1 (abbreviations and foreign
tokens) and the built-in list (names too), how many words fall in each column, then what
the name filter took out and what refilled the list.
"""

from __future__ import annotations

import argparse
import unicodedata
from pathlib import Path

from stratagem.games.scrabble import lexicon
from stratagem.games.scrabble.tiles import tile_set


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("forms", type=Path, help="unmunch output of cs_CZ.dic/cs_CZ.aff")
    args = parser.parse_args()

    lower: set[str] = set()
    capital: set[str] = set()
    with args.forms.open(encoding="utf-8") as fh:
        for line in fh:
            form = unicodedata.normalize("NFC", line.strip())
            if form:
                (lower if form[0].islower() else capital).add(form.upper())
    names = capital - lower

    czech = tile_set("czech")
    unstripped = lexicon.informal_words(czech, strip=False)
    built_in = lexicon.informal_words(czech)
    real_name_test = lexicon._name_test
    lexicon._name_test = lambda _language: None  # filter 1: no name test
    try:
        filter_1 = lexicon.informal_words(czech)
    finally:
        lexicon._name_test = real_name_test

    def columns(words: list[str] | set[str]) -> str:
        n = len(words)
        low = sum(w in lower for w in words)
        name = sum(w in names for w in words)
        rest = n - low - name
        shares = [f"{x:,} ({100 * x / max(n, 1):.1f}%)" for x in (low, name, rest)]
        return f"{n:,} | " + " | ".join(shares)

    print("list | words | lowercase | only capitalised (names) | neither")
    print("before stripping |", columns(unstripped))
    print("filter 1 |", columns(filter_1))
    print("built-in (filter 2) |", columns(built_in))
    print("taken out by the name filter |", columns(set(filter_1) - set(built_in)))
    print("read further down to refill |", columns(set(built_in) - set(filter_1)))
    print("last word taken:", built_in[-1])


if __name__ == "__main__":
    main()
