"""The Yahtzee assistant's library side: advice for any position a player types in.

The web page's assistant and its Monte Carlo panel ask here, so that the page only
renders: the optimal strategy and the probability advisors of a preset
(:func:`advisor`, kept in the process's one memo of solved tables), and a state for a
typed-in situation (:func:`situation_state`) to search from.
"""

from __future__ import annotations

import threading

from stratagem.core.agent import Advice
from stratagem.core.tables import solved_memo
from stratagem.games.yahtzee.distribution import RemainingDistributions
from stratagem.games.yahtzee.outcomes import OptionDistributions
from stratagem.games.yahtzee.rules import UPPER, preset
from stratagem.games.yahtzee.solver import Solution
from stratagem.games.yahtzee.state import Scorecard, Situation, YahtzeeState
from stratagem.games.yahtzee.strategies import OptimalStrategy
from stratagem.games.yahtzee.winning import ChanceAdvisor

__all__ = ["AssistantAdvisor", "advisor", "situation_state"]


class AssistantAdvisor:
    """The optimal strategy and the probability advisors of one rule set, thread-safe."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution
        self.strategy = OptimalStrategy(solution)
        self.lock = threading.Lock()
        self.chance: ChanceAdvisor | None = None
        self.outcomes: OptionDistributions | None = None

    def advise(self, sit: Situation) -> list[Advice]:
        with self.lock:
            return self.strategy.advise_situation(sit)

    def with_tables(self, tables: RemainingDistributions) -> None:
        with self.lock:
            if self.chance is None or self.chance.tables is not tables:
                self.chance = ChanceAdvisor(self.solution, tables)
                self.outcomes = OptionDistributions(OptimalStrategy(self.solution), tables)


def advisor(name: str) -> AssistantAdvisor:
    """The assistant's advisor of preset ``name``, made once per process (kept beside its
    solved table in the one memo)."""
    from stratagem.games.yahtzee.spec import solution

    rules = preset(name)
    return solved_memo().get_or_solve(
        ("yahtzee-assistant", rules.fingerprint),
        lambda: AssistantAdvisor(solution(rules)),
        nbytes=lambda _adv: 0,  # its table is counted under the solution's own key
    )


def situation_state(sit: Situation) -> YahtzeeState:
    """A one-player state at ``sit`` whose totals match it (for searching from it).

    Box points are not known from a situation, only totals: the upper total is
    put in the first filled upper box and the other points in the first filled
    lower box (or as Yahtzee bonus points), which changes no rule a playout uses.
    """
    rules = sit.rules
    boxes: list[int | None] = [None] * rules.num_categories
    for name in sit.filled:
        boxes[rules.category_index(name)] = 0
    upper_names = [c for c in UPPER if c in sit.filled]
    if upper_names:
        boxes[rules.category_index(upper_names[0])] = sit.upper
    ybox = rules.yahtzee_category
    if sit.yahtzee_box is not None:
        boxes[rules.category_index(ybox)] = sit.yahtzee_box
    rest = sit.points - sit.known_points
    lower = [c for c in rules.categories if c in sit.filled and c not in UPPER and c != ybox]
    bonus = 0
    if lower:
        boxes[rules.category_index(lower[0])] = rest
    else:
        bonus = rest
    card = Scorecard(rules, tuple(boxes), bonus)
    return YahtzeeState(rules, (card,), 0, tuple(sit.dice), sit.rolls_left, False)
