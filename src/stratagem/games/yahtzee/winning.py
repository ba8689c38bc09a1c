"""Advisors and agents that maximise a probability instead of the expected score.

:class:`ChanceAdvisor` prices every option of a decision by the probability of
an event about the final score, when this turn is played as the option says
and the rest of the game by the optimal (expected-score) strategy:

* ``target`` mode: the probability of finishing with at least T points
  (``stratagem yahtzee advise --target T``);
* ``win`` mode: the expected share of the win (finishing ahead of every
  opponent; a tie at the top among k players gives each 1/k), from their current
  cards and their optimal remaining-score distributions.

:class:`WinAgent` plays the best option of ``win`` mode in the arena
(``--agents win,optimal``); the compiled version of the same player is in
:mod:`.match`. The turn tables are the compiled ones (:func:`.match.win_turn`),
so the advisor's numbers are exactly those the compiled player compares.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from stratagem.core.agent import Advice, with_regrets
from stratagem.core.errors import InvalidStateError
from stratagem.core.game import State
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee import one_turn as O
from stratagem.games.yahtzee.distribution import RemainingDistributions
from stratagem.games.yahtzee.high_score import clipped_advice
from stratagem.games.yahtzee.match import (
    WinTurn,
    opponent_win_table,
    optimal_remaining,
    target_win_table,
    win_turn,
)
from stratagem.games.yahtzee.solver import Solution
from stratagem.games.yahtzee.state import Keep, Score, Situation, YahtzeeState


class ChanceAdvisor:
    """Prices options by a probability about the final score (see the module doc)."""

    def __init__(self, solution: Solution, tables: RemainingDistributions | None = None) -> None:
        self.solution = solution
        self.rules = solution.rules
        self.tables = tables if tables is not None else optimal_remaining(solution)
        self._memo: dict[tuple[object, ...], WinTurn] = {}

    def _turn(self, sit: Situation, fw: np.ndarray, key: tuple[object, ...]) -> WinTurn:
        full = (sit.mask, sit.upper, sit.flag, sit.points, *key)
        turn = self._memo.get(full)
        if turn is None:
            if len(self._memo) > 64:
                self._memo.clear()
            turn = win_turn(
                self.solution, self.tables, (sit.mask, sit.upper, sit.flag, sit.points), fw
            )
            self._memo[full] = turn
        return turn

    def advise_with(self, sit: Situation, fw: np.ndarray, key: tuple[object, ...]) -> list[Advice]:
        """Every option of ``sit`` with its probability, best first (boxes first on ties)."""
        if sit.rules != self.rules:
            raise InvalidStateError(
                f"this advisor was built for {self.rules.name}, not {sit.rules.name}"
            )
        t = self.tables
        options: list[tuple[Keep | Score, float]] = []
        roll = D.KEEP_INDEX[sit.dice]
        boxes = self.solution.legal_boxes(sit.mask, sit.upper, sit.flag, roll)
        states = np.array([t.sid[sit.mask | (1 << c), nu, ny] for c, _p, nu, ny in boxes],
                          dtype=np.int64)  # fmt: skip
        t.check_states(states.tolist())
        totals = np.array([sit.points + p for _c, p, _nu, _ny in boxes], dtype=np.int64)
        values = O.win_values(totals, states, t.offsets, t.lows, t.lengths, t.data, fw)
        for (c, _p, _nu, _ny), v in zip(boxes, values, strict=True):
            options.append((Score(self.rules.categories[c]), float(v)))
        if sit.rolls_left > 0:
            turn = self._turn(sit, fw, key)
            options.extend(sit.keep_options(turn.E1 if sit.rolls_left == 2 else turn.E0))
        # ranked on the sums (as the compiled player ranks them), reported inside [0, 1]
        return clipped_advice(with_regrets(options))

    def advise_target(self, sit: Situation, target: int) -> list[Advice]:
        """Options priced by P(final score >= target)."""
        return self.advise_with(sit, target_win_table(target), ("target", target))

    def advise_win(self, state: YahtzeeState) -> list[Advice]:
        """Options of the player to move priced by their expected share of the win (a tie
        at the top shared): one opponent, :func:`.match.opponent_win_table`; two or three,
        the field's table (:func:`.field.field_win_table`: every opponent's final score
        from its optimal remaining-score distribution, ties among any of them shared)."""
        me = state.player
        cards = [(c.mask, c.upper_total, c.flag, c.total) for c in state.cards]
        others = tuple(card for i, card in enumerate(cards) if i != me)
        if len(others) == 1:
            fw = opponent_win_table(self.tables, others[0])
        else:
            from stratagem.games.yahtzee.field import field_win_table

            fw = field_win_table(self.tables, cards, me)
        return self.advise_with(state.situation(), fw, ("win", *others))


class WinAgent:
    """Plays to finish ahead of the opponents: each turn the option with the largest
    share of the win when everyone plays the expected-score optimum afterwards (two
    players: :func:`.match.opponent_win_table`, and the exact high-score strategy for one
    point more than a finished opponent; three or four: the field's table,
    :func:`.field.field_win_table`, ties at the top shared)."""

    name = "win"

    def __init__(self, solution: Solution) -> None:
        self.advisor = ChanceAdvisor(solution)
        self.high_score_table: Any = None  # the cached high-score table, opened on first use

    def advise(self, state: State) -> list[Advice]:
        if not isinstance(state, YahtzeeState):
            raise InvalidStateError("the win-seeking player needs a YahtzeeState")
        if state.num_players < 2:
            raise InvalidStateError("the win-seeking player needs at least one opponent")
        target = self._exact_target(state)
        if target is not None:
            from stratagem.games.yahtzee.high_score import HighScoreStrategy

            strategy = HighScoreStrategy(self.advisor.solution, target, self.high_score_table)
            return strategy.advise_situation(state.situation())
        return self.advisor.advise_win(state)

    def _exact_target(self, state: YahtzeeState) -> int | None:
        """One point more than the opponent, once a lone opponent has finished and two or
        more of our turns are left: the high-score table is then exactly win-optimal
        (with one turn left the one-turn tables already are, and count a tie half)."""
        if state.num_players != 2:
            return None
        rules = self.advisor.rules
        full = (1 << rules.num_categories) - 1
        opponent = state.cards[1 - state.player]
        mine = state.cards[state.player]
        if opponent.mask != full or rules.num_categories - bin(mine.mask).count("1") < 2:
            return None
        return opponent.total + 1

    def act(self, state: State, rng: np.random.Generator) -> Keep | Score:
        action = self.advise(state)[0].action
        assert isinstance(action, Keep | Score)
        return action
