"""The GADDAG and its move generator against the DAWG generator and the word list."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from stratagem.core.tables import TableCache
from stratagem.games.scrabble import _gaddag_kernels as G
from stratagem.games.scrabble.lexicon import Lexicon, _build_dawg, _encode_words, load_lexicon
from stratagem.games.scrabble.movegen import MoveGenerator
from stratagem.games.scrabble.tiles import tile_set

from .conftest import ENABLE, SMALL_WORDS, random_positions


def gaddag_strings_by_hand(word: str) -> set[str]:
    """Gordon's definition, written out: rev(x) + '>' + y for every split w = xy, x not
    empty; rev(w) alone when y is empty."""
    out = {word[::-1]}
    for i in range(1, len(word)):
        out.add(word[:i][::-1] + ">" + word[i:])
    return out


def accepted(lexicon: Lexicon) -> set[str]:
    """Every string the lexicon's GADDAG accepts (a walk of the whole automaton)."""
    child, terminal, _, root = lexicon.gaddag  # type: ignore[misc]
    letters = (*lexicon.tiles.letters, ">")
    out: set[str] = set()
    stack = [(root, "")]
    while stack:
        node, text = stack.pop()
        if terminal[node]:
            out.add(text)
        for sym in np.flatnonzero(child[node] >= 0):
            stack.append((int(child[node, sym]), text + letters[sym]))
    return out


def test_the_gaddag_accepts_exactly_gordon_s_strings(english) -> None:  # type: ignore[no-untyped-def]
    words = [w.upper() for w in SMALL_WORDS]
    lex = Lexicon.from_words(words, english)
    want = set().union(*(gaddag_strings_by_hand(w) for w in words))
    assert accepted(lex) == want


def test_the_gaddag_is_minimal(english) -> None:  # type: ignore[no-untyped-def]
    # The numba build must give as few nodes as the (independent) Python Daciuk build
    # of the DAWG module run over the same strings: both are the minimal automaton.
    encoded, _, _ = _encode_words(SMALL_WORDS, english)
    sep = english.size
    strings = set()
    for w in encoded:
        strings.add(w[::-1])
        for i in range(1, len(w)):
            strings.add((*w[:i][::-1], sep, *w[i:]))
    child, _, _ = _build_dawg(sorted(strings), sep + 1)
    lex = Lexicon.from_words(SMALL_WORDS, english)
    assert lex.gaddag[0].shape == child.shape  # type: ignore[index]
    # and the letter masks agree with the edges
    g_child, _, g_mask, _ = lex.gaddag  # type: ignore[misc]
    for node in range(0, g_child.shape[0], 7):
        letters = {i for i in range(english.size) if g_child[node, i] >= 0}
        assert {i for i in range(english.size) if int(g_mask[node]) >> i & 1} == letters


def test_empty_and_one_word_lists(english) -> None:  # type: ignore[no-untyped-def]
    empty = Lexicon.from_words([], english)
    assert accepted(empty) == set()
    one = Lexicon.from_words(["cat"], english)
    assert accepted(one) == {"TAC", "C>AT", "AC>T"}


def same_moves(lexicon: Lexicon, positions) -> int:  # type: ignore[no-untyped-def]
    """Assert both walks give the same moves in the same order, and the same best move."""
    gaddag, dawg = MoveGenerator(lexicon), MoveGenerator(lexicon, walk="dawg")
    n = 0
    for board, rack in positions:
        gi, gw = gaddag.raw(board, rack)
        di, dw = dawg.raw(board, rack)
        np.testing.assert_array_equal(gi, di)
        for k in range(len(gi)):
            np.testing.assert_array_equal(gw[k, : gi[k, 3]], dw[k, : di[k, 3]])
        assert gaddag.best(board, rack) == dawg.best(board, rack)
        n += 1
    return n


def with_blanks(positions, every: int = 3):  # type: ignore[no-untyped-def]
    for i, (board, rack) in enumerate(positions):
        yield board, rack
        if i % every == 0 and rack.sum() > 0:
            more = rack.copy()
            more[np.flatnonzero(more[:-1])[0]] -= 1
            more[-1] = min(2, more[-1] + 1)
            yield board, more


def test_same_moves_and_order_as_the_dawg_walk(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    positions = list(itertools.islice(random_positions(small_lexicon, 5, 6), 150))
    assert same_moves(small_lexicon, with_blanks(positions)) > 150


def test_same_moves_on_enable_boards(enable_lexicon) -> None:  # type: ignore[no-untyped-def]
    positions = list(itertools.islice(random_positions(enable_lexicon, 9, 2, pick_best=True), 60))
    assert same_moves(enable_lexicon, with_blanks(positions, every=6)) > 60


def test_same_moves_with_czech_tiles() -> None:
    czech = tile_set("czech")
    words = [
        "ŽÁBA", "ČAS", "ŘEKA", "KŮŇ", "SŮL", "ÚL", "LES", "PES", "OSA", "SEN", "NOS", "KOS",
        "SOK", "OKO", "ŠÍP", "PÍŠE", "ČÁP", "ÁČKO", "TEN", "NET", "TON", "NOTA", "KOČKA",
        "ŽENA", "LÁSKA", "DŮM", "MŮJ", "JÍDLO", "VODA", "DÁMA", "MÁ", "JE",
    ]  # fmt: skip
    lex = Lexicon.from_words(words, czech)
    positions = list(itertools.islice(random_positions(lex, 3, 40), 120))
    assert same_moves(lex, with_blanks(positions, every=1)) > 100


def test_the_cached_gaddag_is_the_built_one(tmp_path, english) -> None:  # type: ignore[no-untyped-def]
    source = tmp_path / "words.txt"
    source.write_text("\n".join(SMALL_WORDS))
    built = load_lexicon(source, english, TableCache(tmp_path / "cache"))
    loaded = load_lexicon(source, english, TableCache(tmp_path / "cache"))
    assert loaded is not built
    for a, b in zip(built.gaddag, loaded.gaddag):  # type: ignore[arg-type]
        np.testing.assert_array_equal(a, b)


def test_walk_names_are_checked(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(ValueError, match="walk must be"):
        MoveGenerator(small_lexicon, walk="gadag")


def accepted_packed(lexicon: Lexicon, wide: bool) -> set[str]:
    """Every string the walk's packed rows accept, read as the docstring of
    :func:`G.pack` lays them out (Python integers, no kernel code)."""
    child, terminal, _, _ = lexicon.gaddag  # type: ignore[misc]
    rows, shift = G.pack(child, terminal, wide)
    symbols = child.shape[1]
    letters = (*lexicon.tiles.letters, ">")
    out: set[str] = set()
    stack = [(0, "")]
    while stack:
        i, text = stack.pop()
        record = int(rows[i, 0])
        if record >> symbols & 1:
            out.add(text)
        first = int(rows[i, -1]) >> shift
        k = 0
        for sym in range(symbols):
            if record >> sym & 1:
                stack.append((first + k, text + letters[sym]))
                k += 1
    return out


@pytest.mark.parametrize("wide", [False, True])
def test_the_packed_rows_accept_the_same_strings(small_lexicon, wide) -> None:  # type: ignore[no-untyped-def]
    child, terminal, _, _ = small_lexicon.gaddag
    rows, shift = G.pack(child, terminal, wide)
    # one int64 a row when it fits (it does for a small list), two when forced
    assert rows.shape == ((child >= 0).sum() + 1, 2 if wide else 1)
    assert shift == (0 if wide else child.shape[1] + 1)
    assert accepted_packed(small_lexicon, wide) == accepted(small_lexicon)


def test_the_two_int64_rows_give_the_same_moves(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    # The layout for edge counts too large for one int64 a row, forced on a small list:
    # the walk must read it as it reads the narrow one.
    narrow, wide = MoveGenerator(small_lexicon), MoveGenerator(small_lexicon)
    child, terminal, _, _ = small_lexicon.gaddag
    rows, shift = G.pack(child, terminal, True)
    tiles = small_lexicon.tiles
    wide._gaddag = tuple(G.Gaddag(rows, shift, tiles.values_array, tiles.size))
    assert wide._gaddag[0].shape[1] == 2
    positions = list(itertools.islice(random_positions(small_lexicon, 11, 4), 80))
    n = 0
    for board, rack in with_blanks(positions, every=2):
        ni, nw = narrow.raw(board, rack)
        wi, ww = wide.raw(board, rack)
        np.testing.assert_array_equal(ni, wi)
        np.testing.assert_array_equal(nw, ww)
        assert narrow.best(board, rack) == wide.best(board, rack)
        n += len(ni)
    assert n > 1000


@pytest.mark.skipif(not ENABLE.exists(), reason="ENABLE not found")
def test_enable_gaddag_size(enable_lexicon) -> None:  # type: ignore[no-untyped-def]
    # 168,541 usable words give 1,497,415 GADDAG strings (measured); the minimal
    # automaton has 401,653 nodes, the same count as the Python Daciuk build gives.
    assert enable_lexicon.gaddag[0].shape == (401_653, 27)


@pytest.mark.parametrize("wide", [False, True])
def test_cross_checks_from_the_gaddag_equal_the_dawg_s(small_lexicon, wide) -> None:  # type: ignore[no-untyped-def]
    """The generator reads each square's cross-check from the packed GADDAG; the sets and
    the cross words' points must be exactly what the DAWG walk of ``_kernels`` gives, both
    ways (the transposed board is the down pass), with blanks on the board."""
    from stratagem.games.scrabble import _kernels as K
    from stratagem.games.scrabble.board import SIZE

    lex = small_lexicon
    rows, shift = G.pack(*lex.gaddag[:2], wide)
    n = lex.tiles.size
    values = lex.tiles.values_array
    gaddag = G.Gaddag(rows, shift, values, n)
    dawg = K.Dawg(lex.child, lex.terminal, lex.mask, lex.root, values, n)
    seen = 0
    for board, _ in itertools.islice(random_positions(lex, 11, 4), 80):
        board = board.copy()
        filled = np.argwhere(board >= 0)
        if len(filled):  # make one tile a blank: it counts no points in the cross word
            r, c = filled[len(filled) // 2]
            board[r, c] |= K.BLANK
        for b in (board, board.T.copy()):
            cm_d = np.zeros((SIZE, SIZE), np.uint64)
            cs_d = np.zeros((SIZE, SIZE), np.int32)
            K.cross_checks(b, dawg, cm_d, cs_d)
            cm_g = np.zeros((SIZE, SIZE), np.uint64)
            cs_g = np.zeros((SIZE, SIZE), np.int32)
            anchor = np.zeros((SIZE, SIZE), np.bool_)
            premiums = np.ones((SIZE, SIZE), np.int32)  # not read by the checks
            G._checks(gaddag, K.Lines(b, premiums, premiums, cm_g, cs_g, anchor, 0, 0))
            assert (cm_g == cm_d).all() and (cs_g == cs_d).all()
            seen += int((cs_d >= 0).sum())
    assert seen > 200  # squares with a cross word were compared


def test_best_only_bounds_hold_for_every_move_of_their_walk(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    """Best-only generation skips the walks whose bound is below the best score found, so
    each walk's bound must be at least the score of every move it makes: each walk of
    each position is run alone for all its moves and checked against its bound."""
    from stratagem.games.scrabble import _kernels as K
    from stratagem.games.scrabble.board import BINGO, SIZE
    from stratagem.games.scrabble.movegen import _LETTER_MULTS, _WORD_MULTS

    lex = small_lexicon
    rows, shift = G.pack(*lex.gaddag[:2])
    n = lex.tiles.size
    values = lex.tiles.values_array
    gaddag = G.Gaddag(rows, shift, values, n)
    info = np.zeros((4096, 6), np.int32)
    words = np.zeros((4096, SIZE), np.int8)
    walk_word = np.full(SIZE, -1, np.int8)
    best = np.zeros(6 + SIZE, np.int32)
    out = K.Out(info, words, best)
    st = np.zeros((2 * SIZE + 2, G.FIELDS), np.int64)
    walks = tight = 0
    positions = list(itertools.islice(random_positions(lex, 13, 4), 60))
    for board, rack in with_blanks(positions, every=2):
        rack = rack.astype(np.int32)
        if rack.sum() == 0:
            continue
        boards = np.ascontiguousarray(np.stack([board, board.T]))
        cmask = np.zeros((2, SIZE, SIZE), np.uint64)
        csum = np.zeros((2, SIZE, SIZE), np.int32)
        anchor = np.zeros((2, SIZE, SIZE), np.bool_)
        lines = [
            K.Lines(boards[d], _LETTER_MULTS[d], _WORD_MULTS[d], cmask[d], csum[d], anchor[d],
                    d, BINGO)
            for d in range(2)
        ]  # fmt: skip
        for d in range(2):
            G._checks(gaddag, lines[d])
        segs = np.zeros((2 * SIZE * SIZE, G.SEG_FIELDS), np.int64)
        held = np.uint64(sum(1 << x for x in range(n) if rack[x] > 0))
        top = G._top_values(rack, n, values)
        tiles = int(rack.sum())
        for d, r, start, right, amode in segs[: G._segments(boards, anchor, segs)]:
            segment = G.Segment(r, start, right, amode == 1)
            bound, plain = G._bound(lines[d], segment, tiles, held, rack[n], values, top)
            count = G._line(
                gaddag, lines[d], segment, rack.copy(), tiles, held, out, False, walk_word, st, 0
            )
            top_score = int(info[:count, 4].max()) if count else -1
            assert top_score <= bound, (board, rack, d, r, start, right)
            # and the bound without the bingo bonus holds for the moves laying fewer tiles
            short = info[:count][info[:count, 5] < 7, 4]
            assert (short.max() if len(short) else -1) <= plain <= bound
            walks += 1
            tight += top_score == bound
    assert walks > 500
    assert tight > 0  # the bound is reached by some walks: it is not a loose constant


def rank_matches_the_sorted_moves(lexicon: Lexicon, positions) -> int:  # type: ignore[no-untyped-def]
    """Assert that :func:`rank` of :meth:`MoveGenerator.found`'s moves by score (and by a
    second key with many ties) gives :meth:`MoveGenerator.raw`'s moves stably sorted by
    the same keys, move for move; and the same for a few best only. Returns the moves."""
    from stratagem.games.scrabble.movegen import rank

    gen = MoveGenerator(lexicon)
    nletters = lexicon.tiles.size
    n = 0
    for board, rack in positions:
        ri, rw = gen.raw(board, rack)
        fi, fw = gen.found(board, rack)
        assert fi.shape == ri.shape
        # by the DAWG order alone (every key equal): exactly raw's rows
        order = rank(fi, fw, np.arange(len(fi)), np.zeros(len(fi)), None, nletters)
        np.testing.assert_array_equal(fi[order], ri)
        np.testing.assert_array_equal(fw[order], rw)
        # by score; then by score mod 7 and the tiles laid (ties on both are common)
        score, laid = fi[:, 4].astype(float), fi[:, 5].astype(float)
        r_score, r_laid = ri[:, 4].astype(float), ri[:, 5].astype(float)
        cases = (
            (score, None, r_score, np.zeros(len(ri))),
            (score % 7, laid, r_score % 7, r_laid),
        )
        for first, second, r_first, r_second in cases:
            want = np.lexsort((np.arange(len(ri)), -r_second, -r_first))  # stable sort of raw
            got = rank(fi, fw, np.arange(len(fi)), first, second, nletters)
            np.testing.assert_array_equal(fi[got], ri[want])
            np.testing.assert_array_equal(fw[got], rw[want])
            # a few best only: the moves reaching the 5th best first key, ranked alone
            if len(fi) > 5:
                kth = np.sort(first)[-5]
                few = rank(fi, fw, np.flatnonzero(first >= kth), first, second, nletters)
                np.testing.assert_array_equal(fi[few[:5]], ri[want[:5]])
        n += len(fi)
    return n


def test_rank_reproduces_the_dawg_order_on_small_lexicon_positions(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    positions = list(itertools.islice(random_positions(small_lexicon, 13, 6), 150))
    assert rank_matches_the_sorted_moves(small_lexicon, with_blanks(positions, every=2)) > 5000


def test_rank_reproduces_the_dawg_order_on_enable_boards(enable_lexicon) -> None:  # type: ignore[no-untyped-def]
    positions = list(itertools.islice(random_positions(enable_lexicon, 17, 2, pick_best=True), 40))
    assert rank_matches_the_sorted_moves(enable_lexicon, with_blanks(positions, every=2)) > 20000


# Sevens and eights spelt with common letters, so that racks drawn from them bingo on the
# boards of the small list, through its tiles and beside them (best-only finds these
# from the words' letters, not by its walks: `_gaddag_kernels._bingo_spans`).
BINGO_WORDS = """
retains stainer nastier retinas retsina anestri ratines stearin trainees strained
detainer retrained senator treason atoners tonearm painter pertain
repaint outside tedious lasting salting slating staling aligner engrail realign reginal
dearest derates readies sardine randies strange garnets argents angered enraged grandee
""".split()  # noqa: SIM905


def test_best_only_finds_bingos_as_the_dawg_walk_does(english) -> None:  # type: ignore[no-untyped-def]
    lex = Lexicon.from_words([*SMALL_WORDS, *BINGO_WORDS], english)
    gaddag, dawg = MoveGenerator(lex), MoveGenerator(lex, walk="dawg")
    rng = np.random.default_rng(37)
    bingos = n = 0
    for board, _ in itertools.islice(random_positions(lex, 19, 12), 240):
        for blanks in (0, 1, 2):
            letters = [english.index[ch] for ch in str(rng.choice(BINGO_WORDS)).upper()]
            rack = np.zeros(english.size + 1, np.int32)
            for x in rng.choice(letters, 7, replace=False):
                rack[x] += 1
            for x in rng.choice(np.flatnonzero(rack[:-1]), blanks, replace=False):
                rack[x] -= 1
                rack[-1] += 1
            want = dawg.best(board, rack)
            assert gaddag.best(board, rack) == want
            if want is not None and sum(board[r, c] < 0 for r, c in want.squares()) == 7:
                bingos += 1
            n += 1
    assert n == 720
    assert bingos > 100  # the bingos must be the best moves often, or this tests nothing
