"""The lexicon's shared move generator reused its buffers across threads: a server's AI move
and another game's advice on the same lexicon could read each other's moves (an illegal
move, a 400, in a web test run under load)."""

from __future__ import annotations

import itertools
import sys
import threading

import numpy as np

from stratagem.games.scrabble.movegen import MoveGenerator, move_generator

from .conftest import random_positions


def _digest(gen: MoveGenerator, board: np.ndarray, rack: np.ndarray) -> tuple[str, ...]:
    return tuple(str(m) for m in gen.moves(board, rack))


def test_threads_on_one_lexicon_each_get_their_own_moves(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    positions = list(itertools.islice(random_positions(small_lexicon, 7, 6), 40))
    expected = [_digest(MoveGenerator(small_lexicon), b, r) for b, r in positions]
    assert len({e for e in expected}) > 10  # positions that differ
    wrong: list[int] = []
    start = threading.Barrier(4)

    def work(offset: int) -> None:
        gen = move_generator(small_lexicon)
        start.wait()
        for k in range(400):
            i = (k * 7 + offset) % len(positions)
            if _digest(gen, *positions[i]) != expected[i]:
                wrong.append(i)

    switch = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can
    try:
        threads = [threading.Thread(target=work, args=(t * 11,)) for t in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(switch)
    assert wrong == []


def test_each_thread_has_its_own_generator_on_shared_tables(small_lexicon) -> None:  # type: ignore[no-untyped-def]
    here = move_generator(small_lexicon)
    assert move_generator(small_lexicon) is here  # one a thread, reused
    there: list[MoveGenerator] = []
    t = threading.Thread(target=lambda: there.append(move_generator(small_lexicon)))
    t.start()
    t.join()
    assert there[0] is not here
    assert there[0]._gaddag[0] is here._gaddag[0]  # the packed GADDAG is built once


def test_a_lexicon_let_go_is_freed_with_its_shared_generators() -> None:
    """The shared generators were kept in caches keyed weakly by the lexicon, but each held
    the lexicon itself: every lexicon ever loaded stayed (65 MB for ENABLE; a self-play
    worker that loaded the built-in list per chunk grew to 11 GB)."""
    import gc
    import weakref

    import pytest

    from stratagem.games.scrabble.lexicon import Lexicon
    from stratagem.games.scrabble.tiles import tile_set

    lex = Lexicon.from_words(["cat", "at", "act"], tile_set("english"), "let go")
    gen = move_generator(lex)
    other = threading.Thread(target=move_generator, args=(lex,))  # a second thread's copy
    other.start()
    other.join()
    assert gen.lexicon is lex
    held = weakref.ref(lex)
    del lex
    gc.collect()
    assert held() is None
    with pytest.raises(ReferenceError, match="no longer held"):
        gen.lexicon  # noqa: B018
