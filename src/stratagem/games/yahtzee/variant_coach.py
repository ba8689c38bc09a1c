"""The coach of a game on a reduced score card (a duel *variant*, rules
``yahtzee:boxes=ones+twos+chance,bonus=true``): what the page, the terminal and the
review show for a :class:`~.duel_play.VariantState`.

:class:`VariantCoaching` is the :class:`~stratagem.core.coaching.Coaching` of such a
game; it shows and judges as the full card's coach does (:class:`~.coach.CardCoaching`),
pricing each option:

* **two players**: the *chance of winning* (a draw counts half) when this turn is played
  as the option says and **both players then play the exact two-player win-optimal
  strategy**, read from the solved ``max``/``max`` tables of :mod:`.duel` (the numbers
  :class:`~.duel_play.DuelOptimalAgent` plays by). Exact. A table not on disk is solved
  on the first question (seconds on the small cards), within
  :func:`~.duel_play.solve_limits`: a web request never starts a solve beyond
  :data:`~.duel_play.WEB_MAX_SECONDS`, and a variant too large for it is refused when
  the coach is made, naming the estimate;
* **one player** (and three or four, where no table of win chances exists for a
  reduced card): *expected points*, each option's expected final score when the rest of
  the game is played by the card's expected-score optimum (the solitaire solver run on
  the variant's card, :func:`.duel.es_values`; milliseconds per decision). Exact.

Beside the chance of winning, each row keeps the option's expected final score, as the
full card's coach does. The thresholds are the full card's
(:data:`~.coach.SOLO_UNIT`, :data:`~.coach.WIN_UNIT`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from stratagem.core.agent import Advice, with_regrets
from stratagem.core.errors import InvalidStateError
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee import one_turn as O
from stratagem.games.yahtzee.coach import SOLO_UNIT, WIN_UNIT, CardCoaching, check_players
from stratagem.games.yahtzee.duel import Variant, _es_values
from stratagem.games.yahtzee.duel_play import (
    DuelOptimalAgent,
    VariantState,
    check_solvable,
    solved_run,
)
from stratagem.games.yahtzee.state import Keep, Score, TurnState

__all__ = ["VariantCoaching"]

DUEL_NOTE = (
    "Exact: each option's chance of winning (a draw counts half) when both players then "
    "play the two-player win-optimal strategy of this card (its solved table); the "
    "expected final score under the expected-score optimum is the second column."
)
SOLO_NOTE = (
    "Exact: each option's expected final score when the rest of the game is played by "
    "the expected-score optimum of this card (the solitaire solver on its boxes)."
)
FIELD_NOTE = (
    "Expected points: with three or four players on a reduced card there is no table of "
    "chances of winning, so each option is priced by its exact expected final score under "
    "the card's expected-score optimum."
)


class VariantCoaching(CardCoaching):
    """The coach of a reduced card for ``players`` cards (``None``: as many as the first
    position shown has); see the module doc."""

    def __init__(self, variant: Variant, players: int | None = None) -> None:
        if not isinstance(variant, Variant):
            raise InvalidStateError(f"a reduced card's coach needs a variant, not {variant!r:.60}")
        super().__init__(variant, VariantState)
        self.variant = variant
        self.name = variant.name
        self.categories = variant.boxes
        self.upper_bonus_threshold = variant.threshold
        self.upper_bonus = variant.bonus
        self._duel: DuelOptimalAgent | None = None
        self.note = SOLO_NOTE
        if players is not None:
            self._bind(players)

    def _bind(self, players: int) -> None:
        if check_players(players) == 2:
            # the table is read (or solved, within the limits) on the first question; a
            # variant too large to solve here is refused now, naming the estimate
            check_solvable(self.variant)
        self.players = players
        self.unit = WIN_UNIT if players == 2 else SOLO_UNIT
        self.exact = True
        self.note = {1: SOLO_NOTE, 2: DUEL_NOTE}.get(players, FIELD_NOTE)

    @property
    def values(self) -> np.ndarray:
        """The expected-score optimum's values of the card, ``V[mask, upper, 0]`` (expected
        points still to come; upper capped at the bonus threshold)."""
        return _es_values(self.variant)

    def _upper(self, card: Any) -> int:
        return min(int(card.upper_total), self.variant.threshold)

    def expected_options(self, s: VariantState) -> list[Advice]:
        """Every option with its expected final score under the expected-score optimum
        afterwards, best first (as :func:`.one_turn.expected_turn` prices a turn)."""
        card, V, kernel = s.card, self.values, self.variant.kernel
        mask, upper = card.mask, self._upper(card)
        outcomes = O.box_outcomes(kernel, mask, upper, 0)
        roll = D.KEEP_INDEX[s.dice]
        worth = O.box_worth(V, mask, outcomes)[roll - D.ROLL_START]
        options: list[tuple[Keep | Score, float]] = [
            (Score(name), card.total + float(worth[c]))
            for c, name in enumerate(self.variant.boxes)
            if np.isfinite(worth[c])
        ]
        if s.rolls_left > 0:
            E0, E1 = O.expected_turn(V, kernel, mask, upper, 0, outcomes)
            after = E1 if s.rolls_left == 2 else E0
            options[:0] = [(k, card.total + float(after[D.KEEP_INDEX[k.dice]])) for k in s._keeps]
        return with_regrets(options)

    def duel_agent(self) -> DuelOptimalAgent:
        """The two-player win-optimal player of the card, from its table (read, or solved
        within :func:`~.duel_play.solve_limits`, on the first call)."""
        if self._duel is None:
            self._duel = DuelOptimalAgent(solved_run(self.variant))
        return self._duel

    def _priced(self, s: TurnState[Any, Any]) -> tuple[Sequence[Advice], Sequence[Advice] | None]:
        assert isinstance(s, VariantState)
        expected = self.expected_options(s)
        wins = self.duel_agent().advise(s) if self.players == 2 else None
        return expected, wins

    def _chance_at_turn_start(self, s: TurnState[Any, Any]) -> float | None:
        """Two players: the solved table's value of the position (exact)."""
        if self.players != 2:
            return None
        run = self.duel_agent().run
        mine, other = s.cards[s.player], s.cards[1 - s.player]
        a = int(run.cards.sid[mine.mask, self._upper(mine)])
        b = int(run.cards.sid[other.mask, self._upper(other)])
        t = len(mine.filled) + len(other.filled)
        return run.value(t, a, b, mine.total - other.total)

    def _solo_start(self, card: Any) -> float:
        return float(card.total) + float(self.values[card.mask, self._upper(card), 0])

    @property
    def optimum_expected(self) -> float:
        return float(self.values[0, 0, 0])
