"""Integer action ids, chance ids and observation vectors for each game.

Frameworks want a fixed, finite action space and a fixed-size observation;
our states speak in actions such as ``Keep((1, 1, 4))`` or ``Placement(...)``.
A :class:`Codec` translates both ways. It knows no framework, so the
OpenSpiel, PettingZoo and Gymnasium adapters share it.

The ids:

* **Pig**: 0 roll, 1 hold; a chance outcome (a face ``f``) is ``f - 1``.
* **Score Four**: the peg 0..15 (a1, b1, ... d4).
* **Yahtzee**: a keep is its number 0..461 in :mod:`stratagem.games.yahtzee.dice`
  (by size, then lexicographic), scoring box ``i`` (in card order) is ``462 + i``.
  A throw of ``k`` dice is the number of the ``k``-dice multiset it shows.
* **Scrabble**: the index of the move in the position's list of legal moves
  (placements best first, then exchanges, then pass), when it has at most
  :data:`SCRABBLE_MAX_ACTIONS` (65,536) moves. A placement cannot be given a
  position-free id of usable size (the word and the square together), so the
  id is only meaningful in its position, as in OpenSpiel's own games with
  state-dependent move lists. A position with more moves (a rack with two
  blanks can have 100,000 and more) is played in two steps by the same
  player: first a *block* of 65,536 consecutive moves of the list (id ``b``
  picks moves ``65,536 b`` to ``65,536 (b + 1) - 1``; block 0 holds the best
  placements), then a move in the block (its index there). Steps nest if a
  list ever needs more than 65,536 blocks, so every legal move has ids and
  none is cut. The block step changes no score and reveals nothing to the
  other players. A chance outcome is one tile (its letter index, the blank
  last): a rack refill of ``k`` tiles is ``k`` draws of one tile, which is
  the same distribution as drawing them at once.

Observations are float32 vectors, seen by one player (``observer``); the
layout of each game is in its codec's docstring.

>>> from stratagem.games.pig.rules import preset
>>> from stratagem.games.pig.state import PigState
>>> codec = PigCodec(preset("pig"))
>>> s = PigState.new(preset("pig"))
>>> codec.legal_ids(s), codec.action(s, 0)
([0], <PigAction.ROLL: 0>)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar, cast

import numpy as np

from stratagem.core.game import CHANCE, Action
from stratagem.games.pig.rules import PigRules
from stratagem.games.pig.state import PigAction, PigState
from stratagem.games.scorefour.board import CELLS, PEGS, playable
from stratagem.games.scorefour.state import ScoreFourState
from stratagem.games.scrabble.board import RACK_SIZE, SIZE
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.state import SCORELESS_LIMIT, ScrabbleState
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee.rules import NUM_DICE, UPPER, YahtzeeRules
from stratagem.games.yahtzee.state import MAX_PLAYERS, Keep, Roll, Score, YahtzeeState
from stratagem.interop import InteropError

if TYPE_CHECKING:
    from stratagem.core.registry import GameSpec

S = TypeVar("S")

SCRABBLE_MAX_ACTIONS = 1 << 16
"""Action ids of Scrabble: a position with more legal moves is played in blocks."""


class Codec(Generic[S]):
    """How one game (one rule set, one number of players) maps to integers and vectors."""

    name: str
    num_players: int
    num_actions: int
    """Action ids are ``0 .. num_actions - 1``."""
    num_chance_outcomes: int
    """Chance ids are ``0 .. num_chance_outcomes - 1``."""
    observation_size: int
    observation_low: np.ndarray
    observation_high: np.ndarray
    max_length: int
    """The most decisions and chance events a game can have (OpenSpiel's
    ``max_game_length``; a game without a bound gives a large number)."""
    min_score: float = 0.0
    max_score: float = 1.0
    """The lowest and highest return of a seat in a game scored by points; a game won or
    lost gives -1 / +1 to the adapters whatever these say."""

    def __deepcopy__(self, memo: dict[int, Any]) -> Codec[S]:
        return self  # a codec does not change once made; states that hold one share it

    def new_state(self) -> S:
        raise NotImplementedError

    def legal_ids(self, state: S) -> list[int]:
        """The ids of the legal actions, ascending."""
        raise NotImplementedError

    def action(self, state: S, action_id: int) -> Action:
        """Our action for an id (raises :class:`InteropError` if it is not legal here)."""
        legal = self.legal_ids(state)
        if _int_id(action_id) not in legal:
            raise _not_legal(self.name, action_id, legal)
        return self.decode(state, int(action_id))

    def decode(self, state: S, action_id: int) -> Action:
        """Our action for an id already known to be legal in ``state`` (no check)."""
        raise NotImplementedError

    def action_id(self, state: S, action: Action) -> int:
        raise NotImplementedError

    def action_text(self, state: S, action_id: int) -> str:
        return str(self.action(state, action_id))

    def chance_ids(self, state: S, pending: tuple[int, ...]) -> list[tuple[int, float]]:
        """``[(chance id, probability)]`` at a chance node, given the ids drawn so far.

        ``pending`` is empty except in Scrabble, where a refill is drawn one tile at a time.
        """
        raise NotImplementedError

    def apply_chance(
        self, state: S, pending: tuple[int, ...], chance_id: int
    ) -> tuple[S, tuple[int, ...]]:
        """The state after one chance id, and the ids still pending (Scrabble only)."""
        raise NotImplementedError

    def chance_text(self, state: S, chance_id: int) -> str:
        raise NotImplementedError

    def observe(self, state: S, observer: int, out: np.ndarray) -> None:
        """Write ``observer``'s view of ``state`` into ``out`` (length ``observation_size``)."""
        raise NotImplementedError

    def observation(self, state: S, observer: int) -> np.ndarray:
        out = np.zeros(self.observation_size, dtype=np.float32)
        self.observe(state, observer, out)
        return out

    def observation_text(self, state: S, observer: int) -> str:
        return str(state)

    def key(self, state: S) -> str:
        """A string that identifies the position (what OpenSpiel's ``str(state)`` shows)."""
        return str(state)

    def scores(self, state: S) -> list[float] | None:
        """Each player's points so far, for rewards paid step by step (Yahtzee, Scrabble);
        ``None``: the game pays its returns at the end only."""
        return None

    def apply(self, state: S, action: Action) -> S:
        """The state after one of our actions (what the adapters step with)."""
        return cast(S, state.apply(action))  # type: ignore[attr-defined]

    def checked(self, state: S, action_id: object, mask: np.ndarray | None) -> Action:
        """Our action for an id, checked against ``mask`` (the mask of ``state``) if given."""
        if mask is None:
            return self.action(state, action_id)  # type: ignore[arg-type]
        i = _int_id(action_id)
        if not (0 <= i < len(mask) and mask[i]):
            raise _not_legal(self.name, action_id, np.flatnonzero(mask).tolist())
        return self.decode(state, i)

    def mask(self, state: S) -> np.ndarray:
        """1 for each legal action id, else 0 (int8, length ``num_actions``)."""
        out = np.zeros(self.num_actions, dtype=np.int8)
        out[self.legal_ids(state)] = 1
        return out


def _title(game: str) -> str:
    """The game's name for people, from the registry (the name itself if it has none)."""
    from stratagem.core.registry import available_games, load_game

    return load_game(game).display_title if game in available_games() else game


def _not_legal(game: str, action_id: object, legal: Sequence[int]) -> InteropError:
    game = _title(game)
    shown = ", ".join(map(str, legal[:20])) + (" ..." if len(legal) > 20 else "")
    return InteropError(
        f"{action_id!r} is not a legal {game} action id here; the legal ids are: {shown or 'none'}"
    )


def _int_id(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        raise InteropError(f"an action id is a whole number, got {value!r}")
    return int(value)


# --- Pig ----------------------------------------------------------------------------------


@dataclass
class PigCodec(Codec[PigState]):
    """Pig for two players.

    Observation (7 values, from ``observer``'s side): own score, the other's
    score, the turn total, 1 if it is ``observer``'s turn, 1 while a roll is
    pending, the catch-up target (0 if none) and 1 during the catch-up turn.
    """

    rules: PigRules
    name: str = "pig"
    num_players: int = 2
    num_actions: int = 2
    observation_size: int = 7

    # A game of Pig has no bound on its length (both players may bust for ever, with
    # probability 0); OpenSpiel needs a number.
    max_length: int = 1 << 30

    def __post_init__(self) -> None:
        self.num_chance_outcomes = self.rules.faces
        self.observation_low = np.zeros(7, dtype=np.float32)
        # With the catch-up turn the starter may roll on past the goal without bound.
        self.observation_high = np.array([np.inf, np.inf, np.inf, 1, 1, np.inf, 1], np.float32)

    def new_state(self) -> PigState:
        return PigState.new(self.rules)

    def legal_ids(self, state: PigState) -> list[int]:
        return [int(a) for a in state.legal_actions()]

    def decode(self, state: PigState, action_id: int) -> PigAction:
        return PigAction(action_id)

    def action_id(self, state: PigState, action: Action) -> int:
        return int(cast(int, action))

    def chance_ids(self, state: PigState, pending: tuple[int, ...]) -> list[tuple[int, float]]:
        return [(face - 1, p) for face, p in state.chance_outcomes()]

    def apply_chance(
        self, state: PigState, pending: tuple[int, ...], chance_id: int
    ) -> tuple[PigState, tuple[int, ...]]:
        return state.apply(chance_id + 1), ()

    def chance_text(self, state: PigState, chance_id: int) -> str:
        return f"roll {chance_id + 1}"

    def observe(self, state: PigState, observer: int, out: np.ndarray) -> None:
        out[0] = state.scores[observer]
        out[1] = state.scores[1 - observer]
        out[2] = state.turn_total
        out[3] = state.player == observer and state.winner is None
        out[4] = state.rolling
        out[5] = state.target or 0
        out[6] = state.target is not None

    def key(self, state: PigState) -> str:
        # The turn and roll counters (slots of common random numbers) are left out: two
        # histories that reach the same scores, turn total and mover are one position.
        if state.winner is not None:
            return f"player {state.winner} won {state.scores[0]}-{state.scores[1]}"
        target = f" target {state.target}" if state.target is not None else ""
        what = "to roll" if state.rolling else "to move"
        return (
            f"player {state.player} {what}: scores {state.scores[0]}-{state.scores[1]}, "
            f"turn total {state.turn_total}{target}"
        )

    def observation_text(self, state: PigState, observer: int) -> str:
        return self.key(state)


# --- Score Four ---------------------------------------------------------------------------

_PEG_BITS = np.arange(PEGS, dtype=np.int64)


@dataclass
class ScoreFourCodec(Codec[ScoreFourState]):
    """Score Four. Observation (128 values): ``observer``'s beads on the 64 cells, then
    the other side's (cell ``z * 16 + peg``, level ``z`` from the bottom)."""

    name: str = "scorefour"
    num_players: int = 2
    num_actions: int = PEGS
    num_chance_outcomes: int = 0
    observation_size: int = 2 * CELLS
    max_length: int = CELLS

    def __post_init__(self) -> None:
        self.observation_low = np.zeros(2 * CELLS, dtype=np.float32)
        self.observation_high = np.ones(2 * CELLS, dtype=np.float32)

    def new_state(self) -> ScoreFourState:
        return ScoreFourState.new()

    @staticmethod
    def _open_pegs(state: ScoreFourState) -> int:
        """Bit ``p`` set when peg ``p`` has room (the same as ``legal_actions``, as bits)."""
        if state.winner is not None:
            return 0
        free = playable(state.occupied)
        return (free | free >> PEGS | free >> 2 * PEGS | free >> 3 * PEGS) & ((1 << PEGS) - 1)

    def legal_ids(self, state: ScoreFourState) -> list[int]:
        pegs = self._open_pegs(state)
        return [p for p in range(PEGS) if pegs >> p & 1]

    def mask(self, state: ScoreFourState) -> np.ndarray:
        return ((self._open_pegs(state) >> _PEG_BITS) & 1).astype(np.int8)

    def decode(self, state: ScoreFourState, action_id: int) -> int:
        return action_id

    def action_id(self, state: ScoreFourState, action: Action) -> int:
        return int(cast(int, action))

    def action_text(self, state: ScoreFourState, action_id: int) -> str:
        from stratagem.games.scorefour.board import peg_name

        return peg_name(action_id)

    def chance_ids(
        self, state: ScoreFourState, pending: tuple[int, ...]
    ) -> list[tuple[int, float]]:
        return []

    def observe(self, state: ScoreFourState, observer: int, out: np.ndarray) -> None:
        mine, theirs = state.beads[observer], state.beads[1 - observer]
        bits = np.array([mine, theirs], dtype=np.uint64)
        out[:] = np.unpackbits(bits.view(np.uint8), bitorder="little")

    def key(self, state: ScoreFourState) -> str:
        return f"{state.to_string()} {state.result_text()}"

    def observation_text(self, state: ScoreFourState, observer: int) -> str:
        return self.key(state)


# --- Yahtzee ------------------------------------------------------------------------------

_NO_DICE: tuple[int, ...] = ()


@dataclass
class YahtzeeCodec(Codec[YahtzeeState]):
    """Yahtzee or Yatzy for 1-4 players (``C`` boxes: 13 or 15).

    Observation, ``n * (2C + 3) + 11 + n`` values: for each player, starting
    with ``observer`` and going round the table, ``C`` flags (box filled),
    ``C`` box points, the upper total, the Yahtzee bonus points and the total;
    then how many dice show each face (1..6; the kept dice while a throw is
    pending), ``rolls_left`` one-hot (0..3), 1 while a throw is pending, and
    who is to move (one-hot, relative to ``observer``).
    """

    rules: YahtzeeRules
    num_players: int = 1
    name: str = "yahtzee"

    def __post_init__(self) -> None:
        if not 1 <= self.num_players <= MAX_PLAYERS:
            raise InteropError(f"Yahtzee takes 1 to {MAX_PLAYERS} players, not {self.num_players}")
        rules = self.rules
        self.categories = rules.categories
        self.num_boxes = len(self.categories)
        self.num_actions = D.NUM_KEEPS + self.num_boxes
        self.num_chance_outcomes = D.NUM_KEEPS
        n, c = self.num_players, self.num_boxes
        self.per_player = 2 * c + 3
        self.observation_size = n * self.per_player + 6 + 4 + 1 + n
        box_max = [max(rules.score(cat, roll) for roll in D.KEEPS[D.ROLL_START:])
                   for cat in self.categories]  # fmt: skip
        bonus_max = rules.yahtzee_bonus * (len(self.categories) - 1)
        self.max_score = sum(box_max) + rules.upper_bonus + bonus_max
        self.max_length = n * c * 6
        upper_max = NUM_DICE * sum(range(1, len(UPPER) + 1))
        player_high = [1.0] * c + [float(x) for x in box_max]
        player_high += [float(upper_max), float(bonus_max), float(self.max_score)]
        high = player_high * n + [float(NUM_DICE)] * 6 + [1.0] * (5 + n)
        self.observation_high = np.array(high, dtype=np.float32)
        self.observation_low = np.zeros(self.observation_size, dtype=np.float32)
        self._score_ids = {cat: D.NUM_KEEPS + i for i, cat in enumerate(self.categories)}
        self._actions: list[Keep | Score] = [Keep(k) for k in D.KEEPS]
        self._actions += [Score(cat) for cat in self.categories]
        self._outcomes = [
            [(D.KEEP_INDEX[k], p) for k, p in D.outcomes(count)] for count in range(NUM_DICE + 1)
        ]

    def new_state(self) -> YahtzeeState:
        return YahtzeeState.new(self.rules, self.num_players)

    def legal_ids(self, state: YahtzeeState) -> list[int]:
        ids = []
        for action in state.legal_actions():
            if isinstance(action, Keep):
                ids.append(D.KEEP_INDEX[action.dice])
            else:
                ids.append(self._score_ids[action.category])
        ids.sort()
        return ids

    def decode(self, state: YahtzeeState, action_id: int) -> Keep | Score:
        return self._actions[action_id]

    def action_id(self, state: YahtzeeState, action: Action) -> int:
        if isinstance(action, Keep):
            return D.KEEP_INDEX[action.dice]
        if isinstance(action, Score):
            return self._score_ids[action.category]
        raise InteropError(f"{action!r} is not a Yahtzee action")

    def action_text(self, state: YahtzeeState, action_id: int) -> str:
        return str(self._actions[action_id])

    def chance_ids(self, state: YahtzeeState, pending: tuple[int, ...]) -> list[tuple[int, float]]:
        if not state.rolling or state.is_terminal():
            return []
        return list(self._outcomes[NUM_DICE - len(state.dice)])

    def apply_chance(
        self, state: YahtzeeState, pending: tuple[int, ...], chance_id: int
    ) -> tuple[YahtzeeState, tuple[int, ...]]:
        return state.apply(Roll(D.KEEPS[chance_id])), _NO_DICE

    def chance_text(self, state: YahtzeeState, chance_id: int) -> str:
        return str(Roll(D.KEEPS[chance_id]))

    def observe(self, state: YahtzeeState, observer: int, out: np.ndarray) -> None:
        n, c, w = self.num_players, self.num_boxes, self.per_player
        for seat in range(n):
            card = state.cards[(observer + seat) % n]
            base = seat * w
            for i, v in enumerate(card.boxes):
                if v is not None:
                    out[base + i] = 1.0
                    out[base + c + i] = v
            out[base + 2 * c] = card.upper_total
            out[base + 2 * c + 1] = card.yahtzee_bonus_points
            out[base + 2 * c + 2] = card.total
        base = n * w
        for face in state.dice:
            out[base + face - 1] += 1.0
        if not state.is_terminal():
            out[base + 6 + state.rolls_left] = 1.0
            out[base + 10] = state.rolling
            out[base + 11 + (state.player - observer) % n] = 1.0

    def key(self, state: YahtzeeState) -> str:
        cards = " / ".join(
            ",".join("-" if v is None else str(v) for v in card.boxes)
            + f" b{card.yahtzee_bonus_points}"
            for card in state.cards
        )
        if state.is_terminal():
            return f"[{cards}] final {' '.join(str(int(r)) for r in state.returns())}"
        dice = "".join(map(str, state.dice)) or "-"
        what = "to throw, kept" if state.rolling else "dice"
        return f"[{cards}] player {state.player} {what} {dice}, {state.rolls_left} rolls left"

    def observation_text(self, state: YahtzeeState, observer: int) -> str:
        return self.key(state)

    def scores(self, state: YahtzeeState) -> list[float]:
        return [float(card.total) for card in state.cards]


# --- Scrabble -----------------------------------------------------------------------------


@dataclass
class ScrabbleCodec(Codec[ScrabbleState]):
    """Scrabble for 2-4 players on one lexicon (``L`` letters; the blank is index ``L``).

    Observation: for each of the 225 squares (row by row), ``L + 1`` values:
    a one-hot of the letter on it, and 1 if that tile is a blank; then
    ``observer``'s rack (``L + 1`` counts), the unseen tiles (bag and the other
    racks together: what ``observer`` cannot see, ``L + 1`` counts), the
    scores (``n``, starting with ``observer``), the tiles in the bag, the
    consecutive scoreless turns, 1 while a draw is pending, and who is to
    move or draw (one-hot, relative to ``observer``), and last, while the
    player to move chooses a move inside a block (see the module docstring),
    the places (1-based) of the block's first and last move in the list (0
    and 0 otherwise). The other racks are hidden: this is an
    imperfect-information game.
    """

    lexicon: Lexicon
    num_players: int = 2
    name: str = "scrabble"
    _last: tuple[ScrabbleState, list[Action]] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not 2 <= self.num_players <= 4:
            raise InteropError(f"Scrabble takes 2 to 4 players, not {self.num_players}")
        tiles = self.lexicon.tiles
        self.letters = tiles.size
        self.kinds = tiles.size + 1
        self.num_actions = SCRABBLE_MAX_ACTIONS
        self.num_chance_outcomes = self.kinds
        self.totals = np.array([int(x) for x in tiles.bag_counts], dtype=np.float32)
        n = self.num_players
        self.board_size = SIZE * SIZE * self.kinds
        self.observation_size = self.board_size + 2 * self.kinds + n + 3 + n + 2
        high = np.full(self.observation_size, 1.0, dtype=np.float32)
        high[-2:] = np.inf  # the block of moves being chosen from (0 when none)
        low = np.zeros(self.observation_size, dtype=np.float32)
        b = self.board_size
        high[b : b + self.kinds] = RACK_SIZE
        high[b + self.kinds : b + 2 * self.kinds] = self.totals
        high[b + 2 * self.kinds : b + 2 * self.kinds + n] = np.inf
        low[b + 2 * self.kinds : b + 2 * self.kinds + n] = -np.inf
        high[b + 2 * self.kinds + n] = tiles.total_tiles
        high[b + 2 * self.kinds + n + 1] = SCORELESS_LIMIT
        self.observation_low, self.observation_high = low, high
        values = tiles.values
        # Honest, loose bounds: each scoring turn lays at least one tile; a move scores at
        # most the bingo bonus plus 27x and 9x the value of every tile for its words.
        top = sum(v * c for v, c in zip(values, tiles.counts))
        self.max_score = tiles.total_tiles * (50 + 90 * top) + (n - 1) * RACK_SIZE * max(values)
        self.min_score = -RACK_SIZE * max(values)
        decisions = (tiles.total_tiles + 1) * SCORELESS_LIMIT
        # a move may take a block step first (two, past 65,536 x 65,536 moves: never seen)
        self.max_length = 3 * decisions + tiles.total_tiles + RACK_SIZE * decisions

    def new_state(self) -> ScrabbleState:
        return ScrabbleState.new(self.lexicon, self.num_players)

    def moves(self, state: ScrabbleState | MoveChoice) -> list[Action]:
        """The legal moves in id order (those of the last position asked are kept)."""
        position = _position(state)
        if self._last is not None and self._last[0] is position:
            return self._last[1]
        moves: list[Action] = list(position.legal_actions())
        self._last = (position, moves)
        return moves

    def _span(self, state: ScrabbleState | MoveChoice) -> tuple[int, int, int | None]:
        """The part of the move list the player chooses in (first, stop), and the size of a
        block when that part is too long for one step (``None``: ids are moves)."""
        if isinstance(state, MoveChoice):
            first, stop = state.first, state.stop
        else:
            first, stop = 0, len(self.moves(state))
        count, size = stop - first, None
        if count > SCRABBLE_MAX_ACTIONS:
            size = SCRABBLE_MAX_ACTIONS
            while -(-count // size) > SCRABBLE_MAX_ACTIONS:
                size *= SCRABBLE_MAX_ACTIONS
        return first, stop, size

    def _count(self, state: ScrabbleState | MoveChoice) -> int:
        if state.current_player < 0:
            return 0
        first, stop, size = self._span(state)
        return stop - first if size is None else -(-(stop - first) // size)

    def legal_ids(self, state: ScrabbleState) -> list[int]:
        return list(range(self._count(state)))

    def action(self, state: ScrabbleState, action_id: int) -> Action:
        i = _int_id(action_id)
        count = self._count(state)
        if not 0 <= i < count:
            raise InteropError(
                f"{action_id!r} is not a legal Scrabble action id here; the legal ids are "
                f"0..{count - 1}"
                if count
                else "no move is legal here"
            )
        return self.decode(state, i)

    def decode(self, state: ScrabbleState, action_id: int) -> Action:
        first, stop, size = self._span(state)
        if size is None:
            return self.moves(state)[first + action_id]
        low = first + action_id * size
        return MoveBlock(low, min(low + size, stop), len(self.moves(state)))

    def action_id(self, state: ScrabbleState, action: Action) -> int:
        """The id of a move here; where the moves come in blocks, the id of its block."""
        try:
            index = self.moves(state).index(action)
        except ValueError:
            raise InteropError(f"{action} is not a legal move here") from None
        first, stop, size = self._span(state)
        if not first <= index < stop:
            raise InteropError(f"{action} is not in the moves being chosen from here")
        return index - first if size is None else (index - first) // size

    def apply(self, state: ScrabbleState, action: Action) -> ScrabbleState:
        if isinstance(action, MoveBlock):
            return cast(ScrabbleState, MoveChoice(_position(state), action.first, action.stop))
        return _position(state).apply(action)

    def mask(self, state: ScrabbleState) -> np.ndarray:
        out = np.zeros(self.num_actions, dtype=np.int8)
        out[: self._count(state)] = 1
        return out

    def _need(self, state: ScrabbleState) -> int:  # a draw: never during a move choice
        return min(RACK_SIZE - sum(state.racks[state.drawer]), sum(state.bag))

    def chance_ids(self, state: ScrabbleState, pending: tuple[int, ...]) -> list[tuple[int, float]]:
        if state.drawer < 0 or state.finished:
            return []
        left = list(state.bag)
        for letter in pending:
            left[letter] -= 1
        total = sum(left)
        return [(letter, n / total) for letter, n in enumerate(left) if n > 0]

    def apply_chance(
        self, state: ScrabbleState, pending: tuple[int, ...], chance_id: int
    ) -> tuple[ScrabbleState, tuple[int, ...]]:
        left = state.bag[chance_id] - pending.count(chance_id) if 0 <= chance_id < self.kinds else 0
        if left <= 0:
            raise InteropError(f"tile {chance_id} is not in the bag")
        drawn = (*pending, chance_id)
        if len(drawn) < self._need(state):
            return state, drawn
        return state.apply(tuple(sorted(drawn))), ()

    def chance_text(self, state: ScrabbleState, chance_id: int) -> str:
        tiles = self.lexicon.tiles
        return "draw " + (tiles.letters[chance_id] if chance_id < tiles.size else "?")

    def observe(self, state: ScrabbleState, observer: int, out: np.ndarray) -> None:
        k, n = self.kinds, self.num_players
        if isinstance(state, MoveChoice):
            # the block chosen: its first and last move's place in the list, 1-based
            out[self.observation_size - 2] = state.first + 1
            out[self.observation_size - 1] = state.stop
        state = _position(state)
        board = np.frombuffer(state.board, dtype=np.int8)
        squares = np.flatnonzero(board >= 0)
        codes = board[squares].astype(np.int64)
        blank = codes >= 64
        letters = np.where(blank, codes - 64, codes)
        out[squares * k + letters] = 1.0
        out[squares[blank] * k + self.letters] = 1.0
        b = self.board_size
        rack = np.array(state.racks[observer], dtype=np.float32)
        out[b : b + k] = rack
        on_board = np.bincount(np.where(blank, self.letters, letters), minlength=k)
        out[b + k : b + 2 * k] = self.totals - on_board - rack
        for seat in range(n):
            out[b + 2 * k + seat] = state.scores[(observer + seat) % n]
        out[b + 2 * k + n] = sum(state.bag)
        out[b + 2 * k + n + 1] = state.scoreless
        if not state.finished:
            out[b + 2 * k + n + 2] = state.drawer >= 0
            mover = state.drawer if state.drawer >= 0 else state.player
            out[b + 2 * k + n + 3 + (mover - observer) % n] = 1.0

    def key(self, state: ScrabbleState) -> str:
        choice = _choice_text(state)
        state = _position(state)
        racks = " ".join(self.lexicon.tiles.rack_text(r) or "-" for r in state.racks)
        status = _scrabble_status(state)
        return (
            "\n".join(state.board_rows())
            + f"\nracks {racks}; bag {sum(state.bag)}; scores "
            + " ".join(map(str, state.scores))
            + f"; turn {state.turn}, {state.scoreless} scoreless; {status}{choice}"
        )

    def scores(self, state: ScrabbleState) -> list[float]:
        return [float(x) for x in _position(state).scores]

    def observation_text(self, state: ScrabbleState, observer: int) -> str:
        choice = _choice_text(state) if state.current_player == observer else ""
        state = _position(state)
        status = _scrabble_status(state)
        return (
            "\n".join(state.board_rows())
            + f"\nplayer {observer}, rack {state.rack_text(observer) or '-'}; "
            f"bag {sum(state.bag)}; scores "
            + " ".join(map(str, state.scores))
            + f"; {state.scoreless} scoreless; {status}{choice}"
        )


@dataclass(frozen=True)
class MoveBlock:
    """The first step of a move in a position with more moves than action ids: the moves
    ``first`` to ``stop - 1`` of the position's list (of ``total``)."""

    first: int
    stop: int
    total: int

    def __str__(self) -> str:
        return f"choose among moves {self.first + 1}-{self.stop} of {self.total}"


@dataclass(frozen=True)
class MoveChoice:
    """A Scrabble position where the player to move has picked a :class:`MoveBlock` and now
    picks the move in it. Everything else is the position's (``position``)."""

    position: ScrabbleState
    first: int
    stop: int

    def __getattr__(self, name: str) -> Any:
        if name == "position" or name.startswith("__"):  # not made yet (copy, pickle)
            raise AttributeError(name)
        return getattr(self.position, name)

    @property
    def current_player(self) -> int:
        return self.position.current_player

    def is_terminal(self) -> bool:
        return False

    def returns(self) -> tuple[float, ...]:
        return self.position.returns()

    def legal_actions(self) -> list[Action]:
        return list(self.position.legal_actions()[self.first : self.stop])

    def apply(self, action: object) -> ScrabbleState:
        return self.position.apply(action)

    def __str__(self) -> str:
        return f"{self.position}\nchoosing among moves {self.first + 1}-{self.stop}"


def _position(state: ScrabbleState | MoveChoice) -> ScrabbleState:
    return state.position if isinstance(state, MoveChoice) else state


def _choice_text(state: ScrabbleState | MoveChoice) -> str:
    if isinstance(state, MoveChoice):
        return f"; choosing among moves {state.first + 1}-{state.stop}"
    return ""


# --- each game's codec, named by its spec ------------------------------------------------


CodecMaker = Callable[["GameSpec", str, int, Mapping[str, Any]], Codec[Any]]
"""``make(game, rules, players, options)``: a game's codec for a rules spec, a number of
players in the game's range, and its options (every one given, defaults filled in)."""


@dataclass(frozen=True)
class CodecSource:
    """How the adapters make a game's codec: what a game's spec names as its ``codec``
    (:attr:`~stratagem.core.registry.GameSpec.codec`).

    Every adapter takes the same parameters: ``rules`` (a rules spec; offered when the game
    has more than one preset), ``players`` (when the game's number of players varies) and
    the game's own ``options`` with their defaults (a default keeps the rules' own value).
    OpenSpiel sees them as the game's parameter specification.
    """

    make: CodecMaker
    options: Mapping[str, Any] = field(default_factory=dict)
    default_players: int | None = None
    """Players when none are asked for; ``None``: the fewest the game takes."""
    deterministic: bool = False
    """No chance events (OpenSpiel's deterministic chance mode)."""

    def parameters(self, game: GameSpec) -> dict[str, Any]:
        """The parameters and their defaults (OpenSpiel's parameter specification)."""
        out: dict[str, Any] = {}
        if len(game.presets) > 1:
            out["rules"] = game.default_rules
        if game.min_players < game.max_players:
            out["players"] = self.default_players or game.min_players
        return {**out, **self.options}

    def codec(self, game: GameSpec, params: Mapping[str, Any]) -> Codec[Any]:
        """The codec for ``params`` (the parameters given; the rest take their defaults)."""
        known = self.parameters(game)
        unknown = sorted(set(params) - set(known) - {"rules", "players"})
        if unknown:
            takes = ", ".join(k for k in known if k not in ("rules", "players"))
            raise InteropError(
                f"{game.display_title} takes "
                + (f"the options {takes}" if takes else "no options besides rules and players")
                + f"; got {unknown}"
            )
        merged = {**known, **params}
        players = int(merged.get("players", self.default_players or game.min_players))
        if not game.min_players <= players <= game.max_players:
            count = (
                f"{game.min_players}"
                if game.min_players == game.max_players
                else f"{game.min_players} to {game.max_players}"
            )
            raise InteropError(f"{game.display_title} is played by {count} players, not {players}")
        rules = str(merged.get("rules", game.default_rules))
        return self.make(game, rules, players, {k: merged[k] for k in self.options})


def game_spec(game: str) -> GameSpec:
    """A game of the registry that the adapters offer (its spec names a codec)."""
    from stratagem.core.errors import ArenaError
    from stratagem.core.registry import load_game

    try:
        spec = load_game(game)
    except ArenaError as exc:
        raise InteropError(str(exc)) from None
    if spec.codec is None:
        raise InteropError(f"the adapters do not offer {game}: its spec names no codec")
    return spec


def codec_source(game: GameSpec) -> CodecSource:
    """The :class:`CodecSource` the game's spec names."""
    if game.codec is None:
        raise InteropError(f"the adapters do not offer {game.name}: its spec names no codec")
    source = game.codec.load()
    if not isinstance(source, CodecSource):
        raise InteropError(f"{game.codec.target} is not a CodecSource")
    return source


def adapted_games() -> list[str]:
    """Every game of the registry whose spec names a codec (what the adapters offer)."""
    from stratagem.core.registry import available_games, load_game

    return [name for name in available_games() if load_game(name).codec is not None]


def codec(
    game: str, rules: str | None = None, players: int | None = None, **options: Any
) -> Codec[Any]:
    """The codec of one of the registry's games by name (``pig``, ``scorefour``, ...).

    ``rules`` is a rules spec (a preset name, or ``pig:goal=50``); Pig takes its rule
    options (``goal``, ``faces``, ``bust_faces``, ``bust_scores_one``, ``catch_up_turn``)
    and Scrabble a ``lexicon`` path (default: the tile set's built-in lexicon).

    >>> codec("yahtzee", "yatzy").num_actions
    477
    """
    spec = game_spec(game)
    params: dict[str, Any] = dict(options)
    if rules is not None:
        params["rules"] = rules
    if players is not None:
        params["players"] = players
    return codec_source(spec).codec(spec, params)


def _pig(game: GameSpec, rules: str, players: int, options: Mapping[str, Any]) -> Codec[Any]:
    given: dict[str, Any] = {
        "bust_scores_one": bool(options["bust_scores_one"]),
        "catch_up_turn": bool(options["catch_up_turn"]),
    }
    if options["goal"]:
        given["goal"] = int(options["goal"])
    if options["faces"]:
        given["faces"] = int(options["faces"])
    if options["bust_face"] and options["bust_faces"]:
        raise InteropError("give bust_face (one face) or bust_faces (several), not both")
    if options["bust_face"]:
        given["bust_faces"] = (int(options["bust_face"]),)
    faces = options["bust_faces"]
    if faces:
        try:
            listed = faces.split() if isinstance(faces, str) else faces
            given["bust_faces"] = tuple(int(f) for f in listed)
        except (TypeError, ValueError):
            raise InteropError(
                f"bust_faces lists faces separated by spaces, e.g. '1 6', got {faces!r}"
            ) from None
    pig_rules = cast(PigRules, game.rules_object(rules))
    return PigCodec(pig_rules.with_options(**given))


PIG = CodecSource(
    _pig,
    {"goal": 0, "faces": 0, "bust_face": 0, "bust_faces": "", "bust_scores_one": False,
     "catch_up_turn": False},
)  # fmt: skip
"""Pig: ``rules`` and the rule options (0 or empty keeps the preset's value)."""

SCORE_FOUR = CodecSource(lambda game, rules, players, options: ScoreFourCodec(), deterministic=True)
"""Score Four: one rule set, two players, no chance."""

YAHTZEE = CodecSource(
    lambda game, rules, players, options: YahtzeeCodec(game.rules_object(rules), players)
)
"""Yahtzee or Yatzy for 1-4 players (one by default)."""


def _scrabble(game: GameSpec, rules: str, players: int, options: Mapping[str, Any]) -> Codec[Any]:
    from stratagem.games.scrabble.lexicon import get_lexicon

    return ScrabbleCodec(get_lexicon(str(options["lexicon"] or "") or None, rules), players)


SCRABBLE = CodecSource(_scrabble, {"lexicon": ""})
"""Scrabble on a tile set (``rules``) for 2-4 players; ``lexicon`` a word-list path (empty:
the tile set's built-in lexicon)."""


def is_chance(state: Any) -> bool:
    return bool(state.current_player == CHANCE)


def _scrabble_status(state: ScrabbleState) -> str:
    """Whether the game is over, or who draws or moves next."""
    if state.finished:
        return "over"
    if state.drawer >= 0:
        return f"player {state.drawer} to draw"
    return f"player {state.player} to move"
