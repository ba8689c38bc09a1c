"""Exact win probabilities for Pig: the optimal strategy and fixed-policy evaluation.

P(i, j, k) is the probability that the player to move wins with score i,
the opponent's score j and turn total k, both playing optimally (Neller &
Presser 2004). It is found by value iteration in stages of descending score
sum i + j; within a stage the pairs P(i, j, .) and P(j, i, .) are iterated
together until no value changes by 1e-12 or more. The same kernel evaluates
two fixed policies exactly (the Markov chain of a match), by replacing the
max with the policies' choices.

>>> from stratagem.games.pig.rules import preset
>>> round(solve(preset("piglet").with_options(goal=2), use_cache=False).p_win(0, 0, 0), 12)
0.571428571429
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from stratagem.core.errors import InvalidStateError
from stratagem.core.tables import TableCache
from stratagem.games.pig import _kernels as K
from stratagem.games.pig.cost import check_cost, evaluate_cost, solve_cost
from stratagem.games.pig.rules import PigRules

FORMAT_VERSION = 1
TABLE_KIND = "pig"
TOLERANCE = 1e-14  # well inside the 1e-12 asked for: values come out within ~1e-14
MAX_SWEEPS = 100_000


def table_base(goal: int) -> np.ndarray:
    """``base[i]``: where the block of my score i starts in a ragged table."""
    sizes = goal * (goal - np.arange(goal, dtype=np.int64))
    return np.concatenate(([0], np.cumsum(sizes)[:-1])).astype(np.int64)


def _reach_length(rules: PigRules) -> int:
    return 3 * rules.goal + 50 * rules.faces + 100


def _overshoot_length(rules: PigRules) -> int:
    return 2 * rules.goal + 50 * rules.faces


@dataclass(frozen=True)
class Policy:
    """A fixed Pig policy as tables: ``roll[idx]`` (1 roll, 0 hold) for i + k < goal,
    and ``thresh[i, j, :]``: the totals past the goal where the catch-up starter's choice
    changes (it rolls below the first, holds from it, rolls from the second, ...; padded
    with ``_kernels.NO_CHANGE``). Usually one number, a threshold; not always."""

    roll: np.ndarray
    thresh: np.ndarray


class KernelRules(NamedTuple):
    """A Pig variant as the kernels take it: one argument ``G``, read by field name."""

    goal: int
    base: np.ndarray
    """``base[i]``: where the block of score i starts in a ragged table."""
    adds: np.ndarray
    """The faces that add their pips to the turn total."""
    faces: int
    bust_scores_one: bool
    catch_up: bool
    reach: np.ndarray
    """``reach[d]``: P(a turn that rolls until it has d points gets there)."""
    over_len: int
    """Totals past the goal that the catch-up starter's values cover."""

    @classmethod
    def build(cls, rules: PigRules) -> KernelRules:
        adds = np.array(rules.adding_faces, dtype=np.int64)
        reach = K.one_turn_reach(adds, rules.faces, _reach_length(rules))
        return cls(rules.goal, table_base(rules.goal), adds, rules.faces, rules.bust_scores_one,
                   rules.catch_up_turn, reach, _overshoot_length(rules))  # fmt: skip


def _side(policy: Policy | None) -> tuple[int, np.ndarray, np.ndarray]:
    """A side as the kernels take it: ``(mode, roll, thresh)``; ``None`` maximises."""
    if policy is None:
        return K.OPTIMIZE, np.zeros(1, dtype=np.uint8), np.zeros((1, 1, 1), dtype=np.int64)
    return K.FIXED, policy.roll, policy.thresh


Progress = Callable[[int, int], None]
"""``progress(done, total)``: work done so far, in units of the whole (see :func:`_run`)."""


def _stage_weights(rules: PigRules) -> np.ndarray:
    """Relative work of each stage s = i + j (index s): the turn totals of its pairs, and
    the catch-up starter's totals past the goal; what progress is counted in."""
    g = rules.goal
    s = np.arange(2 * g - 1)
    lo = np.maximum(0, s - (g - 1))
    hi = np.minimum(s, g - 1)
    pairs = hi - lo + 1
    # sum over i in lo..hi of (g - i) + (g - (s - i)) = pairs * (2g - s)
    work = pairs * (2 * g - s)
    if rules.catch_up_turn:
        work = work + pairs * (2 * rules.goal + 50 * rules.faces)
    return work.astype(np.int64)


def _run(
    rules: PigRules,
    a_policy: Policy | None,
    b_policy: Policy | None,
    a_starter: bool,
    progress: Progress | None = None,
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Staged iteration; a ``None`` policy maximises. Returns (A, B, total, max sweeps).

    The stages run one call each from here (not in one compiled loop), so that
    ``progress`` hears after each and Ctrl-C stops between two of them.
    """
    n = rules.num_states
    symmetric = a_policy is None and b_policy is None and not rules.catch_up_turn
    a_table = np.zeros(n)
    b_table = a_table if symmetric else np.zeros(n)
    G = KernelRules.build(rules)
    a_side, b_side = _side(a_policy), _side(b_policy)
    weights = _stage_weights(rules)
    whole = int(weights.sum())
    done = 0
    sweeps = np.zeros(rules.goal, dtype=np.int64)
    total = most = 0
    for s in range(2 * (rules.goal - 1), -1, -1):
        sweeps[:] = 0
        K.solve_stage(s, G, a_table, b_table, a_side, b_side, symmetric, a_starter, TOLERANCE,
                      MAX_SWEEPS, sweeps)  # fmt: skip
        total += int(sweeps.sum())
        most = max(most, int(sweeps.max()))
        done += int(weights[s])
        if progress is not None:
            progress(done, whole)
    if most >= MAX_SWEEPS:
        raise InvalidStateError(f"value iteration did not converge in {MAX_SWEEPS} sweeps")
    return a_table, b_table, total, most


@dataclass(frozen=True)
class PigSolution:
    """Optimal win probabilities of one Pig variant.

    ``first`` is the table of the starting player to move and ``second`` that
    of the other player; without a catch-up turn the two are the same array.
    """

    rules: PigRules
    first: np.ndarray
    second: np.ndarray
    sweeps: int = 0
    max_sweeps: int = 0
    seconds: float = 0.0
    cached: bool = False
    _kernel: KernelRules = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_kernel", KernelRules.build(self.rules))

    @property
    def num_states(self) -> int:
        """States solved (both tables with a catch-up turn)."""
        return self.rules.num_states * (2 if self.rules.catch_up_turn else 1)

    @property
    def p_start(self) -> float:
        """P(0, 0, 0): the starting player's chance to win under optimal play."""
        return self.p_win(0, 0, 0)

    def _check(self, me: int, opp: int, turn: int, starter: bool = True) -> None:
        from stratagem.games.pig.state import check_position

        check_position(self.rules, me, opp, turn, starter)

    def _tables(self, starter: bool) -> tuple[np.ndarray, np.ndarray]:
        if starter:
            return self.first, self.second
        return self.second, self.first

    def _index(self, me: int, opp: int, turn: int) -> int:
        return int(self._kernel.base[me]) + opp * (self.rules.goal - me) + turn

    def action_values(
        self, me: int, opp: int, turn: int, starter: bool = True
    ) -> tuple[float, float | None]:
        """``(p_roll, p_hold)`` for the player to move; ``p_hold`` is ``None`` at turn total 0.

        ``starter`` says whether the player to move started the game (it matters
        only with a catch-up turn). With a turn total that reaches the goal,
        holding wins (or, for the starter with a catch-up turn, leaves the
        opponent one turn to beat the total).
        """
        self._check(me, opp, turn, starter)
        rules = self.rules
        arr = self._kernel
        g = rules.goal
        table, other = self._tables(starter)
        catch = rules.catch_up_turn and starter
        bust = float(K.bust_value(me, opp, arr, other, catch))
        over = np.empty(0)
        if catch:
            length = max(_overshoot_length(rules), me + turn - g + rules.faces + 1)
            over = np.empty(length)
            K.overshoot_values(me, opp, arr, bust, K.OPTIMIZE, np.zeros((1, 1, 1), np.int64), over)

        def value_at(total: int) -> float:
            if total >= g:
                return float(over[total - g]) if catch else 1.0
            return float(table[self._index(me, opp, total - me)])

        p_roll = (
            rules.bust_probability * bust
            + sum(value_at(me + turn + a) for a in rules.adding_faces) / rules.faces
        )
        if turn == 0:
            return p_roll, None
        total = me + turn
        if total >= g:
            p_hold = 1.0 - float(K.beat_probability(arr.reach, opp, total)) if catch else 1.0
        else:
            p_hold = 1.0 - float(other[self._index(opp, total, 0)])
        return p_roll, p_hold

    def p_win(self, me: int, opp: int, turn: int, starter: bool = True) -> float:
        """Probability that the player to move wins, both sides playing optimally."""
        p_roll, p_hold = self.action_values(me, opp, turn, starter)
        return p_roll if p_hold is None else max(p_roll, p_hold)

    def best_action(self, me: int, opp: int, turn: int, starter: bool = True) -> str:
        """``"roll"`` or ``"hold"`` (hold on a tie)."""
        p_roll, p_hold = self.action_values(me, opp, turn, starter)
        return "roll" if p_hold is None or p_roll > p_hold else "hold"

    def last_turn_p_win(self, me: int, target: int) -> float:
        """The last player of a catch-up turn, on ``me`` at the turn's start, beats ``target``."""
        return float(K.beat_probability(self._kernel.reach, me, target))

    def policy(self, starter: bool = True) -> Policy:
        """The optimal strategy as a fixed :class:`Policy` (for exact evaluation)."""
        rules = self.rules
        table, other = self._tables(starter)
        roll = np.zeros(rules.num_states, dtype=np.uint8)
        changes = np.zeros(1, dtype=np.int64)
        width = 1
        while True:  # one change (a threshold) almost always; more where the optimum needs
            thresh = np.zeros((rules.goal, rules.goal, width), dtype=np.int64)
            K.optimal_policy(table, other, self._kernel, starter, roll, thresh, changes)
            if changes[0] <= width:
                break
            width = int(changes[0])
        return Policy(roll, thresh)


def solve_tables(
    rules: PigRules, progress: Progress | None = None
) -> tuple[np.ndarray, np.ndarray, int, int]:
    """Solve from scratch: (first, second, total sweeps, most sweeps of one pair).

    Refused before it starts (:class:`~stratagem.games.pig.cost.WorkTooLargeError`) if
    it would take more than an hour or more memory than is free."""
    check_cost(solve_cost(rules), f"solving {rules.describe()}")
    return _run(rules, None, None, a_starter=True, progress=progress)


def solve(
    rules: PigRules,
    cache: TableCache | None = None,
    use_cache: bool = True,
    progress: Progress | None = None,
    save: bool = True,
) -> PigSolution:
    """The optimal solution of ``rules``, from the table cache when it holds it (and
    written there once solved, unless ``save`` is False).

    A solve from scratch is estimated first and refused if too large
    (:func:`solve_tables`); ``progress(done, total)`` hears after each stage."""
    start = time.perf_counter()
    if not use_cache:
        a, b, total, most = solve_tables(rules, progress)
        return PigSolution(rules, a, b, total, most, time.perf_counter() - start)

    def build() -> dict[str, np.ndarray]:
        a, b, total, most = solve_tables(rules, progress)
        out = {"first": a, "sweeps": np.array([total, most], dtype=np.int64)}
        if rules.catch_up_turn:
            out["second"] = b
        return out

    cache = cache or TableCache()
    arrays, hit = cache.load_or_build(
        TABLE_KIND, rules.fingerprint, FORMAT_VERSION, build, {"rules": rules.name}, save
    )
    loaded_first: np.ndarray | None = arrays.get("first")
    loaded_second: np.ndarray | None = arrays.get("second", loaded_first)
    sweeps: np.ndarray | None = arrays.get("sweeps")
    ok = (
        loaded_first is not None
        and loaded_second is not None
        and sweeps is not None
        and loaded_first.shape == (rules.num_states,)
        and loaded_second.shape == (rules.num_states,)
        and sweeps.shape == (2,)
    )
    first, second = loaded_first, loaded_second
    if not ok:
        built = build()
        if save:
            cache.save(TABLE_KIND, rules.fingerprint, FORMAT_VERSION, built, {"rules": rules.name})
        first, sweeps = built["first"], built["sweeps"]
        second = built.get("second", first)
        hit = False
    assert first is not None and second is not None and sweeps is not None
    return PigSolution(
        rules, first, second, int(sweeps[0]), int(sweeps[1]), time.perf_counter() - start, hit
    )


@dataclass(frozen=True)
class Evaluation:
    """Exact win probabilities of player A against player B."""

    a_first: float
    b_first: float
    sweeps: int

    @property
    def coin(self) -> float:
        """A's chance when a fair coin decides who starts."""
        return 0.5 * (self.a_first + self.b_first)


Roles = Policy | tuple[Policy, Policy]
"""One policy for both roles, or ``(as the starter, as the second player)``."""


def _role(policy: Roles, starter: bool) -> Policy:
    if isinstance(policy, Policy):
        return policy
    return policy[0] if starter else policy[1]


def evaluate(rules: PigRules, a: Roles, b: Roles) -> Evaluation:
    """A's exact chance to win against B: moving first, second, and on a coin toss.

    Each player is a fixed policy, or a pair of them (as the starter, as the
    second player) where the role matters (the catch-up turn). Both policies are
    fixed, so each pair of positions {A on (i, j), B on (j, i)} is an affine 2x2 system
    closed in one pass (:func:`~stratagem.games.pig._thumb_kernels.duel_policies`): the
    time is known before it starts (:func:`stratagem.games.pig.cost.evaluate_cost`),
    whatever the policies. Value iteration (:func:`evaluate_by_iteration`) needed
    sweeps without end when both players rarely bank (``hold:100`` against
    ``hold:100`` on a coin): over 300 s, or no convergence at all.
    """
    from stratagem.games.pig import _thumb_kernels as TK

    check_cost(evaluate_cost(rules), f"evaluating two strategies on {rules.describe()}")
    G = KernelRules.build(rules)
    n = rules.num_states
    a_table, b_table = np.empty(n), np.empty(n)
    a1, b2 = _role(a, True), _role(b, False)
    TK.duel_policies(a1.roll, a1.thresh, b2.roll, b2.thresh, True, G, a_table, b_table)
    a_first = float(a_table[0])
    if rules.catch_up_turn or not (isinstance(a, Policy) and isinstance(b, Policy)):
        a2, b1 = _role(a, False), _role(b, True)
        TK.duel_policies(a2.roll, a2.thresh, b1.roll, b1.thresh, False, G, a_table, b_table)
    b_first = 1.0 - float(b_table[0])
    return Evaluation(a_first, b_first, 1)


def evaluate_by_iteration(rules: PigRules, a: Roles, b: Roles) -> Evaluation:
    """:func:`evaluate` by value iteration of the two policies (the solver's kernel in
    ``FIXED`` mode): an independent check, for policies whose play banks often."""
    a_table, b_table, sweeps, _ = _run(rules, _role(a, True), _role(b, False), a_starter=True)
    a_first = float(a_table[0])
    if rules.catch_up_turn or not (isinstance(a, Policy) and isinstance(b, Policy)):
        _, b2, more, _ = _run(rules, _role(a, False), _role(b, True), a_starter=False)
        sweeps += more
        b_first = 1.0 - float(b2[0])
    else:
        b_first = 1.0 - float(b_table[0])
    return Evaluation(a_first, b_first, sweeps)
