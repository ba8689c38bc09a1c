"""Three-player Yahtzee solved exactly on the smallest reduced cards (duel *variants*).

Each player maximises its own share of the win (a tie at the top among k players
gives each 1/k). The state at a turn start is the three cards, in the order of play
from the mover (mover, next, the one after), and two score differences, the mover's
points minus each other player's; its value is the vector of the three players'
shares. Backward induction over levels (turns played, 0 .. 3n - 1 for n boxes), each
turn's keep-and-score decisions solved inside, vectorised over the grid of score
differences (numpy; the grid is every pair of differences in ``-M..M`` for the
variant's highest score M, so a level holds ``triples x (2M + 1)^2 x 3`` values).

Each seat plays by a *mode*: ``max`` (the largest own share; every seat ``max`` is the
subgame-perfect equilibrium, with the duel kernels' tie rule: the first of equal
choices) or ``es`` (the expected-score optimum of the variant's card, the duel
solver's ``es`` policy). ``max`` in one seat and ``es`` in the others is that seat's
best response to the expected-score optimum: the expected-score optimum is a Nash
equilibrium of the three-player game exactly when no seat gains by it.

How it scales: for n boxes there are 3n levels; a level holds the card triples of its
layers (up to ``cards^3`` over the game, against ``cards^2`` for two players) times the
grid, ``(2M + 1)^2`` against about ``2M`` for two players (one difference);
:func:`full_game_size` counts it for a full rule set. Here only cards of one to three
boxes are solved.

>>> r = solve_three(Variant("yahtzee", ("ones",)))
>>> [round(x, 12) for x in r.max_max_max]
[0.333333333333, 0.333333333333, 0.333333333333]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

import numpy as np

from stratagem.core.errors import InvalidRulesError
from stratagem.core.lazy import LazyModule
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee.duel import Cards, Variant, _policy, es_values
from stratagem.games.yahtzee.rules import YahtzeeRules

DUEL = LazyModule("stratagem.games.yahtzee._duel_kernels")

Mode = Literal["max", "es"]
MAX_VALUES = 60_000_000
"""The most values (all levels, three shares each) solved here: about 0.5 GB."""

DESCRIPTION = [
    "Every player maximises its own share of the win (a tie at the top shared equally). "
    "The state at a turn start is the three cards (mover, next, the one after) and the "
    "mover's lead over each of the other two; its value is the vector of the three "
    "shares. Solved by backward induction over the 3n levels (`stratagem.games.yahtzee."
    "duel3`, numpy), each turn's keeps and boxes inside, vectorised over the grid of both "
    "score differences (-M..M each, M the variant's highest score). *max-max-max* is the "
    "equilibrium (each seat its best share, the first of equal choices); *es-es-es* every "
    "seat on the expected-score optimum (1/3 each by symmetry, a check); a seat's "
    "*deviation* is its best response while the other two play the ES optimum. A level "
    "holds card triples x (2M+1)^2 x 3 values, against card pairs x about 2M for two "
    "players: the state grows by a factor of (cards x M) per extra player, so only cards "
    "of one to three boxes are solved here.",
]


@dataclass(frozen=True)
class ThreeResult:
    """Start values of the runs of a variant (each a vector of the three seats' shares)."""

    variant: Variant
    cards: int
    positions: int
    values: int
    es_points: float
    max_max_max: tuple[float, float, float]
    es_es_es: tuple[float, float, float]
    deviation_values: tuple[float, float, float]

    @property
    def deviation_gains(self) -> tuple[float, ...]:
        return tuple(d - e for d, e in zip(self.deviation_values, self.es_es_es, strict=True))

    def summary(self) -> dict[str, object]:
        return {
            "variant": self.variant.name,
            "preset": self.variant.preset,
            "boxes": list(self.variant.boxes),
            "upper_bonus": self.variant.upper_bonus,
            "cards": self.cards,
            "positions": self.positions,
            "values": self.values,
            "es_points": self.es_points,
            "max_max_max": list(self.max_max_max),
            "es_es_es": list(self.es_es_es),
            "deviation_values": list(self.deviation_values),
            "deviation_gains": list(self.deviation_gains),
        }


def filled(seat: int, t: int) -> int:
    """Boxes filled on ``seat``'s card after t turns (seat 0 moves at t = 0, 3, ...)."""
    return max(0, (t - seat + 2) // 3)


class ThreeSolver:
    """Backward induction for one assignment of modes to seats."""

    def __init__(self, variant: Variant, modes: Sequence[Mode]) -> None:
        if len(modes) != 3 or any(m not in ("max", "es") for m in modes):
            raise InvalidRulesError(f"three modes of max/es, not {list(modes)!r}")
        self.variant = variant
        self.modes = tuple(modes)
        self.cards = Cards.build(variant)
        self.M = int(variant.box_max().sum()) + variant.bonus
        G = 2 * self.M + 1
        self.G = G
        d1, d2 = np.meshgrid(np.arange(-self.M, self.M + 1), np.arange(-self.M, self.M + 1),
                             indexing="ij")  # fmt: skip
        self.d1, self.d2 = d1.ravel(), d2.ravel()
        n = variant.num_boxes
        sizes = [len(layer) for layer in self.cards.layers]
        values = 0
        for t in range(3 * n):
            s0, s1, s2 = (filled((t + j) % 3, t) for j in range(3))
            values += sizes[s0] * sizes[s1] * sizes[s2] * G * G * 3
        if values > MAX_VALUES:
            raise InvalidRulesError(
                f"{variant.name} is too large for the three-player solver here: "
                f"{values:,} values (limit {MAX_VALUES:,})"
            )
        self.values = values

    def terminal(self) -> np.ndarray:
        """Shares (mover, next, after) from the final differences."""
        x = np.stack([np.zeros_like(self.d1), -self.d1, -self.d2]).astype(np.float64)
        top = x.max(axis=0)
        best = x == top
        out: np.ndarray = best / best.sum(axis=0)
        return out

    def _successor(self, nxt: np.ndarray, pts: int) -> np.ndarray:
        """The shares (mover, next, after) of the next level's position after the mover
        scores ``pts``: seen from the next mover, the differences are (D2 - D1, -(D1 + pts))
        and its shares are ordered (next, after, mover)."""
        M, G = self.M, self.G
        i1 = np.clip(self.d2 - self.d1 + M, 0, 2 * M)
        i2 = np.clip(-(self.d1 + pts) + M, 0, 2 * M)
        flat = i1 * G + i2
        got = nxt[:, flat]
        return np.stack([got[2], got[0], got[1]])

    def solve(self) -> dict[tuple[int, int, int], np.ndarray]:
        """Level 0's values by card triple (only (0, 0, 0) at level 0)."""
        variant, cards = self.variant, self.cards
        term = self.terminal()
        nxt_level: dict[tuple[int, int, int], np.ndarray] | None = None
        for t in range(3 * variant.num_boxes - 1, -1, -1):
            mode = self.modes[t % 3]
            i, j, k = (filled((t + s) % 3, t) for s in range(3))
            tables = _policy(variant, i) if mode == "es" else None
            level: dict[tuple[int, int, int], np.ndarray] = {}
            for a in range(len(cards.layers[i])):
                policy = tuple(x[a] for x in tables) if tables is not None else None
                for b in range(len(cards.layers[j])):
                    for c in range(len(cards.layers[k])):
                        if nxt_level is None:
                            succ = Successors(self, i, a, lambda a1: term)
                        else:
                            succ = Successors(self, i, a, _lookup(nxt_level, b, c))
                        level[(a, b, c)] = self._turn(succ, policy)
            nxt_level = level
        assert nxt_level is not None
        return nxt_level

    def _turn(self, succ: Successors, policy: tuple[np.ndarray, ...] | None) -> np.ndarray:
        """The start-of-turn shares of one card triple over the grid of differences."""
        value = succ.value
        open_boxes = succ.open_boxes
        E = np.zeros((D.NUM_KEEPS, 3, self.G * self.G))
        for r in range(D.ROLL_START, D.NUM_KEEPS):
            if policy is not None:
                E[r] = value(int(policy[2][r]), r)
                continue
            best = value(open_boxes[0], r)
            for c in open_boxes[1:]:
                v = value(c, r)
                best = np.where(v[0] > best[0], v, best)
            E[r] = best
        for left in (1, 2):
            for keeps in _GROUPS[4::-1]:  # keeps of 4 dice down to 0: the mean of one die more
                E[keeps] = E[D.ADD[keeps]].sum(axis=1) * (1.0 / 6.0)
            if policy is not None:
                table = policy[1] if left == 1 else policy[0]
                chosen = E[table[D.ROLL_START :]]
                E[D.ROLL_START :] = chosen
                continue
            # the kernels' _best_sub: a keep itself first, a sub-keep only when strictly better
            # for the mover; keeps of m dice read those of m - 1 dice, a group at a time
            Mx = np.empty_like(E)
            for keeps, subs in zip(_GROUPS, _SUBS, strict=True):
                best = E[keeps]
                for col in range(subs.shape[1]):
                    valid = subs[:, col] >= 0
                    cand = Mx[np.where(valid, subs[:, col], 0)]
                    better = valid[:, None] & (cand[:, 0] > best[:, 0])
                    best = np.where(better[:, None, :], cand, best)
                Mx[keeps] = best
            E[D.ROLL_START :] = Mx[D.ROLL_START :]
        prob = D.ROLL_PROBABILITY[D.ROLL_START :]
        out: np.ndarray = np.tensordot(prob, E[D.ROLL_START :], axes=1)
        return out


def full_game_size(rules: YahtzeeRules) -> dict[str, float]:
    """The three-player layout for a full rule set: turn-start cards (the solitaire
    solver's reachable states), card triples over all levels (and pairs for two players),
    and values on the grid of both differences in -M..M, three shares each."""
    from stratagem.games.yahtzee.solver import reachable_states
    from stratagem.games.yahtzee.state import highest_final_score

    sizes = [len(layer) for layer in reachable_states(rules)]
    n = rules.num_categories
    triples = sum(
        sizes[filled(t % 3, t)] * sizes[filled((t + 1) % 3, t)] * sizes[filled((t + 2) % 3, t)]
        for t in range(3 * n)
    )
    pairs = sum(sizes[t // 2] * sizes[(t + 1) // 2] for t in range(2 * n))
    grid = (2 * highest_final_score(rules) + 1) ** 2
    return {"cards": float(sum(sizes)), "pairs": float(pairs), "triples": float(triples),
            "values": float(triples) * grid * 3}  # fmt: skip


def _lookup(
    level: dict[tuple[int, int, int], np.ndarray], b: int, c: int
) -> Callable[[int], np.ndarray]:
    """The next level's values of (b, c, a1) for the mover's next card a1."""
    return lambda a1: level[(b, c, a1)]


class Successors:
    """Where the mover's turn can end: its boxes' points and the next level's values."""

    def __init__(
        self, solver: ThreeSolver, layer: int, a: int, nxt: Callable[[int], np.ndarray]
    ) -> None:
        self.solver = solver
        mask, u = (int(x) for x in solver.cards.layers[layer][a])
        self.mask, self.u = mask, u
        self.nxt = nxt
        n = solver.variant.num_boxes
        self.open_boxes = [c for c in range(n) if not (mask >> c) & 1]
        self._memo: dict[tuple[int, int], np.ndarray] = {}

    def value(self, box: int, roll: int) -> np.ndarray:
        """The shares (mover, next, after) after scoring ``roll`` in ``box``."""
        R, cards = self.solver.variant.kernel, self.solver.cards
        pts, nu = DUEL.score_box(self.mask, self.u, box, roll, R.score, R.upper_face, R.ip)
        a1 = int(cards.sid[self.mask | (1 << box), nu])
        key = (int(pts), a1)
        got = self._memo.get(key)
        if got is None:
            got = self.solver._successor(self.nxt(a1), int(pts))
            self._memo[key] = got
        return got


def _groups() -> tuple[list[np.ndarray], list[np.ndarray]]:
    """Keeps by number of dice (0..5) and their sub-keeps (-1 padded)."""
    size = np.array([len(k) for k in D.KEEPS])
    groups = [np.flatnonzero(size == m) for m in range(6)]
    subs = []
    for g in groups:
        width = int(D.SUB_COUNT[g].max()) if len(g) else 0
        table = np.full((len(g), width), -1, dtype=np.int64)
        for row, k in enumerate(g):
            table[row, : D.SUB_COUNT[k]] = D.SUB[k, : D.SUB_COUNT[k]]
        subs.append(table)
    return groups, subs


_GROUPS, _SUBS = _groups()


def start_value(variant: Variant, modes: Sequence[Mode]) -> tuple[tuple[float, ...], int]:
    """The three seats' shares at the start of the game, and the values solved."""
    solver = ThreeSolver(variant, modes)
    level0 = solver.solve()
    v = level0[(0, 0, 0)][:, solver.M * solver.G + solver.M]
    return tuple(float(x) for x in v), solver.values


def solve_three(variant: Variant) -> ThreeResult:
    """Every run of a variant: the equilibrium, ES against itself, each seat's deviation."""
    eq, values = start_value(variant, ("max", "max", "max"))
    es, _ = start_value(variant, ("es", "es", "es"))
    dev = []
    for s in range(3):
        modes: list[Mode] = ["es", "es", "es"]
        modes[s] = "max"
        dev.append(start_value(variant, modes)[0][s])
    cards = Cards.build(variant)
    G = 2 * (int(variant.box_max().sum()) + variant.bonus) + 1
    triples = sum(
        len(cards.layers[filled(t % 3, t)])
        * len(cards.layers[filled((t + 1) % 3, t)])
        * len(cards.layers[filled((t + 2) % 3, t)])
        for t in range(3 * variant.num_boxes)
    )
    return ThreeResult(
        variant, sum(len(x) for x in cards.layers), triples * G * G, values,
        float(es_values(variant)[0, 0, 0]),
        (eq[0], eq[1], eq[2]), (es[0], es[1], es[2]), (dev[0], dev[1], dev[2]),
    )  # fmt: skip
