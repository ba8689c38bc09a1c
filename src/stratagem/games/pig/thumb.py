"""Rules of thumb for Pig: small rule tables that lose as little as possible.

A rule table (:class:`~stratagem.games.pig.strategies.RuleTable`) is a list of
rows ``me=a-b opp=c-d hold=T`` read top to bottom; the first row whose bands
hold my score and the opponent's gives the turn total to hold at, and the last
row is a catch-all. :func:`derive_table` searches for the table of at most
``max_rows`` rows whose *cost* is least:

    cost = 0.5 - P(the table beats the optimal player, a coin toss deciding who starts)

the win probability it gives away against the optimum (0 for the optimum
itself). It is also split by role: ``cost_first = P*(0, 0, 0) - P(table wins
moving first)`` and ``cost_second = (1 - P*(0, 0, 0)) - P(table wins moving
second)``; ``cost`` is their mean.

How the search works (exact evaluation is the objective throughout):

1. The table player's win probability against the fixed optimal policy is
   computed exactly by a dedicated kernel (both policies are fixed, so each
   pair of positions {me on (i, j), optimum on (j, i)} is an affine 2x2 system
   closed in one pass; it agrees with :func:`~stratagem.games.pig.solver.evaluate`
   to ~1e-13 and is ~20x faster). Candidates are evaluated in parallel and
   memoised on their effective hold grid.
2. One row: every "hold at T" is evaluated; the best is the 1-row table.
3. k rows from the best k-1 rows: new rows are proposed by a *surrogate*.
   By the performance-difference identity, for a policy pi against the
   optimum, ``cost = sum over turn starts (i, j) of d_pi(i, j) *
   loss(i, j, T_pi(i, j))``, where ``d_pi`` is the expected number of turns pi
   starts at (i, j) and ``loss(i, j, T)`` is what playing that one turn as
   "hold at T" (then optimally) loses against optimal play, read off the
   solved table. With ``d`` frozen, the change made by any rectangle, hold and
   row position is a sum over the rectangle (prefix sums), so every rectangle
   on a grid of band edges (multiples of ``step``) is scored at once. With
   ``d`` of the current table, the best ``candidates`` distinct insertions are
   evaluated exactly and the ``starts`` best polished by step 4. A second
   track grows on ``d`` of near-optimal play alone (it credits rows that lead
   to positions the current table never reaches) and is polished exactly.
   The best of these and the old table is kept.
4. Local search by exact evaluation: move one band edge by ``step`` (then by
   1, 2 or ``step``), change one hold by 1 or 2 (or to "roll to the goal"),
   swap two adjacent rows, delete a row; take the best improving neighbour
   until none improves. Then each row in turn is removed and the best
   insertion put back and polished, kept if it is better.
5. Rows that change no decision are dropped and the final cost is computed by
   :func:`~stratagem.games.pig.solver.evaluate`, which must agree with the
   search's own evaluator.

Every step keeps the best table found, so a larger ``max_rows`` never costs
more, and the same inputs always give the same table.

>>> from stratagem.games.pig.rules import preset
>>> from stratagem.games.pig.solver import solve
>>> result = derive_table(solve(preset("piglet"), use_cache=False), max_rows=2)
>>> print(result.table.to_text(), end="")
me=4-9 opp=0-4 hold=1
me=0-9 opp=0-9 hold=2
>>> round(100 * result.cost, 3)  # points of win probability given away
1.609
"""

from __future__ import annotations

import hashlib
import itertools
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal, TypedDict, Unpack

import numpy as np

from stratagem.core.errors import InvalidRulesError
from stratagem.games.pig import _thumb_kernels as TK
from stratagem.games.pig.cost import Cost as WorkCost
from stratagem.games.pig.cost import check_cost, thumb_cost
from stratagem.games.pig.rules import PigRules
from stratagem.games.pig.solver import KernelRules, PigSolution, evaluate_by_iteration
from stratagem.games.pig.strategies import (
    OptimalAgent,
    Row,
    RuleAgent,
    RuleTable,
    agent_policies,
)

MAX_ROWS = 16
"""Most rows a derived table may have: each row costs more search than the last (eight
rows take 45-400 s on two cores), and past a dozen a row gains hundredths of a point."""
IMPROVEMENT = 1e-13
"""A change counts as an improvement only when it gains more than this."""

AGREEMENT = 1e-9
"""The search kernel and :func:`evaluate` must agree to this on the final table."""

Role = Literal["both", "first", "second"]
"""Which games a table is made for: all (a coin toss decides who starts), or only
those where it moves first or second (with a catch-up turn the roles differ)."""

ROLE_WEIGHTS: dict[str, tuple[float, float]] = {
    "both": (0.5, 0.5),
    "first": (1.0, 0.0),
    "second": (0.0, 1.0),
}

Rect = tuple[int, int, int, int, int]
"""``(me_lo, me_hi, opp_lo, opp_hi, hold)``: one row that is not the catch-all."""


@dataclass(frozen=True)
class _Table:
    """Rows checked in order, then the catch-all ``default`` hold."""

    rects: tuple[Rect, ...]
    default: int

    @property
    def num_rows(self) -> int:
        return len(self.rects) + 1


class _CostsByRole:
    """The win probability a strategy gives away against the optimum, by who moves first
    (from ``p_first``, ``p_second`` and ``p_optimal``)."""

    p_first: float
    p_second: float
    p_optimal: float

    @property
    def cost_first(self) -> float:
        """Win probability given away when the strategy moves first."""
        return self.p_optimal - self.p_first

    @property
    def cost_second(self) -> float:
        """Win probability given away when the optimum moves first."""
        return (1.0 - self.p_optimal) - self.p_second


@dataclass(frozen=True)
class ThumbResult(_CostsByRole):
    """A rule table and its exact cost against the optimal player.

    ``p_first``/``p_second``: the table's chance to beat the optimum when it
    moves first/second; ``p_optimal``: P*(0, 0, 0), the starter's chance when
    both play optimally. ``evaluations``: distinct tables evaluated exactly.
    """

    table: RuleTable
    cost: float
    p_coin: float
    p_first: float
    p_second: float
    p_optimal: float
    evaluations: int
    seconds: float
    max_rows: int
    role: Role = "both"

    @property
    def objective(self) -> float:
        """What the search minimised: ``cost``, or the cost in the one role it was made for."""
        if self.role == "first":
            return self.cost_first
        if self.role == "second":
            return self.cost_second
        return self.cost

    def to_dict(self) -> dict[str, Any]:
        """Plain data for ``--json``."""
        return {
            "rules": self.table.rules.describe(),
            "max_rows": self.max_rows,
            "role": self.role,
            "rows": [str(row) for row in self.table.rows],
            "cost": self.cost,
            "cost_first": self.cost_first,
            "cost_second": self.cost_second,
            "p_coin": self.p_coin,
            "p_first": self.p_first,
            "p_second": self.p_second,
            "p_optimal": self.p_optimal,
            "evaluations": self.evaluations,
            "seconds": self.seconds,
        }


@dataclass(frozen=True)
class Cost(_CostsByRole):
    """Exact win probabilities of one fixed strategy against the optimum."""

    p_first: float
    p_second: float
    p_optimal: float

    @property
    def p_coin(self) -> float:
        return 0.5 * (self.p_first + self.p_second)

    @property
    def cost(self) -> float:
        """``0.5 - p_coin``: the win probability given away on a coin toss."""
        return 0.5 - self.p_coin


def cost_against_optimal(solution: PigSolution, agent: RuleAgent) -> Cost:
    """The agent's exact cost against the optimal player, by :func:`evaluate`.

    >>> from stratagem.games.pig.rules import preset
    >>> from stratagem.games.pig.solver import solve
    >>> from stratagem.games.pig.strategies import HoldAt
    >>> sol = solve(preset("piglet"), use_cache=False)
    >>> round(cost_against_optimal(sol, HoldAt(sol.rules, 2)).cost, 4)
    0.026
    """
    ev = evaluate_by_iteration(
        solution.rules, agent.policy(), agent_policies(OptimalAgent(solution))
    )
    return Cost(ev.a_first, ev.b_first, solution.p_start)


class _Search:
    """Exact evaluation (memoised, batched), occupancies and turn losses for one solution."""

    def __init__(self, solution: PigSolution, role: Role = "both") -> None:
        if role not in ROLE_WEIGHTS:
            raise InvalidRulesError(f"role must be one of {', '.join(ROLE_WEIGHTS)}, got {role!r}")
        self.role: Role = role
        self.role_weights = ROLE_WEIGHTS[role]
        rules = solution.rules
        self.solution = solution
        self.rules = rules
        g = rules.goal
        self.goal = g
        self.kernel = KernelRules.build(rules)
        first = solution.policy(True)
        second = solution.policy(False) if rules.catch_up_turn else first
        self.first_roll, self.first_thresh = first.roll, first.thresh
        self.second_roll, self.second_thresh = second.roll, second.thresh
        # Thresholds at or above goal - me all mean "roll to the goal".
        self.cap = (g - np.arange(g, dtype=np.int64))[:, None]
        self.memo: dict[bytes, tuple[float, float]] = {}
        self._losses: tuple[np.ndarray, np.ndarray] | None = None
        self._reference: tuple[np.ndarray, np.ndarray] | None = None
        self._reference_weights: np.ndarray | None = None

    # -- exact evaluation -------------------------------------------------
    def grid(self, table: _Table) -> np.ndarray:
        g = self.goal
        grid = np.full((g, g), table.default, dtype=np.int64)
        for a, b, c, d, hold in reversed(table.rects):
            grid[a : b + 1, c : d + 1] = hold
        return grid

    def owner(self, table: _Table) -> np.ndarray:
        """Index of the row that decides each (me, opp); the catch-all is ``len(rects)``."""
        g = self.goal
        own = np.full((g, g), len(table.rects), dtype=np.int64)
        for r in range(len(table.rects) - 1, -1, -1):
            a, b, c, d, _ = table.rects[r]
            own[a : b + 1, c : d + 1] = r
        return own

    def _key(self, grid: np.ndarray) -> bytes:
        # the effective decisions: thresholds past goal - me all mean "roll to the goal"
        return hashlib.blake2b(np.minimum(grid, self.cap).tobytes(), digest_size=20).digest()

    def win_probabilities(self, grids: Sequence[np.ndarray]) -> list[tuple[float, float]]:
        """(p_first, p_second) of each hold grid against the optimum."""
        keys = [self._key(grid) for grid in grids]
        todo: dict[bytes, np.ndarray] = {}
        for key, grid in zip(keys, grids):
            if key not in self.memo and key not in todo:
                todo[key] = np.minimum(grid, self.cap)
        if todo:
            stack = np.ascontiguousarray(np.stack(list(todo.values())))
            out = np.empty((len(todo), 2))
            TK.duel_batch(
                stack, self.first_roll, self.first_thresh, self.second_roll,
                self.second_thresh, self.role_weights[0] > 0, self.role_weights[1] > 0,
                self.kernel, out,
            )  # fmt: skip
            for key, (p1, p2) in zip(todo, out):
                self.memo[key] = (float(p1), float(p2))
        return [self.memo[key] for key in keys]

    def costs(self, tables: Sequence[_Table]) -> list[float]:
        """The objective: win probability given away in the role(s) the search is for."""
        probs = self.win_probabilities([self.grid(t) for t in tables])
        w1, w2 = self.role_weights
        p_opt = self.solution.p_start
        out = []
        for p1, p2 in probs:
            cost = 0.0
            if w1 > 0:
                cost += w1 * (p_opt - p1)
            if w2 > 0:
                cost += w2 * ((1.0 - p_opt) - p2)
            out.append(cost)
        return out

    # -- the surrogate ----------------------------------------------------
    def losses(self) -> tuple[np.ndarray, np.ndarray]:
        """``loss[t - 1, i, j]`` of one "hold at t" turn, moving first / second."""
        if self._losses is None:
            sol, r, g = self.solution, self.rules, self.goal

            def one(table: np.ndarray, other: np.ndarray, starter: bool) -> np.ndarray:
                out = np.empty((g, g, g))
                TK.turn_losses(table, other, self.kernel, starter, out)
                return out

            first = one(sol.first, sol.second, r.catch_up_turn)
            second = one(sol.second, sol.first, False) if r.catch_up_turn else first
            self._losses = (first, second)
        return self._losses

    def occupancies(self, grid: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Expected turns the table starts at each (me, opp), moving first / second."""
        g = self.goal
        grid = np.ascontiguousarray(np.minimum(grid, self.cap))
        out = []
        for starter, roll, thresh in (
            (True, self.second_roll, self.second_thresh),
            (False, self.first_roll, self.first_thresh),
        ):
            occ = np.zeros((g, g))
            TK.occupancy(grid, roll, thresh, starter, self.kernel, occ)
            out.append(occ)
        return out[0], out[1]

    def reference_occupancies(self) -> tuple[np.ndarray, np.ndarray]:
        """Occupancies of the ideal threshold policy: on every (me, opp) the hold that
        loses least against optimal play (one grid per role; near-optimal play)."""
        if self._reference is None:
            loss_first, loss_second = self.losses()
            first, _ = self.occupancies(np.argmin(loss_first, axis=0) + 1)
            _, second = self.occupancies(np.argmin(loss_second, axis=0) + 1)
            self._reference = (first, second)
        return self._reference

    def surrogate(self, tables: Sequence[_Table]) -> list[float]:
        """The reference surrogate: each position's turn loss weighted by how often
        near-optimal play starts a turn there (cheap; no evaluation)."""
        if self._reference_weights is None:
            self._reference_weights = self.weights(self.grid(_Table((), 1)), reference=True)[0]
        w = self._reference_weights
        g = self.goal
        ii, jj = np.indices((g, g))
        return [float(w[np.minimum(self.grid(t), self.cap) - 1, ii, jj].sum()) for t in tables]

    def weights(self, grid: np.ndarray, reference: bool = False) -> tuple[np.ndarray, np.ndarray]:
        """``w[t - 1, i, j]``: the surrogate cost of holding at t on (i, j) with the
        occupancy of ``grid`` (exact for ``grid`` itself), or with the reference
        occupancy (which sees the positions good play reaches), and where that goes."""
        if reference:
            occ_first, occ_second = self.reference_occupancies()
        else:
            occ_first, occ_second = self.occupancies(grid)
        loss_first, loss_second = self.losses()
        w1, w2 = self.role_weights
        occ_first, occ_second = w1 * occ_first, w2 * occ_second
        w = occ_first[None] * loss_first + occ_second[None] * loss_second
        return w, (occ_first > 0.0) | (occ_second > 0.0)


def _bands(goal: int, step: int) -> tuple[np.ndarray, np.ndarray]:
    """All bands ``lo..hi`` whose edges lie on multiples of ``step``."""
    starts = list(range(0, goal, step))
    ends = [s - 1 for s in starts[1:]] + [goal - 1]
    lo, hi = zip(*[(a, b) for a in starts for b in ends if a <= b])
    return np.array(lo, dtype=np.int64), np.array(hi, dtype=np.int64)


def _ranked_insertions(
    search: _Search, table: _Table, step: int, reference: bool
) -> tuple[Iterator[_Table], np.ndarray]:
    """Tables with one row added, best first by one surrogate, and where it looks."""
    g = search.goal
    grid = search.grid(table)
    w, visited = search.weights(grid, reference)
    ii, jj = np.indices((g, g))
    delta = w - w[np.minimum(grid, search.cap) - 1, ii, jj][None]
    owner = search.owner(table)
    lo, hi = _bands(g, step)
    a, b = lo[:, None], hi[:, None] + 1
    c, d = lo[None, :], hi[None, :] + 1
    gains, fields = [], []
    for pos in range(len(table.rects) + 1):
        masked = delta * (owner >= pos)[None]
        prefix = np.zeros((g, g + 1, g + 1))
        prefix[:, 1:, 1:] = masked.cumsum(axis=1).cumsum(axis=2)
        sums = prefix[:, b, d] - prefix[:, a, d] - prefix[:, b, c] + prefix[:, a, c]
        hold = np.argmin(sums, axis=0)  # sums[t - 1, me band, opp band]; smallest t on ties
        gain = np.take_along_axis(sums, hold[None], axis=0)[0]
        bm, bo = np.indices(gain.shape)
        gains.append(gain.ravel())
        fields.append(
            np.stack([np.full(gain.size, pos), bm.ravel(), bo.ravel(), hold.ravel() + 1], axis=1)
        )
    gain_all = np.concatenate(gains)
    field_all = np.concatenate(fields)
    order = np.argsort(gain_all, kind="stable")

    def ranked() -> Iterator[_Table]:
        for f in order:
            pos, bm_, bo_, hold_ = (int(x) for x in field_all[f])
            rect: Rect = (int(lo[bm_]), int(hi[bm_]), int(lo[bo_]), int(hi[bo_]), hold_)
            yield _Table((*table.rects[:pos], rect, *table.rects[pos:]), table.default)

    return ranked(), visited


def _insertions(search: _Search, table: _Table, step: int, count: int) -> list[_Table]:
    """Up to ``count`` tables with one row added, the surrogate's favourites first.

    A candidate that makes the same decisions as the table, or as an earlier
    candidate, on every position the table reaches is skipped: it differs only
    where the surrogate sees nothing.
    """
    ranked, visited = _ranked_insertions(search, table, step, reference=False)

    def signature(t: _Table) -> bytes:
        return np.where(visited, np.minimum(search.grid(t), search.cap), 0).tobytes()

    seen = {signature(table)}
    out: list[_Table] = []
    for trial in itertools.islice(ranked, 50 * count):
        sig = signature(trial)
        if sig not in seen:
            seen.add(sig)
            out.append(trial)
            if len(out) == count:
                break
    return out


def _neighbours(table: _Table, goal: int, moves: Sequence[int]) -> Iterable[_Table]:
    """Tables one change away: a band edge moved by one of ``moves``, a hold changed by 1
    or 2 (or to the goal), two adjacent rows swapped, a row deleted."""
    rects, default = table.rects, table.default
    for r, rect in enumerate(rects):
        for edge in range(4):
            for move in moves:
                for sign in (-1, 1):
                    moved = list(rect)
                    moved[edge] = min(max(moved[edge] + sign * move, 0), goal - 1)
                    if moved[0] > moved[1] or moved[2] > moved[3] or moved == list(rect):
                        continue
                    new_rect: Rect = (moved[0], moved[1], moved[2], moved[3], moved[4])
                    yield _Table((*rects[:r], new_rect, *rects[r + 1 :]), default)
        for hold in (rect[4] - 2, rect[4] - 1, rect[4] + 1, rect[4] + 2, goal):
            if 1 <= hold <= goal and hold != rect[4]:
                yield _Table((*rects[:r], (*rect[:4], hold), *rects[r + 1 :]), default)
        yield _Table((*rects[:r], *rects[r + 1 :]), default)
        if r + 1 < len(rects):
            yield _Table((*rects[:r], rects[r + 1], rect, *rects[r + 2 :]), default)
    for hold in (default - 2, default - 1, default + 1, default + 2, goal):
        if 1 <= hold <= goal and hold != default:
            yield _Table(rects, hold)


def _local_search(
    search: _Search,
    table: _Table,
    cost: float,
    step: int,
    objective: Callable[[Sequence[_Table]], list[float]] | None = None,
) -> tuple[_Table, float]:
    """Best-improvement descent (exact costs unless told otherwise): coarse edge moves
    first, then fine ones."""
    objective = objective or search.costs
    for moves in ((step,), tuple(sorted({1, 2, step}))):
        while True:
            candidates = list(dict.fromkeys(_neighbours(table, search.goal, moves)))
            if not candidates:
                break
            costs = objective(candidates)
            i = int(np.argmin(costs))
            if costs[i] < cost - IMPROVEMENT:
                table, cost = candidates[i], costs[i]
            else:
                break
    return table, cost


def _grow(
    search: _Search, table: _Table, cost: float, step: int, count: int, starts: int
) -> tuple[_Table, float]:
    """Insert the surrogate's favourite rows, polish the ``starts`` best, keep the best."""
    candidates = _insertions(search, table, step, count)
    if not candidates:
        return table, cost
    costs = search.costs(candidates)
    order = np.argsort(costs, kind="stable")[:starts]
    best, best_cost = table, cost
    for i in order:
        trial, trial_cost = _local_search(search, candidates[i], costs[i], step)
        if trial_cost < best_cost - IMPROVEMENT:
            best, best_cost = trial, trial_cost
    return best, best_cost


def _grow_reference(search: _Search, table: _Table, step: int) -> _Table:
    """Add the row the reference surrogate likes best, then descend on the surrogate."""
    ranked, _ = _ranked_insertions(search, table, step, reference=True)
    trial = next(ranked, None)
    if trial is None:
        return table
    cost = search.surrogate([trial])[0]
    return _local_search(search, trial, cost, step, search.surrogate)[0]


def _reseat(
    search: _Search, table: _Table, cost: float, step: int, count: int, starts: int
) -> tuple[_Table, float]:
    """Take each row out and put the best one back (anywhere), while that helps."""
    improved = True
    while improved:
        improved = False
        for r in range(len(table.rects)):
            if r >= len(table.rects):
                break
            without = _Table((*table.rects[:r], *table.rects[r + 1 :]), table.default)
            base_cost = search.costs([without])[0]
            trial, trial_cost = _grow(search, without, base_cost, step, count, starts)
            if trial_cost < cost - IMPROVEMENT:
                table, cost, improved = trial, trial_cost, True
    return table, cost


def _tidy(search: _Search, table: _Table) -> _Table:
    """The same decisions, said simply: rows whose removal changes nothing are dropped,
    and a hold no score in its band can reach before the goal is written as the goal."""
    key = search._key(search.grid(table))
    r = 0
    while r < len(table.rects):
        without = _Table((*table.rects[:r], *table.rects[r + 1 :]), table.default)
        if search._key(search.grid(without)) == key:
            table = without
        else:
            r += 1
    g = search.goal
    rects = tuple((a, b, c, d, g if hold >= g - a else hold) for a, b, c, d, hold in table.rects)
    return _Table(rects, table.default)


def check_thumb(rules: PigRules, max_rows: int) -> WorkCost:
    """The estimated cost of deriving a table of ``max_rows`` rows for ``rules``; refused
    (:class:`~stratagem.games.pig.cost.WorkTooLargeError`) if it is more than an hour or
    than the free memory. Callers ask before solving, so a refusal costs nothing."""
    estimate = thumb_cost(rules, max_rows)
    check_cost(
        estimate,
        f"deriving a {max_rows}-row rule table for {rules.describe()}",
        hint="ask for fewer rows (--max-rows), or choose a smaller goal",
    )
    return estimate


def derive_tables(
    solution: PigSolution,
    max_rows: int,
    role: Role = "both",
    step: int = 5,
    candidates: int = 96,
    starts: int = 6,
    progress: Callable[[ThumbResult], None] | None = None,
) -> list[ThumbResult]:
    """The best tables found with at most 1, 2, ..., ``max_rows`` rows (each builds on the last).

    ``role``: minimise the cost on a coin toss (``"both"``), or only as the
    player who moves first or second (with a catch-up turn the two roles want
    different play, and a table that knows its role loses much less).

    ``step``: band edges of new rows lie on multiples of it before they are
    refined one point at a time. ``candidates``: rows per insertion that are
    evaluated exactly; ``starts``: how many of the best are polished by local
    search. ``progress`` is called with each result as soon as it is found.
    """
    if isinstance(max_rows, bool) or not isinstance(max_rows, int) or not 1 <= max_rows <= MAX_ROWS:
        raise InvalidRulesError(f"max_rows must be a whole number 1..{MAX_ROWS}, got {max_rows!r}")
    if isinstance(step, bool) or not isinstance(step, int) or step < 1:
        raise InvalidRulesError(f"step must be a whole number >= 1, got {step!r}")
    if candidates < 1 or starts < 1:
        raise InvalidRulesError(
            f"candidates and starts must be >= 1, got {candidates} and {starts}"
        )
    check_thumb(solution.rules, max_rows)
    start = time.perf_counter()
    search = _Search(solution, role)
    g = solution.rules.goal
    singles = [_Table((), hold) for hold in range(1, g + 1)]
    costs = search.costs(singles)
    i = int(np.argmin(costs))
    table, cost = singles[i], costs[i]
    results: list[ThumbResult] = []

    def emit(result: ThumbResult) -> None:
        results.append(result)
        if progress is not None:
            progress(result)

    emit(_finish(search, table, 1, start))
    reference = table  # the track that grows on the reference surrogate alone
    for rows in range(2, max_rows + 1):
        before = (table, reference)
        tries = []
        if table.num_rows < rows:
            tries.append(_grow(search, table, cost, step, candidates, starts))
        if reference.num_rows < rows:
            reference = _grow_reference(search, reference, step)
            seed_cost = search.costs([reference])[0]
            tries.append(_local_search(search, reference, seed_cost, step))
        for trial, trial_cost in tries:
            if trial_cost < cost - IMPROVEMENT and trial.num_rows <= rows:
                table, cost = trial, trial_cost
        if tries and table.num_rows == rows:
            table, cost = _reseat(search, table, cost, step, candidates, starts)
        if (table, reference) == before:
            # neither track could add a row: every further round would repeat this one
            last = results[-1]
            results.extend(replace(last, max_rows=k) for k in range(rows, max_rows + 1))
            break
        emit(_finish(search, table, rows, start))
    return results


class SearchOptions(TypedDict, total=False):
    """How :func:`derive_tables` searches (its keyword arguments, with its defaults)."""

    role: Role
    step: int
    candidates: int
    starts: int


def derive_table(
    solution: PigSolution, max_rows: int, **options: Unpack[SearchOptions]
) -> ThumbResult:
    """The least costly rule table found with at most ``max_rows`` rows (the search's
    ``options`` are :func:`derive_tables`').

    Its cost is computed by :func:`~stratagem.games.pig.solver.evaluate`
    (independently of the search's own evaluator). See the module docstring
    for the search.
    """
    return derive_tables(solution, max_rows, **options)[-1]


def _finish(search: _Search, table: _Table, max_rows: int, start: float) -> ThumbResult:
    table = _tidy(search, table)
    rules, g = search.rules, search.goal
    rows = [Row((a, b), (c, d), hold) for a, b, c, d, hold in table.rects]
    rows.append(Row((0, g - 1), (0, g - 1), table.default))
    rule_table = RuleTable(rules, rows, name=f"thumb-{max_rows}")
    exact = cost_against_optimal(search.solution, rule_table)
    p1, p2 = search.win_probabilities([search.grid(table)])[0]
    # a role the search did not need is NaN (and then not compared)
    if abs(p1 - exact.p_first) > AGREEMENT or abs(p2 - exact.p_second) > AGREEMENT:
        raise AssertionError(
            f"search evaluator ({p1}, {p2}) disagrees with evaluate "
            f"({exact.p_first}, {exact.p_second})"
        )
    return ThumbResult(
        rule_table, exact.cost, exact.p_coin, exact.p_first, exact.p_second, exact.p_optimal,
        len(search.memo), time.perf_counter() - start, max_rows, search.role,
    )  # fmt: skip


def pair_cost(solution: PigSolution, first: RuleAgent, second: RuleAgent) -> Cost:
    """Exact cost of playing ``first`` when moving first and ``second`` otherwise.

    >>> from stratagem.games.pig.rules import preset
    >>> from stratagem.games.pig.solver import solve
    >>> from stratagem.games.pig.strategies import HoldAt
    >>> sol = solve(preset("piglet"), use_cache=False)
    >>> pair = pair_cost(sol, HoldAt(sol.rules, 10), HoldAt(sol.rules, 10))
    >>> pair == cost_against_optimal(sol, HoldAt(sol.rules, 10))
    True
    """
    opt = agent_policies(OptimalAgent(solution))
    ev = evaluate_by_iteration(solution.rules, (first.policy(), second.policy()), opt)
    return Cost(ev.a_first, ev.b_first, solution.p_start)


def hold_at_costs(solution: PigSolution) -> dict[int, Cost]:
    """The exact cost of "hold at N" against the optimum for every N in 1..goal.

    >>> from stratagem.games.pig.rules import preset
    >>> from stratagem.games.pig.solver import solve
    >>> costs = hold_at_costs(solve(preset("piglet"), use_cache=False))
    >>> min(costs, key=lambda n: costs[n].cost)
    2
    """
    search = _Search(solution)
    g = solution.rules.goal
    holds = list(range(1, g + 1))
    probs = search.win_probabilities([np.full((g, g), n, dtype=np.int64) for n in holds])
    return {n: Cost(p1, p2, solution.p_start) for n, (p1, p2) in zip(holds, probs)}


def _describe_hold(row: Row, goal: int) -> str:
    if row.hold >= goal - row.me[0]:
        return "roll to the goal"
    return f"hold at {row.hold}"


def _band(band: tuple[int, int], goal: int) -> str:
    lo, hi = band
    if lo == 0 and hi == goal - 1:
        return "any"
    if lo == 0:
        return f"<= {hi}"
    if hi == goal - 1:
        return f">= {lo}"
    return f"{lo}-{hi}" if lo != hi else f"{lo}"


def format_table(result: ThumbResult) -> str:
    """The table for people, its rows as a file for ``table:FILE``, and its cost.

    >>> from stratagem.games.pig.rules import preset
    >>> from stratagem.games.pig.solver import solve
    >>> text = format_table(derive_table(solve(preset("coin-3"), use_cache=False), 1))
    >>> "me=0-2 opp=0-2 hold=" in text
    True
    """
    rules = result.table.rules
    g = rules.goal
    made_for = {
        "both": "",
        "first": ", for the player who moves first",
        "second": ", for the player who moves second",
    }[result.role]
    lines = [
        f"{rules.describe()}: rule table of at most {result.max_rows} rows{made_for} "
        f"(the first matching row decides; reaching the goal always holds)",
        "",
        f"{'#':>2}  {'my score':<10} {'their score':<12} then",
    ]
    for n, row in enumerate(result.table.rows, start=1):
        last = n == len(result.table.rows)
        me = "otherwise" if last else _band(row.me, g)
        opp = "" if last else _band(row.opp, g)
        lines.append(f"{n:>2}  {me:<10} {opp:<12} {_describe_hold(row, g)}")
    lines += [
        "",
        "as a table file (stratagem pig ... table:FILE):",
        *("  " + str(row) for row in result.table.rows),
        "",
        f"cost against the optimal player: {100 * result.cost:.3f} points of win probability "
        f"(wins {100 * result.p_coin:.3f}% on a coin toss)",
        f"  moving first:  wins {100 * result.p_first:.3f}% (optimal {100 * result.p_optimal:.3f}%,"
        f" cost {100 * result.cost_first:.3f})",
        f"  moving second: wins {100 * result.p_second:.3f}% "
        f"(optimal {100 * (1 - result.p_optimal):.3f}%, cost {100 * result.cost_second:.3f})",
        f"search: {result.evaluations} tables evaluated exactly in {result.seconds:.1f} s",
    ]
    return "\n".join(lines) + "\n"
