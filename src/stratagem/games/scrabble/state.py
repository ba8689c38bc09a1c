"""Scrabble positions (implements :mod:`stratagem.core.game`).

Every refill of a rack is a chance event: the player who must draw is
``drawer`` and :meth:`ScrabbleState.sample_chance` draws the tiles from the
bag without replacement (the outcome is the sorted tuple of letter indices
drawn). A new game starts with each player's draw in turn; after a move the
mover draws, then the turn passes on.

Decisions are a :class:`~stratagem.games.scrabble.board.Placement`, an
:class:`Exchange` (when the bag holds at least 7 tiles) or :data:`PASS`. The
game ends when a player empties the rack with the bag empty (they gain the
others' rack values, the others lose their own) or after six consecutive
scoreless turns (everyone loses their own rack value).

>>> import numpy as np
>>> from stratagem.games.scrabble.lexicon import Lexicon
>>> from stratagem.games.scrabble.tiles import tile_set
>>> lex = Lexicon.from_words(["cat", "act", "at"], tile_set("english"))
>>> s = ScrabbleState.new(lex, players=2)
>>> s.current_player  # the opening draw
-1
>>> rng = np.random.default_rng(1)
>>> while s.current_player < 0:
...     s = s.apply(s.sample_chance(rng))
>>> s.current_player, len(s.rack_text(0)), sum(s.bag)
(0, 7, 86)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from functools import cached_property
from typing import ClassVar

import numpy as np

from stratagem.core.errors import IllegalActionError, InvalidStateError
from stratagem.core.game import CHANCE, TERMINAL
from stratagem.games.scrabble import _check_kernels
from stratagem.games.scrabble.board import (
    BINGO,
    LETTER_MULT,
    RACK_SIZE,
    SIZE,
    WORD_MULT,
    Placement,
    board_text,
    coordinate,
    empty_board,
    new_tiles,
    parse_coordinate,
    score_tiles,
)
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.movegen import move_generator
from stratagem.games.scrabble.tiles import BLANK_FLAG, TileSet

SCORELESS_LIMIT = 6
"""Consecutive scoreless turns (passes, exchanges, 0-point moves) that end the game."""


@dataclass(frozen=True)
class Exchange:
    """Swap these tiles (letters, ``?`` for a blank) for as many from the bag."""

    tiles: str

    def __str__(self) -> str:
        return f"exchange {self.tiles}"


@dataclass(frozen=True)
class Pass:
    def __str__(self) -> str:
        return "pass"


PASS = Pass()


@dataclass(frozen=True)
class Challenge:
    """Challenge the last placement (under a challenge rule, by the next player, before
    their own move: :attr:`ScrabbleState.window`)."""

    def __str__(self) -> str:
        return "challenge"


CHALLENGE = Challenge()


@dataclass(frozen=True)
class ScrabbleState:
    """A whole position: board, racks, bag, scores, whose turn and who must draw."""

    perfect_information: ClassVar[bool] = False  # the racks are hidden (MCTS refuses)
    lexicon: Lexicon = field(compare=False, repr=False)
    board: bytes
    racks: tuple[tuple[int, ...], ...]
    bag: tuple[int, ...]
    scores: tuple[int, ...]
    player: int = 0
    drawer: int = -1
    turn: int = 0
    scoreless: int = 0
    returned: tuple[int, ...] = ()  # exchanged tiles, back into the bag after the draw
    bingos: tuple[int, ...] = ()
    finished: bool = False
    window: tuple[ScrabbleState, Placement] | None = field(default=None, compare=False, repr=False)
    """Under a challenge rule, the last placement open to a challenge: the position it was
    played from and the move. Open from the placement (through the mover's draw) until the
    next decision; the game's rule is the lexicon's ``challenge``."""
    verdict: str = field(default="", compare=False)
    """What the challenge just decided, in a sentence (empty after any other decision)."""
    challenges: tuple[tuple[str, bool], ...] = field(default=(), compare=False, repr=False)
    """Every challenge of the game so far: its verdict and whether a phony came off."""

    @classmethod
    def new(cls, lexicon: Lexicon, players: int = 2) -> ScrabbleState:
        """An empty board and a full bag; the first chance event deals player 0's rack."""
        if not 2 <= players <= 4:
            raise InvalidStateError(f"Scrabble takes 2-4 players, got {players}")
        tiles = lexicon.tiles
        zero = (0,) * (tiles.size + 1)
        return cls(
            lexicon,
            empty_board().tobytes(),
            (zero,) * players,
            tuple(int(x) for x in tiles.bag_counts),
            (0,) * players,
            drawer=0,
            bingos=(0,) * players,
        )

    # --- views ----------------------------------------------------------------------------

    @property
    def tiles(self) -> TileSet:
        return self.lexicon.tiles

    @property
    def num_players(self) -> int:
        return len(self.racks)

    @cached_property
    def board_array(self) -> np.ndarray:
        """The board as a writable (15, 15) int8 array (a copy)."""
        return np.frombuffer(self.board, dtype=np.int8).reshape(SIZE, SIZE).copy()

    def rack_array(self, player: int | None = None) -> np.ndarray:
        return np.array(self.racks[self.player if player is None else player], dtype=np.int32)

    def rack_text(self, player: int | None = None) -> str:
        return self.tiles.rack_text(self.racks[self.player if player is None else player])

    def board_rows(self) -> list[str]:
        return board_text(self.board_array, self.tiles)

    def bag_size(self) -> int:
        return sum(self.bag)

    # --- protocol -------------------------------------------------------------------------

    @property
    def current_player(self) -> int:
        if self.finished:
            return TERMINAL
        return CHANCE if self.drawer >= 0 else self.player

    def is_terminal(self) -> bool:
        return self.finished

    def returns(self) -> tuple[float, ...]:
        return tuple(float(s) for s in self.scores)

    def chance_key(self) -> tuple[int, int]:
        """(drawing player, turn): the slot of a draw."""
        return (self.drawer, self.turn)

    def _draw_count(self) -> int:
        return min(RACK_SIZE - sum(self.racks[self.drawer]), sum(self.bag))

    def sample_chance(self, rng: np.random.Generator) -> tuple[int, ...]:
        """Draw the tiles the drawer needs from the bag, without replacement."""
        k = self._draw_count()
        if k <= 0:
            return ()
        pool = np.repeat(np.arange(len(self.bag)), self.bag)
        picks = rng.choice(len(pool), size=k, replace=False)
        return tuple(sorted(int(x) for x in pool[picks]))

    def chance_from_text(self, text: str) -> tuple[int, ...]:
        """A draw from its ``str`` (``(0, 4, 4)``, ``()``), checked to be this node's draw:
        how a session replays a recorded deal (a GCG game's racks)."""
        body = text.strip()
        if not (body.startswith("(") and body.endswith(")")) or len(body) > 64:
            raise IllegalActionError(f"{text!r} is not a draw: tile numbers in parentheses")
        parts = [p.strip() for p in body[1:-1].split(",") if p.strip()]
        if not all(p.isdigit() for p in parts):
            raise IllegalActionError(f"{text!r} is not a draw: tile numbers in parentheses")
        drawn = tuple(sorted(int(p) for p in parts))
        if self.drawer < 0 or len(drawn) != self._draw_count():
            raise IllegalActionError(f"{text!r} is not a draw of this position")
        counts = _count(drawn)
        if any(not 0 <= t < len(self.bag) or self.bag[t] < n for t, n in counts.items()):
            raise IllegalActionError(f"{text!r}: those tiles are not in the bag")
        return drawn

    def chance_outcomes(self) -> list[tuple[tuple[int, ...], float]]:
        """Every multiset the drawer may draw, with its probability.

        This can be very wide (millions of outcomes for a full rack from a
        full bag); algorithms should use :meth:`sample_chance`.
        """
        if self.drawer < 0 or self.finished:
            return []
        k = self._draw_count()
        total = math.comb(sum(self.bag), k)
        kinds = [i for i, n in enumerate(self.bag) if n > 0]
        out = []
        for combo in itertools.combinations_with_replacement(kinds, k):
            ways = 1
            for letter, n in _count(combo).items():
                ways *= math.comb(self.bag[letter], n)
            if ways:
                out.append((combo, ways / total))
        return out

    @property
    def challenge_rule(self) -> str:
        """``none``, ``single`` or ``double`` (:mod:`.challenge`)."""
        return self.lexicon.challenge

    def challenge_open(self) -> bool:
        """Whether the player to move may challenge the last placement now."""
        return self.window is not None and self.current_player >= 0

    def legal_actions(self) -> list[Placement | Exchange | Pass | Challenge]:
        """Every placement (best first), every distinct exchange if allowed, and pass; under a
        challenge rule, ``challenge`` while the last placement may be challenged (a phony,
        which no list enumerates, is played by its text: :meth:`action_from_text`)."""
        if self.current_player < 0:
            return []
        actions: list[Placement | Exchange | Pass | Challenge] = []
        actions.extend(move_generator(self.lexicon).moves(self.board_array, self.rack_array()))
        if self.bag_size() >= RACK_SIZE:
            rack = self.racks[self.player]
            ranges = [range(n + 1) for n in rack]
            for pick in itertools.product(*ranges):
                if any(pick):
                    actions.append(Exchange(self.tiles.rack_text(pick)))
        actions.append(PASS)
        if self.challenge_open():
            actions.append(CHALLENGE)
        return actions

    def action_from_text(self, text: str) -> Placement | None:
        """A placement from its text (``8H WORD 30``) whatever its words, under a challenge
        rule: how a person lays a phony, which stands unless the next player challenges it
        (the session's hook for a decision its legal list cannot enumerate). Squares, rack
        and score are checked and named; None without a challenge rule or for other text."""
        parts = text.split()
        if self.challenge_rule == "none":
            return None
        if parts == ["challenge"]:  # not legal now (else the legal list has it): say why
            raise IllegalActionError(
                "no word to challenge now: only the next player may challenge the last "
                "placement, once, before their own move"
            )
        if len(parts) != 3 or not parts[2].isdigit():
            return None
        row, col, across = parse_coordinate(parts[0])
        move = Placement(row, col, across, parts[1], int(parts[2]))
        if str(move) != " ".join(parts):
            raise IllegalActionError(f"{text!r} is not a legal decision here")
        self.place_unchecked(move)  # names the square, tile or score that is wrong
        return move

    def best_placement(self) -> Placement | None:
        """The highest-scoring placement for the player to move (the greedy choice)."""
        return move_generator(self.lexicon).best(self.board_array, self.rack_array())

    def apply(self, action: object) -> ScrabbleState:
        if self.finished:
            raise IllegalActionError("the game is over")
        if self.drawer >= 0:
            if not isinstance(action, tuple):
                raise IllegalActionError(
                    f"player {self.drawer} must draw tiles now; got {action!r}, not a draw"
                )
            return self._draw(action)
        if isinstance(action, Challenge):
            return self._challenge()
        if self.window is not None or self.verdict:  # any other decision closes the window
            return self._evolve(window=None, verdict="")._decision(action)
        return self._decision(action)

    def _decision(self, action: object) -> ScrabbleState:
        if isinstance(action, Placement) and self.challenge_rule != "none":
            return self._place_open(action)
        if isinstance(action, Placement):
            return self._place(action)
        if isinstance(action, Exchange):
            return self._exchange(action)
        if isinstance(action, Pass):
            return self._end_turn(list(self.racks), 0, scoring=False)
        raise IllegalActionError(
            f"{action!r} is not a Scrabble move: play a Placement, an Exchange or PASS"
        )

    # --- transitions ----------------------------------------------------------------------

    def _draw(self, drawn: tuple[int, ...]) -> ScrabbleState:
        if len(drawn) != self._draw_count():
            raise IllegalActionError(
                f"player {self.drawer} must draw {self._draw_count()} tiles, got {len(drawn)}"
            )
        bag = list(self.bag)
        rack = list(self.racks[self.drawer])
        for letter in drawn:
            if not 0 <= letter < len(bag) or bag[letter] == 0:
                raise IllegalActionError(f"tile {letter} is not in the bag")
            bag[letter] -= 1
            rack[letter] += 1
        for letter, n in enumerate(self.returned):
            bag[letter] += n
        racks = list(self.racks)
        racks[self.drawer] = tuple(rack)
        if self.scoreless >= SCORELESS_LIMIT:
            # the sixth scoreless turn was an exchange: it ends once its tiles are drawn,
            # and every player loses the value of the rack they now hold
            scores = tuple(s - v for s, v in zip(self.scores, self._rack_values(racks)))
            return self._evolve(
                racks=tuple(racks), bag=tuple(bag), scores=scores, drawer=-1,
                returned=(), finished=True,
            )  # fmt: skip
        if self.turn == 0 and self.drawer < self.num_players - 1:
            drawer, player = self.drawer + 1, 0  # still dealing
        elif self.turn == 0:
            drawer, player = -1, 0  # dealt: player 0 starts
        else:
            drawer, player = -1, (self.drawer + 1) % self.num_players
        return self._evolve(
            racks=tuple(racks), bag=tuple(bag), drawer=drawer, player=player, returned=()
        )

    def _place_open(self, move: Placement) -> ScrabbleState:
        """A placement under a challenge rule: its words stand unless challenged, so the
        window opens. A move that goes out must be good words (nobody is left to move, so
        nobody could challenge it)."""
        after = self._place(move, words_checked=False)
        if after.finished:
            return self._place(move)  # refused, naming the word, if it is a phony
        return after._evolve(window=(self, move))

    def _challenge(self) -> ScrabbleState:
        """The player to move challenges the last placement: a phony comes off (the position
        it was played from, the mover passes: tiles back on the rack, the draw back in the
        bag, no score); good words cost nothing under single and the challenger's turn
        under double."""
        if self.challenge_rule == "none":
            raise IllegalActionError(
                "this game has no challenges (invalid words are refused when laid)"
            )
        if not self.challenge_open():
            raise IllegalActionError(
                "no word to challenge now: only the next player may challenge the last "
                "placement, before their own move"
            )
        assert self.window is not None
        before, move = self.window
        board = before.board_array
        _, words = score_tiles(board, new_tiles(board, move, self.tiles), self.tiles, None)
        words = [w.upper() for w in words]
        bad = [w for w in words if w not in self.lexicon]
        if bad:
            text = (
                f"{', '.join(bad)} not in the word list: {move.word} is taken back and the "
                "turn lost"
            )
            return before.apply(PASS)._evolve(
                verdict=text, challenges=(*self.challenges, (text, True))
            )
        verb = "is" if len(words) == 1 else "are"
        good = f"{', '.join(words)} {verb} good"
        if self.challenge_rule == "double":
            text = f"{good}: the challenge loses a turn (double challenge)"
            return (
                self._evolve(window=None)
                .apply(PASS)
                ._evolve(verdict=text, challenges=(*self.challenges, (text, False)))
            )
        text = f"{good}: no penalty (single challenge)"
        return self._evolve(window=None, verdict=text, challenges=(*self.challenges, (text, False)))

    def place_unchecked(self, move: Placement) -> ScrabbleState:
        """Play ``move`` whatever its words: a phony, as a challenge rule lets a player try
        (it stands unless challenged; :mod:`.challenge`). Every other rule still holds
        (squares, rack, score)."""
        if self.finished or self.drawer >= 0:
            raise IllegalActionError("a placement is played at a player's turn")
        return self._place(move, words_checked=False)

    def _place(self, move: Placement, words_checked: bool = True) -> ScrabbleState:
        board = self.board_array.copy()  # the cached array belongs to this state
        checked = self._check_fast(move, board)
        if checked is None:
            placed, rack, score = self._check(move, board, words_checked)
        else:
            placed, rack, score = checked
        if score != move.score:
            raise IllegalActionError(f"{move} scores {score}, not {move.score}")
        for r, c, code in placed:
            board[r, c] = code
        racks = list(self.racks)
        racks[self.player] = tuple(rack)
        bingos = list(self.bingos)
        if len(placed) == RACK_SIZE:
            bingos[self.player] += 1
        state = self._evolve(board=board.tobytes(), bingos=tuple(bingos))
        return state._end_turn(racks, score, scoring=score > 0)

    def _check(
        self, move: Placement, board: np.ndarray, words_checked: bool = True
    ) -> tuple[list[tuple[int, int, int]], list[int], int]:
        """The new tiles, the rack after them and the score, by the plain Python rules;
        the first rule broken raises and is named."""
        tiles = self.tiles
        placed = new_tiles(board, move, tiles)
        rack = list(self.racks[self.player])
        for _, _, code in placed:
            slot = tiles.size if code & BLANK_FLAG else code
            rack[slot] -= 1
            if rack[slot] < 0:
                what = "a blank" if code & BLANK_FLAG else f"a {tiles.letters[code]}"
                raise IllegalActionError(
                    f"{move.word} at {coordinate(move.row, move.col, move.across)} needs {what} "
                    f"that rack {self.rack_text()} does not hold"
                )
        is_word = self.lexicon.__contains__ if words_checked else None
        score, _ = score_tiles(board, placed, tiles, is_word)
        return placed, rack, score

    def _check_fast(
        self, move: Placement, board: np.ndarray
    ) -> tuple[list[tuple[int, int, int]], list[int], int] | None:
        """What :meth:`_check` returns, from the numba check of the same rules
        (:mod:`._check_kernels`) when the move is legal and scores what it claims; None
        otherwise, and :meth:`_check` then names what is wrong."""
        tiles = self.tiles
        table = tiles.square_codes
        try:
            codes = np.array([table[ch] for ch in move.word], dtype=np.int64)
        except KeyError:
            return None
        if not codes.shape[0]:
            return None
        lex = self.lexicon
        rack = list(self.racks[self.player])
        new = np.empty((3, RACK_SIZE), dtype=np.int64)
        scoring = _check_kernels.Scoring(
            tiles.size, tiles.values_array, LETTER_MULT, WORD_MULT, BINGO, lex.child,
            lex.terminal, lex.root,
        )  # fmt: skip
        score, k = _check_kernels.check_placement(
            board, move.row, move.col, move.across, codes, np.array(rack, dtype=np.int64),
            scoring, new[0], new[1], new[2],
        )  # fmt: skip
        if score < 0 or score != move.score:
            return None
        placed = [(int(new[0, j]), int(new[1, j]), int(new[2, j])) for j in range(k)]
        size = tiles.size
        for _, _, code in placed:
            rack[size if code & BLANK_FLAG else code] -= 1
        return placed, rack, int(score)

    def _evolve(self, **changes: object) -> ScrabbleState:
        """``dataclasses.replace`` without its checks, for the transitions (the fields
        changed are this module's own); cached properties are not carried over."""
        new = object.__new__(type(self))
        mine = self.__dict__
        new.__dict__.update({name: mine[name] for name in _FIELDS})
        new.__dict__.update(changes)
        return new

    def _rack_values(self, racks: Sequence[tuple[int, ...]]) -> list[int]:
        values = self.tiles.values_array
        return [int(np.dot(r, values)) for r in racks]

    def _exchange(self, action: Exchange) -> ScrabbleState:
        if self.bag_size() < RACK_SIZE:
            raise IllegalActionError(
                f"exchanging needs at least {RACK_SIZE} tiles in the bag; "
                f"it holds {self.bag_size()}"
            )
        give = self.tiles.rack_counts(action.tiles, what="the exchange")
        if not give.any():
            raise IllegalActionError("an exchange must give back at least one tile")
        rack = np.array(self.racks[self.player]) - give
        if (rack < 0).any():
            raise IllegalActionError(
                f"cannot exchange {action.tiles}: the rack is {self.rack_text()}"
            )
        racks = list(self.racks)
        racks[self.player] = tuple(int(x) for x in rack)
        state = self._evolve(returned=tuple(int(x) for x in give))
        return state._end_turn(racks, 0, scoring=False)

    def _end_turn(self, racks: list[tuple[int, ...]], points: int, scoring: bool) -> ScrabbleState:
        p = self.player
        scores = list(self.scores)
        scores[p] += points
        scoreless = 0 if scoring else self.scoreless + 1
        if sum(racks[p]) == 0 and sum(self.bag) == 0:
            rack_values = self._rack_values(racks)
            for q in range(len(racks)):
                if q != p:
                    scores[p] += rack_values[q]
                    scores[q] -= rack_values[q]
            return self._evolve(
                racks=tuple(racks), scores=tuple(scores), scoreless=scoreless,
                turn=self.turn + 1, finished=True,
            )  # fmt: skip
        if scoreless >= SCORELESS_LIMIT and not any(self.returned):
            scores = [s - v for s, v in zip(scores, self._rack_values(racks))]
            bag = tuple(
                a + b for a, b in itertools.zip_longest(self.bag, self.returned, fillvalue=0)
            )
            return self._evolve(
                racks=tuple(racks), scores=tuple(scores), scoreless=scoreless, bag=bag,
                turn=self.turn + 1, finished=True, returned=(),
            )  # fmt: skip
        needs = sum(racks[p]) < RACK_SIZE and sum(self.bag) > 0
        return self._evolve(
            racks=tuple(racks),
            scores=tuple(scores),
            scoreless=scoreless,
            turn=self.turn + 1,
            drawer=p if needs else -1,
            player=p if needs else (p + 1) % len(racks),
        )


_FIELDS = tuple(f.name for f in fields(ScrabbleState))


def _count(combo: Sequence[int]) -> dict[int, int]:
    out: dict[int, int] = {}
    for x in combo:
        out[x] = out.get(x, 0) + 1
    return out
