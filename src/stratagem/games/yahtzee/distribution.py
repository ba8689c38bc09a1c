"""Exact score distributions and exact evaluation of fixed Yahtzee policies.

For a policy (the optimum or a rule-based strategy) the outcome of a turn from a
turn-start state is a distribution over (box, points, next state), found by
pushing the probability of the first throw through the policy's choices. From
those outcomes, by backward induction over the turn-start states:

* the first two moments of the remaining score (exact mean and SD of a policy);
* the whole distribution of the remaining score from every state (Glenn 2006,
  section 7, computes the final-score distribution by a forward pass; the
  backward form gives every state's distribution at once, which the
  win-seeking player needs);

and by a forward pass, how often each state is reached (bonus rates).

>>> from stratagem.games.yahtzee.rules import preset
>>> from stratagem.games.yahtzee.solver import solve
>>> dist = score_distribution(solve(preset("yatzy")))        # doctest: +SKIP
>>> round(dist.mean, 4), round(dist.sd, 4), dist.median       # doctest: +SKIP
(248.44, 38.4..., 249)
"""

from __future__ import annotations

import mmap
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from stratagem.core.errors import CacheError, InvalidStateError
from stratagem.core.lazy import LazyModule
from stratagem.core.tables import MappedTable, TableCache
from stratagem.games.yahtzee import policy_ids as P
from stratagem.games.yahtzee.high_score import bonus_classes
from stratagem.games.yahtzee.rules import UPPER, YahtzeeRules
from stratagem.games.yahtzee.solver import KernelRules, Solution, reachable_states

DK = LazyModule("stratagem.games.yahtzee._dist_kernels")

POLICIES = {
    "optimal": P.OPTIMAL,
    "greedy": P.GREEDY,
    "yahtzee-only": P.YAHTZEE_ONLY,
    "yahtzee-and-straights": P.YAHTZEE_STRAIGHTS,
    "heuristic": P.HEURISTIC,
}
"""Fixed policies the kernels can play and evaluate (definitions in strategies.py)."""

# What an open box is worth to the heuristic: roughly the points a good player
# averages in it (hand-set constants, rounded; not taken from the solver).
BOX_WORTH = {
    "ones": 2.0, "twos": 5.0, "threes": 8.5, "fours": 12.0, "fives": 15.5, "sixes": 19.0,
    "three_of_a_kind": 21.5, "four_of_a_kind": 13.0, "full_house": 22.5,
    "small_straight": 29.5, "large_straight": 32.5, "yahtzee": 17.0, "chance": 22.0,
    "one_pair": 10.0, "two_pairs": 17.0, "yatzy": 15.0,
}  # fmt: skip
YATZY_WORTH = {"three_of_a_kind": 13.0, "four_of_a_kind": 10.0, "full_house": 15.0,
               "small_straight": 9.0, "large_straight": 12.0}  # fmt: skip


def heuristic_values(solution: Solution) -> np.ndarray:
    """The heuristic's hand-written worth of a turn-start card, shaped like ``values``.

    Worth = the sum of BOX_WORTH over the open boxes, plus the upper bonus weighed
    by a hand rule: with ``need`` points still missing for the bonus and ``pace``
    = three of each open upper face, credit the bonus by
    ``clip(0.5 + (pace - need) / (6 + 3 * open upper boxes), 0, 1)``; plus 3
    points per open box while the Yahtzee box holds 50 (future bonuses).
    """
    rules = solution.rules
    worth = dict(BOX_WORTH)
    if rules.family == "yatzy":
        worth.update(YATZY_WORTH)
    names = rules.categories
    w = np.array([worth[n] for n in names])
    nup = len(UPPER)
    faces = np.arange(1, nup + 1)
    masks = np.arange(1 << len(names))
    bits = (masks[:, None] >> np.arange(len(names))) & 1  # filled boxes
    base = ((1 - bits) * w).sum(axis=1)
    open_up = 1 - bits[:, :nup]
    pace = (open_up * 3 * faces).sum(axis=1)
    n_up = open_up.sum(axis=1)
    u = np.arange(rules.upper_bonus_threshold + 1)
    need = rules.upper_bonus_threshold - u
    credit = np.clip(0.5 + (pace[:, None] - need[None, :]) / (6 + 3 * n_up[:, None]), 0, 1)
    credit[:, -1] = 0.0  # reached: the bonus is already in the points
    credit[n_up == 0, :] = 0.0
    bonus = rules.upper_bonus * credit
    vals = np.zeros_like(solution.values)
    vals[:, :, 0] = base[:, None] + bonus
    if vals.shape[2] > 1:
        open_boxes = (1 - bits).sum(axis=1)
        vals[:, :, 1] = vals[:, :, 0] + 3.0 * open_boxes[:, None]
    return vals


# Glenn (2006), "An optimal strategy for Yahtzee", Connecticut College tech. report
# CS-TR-0002: strategies on the yahtzee-free-joker rules, mean and SD.
GLENN_FREE_JOKER = {
    "yahtzee-only": (171.52, 68.17),
    "yahtzee-and-straights": (202.51, 65.90),
    "greedy": (218.05, 46.87),
    "heuristic": (240.67, 60.90),
    "optimal": (254.59, 59.61),
}
TRIM = 1e-15
"""Tail mass cut from each end of a stored distribution (both ends together < 2e-15)."""


def _policy_id(policy: str) -> int:
    try:
        return POLICIES[policy]
    except KeyError:
        raise InvalidStateError(
            f"unknown Yahtzee strategy {policy!r}; the strategies are: {', '.join(POLICIES)}"
        ) from None


@dataclass(frozen=True)
class _Kernels:
    """What every kernel call takes for one solution and policy: the policy's value
    table ``V0`` (zeros for greedy, the hand-written worth for the heuristic) and
    the kernels' rules ``R`` (a :class:`~.solver.KernelRules`)."""

    solution: Solution
    pid: int = P.OPTIMAL
    V0: np.ndarray = field(init=False)
    R: KernelRules = field(init=False)

    def __post_init__(self) -> None:
        if self.pid == P.HEURISTIC:
            object.__setattr__(self, "V0", heuristic_values(self.solution))
        else:
            object.__setattr__(self, "V0", np.zeros_like(self.solution.values))
        object.__setattr__(self, "R", self.solution.arrays.kernel)


def moment_tables(
    solution: Solution, policy: str = "optimal", min_filled: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """E[R] and E[R^2] of the remaining score R under ``policy`` for every state.

    Only states with at least ``min_filled`` boxes filled are computed (the others
    stay 0); indexed like ``solution.values``.
    """
    pid = _policy_id(policy)
    k = _Kernels(solution, pid)
    rules = solution.rules
    m1 = np.zeros_like(solution.values)
    m2 = np.zeros_like(solution.values)
    layers = reachable_states(rules, solution.arrays)
    for filled in range(rules.num_categories - 1, min_filled - 1, -1):
        DK.moments_layer(pid, solution.values, k.V0, m1, m2, layers[filled], k.R)
    return m1, m2


def policy_moments(solution: Solution, policy: str = "optimal") -> tuple[float, float]:
    """Exact mean and SD of the final score of a policy from the empty card."""
    m1, m2 = moment_tables(solution, policy)
    mean = float(m1[0, 0, 0])
    var = float(m2[0, 0, 0]) - mean * mean
    return mean, float(np.sqrt(max(var, 0.0)))


@dataclass(frozen=True)
class RemainingDistributions:
    """P(remaining score = r) from every turn-start state under one policy.

    ``pmf(mask, upper, flag)`` returns ``(low, p)``: ``p[i]`` is the probability
    of scoring exactly ``low + i`` more points, bonuses included. When the
    table is a memory map of the cache (``mapped``), a state's distribution is
    checked against its segment's checksum before it is read
    (:meth:`check_states`, :meth:`check_all`).
    """

    rules: YahtzeeRules
    policy: str
    sid: np.ndarray
    offsets: np.ndarray
    lows: np.ndarray
    lengths: np.ndarray
    data: np.ndarray
    seconds: float
    mapped: MappedTable | None = field(default=None, compare=False, repr=False)

    @property
    def nbytes(self) -> int:
        return int(self.sid.nbytes + self.offsets.nbytes + self.lows.nbytes
                   + self.lengths.nbytes + self.data.nbytes)  # fmt: skip

    @property
    def kernel_tables(self) -> tuple[np.ndarray, ...]:
        """``(sid, offsets, lows, lengths, data)``, as the two-player kernels take them.

        Every distribution is checked first (the kernels may read any)."""
        self.check_all()
        return (self.sid, self.offsets, self.lows, self.lengths, self.data)

    def check_states(self, ids: Iterable[int]) -> None:
        """Check the stored distributions of these state ids (a no-op in memory)."""
        if self.mapped is None:
            return
        for s in ids:
            off = int(self.offsets[int(s)])
            self.mapped.verify("data", off, off + int(self.lengths[int(s)]))

    def check_all(self) -> None:
        if self.mapped is not None:
            self.mapped.verify("data")

    def pmf(self, mask: int, upper: int, flag: int) -> tuple[int, np.ndarray]:
        s = int(self.sid[mask, min(upper, self.rules.upper_bonus_threshold), flag])
        if s < 0:
            raise InvalidStateError("that turn-start state cannot occur")
        off = int(self.offsets[s])
        if off < 0:
            raise InvalidStateError("this table does not hold that state's distribution")
        self.check_states([s])
        return int(self.lows[s]), self.data[off : off + int(self.lengths[s])]


LayerSink = Callable[[int, np.ndarray, np.ndarray], None]
"""Called as ``sink(filled, ids, data)`` with each finished layer (its state ids and
their distributions one after another, in id order)."""

WIDTH = 2048
"""The longest remaining-score distribution a layer may hold (the longest is under 1,400)."""


def _layer_buffer(size: int, dtype: type[np.floating], lean: bool) -> tuple[np.ndarray, object]:
    """A buffer for up to ``size`` values of one layer, and what releases its pages.

    Only the pages written become resident. When ``lean``, the buffer is a private
    anonymous memory map, so that pages whose rows are no longer needed can be handed
    back to the system (``madvise``); elsewhere (or where the platform cannot) it is
    a plain array and the second value is None.
    """
    if lean and hasattr(mmap, "MADV_DONTNEED") and hasattr(mmap, "MAP_PRIVATE"):
        nbytes = max(size, 1) * np.dtype(dtype).itemsize
        region = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        return np.frombuffer(region, dtype=dtype), region
    return np.empty(size, dtype=dtype), None


class _Release:
    """Hands back the pages of a finished layer's rows once no state still to compute reads them.

    The states of a layer read only the rows of the next layer's states with one box
    more filled. The next layer's rows are stored mask by mask (``groups``: mask ->
    first and last-plus-one value index); a mask's rows are released when every mask
    of the layer being computed that is one box short of it is done.
    """

    def __init__(
        self, region: object, itemsize: int, groups: dict[int, tuple[int, int]],
        masks: list[int], ncat: int,
    ) -> None:  # fmt: skip
        self.region = region
        self.itemsize = itemsize
        self.groups = groups
        self.ncat = ncat
        present = set(masks)
        self.pending = {
            m: sum(1 for b in range(ncat) if (m >> b) & 1 and m & ~(1 << b) in present)
            for m in groups
        }
        for m, n in list(self.pending.items()):
            if n == 0:
                self._free(m)

    def _free(self, mask: int) -> None:
        del self.pending[mask]
        lo, hi = self.groups[mask]
        page = mmap.PAGESIZE
        first = -(-lo * self.itemsize // page) * page
        last = hi * self.itemsize // page * page
        if last > first and self.region is not None:
            self.region.madvise(mmap.MADV_DONTNEED, first, last - first)  # type: ignore[attr-defined]

    def done(self, mask: int) -> None:
        """Every state of ``mask`` (in the layer being computed) is computed."""
        for b in range(self.ncat):
            m = mask | (1 << b)
            if m != mask and m in self.pending:
                self.pending[m] -= 1
                if self.pending[m] == 0:
                    self._free(m)


def _classes_agree(solution: Solution, layers: list[np.ndarray], k: _Kernels) -> bool:
    """Whether the values the policy decides by are equal, bit for bit, within every
    class of :func:`~.high_score.bonus_classes` (so its states decide alike)."""
    R, threshold = k.R, solution.rules.upper_bonus_threshold
    for layer in layers:
        heads, of_class = bonus_classes(layer, R, threshold)
        head = layer[heads[of_class]]
        for table in (solution.values, k.V0):
            here = table[layer[:, 0], layer[:, 1], layer[:, 2]]
            if not np.array_equal(here, table[head[:, 0], head[:, 1], head[:, 2]]):
                return False
    return True


def remaining_distributions(
    solution: Solution,
    policy: str = "optimal",
    dtype: type[np.floating] = np.float64,
    chunk: int = 1024,
    min_filled: int = 0,
    sink: LayerSink | None = None,
    keep: str = "all",
    start: tuple[int, int, int] | None = None,
    progress: Callable[[int, int], None] | None = None,
    only: np.ndarray | None = None,
    share: bool = True,
) -> RemainingDistributions:
    """Build the distribution of the remaining score for every reachable state.

    ``dtype=np.float32`` halves the memory (the sums are still made in double
    precision; each stored value carries a relative error below 1e-7). Only
    states with at least ``min_filled`` boxes filled get a distribution.

    Each layer (states with the same number of boxes filled) is computed from
    the next one alone into its own array and handed to ``sink``. With
    ``keep="all"`` the result holds every layer; with ``keep="last"`` only
    the layer of ``min_filled`` (two layers are alive at any time, which is
    all the empty card's distribution needs). Given a ``start`` card
    ``(mask, upper, flag)``, only states a game from it can reach (and some
    more) are computed, down to its layer. ``only`` (booleans shaped like
    ``solution.values``) restricts the work to the states it marks; it must mark
    every state the policy can move to from one it marks (:func:`reached_states`
    does). ``progress(done, total)`` is called after every chunk of states
    (``total`` is the states to compute).

    With ``keep="last"`` and no ``sink``, less memory holds the same numbers: a
    state whose distribution equals one of an earlier state with the same boxes
    filled shares its row, and the rows of a layer are handed back to the system
    as soon as every state that reads them is computed (layers are computed mask
    by mask, so at the peak about one and a half of the two layers are alive).

    States of one :func:`~.high_score.bonus_classes` class (upper totals that no sum
    of the open upper boxes tells apart) are computed once when the policy's value
    tables agree on every class (they do for the optimum and greedy, checked here:
    then the decisions and so the distributions are the same, operation by
    operation); ``share=False`` computes every state (the numbers are the same).
    """
    began = time.perf_counter()
    if keep not in ("all", "last"):
        raise ValueError(f"keep must be 'all' or 'last', not {keep!r}")
    pid = _policy_id(policy)
    rules = solution.rules
    k = _Kernels(solution, pid)
    a = solution.arrays
    layers = reachable_states(rules, a)
    if start is not None:
        m0, u0 = start[0], min(start[1], rules.upper_bonus_threshold)
        min_filled = bin(m0).count("1")
        layers = [x[((x[:, 0] & m0) == m0) & (x[:, 1] >= u0)] for x in layers]
    if only is not None:
        if only.shape != solution.values.shape:
            raise ValueError(f"only must be shaped {solution.values.shape}, not {only.shape}")
        layers = [x[only[x[:, 0], x[:, 1], x[:, 2]]] for x in layers]
    lean = keep == "last" and sink is None
    itemsize = np.dtype(dtype).itemsize
    nstates = sum(len(layer) for layer in layers)
    todo = sum(len(layers[f]) for f in range(min_filled, rules.num_categories))
    sid = np.full(solution.values.shape, -1, dtype=np.int64)
    local = np.zeros(nstates, dtype=np.int64)  # offsets inside each layer's own array
    lows = np.zeros(nstates, dtype=np.int64)
    lengths = np.zeros(nstates, dtype=np.int64)
    ncat = rules.num_categories
    full = layers[ncat]
    ids = np.arange(len(full))
    sid[full[:, 0], full[:, 1], full[:, 2]] = ids
    local[ids] = ids
    lengths[ids] = 1
    nxt = np.ones(len(full), dtype=dtype)
    region: object = None
    groups: dict[int, tuple[int, int]] = {}  # the next layer's rows, mask by mask
    kept: list[tuple[np.ndarray, np.ndarray]] = [(ids, nxt)]
    if sink is not None:
        sink(ncat, ids, nxt)
    next_id = len(full)
    width = WIDTH
    done = 0
    out = np.zeros((min(chunk, max(len(x) for x in layers)), width))
    share = share and _classes_agree(solution, layers, k)
    for filled in range(ncat - 1, min_filled - 1, -1):
        layer = layers[filled]
        first_id = next_id
        ids = np.arange(first_id, first_id + len(layer))
        sid[layer[:, 0], layer[:, 1], layer[:, 2]] = ids
        next_id += len(layer)
        span = slice(first_id, next_id)
        low_l, len_l, off_l = lows[span], lengths[span], local[span]
        owner = np.zeros(len(layer), dtype=np.bool_)
        # The states of one mask are consecutive; in lean mode a row may be shared
        # with an earlier state of the same mask (first[i]: the first of its mask).
        heads = np.flatnonzero(np.r_[True, layer[1:, 0] != layer[:-1, 0]][: len(layer)])
        ends = np.append(heads[1:], len(layer))[: len(heads)].astype(np.int64)
        masks = [int(m) for m in layer[heads, 0]]
        if lean:
            first = np.repeat(heads, ends - heads).astype(np.int64)
        else:
            first = np.arange(len(layer), dtype=np.int64)
        release = _Release(region, itemsize, groups, masks, ncat) if lean else None
        # The layer is written in place into one buffer sized for the longest possible
        # rows: only the pages written become resident, so no second copy of the layer
        # is made (concatenating chunks cost a third layer's worth of peak memory).
        buf, buf_region = _layer_buffer(len(layer) * width, dtype, lean)
        used = 0
        g = 0  # masks of this layer finished so far
        for lo in range(0, len(layer), chunk):
            part = layer[lo : lo + chunk]
            out_low = np.zeros(len(part), dtype=np.int64)
            out_len = np.zeros(len(part), dtype=np.int64)
            if share:  # one state of each class, then its row for every state of the class
                firsts, of_class = bonus_classes(part, k.R, rules.upper_bonus_threshold)
                solo_low = np.zeros(len(firsts), dtype=np.int64)
                solo_len = np.zeros(len(firsts), dtype=np.int64)
                status = DK.distribution_layer(
                    pid, solution.values, k.V0, part[firsts],
                    DK.Layer(sid, local, lows, lengths, nxt), DK.Rows(solo_low, solo_len, out),
                    k.R, TRIM,
                )  # fmt: skip
                w = int(solo_len.max(initial=0))
                out[: len(part), :w] = out[of_class, :w]
                out_low[:] = solo_low[of_class]
                out_len[:] = solo_len[of_class]
            else:
                status = DK.distribution_layer(
                    pid, solution.values, k.V0, part, DK.Layer(sid, local, lows, lengths, nxt),
                    DK.Rows(out_low, out_len, out), k.R, TRIM,
                )  # fmt: skip
            if status == 2:
                raise ValueError("only leaves out a state the policy moves to")
            if status == 1:  # pragma: no cover - a remaining score above 2047 cannot occur
                raise AssertionError("a remaining-score distribution is longer than 2048")
            used = DK.compact_unique(
                out[: len(part)], out_low, out_len, lo, first, low_l, len_l, off_l, owner,
                buf, used,
            )  # fmt: skip
            done += len(part)
            while g < len(masks) and ends[g] <= lo + len(part):
                if release is not None:
                    release.done(masks[g])
                g += 1
            if progress is not None:
                progress(done, todo)
        groups = {
            m: (int(off_l[h]), int(off_l[heads[i + 1]]) if i + 1 < len(masks) else used)
            for i, (m, h) in enumerate(zip(masks, heads))
        }
        nxt = buf[:used]
        region = buf_region
        del buf
        if sink is not None:
            sink(filled, ids, nxt)
        if keep == "all":
            kept.append((ids, nxt))
        else:
            kept = [(ids, nxt)]
    offsets = np.full(nstates, -1, dtype=np.int64)
    base = 0
    for layer_ids, layer_data in kept:
        offsets[layer_ids] = base + local[layer_ids]
        base += len(layer_data)
    data = kept[0][1] if len(kept) == 1 else np.concatenate([d for _, d in kept])
    return RemainingDistributions(
        rules, policy, sid, offsets, lows, lengths, data, time.perf_counter() - began
    )


@dataclass(frozen=True)
class ScoreDistribution:
    """The distribution of the final score from the empty card under a policy."""

    rules: YahtzeeRules
    policy: str
    low: int
    pmf: np.ndarray
    upper_bonus_rate: float | None = None
    yahtzee_50_rate: float | None = None
    yahtzee_bonus_mean: float | None = None

    @cached_property
    def scores(self) -> np.ndarray:
        return np.arange(self.low, self.low + len(self.pmf))

    @property
    def mean(self) -> float:
        return float(np.dot(self.scores, self.pmf))

    @property
    def sd(self) -> float:
        m = self.mean
        return float(np.sqrt(np.dot((self.scores - m) ** 2, self.pmf)))

    @property
    def median(self) -> int:
        return int(self.scores[np.searchsorted(np.cumsum(self.pmf), 0.5)])

    def percentile(self, q: float) -> int:
        return int(self.scores[np.searchsorted(np.cumsum(self.pmf), q / 100.0)])

    def p_at_least(self, t: int) -> float:
        """P(final score >= t), inside [0, 1] (single-precision tables sum a hair past 1)."""
        return min(max(float(self.pmf[self.scores >= t].sum(dtype=np.float64)), 0.0), 1.0)

    def summary(self) -> dict[str, object]:
        tails = (200, 250, 300, 350, 400, 500)
        return {
            "rules": self.rules.name,
            "policy": self.policy,
            "mean": self.mean,
            "sd": self.sd,
            "median": self.median,
            "percentiles": {str(q): self.percentile(q) for q in (1, 5, 10, 25, 75, 90, 95, 99)},
            "min": int(self.scores[self.pmf > 0][0]),
            "max": int(self.scores[self.pmf > 0][-1]),
            "p_at_least": {str(t): self.p_at_least(t) for t in tails},
            "upper_bonus_rate": self.upper_bonus_rate,
            "yahtzee_50_rate": self.yahtzee_50_rate,
            "yahtzee_bonus_mean": self.yahtzee_bonus_mean,
            "total_probability": float(self.pmf.sum()),
        }


def _occupancy(
    solution: Solution,
    pid: int,
    progress: Callable[[int, int], None] | None = None,
    start: tuple[int, int, int] = (0, 0, 0),
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """How often a game from ``start`` (the empty card) reaches each state under the
    policy (a forward pass), which states it can reach at all, and the Yahtzee totals
    of :func:`bonus_rates`. ``progress(done, total)`` after every layer."""
    rules = solution.rules
    k = _Kernels(solution, pid)
    layers = reachable_states(rules, solution.arrays)
    mask, upper, flag = start
    card = (mask, min(upper, rules.upper_bonus_threshold), flag)
    shape = solution.values.shape
    inside = 0 <= mask < shape[0] and upper >= 0 and 0 <= flag < shape[2]
    if not inside or np.isnan(solution.values[card]):
        raise InvalidStateError("that turn-start state cannot occur")
    layers = layers[bin(mask).count("1") :]
    occ = np.zeros_like(solution.values)
    occ[card] = 1.0
    seen = np.zeros(solution.values.shape, dtype=np.bool_)
    seen[card] = True
    totals = np.zeros(3)
    ycat = rules.categories.index(rules.yahtzee_category)
    total = sum(len(layer) for layer in layers[:-1])
    done = 0
    for layer in layers[:-1]:
        DK.occupancy_layer(pid, solution.values, k.V0, occ, seen, layer, k.R, ycat, totals)
        done += len(layer)
        if progress is not None:
            progress(done, total)
    return occ, seen, totals


def _rates(solution: Solution, occ: np.ndarray, totals: np.ndarray) -> tuple[float, float, float]:
    rules = solution.rules
    full = reachable_states(rules, solution.arrays)[rules.num_categories]
    threshold = rules.upper_bonus_threshold
    p_upper = float(occ[full[:, 0], full[:, 1], full[:, 2]][full[:, 1] >= threshold].sum())
    return p_upper, float(totals[0]), float(totals[1])


def bonus_rates(solution: Solution, policy: str = "optimal") -> tuple[float, float, float]:
    """(P(upper bonus), P(Yahtzee box scores 50), expected Yahtzee bonuses) by a forward pass."""
    occ, _seen, totals = _occupancy(solution, _policy_id(policy))
    return _rates(solution, occ, totals)


def reached_states(
    solution: Solution, policy: str = "optimal", start: tuple[int, int, int] = (0, 0, 0)
) -> np.ndarray:
    """Booleans shaped like ``solution.values``: the states a game from the turn-start
    card ``start`` ``(mask, upper, flag)``, the empty card by default, reaches with a
    probability above 0 under ``policy`` (the ``only`` of
    :func:`remaining_distributions` that the distribution from ``start`` needs)."""
    return _occupancy(solution, _policy_id(policy), start=start)[1]


SCORE_KIND = "yahtzee-score-distribution"
SCORE_VERSION = 1


def score_distribution(
    solution: Solution,
    policy: str = "optimal",
    cache: TableCache | None = None,
    use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> ScoreDistribution:
    """The exact final-score distribution of ``policy`` with its bonus rates.

    Computed with two layers of remaining-score distributions alive at a time,
    and kept in the table cache (keyed by the rules and the policy), so asking
    again costs a file read. ``progress`` is that of :func:`remaining_distributions`
    (not called on a cache hit).
    """
    _policy_id(policy)
    if use_cache:
        hit = cached_score_distribution(solution.rules, policy, cache)
        if hit is not None:
            return hit

    def build() -> dict[str, np.ndarray]:
        # A forward pass first (the bonus rates, and which states a game reaches at
        # all), then the remaining-score distributions of the reached states only.
        half = None if progress is None else _halves(progress)
        occ, seen, totals = _occupancy(
            solution, _policy_id(policy), None if half is None else half[0]
        )
        table = remaining_distributions(
            solution, policy, keep="last", only=seen, progress=None if half is None else half[1]
        )
        low, pmf = table.pmf(0, 0, 0)
        upper, fifty, bonuses = _rates(solution, occ, totals)
        return {"pmf": pmf.copy(), "facts": np.array([low, upper, fifty, bonuses])}

    if use_cache:
        arrays, _hit = (cache or TableCache()).load_or_build(
            SCORE_KIND, f"{solution.rules.fingerprint}-{policy}", SCORE_VERSION, build,
            meta={"rules": solution.rules.name, "policy": policy},
        )  # fmt: skip
        if (
            arrays.get("facts") is None
            or arrays.get("pmf") is None
            or arrays["facts"].shape != (4,)
        ):
            arrays = build()
    else:
        arrays = build()
    return _from_arrays(solution.rules, policy, arrays)


def _halves(
    progress: Callable[[int, int], None],
) -> tuple[Callable[[int, int], None], Callable[[int, int], None]]:
    """Progress of the forward pass then of the distributions, in states, as one count.

    While the forward pass runs, the distributions' share is taken as its own (all
    the reachable states, an upper bound); then it is their true count."""
    forward = [0]

    def first(done: int, total: int) -> None:
        forward[0] = total
        progress(done, 2 * total)

    def second(done: int, total: int) -> None:
        progress(forward[0] + done, forward[0] + total)

    return first, second


def _from_arrays(
    rules: YahtzeeRules, policy: str, arrays: dict[str, np.ndarray]
) -> ScoreDistribution:
    low, upper, fifty, bonuses = (float(x) for x in arrays["facts"])
    return ScoreDistribution(rules, policy, int(low), arrays["pmf"], upper, fifty, bonuses)


def cached_score_distribution(
    rules: YahtzeeRules, policy: str = "optimal", cache: TableCache | None = None
) -> ScoreDistribution | None:
    """:func:`score_distribution`'s cached result, or None: nothing is solved or compiled
    (a command that finds it imports neither the solved table nor numba)."""
    _policy_id(policy)
    try:
        arrays = (cache or TableCache()).load(
            SCORE_KIND, f"{rules.fingerprint}-{policy}", SCORE_VERSION
        )
    except CacheError:
        return None  # score_distribution rebuilds it (with a warning)
    if arrays is None or arrays.get("pmf") is None:
        return None
    facts = arrays.get("facts")
    if facts is None or facts.shape != (4,):
        return None
    return _from_arrays(rules, policy, arrays)
