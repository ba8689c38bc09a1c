"""The simulating player: the top static moves, each played out a few plies over sampled
draws of the unseen tiles, ranked by an estimate of winning and by mean spread.

For a position with tiles in the bag, :class:`SimAgent` takes the ``candidates``
best moves of its static (equity) player and simulates each of them
``iterations`` times (or until ``seconds`` run out, or ``cancelled()`` says so):

* an iteration shuffles the tiles unseen by the player to move (the bag and the
  opponent's rack together: what the board and the own rack do not show) and
  deals the opponent's rack from the front, the rest being the bag in its order;
  every candidate meets the same deal (common random numbers), so differences
  between candidates are not blurred by the luck of the draw;
* the candidate is played and the mover draws from the front of the bag; then
  ``plies`` more moves are played by the static player (the opponent's reply,
  the player's next move, ...), each drawing in turn; if the bag runs empty
  on the way, the game is played out to its end by the static player (its
  closing rule: going out, tiles kept);
* the iteration's value is the change in spread (player's points minus the
  opponent's) plus the static table's value of the tiles each side kept on
  their last simulated move (the player's counted for, the opponent's against;
  nothing when the game ended): the *equity* the move leads to;
* the win estimate of an iteration is ``Phi((spread now + value +- TEMPO) / s)``, a
  normal model of the rest of the game whose spread deviates with a standard deviation
  ``s = SPREAD_SD_PER_TILE * sqrt(unseen tiles + 7)`` (the tiles still to come
  into play) around the player to move's mean gain :data:`TEMPO` (for the player when
  the simulation stops with them to move, against them otherwise), 1 or 0 when the game
  ended in the simulation.

Candidates are ranked by mean win estimate, then by mean value. Every
:data:`PRUNE_EVERY` iterations, a candidate whose mean value lies more than
:data:`PRUNE_Z` standard errors of its paired difference below the leader's is
dropped (its figures are kept); the simulation ends when one remains.

**Pre-endgame**: with 1 to ``draws`` tiles in the bag, the deals are enumerated
instead of sampled: every ordered sequence of the bag's tiles drawn from the
unseen pool, with its probability (the opponent holds the rest), and each
candidate is played out to the end of the game by the static player, so its
value is the exact expected final spread change (and its win rate exact) under
that continuation. With ``pre_endgame="exact"`` the continuation is played by the static
player only while the bag holds tiles; the endgame each deal leads to (the bag empty, both
racks known) is then solved by the exact endgame solver within ``pre_nodes`` nodes, so a
candidate's value is its expected final spread under best play by both sides once the bag is
empty (exact for every endgame the solver proves within its nodes: :attr:`SimStats.proved`
counts them). With the bag empty the exact endgame solver plays (``endgame``), as the
equity player does.

``progress``, when set, is told after every deal how far the simulation got
(:class:`SimProgress`: deals done of the most it may play, the fraction done counting the
time budget too, and an estimate of the seconds left), so a page can show real progress.

>>> from stratagem.games.scrabble.tiles import tile_set
>>> unseen = np.zeros(27, dtype=np.int64); unseen[[0, 1]] = [2, 1]   # A A B
>>> [(seq, round(p, 3)) for seq, p in bag_sequences(unseen, 1)]
[((0,), 0.667), ((1,), 0.333)]
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import numpy as np

from stratagem.core.agent import Advice
from stratagem.core.errors import StratagemError
from stratagem.core.game import Action, State, expect_state
from stratagem.games.scrabble.board import RACK_SIZE, Placement
from stratagem.games.scrabble.heuristic import (
    ENDGAME_NODES,
    SCORE_WEIGHT,
    EquityAgent,
    phase_of,
)
from stratagem.games.scrabble.state import Exchange, Pass, ScrabbleState

SPREAD_SD_PER_TILE = 9.9
"""Standard deviation of the rest of a game's spread per square root of the tiles still to
come into play (unseen + one rack): 9.93 measured over 7,924 decisions of 400 equity
self-play games on ENABLE (``experiments/scrabble_sim_spread.py``; 10.2, 10.05 and 9.85 with
7-29, 30-59 and 60-109 tiles to come)."""
TEMPO = 18.6
"""Mean gain in spread of the player to move over the rest of a game: 18.57 points over the
same 7,924 decisions (17.6, 19.9 and 18.0 with 7-29, 30-59 and 60-109 tiles to come;
``experiments/scrabble_sim_spread.py``). A simulation that stops with the opponent to move
(after an even number of plies) starts the normal model this much behind; without it the
win estimates of 5 middle-game positions ran 5-17 points above the rate of winning when the
moves were played out to the end (the validation test in ``tests/games/scrabble``)."""
PRUNE_EVERY = 16
PRUNE_Z = 3.0
MIN_ITERATIONS_TO_PRUNE = 32
PLAYOUT_LIMIT = 40
"""Most moves of a play-out to the end of the game (six scoreless turns end one anyway)."""
MAX_CANDIDATES = 100
MAX_PLIES = 6
MAX_ITERATIONS = 100_000
MAX_DRAWS = 2
"""Most tiles in the bag for which the pre-endgame enumerates the draws (2 tiles: at most
27 x 27 ordered draws per candidate)."""
PRE_ENDGAME_CHOICES = ("playout", "exact")
"""How the pre-endgame values a deal: the static player plays it out to the end, or plays
until the bag is empty and the exact endgame solver takes over."""
CANDIDATES = 6
"""Static moves simulated by default. With :data:`ITERATIONS` this is the setting measured
against the strongest static player (equity with the endgame solver) over the issue's
1,000 deal pairs (docs/results/scrabble_strength.md): about 0.3 CPU s a move, and the deal
limit binds before the wall clock, so a game repeats from its seed on any machine."""
ITERATIONS = 30
"""Deals each candidate meets at most by default (see :data:`CANDIDATES`)."""
PRE_NODES = 20_000
"""Node limit of each endgame search of the exact pre-endgame: one position with one tile in
the bag has up to 27 draws x ``candidates`` endgames, each about 0.02-0.2 CPU s at this
limit; most endgames with a short rack are proved well within it."""
PRE_NODES_RANGE = (1024, 10_000_000)
PRE_ENDGAME_SECONDS = 30.0
"""CPU seconds behind the node limit of one pre-endgame search (a far slower machine)."""


class SimProgress(NamedTuple):
    """How far a simulation got: ``done`` deals of at most ``total``; ``fraction`` done,
    counting the time budget (whichever ends it first); ``seconds_left`` at most."""

    done: int
    total: int
    fraction: float
    seconds_left: float


class SimError(StratagemError, ValueError):
    """Simulation parameters out of range, or a position the simulation cannot play."""


@dataclass
class SimStats:
    """One candidate's simulation figures: its static equity, the iterations (or enumerated
    deals) it was played over, and the weighted sums behind its means."""

    action: Placement | Exchange | Pass
    static: float
    n: int = 0
    weight: float = 0.0
    value_sum: float = 0.0
    value_sq: float = 0.0
    win_sum: float = 0.0
    win_sq: float = 0.0
    exact: bool = False
    pruned: bool = False
    solved: int = 0
    """Endgames the exact pre-endgame searched for this candidate."""
    proved: int = 0
    """Of those, the ones the solver proved within its node limit."""

    def add(self, value: float, win: float, weight: float = 1.0) -> None:
        self.n += 1
        self.weight += weight
        self.value_sum += weight * value
        self.value_sq += weight * value * value
        self.win_sum += weight * win
        self.win_sq += weight * win * win

    @property
    def mean(self) -> float:
        return self.value_sum / self.weight if self.weight else self.static

    @property
    def win(self) -> float:
        return self.win_sum / self.weight if self.weight else 0.5

    @property
    def sd(self) -> float:
        if self.weight == 0:
            return 0.0
        var = self.value_sq / self.weight - self.mean**2
        return math.sqrt(max(var, 0.0))

    @property
    def se(self) -> float:
        """Standard error of the mean value (0 when enumerated: exact)."""
        if self.exact or self.n < 2:
            return 0.0
        return self.sd / math.sqrt(self.n - 1)

    @property
    def win_se(self) -> float:
        """Standard error of the mean win estimate (0 when enumerated: exact)."""
        if self.exact or self.n < 2 or self.weight == 0:
            return 0.0
        var = self.win_sq / self.weight - self.win**2
        return math.sqrt(max(var, 0.0) / (self.n - 1))


def check_params(candidates: int, plies: int, iterations: int, seconds: float,
                 draws: int, pre_endgame: str = "playout",
                 pre_nodes: int = PRE_NODES) -> None:  # fmt: skip
    """Refuse parameters out of range, naming the one that is wrong."""
    if pre_endgame not in PRE_ENDGAME_CHOICES:
        raise SimError(f"pre_endgame must be one of {', '.join(PRE_ENDGAME_CHOICES)}, "
                       f"got {pre_endgame!r}")  # fmt: skip
    for name, value, low, high in (
        ("candidates", candidates, 1, MAX_CANDIDATES),
        ("plies", plies, 1, MAX_PLIES),
        ("iterations", iterations, 1, MAX_ITERATIONS),
        ("draws", draws, 0, MAX_DRAWS),
        ("pre_nodes", pre_nodes, *PRE_NODES_RANGE),
    ):
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise SimError(f"{name} must be a whole number {low}..{high}, got {value!r}")
    if not (isinstance(seconds, (int, float)) and math.isfinite(seconds) and 0 < seconds <= 3600):
        raise SimError(f"seconds must be a number in (0, 3600], got {seconds!r}")


def check_workers(workers: int) -> None:
    """Refuse a number of worker processes below 1 or above the cores this process may use
    (more would only share the cores and hold more copies of the word list)."""
    from stratagem.games.scrabble.sim_pool import cores

    most = cores()
    if isinstance(workers, bool) or not isinstance(workers, int) or not 1 <= workers <= most:
        raise SimError(f"workers must be a whole number 1..{most} (the cores this machine "
                       f"lets the process use), got {workers!r}")  # fmt: skip


def spread_sd(unseen: int) -> float:
    """The normal model's standard deviation of the rest of the game's spread."""
    return SPREAD_SD_PER_TILE * math.sqrt(unseen + RACK_SIZE)


def win_estimate(spread: float, unseen: int, finished: bool, to_move: bool | None = None) -> float:
    """The chance of winning from ``spread`` ahead with ``unseen`` tiles to come (a tie is
    half a win); ``to_move``: whether the player is to move (:data:`TEMPO` for or against
    them; None: neither)."""
    if finished:
        return 1.0 if spread > 0 else (0.5 if spread == 0 else 0.0)
    if to_move is not None:
        spread += TEMPO if to_move else -TEMPO
    return 0.5 * math.erfc(-spread / (spread_sd(unseen) * math.sqrt(2.0)))


def bag_sequences(unseen: np.ndarray, size: int) -> Iterator[tuple[tuple[int, ...], float]]:
    """Every ordered sequence of ``size`` tiles drawn without replacement from the pool
    ``unseen`` (counts), with its probability."""
    pool = [int(x) for x in unseen]
    total = sum(pool)

    Draw = tuple[tuple[int, ...], float]

    def walk(prefix: tuple[int, ...], p: float, left: int) -> Iterator[Draw]:
        if len(prefix) == size:
            yield prefix, p
            return
        for letter, n in enumerate(pool):
            if n:
                pool[letter] -= 1
                yield from walk((*prefix, letter), p * n / left, left - 1)
                pool[letter] += 1

    yield from walk((), 1.0, total)


class _Deal:
    """The unseen tiles split for one iteration: the opponent's rack and the bag's order."""

    def __init__(self, rack: tuple[int, ...], order: list[int]) -> None:
        self.rack = rack
        self.order = order


class SimAgent:
    """Chooses among the static player's top moves by simulation (module docstring)."""

    spec = "sim"
    think_seconds: float | None = None
    """Wall-clock cap a page sets where a person waits (the smaller budget wins)."""
    cancelled: Callable[[], bool] | None = None
    """Asked between iterations: when it says yes, the best move so far is played."""
    progress: Callable[[SimProgress], None] | None = None
    """Told after every deal how far the simulation got (a page's progress bar)."""
    guard: Callable[[], AbstractContextManager[Any]] = nullcontext
    """Held around each deal's play: a server's lock on the lexicon's shared move generator
    (taken deal by deal, so other requests on the lexicon go between them)."""

    def __init__(
        self,
        static: EquityAgent,
        candidates: int = CANDIDATES,
        plies: int = 2,
        iterations: int = ITERATIONS,
        seconds: float = 5.0,
        draws: int = 1,
        endgame: bool = True,
        endgame_nodes: int = ENDGAME_NODES,
        pre_endgame: str = "playout",
        pre_nodes: int = PRE_NODES,
        workers: int = 1,
    ) -> None:
        check_params(candidates, plies, iterations, seconds, draws, pre_endgame, pre_nodes)
        check_workers(workers)
        if static.endgame:
            raise SimError("the simulation's static player must play without the endgame "
                           "solver (it plays the simulated moves)")  # fmt: skip
        self.static = static
        self.candidates = candidates
        self.plies = plies
        self.iterations = iterations
        self.seconds = float(seconds)
        self.draws = draws
        self.endgame = endgame
        self.endgame_nodes = endgame_nodes
        self.pre_endgame = pre_endgame
        self.pre_nodes = pre_nodes
        self.workers = workers
        """Processes that play the deals (:mod:`.sim_pool`); 1: this one."""
        self._static_key: str | None = None
        self._closer: EquityAgent | None = None
        self._pre_solver: Any = None
        self.last: list[SimStats] = []
        self.last_seconds = 0.0

    # --- the agent ------------------------------------------------------------------------

    def act(self, state: State, rng: np.random.Generator) -> Action:
        state = expect_state(state, ScrabbleState, "the simulating Scrabble player")
        if state.bag_size() == 0 or state.num_players != 2:
            return self._closing(state, rng)
        stats = self.simulate(state, rng)
        return stats[0].action

    def advise(self, state: State) -> list[Advice]:
        """The candidates simulated, best first as the player ranks them: value = the win
        estimate, n = the deals played; each one's mean equity (points) and its standard
        error are in :attr:`last`. With one candidate or none to simulate (an empty bag),
        the static player's advice."""
        state = expect_state(state, ScrabbleState, "the simulating Scrabble player")
        if state.bag_size() == 0 or state.num_players != 2:
            return self.static.advise(state)
        stats = self.simulate(state, np.random.default_rng(0))
        if len(stats) < 2:
            return self.static.advise(state)
        top = stats[0].win
        return [Advice(s.action, s.win, top - s.win, s.n) for s in stats]

    def _closing(self, state: ScrabbleState, rng: np.random.Generator) -> Action:
        if self._closer is None:
            self._closer = EquityAgent(self.static.evaluator.tiles, None, self.endgame,
                                       self.endgame_nodes)  # fmt: skip
            self._closer.evaluator = self.static.evaluator
        self._closer.think_seconds = self.think_seconds
        return self._closer.act(state, rng)

    # --- the simulation -------------------------------------------------------------------

    def budget(self) -> float:
        if self.think_seconds is None:
            return self.seconds
        return min(self.seconds, self.think_seconds)

    def simulate(self, state: ScrabbleState, rng: np.random.Generator) -> list[SimStats]:
        """Every candidate's figures, best first (module docstring)."""
        start = time.perf_counter()
        with self.guard():
            cands = self.static.ranked(state, self.candidates)[0]
        stats = [SimStats(c.action, c.value / SCORE_WEIGHT) for c in cands]
        bag = state.bag_size()
        if len(stats) > 1:
            if 1 <= bag <= self.draws:
                self._enumerate(state, stats, start)
            else:
                self._sample(state, stats, rng, start)
        ranked = sorted(stats, key=lambda s: (-s.win, -s.mean))
        self.last = ranked
        self.last_seconds = time.perf_counter() - start
        return ranked

    def unseen(self, state: ScrabbleState) -> np.ndarray:
        """The tiles the player to move cannot see: the bag and the opponent's rack."""
        me = state.player
        pool = np.array(state.bag, dtype=np.int64)
        for q, rack in enumerate(state.racks):
            if q != me:
                pool += np.array(rack, dtype=np.int64)
        return pool

    def _sample(self, state: ScrabbleState, stats: list[SimStats], rng: np.random.Generator,
                start: float) -> None:  # fmt: skip
        opp = 1 - state.player
        pool = self.unseen(state)
        tiles = np.repeat(np.arange(len(pool)), pool)
        rack_size = sum(state.racks[opp])
        alive = list(range(len(stats)))
        values: list[list[float]] = [[] for _ in stats]
        budget = self.budget()
        done = 0

        def stop() -> bool:  # the first deal is always played, unless cancelled
            if done:
                return self._stopped(start, budget)
            return self.cancelled is not None and self.cancelled()

        def deals(n: int) -> Iterator[_Deal]:
            for _ in range(n):
                if stop():
                    return
                order = [int(x) for x in rng.permutation(tiles)]
                yield _Deal(_counts(order[:rack_size], len(pool)), order[rack_size:])

        while done < self.iterations:
            # a block of deals up to the next check for clearly worse candidates
            end = MIN_ITERATIONS_TO_PRUNE if done < MIN_ITERATIONS_TO_PRUNE else done + PRUNE_EVERY
            end = min(end, self.iterations)
            actions = [stats[k].action for k in alive]
            for found in self._outcomes(state, actions, deals(end - done), "play", self.plies,
                                        stop):  # fmt: skip
                for k, (value, win) in zip(alive, found, strict=True):
                    stats[k].add(value, win)
                    values[k].append(value)
                done += 1
                self._report(done, self.iterations, start, budget)
            if done < end:
                return  # stopped: the budget or a cancel
            if done >= MIN_ITERATIONS_TO_PRUNE and done % PRUNE_EVERY == 0:
                alive = self._prune(stats, alive, values)
                if len(alive) == 1:
                    return

    def outcome(
        self, state: ScrabbleState, actions: Sequence[Action], deal: _Deal, me: int, kind: str,
        arg: int, stop: Callable[[], bool] | None = None,
    ) -> list[tuple[float, ...]] | None:  # fmt: skip
        """One deal's outcome for each of ``actions``: ``kind`` ``play`` plays ``arg``
        static moves after it (:meth:`_play`: value, win), ``solve`` plays to the empty
        bag and solves the endgame within ``arg`` nodes (:meth:`_solve`: value, win,
        proved). ``stop``, when given, is asked before each action but the first (None:
        stopped half-way, the deal is left out)."""
        if kind == "play":  # the lexicon's lock held over the deal (quick moves)
            with self.guard():
                return [self._play(state, a, deal, me, arg) for a in actions]
        found: list[tuple[float, ...]] = []
        for i, action in enumerate(actions):  # held search by search (long ones)
            if i and stop is not None and stop():
                return None
            with self.guard():
                found.append(self._solve(state, action, deal, me, arg))
        return found

    def _outcomes(self, state: ScrabbleState, actions: Sequence[Action], deals: Iterable[_Deal],
                  kind: str, arg: int,
                  stop: Callable[[], bool]) -> Iterator[list[tuple[float, ...]]]:  # fmt: skip
        """Each deal's outcomes (:meth:`outcome`) in the deals' order, until ``stop`` says
        so: in this process, or with :attr:`workers` above 1 in the worker processes
        (:mod:`.sim_pool`), with the same figures."""
        me = state.player
        if self.workers > 1:
            from concurrent.futures.process import BrokenProcessPool

            from stratagem.games.scrabble import sim_pool

            if self._static_key is None:
                self._static_key = sim_pool.static_key(self.static)
            pool = sim_pool.deal_pool(state.lexicon, self.static, self._static_key,
                                      self.workers)  # fmt: skip
            try:
                yield from pool.run(state, actions, deals, me, kind, arg, stop)
                return
            except BrokenProcessPool as error:
                sim_pool.drop(pool)  # the deals not handed back are played here
                deals = error.pending  # type: ignore[attr-defined]
        for deal in deals:
            found = self.outcome(state, actions, deal, me, kind, arg,
                                 stop if kind == "solve" else None)  # fmt: skip
            if found is None:
                return
            yield found

    def _prune(self, stats: list[SimStats], alive: list[int],
               values: list[list[float]]) -> list[int]:  # fmt: skip
        """Drop the candidates clearly worse than the leader (paired differences)."""
        lead = max(alive, key=lambda k: (stats[k].win, stats[k].mean))
        keep = []
        for k in alive:
            if k == lead:
                keep.append(k)
                continue
            n = min(len(values[k]), len(values[lead]))
            diff = np.array(values[lead][-n:]) - np.array(values[k][-n:])
            se = float(diff.std(ddof=1)) / math.sqrt(n) if n > 1 else math.inf
            if diff.mean() > PRUNE_Z * se and se > 0:
                stats[k].pruned = True
            else:
                keep.append(k)
        return keep

    def _enumerate(self, state: ScrabbleState, stats: list[SimStats], start: float) -> None:
        """Pre-endgame: every ordered draw of the bag, weighted, each played out to the end
        (or, ``pre_endgame="exact"``, to the empty bag and then solved); cut short by the
        budget or a cancel, the means are over the draws finished, and not exact."""
        opp = 1 - state.player
        pool = self.unseen(state)
        budget = self.budget()
        exact = self.pre_endgame == "exact"
        seqs = list(bag_sequences(pool, state.bag_size()))
        done = 0

        def stop() -> bool:
            return done > 0 and self._stopped(start, budget)

        def deals() -> Iterator[_Deal]:
            for seq, _ in seqs:
                if stop():
                    return
                rack = pool.copy()
                for letter in seq:
                    rack[letter] -= 1
                deal = _Deal(tuple(int(x) for x in rack), list(seq))
                assert sum(deal.rack) == sum(state.racks[opp])
                yield deal

        # an exact draw's endgame searches may be stopped half-way by a cancel or the budget
        # (the draw is then left out: every candidate keeps the same draws)
        kind, arg = ("solve", self.pre_nodes) if exact else ("play", PLAYOUT_LIMIT)
        for found in self._outcomes(state, [s.action for s in stats], deals(), kind, arg,
                                    stop):  # fmt: skip
            p = seqs[done][1]
            for s, (value, win, *proved) in zip(stats, found, strict=True):
                s.add(value, win, p)
                if proved:
                    s.solved += 1
                    s.proved += int(proved[0])
            done += 1
            self._report(done, len(seqs), start, budget)
        if done == len(seqs):
            for s in stats:
                s.exact = True

    def _stopped(self, start: float, budget: float) -> bool:
        """Whether the budget is spent or the simulation was cancelled."""
        if time.perf_counter() - start >= budget:
            return True
        return self.cancelled is not None and self.cancelled()

    def _report(self, done: int, total: int, start: float, budget: float) -> None:
        """Tell :attr:`progress` how far the simulation got (the deals, or the time budget
        when it binds first)."""
        if self.progress is None:
            return
        elapsed = time.perf_counter() - start
        by_time = elapsed / budget if budget > 0 else 1.0
        fraction = min(1.0, max(done / total, by_time))
        left = max(0.0, budget - elapsed)
        if done:
            left = min(left, elapsed / done * (total - done))
        self.progress(SimProgress(done, total, fraction, left))

    def _solve(self, state: ScrabbleState, action: Action, deal: _Deal, me: int,
               nodes: int) -> tuple[float, float, int]:  # fmt: skip
        """Play ``action`` in the deal's world and the static player while the bag holds
        tiles; then solve the endgame (node limit ``nodes``). The value (the spread
        change to the end of the game under best play), the win (1, 1/2, 0) and whether
        the search proved it (1) or stopped at its node limit (0)."""
        opp = 1 - me
        s = self.world(state, deal)
        before = s.scores[me] - s.scores[opp]
        order = iter(deal.order)
        s = s.apply(action)
        moves = 0
        while not s.finished:
            if s.drawer >= 0:
                s = s.apply(_draw(s, order))
                continue
            if s.bag_size() == 0 or moves >= PLAYOUT_LIMIT:
                break
            s = s.apply(self.static._static_move(s, phase_of(s)))
            moves += 1
        proved = int(s.finished)  # not when the play-out limit stopped it (a stalled game)
        if s.finished or s.bag_size() > 0:
            final = s.scores[me] - s.scores[opp]
        else:
            if self._pre_solver is None:
                from stratagem.games.scrabble.endgame import EndgameSolver

                self._pre_solver = EndgameSolver()
            result = self._pre_solver.solve(s, time_limit=PRE_ENDGAME_SECONDS,
                                            node_limit=nodes)  # fmt: skip
            final = result.value if s.player == me else -result.value
            proved = int(result.exact)
        value = float(final - before)
        now = state.scores[me] - state.scores[opp]
        return value, win_estimate(now + value, 0, True), proved

    def world(self, state: ScrabbleState, deal: _Deal) -> ScrabbleState:
        """``state`` with the opponent holding the deal's rack and the bag the deal's rest."""
        me = state.player
        racks = tuple(rack if q == me else deal.rack for q, rack in enumerate(state.racks))
        bag = _counts(deal.order, len(state.bag))
        return replace(state, racks=racks, bag=bag)

    def _play(self, state: ScrabbleState, action: Action, deal: _Deal, me: int,
              plies: int) -> tuple[float, float]:  # fmt: skip
        """Play ``action`` and ``plies`` static moves in the deal's world (to the end when the
        bag empties); the value (spread change + leaves) and the win estimate."""
        opp = 1 - me
        s = self.world(state, deal)
        before = s.scores[me] - s.scores[opp]
        order = iter(deal.order)
        kept: dict[int, tuple[int, ...]] = {}
        s = s.apply(action)
        kept[me] = s.racks[me]
        moves = 0
        while not s.finished:
            if s.drawer >= 0:
                s = s.apply(_draw(s, order))
                continue
            if moves >= plies and s.bag_size() > 0:
                break
            if moves >= PLAYOUT_LIMIT:
                break
            mover = s.player
            s = s.apply(self.static._static_move(s, phase_of(s)))
            kept[mover] = s.racks[mover]
            moves += 1
        spread = s.scores[me] - s.scores[opp]
        value = float(spread - before)
        if not s.finished and s.bag_size() > 0:
            table = self.static.evaluator
            value += _leave(table, kept.get(me)) - _leave(table, kept.get(opp))
        unseen = s.bag_size() + sum(s.racks[opp])
        now = state.scores[me] - state.scores[opp]
        return value, win_estimate(now + value, unseen, s.finished, s.player == me)


def _leave(evaluator: object, kept: tuple[int, ...] | None) -> float:
    """The static player's value of a leave (its superleave table when it has one)."""
    if kept is None or not any(kept):
        return 0.0
    table = getattr(evaluator, "superleaves", None) or evaluator.leaves  # type: ignore[attr-defined]
    return float(table.value(np.array(kept, dtype=np.int64)))


def _draw(state: ScrabbleState, order: Iterator[int]) -> tuple[int, ...]:
    """The drawer's tiles from the front of the deal's bag order; tiles an exchange put
    back (not in the order) come last, lowest letter first."""
    n = state._draw_count()
    drawn = [x for _, x in zip(range(n), order, strict=False)]
    if len(drawn) < n:
        left = list(state.bag)
        for x in drawn:
            left[x] -= 1
        spare = [letter for letter, c in enumerate(left) for _ in range(c)]
        drawn += spare[: n - len(drawn)]
    return tuple(sorted(drawn))


def _counts(letters: list[int], width: int) -> tuple[int, ...]:
    out = [0] * width
    for x in letters:
        out[x] += 1
    return tuple(out)
