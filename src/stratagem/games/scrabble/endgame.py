"""The exact Scrabble endgame: the bag is empty, both racks are known.

With no tiles left to draw the game is one of perfect information, and
:func:`solve_endgame` searches it to the end: negamax with alpha-beta,
iterative deepening on the number of plies, a transposition table keyed by
the board, both racks and the count of scoreless turns, and move ordering
(the table's best move first, then moves that go out, then by score plus 30
points a tile laid: moves that unload the rack first). The moves are every
placement the move generator finds and the pass (exchanges need 7 tiles in
the bag). The game ends as :class:`~.state.ScrabbleState`
ends it: a player who empties the rack gains the other's rack value, which
the other loses (a swing of twice that value); six consecutive scoreless
turns (passes and 0-point placements) end it with each player losing their
own rack value.

Values are spreads from the mover's point of view: ``value`` is the final
score of the player to move minus the opponent's under best play by both.
The search is exact once an iteration finishes without cutting any line at
its depth limit (the game always ends: every placement uses a tile and
passes run into the six-turn rule). After each iteration from depth 2 on,
the solver also attempts a search to the end of the game (``max_depth``
plies) with as many nodes as the iterations have used so far: the
iterations find the value early, but proving it one ply deeper at a time
can take many times the nodes of one search to the end, while on other
endgames the search to the end wanders into long lines that the iterations'
horizon cuts short; the budget bounds what an attempt can waste to the
nodes already spent. If ``time_limit`` or ``max_depth`` stops the search
first, the result is that of the deepest finished iteration, with
``exact=False``; beyond the depth limit a line is valued by the rack
penalties alone, as if the game ended there by passes. For an exact result
``depth`` is the length in plies of the longest line searched.

>>> from stratagem.games.scrabble.lexicon import Lexicon
>>> from stratagem.games.scrabble.position import read_position
>>> from stratagem.games.scrabble.tiles import tile_set
>>> lex = Lexicon.from_words(["cat", "at", "ta", "cats"], tile_set("english"))
>>> rows = ["." * 15] * 7 + [".......CAT....."] + ["." * 15] * 7
>>> text = "racks: S AT\\nscores: 10 20\\nbag:\\nboard:\\n" + "\\n".join(rows)
>>> result = solve_endgame(read_position(text, lex))
>>> str(result.best_move), result.value, result.exact
('8H CATS 6', 0, True)
"""

from __future__ import annotations

import contextlib
import functools
import math
import threading
import time
import weakref
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypedDict, Unpack

import numpy as np

from stratagem.core.agent import Agent
from stratagem.core.errors import InvalidStateError, StratagemError
from stratagem.core.game import Action, State
from stratagem.core.lazy import LazyModule
from stratagem.games.scrabble.board import BINGO, LETTER_MULT, RACK_SIZE, SIZE, WORD_MULT, Placement
from stratagem.games.scrabble.state import SCORELESS_LIMIT, Pass, ScrabbleState

_ek = LazyModule("stratagem.games.scrabble._endgame_kernels")
_kernels = LazyModule("stratagem.games.scrabble._kernels")

MAX_DEPTH = 64
"""The deepest iteration allowed (plies); an endgame of two full racks never needs 40."""


class EndgameError(StratagemError):
    """A position the endgame solver cannot search (bag not empty, not two players, ...)."""


@dataclass(frozen=True)
class EndgameResult:
    """The solver's answer for the player to move.

    ``value`` is the final spread (mover's final score minus the opponent's)
    under best play; ``gain`` is what the mover nets from here on
    (``value`` minus the current spread). ``exact`` says whether the search
    reached the end of every line it needed; ``depth`` is the deepest
    finished iteration in plies (when a search to the end proved the value:
    the plies of the longest line it searched); ``seconds`` the CPU time
    spent; ``pv`` the expected line of play.
    """

    best_move: Placement | Pass
    value: int
    gain: int
    exact: bool
    depth: int
    nodes: int
    seconds: float
    pv: tuple[Placement | Pass, ...] = field(default=(), compare=False)

    def to_json(self) -> dict[str, object]:
        return {
            "best_move": str(self.best_move),
            "value": self.value,
            "gain": self.gain,
            "exact": self.exact,
            "depth": self.depth,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 4),
            "pv": [str(m) for m in self.pv],
        }


_ZOBRIST = np.random.default_rng(0x5C4AB1E).integers(
    0, np.iinfo(np.uint64).max, size=(SIZE * SIZE, 128), dtype=np.uint64, endpoint=True
)
TABLE_BITS = 21
"""log2 of the transposition table's entries (2M entries, about 48 MB)."""
_ORDERING = [30, 0, 2]
"""Move ordering: the bonus per tile laid, and that of a killer move; and the depth from
which a node first looks its children up in the table (enhanced transposition cutoff, 0:
never). 30 a tile (rather than 3) searches 1.36x fewer nodes on 30 benchmark endgames of
0.5-3 s, to the same values; the cutoff from depth 2 another 1.2% on the 84 benchmark
endgames proved (``docs/results/scrabble_endgame.md``)."""
_ASPIRATION = 1
"""Half-width in points of the first window of each iteration and attempt to the end,
around the value of the iteration before (0: the whole range). With 1, and the cutoff above,
the 84 benchmark endgames proved take 1.07x fewer nodes and 1.10x less CPU, to the same
values (a mixed gain: 50 of them take fewer nodes, 30 more)."""
Window = tuple[int, int]
WHOLE: Window = (-_ek.INF, _ek.INF)
"""The window of a search over the whole range of values."""
_POOL = 1 << 18
_TMP = 1 << 14


class _Search:
    """The kernels' arrays for one endgame; the mover is player 0 inside."""

    def __init__(self, state: ScrabbleState) -> None:
        lex = state.lexicon
        self.lexicon = lex
        n = lex.tiles.size
        self.nletters = n
        self.board = state.board_array.copy()
        p = state.player
        self.racks = np.array([state.racks[p], state.racks[1 - p]], dtype=np.int32)
        self.loc = np.full((2, n + 1), 7, dtype=np.int64)
        for who in range(2):
            distinct = np.flatnonzero(self.racks[who])
            self.loc[who, distinct] = np.arange(len(distinct))
        self.slot_values = lex.tiles.values_array.astype(np.int64)
        # Where the table's keys start from: the board and the mover's seat of the search
        # that made it (see :meth:`reroot`).
        self.origin_board = self.board.copy()
        self.origin_player = p
        self.bh0 = np.uint64(0)
        size = 1 << TABLE_BITS
        self.tt_key = np.zeros(size, dtype=np.uint64)
        self.tt_value = np.zeros(size, dtype=np.int32)
        self.tt_move = np.zeros(size, dtype=np.uint64)
        self.tt_depth = np.zeros(size, dtype=np.int8)
        self.tt_flag = np.zeros(size, dtype=np.int8)
        self.tt_exact = np.zeros(size, dtype=np.bool_)
        self._origin_racks = self.racks.copy()
        self.table = _ek.Table(
            self.tt_key, self.tt_value, self.tt_move, self.tt_depth, self.tt_flag, self.tt_exact
        )
        self.counters = np.zeros(_ek.N_COUNTERS, dtype=np.int64)
        self.killers = np.zeros((_ek.MAX_FRAMES, 2), dtype=np.uint64)
        self.options = np.zeros(_ek.N_OPTIONS, dtype=np.int64)
        self.options[[_ek.TILE_BONUS, _ek.KILLER_BONUS, _ek.ETC_DEPTH]] = _ORDERING
        self.f_start = np.zeros(_ek.MAX_FRAMES, dtype=np.int64)
        self.f_count = np.zeros(_ek.MAX_FRAMES, dtype=np.int64)
        self.words = _ek.Words(
            lex.child, lex.terminal, lex.mask, lex.root, lex.tiles.values_array,
            self.slot_values, n,
        )  # fmt: skip
        self._allocate(_POOL, _TMP)
        self.cpu = 0.0
        self.progress: Callable[[int, int], None] | None = None
        self.wall_deadline: float | None = None  # time.monotonic() at which to stop

    def _allocate(self, pool: int, tmp: int) -> None:
        self.tmp_info = np.zeros((tmp, _kernels.INFO_FIELDS), dtype=np.int32)
        self.tmp_word = np.zeros((tmp, SIZE), dtype=np.int8)
        self.mv_sq = np.zeros((pool, RACK_SIZE), dtype=np.int16)
        self.mv_code = np.zeros((pool, RACK_SIZE), dtype=np.int8)
        self.mv_n = np.zeros(pool, dtype=np.int8)
        self.mv_score = np.zeros(pool, dtype=np.int32)
        self.mv_hash = np.zeros(pool, dtype=np.uint64)
        self.mv_need = np.zeros(pool, dtype=np.int64)
        self.mv_line = np.zeros(pool, dtype=np.int16)
        self.mv_lo = np.zeros(pool, dtype=np.int8)
        self.mv_hi = np.zeros(pool, dtype=np.int8)
        self.okey = np.zeros(pool, dtype=np.int64)
        self.order = np.zeros(pool, dtype=np.int64)
        self.pool = _ek.Pool(
            self.mv_sq, self.mv_code, self.mv_n, self.mv_score, self.mv_hash, self.mv_need,
            self.mv_line, self.mv_lo, self.mv_hi, self.okey, self.order, self.f_start,
            self.f_count,
        )  # fmt: skip
        self.scratch = _ek.Scratch(self.tmp_info, self.tmp_word)
        self._root_lists()

    def _root_lists(self) -> None:
        """Both players' moves on the root board into frames 0 and 1 (the pool doubled
        while it is too small)."""
        top = _ek.root_lists(
            self.words, _squares(), self.board, self.racks, self.loc, self.pool, self.scratch
        )
        if top < 0:
            self._allocate(self.mv_n.shape[0] * 2, self.tmp_info.shape[0] * 2)

    def reroot(self, state: ScrabbleState) -> bool:
        """Move the root to ``state``, keeping the transposition table, when ``state`` lies
        in the endgame this table was made for: the same lexicon, the same player to
        move, every tile of the origin's board still in place, and each rack a part of
        what that player held at the origin. Every entry stays true there: a node's key
        names its position (tiles laid since the origin, both racks, the mover, the
        scoreless turns) and its value is the mover's gain from that position on. Returns
        False (and changes nothing) otherwise."""
        if state.lexicon is not self.lexicon or state.player != self.origin_player:
            return False
        board = state.board_array
        laid = self.origin_board >= 0
        if not np.array_equal(board[laid], self.origin_board[laid]):
            return False
        p = state.player
        racks = np.array([state.racks[p], state.racks[1 - p]], dtype=np.int32)
        if np.any(racks > self._origin_racks):
            return False
        h = np.uint64(0)
        for r, c in zip(*np.nonzero((board >= 0) & ~laid)):
            h ^= _ZOBRIST[r * SIZE + c, board[r, c]]
        self.board = board.copy()
        self.racks = racks
        self.bh0 = h
        self.counters[:] = 0
        self.killers[:] = 0
        self.cpu = 0.0
        self._root_lists()  # the pool is reused: only the root's lists change
        return True

    def iteration(
        self,
        depth: int,
        scoreless: int,
        deadline: float | None,
        node_limit: int = 0,
        window: Window = WHOLE,
    ) -> tuple[int, bool, int] | None:
        """One iteration to ``depth``: (gain, exact, best-move hash), or None if stopped
        (``deadline``: CPU seconds of all iterations so far; ``node_limit``: nodes of all
        iterations so far, 0 for none)."""
        while True:
            status, value, exact, best = self._run(depth, scoreless, deadline, node_limit, window)
            if status != _ek.OVERFLOW:
                break
            self._allocate(self.mv_n.shape[0] * 2, self.tmp_info.shape[0] * 2)
        if status == _ek.ABORTED:
            return None
        return value, exact, best

    def attempt(
        self,
        depth: int,
        scoreless: int,
        deadline: float,
        node_limit: int,
        budget: int,
        guess: int | None = None,
    ) -> tuple[tuple[int, bool, int], int] | None:
        """Search to ``depth`` (the end of the game, for the solver) with at most
        ``budget`` more nodes: ``((gain, True, best-move hash), plies of the longest line)``
        if that proves the value, None if it ran out of nodes or time or met a line
        longer than ``depth``. ``guess``: see :meth:`aspire`."""
        cap = int(self.counters[_ek.NODES]) + max(1024, budget)
        if node_limit:
            cap = min(cap, node_limit)
        self.counters[_ek.DEEPEST] = 0
        step = self.aspire(depth, scoreless, deadline, cap, guess, proof=True)
        if step is None:
            return None
        return step, int(self.counters[_ek.DEEPEST]) + 1

    def aspire(
        self,
        depth: int,
        scoreless: int,
        deadline: float | None,
        node_limit: int,
        guess: int | None,
        proof: bool = False,
    ) -> tuple[int, bool, int] | None:
        """:meth:`iteration` started in a window of :data:`_ASPIRATION` points either side
        of ``guess`` (the whole range without one). A value outside the window is only a
        bound: the window moves past it, twice as wide each time, until the value falls
        inside (the table keeps what each search found). A search cut at the depth can
        contradict the bound found before it (the table's deeper entries); then, and after
        8 windows, the last search is over the whole range. None if stopped, or, with
        ``proof``, as soon as a search is not exact (cut at the depth)."""
        lo, hi = (
            WHOLE
            if guess is None or _ASPIRATION <= 0
            else (guess - _ASPIRATION, guess + _ASPIRATION)
        )
        width = max(1, _ASPIRATION)
        floor, ceiling = -_ek.INF, _ek.INF  # the bounds found so far
        for tries in range(1, 10):
            step = self.iteration(depth, scoreless, deadline, node_limit, (lo, hi))
            if step is None or (proof and not step[1]):
                return None
            value = step[0]
            if lo < value < hi or (lo, hi) == WHOLE:
                return step
            width *= 2
            if value <= lo:  # the value is at most ``value``
                ceiling = value
                lo, hi = max(-_ek.INF, value - width), value + 1
            else:  # at least ``value``
                floor = value
                lo, hi = value - 1, min(_ek.INF, value + width)
            if floor >= ceiling or tries >= 8:
                lo, hi = WHOLE
        return None

    def _run(
        self, depth: int, scoreless: int, deadline: float | None, limit: int, window: Window
    ) -> tuple[int, int, bool, int]:
        """The kernel in a worker thread (it releases the GIL), so that this thread can
        stop it at the CPU deadline or on Ctrl-C; the kernel stops itself at the node
        limit."""
        stop = np.zeros(2, dtype=np.int64)
        stop[_ek.NODE_LIMIT] = limit
        root_best = np.zeros(1, dtype=np.uint64)
        control = _ek.Control(self.counters, stop, root_best, self.killers, self.options)
        start = _ek.Start(
            self.board, self.racks, self.loc, 0, scoreless, SCORELESS_LIMIT, np.uint64(self.bh0)
        )
        out: list[tuple[tuple[int, int, bool], float]] = []
        failed: list[BaseException] = []

        def work() -> None:
            began = time.thread_time()
            try:
                result = _ek.search(
                    self.words, _squares(), start, self.pool, self.scratch, self.table,
                    control, depth, window[0], window[1],
                )  # fmt: skip
            except BaseException as exc:  # handed to the calling thread
                failed.append(exc)
                return
            out.append((result, time.thread_time() - began))

        worker = threading.Thread(target=work, name="endgame-search", daemon=True)
        worker.start()
        clock = _thread_clock(worker)
        began = clock()
        report = self.progress if deadline is not None else None
        total = math.ceil(deadline) if deadline is not None else 0
        next_report = time.monotonic() + PROGRESS_EVERY
        try:
            while worker.is_alive():
                worker.join(0.005)
                used = self.cpu + clock() - began
                if deadline is not None and used > deadline:
                    stop[_ek.STOP] = 1
                if (deadline is not None and self.wall_deadline is not None
                        and time.monotonic() > self.wall_deadline):  # fmt: skip
                    stop[_ek.STOP] = 1  # a person waits: the clock on the wall, not the CPU's
                if report is not None and time.monotonic() >= next_report:
                    next_report = time.monotonic() + PROGRESS_EVERY
                    report(min(int(used), total), total)
        except BaseException:  # Ctrl-C: stop the kernel before unwinding
            stop[_ek.STOP] = 1
            worker.join()
            raise
        if failed:
            raise failed[0]
        (status, value, exact), used = out[0]
        self.cpu += used
        return int(status), int(value), bool(exact), int(root_best[0])


@functools.cache
def _squares() -> Any:
    """The premium squares both ways round, the bingo bonus and the Zobrist keys, as the
    kernels read them (one :class:`._endgame_kernels.Squares` for every search)."""
    return _ek.Squares(
        LETTER_MULT, WORD_MULT, LETTER_MULT.T.copy(), WORD_MULT.T.copy(), BINGO, _ZOBRIST
    )


def _thread_clock(thread: threading.Thread) -> Callable[[], float]:
    """The CPU clock of ``thread`` (wall time where the platform has no per-thread clock)."""
    getter = getattr(time, "pthread_getcpuclockid", None)
    if getter is not None and thread.ident is not None:
        try:
            cid = getter(thread.ident)
            time.clock_gettime(cid)
        except OSError:
            pass
        else:
            last = [0.0]

            def read() -> float:
                # once the thread has ended its last reading stands
                with contextlib.suppress(OSError):
                    last[0] = time.clock_gettime(cid)
                return last[0]

            return read
    return time.perf_counter


def _move_hash(move: Placement | Pass, state: ScrabbleState) -> int:
    """The kernels' name of a move: the XOR of its new tiles' Zobrist keys."""
    if isinstance(move, Pass):
        return int(_ek.PASS_HASH)
    board = state.board_array
    h = 0
    for (r, c), char in zip(move.squares(), move.word):
        if board[r, c] < 0:
            h ^= int(_ZOBRIST[r * SIZE + c, state.tiles.square_code(char)])
    return h


def _find(state: ScrabbleState, move_hash: int) -> Placement | Pass | None:
    for action in state.legal_actions():
        if isinstance(action, (Placement, Pass)) and _move_hash(action, state) == move_hash:
            return action
    return None


def check_endgame(state: ScrabbleState) -> None:
    """Raise :class:`EndgameError` unless ``state`` is a two-player decision with the bag empty."""
    if not isinstance(state, ScrabbleState):
        raise EndgameError(f"the endgame solver takes a ScrabbleState, got {type(state).__name__}")
    if state.num_players != 2:
        raise EndgameError(
            f"the endgame solver plays two-player games; this one has {state.num_players} players"
        )
    if state.is_terminal() or state.current_player < 0:
        raise EndgameError("the endgame solver needs a position where a player is to move")
    if state.bag_size() != 0:
        raise EndgameError(
            f"the endgame solver needs an empty bag; it holds {state.bag_size()} tiles"
        )


PROGRESS_EVERY = 0.5
"""Seconds (wall clock) between two calls of a solve's ``progress`` callback."""

NODE_LIMITS = (1_024, 10**12)
"""The node limits :func:`solve_endgame` accepts (the kernel checks every 1,024 nodes)."""


class EndgameLimits(TypedDict, total=False):
    """What bounds a search (the keyword arguments of :meth:`EndgameSolver.solve`, with
    its defaults)."""

    time_limit: float
    max_depth: int
    node_limit: int | None
    progress: Callable[[int, int], None] | None
    wall_limit: float | None


def solve_endgame(state: ScrabbleState, **limits: Unpack[EndgameLimits]) -> EndgameResult:
    """Search the endgame of ``state`` (bag empty, two players) for the player to move,
    with a fresh transposition table (:class:`EndgameSolver` keeps one between the
    moves of an endgame).

    ``time_limit`` (seconds of this process's CPU time, > 0, so that a busy
    machine does not change the answer much; 30 by default), ``max_depth`` (plies,
    1-64; :data:`MAX_DEPTH` by default) and
    ``node_limit`` (nodes over all iterations, 1,024 to 10**12; none by default)
    bound the search; when one stops it before an iteration proves the value, the
    deepest finished iteration answers with ``exact=False``. At least the
    first iteration (depth 1) always finishes. A search stopped by its node limit
    gives the same answer on every machine and at any load; one stopped by its time
    limit may not. ``progress(done, total)``, when given, is called about every
    :data:`PROGRESS_EVERY` seconds while the search runs, with the CPU seconds used
    and the time limit (whole seconds); an exception it raises (Ctrl-C) stops the
    search and propagates. ``wall_limit`` (seconds on the wall clock, > 0) bounds the
    search for someone who waits for it (the web page): a busy machine then gets less
    CPU time, and the deepest iteration finished within it answers.
    """
    return EndgameSolver().solve(state, **limits)


MAX_KEPT_TABLES = 4
"""How many :class:`EndgameSolver` tables one process keeps between calls (the least
recently used beyond that is dropped and rebuilt when needed)."""
_KEPT: OrderedDict[int, weakref.ref[EndgameSolver]] = OrderedDict()
_KEPT_LOCK = threading.Lock()


class EndgameSolver:
    """:func:`solve_endgame` for the successive decisions of one endgame.

    It keeps its transposition table from one call to the next while the
    position stays in the same endgame (the same player to move, the tiles on
    the board at the first call still there, racks that only lost tiles), so a
    later decision starts from what the earlier searches proved instead of from
    nothing: a line already proved answers at once. Any other position starts a
    new table. With a node limit the answers stay the same on every machine, as
    long as the same positions are asked in the same order.
    """

    def __init__(self) -> None:
        self._search: _Search | None = None

    def _keep(self, search: _Search) -> None:
        """Keep ``search``'s table, dropping the least recently used solver's table when more
        than :data:`MAX_KEPT_TABLES` are kept in this process (each is about 60 MB)."""
        with _KEPT_LOCK:
            self._search = search
            _KEPT.pop(id(self), None)
            _KEPT[id(self)] = weakref.ref(self)
            while len(_KEPT) > MAX_KEPT_TABLES:
                _, ref = _KEPT.popitem(last=False)
                old = ref()
                if old is not None:
                    old._search = None  # a search under way keeps its own reference

    def solve(
        self,
        state: ScrabbleState,
        *,
        time_limit: float = 30.0,
        max_depth: int = MAX_DEPTH,
        node_limit: int | None = None,
        progress: Callable[[int, int], None] | None = None,
        wall_limit: float | None = None,
    ) -> EndgameResult:
        """As :func:`solve_endgame`, reusing the table of the previous call when it can."""
        began = time.monotonic()
        check_endgame(state)
        if wall_limit is not None and not (wall_limit > 0 and np.isfinite(wall_limit)):
            raise InvalidStateError(
                f"wall_limit must be a positive number of seconds, got {wall_limit}"
            )
        if not (time_limit > 0 and np.isfinite(time_limit)):
            raise InvalidStateError(
                f"time_limit must be a positive number of seconds, got {time_limit}"
            )
        if not 1 <= max_depth <= MAX_DEPTH:
            raise InvalidStateError(f"max_depth must be 1-{MAX_DEPTH} plies, got {max_depth}")
        if node_limit is not None and (
            isinstance(node_limit, bool)
            or not isinstance(node_limit, (int, np.integer))
            or not NODE_LIMITS[0] <= node_limit <= NODE_LIMITS[1]
        ):
            raise InvalidStateError(
                f"node_limit must be a whole number of nodes, {NODE_LIMITS[0]:,} to "
                f"{NODE_LIMITS[1]:,}, got {node_limit!r}"
            )
        start = time.thread_time()
        search = self._search
        if search is None or not search.reroot(state):
            search = _Search(state)
        self._keep(search)
        search.progress = progress
        search.wall_deadline = None if wall_limit is None else began + wall_limit
        try:
            return self._deepen(state, search, time_limit, max_depth, int(node_limit or 0), start)
        finally:
            search.progress = None
            search.wall_deadline = None

    @staticmethod
    def _deepen(
        state: ScrabbleState,
        search: _Search,
        time_limit: float,
        max_depth: int,
        limit: int,
        start: float,
    ) -> EndgameResult:
        """The iterations and the attempts to the end, for :meth:`solve`."""
        p = state.player
        spread = state.scores[p] - state.scores[1 - p]
        # Depth 1 always finishes: it is one move generation.
        first = search.iteration(1, state.scoreless, None)
        assert first is not None
        value, exact, best = first
        depth = 1
        deepened = int(search.counters[_ek.NODES])  # nodes of the iterations (not of the attempts)
        while not exact and depth < max_depth:
            before = int(search.counters[_ek.NODES])
            step = search.aspire(depth + 1, state.scoreless, time_limit, limit, value)
            if step is None:
                break
            (value, exact, best), depth = step, depth + 1
            deepened += int(search.counters[_ek.NODES]) - before
            if exact or depth >= max_depth:
                break
            proof = search.attempt(max_depth, state.scoreless, time_limit, limit, deepened, value)
            if proof is not None:
                (value, exact, best), depth = proof
                break
            if search.cpu > time_limit or (limit and search.counters[_ek.NODES] >= limit):
                break
            if search.wall_deadline is not None and time.monotonic() > search.wall_deadline:
                break
        move = _find(state, best)
        assert move is not None, "the search's best move is not among the legal moves"
        line = principal_variation(search, state, move)
        return EndgameResult(
            best_move=move,
            value=spread + value,
            gain=value,
            exact=exact,
            depth=depth,
            nodes=int(search.counters[_ek.NODES]),
            seconds=time.thread_time() - start + search.cpu,
            pv=tuple(line),
        )


def principal_variation(
    search: _Search, state: ScrabbleState, first: Placement | Pass
) -> list[Placement | Pass]:
    """The expected line: ``first``, then the table's best moves while it has exact entries."""
    line = [first]
    origin = search.origin_board
    player = search.origin_player
    mask = (1 << TABLE_BITS) - 1
    s = state.apply(first)
    while not s.is_terminal() and len(line) < MAX_DEPTH:
        board = s.board_array
        h = 0
        for r, c in zip(*np.nonzero((board >= 0) & (origin < 0))):
            h ^= int(_ZOBRIST[r * SIZE + c, board[r, c]])
        mover = 0 if s.player == player else 1
        have = [0, 0]
        for who, seat in ((0, player), (1, 1 - player)):
            for slot, count in enumerate(s.racks[seat]):
                have[who] += count << (4 * int(search.loc[who, slot]))
        key = int(_ek.node_key(np.uint64(h), have[0], have[1], mover, s.scoreless))
        idx = key & mask
        if int(search.tt_key[idx]) != key or search.tt_flag[idx] != _ek.EXACT:
            break
        move = _find(s, int(search.tt_move[idx]))
        if move is None:
            break
        line.append(move)
        s = s.apply(move)
    return line


class EndgameAgent:
    """Any agent, with the exact endgame once the bag is empty (two players).

    Before the bag empties it plays as ``before`` does; afterwards it plays
    :func:`solve_endgame`'s move (within ``time_limit`` seconds a move).

    >>> from stratagem.games.scrabble.strategies import GreedyAgent
    >>> EndgameAgent(GreedyAgent()).spec
    'endgame:greedy'
    """

    def __init__(
        self, before: Agent, *, time_limit: float = 30.0, max_depth: int = MAX_DEPTH
    ) -> None:
        if not hasattr(before, "act"):
            raise StratagemError(
                f"EndgameAgent needs an agent to play before the endgame, got {before!r}"
            )
        self.before = before
        self.time_limit = time_limit
        self.max_depth = max_depth
        self.last: EndgameResult | None = None
        self._solver = EndgameSolver()

    @property
    def spec(self) -> str:
        return f"endgame:{getattr(self.before, 'spec', type(self.before).__name__)}"

    def act(self, state: State, rng: np.random.Generator) -> Action:
        if (
            isinstance(state, ScrabbleState)
            and state.num_players == 2
            and state.bag_size() == 0
            and state.current_player >= 0
        ):
            self.last = self._solver.solve(
                state, time_limit=self.time_limit, max_depth=self.max_depth
            )
            return self.last.best_move
        return self.before.act(state, rng)
