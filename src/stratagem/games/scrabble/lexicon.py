"""Word lists as a DAWG (a minimal acyclic word graph) in flat numpy arrays.

A DAWG is the trie of the words with equal subtrees merged. It is stored as
``child[node, letter]`` (int32, -1 where no edge leaves), ``terminal[node]``
(a word ends here) and ``mask[node]`` (the letters that leave the node as a
64-bit set, which the move generator intersects with the cross-checks). The
DAWG is built with Daciuk et al.'s incremental algorithm for sorted input, so
only the current word's path is ever unminimised.

Beside the DAWG each lexicon holds its GADDAG (:mod:`._gaddag_kernels`), which
the move generator walks from the tiles on the board outwards; the DAWG gives
the cross-checks, membership tests and the endgame's move lists. The GADDAG of
ENABLE has 400,000 nodes; it is built in numba in about 2 seconds and stored
as its edges (the dense table is 43 MB, the edges a quarter of that).

Sources:

* :func:`load_lexicon` reads any UTF-8 list, one word per line (ENABLE, TWL,
  CSW, an expanded hunspell dictionary...). Words the tile set cannot spell
  (foreign letters, too few tiles even with both blanks, fewer than 2 or more
  than 15 letters) are counted, reported and skipped.
* :func:`default_lexicon` is the built-in list of a tile set. English plays on
  ENABLE, a public-domain Scrabble list shipped in the package
  (``data/enable1.fc.gz``, made by ``scripts/build_enable.py``; its SHA-256 is
  checked on every read), so that a user who installs Stratagem gets a real
  word list. Czech has no open list that can ship here (LibreOffice's Czech
  dictionary is GPL-2; see docs/lexicons.md), so it plays on an informal list
  derived from ``wordfreq`` (:func:`informal_words`): the most frequent words
  the tiles can spell, less abbreviations, foreign tokens and the names it can
  recognise (:mod:`.czech_names`). It still holds rarer names and misses rare words: use
  it to try the engine, not to adjudicate a game. :func:`informal_lexicon` gives the
  English informal list, which was the English default before ENABLE (some results in
  docs/results were measured on it).

Built lexicons are cached (:class:`stratagem.core.tables.TableCache`), keyed by
the SHA-256 of the word list and the tile set; a corrupt cache file is rebuilt.

>>> from stratagem.games.scrabble.tiles import tile_set
>>> lex = Lexicon.from_words(["cat", "cats", "at", "zzzzz"], tile_set("english"))
>>> "CATS" in lex, "ca" in lex, lex.word_count, lex.skipped
(True, False, 3, 1)
>>> sorted(lex.words())
['AT', 'CAT', 'CATS']
"""

from __future__ import annotations

import gzip
import hashlib
import unicodedata
import warnings
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path

import numpy as np

from stratagem.core.errors import InvalidRulesError
from stratagem.core.files import FileInputError, read_user_bytes
from stratagem.core.tables import TableCache, fingerprint
from stratagem.games.scrabble import _gaddag_kernels
from stratagem.games.scrabble.board import SIZE
from stratagem.games.scrabble.tiles import LANGUAGE_CODES, TILE_SETS, TileSet, tile_set

FORMAT_VERSION = 2
"""2: the GADDAG is stored beside the DAWG."""
LEXICON_LIMIT = 256 << 20
"""Largest word list read (256 MiB; the biggest published lists are under 30 MiB)."""
KIND = "scrabble-lexicon"
DEFAULT_SIZES = {"english": 100_000, "czech": 250_000}
"""How many of wordfreq's most frequent usable words make each informal lexicon."""
ENABLE_FILE = "enable1.fc.gz"
"""The shipped ENABLE, front coded and gzipped (``scripts/build_enable.py``)."""
ENABLE_SHA256 = "3f16130220645692ed49c7134e24a18504c2ca55b3c012f7290e3e77c63b1a89"
"""SHA-256 of ``enable1.txt`` as published (172,823 words); the shipped copy decodes to it."""
ENABLE_NAME = "ENABLE (public domain)"
ENABLE_LIMIT = 8 << 20
"""Largest decoded size accepted for the shipped list (ENABLE is 1.7 MB)."""
INFORMAL_FILTER = 2
"""Version of :func:`informal_words`' stripping rules (part of the cache key): 1 left out
abbreviations and foreign tokens, 2 proper names too (:mod:`.czech_names`). Bump it when
those rules or the shipped ``data/czech_names.txt`` change, so that users' caches rebuild."""
DEFAULT_NAMES = {"english": ENABLE_NAME, "czech": "informal (wordfreq, Czech)"}
"""The name of each tile set's built-in word list, as the CLI and the page show it."""


@dataclass(frozen=True, eq=False)
class Lexicon:
    """A word list for one tile set, as DAWG arrays (see the module docstring)."""

    tiles: TileSet
    child: np.ndarray
    terminal: np.ndarray
    mask: np.ndarray
    root: int
    word_count: int
    skipped: int = 0
    skipped_examples: tuple[str, ...] = ()
    source: str = ""
    gaddag: tuple[np.ndarray, np.ndarray, np.ndarray, int] | None = None
    """``(child, terminal, mask, root)`` of the GADDAG (:mod:`._gaddag_kernels`)."""
    challenge: str = "none"
    """The challenge rule a game on this list plays (:mod:`.challenge`): the rules object
    carries it, so ``english:challenge=double`` is a rules spec like any other."""
    plain: Lexicon | None = field(default=None, repr=False)
    """The list without a challenge rule (None: this is it): move generators and tables
    are kept per plain list, so a challenge game shares them."""

    @property
    def dawg(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """``(child, terminal, mask, root)`` of the DAWG, as the kernels take them."""
        return self.child, self.terminal, self.mask, self.root

    @property
    def node_count(self) -> int:
        return int(self.child.shape[0])

    def __contains__(self, word: object) -> bool:
        if not isinstance(word, str):
            return False
        node = self.root
        for char in word:
            idx = self.tiles.letter_index(char)
            if idx is None:
                return False
            node = int(self.child[node, idx])
            if node < 0:
                return False
        return bool(self.terminal[node])

    def words(self) -> Iterator[str]:
        """Every word, upper case (a depth-first walk; meant for small lexicons and tests)."""
        letters = self.tiles.letters
        stack: list[tuple[int, str]] = [(self.root, "")]
        while stack:
            node, prefix = stack.pop()
            if self.terminal[node]:
                yield prefix
            for idx in np.flatnonzero(self.child[node] >= 0):
                stack.append((int(self.child[node, idx]), prefix + letters[idx]))

    def arrays(self) -> dict[str, np.ndarray]:
        examples = "\n".join(self.skipped_examples).encode()
        assert self.gaddag is not None
        g_child, g_terminal, g_mask, g_root = self.gaddag
        source, symbol = np.nonzero(g_child >= 0)
        return {
            "child": self.child,
            "terminal": self.terminal,
            "mask": self.mask,
            "info": np.array([self.root, self.word_count, self.skipped], dtype=np.int64),
            "skipped_examples": np.frombuffer(examples, dtype=np.uint8),
            # the GADDAG as its edges: (source node, symbol, target node)
            "g_edges": np.stack([source, symbol, g_child[source, symbol]], axis=1).astype(np.int32),
            "g_terminal": g_terminal,
            "g_mask": g_mask,
            "g_info": np.array([g_root, g_child.shape[0], g_child.shape[1]], dtype=np.int64),
        }

    @classmethod
    def from_arrays(cls, arrays: dict[str, np.ndarray], tiles: TileSet, source: str) -> Lexicon:
        info = arrays["info"]
        examples = bytes(arrays["skipped_examples"]).decode()
        g_root, g_nodes, g_symbols = (int(x) for x in arrays["g_info"])
        edges = arrays["g_edges"]
        g_child = np.full((g_nodes, g_symbols), -1, dtype=np.int32)
        g_child[edges[:, 0], edges[:, 1]] = edges[:, 2]
        return cls(
            tiles,
            arrays["child"],
            arrays["terminal"],
            arrays["mask"],
            int(info[0]),
            int(info[1]),
            int(info[2]),
            tuple(examples.split("\n")) if examples else (),
            source,
            (g_child, arrays["g_terminal"], arrays["g_mask"], g_root),
        )

    @classmethod
    def from_words(cls, words: Iterable[str], tiles: TileSet, source: str = "") -> Lexicon:
        """Build from words (any case); unspellable words are counted and skipped."""
        encoded, skipped, examples = _encode_words(words, tiles)
        child, terminal, root = _build_dawg(sorted(encoded), tiles.size)
        mask = _masks(child)
        return cls(
            tiles, child, terminal, mask, root, len(encoded), skipped, tuple(examples), source,
            _build_gaddag(encoded, tiles.size),
        )  # fmt: skip

    def report(self) -> str:
        """One line on the lexicon, naming skipped words if any."""
        text = f"{self.word_count} words, {self.node_count} DAWG nodes ({self.source})"
        if self.skipped:
            shown = ", ".join(self.skipped_examples[:5])
            text += (
                f"; skipped {self.skipped} words that the {self.tiles.name} tiles cannot spell"
                " or that do not fit 2-15 squares"
                f" (e.g. {shown})"
            )
        return text


def _encode_words(
    words: Iterable[str], tiles: TileSet
) -> tuple[set[tuple[int, ...]], int, list[str]]:
    index = tiles.index
    out: set[tuple[int, ...]] = set()
    skipped = 0
    examples: list[str] = []
    for raw in words:
        word = unicodedata.normalize("NFC", raw.strip()).upper()
        if not word:
            continue
        codes = _codes(word, tiles, index)
        if codes is None:
            skipped += 1
            if len(examples) < 20:
                examples.append(word[:40])  # a line may be megabytes long
            continue
        out.add(codes)
    return out, skipped, examples


def _codes(word: str, tiles: TileSet, index: dict[str, int]) -> tuple[int, ...] | None:
    """The letter codes of ``word`` (normalised), or None if the tiles cannot spell it in
    2-15 letters."""
    codes = tuple(index.get(ch, -1) for ch in word)
    if -1 in codes or not 2 <= len(word) <= SIZE or not tiles.can_spell(word):
        return None
    return codes


class _Node:
    __slots__ = ("edges", "final", "id")

    def __init__(self) -> None:
        self.edges: dict[int, _Node] = {}
        self.final = False
        self.id = -1


def _build_dawg(words: list[tuple[int, ...]], nletters: int) -> tuple[np.ndarray, np.ndarray, int]:
    """Daciuk's incremental minimal DAWG of sorted, distinct words -> (child, terminal, root)."""
    register: dict[tuple[object, ...], _Node] = {}
    nodes: list[_Node] = []
    unchecked: list[tuple[_Node, int, _Node]] = []
    root = _Node()

    def minimise(down_to: int) -> None:
        while len(unchecked) > down_to:
            parent, letter, node = unchecked.pop()
            key = (node.final, *[(k, v.id) for k, v in sorted(node.edges.items())])
            same = register.get(key)
            if same is not None:
                parent.edges[letter] = same
            else:
                node.id = len(nodes)
                nodes.append(node)
                register[key] = node

    previous: tuple[int, ...] = ()
    for word in words:
        common = 0
        limit = min(len(word), len(previous))
        while common < limit and word[common] == previous[common]:
            common += 1
        minimise(common)
        node = unchecked[-1][2] if unchecked else root
        for letter in word[common:]:
            nxt = _Node()
            node.edges[letter] = nxt
            unchecked.append((node, letter, nxt))
            node = nxt
        node.final = True
        previous = word
    minimise(0)
    root.id = len(nodes)
    nodes.append(root)
    child = np.full((len(nodes), max(nletters, 1)), -1, dtype=np.int32)
    terminal = np.zeros(len(nodes), dtype=np.bool_)
    for node in nodes:
        terminal[node.id] = node.final
        for letter, nxt in node.edges.items():
            child[node.id, letter] = nxt.id
    return child, terminal, root.id


def _build_gaddag(
    words: set[tuple[int, ...]], nletters: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
    """The minimal GADDAG of encoded words -> ``(child, terminal, mask, root)``."""
    codes = np.zeros((len(words), SIZE), dtype=np.uint8)
    lengths = np.zeros(len(words), dtype=np.int64)
    for i, word in enumerate(words):
        codes[i, : len(word)] = word
        lengths[i] = len(word)
    strings = _gaddag_kernels.gaddag_strings(codes, lengths, nletters)
    # sorted and distinct, as bytes (symbol + 1, 0-padded: byte order is the string order)
    rows = np.unique(strings.view(np.dtype((np.void, strings.shape[1]))).ravel())
    strings = rows.view(np.uint8).reshape(-1, SIZE + 1)
    child, terminal, root = _gaddag_kernels.build(strings, nletters + 1)
    child, terminal = _gaddag_kernels.breadth_first(child, terminal, root)
    return child, terminal, _masks(child[:, :nletters]), 0


def _masks(child: np.ndarray) -> np.ndarray:
    bits = np.uint64(1) << np.arange(child.shape[1], dtype=np.uint64)
    masks: np.ndarray = np.bitwise_or.reduce(np.where(child >= 0, bits, np.uint64(0)), axis=1)
    return masks.astype(np.uint64)


def _cached(
    key_source: dict[str, object],
    tiles: TileSet,
    source: str,
    words: Iterable[str] | None,
    make_words: Callable[[], Iterable[str]] | None,
    cache: TableCache | None,
) -> Lexicon:
    cache = cache if cache is not None else TableCache()
    key = fingerprint({**key_source, "tiles": tiles.name, "letters": "".join(tiles.letters)})
    built: list[Lexicon] = []

    def build() -> dict[str, np.ndarray]:
        if words is not None:
            source_words = words
        else:
            assert make_words is not None
            source_words = make_words()
        lex = Lexicon.from_words(source_words, tiles, source)
        if lex.word_count == 0:  # refused, so not cached
            raise InvalidRulesError(
                f"lexicon {source} holds no word that the {tiles.name} tiles can spell in "
                f"2-15 letters ({lex.skipped} lines skipped); give a UTF-8 word list, one word "
                "a line"
            )
        built.append(lex)
        return lex.arrays()

    arrays, hit = cache.load_or_build(KIND, key, FORMAT_VERSION, build)
    lex = built[0] if built else Lexicon.from_arrays(arrays, tiles, source)
    if not hit and lex.skipped:
        warnings.warn(lex.report(), stacklevel=3)
    return lex


def load_lexicon(
    path: str | Path, tiles: TileSet | str = "english", cache: TableCache | None = None
) -> Lexicon:
    """The lexicon of a UTF-8 word list (one word per line), built once and then cached."""
    ts = tile_set(tiles) if isinstance(tiles, str) else tiles
    p = Path(path)
    blob, text = read_word_list(p)
    digest = hashlib.sha256(blob).hexdigest()
    lex = _cached({"sha256": digest}, ts, str(p), text.splitlines(), None, cache)
    if lex.word_count == 0:
        raise InvalidRulesError(
            f"lexicon {p} holds no word that the {ts.name} tiles can spell in 2-15 letters"
            f" ({lex.skipped} lines skipped); give a UTF-8 word list, one word a line"
        )
    return lex


def read_word_list(path: Path) -> tuple[bytes, str]:
    """The bytes and text of a word list file; :class:`InvalidRulesError` if it is missing, a
    folder, larger than :data:`LEXICON_LIMIT` or not UTF-8."""
    try:
        blob = read_user_bytes(path, limit=LEXICON_LIMIT, what="lexicon")
    except FileInputError as exc:
        raise InvalidRulesError(str(exc)) from None
    try:
        text = blob.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InvalidRulesError(
            f"lexicon {path} is not UTF-8 text (byte {exc.start}); save it as UTF-8, one word "
            "a line"
        ) from None
    return blob, text


def check_word_list(path: str | Path) -> Path:
    """``path`` if it can be some tile set's word list, checked without building anything
    (a server checks its ``--lexicon`` at startup; which tile set reads it is chosen per
    game): :func:`read_word_list`'s checks, and at least one line is a word of 2-15 letters
    that one of the tile sets can spell (not empty, not binary).

    >>> import tempfile, pathlib
    >>> p = pathlib.Path(tempfile.mkdtemp()) / "words.txt"
    >>> _ = p.write_bytes(b"\\x00\\x01\\n")
    >>> try:
    ...     check_word_list(p)
    ... except InvalidRulesError as exc:
    ...     print(str(exc).split(";")[0].replace(str(p), "FILE"))
    lexicon FILE holds no word that the english or czech tiles can spell in 2-15 letters
    """
    p = Path(path)
    _, text = read_word_list(p)
    sets = list(TILE_SETS.values())
    for raw in text.splitlines():
        word = unicodedata.normalize("NFC", raw.strip()).upper()
        if word and any(_codes(word, ts, ts.index) is not None for ts in sets):
            return p
    raise InvalidRulesError(
        f"lexicon {p} holds no word that the {' or '.join(TILE_SETS)} tiles can spell in "
        "2-15 letters; give a UTF-8 word list, one word a line"
    )


def informal_words(tiles: TileSet, strip: bool = True) -> list[str]:
    """An informal list: wordfreq's most frequent words that the tiles can spell.

    With ``strip`` (the Czech default), abbreviations, foreign tokens and (for Czech) proper
    names are left out (:func:`is_abbreviation`, :func:`is_foreign`,
    :mod:`.czech_names`) and the list is filled from further down the frequency ranking.
    Without it, the list is the English default before ENABLE.
    """
    from wordfreq import iter_wordlist

    language = LANGUAGE_CODES.get(tiles.name)
    if language is None:
        raise InvalidRulesError(f"no built-in lexicon for the {tiles.name} tiles; pass --lexicon")
    want = DEFAULT_SIZES[tiles.name]
    is_name = _name_test(language) if strip else None
    out: list[str] = []
    for word in iter_wordlist(language, wordlist="large"):
        w = unicodedata.normalize("NFC", word).upper()
        if not (w.isalpha() and 2 <= len(w) <= SIZE and tiles.can_spell(w)):
            continue
        if strip and (is_abbreviation(w, tiles) or is_foreign(w, language)):
            continue
        if is_name is not None and is_name(w):
            continue
        out.append(w)
        if len(out) >= want:
            break
    return out


def _name_test(language: str) -> Callable[[str], bool] | None:
    """The proper-name test of a language (:func:`.czech_names.name_test` for Czech, with
    Zipf frequencies in Czech and English from wordfreq), or None where there is no name
    list."""
    if language != "cs":
        return None
    from wordfreq import zipf_frequency

    from stratagem.games.scrabble.czech_names import name_test

    return name_test(
        lambda word: zipf_frequency(word.lower(), language),
        lambda word: zipf_frequency(word.lower(), "en"),
    )


_VOWELS = {"english": "AEIOUY", "czech": "AEIOUYÁÉÍÓÚŮÝĚ"}
_SYLLABIC = {"english": "", "czech": "RL"}
"""Consonants that carry a syllable between two consonants (Czech VLK, SMRT, ČTVRT)."""


def is_abbreviation(word: str, tiles: TileSet) -> bool:
    """True for a word no syllable can be said in: no vowel, and no syllabic R or L
    between two consonants. Such tokens are abbreviations (ČR, KČ, TZV, ČSSD, HTTP).

    >>> czech = tile_set("czech")
    >>> [w for w in ["ČSSD", "KČ", "VLK", "SMRT", "ČTVRT", "PES"] if is_abbreviation(w, czech)]
    ['ČSSD', 'KČ']
    """
    vowels = _VOWELS.get(tiles.name, "AEIOUY")
    if any(ch in vowels for ch in word):
        return False
    syllabic = _SYLLABIC.get(tiles.name, "")
    return not any(word[i] in syllabic for i in range(1, len(word) - 1))


_FOREIGN = ("en", "de", "fr", "es", "it")
FOREIGN_MARGIN = 1.0
"""A word at least this much more common (Zipf units: 1.0 is ten times) in one of
:data:`_FOREIGN` than in the list's own language is taken for a foreign token."""
COMMON_ZIPF = 5.0
"""Words at least this common in their own language (about its 1,000 most frequent, Czech
DEN, ON, NO, DAL) are kept whatever other languages do with them."""


def is_foreign(word: str, language: str) -> bool:
    """True for a word without the language's own letters that is at least ten times
    more common in English, German, French, Spanish or Italian text than in the
    language's own (AND, YOU, HOUSE, SCHOOL, MADRID, CHICAGO): the foreign words and
    foreign names that wordfreq's web and subtitle sources are full of. The language's
    most common words are kept (:data:`COMMON_ZIPF`). The rule is blunt: it also drops
    some loanwords at home in the language (Czech MOST, TEMPO, FORMA), and it misses names
    as common in the language's text as abroad (JOHN, GOOGLE) and names at home in it
    (PETR, PRAHA: for Czech :mod:`.czech_names` takes those): docs/lexicons.md.
    """
    from wordfreq import zipf_frequency

    if language == "en" or not word.isascii():
        return False
    lower = word.lower()
    own = zipf_frequency(lower, language)
    if own >= COMMON_ZIPF:
        return False
    return max(zipf_frequency(lower, other) for other in _FOREIGN) >= own + FOREIGN_MARGIN


def default_words(tiles: TileSet) -> list[str]:
    """The words of a tile set's built-in list (ENABLE for English, else informal)."""
    if tiles.name == "english":
        return enable_text().upper().splitlines()
    return informal_words(tiles)


def enable_text() -> str:
    """ENABLE as published (``enable1.txt``), decoded from the package's front-coded copy
    and checked against :data:`ENABLE_SHA256`."""
    ref = resources.files("stratagem.games.scrabble").joinpath("data", ENABLE_FILE)
    try:
        with ref.open("rb") as raw, gzip.open(raw) as fh:
            coded = fh.read(ENABLE_LIMIT + 1)
    except (OSError, EOFError) as exc:
        raise InvalidRulesError(
            f"the shipped ENABLE word list cannot be read ({exc}); reinstall stratagem"
        ) from None
    words: list[str] = []
    previous = ""
    for line in coded.decode("utf-8", errors="replace").split("\n"):
        word = previous[: ord(line[0]) - 48] + line[1:] if line else ""
        words.append(word)
        previous = word
    text = "\n".join(words) + "\n"
    if len(coded) > ENABLE_LIMIT or hashlib.sha256(text.encode()).hexdigest() != ENABLE_SHA256:
        raise InvalidRulesError(
            "the shipped ENABLE word list is damaged (its SHA-256 is not ENABLE's); "
            "reinstall stratagem"
        )
    return text


def default_lexicon(tiles: TileSet | str = "english", cache: TableCache | None = None) -> Lexicon:
    """The built-in lexicon of a tile set: ENABLE for English, the informal list for Czech.

    ENABLE is cached under the same key as ``load_lexicon("enable1.txt")``, so both share
    one build.
    """
    ts = tile_set(tiles) if isinstance(tiles, str) else tiles
    if ts.name == "english":
        return _cached(
            {"sha256": ENABLE_SHA256}, ts, ENABLE_NAME, None, lambda: default_words(ts), cache,
        )  # fmt: skip
    key = {"wordfreq": ts.name, "size": DEFAULT_SIZES.get(ts.name, 0), "strip": INFORMAL_FILTER}
    return _cached(key, ts, default_name(ts), None, lambda: informal_words(ts), cache)


def informal_lexicon(tiles: TileSet | str = "english", cache: TableCache | None = None) -> Lexicon:
    """The informal wordfreq list without stripping: the built-in English lexicon before
    ENABLE, kept so that results measured on it can be reproduced."""
    ts = tile_set(tiles) if isinstance(tiles, str) else tiles
    key = {"wordfreq": ts.name, "size": DEFAULT_SIZES.get(ts.name, 0)}
    return _cached(
        key, ts, f"wordfreq:{ts.name} (informal)", None, lambda: informal_words(ts, False), cache
    )


def default_name(tiles: TileSet | str) -> str:
    """The name of a tile set's built-in word list (what the CLI and the page show).

    >>> default_name("english"), default_name("czech")
    ('ENABLE (public domain)', 'informal (wordfreq, Czech)')
    """
    name = tiles if isinstance(tiles, str) else tiles.name
    return DEFAULT_NAMES.get(name, f"informal (wordfreq, {name})")


def get_lexicon(
    path: str | Path | None, tiles: TileSet | str = "english", cache: TableCache | None = None
) -> Lexicon:
    """``load_lexicon(path)`` when a path is given, else the built-in default."""
    if path is None or str(path) == "":
        return default_lexicon(tiles, cache)
    return load_lexicon(path, tiles, cache)
