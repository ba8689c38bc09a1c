"""The exact high-score strategy: the largest chance of scoring at least T.

For every turn-start state s (filled boxes, upper total capped at the bonus
threshold, whether the Yahtzee box holds 50) and every number t of points
still needed, ``V(s, t)`` is the largest probability, over all strategies,
that the points still to come (bonuses included) are at least t. One
backward pass over the layers of states (by number of filled boxes) computes
it for all t at once: inside a turn every maximum over keeps and boxes is
taken separately for each t (:mod:`._high_score_kernels`).

For each state V is 1 below some t (those points are certain), then falls;
only the *band* in between and the point where V drops below ``CUT`` (1e-12)
is stored, in single precision, one array per layer, in a memory-mapped
cache file whose segments carry checksums checked when first read
(:class:`stratagem.core.tables.MappedTable`).

The *high-score strategy for target T* plays, at every decision, the option
with the largest V for the points it still needs; options within 1e-12 of the
best are tied, and the tie goes to the option with the larger expected score
(:func:`.one_turn.rank`; then boxes before keeps), so where the target is
certain or out of reach it plays exactly as the expected-score optimum. Once a
turn starts with the target reached, or out of reach (V below ``CUT``), it
plays for the expected score (:mod:`.solver`).

Advice evaluates one turn in numpy (:mod:`.one_turn`) from the memory-mapped
table, so a command that advises does not import numba; the kernels build the
table and push the strategy's distribution forward.

>>> from stratagem.games.yahtzee.rules import preset
>>> table = high_score_table(preset("yahtzee"))            # doctest: +SKIP
>>> round(table.value(0, 0, 0, 300), 4)                     # doctest: +SKIP
0.1...
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from stratagem.core.agent import Advice
from stratagem.core.errors import InvalidStateError
from stratagem.core.game import State
from stratagem.core.lazy import LazyModule
from stratagem.core.tables import MappedTable, TableCache, TableWriter
from stratagem.games.yahtzee import dice as D
from stratagem.games.yahtzee import one_turn as O
from stratagem.games.yahtzee.rules import YahtzeeRules
from stratagem.games.yahtzee.solver import KernelRules, Solution, reachable_states, solve
from stratagem.games.yahtzee.state import (
    Keep,
    Score,
    Situation,
    YahtzeeState,
    highest_final_score,
)

HK = LazyModule("stratagem.games.yahtzee._high_score_kernels")

TABLE_KIND = "yahtzee-high-score"
FORMAT_VERSION = 1
CUT = 1e-12
"""V below this is stored as 0 (the band ends there)."""
WIDTH = 2048
"""The most targets one state's turn is solved for (a bound on the points still to come)."""
MAX_TARGET = 10_000
"""Targets above this are refused as absurd (no Yahtzee score comes near it)."""

Progress = Callable[[int, int], None]
"""Called as ``progress(states_done, states_total)`` while building."""


def clip_probability(p: float) -> float:
    """``p`` inside [0, 1].

    The tables store chances in single precision (half the memory); summed in
    double precision, a certain event comes out a few 1e-9 above 1 (or a
    hopeless one a hair below 0). Reports say 1 and 0, as the chances are;
    decisions are made on the unclipped sums, so no strategy changes.

    >>> clip_probability(1.0000000069), clip_probability(-1e-17), clip_probability(0.25)
    (1.0, 0.0, 0.25)
    """
    return min(max(float(p), 0.0), 1.0)


def clipped_advice(ranked: Sequence[Advice]) -> list[Advice]:
    """``ranked`` (best first) with each chance clipped to [0, 1] and the regrets
    measured between the clipped chances (so they stay >= 0)."""
    if not ranked:
        return []
    best = clip_probability(ranked[0].value)
    out = []
    for a in ranked:
        v = clip_probability(a.value)
        out.append(Advice(a.action, v, max(best - v, 0.0)))
    return out


def check_target(target: object, rules: YahtzeeRules | None = None) -> int:
    """``target`` as an int; anything else raises :class:`InvalidStateError`.

    A target a user asks for (``rules`` given) lies in 1..the highest final score of the
    rules (:func:`.state.highest_final_score`, 1,575 for Yahtzee): 0 is reached by every
    game and more than the highest score by none, so neither is worth a table build. The
    library's own passes (no ``rules``) also take reached and unreachable targets, in
    0..MAX_TARGET.

    >>> from stratagem.games.yahtzee.rules import preset
    >>> try:
    ...     check_target(2000, preset("yahtzee"))
    ... except InvalidStateError as exc:
    ...     print(exc)
    a target score must lie in 1..1575 (the highest final score of yahtzee), not 2000
    """
    if isinstance(target, bool) or not isinstance(target, int | np.integer):
        raise InvalidStateError(f"a target score must be a whole number, got {target!r}")
    if rules is None:
        low, high, why = 0, MAX_TARGET, ""
    else:
        low, high = 1, highest_final_score(rules)
        why = f" (the highest final score of {rules.name})"
    if not low <= int(target) <= high:
        raise InvalidStateError(f"a target score must lie in {low}..{high}{why}, not {target}")
    return int(target)


@dataclass
class HighScoreTable:
    """V(s, t) for every reachable turn-start state of one rule set.

    ``sid[mask, u, y]`` is a state's id (-1: cannot occur); ``lo[id]`` the
    first t with V < 1, ``ln[id]`` the band's length, ``off[id]`` where the
    band starts in its layer's array (``layer(filled)``).
    """

    kernel_rules: KernelRules
    threshold: int
    num_categories: int
    sid: np.ndarray
    lo: np.ndarray
    ln: np.ndarray
    off: np.ndarray
    layers: list[np.ndarray | None]
    mapped: MappedTable | None = None
    seconds: float = 0.0
    cached: bool = False
    _checked: set[int] = field(default_factory=set, repr=False)

    @property
    def nbytes(self) -> int:
        """Bytes of the stored table (the file's size when memory-mapped)."""
        if self.mapped is not None:
            return self.mapped.nbytes
        arrays = [self.sid, self.lo, self.ln, self.off, *(x for x in self.layers if x is not None)]
        return int(sum(a.nbytes for a in arrays))

    def layer(self, filled: int) -> np.ndarray:
        """The band data of the states with ``filled`` boxes filled (checked on first use)."""
        if self.mapped is not None and filled not in self._checked:
            self.mapped.verify(_layer_name(filled))
            self._checked.add(filled)
        data = self.layers[filled]
        if data is None:
            raise InvalidStateError(f"this table holds no states with {filled} boxes filled")
        return data

    def _state(self, mask: int, upper: int, flag: int) -> int:
        s = int(self.sid[mask, min(upper, self.threshold), flag])
        if s < 0:
            raise InvalidStateError("that turn-start state cannot occur (or is not in this table)")
        return s

    def value(self, mask: int, upper: int, flag: int, t: int) -> float:
        """V: the best chance that the points still to come from this turn start are >= t."""
        s = self._state(mask, upper, flag)
        lo, ln = int(self.lo[s]), int(self.ln[s])
        if t < lo:
            return 1.0
        if t >= lo + ln:
            return 0.0
        filled = bin(mask).count("1")
        data = self.mapped_band(filled, s) if self.mapped is not None else self.layer(filled)
        return clip_probability(data[int(self.off[s]) + t - lo])

    def mapped_band(self, filled: int, s: int) -> np.ndarray:
        """The layer's array with state ``s``'s band checked (not the whole layer)."""
        assert self.mapped is not None
        name = _layer_name(filled)
        self.mapped.verify(name, int(self.off[s]), int(self.off[s] + self.ln[s]))
        data = self.layers[filled]
        assert data is not None
        return data

    def band(self, mask: int, upper: int, flag: int) -> tuple[int, np.ndarray]:
        """``(lo, values)``: V is 1 below lo, ``values[i]`` at lo + i, 0 after them."""
        s = self._state(mask, upper, flag)
        filled = bin(mask).count("1")
        data = self.mapped_band(filled, s) if self.mapped is not None else self.layer(filled)
        o = int(self.off[s])
        return int(self.lo[s]), np.asarray(data[o : o + int(self.ln[s])], dtype=np.float64)

    def successor_layer(self, mask: int, succ: np.ndarray) -> np.ndarray:
        """The next layer's data with the bands of the states ``succ`` checked (the ids a
        turn from ``mask`` can end in; -1 entries are ignored)."""
        filled = bin(mask).count("1") + 1
        if self.mapped is None or filled in self._checked:
            return self.layer(filled)
        for s in O.distinct(succ[succ >= 0])[0]:
            self.mapped_band(filled, int(s))
        data = self.layers[filled]
        assert data is not None
        return data

    def turn(self, mask: int, upper: int, flag: int, targets: Sequence[int] | np.ndarray,
             boxes: O.BoxOutcomes) -> O.HighScoreTurn:  # fmt: skip
        """One turn from this state for the points still needed ``targets`` (numpy, no
        numba): the chance of every box, final roll and keep; ``boxes`` are the turn's
        box outcomes (:meth:`.Solution.box_outcomes`)."""
        upper = min(upper, self.threshold)
        self._state(mask, upper, flag)
        succ = O.successor_ids(self.sid, mask, boxes)
        if np.any(succ[boxes.legal] < 0):
            raise InvalidStateError("this table does not hold the states that turn can reach")
        nxt = self.successor_layer(mask, succ)
        return O.high_score_turn(targets, boxes.pts, succ, nxt, self.lo, self.ln, self.off)


def _layer_name(filled: int) -> str:
    return f"layer{filled:02d}"


def state_index(layers: Sequence[np.ndarray], shape: tuple[int, ...]) -> np.ndarray:
    """``sid[mask, u, y]``: ids numbered layer by layer from the empty card, -1 elsewhere."""
    sid = np.full(shape, -1, dtype=np.int64)
    start = 0
    for layer in layers:
        sid[layer[:, 0], layer[:, 1], layer[:, 2]] = np.arange(start, start + len(layer))
        start += len(layer)
    return sid


_CANON: dict[tuple[bytes, bytes, int], tuple[list[int], np.ndarray]] = {}


def _bonus_canon(R: KernelRules, threshold: int) -> tuple[list[int], np.ndarray]:
    """``(boxes, canon)`` of :func:`bonus_classes`, made once per rule set: ``boxes`` the
    upper boxes, ``canon[b, d]`` what the open upper boxes ``b`` (bits over ``boxes``)
    must still be short of, given d short (-1 if they cannot make d any more; sums
    above the threshold count as it). The remaining-score build asks for the classes of
    every chunk of 1,024 states, and this table took most of that call's time."""
    upper = np.asarray(R.upper_face)
    score = np.asarray(R.score)
    key = (upper.tobytes(), score.tobytes(), int(threshold))
    hit = _CANON.get(key)
    if hit is not None:
        return hit
    boxes = [c for c in range(len(upper)) if upper[c] > 0]
    canon = np.full((1 << len(boxes), threshold + 1), -1, dtype=np.int64)
    for b in range(1 << len(boxes)):
        sums = np.zeros(threshold + 1, dtype=np.bool_)
        sums[0] = True
        for i, c in enumerate(boxes):
            if (b >> i) & 1:
                grown = np.zeros_like(sums)
                for v in np.unique(score[c]):
                    v = min(int(v), threshold)
                    grown[v:] |= sums[: threshold + 1 - v]
                    grown[threshold] |= sums[threshold + 1 - v :].any()
                sums = grown
        nearest = -1
        for d in range(threshold, -1, -1):
            if sums[d]:
                nearest = d
            canon[b, d] = nearest
    canon.setflags(write=False)
    _CANON[key] = (boxes, canon)
    return boxes, canon


def bonus_classes(
    states: np.ndarray, R: KernelRules, threshold: int
) -> tuple[np.ndarray, np.ndarray]:
    """``(heads, of_class)``: the states of one layer whose V is the same, found without solving.

    The upper total matters only through which sums of the open upper boxes reach
    the bonus threshold. With d points short of it, let S be the smallest sum those
    boxes can still make with S >= d (none: the bonus is out of reach). Being d
    short and being S short are the same: every turn scores the same points
    (bonus included: a box's points reach d exactly when they reach S, as no sum
    of the open boxes lies in between) and leads to states of one class again,
    down to the full card. So the states of a class have the same successors'
    bands, layer by layer, and the kernel computes the very same numbers for each
    (the same operations on the same inputs): each class is solved once. There are
    1.70 states per class for ``yahtzee`` and ``yatzy``. ``heads[k]`` is the first
    state of class k in ``states``, ``of_class[i]`` the class of state i.
    """
    mask, u, y = states[:, 0], states[:, 1], states[:, 2]
    boxes, canon = _bonus_canon(R, threshold)
    open_bits = np.zeros(len(states), dtype=np.int64)  # the open upper boxes, as bits
    for i, c in enumerate(boxes):
        open_bits |= (((mask >> c) & 1) == 0).astype(np.int64) << i
    short = canon[open_bits, threshold - u]
    key = (mask.astype(np.int64) * (threshold + 2) + short + 1) * 2 + y
    _, heads, of_class = np.unique(key, return_index=True, return_inverse=True)
    order = np.argsort(heads, kind="stable")  # classes in the order of their first state
    rank = np.empty_like(order)
    rank[order] = np.arange(len(order))
    return heads[order].astype(np.int64), rank[of_class.ravel()].astype(np.int64)


def build_table(
    solution: Solution,
    writer: TableWriter | None = None,
    dtype: type[np.floating] = np.float32,
    cut: float = CUT,
    min_filled: int = 0,
    progress: Progress | None = None,
    block: int = 4096,
    start: tuple[int, int, int] | None = None,
    share: bool = True,
) -> HighScoreTable:
    """Solve V layer by layer (no cache).

    Each layer is computed from the next one only and, given a ``writer``,
    written out as soon as it is done, so at most two layers are in memory;
    without one, every layer is kept. ``dtype`` is the stored precision (the
    sums are made in double precision either way); only states with at least
    ``min_filled`` boxes filled are solved, or, given a ``start`` card
    ``(mask, upper, flag)``, only the states a game from it can reach (and
    some more); reading any other state raises :class:`InvalidStateError`.
    The states of one :func:`bonus_classes` class are solved once (``share=False``
    solves each on its own, as before issue 35; the tables are the same).
    ``progress(done, total)`` counts the states solved.
    """
    began = time.perf_counter()
    rules = solution.rules
    R = solution.arrays.kernel
    ncat = rules.num_categories
    layers = reachable_states(rules, solution.arrays)
    sid = state_index(layers, solution.values.shape)
    nstates = sum(len(x) for x in layers)
    first = np.cumsum([0] + [len(x) for x in layers])
    ids_of = [np.arange(first[f], first[f + 1]) for f in range(ncat + 1)]
    if start is not None:
        m0, u0 = start[0], min(start[1], rules.upper_bonus_threshold)
        min_filled = bin(m0).count("1")
        for f in range(ncat + 1):
            keep = ((layers[f][:, 0] & m0) == m0) & (layers[f][:, 1] >= u0)
            layers[f], ids_of[f] = layers[f][keep], ids_of[f][keep]
    solved = np.zeros(nstates, dtype=np.bool_)
    solved[ids_of[ncat]] = True
    lo = np.ones(nstates, dtype=np.int64)
    ln = np.zeros(nstates, dtype=np.int64)
    off = np.zeros(nstates, dtype=np.int64)
    kept: list[np.ndarray | None] = [None] * (ncat + 1)
    nxt = np.zeros(0, dtype=dtype)  # the full cards: V = 1 for t <= 0, else 0 (lo 1, ln 0)
    kept[ncat] = nxt
    if writer is not None:
        writer.put(_layer_name(ncat), nxt)
    classes = [
        bonus_classes(layers[f], R, rules.upper_bonus_threshold)
        if share
        else (np.arange(len(layers[f]), dtype=np.int64),) * 2
        for f in range(ncat)
    ]
    total = sum(len(classes[f][0]) for f in range(min_filled, ncat))
    done = 0
    out = np.empty((min(block, max(len(x) for x in layers)), WIDTH), dtype=dtype)
    index = HK.BandIndex(sid, lo, ln, off)
    for filled in range(ncat - 1, min_filled - 1, -1):
        states = layers[filled]
        heads, of_class = classes[filled]
        solo = states[heads]  # one state of each class: the first of it in the layer
        solo_lo = np.empty(len(solo), dtype=np.int64)
        solo_ln = np.empty(len(solo), dtype=np.int64)
        solo_off = np.empty(len(solo), dtype=np.int64)
        pieces: list[np.ndarray] = []
        for a in range(0, len(solo), block):
            part = solo[a : a + block]
            part_lo = solo_lo[a : a + len(part)]
            part_ln = solo_ln[a : a + len(part)]
            fits = HK.solve_block(part, nxt, index, R, cut, out, part_lo, part_ln)
            if not fits:  # pragma: no cover - no Yahtzee rule set scores that much
                raise AssertionError(f"a band is wider than {WIDTH} points")
            piece = np.empty(int(part_ln.sum()), dtype=dtype)
            part_off = np.concatenate(([0], np.cumsum(part_ln)[:-1])).astype(np.int64)
            HK.pack_rows(out, part_ln, piece, part_off)
            solo_off[a : a + len(part)] = part_off + sum(len(x) for x in pieces)
            pieces.append(piece)
            done += len(part)
            if progress is not None:
                progress(done, total)
        solo_data = np.concatenate(pieces) if pieces else np.zeros(0, dtype=dtype)
        del pieces
        # Every state gets its class's band, laid out state after state as if each
        # had been solved on its own (the file is byte for byte what that gives).
        ids = ids_of[filled]
        lo[ids] = solo_lo[of_class]
        ln[ids] = solo_ln[of_class]
        starts = np.concatenate(([0], np.cumsum(ln[ids])[:-1])).astype(np.int64)
        off[ids] = starts
        data = np.empty(int(ln[ids].sum()), dtype=dtype)
        HK.copy_bands(solo_data, solo_off[of_class], ln[ids], data, starts)
        del solo_data
        solved[ids] = True
        if writer is not None:
            writer.put(_layer_name(filled), data)
            kept[filled + 1] = None
        kept[filled] = data
        nxt = data
    sid[~solved[np.maximum(sid, 0)]] = -1  # states not solved read as impossible
    if writer is not None:
        for name, array in (("sid", sid), ("lo", lo), ("ln", ln), ("off", off)):
            writer.put(name, array)
    return HighScoreTable(R, rules.upper_bonus_threshold, ncat, sid, lo, ln, off, kept,
                          seconds=time.perf_counter() - began)  # fmt: skip


def _from_mapped(solution: Solution, mapped: MappedTable) -> HighScoreTable:
    rules = solution.rules
    ncat = rules.num_categories
    sid, lo, ln, off = (mapped.array(n) for n in ("sid", "lo", "ln", "off"))
    if sid.shape != solution.values.shape:
        raise InvalidStateError(f"the high-score table in {mapped.path} is for other rules")
    layers: list[np.ndarray | None] = [mapped.view(_layer_name(f)) for f in range(ncat + 1)]
    return HighScoreTable(solution.arrays.kernel, rules.upper_bonus_threshold, ncat, sid, lo, ln,
                          off, layers, mapped=mapped, cached=True)  # fmt: skip


_OPEN: dict[str, HighScoreTable] = {}


def high_score_table(
    solution: Solution | None = None,
    rules: object = None,
    cache: TableCache | None = None,
    progress: Progress | None = None,
) -> HighScoreTable:
    """The high-score table of a rule set: a memory map of the cached file, or built and cached.

    Building ``yahtzee`` takes minutes (see benchmarks/yahtzee_high_score.py);
    a cache hit opens in well under a second and reads pages only as used.
    """
    if solution is None:
        from stratagem.games.yahtzee.rules import YahtzeeRules

        if not isinstance(rules, YahtzeeRules):
            raise InvalidStateError("high_score_table needs a solution or a YahtzeeRules")
        solution = solve(rules)
    cache = cache or TableCache()
    key = f"{cache.directory}:{solution.rules.fingerprint}"
    if key in _OPEN:
        return _OPEN[key]
    start = time.perf_counter()
    mapped, hit = cache.load_or_build_mapped(
        TABLE_KIND, solution.rules.fingerprint, FORMAT_VERSION,
        lambda w: _build_into(solution, w, progress),
        meta={"rules": solution.rules.name, "cut": CUT},
    )  # fmt: skip
    table = _from_mapped(solution, mapped)
    table.cached = hit
    table.seconds = time.perf_counter() - start
    _OPEN[key] = table
    return table


def _build_into(solution: Solution, writer: TableWriter, progress: Progress | None) -> None:
    import resource

    wall, cpu = time.perf_counter(), time.process_time()
    build_table(solution, writer, progress=progress)
    writer.meta["build"] = {
        "wall_seconds": time.perf_counter() - wall,
        "cpu_seconds": time.process_time() - cpu,
        "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "cpus": os.cpu_count(),
        "measured": "while built",
    }


class HighScoreStrategy:
    """Plays for P(final score >= target), exactly (see the module doc); also an advisor.

    Its advice prices each option by the chance of reaching the target when
    this option is taken and the best play for the target follows.
    """

    def __init__(self, solution: Solution, target: int, table: HighScoreTable | None = None):
        self.solution = solution
        self.rules = solution.rules
        self.target = check_target(target)
        self.name = f"high-score:target={self.target}"
        self._table = table
        self._memo: dict[tuple[int, int, int, int], O.HighScoreTurn] = {}
        self._optimal: Any = None

    @property
    def table(self) -> HighScoreTable:
        if self._table is None:
            self._table = high_score_table(self.solution)
        return self._table

    def _turn(self, mask: int, upper: int, flag: int, t: int) -> O.HighScoreTurn:
        key = (mask, upper, flag, t)
        hit = self._memo.get(key)
        if hit is None:
            if len(self._memo) > 256:
                self._memo.clear()
            hit = self.table.turn(mask, upper, flag, [t],
                                  self.solution.box_outcomes(mask, upper, flag))  # fmt: skip
            self._memo[key] = hit
        return hit

    def advise_situation(self, sit: Situation, target: int | None = None) -> list[Advice]:
        """Every option with P(final score >= target), best first.

        Options whose chances differ by at most ``one_turn.TIE`` (1e-12) are tied and
        ordered by their expected score (boxes: points plus the optimum's expected
        score after them; keeps: the optimum's keep values), then boxes before keeps
        (:func:`.one_turn.rank`, the rule of the compiled policy too). Where the target
        is certain or out of reach, every option ties and the expected-score optimum's
        choice comes first.
        """
        if sit.rules != self.rules:
            raise InvalidStateError(
                f"this strategy was solved for {self.rules.name}, not {sit.rules.name}"
            )
        goal = self.target if target is None else check_target(target)
        t = goal - sit.points
        mask, flag = sit.mask, sit.flag
        upper = min(sit.upper, self.rules.upper_bonus_threshold)
        turn = self._turn(mask, upper, flag, t)
        boxes = self.solution.box_outcomes(mask, upper, flag)
        i = D.KEEP_INDEX[sit.dice] - D.ROLL_START
        worth = O.box_worth(self.solution.values, mask, boxes)[i]
        options: list[tuple[Keep | Score, float]] = []
        expected: list[float] = []
        for c in np.flatnonzero(boxes.pts[i] >= 0):
            options.append((Score(self.rules.categories[c]), float(turn.box[i, c, 0])))
            expected.append(float(worth[c]))
        if sit.rolls_left > 0:
            e0, e1 = self.solution.turn_tables(mask, upper, flag)
            chance = turn.A[:, 0] if sit.rolls_left == 1 else turn.B[:, 0]
            options.extend(sit.keep_options(chance))
            expected.extend(v for _, v in sit.keep_options(e0 if sit.rolls_left == 1 else e1))
        best = max(v for _, v in options)
        order = O.rank(np.array([v for _, v in options]), np.array(expected))
        # ranked on the sums as the compiled policy ranks them; reported clipped to [0, 1]
        return clipped_advice(
            [Advice(options[j][0], options[j][1], best - options[j][1]) for j in order]
        )

    def advise(self, state: State) -> list[Advice]:
        if not isinstance(state, YahtzeeState):
            raise InvalidStateError("the high-score strategy needs a YahtzeeState")
        if state.is_terminal():
            raise InvalidStateError("the game is over: there is no target left to play for")
        return self.advise_situation(state.situation())

    def act(self, state: State, rng: np.random.Generator) -> Keep | Score:
        """The best option for the target; a turn that starts with the target reached or
        out of reach (V below ``CUT``) is played for the expected score."""
        if not isinstance(state, YahtzeeState):
            raise InvalidStateError("the high-score strategy needs a YahtzeeState")
        sit = state.situation()
        t = self.target - sit.points
        if t <= 0 or self.table.value(sit.mask, sit.upper, sit.flag, t) < CUT:
            if self._optimal is None:
                from stratagem.games.yahtzee.strategies import OptimalStrategy

                self._optimal = OptimalStrategy(self.solution)
            action = self._optimal.advise_situation(sit)[0].action
        else:
            action = self.advise_situation(sit)[0].action
        assert isinstance(action, Keep | Score)
        return action


def high_score_distribution(
    solution: Solution,
    table: HighScoreTable,
    target: int,
    card: tuple[int, int, int, int] = (0, 0, 0, 0),
    progress: Progress | None = None,
    block: int = 2048,
) -> tuple[int, np.ndarray]:
    """The exact final-score distribution of the high-score strategy for ``target``.

    ``card`` is the turn-start card ``(mask, upper, flag, points so far)``. The
    chance of every (state, points) pair below the target is pushed forward
    turn by turn through the strategy's own decisions (the turn outcomes of
    :func:`._dist_kernels.turn_outcomes`); once the target is reached the rest
    of the game is the expected-score optimum's, whose remaining-score
    distributions finish it. Returns ``(0, pmf)`` over final scores.

    From the empty card this is every (state, points so far) pair below the target,
    far more work than from a late card; ``progress(states_done, states_total)`` is
    called between blocks of ``block`` states, where Ctrl-C also stops it.
    """
    from stratagem.games.yahtzee.distribution import _Kernels, remaining_distributions
    from stratagem.games.yahtzee.match import optimal_remaining

    target = check_target(target)
    rules = solution.rules
    ncat = rules.num_categories
    mask, upper, flag, points = card
    upper = min(upper, rules.upper_bonus_threshold)
    full = (1 << ncat) - 1
    if mask == full:
        raise InvalidStateError("every box is filled: the game is over")
    start_id = table._state(mask, upper, flag)
    filled0 = bin(mask).count("1")
    if filled0 == 0:  # the whole game: the cached single-precision tables
        opt = optimal_remaining(solution)
        opt.check_all()
    else:
        opt = remaining_distributions(solution, "optimal", start=(mask, upper, flag))
    top = 2048 + points + target
    final = np.zeros(top + 2048)
    if points >= target:
        low, pmf = remaining_distributions(solution, "optimal", start=(mask, upper, flag)).pmf(
            mask, upper, flag
        )
        final[points + low : points + low + len(pmf)] += pmf
        return 0, np.trim_zeros(final, "b")
    layers = reachable_states(rules, solution.arrays)
    ids_all = [table.sid[x[:, 0], x[:, 1], x[:, 2]] for x in layers]
    ev = _values_by_id(table, solution, layers)
    states = np.array([[mask, upper, flag]], dtype=np.int64)
    ids = np.array([start_id], dtype=np.int64)
    mass = np.zeros((1, target))
    mass[0, points] = 1.0
    k = _Kernels(solution)
    rest = HK.Remaining(opt.sid, opt.offsets, opt.lows, opt.lengths, opt.data)
    index = HK.BandIndex(table.sid, table.lo, table.ln, table.off)
    optimum = HK.Optimum(solution.values, k.V0, ev)
    total = sum(int((ids_all[f] >= 0).sum()) for f in range(filled0 + 1, ncat)) + 1
    done = 0
    for filled in range(filled0, ncat):
        nxt_states = layers[filled + 1]
        keep = ids_all[filled + 1] >= 0
        nxt_states, nxt_ids = nxt_states[keep], ids_all[filled + 1][keep]
        row_of = np.full(len(table.lo), -1, dtype=np.int64)
        row_of[nxt_ids] = np.arange(len(nxt_ids))
        next_mass = np.zeros((len(nxt_ids), target))
        cur, nxt = table.layer(filled), table.layer(filled + 1)
        onward = HK.NextRows(row_of, next_mass)
        for a in range(0, len(states), block):  # in blocks: progress, and Ctrl-C between them
            front = HK.Front(states[a : a + block], ids[a : a + block], mass[a : a + block])
            HK.forward_layer(target, front, cur, nxt, index, optimum, table.kernel_rules, CUT,
                             onward, final, rest)  # fmt: skip
            done += len(states[a : a + block])
            if progress is not None:
                progress(min(done, total), total)
        alive = next_mass.any(axis=1)
        states, ids, mass = nxt_states[alive], nxt_ids[alive], next_mass[alive]
    if progress is not None:
        progress(total, total)
    return 0, np.trim_zeros(final, "b")


def _values_by_id(
    table: HighScoreTable, solution: Solution, layers: Sequence[np.ndarray]
) -> np.ndarray:
    """The optimum's expected points still to come of every state of ``table``, by id."""
    ev = np.zeros(len(table.lo))
    for states in layers:
        ids = table.sid[states[:, 0], states[:, 1], states[:, 2]]
        ok = ids >= 0
        ev[ids[ok]] = solution.values[states[ok, 0], states[ok, 1], states[ok, 2]]
    return ev


def high_score_means(
    solution: Solution,
    table: HighScoreTable,
    targets: Sequence[int],
    card: tuple[int, int, int, int] = (0, 0, 0, 0),
    progress: Progress | None = None,
    block: int = 4096,
) -> dict[int, float]:
    """The exact mean final score of the high-score strategy for each target, from ``card``.

    One backward pass over the layers computes M(s, t), the strategy's expected
    points still to come from turn start s with t points still needed, for every
    t up to the largest target (the decisions of :func:`high_score_distribution`,
    made for many t at once: :func:`._high_score_kernels.mean_tile`); only two
    layers of M are held. ``card`` is ``(mask, upper, flag, points so far)``.
    The mean for T is ``points + M(card, T - points)`` (the optimum's expected
    score once T - points <= 0); it equals the mean of that strategy's own
    final-score distribution (a test checks it).
    """
    goals = [check_target(t) for t in targets]
    if not goals:
        return {}
    rules = solution.rules
    ncat = rules.num_categories
    mask0, upper0, flag0, points = card
    upper0 = min(upper0, rules.upper_bonus_threshold)
    if mask0 == (1 << ncat) - 1:
        raise InvalidStateError("every box is filled: the game is over")
    start_id = table._state(mask0, upper0, flag0)
    filled0 = bin(mask0).count("1")
    tmax = max(1, max(goals) - points)
    values = solution.values
    layers = reachable_states(rules, solution.arrays)
    picked: list[tuple[np.ndarray, np.ndarray]] = []
    for f, states in enumerate(layers):
        ids = table.sid[states[:, 0], states[:, 1], states[:, 2]]
        keep = (ids >= 0) & ((states[:, 0] & mask0) == mask0) & (states[:, 1] >= upper0)
        if f == filled0:
            keep &= ids == start_id
        picked.append((states[keep], ids[keep]))
    ev = _values_by_id(table, solution, layers)
    total = sum(len(picked[f][0]) for f in range(filled0, ncat))
    done = 0
    row_of = np.full(len(table.lo), -1, dtype=np.int64)
    row_of[picked[ncat][1]] = np.arange(len(picked[ncat][1]))
    mrows = np.zeros((len(picked[ncat][1]), tmax))  # a full card: nothing more to come
    index = HK.BandIndex(table.sid, table.lo, table.ln, table.off)
    optimum = HK.Optimum(values, values, ev)  # V0 is not read here
    for filled in range(ncat - 1, filled0 - 1, -1):
        states, ids = picked[filled]
        out = np.empty((len(states), tmax))
        cur, nxt = table.layer(filled), table.layer(filled + 1)
        for a in range(0, len(states), block):
            HK.mean_block(
                states[a : a + block], ids[a : a + block], cur, nxt, index, table.kernel_rules,
                CUT, optimum, HK.NextRows(row_of, mrows), out[a : a + block],
            )  # fmt: skip
            done += len(states[a : a + block])
            if progress is not None:
                progress(done, total)
        row_of[:] = -1
        row_of[ids] = np.arange(len(ids))
        mrows = out
    means = {}
    for goal in goals:
        t = goal - points
        means[goal] = float(points + (ev[start_id] if t <= 0 else mrows[row_of[start_id], t - 1]))
    return means
