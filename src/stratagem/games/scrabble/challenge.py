"""Challenges: the rule that decides what happens to a word the lexicon lacks.

Three rules, as clubs and tournaments play them:

- ``none``: an invalid word is refused when it is laid (the program's rule
  until now: no phony can stand);
- ``single``: any word may be laid; it stands unless the next player
  challenges it. A challenged phony is taken back and its player loses the
  turn (the tiles return to the rack, no score). A challenge of good words
  costs nothing;
- ``double``: as single, and a challenge of good words costs the challenger
  the turn.

A challenge is made at once, by the next player, before their own move: the
window closes when they move. The state keeps that window
(:attr:`~.state.ScrabbleState.window`) and ``challenge`` is a decision of the game
(:data:`~.state.CHALLENGE`), so a session plays it like any other; the rule is part of
the rules spec (``english:challenge=double``, :func:`~.spec.with_challenge`).

>>> import numpy as np
>>> from stratagem.games.scrabble.lexicon import Lexicon
>>> from stratagem.games.scrabble.position import read_position
>>> from stratagem.games.scrabble.tiles import tile_set
>>> lex = Lexicon.from_words(["cat", "at"], tile_set("english"))
>>> rows = ["." * 15] * 15
>>> s = read_position("racks: CTAXQZE ABCDEFG\\nboard:\\n" + "\\n".join(rows), lex)
>>> move = lay_word(s, "8H", "CTA")
>>> str(move), phonies(s, move)
('8H CTA 10', ['CTA'])
>>> from stratagem.games.scrabble.spec import with_challenge
>>> from stratagem.games.scrabble.state import CHALLENGE, PASS
>>> s = read_position("racks: CTAXQZE ABCDEFG\\nboard:\\n" + "\\n".join(rows),
...                   with_challenge(lex, "double"))
>>> now = s.apply(move)  # the phony stands, open to a challenge
>>> now = now.apply(now.sample_chance(np.random.default_rng(1)))  # the mover draws
>>> challenges(now), now.apply(CHALLENGE).racks == s.apply(PASS).racks
(True, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from stratagem.core.agent import Agent
from stratagem.core.errors import IllegalActionError, InvalidRulesError
from stratagem.games.scrabble.board import Placement, new_tiles, parse_coordinate, score_tiles
from stratagem.games.scrabble.state import CHALLENGE, ScrabbleState
from stratagem.games.scrabble.tiles import BLANK_FLAG

CHALLENGE_RULES = ("none", "single", "double")
"""The challenge rules, the default first."""

RULE_HELP = {
    "none": "invalid words are refused",
    "single": "a phony stands unless challenged; a challenged phony is taken back, turn lost",
    "double": "as single, and a challenge of good words loses the challenger a turn",
}


def check_rule(rule: str) -> str:
    """``rule`` if it is one of :data:`CHALLENGE_RULES`; otherwise refuse, naming them."""
    if rule not in CHALLENGE_RULES:
        raise InvalidRulesError(
            f"unknown challenge rule {rule!r}; the rules are: {', '.join(CHALLENGE_RULES)}"
        )
    return rule


def words_formed(state: ScrabbleState, move: Placement) -> list[str]:
    """The words ``move`` makes on ``state``'s board (the main word first), upper case."""
    board = state.board_array
    placed = new_tiles(board, move, state.tiles)
    _, words = score_tiles(board, placed, state.tiles, None)
    return [w.upper() for w in words]


def phonies(state: ScrabbleState, move: Placement) -> list[str]:
    """The words ``move`` makes that the lexicon lacks (empty: the move is good)."""
    return [w for w in words_formed(state, move) if w not in state.lexicon]


def lay_word(state: ScrabbleState, coordinate: str, typed: str) -> Placement:
    """The placement of ``typed`` at ``coordinate`` (the CLI's notation) whatever its words,
    scored by the board's rules, with the rack's natural tiles first and blanks for the rest
    (in a mixed-case word, lower case = blank as typed). Squares and rack are checked; the
    words are not (under a challenge rule the opponent judges them)."""
    row, col, across = parse_coordinate(coordinate)
    tiles = state.tiles
    for ch in typed:
        if tiles.letter_index(ch) is None:
            raise IllegalActionError(
                f"{ch!r} is not a letter of the {tiles.name} tiles ({''.join(tiles.letters)})"
            )
    mixed = typed != typed.upper() and typed != typed.lower()
    board = state.board_array
    probe = Placement(row, col, across, typed if mixed else typed.upper(), 0)
    laid = new_tiles(board, probe, tiles)
    if not mixed:
        # natural tiles where the rack has them, blanks for the rest
        rack = list(state.racks[state.player])
        squares = {(r, c) for r, c, _ in laid}
        chars = []
        for (r, c), ch in zip(probe.squares(), probe.word):
            if (r, c) in squares:
                i = tiles.index[ch]
                if rack[i] > 0:
                    rack[i] -= 1
                else:
                    ch = ch.lower()
            chars.append(ch)
        probe = Placement(row, col, across, "".join(chars), 0)
        laid = new_tiles(board, probe, tiles)
    score, _ = score_tiles(board, laid, tiles, None)
    move = Placement(row, col, across, probe.word, score)
    state.place_unchecked(move)  # the rack's check names a missing tile
    return move


@dataclass(frozen=True)
class ChallengeOutcome:
    """What a challenge decided: the phonies found (none: the words are good), who lost a
    turn (the mover whose phony came off, the challenger of good words under double, or
    nobody), and a sentence for the player."""

    words: tuple[str, ...]
    phony_words: tuple[str, ...]
    lost_turn: int | None
    text: str

    @property
    def phony(self) -> bool:
        return bool(self.phony_words)


def challenges(state: ScrabbleState) -> bool:
    """An agent's choice in a game (:class:`ChallengingAgent`): challenge exactly when the
    last placement, still open to a challenge, made a phony."""
    if not state.challenge_open() or state.window is None:
        return False
    before, move = state.window
    return bool(phonies(before, move))


class ChallengingAgent:
    """An agent of a challenge game: it challenges exactly the phonies (it knows the word
    list), and otherwise plays as ``inner`` does (which never lays a phony). Its other
    attributes (``think_seconds``) are the inner agent's."""

    def __init__(self, inner: Agent) -> None:
        object.__setattr__(self, "inner", inner)

    def act(self, state: Any, rng: np.random.Generator) -> Any:
        if isinstance(state, ScrabbleState) and challenges(state):
            return CHALLENGE
        return self.inner.act(state, rng)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.inner, name, value)


def board_phonies(state: ScrabbleState) -> list[tuple[str, list[tuple[int, int]]]]:
    """The words on the board the lexicon lacks, each with its squares (a phony that stood,
    or a word of another dictionary): what a board pasted into the assistant flags."""
    board = state.board_array
    tiles = state.tiles
    out = []
    for down in (False, True):
        grid = board.T if down else board
        for i, line in enumerate(grid):
            run: list[int] = []
            for j, code in enumerate([*line.tolist(), -1]):
                if code >= 0:
                    run.append(j)
                    continue
                if len(run) >= 2:
                    word = "".join(tiles.letters[int(line[k]) & ~BLANK_FLAG] for k in run)
                    if word not in state.lexicon:
                        squares = [(k, i) if down else (i, k) for k in run]
                        out.append((word, squares))
                run = []
    return out
