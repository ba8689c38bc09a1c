"""Two-player Yahtzee in compiled code: the win-seeking player, the risk-taker, matches.

Both players have their own dice and alternate turns for as many rounds as there
are boxes; the higher total wins. Three players are compiled:

``optimal``
    the expected-score optimum (:mod:`.solver`); it ignores the opponent.
``win``
    the win-seeking player. At the start of each of its turns it knows both
    cards. For every way the turn can end (a box and its points) it looks up
    the exact distribution of its own remaining score from the state that
    follows, and the exact distribution of the opponent's remaining score from
    the opponent's current state, both under the optimal strategy
    (:func:`.distribution.remaining_distributions`). The chance of finishing
    ahead (a tie counts half) is then a sum over its own remaining scores
    weighed by the opponent's cumulative distribution. It picks boxes and keeps
    by that chance, with the same keep-and-reroll recursion the solver uses
    for expected points. It is a one-turn improvement of the optimum for the
    objective "win": at each turn it plays the best turn given that both
    players play the optimum afterwards, so it wins at least as often as the
    optimum does against the optimum, and re-plans every turn.
``risk``
    the risk-taker of the comeback study (see docs/results/yahtzee_comeback.md):
    the optimum, except that at each keep decision it may take a keep within
    ``valence`` dice of the optimal keep whose best reachable score this turn
    is strictly higher; when only a Yahtzee can still lift it above the
    opponent's current total, it keeps the most common face.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from stratagem.core.errors import CacheError, InvalidStateError
from stratagem.core.lazy import LazyModule
from stratagem.core.stats import Summary, mean_ci
from stratagem.core.tables import TableCache, TableWriter
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee import one_turn as O
from stratagem.games.yahtzee import policy_ids as P
from stratagem.games.yahtzee.distribution import RemainingDistributions, remaining_distributions
from stratagem.games.yahtzee.solver import KernelRules, Solution, reachable_states

MK = LazyModule("stratagem.games.yahtzee._match_kernels")

PLAYERS = {"optimal": P.MATCH_OPTIMAL, "win": P.MATCH_WIN, "risk": P.MATCH_RISK}
"""The compiled players by name."""

_TABLES: dict[str, RemainingDistributions] = {}
REMAINING_KIND = "yahtzee-remaining"
REMAINING_VERSION = 2


def optimal_remaining(
    solution: Solution,
    cache: TableCache | None = None,
    use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> RemainingDistributions:
    """The optimal policy's remaining-score tables in single precision.

    Built once per rule set, layer by layer straight into the table cache
    (about 1 GB per rule set); a cache hit is a memory map (well under a
    second), and each distribution is checked against its segment's checksum
    when first read. A structurally corrupt file is rebuilt with a warning; a
    changed segment raises :class:`~stratagem.core.errors.CacheError` naming it.
    ``progress(done, total)``: states built so far, during a build (a page's bar).
    """
    key = solution.rules.name
    if key in _TABLES:
        return _TABLES[key]
    if not use_cache:
        table = remaining_distributions(solution, "optimal", dtype=np.float32)
        _TABLES[key] = table
        return table
    ncat = solution.rules.num_categories

    def build(writer: TableWriter) -> None:
        def sink(filled: int, ids: np.ndarray, data: np.ndarray) -> None:
            writer.append("data", data)

        t = remaining_distributions(
            solution, "optimal", dtype=np.float32, sink=sink, keep="last", progress=progress
        )
        # Offsets into the stored data: the layers were appended full card first.
        offsets = np.zeros_like(t.offsets)
        layers = reachable_states(solution.rules, solution.arrays)
        base = 0
        next_id = 0
        for filled in range(ncat, -1, -1):
            ids = np.arange(next_id, next_id + len(layers[filled]))
            next_id += len(ids)
            starts = np.concatenate(([0], np.cumsum(t.lengths[ids])[:-1]))
            offsets[ids] = base + starts
            base += int(t.lengths[ids].sum())
        for name, array in (("sid", t.sid), ("offsets", offsets), ("lows", t.lows),
                            ("lengths", t.lengths)):  # fmt: skip
            writer.put(name, array)

    mapped, _hit = (cache or TableCache()).load_or_build_mapped(
        REMAINING_KIND, solution.rules.fingerprint, REMAINING_VERSION, build,
        meta={"rules": solution.rules.name, "policy": "optimal"},
    )  # fmt: skip
    sid, offsets, lows, lengths = (mapped.array(n) for n in ("sid", "offsets", "lows", "lengths"))
    data = mapped.view("data")
    if sid.shape != solution.values.shape or data.dtype != np.float32:
        raise CacheError(f"the remaining-score table {mapped.path} is for other rules")
    table = RemainingDistributions(
        solution.rules, "optimal", sid, offsets, lows, lengths, data, 0.0, mapped=mapped
    )
    _TABLES[key] = table
    return table


def player_id(name: str) -> int:
    try:
        return PLAYERS[name]
    except KeyError:
        raise InvalidStateError(
            f"unknown two-player Yahtzee player {name!r}; the players are: {', '.join(PLAYERS)}"
        ) from None


def seed_streams(seed: int, games: int) -> np.ndarray:
    """Independent SplitMix64 starting states: one dice stream per game and seat."""
    ss = np.random.SeedSequence(seed)
    return ss.generate_state(2 * games, dtype=np.uint64).reshape(games, 2)


@dataclass
class Board:
    """A batch of two-player games in progress (arrays the kernel updates in place)."""

    cards: np.ndarray  # [g, seat, (mask, upper, flag, total)]
    rng: np.ndarray  # [g, seat] dice streams
    policy: np.ndarray  # [g, seat] player ids
    valence: np.ndarray  # [g, seat] the risk-taker's valence
    round: int = 0
    win_turns: int = 0
    win_seconds: float = 0.0

    @classmethod
    def new(cls, policy: np.ndarray, rng: np.ndarray, valence: np.ndarray | None = None) -> Board:
        n = len(policy)
        return cls(
            np.zeros((n, 2, 4), dtype=np.int64),
            rng.copy(),
            np.ascontiguousarray(policy, dtype=np.int64),
            np.zeros((n, 2), dtype=np.int64) if valence is None else valence.astype(np.int64),
        )

    def subset(self, idx: np.ndarray) -> Board:
        return Board(
            self.cards[idx].copy(), self.rng[idx].copy(), self.policy[idx].copy(),
            self.valence[idx].copy(), self.round,
        )  # fmt: skip

    @property
    def totals(self) -> np.ndarray:
        return self.cards[:, :, 3]


class Match:
    """Plays batches of two-player games under one rule set."""

    def __init__(self, solution: Solution) -> None:
        self.solution = solution

    @cached_property
    def kernel_rules(self) -> KernelRules:
        return self.solution.arrays.kernel

    @cached_property
    def tables(self) -> RemainingDistributions:
        return optimal_remaining(self.solution)

    def play(self, board: Board, rounds: int | None = None) -> Board:
        """Play ``rounds`` more rounds (all that are left by default) in place."""
        ncat = self.solution.rules.num_categories
        last = ncat if rounds is None else min(ncat, board.round + rounds)
        if np.any(board.policy == P.MATCH_WIN):
            tabs = self.tables.kernel_tables
        else:  # not read, but typed as the real tables (one compiled signature)
            tabs = (np.zeros((1, 1, 1), dtype=np.int64), *(np.zeros(1, dtype=np.int64),) * 3,
                    np.zeros(1, dtype=np.float32))  # fmt: skip
        turns = np.zeros((len(board.cards), 2), dtype=np.int64)
        start = time.perf_counter()
        MK.play_rounds(
            board.cards, board.rng, board.policy, board.valence, board.round, last,
            self.solution.values, tabs, self.kernel_rules, turns,
        )  # fmt: skip
        board.win_seconds += time.perf_counter() - start
        board.win_turns += int(turns.sum())
        board.round = last
        return board


@dataclass(frozen=True)
class WinTurn:
    """One turn of the win-seeking player: win chances of every final roll and keep.

    ``W[r]``/``cat[r]``: the best box for final roll r and the chance of winning
    after scoring it there; ``E0[k]``/``E1[k]``: the chance after keeping k with
    one / two rolls left; ``start``: the chance at the start of the turn.
    """

    W: np.ndarray
    E0: np.ndarray
    E1: np.ndarray
    cat: np.ndarray
    start: float


def opponent_win_table(tables: RemainingDistributions, card: Sequence[int]) -> np.ndarray:
    """fw[x] = P(opponent finishes below x) + P(exactly x) / 2, from its card
    ``(mask, upper, flag, total)`` and its optimal remaining-score distribution."""
    mask, upper, flag, total = (int(v) for v in card)
    s = int(tables.sid[mask, min(upper, tables.rules.upper_bonus_threshold), flag])
    if s < 0:
        raise InvalidStateError("the opponent's card is not a reachable turn-start state")
    tables.check_states([s])
    off, n = int(tables.offsets[s]), int(tables.lengths[s])
    base = total + int(tables.lows[s])  # the final score of the distribution's first entry
    lo, hi = min(base, P.FW_LEN), min(base + n, P.FW_LEN)
    p = np.zeros(P.FW_LEN)  # P(final = x); the sums of MK.opponent_table, in its order
    p[lo:hi] = tables.data[off + lo - base : off + hi - base]
    below = np.concatenate(([0.0], np.add.accumulate(p)[:-1]))
    fw = below + 0.5 * p
    return fw


def target_win_table(target: int) -> np.ndarray:
    """fw for the solitaire target: 1 for final scores of at least ``target``, else 0."""
    if target < 0 or target >= P.FW_LEN:
        raise InvalidStateError(f"a target score must lie in 0..{P.FW_LEN - 1}, not {target}")
    fw = np.zeros(P.FW_LEN)
    fw[target:] = 1.0
    return fw


def win_turn(
    solution: Solution, tables: RemainingDistributions, card: Sequence[int], fw: np.ndarray
) -> WinTurn:
    """The win-seeking tables of one turn from our card ``(mask, upper, flag, total)``."""
    mask, upper, flag, total = (int(v) for v in card)
    upper = min(upper, solution.rules.upper_bonus_threshold)
    if tables.sid[mask, upper, flag] < 0:
        raise InvalidStateError("that card is not a reachable turn-start state")
    n = D.NUM_KEEPS
    boxes = solution.box_outcomes(mask, upper, flag)
    succ = O.successor_ids(tables.sid, mask, boxes)
    legal = boxes.legal
    tables.check_states(O.distinct(succ[legal])[0].tolist())
    # One value per distinct (next state, points): the kernel's memo, vectorised.
    span = int(boxes.pts.max()) + 1
    pairs, where = O.distinct(succ[legal] * span + boxes.pts[legal])
    values = O.win_values(total + pairs % span, pairs // span, tables.offsets, tables.lows,
                          tables.lengths, tables.data, fw)  # fmt: skip
    chance = np.full(boxes.pts.shape, -1.0)
    chance[legal] = values[where]
    W = np.zeros(n)
    W[D.ROLL_START :] = chance.max(axis=1)
    cat = np.full(n, -1, dtype=np.int64)
    cat[D.ROLL_START :] = chance.argmax(axis=1)
    E0 = W.copy()
    O.expect_rows(E0)
    E1 = O.best_subkeep_rows(E0)
    O.expect_rows(E1)
    start = 0.0
    for r in range(D.ROLL_START, n):
        best = W[r]
        for j in range(int(D.SUBKEEP_COUNT[r - D.ROLL_START])):
            best = max(best, E1[int(D.SUBKEEPS[r - D.ROLL_START, j])])
        start += float(D.ROLL_PROBABILITY[r]) * best
    return WinTurn(W, E0, E1, cat, start)


@dataclass(frozen=True)
class HeadToHead:
    """``a`` against ``b`` over mirrored pairs of games."""

    rules: str
    a: str
    b: str
    pairs: int
    seed: int
    totals_a: np.ndarray
    totals_b: np.ndarray
    seconds: float

    @property
    def games(self) -> int:
        return 2 * self.pairs

    @property
    def points(self) -> np.ndarray:
        """1 for a win of ``a``, 1/2 for a tie, 0 for a loss, game by game."""
        pts: np.ndarray = (np.sign(self.totals_a - self.totals_b) + 1) / 2
        return pts

    def win_rate(self) -> Summary:
        """``a``'s win rate (ties half) with a 95% interval over the independent pairs."""
        pts = self.points.reshape(self.pairs, 2).mean(axis=1)
        return mean_ci(pts, bounds=(0.0, 1.0))

    def summary(self) -> dict[str, object]:
        s = self.win_rate()
        pts = self.points
        return {
            "rules": self.rules,
            "a": self.a,
            "b": self.b,
            "games": self.games,
            "seed": self.seed,
            "wins": int((pts == 1).sum()),
            "ties": int((pts == 0.5).sum()),
            "losses": int((pts == 0).sum()),
            "win_rate": s.mean,
            "ci95": [s.lo, s.hi],
            "mean_a": float(self.totals_a.mean()),
            "mean_b": float(self.totals_b.mean()),
            "seconds": self.seconds,
            "games_per_second": self.games / self.seconds if self.seconds else None,
        }


def head_to_head(
    solution: Solution, a: str, b: str, pairs: int, seed: int, batch: int = 20_000
) -> HeadToHead:
    """``pairs`` mirrored pairs: in the second game of a pair the players swap seats
    and with them the dice streams, so each player meets the other's dice."""
    ia, ib = player_id(a), player_id(b)
    if pairs < 1:
        raise InvalidStateError("a match needs at least one pair of games")
    match = Match(solution)
    totals_a = np.empty(2 * pairs, dtype=np.int64)
    totals_b = np.empty(2 * pairs, dtype=np.int64)
    start = time.perf_counter()
    if P.MATCH_WIN in (ia, ib):
        _ = match.tables  # built before the clock of the games themselves matters
    for lo in range(0, pairs, batch):
        n = min(batch, pairs - lo)
        streams = seed_streams(seed + 1_000_003 * (lo // batch), n)
        rng = np.repeat(streams, 2, axis=0)  # game 2i and 2i + 1 share both streams
        policy = np.empty((2 * n, 2), dtype=np.int64)
        policy[0::2] = (ia, ib)
        policy[1::2] = (ib, ia)
        board = match.play(Board.new(policy, rng))
        seat_a = np.tile([0, 1], n)  # where a sits: first in game 2i, second in 2i + 1
        games = np.arange(2 * n)
        totals_a[2 * lo : 2 * (lo + n)] = board.totals[games, seat_a]
        totals_b[2 * lo : 2 * (lo + n)] = board.totals[games, 1 - seat_a]
    return HeadToHead(
        solution.rules.name, a, b, pairs, seed, totals_a, totals_b, time.perf_counter() - start
    )


def final_totals(solution: Solution, players: Sequence[str], games: int, seed: int) -> np.ndarray:
    """Final totals ``[g, seat]`` of ``games`` independent games (no mirroring)."""
    policy = np.tile([player_id(p) for p in players], (games, 1))
    board = Match(solution).play(Board.new(policy, seed_streams(seed, games)))
    totals: np.ndarray = board.totals.copy()
    return totals
