"""Move generation: every generated move is legal and correctly scored, and none is missed."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest

from stratagem.core.errors import IllegalActionError
from stratagem.games.scrabble.board import SIZE, Placement, empty_board, new_tiles, score_tiles
from stratagem.games.scrabble.movegen import MoveGenerator
from stratagem.games.scrabble.tiles import BLANK_FLAG

from .conftest import SMALL_WORDS, random_positions


def placement_key(board, move, tiles):  # type: ignore[no-untyped-def]
    return frozenset(new_tiles(board, move, tiles))


def brute_force(board, rack, words, tiles):  # type: ignore[no-untyped-def]
    """Every legal placement, found by trying every word at every square in both directions.

    Legality and scores come from :func:`score_tiles`; the cheap filters before
    it (tiles available, the word not running into other tiles) only skip
    placements that it would reject anyway.
    """
    is_word = set(words).__contains__
    blank = tiles.size
    letters = board & (BLANK_FLAG - 1)
    found: dict[frozenset[tuple[int, int, int]], int] = {}
    for word in words:
        codes = [tiles.index[ch] for ch in word]
        n = len(word)
        for across in (True, False):
            dr, dc = (0, 1) if across else (1, 0)
            for r0 in range(SIZE - (n - 1) * dr):
                for c0 in range(SIZE - (n - 1) * dc):
                    rb, cb = r0 - dr, c0 - dc
                    if rb >= 0 and cb >= 0 and board[rb, cb] >= 0:
                        continue
                    ra, ca = r0 + n * dr, c0 + n * dc
                    if ra < SIZE and ca < SIZE and board[ra, ca] >= 0:
                        continue
                    need = []
                    ok = True
                    for i in range(n):
                        r, c = r0 + i * dr, c0 + i * dc
                        if board[r, c] < 0:
                            need.append(i)
                        elif letters[r, c] != codes[i]:
                            ok = False
                            break
                    if not ok or not need or len(need) > 7:
                        continue
                    want = Counter(codes[i] for i in need)
                    short = sum(max(0, v - rack[k]) for k, v in want.items())
                    if short > rack[blank]:
                        continue
                    # Each needed square may take a natural tile or a blank (if the rack allows).
                    choices = [
                        [b for b in (False, True) if (rack[codes[i]] if not b else rack[blank])]
                        for i in need
                    ]
                    legal = None
                    for blanks in itertools.product(*choices):
                        use = Counter(blank if b else codes[i] for i, b in zip(need, blanks))
                        if any(rack[k] < v for k, v in use.items()):
                            continue
                        placed = [
                            (r0 + i * dr, c0 + i * dc, codes[i] + (BLANK_FLAG if b else 0))
                            for i, b in zip(need, blanks)
                        ]
                        if legal is False:
                            break
                        try:
                            score, _ = score_tiles(board, placed, tiles, is_word)
                        except IllegalActionError:
                            legal = False  # the words formed do not depend on blanks
                            continue
                        legal = True
                        found[frozenset(placed)] = score
    return found


def check_legal(board, moves, tiles, is_word):  # type: ignore[no-untyped-def]
    keys = set()
    for move in moves:
        placed = new_tiles(board, move, tiles)
        score, words = score_tiles(board, placed, tiles, is_word)
        assert score == move.score, f"{move}: independent scorer says {score} ({words})"
        assert words[0] == move.word, f"{move}: main word is {words[0]}"
        key = frozenset(placed)
        assert key not in keys, f"{move} generated twice"
        keys.add(key)
    return keys


def test_first_move_with_small_lexicon(english, small_lexicon) -> None:  # type: ignore[no-untyped-def]
    gen = MoveGenerator(small_lexicon)
    moves = gen.moves(empty_board(), english.rack_counts("QUIZ"))
    # QUIZ at four squares in each direction, each (10 + 1 + 1 + 10) x 2 on the star;
    # ties keep generation order (across first, leftmost first).
    assert [str(m) for m in moves[:2]] == ["8E QUIZ 44", "8F QUIZ 44"]
    assert len(moves) == 8 and all(m.score == 44 for m in moves)
    for m in moves:
        assert (7, 7) in m.squares()


def test_no_moves_from_empty_rack(english, small_lexicon) -> None:  # type: ignore[no-untyped-def]
    gen = MoveGenerator(small_lexicon)
    assert gen.moves(empty_board(), english.rack_counts("")) == []
    assert gen.best(empty_board(), english.rack_counts("")) is None


def test_brute_force_finds_nothing_missed(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    tiles = small_lexicon.tiles
    words = sorted({w.upper() for w in SMALL_WORDS})
    gen = MoveGenerator(small_lexicon)
    checked = 0
    for k, (board, rack) in enumerate(random_positions(small_lexicon, seed=7, games=2)):
        if k % 7:
            continue  # a spread of early, middle and late positions
        moves = gen.moves(board, rack)
        fast = {placement_key(board, m, tiles): m.score for m in moves}
        slow = brute_force(board, rack, words, tiles)
        assert len(fast) == len(moves)
        missed = set(slow) - set(fast)
        assert not missed, f"missed {sorted(missed)[:3]}"
        assert fast == slow
        checked += 1
    assert checked >= 3


def test_blank_racks_match_brute_force(english, small_lexicon) -> None:  # type: ignore[no-untyped-def]
    words = sorted({w.upper() for w in SMALL_WORDS})
    gen = MoveGenerator(small_lexicon)
    for board, rack in itertools.islice(random_positions(small_lexicon, seed=3, games=1), 2, 12, 5):
        rack = rack.copy()
        rack[np.flatnonzero(rack)[0]] -= 1
        rack[english.size] += 1  # one natural tile becomes a blank
        fast = {placement_key(board, m, english): m.score for m in gen.moves(board, rack)}
        assert fast == brute_force(board, rack, words, english)


def test_random_positions_all_moves_legal(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    tiles = small_lexicon.tiles
    is_word = {w.upper() for w in SMALL_WORDS}.__contains__
    gen = MoveGenerator(small_lexicon)
    positions = 0
    for board, rack in random_positions(small_lexicon, seed=11, games=10):
        moves = gen.moves(board, rack)
        check_legal(board, moves, tiles, is_word)
        best = gen.best(board, rack)
        if moves:
            assert best is not None and best.score == moves[0].score
        else:
            assert best is None
        positions += 1
    assert positions > 100


def test_enable_positions_legal(enable_lexicon, enable_words) -> None:  # type: ignore[no-untyped-def]
    gen = MoveGenerator(enable_lexicon)
    for board, rack in itertools.islice(random_positions(enable_lexicon, 5, 2, True), 0, 50, 3):
        check_legal(board, gen.moves(board, rack), enable_lexicon.tiles, enable_words.__contains__)


@pytest.mark.slow
def test_thousands_of_enable_positions(enable_lexicon, enable_words) -> None:  # type: ignore[no-untyped-def]
    gen = MoveGenerator(enable_lexicon)
    n = 0
    for board, rack in random_positions(enable_lexicon, seed=2026, games=120):
        moves = gen.moves(board, rack)
        check_legal(board, moves, enable_lexicon.tiles, enable_words.__contains__)
        n += 1
    assert n >= 2000


@pytest.mark.slow
def test_many_small_positions_against_brute_force(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    tiles = small_lexicon.tiles
    words = sorted({w.upper() for w in SMALL_WORDS})
    gen = MoveGenerator(small_lexicon)
    n = 0
    for board, rack in random_positions(small_lexicon, seed=99, games=6):
        fast = {placement_key(board, m, tiles): m.score for m in gen.moves(board, rack)}
        assert fast == brute_force(board, rack, words, tiles)
        n += 1
    assert n >= 100


def test_placement_text() -> None:
    move = Placement(7, 3, True, "QUIz", 32)
    assert str(move) == "8D QUIz 32"
    assert move.to_json() == {
        "row": 7,
        "col": 3,
        "direction": "across",
        "word": "QUIz",
        "score": 32,
    }


def test_two_blanks_overflow_the_first_buffer(enable_lexicon, english) -> None:  # type: ignore[no-untyped-def]
    gen = MoveGenerator(enable_lexicon)
    moves = gen.moves(empty_board(), english.rack_counts("RETA??S"))
    assert len(moves) > 4096  # more than the initial room: the buffer grows and reruns
    keys = {placement_key(empty_board(), m, english) for m in moves}
    assert len(keys) == len(moves)
    assert moves[0].score == max(m.score for m in moves)
    assert gen.best(empty_board(), english.rack_counts("RETA??S")).score == moves[0].score
