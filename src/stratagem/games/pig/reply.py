"""The exact best reply to a fixed Pig opponent.

With the opponent's decisions fixed (``hold:N``, a rule of thumb, a rule
table, or the optimal strategy itself: any agent whose choice is a function of
the position), Pig is a one-player problem: maximise the chance of winning
against that policy. It is solved exactly by the solver's staged value
iteration (:mod:`stratagem.games.pig._kernels`) with one side maximising and
the other following the fixed policy: stages of descending score sum, each
pair {me on (i, j), opponent on (j, i)} iterated until no value changes by
1e-14. The result is the reply's chance of winning from every position
(my score, opponent's score, turn total, whose turn) and the reply's move
there; the optimum (which assumes an optimal opponent) can only do as well or
worse against the same opponent.

With a catch-up turn the two roles want different play, so the reply is solved
once as the starter and once as the second player; otherwise one solve gives
both roles.

>>> from stratagem.games.pig.rules import preset
>>> from stratagem.games.pig.strategies import HoldAt
>>> rules = preset("piglet")
>>> reply = best_reply(rules, HoldAt(rules, 1))
>>> round(reply.p_first, 6), round(reply.p_second, 6)
(0.620027, 0.567061)
>>> reply.best_action(0, 0, 1)  # against "hold at 1"; the optimum would roll
'hold'
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from stratagem.core.agent import Advice
from stratagem.core.errors import InvalidRulesError, InvalidStateError
from stratagem.core.game import State
from stratagem.games.pig import _kernels as K
from stratagem.games.pig.rules import MAX_GOAL, PigRules
from stratagem.games.pig.solver import (
    MAX_SWEEPS,
    TOLERANCE,
    KernelRules,
    PigSolution,
    Policy,
    Roles,
    _side,
    evaluate,
)
from stratagem.games.pig.state import PigAction
from stratagem.games.pig.strategies import (
    OptimalAgent,
    RuleAgent,
    _act,
    _advise,
    agent_policies,
)

Opponent = RuleAgent | OptimalAgent | Policy | tuple[Policy, Policy]
"""A fixed opponent: an agent with a fixed policy, one :class:`Policy`, or a pair of
them (as the starter, as the second player)."""

MAX_STATES = 2 * PigRules("largest", MAX_GOAL, 6, (1,)).num_states
"""The most values one job may hold: what the optimal solver holds at its largest
goal with a catch-up turn (two tables of ``MAX_GOAL``). The best reply holds two
tables per role it solves."""

BYTES_PER_STATE = 8


def reply_states(rules: PigRules) -> int:
    """Values the best reply solves: two tables (mine and the opponent's) per role solved.

    >>> from stratagem.games.pig.rules import preset
    >>> reply_states(preset("pig")), reply_states(preset("pig").with_options(catch_up_turn=True))
    (1010000, 2020000)
    """
    return 2 * rules.num_states * (2 if rules.catch_up_turn else 1)


def check_size(rules: PigRules) -> None:
    """Refuse, before any work, a variant whose best reply would exceed :data:`MAX_STATES`."""
    need = reply_states(rules)
    if need > MAX_STATES:
        largest = max(
            g
            for g in range(1, MAX_GOAL + 1)
            if reply_states(rules.with_options(goal=g)) <= MAX_STATES
        )
        raise InvalidRulesError(
            f"the best reply for {rules.describe()} would solve {need:,} states "
            f"({need * BYTES_PER_STATE / 1e6:,.0f} MB), more than the {MAX_STATES:,} "
            f"({MAX_STATES * BYTES_PER_STATE / 1e6:,.0f} MB) the solver allows; "
            f"use a goal of at most {largest}"
        )


def opponent_roles(opponent: Opponent) -> Roles:
    """The opponent as the solver's evaluator takes it: a policy or (as starter, as second)."""
    if isinstance(opponent, RuleAgent | OptimalAgent):
        return agent_policies(opponent)
    return opponent


def _role(policies: Roles, starter: bool) -> Policy:
    if isinstance(policies, Policy):
        return policies
    return policies[0] if starter else policies[1]


Progress = Callable[[float], None]
"""Called with the fraction of the work done (0..1) after each stage."""


def _stage_states(goal: int, s: int) -> int:
    lo, hi = max(0, s - (goal - 1)), min(s, goal - 1)
    return sum((goal - i) + (goal - (s - i)) for i in range(lo, hi + 1))


def _solve_role(
    rules: PigRules,
    kernel: KernelRules,
    opponent: Policy,
    a_starter: bool,
    progress: Progress | None,
    done: float,
    share: float,
) -> tuple[np.ndarray, np.ndarray, int]:
    """My table (maximising) and the opponent's (fixed), stage by stage so that progress is
    reported and Ctrl-C is honoured between stages. Returns (mine, theirs, sweeps)."""
    n, g = rules.num_states, rules.goal
    mine, theirs = np.zeros(n), np.zeros(n)
    me_side = _side(None)
    their_side = _side(opponent)
    sweeps_out = np.zeros(g, dtype=np.int64)
    total = 0
    solved = 0
    for s in range(2 * (g - 1), -1, -1):
        sweeps_out[:] = 0
        K.solve_stage(s, kernel, mine, theirs, me_side, their_side, False, a_starter, TOLERANCE,
                      MAX_SWEEPS, sweeps_out)  # fmt: skip
        if int(sweeps_out.max()) >= MAX_SWEEPS:
            raise InvalidStateError(f"value iteration did not converge in {MAX_SWEEPS} sweeps")
        total += int(sweeps_out.sum())
        if progress is not None:
            solved += _stage_states(g, s)
            progress(done + share * solved / (2 * n))
    return mine, theirs, total


@dataclass(frozen=True)
class BestReply:
    """The best reply to one fixed opponent: its chances and its move everywhere.

    ``p_first`` / ``p_second``: the reply's chance of winning when it moves
    first / second. Positions are asked as for
    :meth:`~stratagem.games.pig.solver.PigSolution.action_values`: my score,
    the opponent's score, my turn total, and whether I started the game.
    """

    rules: PigRules
    p_first: float
    p_second: float
    sweeps: int
    seconds: float
    _as_first: PigSolution = field(repr=False, compare=False)
    _as_second: PigSolution = field(repr=False, compare=False)

    @property
    def coin(self) -> float:
        """The reply's chance when a fair coin decides who starts."""
        return 0.5 * (self.p_first + self.p_second)

    def _view(self, starter: bool) -> PigSolution:
        # Each view is a pair of tables read as the solver reads its own: the mover
        # maximises on the first it is given, the other is the opponent's.
        return self._as_first if starter else self._as_second

    def action_values(
        self, me: int, opp: int, turn: int, starter: bool = True
    ) -> tuple[float, float | None]:
        """``(p_roll, p_hold)`` against the opponent, playing the best reply afterwards;
        ``p_hold`` is ``None`` at turn total 0."""
        return self._view(starter).action_values(me, opp, turn, starter)

    def opponent_action_values(
        self, me: int, opp: int, turn: int, starter: bool = True
    ) -> tuple[float, float | None]:
        """``(p_roll, p_hold)`` of the *opponent* to move, on ``me`` (its score) against
        ``opp`` (the reply's): its chance when it rolls / holds now and then follows its
        own policy, the reply answering. ``starter``: whether the opponent started.

        The opponent's value tables were solved beside the reply's, so this is a look-up
        as for the reply's own moves (past the goal a rule of thumb holds, where the
        value of holding is exact)."""
        return self._view(not starter).action_values(me, opp, turn, starter)

    def p_win(self, me: int, opp: int, turn: int, starter: bool = True) -> float:
        """The reply's chance of winning from the position, against the opponent."""
        return self._view(starter).p_win(me, opp, turn, starter)

    def best_action(self, me: int, opp: int, turn: int, starter: bool = True) -> str:
        """``"roll"`` or ``"hold"`` (hold on a tie)."""
        return self._view(starter).best_action(me, opp, turn, starter)

    def last_turn_p_win(self, me: int, target: int) -> float:
        """The last player of a catch-up turn, on ``me`` at the turn's start, beats ``target``
        (no choice is left to either side: it rolls until past the target or bust)."""
        return self._as_first.last_turn_p_win(me, target)

    def policy(self, starter: bool = True) -> Policy:
        """The reply as a fixed :class:`Policy` in one role (for exact evaluation)."""
        return self._view(starter).policy(starter)

    def policies(self) -> Roles:
        """The reply for :func:`~stratagem.games.pig.solver.evaluate`: one policy, or
        (as the starter, as the second player) with a catch-up turn."""
        if self.rules.catch_up_turn:
            return self.policy(True), self.policy(False)
        return self.policy(True)


def best_reply(rules: PigRules, opponent: Opponent, progress: Progress | None = None) -> BestReply:
    """Solve the best reply to ``opponent`` exactly (see the module docstring).

    Refuses a variant too large up front (:func:`check_size`). ``progress``
    is called with the fraction done after each stage.
    """
    check_size(rules)
    start = time.perf_counter()
    policies = opponent_roles(opponent)
    for role in (True, False):
        got = _role(policies, role).roll.shape
        if got != (rules.num_states,):
            raise InvalidRulesError(
                f"the opponent's policy has {got[0]:,} states, not the {rules.num_states:,} "
                f"of {rules.describe()}: it was made for other rules"
            )
    kernel = KernelRules.build(rules)
    if rules.catch_up_turn:
        # As the starter the opponent plays its second-player policy, and the other way round.
        a1, b1, s1 = _solve_role(rules, kernel, _role(policies, False), True, progress, 0.0, 0.5)
        a2, b2, s2 = _solve_role(rules, kernel, _role(policies, True), False, progress, 0.5, 0.5)
        as_first = PigSolution(rules, a1, b1)
        as_second = PigSolution(rules, b2, a2)
        p_second = 1.0 - float(b2[0])
        sweeps = s1 + s2
    else:
        a1, b1, sweeps = _solve_role(rules, kernel, _role(policies, False), True, progress, 0, 1)
        as_first = PigSolution(rules, a1, b1)
        as_second = PigSolution(rules, b1, a1)
        p_second = 1.0 - float(b1[0])
    return BestReply(
        rules, float(a1[0]), p_second, sweeps, time.perf_counter() - start, as_first, as_second
    )


class ReplyAgent:
    """Plays the best reply, and advises with the chance of winning against the opponent
    it was solved for (the optimum's :class:`OptimalAgent` assumes an optimal one).

    >>> from stratagem.games.pig.rules import preset
    >>> from stratagem.games.pig.strategies import HoldAt
    >>> from stratagem.games.pig.state import PigAction, PigState
    >>> rules = preset("piglet")
    >>> agent = ReplyAgent(best_reply(rules, HoldAt(rules, 1)), "hold:1")
    >>> state = PigState.new(rules).apply(PigAction.ROLL).apply(1)  # heads: turn total 1
    >>> [(str(a.action), round(a.value, 4)) for a in agent.advise(state)]
    [('hold', 0.673), ('roll', 0.6712)]
    """

    def __init__(self, reply: BestReply, against: str) -> None:
        self.reply = reply
        self.rules = reply.rules
        self.against = against
        self.spec = f"best reply to {against}"

    def decide(self, me: int, opp: int, turn: int, starter: bool = True) -> str:
        return self.reply.best_action(me, opp, turn, starter)

    def act(self, state: State, rng: np.random.Generator) -> PigAction:
        return _act(self, state)

    def advise(self, state: State) -> list[Advice]:
        """Roll and (when allowed) hold with the mover's chance of winning against the
        opponent, the best reply played afterwards; hold first on a tie."""
        return _advise(self.reply, state)


@dataclass(frozen=True)
class Comparison:
    """The best reply against the optimum, both facing the same fixed opponent.

    Margins are the reply's chance minus the optimum's (never below 0 but for
    rounding: the optimum is one of the strategies the reply is the best of).
    """

    reply_first: float
    reply_second: float
    optimal_first: float
    optimal_second: float

    @property
    def reply_coin(self) -> float:
        return 0.5 * (self.reply_first + self.reply_second)

    @property
    def optimal_coin(self) -> float:
        return 0.5 * (self.optimal_first + self.optimal_second)

    @property
    def margin_first(self) -> float:
        return self.reply_first - self.optimal_first

    @property
    def margin_second(self) -> float:
        return self.reply_second - self.optimal_second

    @property
    def margin_coin(self) -> float:
        return self.reply_coin - self.optimal_coin


def compare_with_optimum(reply: BestReply, solution: PigSolution, opponent: Opponent) -> Comparison:
    """The reply's chances beside the optimum's against ``opponent`` (exact evaluation).

    >>> from stratagem.games.pig.rules import preset
    >>> from stratagem.games.pig.solver import solve
    >>> from stratagem.games.pig.strategies import HoldAt
    >>> rules = preset("piglet")
    >>> c = compare_with_optimum(best_reply(rules, HoldAt(rules, 1)),
    ...                          solve(rules, use_cache=False), HoldAt(rules, 1))
    >>> round(c.optimal_first, 6), round(c.margin_first, 6), round(c.margin_second, 6)
    (0.602385, 0.017642, 0.01651)
    """
    if solution.rules != reply.rules:
        raise InvalidRulesError("the solution and the reply are of different rules")
    ev = evaluate(reply.rules, agent_policies(OptimalAgent(solution)), opponent_roles(opponent))
    return Comparison(reply.p_first, reply.p_second, ev.a_first, ev.b_first)
