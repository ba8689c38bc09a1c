"""Czech proper names and their declined forms, to leave them out of the informal Czech list.

Scrabble allows no proper names, yet one word in ten of the informal Czech list (wordfreq's
most frequent Czech words) was one: PETR, JANA, PRAHA, BRNO and their forms PETROVI, JANĚ,
PRAZE, BRNĚ. wordfreq folds case, so a name cannot be told from a word by its spelling;
this module recognises the names of a shipped list (``data/czech_names.txt``: Czech given
names, the commonest surnames, nationalities, Czech place names, brands, and the commonest
given names and surnames from abroad, from open sources and short lists written for it,
made by ``scripts/build_czech_names.py``; licences in NOTICE) and generates the forms Czech
gives them (:func:`name_forms`: the cases of the singular and plural, possessives, women's
surnames in -OVÁ).

Many Czech names are also words: the surnames SVOBODA (freedom), ČERNÝ (black), KRÁL
(king), the towns MOST (bridge), TÁBOR (camp), PÍSEK (sand), the given name VERONIKA (a
plant). Guards keep them:

* :data:`COMMON_WORDS`, Czech words that are names too, written for this list: a name that
  is one of them is not used, and a generated form that is one is not removed;
* frequency: a form much more frequent than the name it was made from is a word in its own
  right (:data:`FORM_MARGIN`), a place name much more frequent than a place of its size
  would be is a word too (:data:`PLACE_MARGIN`), and a name from abroad counts only where
  English text has it at least as often as Czech text (:data:`ABROAD_MARGIN`).

>>> sorted(name_forms("PETR", "given"))[:6]
['PETR', 'PETRA', 'PETRECH', 'PETREM', 'PETROVA', 'PETROVI']
>>> "PRAZE" in name_forms("PRAHA", "place")
True
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache
from importlib import resources

from stratagem.core.errors import InvalidRulesError

NAMES_FILE = "czech_names.txt"
NAMES_LIMIT = 1 << 20
"""Largest shipped name list read (it is 83 KB)."""
KINDS = ("given", "surname", "nationality", "brand", "place", "foreign")
ABROAD_MARGIN = 0.0
"""A name from abroad (US Census given names and surnames: JOHN, HARRY, SMITH) is taken for
a name only if it is at least this much more frequent (Zipf units) in English than in
Czech: Czech words that are names there too (NORA a burrow, ROSA dew, MINA a mine) are far
more frequent in Czech."""
FORM_MARGIN = 0.5
"""A declined form this much more frequent (Zipf units: 0.5 is about three times) than its
name's nominative is taken for a word of its own and kept."""

BIG_PLACE = 10_000
"""Places of this many people or more are names whatever their frequency (ZLÍN, KLADNO);
the common words among them are in :data:`COMMON_WORDS` (MOST, TÁBOR, PÍSEK)."""
PLACE_MARGIN = -0.5
"""A smaller place's name is taken for a word when its Zipf frequency in Czech is above
``log10(population) + PLACE_MARGIN``: a village of 1,000 people is named about 3 times in
a hundred million words of text (Zipf 2.5); DOUBRAVA, an oak wood and a village of 1,744,
is at Zipf 3.0, so it stays a word.
Measured on the list against hunspell-cs (docs/lexicons.md): 94% of the place-name forms
it then takes are names there, against 79% without the guard."""

_HARD_SOFT = {"D": "Ď", "T": "Ť", "N": "Ň"}
_SOFT_HARD = {"Ď": "D", "Ť": "T", "Ň": "N"}
_SOFT = set("ŠŽČŘJCŤĎŇ")
"""Consonants after which Czech nouns take the soft endings (TOMÁŠE, TOMÁŠI)."""
_SOFT_NAMES = set("SXZ")
"""Consonants after which men's names take the soft endings too (ALOISE, ALEXE, FELIXE)."""
_E_DROP = ("EK", "ĚK", "EC", "EL")
"""Endings whose E drops in the other cases (MAREK: MARKA, ZDENĚK: ZDEŇKA, PAVEL: PAVLA)."""

_COMMON_TEXT = """
    LEV VÍRA NADĚJE LÁSKA SLÁVA MÍR RŮŽE LILIE VIOLA VERONIKA JIŘINA KVĚTA DOBRA MILÁ TOM
    TOMU FILIP BLANKA VÍT HANA FRANTIŠEK ALBÍN SILVESTR VĚRU MARKA MARKY MARKU MARKOU MARCE
    VÍTE DANĚ DANI DANĚMI DANOU DANÝ DANÁ DANÉ DANU MAXIM MAX KAMIL DENIS IVA PERU
    SVOBODA ČERNÝ ČERNÁ VESELÝ VESELÁ PROCHÁZKA POKORNÝ POKORNÁ KRÁL FIALA FIALOVÁ
    KŘÍŽ KOVÁŘ MALÝ MALÁ HOLUB ŠŤASTNÝ ŠŤASTNÁ SÝKORA TICHÝ TICHÁ HRUŠKA HRUBÝ HRUBÁ
    LIŠKA BERAN BEDNÁŘ ŽÁK ŠVEC SEDLÁK JEŽEK SLAVÍK TESAŘ KONEČNÝ KONEČNÁ HÁJEK ZEMAN
    KOLÁŘ VLČEK STRNAD BÍLEK BERÁNEK KOPECKÝ KOPECKÁ KREJČÍ HORÁK DVOŘÁK NOVÁK
    KUČERA RŮŽIČKA JELÍNEK POSPÍŠIL NAVRÁTIL MUSIL DOSTÁL KAŠPAR BROŽ PEŠEK
    MOST TÁBOR PÍSEK BOR HRANICE HÁJE ŘEPY LÁZNĚ KRÁLÍKY DUBÍ LESNÁ SKALNÁ HORKA LHOTA
    ÚSTÍ BRÁNA BŘEZÍ DOLY DVŮR HORY HRÁDEK KOPEC LOUKA LUKA POTOK RYBNÍK SKALICE VRCH
    ZÁMEK ZÁLESÍ LIPNÍK MLÝN OSTROV VINOHRADY KYJE KRUPKA KAPLICE STRÁŽNICE KRASLICE
    PŘÍBOR SLATINA PEČKY ÚVALY PUKLICE KOSTICE KLADNĚ PRAHY PRAHU BETLÉM BRUSLE BRUSLI
    BRUSLÍ OSLA OSLU OSLEM KATAR AMAZONKA SOUL KRATOCHVÍLE BLÁHOVÁ BLÁHOVÉ BLÁHOVOU HANOU
    MĚSTO POLKA FINKA DÁN ŽID ARAB SKOT PARK GRANT SONG JUNIOR LADY MISS PRINCE DELTA OMEGA
    KARMA FLORA AURORA ECHO MAJOR LATINA IRIS AMBER OPAL EDEN RONDO ROSA NORA VANA MINA
    POLÁK FRANK BARBARA BARBARY BARBARU LISU LISY LISE MARINA BONITA ALTU ALTY ANDROID
    ZBROJOVKA VIETNAMKA KŘÍŽOVÁ HRUŠKOVÁ BÍLKOVÁ RŮŽIČKOVÁ ÚJEZD ZLATNÍK
"""
COMMON_WORDS = frozenset(_COMMON_TEXT.split())
"""Czech words that are names too (given names, surnames, places, names from abroad),
written for this list from general knowledge of Czech and completed from what the
measurement in docs/lexicons.md flagged; a name here is not used at all, a generated form
here stays a word."""


def _soften(stem: str) -> str:
    """The stem before -I/-Í/-Ě: Ď, Ť, Ň are written D, T, N there (SOŇA: SONI)."""
    return stem[:-1] + _SOFT_HARD[stem[-1]] if stem and stem[-1] in _SOFT_HARD else stem


def _locative_e(stem: str) -> str:
    """Stem + the -E/-Ě of the dative and locative, with Czech's consonant changes (PRAHA:
    PRAZE, LENKA: LENCE, VĚRA: VĚŘE, JANA: JANĚ, EVA: EVĚ, OLGA: OLZE)."""
    for end, repl in (("CH", "ŠE"), ("K", "CE"), ("H", "ZE"), ("G", "ZE"), ("R", "ŘE")):
        if stem.endswith(end):
            return stem[: -len(end)] + repl
    if stem and stem[-1] in "DTNBPVMF":
        return stem + "Ě"
    return stem + "E"


def _vocative_e(stem: str) -> str:
    """Stem + the vocative -E of men's names (PETR: PETŘE, MARTIN: MARTINE; MAREK: MARKU)."""
    if stem.endswith(("K", "H", "G", "CH")):
        return stem + "U"
    if stem.endswith("R") and len(stem) > 1 and stem[-2] not in "AEIOUYÁÉÍÓÚŮÝĚ":
        return stem[:-1] + "ŘE"
    return stem + "E"


def _possessive_stem(stem: str) -> str:
    """Stem of a woman's possessive -IN (LENKA: LENČIN, OLGA: OLŽIN, VĚRA: VĚŘIN)."""
    for end, repl in (("CH", "Š"), ("K", "Č"), ("H", "Ž"), ("G", "Ž"), ("R", "Ř")):
        if stem.endswith(end):
            return stem[: -len(end)] + repl
    return _soften(stem)


_POSSESSIVE = ("", "A", "O", "Y", "U", "Ě", "ÝCH", "ÝM", "ÝMI", "OU")
_ADJECTIVE_M = ("Ý", "ÉHO", "ÉMU", "ÉM", "ÝM", "Í", "ÝCH", "ÝMI", "É", "OU", "Á")


def _masculine(stem: str, soft: bool) -> set[str]:
    """A man's name ending in a consonant: every case of both numbers and the possessive."""
    if soft:
        forms = {stem + e for e in ("E", "I", "OVI", "EM", "OVÉ", "Ů", "ŮM", "ÍCH", "EMI")}
    else:
        forms = {stem + e for e in ("A", "U", "OVI", "EM", "OVÉ", "Ů", "ŮM", "Y", "ECH")}
        forms.add(_vocative_e(stem))
    forms.add(stem + "ŮV")
    forms |= {stem + "OV" + e for e in _POSSESSIVE if e}
    return forms


def _feminine_a(stem: str) -> set[str]:
    """A woman's name in -A (JANA, LENKA, SOŇA): cases and the possessive -IN."""
    if stem and stem[-1] in _SOFT:
        forms = {_soften(stem) + "I", stem + "U", stem + "O", stem + "OU"}
    else:
        forms = {stem + "Y", _locative_e(stem), stem + "U", stem + "O", stem + "OU"}
        forms |= {stem + "ÁCH", stem + "ÁM", stem + "AMI"}
    forms |= {_possessive_stem(stem) + "IN" + e for e in _POSSESSIVE}
    return forms


def _stems(name: str) -> set[str]:
    """The name and, for the endings whose E drops, the stem without it (MAREK: MARK,
    ZDENĚK: ZDEŇK, HRADEC: HRADC; both, as not every such name drops it: MICHAEL)."""
    stems = {name}
    if name.endswith(_E_DROP) and len(name) > 3:
        before = name[-3]
        dropped = name[:-2] + name[-1]
        if name[-2] == "Ě":
            dropped = name[:-3] + _HARD_SOFT.get(before, before) + name[-1]
        stems.add(dropped)
    return stems


def _plural_i(stem: str) -> str:
    """The nominative plural -I of men, with Czech's consonant changes (ČECH: ČEŠI, SLOVÁK:
    SLOVÁCI, NĚMC: NĚMCI, MAĎAR: MAĎAŘI)."""
    for end, repl in (("CH", "ŠI"), ("K", "CI"), ("H", "ZI"), ("G", "ZI"), ("R", "ŘI")):
        if stem.endswith(end):
            return stem[: -len(end)] + repl
    return _soften(stem) + "I"


def _brand_forms(name: str) -> set[str]:
    """A brand or club declined as a thing: GOOGLE: GOOGLU, GOOGLEM; FACEBOOK: FACEBOOKU;
    SPARTA: SPARTY, SPARTĚ; SLAVIA: SLAVII, SLAVIE."""
    stem = name[:-1]
    if name.endswith("IA"):
        return {stem + "E", stem + "I", stem + "Í", stem + "Í"}
    if name[-1] == "A":
        return _feminine_a(stem)
    if name[-1] == "E":
        return {stem + "U", name + "M", stem + "Y"}
    return {name + e for e in ("U", "EM", "Y", "Ů", "ECH", "A")}


def name_forms(name: str, kind: str) -> set[str]:
    """The forms Czech gives a name (upper case, nominative), the name included.

    ``kind`` is one of :data:`KINDS`: men's and women's given names and surnames decline as
    people (PETROVI, JANĚ, NOVÁKOVÁ); places as places (BRNĚ, PARDUBICÍCH, SVITAVÁCH).
    Forms that Czech does not use may be made too: they are harmless, as only the words of
    the list are compared.
    """
    if kind not in KINDS:
        raise ValueError(f"unknown kind of name {kind!r}; one of {', '.join(KINDS)}")
    forms = {name}
    last = name[-1]
    stem = name[:-1]
    if kind == "place":
        forms |= _place_forms(name)
        return forms
    if kind == "brand":
        forms |= _brand_forms(name)
        return forms
    if kind == "nationality":  # ČECH: ČEŠI, ČECHŮ; NĚMEC: NĚMCI; ČEŠKA: ČEŠCE (no NĚMČINA)
        if last == "A":
            forms |= {stem + "Y", _locative_e(stem), stem + "U", stem + "OU", stem + "ÁCH"}
            forms |= {stem + "ÁM", stem + "AMI"}
            return forms
        for s in _stems(name):
            forms |= _masculine(s, soft=last in _SOFT) - {s + "ŮV"}
            forms |= {_plural_i(s), s + "É", s + "ECH"}
        return forms
    if kind == "foreign":  # JOHN: JOHNA, JOHNOVI, JOHNEM; HARRY: HARRYHO; LINDA: LINDY
        if last in "YI":
            return forms | {name + e for e in ("HO", "MU", "M")}
        if last == "A":
            return forms | {stem + "Y", _locative_e(stem), stem + "U", stem + "OU"}
        if last not in "AEIOUY":
            forms |= {name + e for e in ("A", "OVI", "EM", "U", "OVÉ", "OVÁ")}
        return forms
    if name.endswith(("OVÁ", "SKÁ", "CKÁ", "NÁ", "LÁ", "RÁ", "TÁ", "DÁ", "HÁ", "KÁ")):
        forms |= {stem + "É", stem + "OU"}  # NOVÁKOVÁ, ČERNÁ: adjectival women's names
        return forms
    if last == "Ý":  # NOVOTNÝ: adjectival
        forms |= {stem + e for e in _ADJECTIVE_M}
        return forms
    if last in "ÍÉYI":  # JIŘÍ, KREJČÍ, RENÉ; HARRY, JIMMY
        forms |= {name + e for e in ("HO", "MU", "M")}
        return forms
    if last == "A":  # JANA, and men's SVOBODA, OTA, NIKITA: both paradigms
        forms |= _feminine_a(stem)
        forms |= {stem + e for e in ("OVI", "OVÉ", "Ů", "ŮM", "OVA", "ŮV", "OVU", "OVY")}
        if kind == "surname" or not stem.endswith(("L", "N", "R", "D", "T", "V")):
            forms |= {stem + "OVÁ", stem + "OVÉ", stem + "OVOU"}
        return forms
    if last in "EĚ":  # MARIE, LUCIE, LIBUŠE, ALICE, ŘEKYNĚ
        forms |= {stem + "I", stem + "Í", stem + "ÍM", stem + "ÍCH"}
        forms |= {_soften(stem) + "IN" + e for e in _POSSESSIVE}
        return forms
    if last == "O":  # IVO, OTTO, HUGO, ZDENKO
        forms |= _masculine(stem, soft=False)
        return forms
    if last in "AEIOUYÁÉÍÓÚŮÝĚ":
        return forms
    stems = _stems(name)
    for s in stems:
        forms |= _masculine(s, soft=last in _SOFT or last in _SOFT_NAMES)
    if last == "L":  # the vocative of DANIEL, KRÁL: DANIELI, KRÁLI
        forms.add(name + "I")
    if name.endswith("EC"):  # NĚMEC, MORAVEC: NĚMČE, MORAVČE
        forms.add(name[:-2] + "ČE")
    if kind == "surname":
        for s in stems:
            forms |= {s + "OVÁ", s + "OVÉ", s + "OVOU"}
    return forms


def _place_forms(name: str) -> set[str]:
    """The cases of a Czech place name by its ending: PRAHA, BRNO, ZLÍN, OLOMOUC,
    PARDUBICE, SVITAVY, KARVINÁ."""
    stem = name[:-1]
    last = name[-1]
    if last == "Á":  # KARVINÁ, ORLOVÁ: adjectival
        return {stem + "É", stem + "OU"}
    if last in "ÝÍÉ":  # SLANÝ, VRCHLABÍ: adjectival or indeclinable
        return {stem + e for e in ("ÉHO", "ÉMU", "ÉM", "ÝM")} if last == "Ý" else set()
    if last == "A":
        return _feminine_a(stem) - {stem + "O"}
    if last == "O":  # BRNO, KLADNO; ČESKO: not ČESKU, a word too ("po česku", in Czech)
        neuter = {stem + "A", _locative_e(stem), stem + "EM"}
        return neuter if name.endswith(("SKO", "CKO")) else neuter | {stem + "U"}
    if last in "EĚ":  # PARDUBICE, TEPLICE, LÁZNĚ: plural
        return {stem, stem + "ÍM", stem + "ÍCH", stem + "EMI", stem + "ÍCH", stem + "I"}
    if last == "Y":  # SVITAVY, LOUNY, KLATOVY: plural
        return {stem + e for e in ("", "ÁCH", "ÁM", "AMI", "ECH", "ŮM", "Ů", "ECH")}
    forms: set[str] = set()
    for s in _stems(name):
        if s[-1] in _SOFT or s[-1] in "LŠŽ":  # OLOMOUC, PLZEŇ, VÍDEŇ, BUDAPEŠŤ
            forms |= {_soften(s) + "I", s + "E", s + "Í", s + "EM", s + "U"}
        else:  # ZLÍN, PŘEROV, BOSTON
            forms |= {s + "A", s + "U", _locative_e(s), s + "EM", s + "E"}
    return forms


def read_names() -> dict[str, list[tuple[str, int | None]]]:
    """The shipped names by kind (``data/czech_names.txt``), each with the population of the
    place it names (None for people, and for places abroad, countries and regions)."""
    ref = resources.files("stratagem.games.scrabble").joinpath("data", NAMES_FILE)
    try:
        with ref.open("rb") as fh:
            blob = fh.read(NAMES_LIMIT + 1)
    except OSError as exc:
        raise InvalidRulesError(
            f"the shipped Czech name list cannot be read ({exc}); reinstall stratagem"
        ) from None
    if len(blob) > NAMES_LIMIT:
        raise InvalidRulesError(
            "the shipped Czech name list is damaged (too large); reinstall stratagem"
        )
    names: dict[str, list[tuple[str, int | None]]] = {kind: [] for kind in KINDS}
    lines = blob.decode("utf-8", errors="replace").splitlines()
    for number, line in enumerate(lines, 1):
        if not line or line.startswith("#"):
            continue
        kind, _, rest = line.partition("\t")
        name, _, size = rest.partition("\t")
        if kind not in names or not name.isalpha() or not (size == "" or size.isdigit()):
            raise InvalidRulesError(
                f"the shipped Czech name list is damaged (line {number}); reinstall stratagem"
            )
        names[kind].append((name, int(size) if size else None))
    return names


@lru_cache(maxsize=1)
def _forms() -> dict[str, tuple[str, str, int | None]]:
    """Every generated form -> (the name it was made from, its kind, the population of the
    place it names or None). A name of the list is its own entry (MARTINA, not Marta's
    possessive); another form made from more than one name keeps the first (in the order of
    :data:`KINDS`)."""
    names = read_names()
    made = {
        (kind, name): name_forms(name, kind)
        for kind in KINDS
        for name, _population in names[kind]
        if name not in COMMON_WORDS
    }
    out: dict[str, tuple[str, str, int | None]] = {}
    for kind in KINDS:
        for name, population in names[kind]:
            if name not in COMMON_WORDS:
                out.setdefault(name, (name, kind, population))
    for (_kind, name), forms in made.items():
        for form in forms:
            if form not in COMMON_WORDS:
                out.setdefault(form, out[name])
    return out


def name_test(
    zipf: Callable[[str], float], zipf_abroad: Callable[[str], float] | None = None
) -> Callable[[str], bool]:
    """A test ``is_name(word)`` for upper-case words, given a word's Zipf frequency in
    Czech (wordfreq's ``zipf_frequency(word.lower(), "cs")``; a parameter so that tests can
    pass their own) and in English (for the names from abroad; without it they are not
    used): True for a name of the list or one of its forms, unless a guard says it is a
    word (module docstring).

    With made-up frequencies (JANE taken for a word far more frequent than JAN):

    >>> freq = {"JAN": 4.5, "JANA": 4.4, "JANE": 5.2, "MOST": 4.9, "DOUBRAVA": 3.0}
    >>> is_name = name_test(lambda w: freq.get(w, 1.0))
    >>> [w for w in ["JAN", "JANA", "JANE", "PETROVI", "MOST", "DOUBRAVA", "ÚVOD"] if is_name(w)]
    ['JAN', 'JANA', 'PETROVI']
    """
    forms = _forms()

    def is_name(word: str) -> bool:
        hit = forms.get(word)
        if hit is None:
            return False
        name, kind, population = hit
        if kind == "foreign" and (
            zipf_abroad is None or zipf_abroad(name) < zipf(name) + ABROAD_MARGIN
        ):
            return False  # more at home in Czech text than in English: a Czech word
        small = population is not None and population < BIG_PLACE
        if small and zipf(name) > math.log10(population or 1) + PLACE_MARGIN:
            return False  # far more frequent than a place of its size: a word
        return word == name or zipf(word) <= zipf(name) + FORM_MARGIN

    return is_name
