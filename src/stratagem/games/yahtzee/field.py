"""Yahtzee for 3-4 players in compiled code: the win-seeking player against a field.

The win-seeking player of :mod:`.match` plays here against two or three others. At the
start of each of its turns it knows every card; each way its turn can end (a box and its
points) is priced by its expected *share of the win* (a tie at the top among k + 1
players gives each 1/(k + 1)) when every player plays the expected-score optimum
afterwards: its own remaining score from the state that follows, and each opponent's
final score from that opponent's current card, independently, all from the optimal
remaining-score distributions (:func:`.match.optimal_remaining`). The keep-and-reroll
recursion is the solver's (kernels :mod:`._field_kernels`).

A *study* (:func:`field_study`) plays deals of n games: in game r of a deal the
win-seeking player sits in seat r and the others play the optimum, every seat throwing
from the deal's own dice stream for that seat. With every player on the optimum the seats
would share the win equally (1/n each, the games being symmetric in expectation), so the
win-seeker's share above 1/n is its edge.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from stratagem.core.errors import InvalidStateError
from stratagem.core.lazy import LazyModule
from stratagem.core.stats import Summary, mean_ci
from stratagem.games.yahtzee import policy_ids as P
from stratagem.games.yahtzee.distribution import RemainingDistributions
from stratagem.games.yahtzee.match import Match, optimal_remaining, player_id
from stratagem.games.yahtzee.solver import Solution

FK = LazyModule("stratagem.games.yahtzee._field_kernels")

MAX_SEATS = 4


def seat_streams(seed: int, games: int, seats: int) -> np.ndarray:
    """Independent SplitMix64 starting states: one dice stream per game and seat."""
    ss = np.random.SeedSequence([seed, seats])
    return ss.generate_state(seats * games, dtype=np.uint64).reshape(games, seats)


def field_win_table(
    tables: RemainingDistributions, cards: Sequence[Sequence[int]], me: int
) -> np.ndarray:
    """fw[x]: the expected share of the win of player ``me`` finishing on x points, every
    other card ``(mask, upper, flag, total)`` finishing by its optimal remaining-score
    distribution (independently), a tie at the top shared. With one opponent it is
    :func:`.match.opponent_win_table`; the arena's ``win`` agent can price 3-4 player
    turns with it (:class:`.winning.ChanceAdvisor.advise_with` takes any such table)."""
    rows = np.array([[int(c[0]), min(int(c[1]), tables.rules.upper_bonus_threshold),
                      int(c[2]), int(c[3])] for c in cards], dtype=np.int64)  # fmt: skip
    if not 2 <= len(rows) <= MAX_SEATS or not 0 <= me < len(rows):
        raise InvalidStateError(f"a field of 2 to {MAX_SEATS} cards and a seat among them")
    ids = [int(tables.sid[m, u, f]) for i, (m, u, f, _t) in enumerate(rows) if i != me]
    if min(ids) < 0:
        raise InvalidStateError("an opponent's card is not a reachable turn-start state")
    tables.check_states(ids)
    fw = np.empty(P.FW_LEN)
    n = len(rows)
    FK.field_table(rows, me, *tables.kernel_tables, fw, np.empty((n, P.FW_LEN)),
                   np.empty((n, P.FW_LEN)), np.empty(n + 1))  # fmt: skip
    return fw


def field_totals(
    solution: Solution, players: Sequence[str], rng: np.ndarray, policy: np.ndarray | None = None
) -> np.ndarray:
    """Final totals ``[g, seat]`` of ``len(rng)`` games; ``policy[g, seat]`` (player ids)
    defaults to ``players`` in every game; ``rng[g, seat]`` the dice streams."""
    seats = len(players)
    if not 2 <= seats <= MAX_SEATS:
        raise InvalidStateError(f"a field game has 2 to {MAX_SEATS} players, not {seats}")
    games = len(rng)
    if policy is None:
        policy = np.tile([player_id(p) for p in players], (games, 1))
    if policy.shape != (games, seats) or rng.shape != (games, seats):
        raise InvalidStateError("policy and dice streams must be [games, seats]")
    match = Match(solution)
    tabs = match.tables.kernel_tables
    cards = np.zeros((games, seats, 4), dtype=np.int64)
    turns = np.zeros((games, seats), dtype=np.int64)
    FK.play_field_rounds(cards, rng.copy(), np.ascontiguousarray(policy, dtype=np.int64), 0,
                         solution.rules.num_categories, solution.values, tabs,
                         match.kernel_rules, turns)  # fmt: skip
    totals: np.ndarray = cards[:, :, 3].copy()
    return totals


def shares(totals: np.ndarray) -> np.ndarray:
    """Each seat's share of the win, game by game (a tie at the top is shared)."""
    best = totals == totals.max(axis=1, keepdims=True)
    out: np.ndarray = best / best.sum(axis=1, keepdims=True)
    return out


@dataclass(frozen=True)
class FieldStudy:
    """The win-seeking player against ``seats - 1`` optimal players, ``deals`` deals."""

    rules: str
    seats: int
    deals: int
    seed: int
    share: np.ndarray  # [deal, r]: the win-seeker's share in seat r
    points: np.ndarray  # [deal, r]: its final score in seat r
    field_points: np.ndarray  # [deal, r]: the mean final score of the optimal players
    seconds: float

    @property
    def games(self) -> int:
        return self.deals * self.seats

    def win_share(self) -> Summary:
        """The win-seeker's share (ties shared), 95% interval over the independent deals."""
        return mean_ci(self.share.mean(axis=1), bounds=(0.0, 1.0))

    def seat_share(self, r: int) -> Summary:
        return mean_ci(self.share[:, r], bounds=(0.0, 1.0))

    def summary(self) -> dict[str, object]:
        s = self.win_share()
        pts = mean_ci(self.points.mean(axis=1))
        field = mean_ci(self.field_points.mean(axis=1))
        return {
            "rules": self.rules,
            "players": self.seats,
            "deals": self.deals,
            "games": self.games,
            "seed": self.seed,
            "fair_share": 1.0 / self.seats,
            "win_share": s.mean,
            "ci95": [s.lo, s.hi],
            "edge": s.mean - 1.0 / self.seats,
            "by_seat": [self.seat_share(r).mean for r in range(self.seats)],
            "by_seat_ci95": [
                [self.seat_share(r).lo, self.seat_share(r).hi] for r in range(self.seats)
            ],
            "mean_points_win": pts.mean,
            "mean_points_optimal": field.mean,
            "seconds": self.seconds,
        }


def field_study(
    solution: Solution, seats: int, deals: int, seed: int, batch: int = 2_000
) -> FieldStudy:
    """``deals`` deals of ``seats`` games, the win-seeker rotating through the seats."""
    if not 3 <= seats <= MAX_SEATS:
        raise InvalidStateError(f"a field study has 3 or 4 players, not {seats}")
    if deals < 2:
        raise InvalidStateError("a field study needs at least two deals (for an interval)")
    optimal_remaining(solution)  # built or mapped before the clock starts
    share = np.empty((deals, seats))
    points = np.empty((deals, seats))
    field = np.empty((deals, seats))
    start = time.perf_counter()
    for lo in range(0, deals, batch):
        n = min(batch, deals - lo)
        streams = seat_streams(seed + 1_000_003 * (lo // batch), n, seats)
        rng = np.repeat(streams, seats, axis=0)  # game (i, r): deal i, the win-seeker in r
        policy = np.full((n * seats, seats), P.MATCH_OPTIMAL, dtype=np.int64)
        seat_of = np.tile(np.arange(seats), n)
        policy[np.arange(n * seats), seat_of] = P.MATCH_WIN
        totals = field_totals(solution, ["optimal"] * seats, rng, policy)
        won = shares(totals)
        rows = np.arange(n * seats)
        share[lo : lo + n] = won[rows, seat_of].reshape(n, seats)
        mine = totals[rows, seat_of]
        points[lo : lo + n] = mine.reshape(n, seats)
        field[lo : lo + n] = ((totals.sum(axis=1) - mine) / (seats - 1)).reshape(n, seats)
    return FieldStudy(
        solution.rules.name, seats, deals, seed, share, points, field,
        time.perf_counter() - start,
    )  # fmt: skip
