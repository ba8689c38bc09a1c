"""The phase-weighted heuristic player, and the equity (score + leave) player.

Every candidate (each placement, each distinct exchange, the pass) gets a
row of terms, all oriented so that more is better for the player to move:

* **h1 expensive tiles used** -- the summed face value of the tiles worth
  at least :data:`EXPENSIVE_MIN` points (English: F H V W Y K J X Q Z) that
  the move lays on the board or, for an exchange, gives back to the bag.
  Unit: points of face value; laying a Q and a K gives 15.
* **h2 blank used** -- minus the number of blanks laid or given back
  (0, -1 or -2).
* **h3 identical tiles left** -- minus the surplus of identical letters in the
  tiles kept: the sum over letters of max(0, copies kept - 1) (blanks
  excluded). Keeping E E E R gives -2.
* **h4 premium squares opened** -- minus the premium squares the move opens
  to the opponent: an empty premium square is *reachable* when it lies at
  most 2 squares from a tile along a row or column with only empty squares
  between; the move opens every premium square reachable after it and not
  before, weighted by what it can do: double letter 1, triple letter 2,
  double word 2, triple word 3. Exchanges and the pass open nothing.
* **h5 the move's score** in points (0 for an exchange or a pass).
* **h6 leave value** (optional sixth term) -- the learned value in points of
  the tiles kept (:mod:`stratagem.games.scrabble.leaves`).

A candidate's value is the weighted sum ``sum_k w[phase, k] * h_k`` with the
weight of h5 fixed at :data:`SCORE_WEIGHT` = 1000, so the other weights read
as thousandths of a point per unit (a blank weight of 5000 means: use the
blank only for 5 more points). Each of the five phases has its own weights;
the phase of a decision is decided from the turns played and the bag:

* **opening** -- the first 4 turns of the game (each player's first two);
* **development** -- later, while the bag holds at least 45 tiles;
* **middle** -- 15 to 44 tiles in the bag;
* **ending** -- 1 to 14 tiles in the bag;
* **closing** -- the bag is empty: both racks are known.

The player picks the candidate of highest value (the first generated among
equals). In the closing phase the exact endgame solver
(:class:`stratagem.games.scrabble.endgame.EndgameSolver`, one per agent, its
table kept between the moves of the endgame) plays instead of the weights,
unless the agent is made with ``endgame=False``.

>>> w = SOURCE_WEIGHTS
>>> w.array.shape, w.terms, float(w.array[PHASES.index("middle"), TERMS.index("blank")])
((5, 4), ('expensive', 'blank', 'identical', 'premium'), 5852.0)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from stratagem.core.agent import Advice
from stratagem.core.errors import StratagemError
from stratagem.core.files import parse_json_document, read_user_text, write_json
from stratagem.core.game import Action, State
from stratagem.games.scrabble import _heuristic_kernels as kern
from stratagem.games.scrabble._kernels import COL, DOWN, LENGTH, ROW, SCORE, TILES
from stratagem.games.scrabble.board import LETTER_MULT, RACK_SIZE, WORD_MULT, Placement
from stratagem.games.scrabble.leaves import LeaveTable, shipped_leaves, vowels
from stratagem.games.scrabble.movegen import MoveGenerator, move_generator, rank
from stratagem.games.scrabble.state import PASS, Exchange, Pass, ScrabbleState
from stratagem.games.scrabble.tiles import TileSet

PHASES = ("opening", "development", "middle", "ending", "closing")
TERMS = ("expensive", "blank", "identical", "premium")
"""The weighted terms h1-h4, in the order of a weights row (h5, the score, is fixed)."""
LEAVE_TERM = "leave"
FEATURE_NAMES = ("expensive", "blank", "identical", "premium", "score", "leave")
SCORE_WEIGHT = 1000.0
EXPENSIVE_MIN = 4
OPENING_TURNS = 4
DEVELOPMENT_BAG = 45
MIDDLE_BAG = 15
WEIGHTS_FORMAT = "stratagem-scrabble-weights"
MAX_WEIGHTS_BYTES = 100_000
MAX_WEIGHT = 1e9


CLOSING_CHOICES = ("weights", "rule")
"""How the heuristic player plays the closing phase without the endgame solver: by the
closing phase's weights (the source's player) or by the equity player's closing rule."""


class WeightsError(StratagemError, ValueError):
    """A weights file or string of the wrong shape, with a non-number, NaN or infinity."""


def phase_of(state: ScrabbleState) -> str:
    """The phase of the decision in ``state`` (see the module docstring)."""
    bag = state.bag_size()
    if bag == 0:
        return "closing"
    if state.turn < OPENING_TURNS:
        return "opening"
    if bag >= DEVELOPMENT_BAG:
        return "development"
    if bag >= MIDDLE_BAG:
        return "middle"
    return "ending"


@dataclass(frozen=True, eq=False)
class Weights:
    """Weights per phase (rows: :data:`PHASES`) and term (columns: ``terms``)."""

    array: np.ndarray
    terms: tuple[str, ...] = TERMS
    note: str = ""

    def __post_init__(self) -> None:
        check_weights(self.array, self.terms, "weights")

    @property
    def with_leave(self) -> bool:
        return LEAVE_TERM in self.terms

    def full(self) -> np.ndarray:
        """(5, 6) weights over :data:`FEATURE_NAMES` (score fixed, leave 0 when absent)."""
        out = np.zeros((len(PHASES), len(FEATURE_NAMES)))
        for j, term in enumerate(self.terms):
            out[:, FEATURE_NAMES.index(term)] = self.array[:, j]
        out[:, FEATURE_NAMES.index("score")] = SCORE_WEIGHT
        return out

    def flat(self) -> list[float]:
        return [float(x) for x in self.array.ravel()]

    def to_text(self) -> str:
        """The weights in one line, phase by phase, ``/`` between numbers (an agent spec value)."""
        return "/".join(f"{x:.6g}" for x in self.array.ravel())

    def to_json(self) -> dict[str, Any]:
        return {
            "format": WEIGHTS_FORMAT,
            "version": 1,
            "score_weight": SCORE_WEIGHT,
            "phases": list(PHASES),
            "terms": list(self.terms),
            "weights": {
                phase: {t: float(self.array[i, j]) for j, t in enumerate(self.terms)}
                for i, phase in enumerate(PHASES)
            },
            "note": self.note,
        }


def check_weights(array: np.ndarray, terms: Sequence[str], where: str) -> None:
    allowed = (TERMS, (*TERMS, LEAVE_TERM))
    if tuple(terms) not in allowed:
        raise WeightsError(
            f"{where}: the terms must be {', '.join(TERMS)} (and optionally {LEAVE_TERM}), "
            f"got {', '.join(terms)}"
        )
    if array.shape != (len(PHASES), len(terms)):
        raise WeightsError(
            f"{where}: expected {len(PHASES)} phases x {len(terms)} weights, got shape "
            f"{array.shape}"
        )
    if not np.all(np.isfinite(array)):
        raise WeightsError(f"{where}: every weight must be a finite number (no NaN or infinity)")
    if np.any(np.abs(array) > MAX_WEIGHT):
        raise WeightsError(f"{where}: weights must lie within +-{MAX_WEIGHT:g}")


def _as_number(value: object, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise WeightsError(f"{where}: {value!r} is not a number")
    return float(value)


def weights_from_numbers(numbers: Sequence[float], where: str = "weights") -> Weights:
    """20 numbers (4 terms per phase) or 25 (with the leave term), phase by phase."""
    if len(numbers) == len(PHASES) * len(TERMS):
        terms: tuple[str, ...] = TERMS
    elif len(numbers) == len(PHASES) * (len(TERMS) + 1):
        terms = (*TERMS, LEAVE_TERM)
    else:
        raise WeightsError(
            f"{where}: expected {len(PHASES) * len(TERMS)} weights (5 phases x "
            f"{', '.join(TERMS)}) or {len(PHASES) * (len(TERMS) + 1)} (with {LEAVE_TERM}), "
            f"got {len(numbers)}"
        )
    array = np.array([_as_number(x, where) for x in numbers], dtype=float)
    return Weights(array.reshape(len(PHASES), len(terms)), terms)


def parse_weights_text(text: str) -> Weights:
    """``a/b/c/...``: the one-line form of :meth:`Weights.to_text`."""
    parts = text.split("/")
    numbers = []
    for p in parts:
        try:
            numbers.append(float(p))
        except ValueError:
            raise WeightsError(f"weights {text[:60]!r}: {p!r} is not a number") from None
    return weights_from_numbers(numbers, "weights")


def parse_weights(text: str, where: str = "weights file") -> Weights:
    """Read the JSON written by :func:`save_weights`."""
    data = parse_json_document(text, where, WEIGHTS_FORMAT, "weights file", WeightsError)
    terms = data.get("terms")
    table = data.get("weights")
    if not isinstance(terms, list) or not all(isinstance(t, str) for t in terms):
        raise WeightsError(f"{where}: 'terms' must list the term names")
    if tuple(terms) not in (TERMS, (*TERMS, LEAVE_TERM)):
        raise WeightsError(
            f"{where}: the terms must be {', '.join(TERMS)} (and optionally {LEAVE_TERM}), "
            f"got {', '.join(terms)}"
        )
    if not isinstance(table, dict) or sorted(table) != sorted(PHASES):
        raise WeightsError(f"{where}: 'weights' must hold the phases {', '.join(PHASES)}")
    rows = []
    for phase in PHASES:
        row = table[phase]
        if not isinstance(row, dict) or sorted(row) != sorted(terms):
            raise WeightsError(f"{where}: phase {phase} must give exactly {', '.join(terms)}")
        rows.append([_as_number(row[t], f"{where}: {phase}.{t}") for t in terms])
    array = np.array(rows, dtype=float)
    check_weights(array, terms, where)
    return Weights(array, tuple(terms), str(data.get("note", "")))


def load_weights(path: Path | str) -> Weights:
    """Read a weights file (JSON, at most 100 kB); bad contents raise :class:`WeightsError`,
    an unreadable file :class:`~stratagem.core.files.FileInputError`."""
    text = read_user_text(path, limit=MAX_WEIGHTS_BYTES, what="weights file")
    return parse_weights(text, f"weights file {path}")


def save_weights(weights: Weights, path: Path | str) -> None:
    """Write the weights as JSON atomically (temporary file, then rename)."""
    write_json(path, weights.to_json(), indent=1, what="weights file")


SOURCE_WEIGHTS = Weights(
    np.array(
        [  # expensive, blank, identical, premium; per phase
            [59, 4957, 525, 81],
            [65, 6893, 474, 45],
            [99, 5852, 452, 66],
            [88, 7232, 527, 62],
            [60, 6801, 661, 55],
        ],
        dtype=float,
    ),
    TERMS,
    "the source's final GA weights (move value 1000)",
)
"""The final weights of the system this player reproduces, as a starting point."""


def shipped_weights(name: str = "tuned", tiles: str | None = None) -> Weights:
    """``source`` (the preset above) or a weights file shipped in ``data/`` (``tuned``...);
    with ``tiles``, the file tuned for that tile set (``weights_leave_czech.json``) where
    one is shipped."""
    if name == "source":
        return SOURCE_WEIGHTS
    data = resources.files("stratagem.games.scrabble").joinpath("data")
    stems = [f"weights_{name}_{tiles}"] if tiles is not None else []
    for stem in [*stems, f"weights_{name}"]:
        ref = data.joinpath(f"{stem}.json")
        if ref.is_file():
            return parse_weights(ref.read_text(encoding="utf-8"), f"shipped {stem}.json")
    if name == "tuned":
        return SOURCE_WEIGHTS  # nothing tuned shipped yet
    raise WeightsError(f"no shipped weights called {name!r}")


# --- evaluation ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Candidate:
    """One option with its terms (in :data:`FEATURE_NAMES` order) and its value."""

    action: Placement | Exchange | Pass
    features: np.ndarray
    value: float
    closing: float = 0.0
    """Points the equity player's closing rule adds (going out) or takes (tiles kept)."""

    def leave_points(self, weights: np.ndarray) -> float:
        """The points ``weights`` give the tiles this option keeps (its leave term)."""
        leave = FEATURE_NAMES.index("leave")
        return float(self.features[leave]) * float(weights[leave]) / SCORE_WEIGHT


class CandidateTable(NamedTuple):
    """Every candidate of a position as arrays (:meth:`Evaluator.table`): the placements'
    ``info``, ``word`` and ``feats``, the others' tiles given (row 0: the pass) and
    ``xfeats``, and the closing rule's points of each (zeros outside it)."""

    info: np.ndarray
    word: np.ndarray
    feats: np.ndarray
    gives: np.ndarray
    xfeats: np.ndarray
    bonus: np.ndarray
    xbonus: np.ndarray


class Evaluator:
    """Computes the terms of every candidate of a position (reusable buffers)."""

    def __init__(self, tiles: TileSet, leaves: LeaveTable | None = None) -> None:
        self.tiles = tiles
        self.leaves = leaves if leaves is not None else LeaveTable.zeros(tiles)
        if self.leaves.tiles.name != tiles.name:
            raise StratagemError(
                f"the leave table is for the {self.leaves.tiles.name} tiles, not {tiles.name}"
            )
        self.values = tiles.values_array.astype(np.int64)
        self.vowel = vowels(tiles)
        self._leave_arrays = kern.LeaveArrays(
            self.leaves.per_letter, self.leaves.balance, self.leaves.pairs, self.vowel
        )
        self.pweight = np.zeros((15, 15))
        kern.premium_weights(LETTER_MULT, WORD_MULT, self.pweight)
        self._feats = np.zeros((4096, kern.FEATURES))
        self._xfeats = np.zeros((1 << RACK_SIZE, kern.FEATURES))
        self._gives = np.zeros((1 << RACK_SIZE, tiles.size + 1), dtype=np.int64)

    def placements(
        self, gen: MoveGenerator, board: np.ndarray, rack: np.ndarray
    ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(info, word, features) of every placement, in the order the generator found them
        (:meth:`MoveGenerator.found`: ties are broken as in the DAWG walk's order by
        :func:`~.movegen.rank`, which ranks only the moves that can be chosen)."""
        info, word = gen.found(board, rack)
        n = info.shape[0]
        if n > self._feats.shape[0]:
            self._feats = np.zeros((1 << int(n).bit_length(), kern.FEATURES))
        kern.placement_features(
            board, rack.astype(np.int64), info, word, n, self.values, self.tiles.size,
            EXPENSIVE_MIN, self.pweight, self._leave_arrays, self._feats,
        )  # fmt: skip
        return info, word, self._feats[:n]

    def others(self, rack: np.ndarray, allow_exchange: bool) -> tuple[np.ndarray, np.ndarray]:
        """(tiles given, features) of the pass (row 0) and every distinct exchange."""
        n = kern.exchange_features(
            rack.astype(np.int64), self.tiles.size, self.values, EXPENSIVE_MIN,
            self._leave_arrays, allow_exchange, self._gives, self._xfeats,
        )  # fmt: skip
        return self._gives[:n], self._xfeats[:n]

    def candidates(self, state: ScrabbleState, weights: np.ndarray) -> list[Candidate]:
        """Every candidate with its terms and value under ``weights`` (6 numbers), best first."""
        return self.ranked(state, weights)[0]

    def table(self, state: ScrabbleState, closing: bool = False) -> CandidateTable:
        """Every candidate of ``state`` as arrays: one move generation, which
        :meth:`ranked` and :meth:`candidate` can share (valid until the next call)."""
        rack = state.rack_array()
        info, word, feats = self.placements(move_generator(state.lexicon), state.board_array,
                                            rack)  # fmt: skip
        gives, xfeats = self.others(rack, state.bag_size() >= RACK_SIZE)
        bonus, xbonus = self.closing_points(state, info, word, gives, closing)
        return CandidateTable(info, word, feats, gives, xfeats, bonus, xbonus)

    def ranked(
        self,
        state: ScrabbleState,
        weights: np.ndarray,
        top: int | None = None,
        closing: bool = False,
        table: CandidateTable | None = None,
    ) -> tuple[list[Candidate], int]:
        """The ``top`` best candidates (all when None), best first with placements first
        among equals, and how many placements are legal. Only the placements listed become
        :class:`Placement` objects (a blank on a busy board gives tens of thousands). With
        ``closing``, each value adds the closing rule (:meth:`closing_points`); ``table``:
        :meth:`table` of the same state and ``closing``, if already made."""
        t = table if table is not None else self.table(state, closing)
        info, word, feats, gives, xfeats, bonus, xbonus = t
        weighed = feats @ weights
        values = weighed + SCORE_WEIGHT * bonus
        # best first; among equal values the higher weighed sum, then the DAWG walk's order;
        # with ``top``, only the moves whose value reaches the top-th best value are ranked
        n = values.shape[0]
        if top is not None and 0 < top < n:
            kth = np.partition(values, n - top)[n - top]
            moves = np.flatnonzero(values >= kth)
        else:
            moves = np.arange(n)
        order = rank(info, word, moves, values, weighed, self.tiles.size)
        out = [
            Candidate(_placement(info[k], word[k], state), feats[k].copy(), values[k], bonus[k])
            for k in (order if top is None else order[:top])
        ]
        xvalues = xfeats @ weights + SCORE_WEIGHT * xbonus
        for j in range(gives.shape[0]):
            action: Exchange | Pass = PASS if j == 0 else Exchange(self.tiles.rack_text(gives[j]))
            out.append(Candidate(action, xfeats[j].copy(), xvalues[j], xbonus[j]))
        out.sort(key=lambda c: -c.value)
        return (out if top is None else out[:top]), int(info.shape[0])

    def closing_points(
        self,
        state: ScrabbleState,
        info: np.ndarray,
        word: np.ndarray,
        gives: np.ndarray,
        closing: bool = True,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The closing rule's points for each placement and each of the others (zeros
        unless ``closing``): a move that empties the rack earns what going out earns (twice
        the opponent's rack in a two-player game, the others' racks otherwise); any other
        move, the pass included, costs the face value of the tiles it keeps, which may stay
        on the rack when the game ends."""
        n = info.shape[0]
        if not closing:
            return np.zeros(n), np.zeros(gives.shape[0])
        values = self.values
        p = state.current_player
        mine = int(np.dot(state.racks[p], values))
        others = sum(int(np.dot(r, values)) for q, r in enumerate(state.racks) if q != p)
        out_bonus = 2 * others if state.num_players == 2 else others
        laid = np.zeros(n, dtype=np.int64)
        kern.laid_values(state.board_array, info, word, n, values, laid)
        goes_out = info[:, TILES] == sum(state.racks[p])
        bonus = np.where(goes_out, out_bonus, laid - mine).astype(float)
        given = gives @ values[: gives.shape[1]]
        return bonus, (given - mine).astype(float)

    def candidate(
        self,
        state: ScrabbleState,
        weights: np.ndarray,
        action: Placement | Exchange | Pass,
        closing: bool = False,
        table: CandidateTable | None = None,
    ) -> Candidate | None:
        """The candidate of one legal action (an exchange in any order of its tiles), or
        None when it is not one; ``closing`` and ``table`` as in :meth:`ranked`."""
        t = table if table is not None else self.table(state, closing)
        info, word, feats, gives, xfeats, bonus, xbonus = t
        if isinstance(action, Placement):
            codes = [self.tiles.square_code(ch) for ch in action.word]
            n = len(codes)
            hits = np.flatnonzero(
                (info[:, ROW] == action.row) & (info[:, COL] == action.col)
                & (info[:, DOWN] == (0 if action.across else 1)) & (info[:, LENGTH] == n)
                & (info[:, SCORE] == action.score)
            )  # fmt: skip
            k = next((k for k in hits if [int(x) for x in word[k, :n]] == codes), None)
            if k is None:
                return None
            value = float(feats[k] @ weights) + SCORE_WEIGHT * bonus[k]
            return Candidate(action, feats[k].copy(), value, float(bonus[k]))
        want = (
            np.zeros(self.tiles.size + 1, dtype=np.int64)
            if isinstance(action, Pass)
            else self.tiles.rack_counts(action.tiles, what="the exchange").astype(np.int64)
        )
        for j in range(gives.shape[0]):
            if np.array_equal(gives[j], want):
                value = float(xfeats[j] @ weights) + SCORE_WEIGHT * xbonus[j]
                return Candidate(action, xfeats[j].copy(), value, float(xbonus[j]))
        return None

    def best(self, state: ScrabbleState, weights: np.ndarray) -> Placement | Exchange | Pass:
        """The candidate of highest value (placements first among equals)."""
        gen = move_generator(state.lexicon)
        board = state.board_array
        rack = state.rack_array()
        info, word, feats = self.placements(gen, board, rack)
        best_value = -math.inf
        choice: Placement | Exchange | Pass = PASS
        if info.shape[0]:
            values = feats @ weights
            k = int(np.argmax(values))
            best_value = float(values[k])
            ties = np.flatnonzero(values == values[k])
            if ties.shape[0] > 1:  # the first in the DAWG walk's order
                k = int(rank(info, word, ties, values, None, self.tiles.size)[0])
            choice = _placement(info[k], word[k], state)
        gives, xfeats = self.others(rack, state.bag_size() >= RACK_SIZE)
        xvalues = xfeats @ weights
        j = int(np.argmax(xvalues))
        if xvalues[j] > best_value:
            choice = PASS if j == 0 else Exchange(self.tiles.rack_text(gives[j]))
        return choice


def _placement(info_row: np.ndarray, word_row: np.ndarray, state: ScrabbleState) -> Placement:
    row, col, down, length, score, _ = (int(x) for x in info_row)
    square = state.tiles.square_text
    text = "".join(square(int(x)) for x in word_row[:length])
    return Placement(row, col, not down, text, score)


ENDGAME_NODES = 3_000_000
"""Node limit of one endgame search in the players' closing phase (the deepest finished
iteration answers after it): 6 to 15 CPU seconds at the solver's 0.2-0.5 million nodes a
second. A node limit, unlike a time limit, plays the same move on any machine and at any
load, so seeded matches repeat exactly."""
ENDGAME_SECONDS = 120.0
"""A time limit behind the node limit, for a machine far slower than expected."""
PLAY_ENDGAME_NODES = 3_000_000
"""Node limit of the endgame search of an opponent a person waits for (the web page, the
terminal game), as in the matches; the game's thinking budget (``think_seconds``, 5 s by
default) stops it sooner on the wall clock, and the deepest search finished by then plays."""
COACH_SPEC = "equity:endgame=off"
"""The coach of the web page and the terminal game: the equity player's own values (score +
leave; in the closing phase, score + going out - tiles kept), one evaluation with its terms."""


class _Player:
    evaluator: Evaluator
    endgame: bool
    endgame_nodes: int = ENDGAME_NODES
    think_seconds: float | None = None
    """Wall-clock seconds the endgame search may take a move (None: the node limit alone);
    set by a page or a terminal game where a person waits for the reply."""
    _solver: Any = None
    last_endgame: Any = None
    """The last endgame search's result (best move, spread, exact or not), for the UI."""

    def _endgame_move(self, state: ScrabbleState) -> Action | None:
        """The exact endgame solver's move (two players), its table kept between the moves
        of one endgame."""
        if state.num_players != 2:
            return None
        if self._solver is None:
            from stratagem.games.scrabble.endgame import EndgameSolver

            self._solver = EndgameSolver()
        result = self._solver.solve(
            state, time_limit=ENDGAME_SECONDS, node_limit=self.endgame_nodes,
            wall_limit=self.think_seconds,
        )  # fmt: skip
        self.last_endgame = result
        move: Action = result.best_move
        return move

    def weights_for(self, phase: str) -> np.ndarray:
        raise NotImplementedError

    def candidates(self, state: ScrabbleState) -> list[Candidate]:
        """Every candidate with its terms and its value as this player weighs it, best first."""
        return self.ranked(state)[0]

    def closing_rule(self, phase: str) -> bool:
        """Whether this player adds the closing rule (:meth:`Evaluator.closing_points`) to
        its values in ``phase``: the heuristic player never (its closing phase has weights
        of its own)."""
        return False

    def table(self, state: ScrabbleState) -> CandidateTable:
        """:meth:`Evaluator.table` with this player's closing rule."""
        return self.evaluator.table(state, self.closing_rule(phase_of(state)))

    def ranked(
        self, state: ScrabbleState, top: int | None = None, table: CandidateTable | None = None
    ) -> tuple[list[Candidate], int]:
        """The ``top`` best candidates as this player weighs them and the legal placements'
        count (:meth:`Evaluator.ranked`; ``table``: :meth:`table` of ``state``, if made)."""
        phase = phase_of(state)
        return self.evaluator.ranked(state, self.weights_for(phase), top, self.closing_rule(phase),
                                     table)  # fmt: skip

    def candidate(
        self,
        state: ScrabbleState,
        action: Placement | Exchange | Pass,
        table: CandidateTable | None = None,
    ) -> Candidate | None:
        """One action's candidate as this player weighs it (None if it is not legal)."""
        phase = phase_of(state)
        return self.evaluator.candidate(state, self.weights_for(phase), action,
                                        self.closing_rule(phase), table)  # fmt: skip

    def _static_move(self, state: ScrabbleState, phase: str) -> Action:
        """The move of highest value (without the endgame solver)."""
        if self.closing_rule(phase):
            return self.ranked(state, 1)[0][0].action
        return self.evaluator.best(state, self.weights_for(phase))

    def act(self, state: State, rng: np.random.Generator) -> Action:
        assert isinstance(state, ScrabbleState)
        phase = phase_of(state)
        if phase == "closing" and self.endgame:
            move = self._endgame_move(state)
            if move is not None:
                return move
        return self._static_move(state, phase)

    def advise(self, state: State) -> list[Advice]:
        """Every candidate with its value in points (the weighted sum / 1000), best first."""
        assert isinstance(state, ScrabbleState)
        cands = self.candidates(state)
        if not cands:
            return []
        top = cands[0].value / SCORE_WEIGHT
        return [
            Advice(c.action, c.value / SCORE_WEIGHT, top - c.value / SCORE_WEIGHT) for c in cands
        ]


class HeuristicAgent(_Player):
    """Weighs h1-h5 (and h6, the leave, if the weights have it) by the phase's weights."""

    def __init__(
        self,
        tiles: TileSet,
        weights: Weights | None = None,
        leaves: LeaveTable | None = None,
        endgame: bool = True,
        endgame_nodes: int = ENDGAME_NODES,
        closing: str = "weights",
    ) -> None:
        if closing not in CLOSING_CHOICES:
            raise WeightsError(f"closing must be one of {', '.join(CLOSING_CHOICES)}, "
                               f"got {closing!r}")  # fmt: skip
        self.weights = weights if weights is not None else shipped_weights("tuned")
        if self.weights.with_leave and leaves is None:
            leaves = shipped_leaves(tiles)
        self.evaluator = Evaluator(tiles, leaves)
        self.endgame = endgame
        self.endgame_nodes = endgame_nodes
        self.closing = closing
        self._full = self.weights.full()
        if closing == "rule":  # the closing phase by score + the rule, as the equity player
            self._full[PHASES.index("closing")] = 0.0
            self._full[PHASES.index("closing"), FEATURE_NAMES.index("score")] = SCORE_WEIGHT

    def weights_for(self, phase: str) -> np.ndarray:
        return np.asarray(self._full[PHASES.index(phase)])

    def closing_rule(self, phase: str) -> bool:
        """With ``closing="rule"``, the closing phase without the solver is the equity
        player's (the score + :meth:`Evaluator.closing_points`) instead of the phase's
        weights."""
        return self.closing == "rule" and phase == "closing"


DEFENCE_RANGE = (0.0, 10.0)
"""The equity player's ``defence``: points a move gives up per unit of premium squares it
opens (the h4 term's units: double letter 1, triple letter 2, double word 2, triple word 3)."""


def check_defence(defence: float) -> float:
    """``defence`` as a float within :data:`DEFENCE_RANGE`, or :class:`WeightsError`."""
    low, high = DEFENCE_RANGE
    if isinstance(defence, bool) or not isinstance(defence, (int, float)) or not (
        low <= defence <= high
    ):
        raise WeightsError(f"defence must be a number of points from {low:g} to {high:g}, "
                           f"got {defence!r}")  # fmt: skip
    return float(defence)


class EquityAgent(_Player):
    """Score + leave value (1000 * points each), less ``defence`` points per unit of premium
    squares opened (the h4 term; 0, the default, leaves it out); in the closing phase, the
    exact endgame solver, or without it (and as its advice) the closing rule of
    :meth:`Evaluator.closing_points`.
    """

    def __init__(self, tiles: TileSet, leaves: LeaveTable | None = None,
                 endgame: bool = True, endgame_nodes: int = ENDGAME_NODES,
                 defence: float = 0.0) -> None:  # fmt: skip
        self.defence = check_defence(defence)
        self.evaluator = Evaluator(tiles, leaves if leaves is not None else shipped_leaves(tiles))
        self.endgame = endgame
        self.endgame_nodes = endgame_nodes
        self._equity = np.zeros(len(FEATURE_NAMES))
        self._equity[FEATURE_NAMES.index("score")] = SCORE_WEIGHT
        self._equity[FEATURE_NAMES.index("leave")] = SCORE_WEIGHT
        self._equity[FEATURE_NAMES.index("premium")] = self.defence * SCORE_WEIGHT
        self._closing = np.zeros(len(FEATURE_NAMES))
        self._closing[FEATURE_NAMES.index("score")] = SCORE_WEIGHT

    def weights_for(self, phase: str) -> np.ndarray:
        return self._closing if phase == "closing" else self._equity

    def closing_rule(self, phase: str) -> bool:
        """In the closing phase: how it plays without the endgame solver, and advises."""
        return phase == "closing"


# --- explanation --------------------------------------------------------------------------------

_PHRASES = {
    "expensive": ("plays off {x:g} points of expensive tiles", ""),
    "blank": ("", "spends {n} blank{s}"),
    "identical": ("", "keeps {n} duplicate tile{s}"),
    "premium": ("", "opens premium squares worth {n:g}"),
    "leave": ("keeps a good leave (+{x:.1f})", "keeps a poor leave ({x:.1f})"),
}


def explain(candidate: Candidate, weights: np.ndarray, phase: str) -> str:
    """One sentence from a candidate's terms, e.g. ``middle game: scores 24, spends 1 blank``."""
    parts = []
    f = candidate.features
    score = f[FEATURE_NAMES.index("score")]
    parts.append(f"scores {score:g}")
    for name, (good, bad) in _PHRASES.items():
        i = FEATURE_NAMES.index(name)
        x = float(f[i])
        if weights[i] == 0 or abs(x) < 0.05:  # (a leave of -0.01 reads as nothing)
            continue
        n = abs(x)
        text = good if x > 0 else bad
        if text:
            parts.append(text.format(x=x, n=n if n != int(n) else int(n), s="" if n == 1 else "s"))
    if candidate.closing > 0:
        parts.append(f"goes out (+{candidate.closing:g})")
    elif candidate.closing < 0:
        parts.append(f"keeps {-candidate.closing:g} points of tiles")
    label = {"middle": "middle game"}.get(phase, phase)
    return f"{label}: " + ", ".join(parts)


def term_table(candidate: Candidate, weights: np.ndarray) -> list[dict[str, Any]]:
    """Each term's value, weight and contribution (weight x value) for one candidate, and
    the closing rule's points when it has some."""
    rows = [
        {
            "term": FEATURE_NAMES[i],
            "value": float(candidate.features[i]),
            "weight": float(weights[i]),
            "contribution": float(candidate.features[i] * weights[i]),
        }
        for i in range(len(FEATURE_NAMES))
    ]
    if candidate.closing:
        rows.append(
            {
                "term": "closing",
                "value": candidate.closing,
                "weight": SCORE_WEIGHT,
                "contribution": candidate.closing * SCORE_WEIGHT,
            }
        )
    return rows


def make_coach(tiles: str) -> EquityAgent:
    """The coach (:data:`COACH_SPEC`) for a tile set, built through the registry."""
    from stratagem.core.registry import make_agent

    coach = make_agent("scrabble", tiles, COACH_SPEC)
    assert isinstance(coach, EquityAgent)
    return coach


def judge(
    player: HeuristicAgent | EquityAgent, state: ScrabbleState, action: Placement | Exchange | Pass
) -> tuple[float, Placement | Exchange | Pass] | None:
    """What ``player`` thinks of ``action`` in ``state``: the value in points it gives up
    against the player's best candidate (0 when it is as good), and that best; None when the
    action is not one of the candidates."""
    table = player.table(state)  # one move generation for both
    mine = player.candidate(state, action, table)
    if mine is None:
        return None
    top = player.ranked(state, 1, table)[0][0]
    return max(0.0, (top.value - mine.value) / SCORE_WEIGHT), top.action
