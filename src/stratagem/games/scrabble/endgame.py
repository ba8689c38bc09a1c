"""The exact Scrabble endgame: the bag is empty, both racks are known.

With no tiles left to draw the game is one of perfect information, and
:func:`solve_endgame` searches it to the end: negamax with alpha-beta,
iterative deepening on the number of plies, a transposition table keyed by
the board, both racks and the count of scoreless turns, and move ordering
(the table's best move first, then moves that go out, then by score). The
moves are every placement the move generator finds and the pass (exchanges
need 7 tiles in the bag). The game ends as :class:`~.state.ScrabbleState`
ends it: a player who empties the rack gains the other's rack value, which
the other loses (a swing of twice that value); six consecutive scoreless
turns (passes and 0-point placements) end it with each player losing their
own rack value.

Values are spreads from the mover's point of view: ``value`` is the final
score of the player to move minus the opponent's under best play by both.
The search is exact once an iteration finishes without cutting any line at
its depth limit (the game always ends: every placement uses a tile and
passes run into the six-turn rule). If ``time_limit`` or ``max_depth`` stops
it first, the result is that of the deepest finished iteration, with
``exact=False``; beyond the depth limit a line is valued by the rack
penalties alone, as if the game ended there by passes.

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

import time
from dataclasses import dataclass, field

import numpy as np

from stratagem.core.agent import Agent
from stratagem.core.errors import InvalidStateError, StratagemError
from stratagem.core.game import Action, State
from stratagem.games.scrabble import _kernels
from stratagem.games.scrabble.board import BINGO, LETTER_MULT, SIZE, WORD_MULT, Placement
from stratagem.games.scrabble.state import PASS, SCORELESS_LIMIT, Pass, ScrabbleState
from stratagem.games.scrabble.tiles import BLANK_FLAG

MAX_DEPTH = 64
"""The deepest iteration allowed (plies); an endgame of two full racks never needs 40."""

_INF = 1 << 30
_EXACT, _LOWER, _UPPER = 0, 1, 2
_ROOM = 1024
# Ordering: a move that goes out first (it ends the game with the swing of the
# opponent's rack), then by score.
_OUT_BONUS = 1000


class EndgameError(StratagemError):
    """A position the endgame solver cannot search (bag not empty, not two players, ...)."""


@dataclass(frozen=True)
class EndgameResult:
    """The solver's answer for the player to move.

    ``value`` is the final spread (mover's final score minus the opponent's)
    under best play; ``gain`` is what the mover nets from here on
    (``value`` minus the current spread). ``exact`` says whether the search
    reached the end of every line it needed; ``depth`` is the deepest
    finished iteration in plies; ``seconds`` the CPU time spent; ``pv`` the
    expected line of play.
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


class _Timeout(Exception):
    pass


# A move as the search keeps it: (row, col, down, length, score, laid, word codes).
_Move = tuple[int, int, int, int, int, int, bytes]


class _Search:
    """Make/unmake negamax over one mutable board and two rack arrays."""

    def __init__(self, state: ScrabbleState, deadline: float) -> None:
        lex = state.lexicon
        self.lexicon = lex
        self.nletters = lex.tiles.size
        self.values = lex.tiles.values_array.astype(np.int64)
        self.kvalues = lex.tiles.values_array
        self.board = state.board_array.copy()
        self.racks = [np.array(r, dtype=np.int32) for r in state.racks]
        self.rack_value = [int(np.dot(r, self.values)) for r in self.racks]
        self.tiles_left = [int(r.sum()) for r in self.racks]
        self.tt: dict[bytes, tuple[int, int, int, _Move | None, bool]] = {}
        self.deadline = deadline
        self.nodes = 0
        self._buffers: list[tuple[np.ndarray, np.ndarray]] = []
        self._best = np.zeros(_kernels.INFO_FIELDS + SIZE, dtype=np.int32)

    # --- moves ----------------------------------------------------------------------------

    def _generate(self, p: int, ply: int) -> tuple[np.ndarray, np.ndarray, int]:
        while len(self._buffers) <= ply:
            self._buffers.append(
                (
                    np.zeros((_ROOM, _kernels.INFO_FIELDS), dtype=np.int32),
                    np.zeros((_ROOM, SIZE), dtype=np.int8),
                )
            )
        info, word = self._buffers[ply]
        lex = self.lexicon
        count = 0
        for _ in range(2):
            count = int(
                _kernels.generate(
                    self.board, LETTER_MULT, WORD_MULT, lex.child, lex.terminal, lex.mask,
                    lex.root, self.kvalues, self.nletters, self.racks[p], BINGO, False, info,
                    word, self._best,
                )
            )  # fmt: skip
            if count <= info.shape[0]:
                break
            room = 1 << count.bit_length()
            info = np.zeros((room, _kernels.INFO_FIELDS), dtype=np.int32)
            word = np.zeros((room, SIZE), dtype=np.int8)
            self._buffers[ply] = (info, word)
        return info, word, count

    def _make(self, p: int, move: _Move) -> list[tuple[int, int]]:
        row, col, down, length, _, _, codes = move
        board = self.board
        rack = self.racks[p]
        laid = []
        for i in range(length):
            r, c = (row + i, col) if down else (row, col + i)
            if board[r, c] < 0:
                code = codes[i]
                board[r, c] = code
                slot = self.nletters if code & BLANK_FLAG else code
                rack[slot] -= 1
                self.rack_value[p] -= int(self.values[slot])
                laid.append((r, c))
        self.tiles_left[p] -= len(laid)
        return laid

    def _unmake(self, p: int, laid: list[tuple[int, int]]) -> None:
        board = self.board
        rack = self.racks[p]
        for r, c in laid:
            code = int(board[r, c])
            board[r, c] = -1
            slot = self.nletters if code & BLANK_FLAG else code
            rack[slot] += 1
            self.rack_value[p] += int(self.values[slot])
        self.tiles_left[p] += len(laid)

    def _key(self, p: int, scoreless: int) -> bytes:
        return (
            self.board.tobytes()
            + self.racks[p].tobytes()
            + self.racks[1 - p].tobytes()
            + bytes((scoreless,))
        )

    # --- search ---------------------------------------------------------------------------

    def negamax(
        self, p: int, depth: int, alpha: int, beta: int, scoreless: int, ply: int
    ) -> tuple[int, bool]:
        """(value for ``p``, exact) of the position with ``p`` to move; value = p's net gain."""
        self.nodes += 1
        if not self.nodes & 63 and time.process_time() > self.deadline:
            raise _Timeout
        q = 1 - p
        key = self._key(p, scoreless)
        entry = self.tt.get(key)
        tt_move: _Move | None = None
        if entry is not None:
            e_depth, e_value, e_flag, tt_move, e_exact = entry
            usable = e_exact or e_depth >= depth
            if usable and (
                e_flag == _EXACT
                or (e_flag == _LOWER and e_value >= beta)
                or (e_flag == _UPPER and e_value <= alpha)
            ):
                return e_value, e_exact
        if depth == 0:
            # Beyond the horizon: valued as if both passed to the end (not exact).
            return self.rack_value[q] - self.rack_value[p], False

        info, words, count = self._generate(p, ply)
        order: list[int] = []
        if count:
            scores = info[:count, _kernels.SCORE].astype(np.int64)
            out = info[:count, _kernels.TILES] == self.tiles_left[p]
            keys = scores + out * (_OUT_BONUS + 2 * self.rack_value[q])
            order = np.argsort(-keys, kind="stable").tolist()
        if tt_move is not None and tt_move[3] > 0:
            row, col, down, length = tt_move[:4]
            hit = np.flatnonzero(
                (info[:count, _kernels.ROW] == row)
                & (info[:count, _kernels.COL] == col)
                & (info[:count, _kernels.DOWN] == down)
                & (info[:count, _kernels.LENGTH] == length)
            )
            for k in hit.tolist():
                if words[k, :length].tobytes() == tt_move[6]:
                    order.remove(k)
                    order.insert(0, k)
                    break
        pass_first = tt_move is not None and tt_move[3] == 0

        alpha0 = alpha
        best = -_INF
        best_move: _Move | None = None
        exact = True
        n_moves = len(order) + 1
        for i in range(n_moves):
            if pass_first:
                k = -1 if i == 0 else order[i - 1]
            else:
                k = order[i] if i < len(order) else -1
            if k < 0:
                move: _Move = (0, 0, 0, 0, 0, 0, b"")
                new_scoreless = scoreless + 1
                if new_scoreless >= SCORELESS_LIMIT:
                    value, child_exact = self.rack_value[q] - self.rack_value[p], True
                else:
                    value, child_exact = self._child(
                        q, depth - 1, alpha, beta, new_scoreless, ply, first=best == -_INF
                    )
            else:
                row, col, down, length, score, laid_n = (int(x) for x in info[k])
                move = (row, col, down, length, score, laid_n, words[k, :length].tobytes())
                child_exact = True
                if laid_n == self.tiles_left[p]:
                    value = score + 2 * self.rack_value[q]  # out: the game ends
                else:
                    new_scoreless = 0 if score > 0 else scoreless + 1
                    laid = self._make(p, move)
                    if new_scoreless >= SCORELESS_LIMIT:
                        value = score + self.rack_value[q] - self.rack_value[p]
                    else:
                        try:
                            value, child_exact = self._child(
                                q,
                                depth - 1,
                                alpha - score,
                                beta - score,
                                new_scoreless,
                                ply,
                                first=best == -_INF,
                            )
                        finally:
                            self._unmake(p, laid)
                        value += score
                        laid = []
                    if laid:
                        self._unmake(p, laid)
            exact = exact and child_exact
            if value > best:
                best = value
                best_move = move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        flag = _UPPER if best <= alpha0 else (_LOWER if best >= beta else _EXACT)
        old = self.tt.get(key)
        if old is None or exact or not old[4]:
            self.tt[key] = (depth, best, flag, best_move, exact)
        return best, exact

    def _child(
        self, q: int, depth: int, alpha: int, beta: int, scoreless: int, ply: int, first: bool
    ) -> tuple[int, bool]:
        """A child's value from the parent's side, within (alpha, beta) of the parent.

        Principal variation search: after the first move, a null window asks
        only whether the move beats ``alpha``; a move that does is searched again
        with the full window.
        """
        if not first and beta - alpha > 1:
            child, exact = self.negamax(q, depth, -alpha - 1, -alpha, scoreless, ply + 1)
            if -child <= alpha or -child >= beta:
                return -child, exact
        child, exact = self.negamax(q, depth, -beta, -alpha, scoreless, ply + 1)
        return -child, exact

    def principal_variation(self, p: int, scoreless: int, limit: int) -> list[_Move]:
        """The line of best moves read from the table (stops where an entry is missing)."""
        line: list[_Move] = []
        undo: list[tuple[int, list[tuple[int, int]]]] = []
        for _ in range(limit):
            entry = self.tt.get(self._key(p, scoreless))
            if entry is None or entry[3] is None or entry[2] != _EXACT:
                break
            move = entry[3]
            line.append(move)
            if move[3] == 0:
                scoreless += 1
            else:
                if move[5] == self.tiles_left[p]:
                    break
                undo.append((p, self._make(p, move)))
                scoreless = 0 if move[4] > 0 else scoreless + 1
            if scoreless >= SCORELESS_LIMIT:
                break
            p = 1 - p
        for who, laid in reversed(undo):
            self._unmake(who, laid)
        return line


def _action(move: _Move, state: ScrabbleState) -> Placement | Pass:
    row, col, down, length, score, _, codes = move
    if length == 0:
        return PASS
    text = "".join(state.tiles.square_text(x) for x in codes)
    return Placement(row, col, not down, text, score)


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


def solve_endgame(
    state: ScrabbleState, *, time_limit: float = 30.0, max_depth: int = MAX_DEPTH
) -> EndgameResult:
    """Search the endgame of ``state`` (bag empty, two players) for the player to move.

    ``time_limit`` (seconds of this process's CPU time, > 0, so that a busy
    machine does not change the answer much) and ``max_depth`` (plies, 1-64)
    bound the search; when either stops it before an iteration proves the value, the
    deepest finished iteration answers with ``exact=False``. At least the
    first iteration (depth 1) always finishes.
    """
    check_endgame(state)
    if not (time_limit > 0 and np.isfinite(time_limit)):
        raise InvalidStateError(
            f"time_limit must be a positive number of seconds, got {time_limit}"
        )
    if not 1 <= max_depth <= MAX_DEPTH:
        raise InvalidStateError(f"max_depth must be 1-{MAX_DEPTH} plies, got {max_depth}")
    start = time.process_time()
    p = state.player
    spread = state.scores[p] - state.scores[1 - p]
    search = _Search(state, deadline=_INF)
    # Depth 1 always finishes: it is one move generation.
    value, exact = search.negamax(p, 1, -_INF, _INF, state.scoreless, 0)
    depth = 1
    search.deadline = start + time_limit
    while not exact and depth < max_depth:
        try:
            v, e = search.negamax(p, depth + 1, -_INF, _INF, state.scoreless, 0)
        except _Timeout:
            break
        value, exact, depth = v, e, depth + 1
    root = search.tt[search._key(p, state.scoreless)]
    line = search.principal_variation(p, state.scoreless, MAX_DEPTH)
    best = root[3]
    assert best is not None
    return EndgameResult(
        best_move=_action(best, state),
        value=spread + value,
        gain=value,
        exact=exact,
        depth=depth,
        nodes=search.nodes,
        seconds=time.process_time() - start,
        pv=tuple(_action(m, state) for m in line),
    )


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
            self.last = solve_endgame(state, time_limit=self.time_limit, max_depth=self.max_depth)
            return self.last.best_move
        return self.before.act(state, rng)
