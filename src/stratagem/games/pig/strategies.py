"""Pig agents: the optimum, rules of thumb, and rule tables read from a file.

Every agent can be turned into a fixed :class:`Policy` for exact evaluation;
spec strings (``optimal``, ``hold:20``, ``keep-pace``, ``table:FILE``) name them
through the registry in :mod:`stratagem.games.pig.spec`. All agents hold as
soon as holding wins (the goal, or above the target in a last catch-up turn)
and, in a last catch-up turn, roll until they are past the target.

>>> from stratagem.games.pig.rules import preset
>>> agent = HoldAt(preset("pig"), 20)
>>> agent.decide(0, 0, 19), agent.decide(0, 0, 20)
('roll', 'hold')
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from stratagem.core.agent import Advice, with_regrets
from stratagem.core.errors import InvalidRulesError, InvalidStateError
from stratagem.core.game import State
from stratagem.games.pig.rules import PigRules
from stratagem.games.pig.solver import KernelRules, PigSolution, Policy
from stratagem.games.pig.state import PigAction, PigState

MAX_HOLD = 100_000
"""Largest number a hold parameter's spec may carry before the rules are known; with the
rules, a threshold must be at most the goal (:func:`check_hold`)."""


def check_hold(rules: PigRules, n: int, what: str) -> None:
    """The one range of a hold threshold, for the CLI, the arena and the page alike:
    1..goal (holding at the goal means rolling until the goal; a larger threshold could
    never be reached and says nothing more). Keep-pace's parameters are not thresholds
    of one turn (its defaults, made for goal 100, must work on every goal) and keep
    their own ranges."""
    if isinstance(n, bool) or not isinstance(n, int) or not 1 <= n <= rules.goal:
        raise InvalidRulesError(
            f"{what} must be 1..{rules.goal} (the goal; {rules.goal} rolls to the goal), got {n}"
        )


class RuleAgent:
    """An agent defined by a hold threshold: hold once the turn total reaches
    ``hold_at(me, opp)`` (or the goal). Subclasses give the threshold."""

    spec = "rule"

    def __init__(self, rules: PigRules) -> None:
        self.rules = rules

    def hold_at(self, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
        raise NotImplementedError

    def decide(self, me: int, opp: int, turn: int, starter: bool = True) -> str:
        if turn == 0:
            return "roll"
        if me + turn >= self.rules.goal:
            return "hold"
        threshold = int(self.hold_at(np.array([me]), np.array([opp]))[0])
        return "hold" if turn >= threshold else "roll"

    def policy(self) -> Policy:
        """The roll table: the threshold of each score pair (goal**2 of them, not one per
        state: at goal 400 that took 8 s), spread over the pair's turn totals."""
        g = self.rules.goal
        me, opp = np.indices((g, g))
        thresholds = self.hold_at(me.ravel(), opp.ravel()).reshape(g, g)
        parts = []
        for i in range(g):
            k = np.arange(g - i)
            parts.append(((k[None, :] == 0) | (k[None, :] < thresholds[i][:, None])).ravel())
        roll = np.concatenate(parts).astype(np.uint8)
        return Policy(roll, np.full((g, g, 1), g, dtype=np.int64))  # hold from the goal

    def act(self, state: State, rng: np.random.Generator) -> PigAction:
        return _act(self, state)


class _Values(Protocol):
    """What advice reads from a solved table: the optimum's or a best reply's."""

    def last_turn_p_win(self, me: int, target: int) -> float: ...

    def action_values(
        self, me: int, opp: int, turn: int, starter: bool = True
    ) -> tuple[float, float | None]: ...


def _advise(values: _Values, state: State) -> list[Advice]:
    """Roll and (when allowed) hold with the mover's chance of winning from ``values``;
    hold first on a tie. The catch-up turn leaves no choice to the other side."""
    if not isinstance(state, PigState) or state.current_player < 0:
        raise InvalidStateError("advice needs a Pig state with a player to move")
    if state.is_last_turn:
        me = state.scores[1] + state.turn_total
        assert state.target is not None
        options = [(PigAction.ROLL, values.last_turn_p_win(me, state.target))]
        if state.turn_total:
            options.append((PigAction.HOLD, 0.0))
        return with_regrets(options)
    me, opp = state.scores[state.player], state.scores[1 - state.player]
    p_roll, p_hold = values.action_values(me, opp, state.turn_total, state.player == 0)
    options = [(PigAction.ROLL, p_roll)]
    if p_hold is not None:
        options.insert(0, (PigAction.HOLD, p_hold))
    return with_regrets(options)


class _Decides(Protocol):
    def decide(self, me: int, opp: int, turn: int, starter: bool = True) -> str: ...


def _act(agent: _Decides, state: State) -> PigAction:
    if not isinstance(state, PigState):
        raise InvalidStateError("a Pig agent needs a PigState")
    if state.is_last_turn:
        return PigAction.ROLL
    me, opp = state.scores[state.player], state.scores[1 - state.player]
    return PigAction[agent.decide(me, opp, state.turn_total, state.player == 0).upper()]


class HoldAt(RuleAgent):
    """Hold at turn total ``n`` (or when the goal is reached)."""

    def __init__(self, rules: PigRules, n: int) -> None:
        super().__init__(rules)
        check_hold(rules, n, "the N of hold:N")
        self.n = n
        self.spec = f"hold:{n}"

    def hold_at(self, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
        return np.full(np.shape(me), self.n, dtype=np.int64)


class KeepPace(RuleAgent):
    """Neller & Presser (2010), "keep pace and end race": if either score is at
    least ``race`` (71), roll to the goal; else hold at ``base + round((j - i) / div)``
    (21 and 8 for goal 100)."""

    def __init__(self, rules: PigRules, base: int = 21, race: int = 71, div: int = 8) -> None:
        super().__init__(rules)
        if div < 1:
            raise InvalidRulesError(f"keep-pace needs div >= 1, got {div}")
        self.base, self.race, self.div = base, race, div
        self.spec = (
            "keep-pace"
            if (base, race, div) == (21, 71, 8)
            else (f"keep-pace:base={base},race={race},div={div}")
        )

    def hold_at(self, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
        # round half away from zero, as a person rounds
        diff = (np.asarray(opp) - np.asarray(me)) / self.div
        rounded = np.sign(diff) * np.floor(np.abs(diff) + 0.5)
        threshold = self.base + rounded.astype(np.int64)
        racing = (np.asarray(me) >= self.race) | (np.asarray(opp) >= self.race)
        return np.where(racing, self.rules.goal, threshold)


@dataclass(frozen=True)
class Row:
    """If my score is in ``me`` and the opponent's in ``opp`` (inclusive), hold at ``hold``."""

    me: tuple[int, int]
    opp: tuple[int, int]
    hold: int

    def __str__(self) -> str:
        return f"me={self.me[0]}-{self.me[1]} opp={self.opp[0]}-{self.opp[1]} hold={self.hold}"


class RuleTable(RuleAgent):
    """A rule table: the first row whose score bands contain the position gives
    the hold threshold. Every position must be covered."""

    def __init__(self, rules: PigRules, rows: Sequence[Row], name: str = "table") -> None:
        super().__init__(rules)
        if not rows:
            raise InvalidRulesError("a rule table needs at least one row")
        self.rows = tuple(rows)
        self.spec = name
        for row in self.rows:
            check_hold(rules, row.hold, f"the hold of row {row}")
        g = rules.goal
        grid = np.full((g, g), -1, dtype=np.int64)
        for row in reversed(self.rows):
            grid[row.me[0] : row.me[1] + 1, row.opp[0] : row.opp[1] + 1] = row.hold
        missing = np.argwhere(grid < 0)
        if len(missing):
            i, j = missing[0]
            raise InvalidRulesError(
                f"no row of the table covers my score {i} against {j} "
                f"({len(missing)} score pairs uncovered)"
            )
        self.grid = grid

    def hold_at(self, me: np.ndarray, opp: np.ndarray) -> np.ndarray:
        held: np.ndarray = self.grid[np.asarray(me), np.asarray(opp)]
        return held

    @classmethod
    def parse(cls, text: str, rules: PigRules, name: str = "table") -> RuleTable:
        """Lines ``me=0-49 opp=0-99 hold=21``; ``#`` starts a comment."""
        rows = []
        pattern = re.compile(r"me=(\d+)-(\d+)\s+opp=(\d+)-(\d+)\s+hold=(\d+)")
        for lineno, raw in enumerate(text.splitlines(), start=1):
            line = raw.split("#", 1)[0].strip()
            if not line:
                continue
            m = pattern.fullmatch(line)
            if not m:
                raise InvalidRulesError(
                    f"{name} line {lineno}: cannot read {raw.strip()!r}; "
                    "write e.g. me=0-49 opp=0-99 hold=21"
                )
            a, b, c, d, hold = map(int, m.groups())
            for lo, hi, who in ((a, b, "me"), (c, d, "opp")):
                if lo > hi or hi >= rules.goal:
                    raise InvalidRulesError(
                        f"{name} line {lineno}: {who}={lo}-{hi} is not a band of "
                        f"0..{rules.goal - 1}"
                    )
            if not 1 <= hold <= rules.goal:
                raise InvalidRulesError(
                    f"{name} line {lineno}: hold must be 1..{rules.goal} (the goal; "
                    f"{rules.goal} rolls to the goal), got {hold}"
                )
            rows.append(Row((a, b), (c, d), hold))
        return cls(rules, rows, name)

    def to_text(self) -> str:
        return "\n".join(str(row) for row in self.rows) + "\n"


class OptimalAgent:
    """Maximises the probability of winning (exact, from the solved table)."""

    spec = "optimal"

    def __init__(self, solution: PigSolution) -> None:
        self.solution = solution
        self.rules = solution.rules

    def decide(self, me: int, opp: int, turn: int, starter: bool = True) -> str:
        return self.solution.best_action(me, opp, turn, starter)

    def policy(self, starter: bool = True) -> Policy:
        return self.solution.policy(starter)

    def act(self, state: State, rng: np.random.Generator) -> PigAction:
        return _act(self, state)

    def advise(self, state: State) -> list[Advice]:
        """Roll and (when allowed) hold with the mover's probability of winning."""
        return _advise(self.solution, state)


def agent_policies(agent: RuleAgent | OptimalAgent) -> Policy | tuple[Policy, Policy]:
    """The agent's fixed policy, or (as starter, as second player) where roles differ."""
    if isinstance(agent, OptimalAgent):
        if agent.rules.catch_up_turn:
            return agent.policy(True), agent.policy(False)
        return agent.policy(True)
    return agent.policy()


@dataclass(frozen=True)
class MatchResult:
    """Simulated games of A against B; A starts the even-numbered games."""

    games: int
    a_wins_first: int
    games_first: int
    a_wins_second: int
    games_second: int
    mean_turns: float
    winner_is_a: np.ndarray = field(default_factory=lambda: np.zeros(0, bool), compare=False)
    """Per game: did A win."""
    a_starts: np.ndarray = field(default_factory=lambda: np.zeros(0, bool), compare=False)
    """Per game: did A start."""

    @property
    def a_wins(self) -> int:
        return self.a_wins_first + self.a_wins_second

    def p_a(self) -> tuple[float, float]:
        """A's win rate with alternating starts (an estimate of the coin-toss value) and its SE.

        NaN where the sample cannot say: the rate needs a game in each role, the
        SE two games in each role.
        """
        if self.games_first < 1 or self.games_second < 1:
            return math.nan, math.nan
        p1 = self.a_wins_first / self.games_first
        p2 = self.a_wins_second / self.games_second
        p = 0.5 * (p1 + p2)
        if self.games_first < 2 or self.games_second < 2:
            return p, math.nan
        var = 0.25 * (p1 * (1 - p1) / self.games_first + p2 * (1 - p2) / self.games_second)
        return p, math.sqrt(var)


def simulate(
    rules: PigRules,
    a: RuleAgent | OptimalAgent,
    b: RuleAgent | OptimalAgent,
    games: int,
    seed: int,
) -> MatchResult:
    """Play ``games`` games of A against B (compiled); same seed, same games.

    A starts games 0, 2, 4, ...; B the others. Each game's dice come from its
    own seed (``numpy.random.SeedSequence(seed)``), so results do not depend
    on the number of threads.
    """
    from stratagem.games.pig import _kernels as K

    if games < 1:
        raise InvalidStateError(f"the number of games must be at least 1, got {games}")
    a_first, a_second = _roles(a)
    b_first, b_second = _roles(b)
    seeds = np.random.SeedSequence(seed).generate_state(games, dtype=np.uint32).astype(np.int64)
    a_starts = np.arange(games) % 2 == 0
    winner_is_a = np.zeros(games, dtype=np.bool_)
    turns = np.zeros(games, dtype=np.int64)
    adds_mask = np.zeros(rules.faces + 1, dtype=np.int64)
    adds_mask[list(rules.adding_faces)] = 1
    a_roles = K.Roles(a_first.roll, a_first.thresh, a_second.roll, a_second.thresh)
    b_roles = K.Roles(b_first.roll, b_first.thresh, b_second.roll, b_second.thresh)
    K.simulate_games(seeds, KernelRules.build(rules), adds_mask, a_roles, b_roles, a_starts,
                     winner_is_a, turns)  # fmt: skip
    return MatchResult(
        games,
        int(winner_is_a[a_starts].sum()),
        int(a_starts.sum()),
        int(winner_is_a[~a_starts].sum()),
        int((~a_starts).sum()),
        float(turns.mean()),
        winner_is_a,
        a_starts,
    )


def _roles(agent: RuleAgent | OptimalAgent) -> tuple[Policy, Policy]:
    policies = agent_policies(agent)
    if isinstance(policies, Policy):
        return policies, policies
    return policies
