"""What the Scrabble page, the terminal game and the review show: a position as a player
may see it, the coach's rows, a judge of one move, and an evaluation for the review's graph.

The coach is the equity player's valuation (:data:`~.heuristic.COACH_SPEC`): a move is worth
its score plus the learned value of the tiles it keeps (its *leave*); once the bag is empty,
its score plus what going out earns or minus the tiles kept. So the unit is **points of
equity**, and every number is an estimate (a leave value is learned from self-play, not
proven): :attr:`Judged.exact` is always False. The exact endgame solver is not used here,
so that a judge costs one move generation (bounded: the arrays of every move at once,
milliseconds on a busy board) whatever the rack.

The thresholds, 3 / 8 / 15 points of equity, are in the units of a player's own
bookkeeping. Below 3 points two moves differ by less than the leave value of one tile (the
shipped English leave table values a single letter kept from about -10 to +6 points, a blank
+25.5), a matter of taste. 8 points is about a quarter of a scoring turn (the placements of
the five recorded games in the tests average 35.9 points); 15 points, over 40% of one, is a
blunder by any club player's reckoning. On those games (measured with this coach) greedy's
moves cost 3 or more 33% of the time, 8 or more 12%, 15 or more 2%; the equity player's
moves cost nothing outside its endgame, which it plays by the exact solver.

Hidden information: :meth:`ScrabbleCoaching.view` shows one player's rack (the viewer's;
by default the player to move), never another's while the game goes on.
"""

from __future__ import annotations

import threading
from typing import Any
from weakref import WeakKeyDictionary

import numpy as np

from stratagem.core.coaching import Coaching, Judged, Unit
from stratagem.core.errors import IllegalActionError
from stratagem.core.game import State
from stratagem.games.scrabble.board import RACK_SIZE, Placement, new_tiles, parse_coordinate
from stratagem.games.scrabble.challenge import words_formed
from stratagem.games.scrabble.heuristic import (
    SCORE_WEIGHT,
    Candidate,
    CandidateTable,
    EquityAgent,
    explain,
    phase_of,
)
from stratagem.games.scrabble.leaves import shipped_leaves
from stratagem.games.scrabble.lexicon import Lexicon
from stratagem.games.scrabble.state import PASS, Exchange, Pass, ScrabbleState
from stratagem.games.scrabble.tracking import track_state

__all__ = [
    "TOP_ROWS",
    "UNIT",
    "ScrabbleCoaching",
    "coaching",
    "lexicon_lock",
    "parse_action",
    "placement_squares",
]

UNIT = Unit("points of equity", "pts", (3.0, 8.0, 15.0))
"""Score + leave value (see the module doc for the thresholds)."""
TOP_ROWS = 20
"""Rows the coach lists by default (a blank rack has tens of thousands of moves)."""

_LOCKS: WeakKeyDictionary[Lexicon, threading.Lock] = WeakKeyDictionary()
_LOCKS_LOCK = threading.Lock()


def lexicon_lock(lexicon: Lexicon) -> threading.Lock:
    """The lock that guards a lexicon's shared move generator (its buffers are reused):
    every caller of :func:`~.movegen.move_generator` in a threaded server holds it."""
    if lexicon.plain is not None:  # a challenge game shares its plain list's generator
        lexicon = lexicon.plain
    with _LOCKS_LOCK:
        lock = _LOCKS.get(lexicon)
        if lock is None:
            lock = _LOCKS[lexicon] = threading.Lock()
        return lock


def placement_squares(state: ScrabbleState, move: Placement) -> list[tuple[int, int, str]]:
    """The squares a placement lays a tile on, with the letter (lower case for a blank)."""
    laid = new_tiles(state.board_array, move, state.tiles)
    return [(r, c, state.tiles.square_text(code)) for r, c, code in laid]


def _phony(state: ScrabbleState, text: str) -> bool:
    """Whether ``text`` is a placement whose words the lexicon lacks (under a challenge
    rule, where such a move may be laid)."""
    try:
        move = state.action_from_text(text)
    except IllegalActionError:
        return False
    return move is not None and any(w not in state.lexicon for w in words_formed(state, move))


def parse_action(state: ScrabbleState, text: str) -> Placement | Exchange | Pass:
    """An action from its ``str`` (``8H QUIZ 48``, ``exchange QV?``, ``pass``), as a session
    records it; its legality is checked where it is used."""
    words = text.split()
    if words == ["pass"]:
        return PASS
    if len(words) == 2 and words[0] == "exchange":
        return Exchange(words[1])
    if len(words) == 3 and words[2].isdigit() and len(words[1]) <= 15:
        row, col, across = parse_coordinate(words[0])
        return Placement(row, col, across, words[1], int(words[2]))
    raise IllegalActionError(
        f"{text!r} is not a Scrabble move's text: '8H WORD SCORE', 'exchange TILES' or 'pass'"
    )


class ScrabbleCoaching:
    """The :class:`~stratagem.core.coaching.Coaching` of Scrabble on one lexicon."""

    unit: Unit = UNIT

    def __init__(self, lexicon: Lexicon, top: int = TOP_ROWS) -> None:
        self.lexicon = lexicon
        self.top = top
        self.player = EquityAgent(lexicon.tiles, shipped_leaves(lexicon.tiles), endgame=False)
        self.lock = lexicon_lock(lexicon)

    # --- the position ----------------------------------------------------------------------

    def view(self, state: State, viewer: int | None = None) -> dict[str, Any]:
        """The board, ``viewer``'s rack (default: the player to move; every rack once the game
        is over), the scores, the bag, the tiles ``viewer`` has not seen, and the phase."""
        s = _scrabble(state)
        over = s.is_terminal()
        if viewer is None:
            viewer = s.player if not over else 0
        if not 0 <= viewer < s.num_players:
            raise IllegalActionError(f"player {viewer} is not a seat of this game")
        racks: list[str | None] = [
            s.rack_text(p) if over or p == viewer else None for p in range(s.num_players)
        ]
        return {
            "board": s.board_rows(),
            "viewer": viewer,
            "rack": s.rack_text(viewer),
            "racks": racks,
            "rack_sizes": [sum(r) for r in s.racks],
            "scores": list(s.scores),
            "to_move": None if over else s.player,
            "bag": s.bag_size(),
            "exchange_allowed": not over and s.bag_size() >= RACK_SIZE,
            "phase": phase_of(s),
            "tiles": s.tiles.name,
            "lexicon": self.lexicon.source,
            "tracking": track_state(s, viewer).to_json(),
            "over": over,
            "challenge": s.challenge_rule,
            "challenge_open": s.challenge_open(),
            "verdict": s.verdict,
            "challenges": [{"text": text, "phony": phony} for text, phony in s.challenges],
        }

    def view_for(self, state: State, viewer: int | None) -> dict[str, Any]:
        """:meth:`view` from ``viewer``'s seat (the hook a server uses for games of hidden
        information: the person's rack while an agent is to move)."""
        return self.view(state, viewer)

    @staticmethod
    def public_text(text: str) -> str:
        """What the others see of a decision while the game goes on: an exchange's tiles are
        hidden (``exchange 3 tiles``); placements and passes are public."""
        words = text.split()
        if len(words) == 2 and words[0] == "exchange":
            n = len(words[1])
            return f"exchange {n} tile{'s' if n != 1 else ''}"
        return text

    # --- the coach -------------------------------------------------------------------------

    def rows(self, state: State, top: int | None = None) -> list[dict[str, Any]]:
        """The ``top`` best moves (default :data:`TOP_ROWS`) by equity, best first: the move,
        its score, leave and closing points, its equity (``value``), ``cost`` behind the
        best, the words it makes, the squares it lays and one sentence why."""
        s = _playing(state)
        with self.lock:
            table = self.player.table(s)
            cands, _ = self.player.ranked(s, top or self.top, table)
        if not cands:
            return []
        phase = phase_of(s)
        weights = self.player.weights_for(phase)
        best = float(cands[0].value) / SCORE_WEIGHT
        return [self._row(s, c, weights, phase, best) for c in cands]

    def _row(
        self, s: ScrabbleState, c: Candidate, weights: np.ndarray, phase: str, best: float
    ) -> dict[str, Any]:
        return candidate_row(s, c, weights, phase, best, self.unit)

    def judge(self, state: State, played: str) -> Judged:
        """The played move against every move of the position: its equity behind the best,
        and its rank among all (``extra``: ``rank``, ``of``). One move generation."""
        s = _playing(state)
        text = " ".join(played.split())
        if s.challenge_rule != "none" and (text == "challenge" or _phony(s, text)):
            return self._judge_challenge_rule(s, text)
        action = parse_action(s, played)
        with self.lock:
            table = self.player.table(s)
            mine = self.player.candidate(s, action, table)
            if mine is None:
                raise IllegalActionError(f"{played!r} is not a legal move of this position")
            values = _values(self.player, s, table)
            top = self.player.ranked(s, 1, table)[0][0]
        rank = int((values > mine.value + 1e-6).sum()) + 1
        phase = phase_of(s)
        weights = self.player.weights_for(phase)
        cost = round(
            float(max(0.0, (top.value - mine.value) / SCORE_WEIGHT)), 2
        )  # a float hair above 0 is the same value
        return Judged(
            played=str(action),
            best=str(top.action) if cost > 0 else str(action),
            cost=cost,
            exact=False,
            label=self.unit.label(cost),
            value_played=round(float(mine.value) / SCORE_WEIGHT, 2),
            value_best=round(float(top.value) / SCORE_WEIGHT, 2),
            explanation=_why(mine, top, cost, weights, phase),
            extra={"rank": rank, "of": int(values.shape[0])},
        )

    def _judge_challenge_rule(self, s: ScrabbleState, text: str) -> Judged:
        """A challenge, or a phony laid, under a challenge rule. Challenging a phony costs
        nothing; good words challenged cost nothing under single and, under double, the turn:
        the best move's equity (what the lost turn gives up). A phony costs the best move's
        equity too: what the turn is worth if it is challenged off (an agent always does)."""
        with self.lock:
            table = self.player.table(s)
            cands = self.player.ranked(s, 1, table)[0]
        top = cands[0] if cands else None
        best_value = max(0.0, float(top.value) / SCORE_WEIGHT) if top is not None else 0.0
        best = str(top.action) if top is not None else "pass"
        if text == "challenge":
            assert s.window is not None
            before, move = s.window
            bad = [w for w in words_formed(before, move) if w not in s.lexicon]
            if bad:
                cost, why = 0.0, f"{', '.join(bad)} is not a word: the challenge was right"
            elif s.challenge_rule == "double":
                cost, why = best_value, "the words were good: the challenge lost the turn"
            else:
                cost, why = 0.0, "the words were good (no penalty under single challenge)"
        else:
            laid = s.action_from_text(text)
            assert laid is not None
            bad = [w for w in words_formed(s, laid) if w not in s.lexicon]
            cost = best_value
            why = f"{', '.join(bad)} is not in the word list: challenged, it comes off"
        cost = round(cost, 2)
        return Judged(
            played=text, best=best if cost > 0 else text, cost=cost, exact=False,
            label=self.unit.label(cost), explanation=why,
        )  # fmt: skip

    def evaluation(self, state: State, player: int) -> float | None:
        """The spread from ``player``'s seat plus the equity of the best move of the player
        to move (added for them, taken off for their opponent): what the position is worth
        once the mover plays well, in points. Two players only (else None); at the end, the
        final spread."""
        s = _scrabble(state)
        if s.num_players != 2 or not 0 <= player < 2:
            return None
        spread = float(s.scores[player] - s.scores[1 - player])
        if s.is_terminal() or s.current_player < 0:
            return spread
        with self.lock:
            cands, _ = self.player.ranked(s, 1)
        best = float(cands[0].value) / SCORE_WEIGHT if cands else 0.0
        return round(spread + (best if s.player == player else -best), 2)


def _why(mine: Candidate, top: Candidate, cost: float, weights: np.ndarray, phase: str) -> str:
    """One sentence on the move played, and on the best beside it when it was better:
    ``middle game: this scores 22, keeps a poor leave (-11.6); the best scores 20, ...``."""
    label, _, played = explain(mine, weights, phase).partition(": ")
    if cost <= 0:
        return f"{label}: {played}"
    best = explain(top, weights, phase).partition(": ")[2]
    return f"{label}: this {played}; {top.action} {best}"


def _values(player: EquityAgent, state: ScrabbleState, table: CandidateTable) -> np.ndarray:
    """The value of every candidate of ``table`` (placements, the pass, the exchanges)."""
    weights = player.weights_for(phase_of(state))
    placed = table.feats @ weights + SCORE_WEIGHT * table.bonus
    others = table.xfeats @ weights + SCORE_WEIGHT * table.xbonus
    return np.concatenate([placed, others])


def _scrabble(state: State) -> ScrabbleState:
    if not isinstance(state, ScrabbleState):
        raise IllegalActionError(f"not a Scrabble position: {type(state).__name__}")
    return state


def _playing(state: State) -> ScrabbleState:
    s = _scrabble(state)
    if s.current_player < 0:
        raise IllegalActionError(
            "the game is over" if s.is_terminal() else "tiles are being drawn: no move to judge"
        )
    return s


def coaching(rules: Lexicon) -> Coaching:
    """The factory ``GAME.coaching``: Scrabble's coaching on the rules' lexicon."""
    return ScrabbleCoaching(rules)


def candidate_row(
    s: ScrabbleState,
    c: Candidate,
    weights: np.ndarray,
    phase: str,
    best: float,
    unit: Unit = UNIT,
) -> dict[str, Any]:
    """One option as the page and the terminal show it: its text, value under ``weights``
    (the weighed terms, plus the closing rule's points; in points), ``cost`` behind ``best``,
    score, leave, words, the squares it lays and one sentence why."""
    a = c.action
    value = float(c.features @ weights) / SCORE_WEIGHT + c.closing
    cost = max(0.0, best - value)
    row: dict[str, Any] = {
        "action": str(a),
        "value": round(float(value), 2),
        "cost": round(float(cost), 2),
        "exact": False,
        "label": unit.label(round(float(cost), 2)),
        "score": a.score if isinstance(a, Placement) else 0,
        "leave": round(float(c.leave_points(weights)), 2),
        "closing": round(float(c.closing), 2),
        "why": explain(c, weights, phase),
    }
    if isinstance(a, Placement):
        row["kind"] = "placement"
        row["move"] = str(a).rsplit(" ", 1)[0]
        row["words"] = words_formed(s, a)
        row["tiles"] = [
            {"row": r, "col": col, "letter": ch} for r, col, ch in placement_squares(s, a)
        ]
    elif isinstance(a, Exchange):
        row.update(kind="exchange", move=f"x {a.tiles}", words=[], tiles=[])
    else:
        row.update(kind="pass", move="pass", words=[], tiles=[])
    return row
