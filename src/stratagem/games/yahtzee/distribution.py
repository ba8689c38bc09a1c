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

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property

import numpy as np

from stratagem.core.errors import CacheError, InvalidStateError
from stratagem.core.lazy import LazyModule
from stratagem.core.tables import MappedTable, TableCache
from stratagem.games.yahtzee import policy_ids as P
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


def remaining_distributions(
    solution: Solution,
    policy: str = "optimal",
    dtype: type[np.floating] = np.float64,
    chunk: int = 2048,
    min_filled: int = 0,
    sink: LayerSink | None = None,
    keep: str = "all",
    start: tuple[int, int, int] | None = None,
    progress: Callable[[int, int], None] | None = None,
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
    more) are computed, down to its layer. ``progress(done, total)`` is called
    after every chunk of states (``total`` is the states to compute).
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
    kept: list[tuple[np.ndarray, np.ndarray]] = [(ids, nxt)]
    if sink is not None:
        sink(ncat, ids, nxt)
    next_id = len(full)
    width = 2048
    out = np.zeros((min(chunk, max(len(x) for x in layers)), width))
    for filled in range(ncat - 1, min_filled - 1, -1):
        layer = layers[filled]
        ids = np.arange(next_id, next_id + len(layer))
        sid[layer[:, 0], layer[:, 1], layer[:, 2]] = ids
        next_id += len(layer)
        # The layer is written in place into one buffer sized for the longest possible
        # rows: only the pages written become resident, so no second copy of the layer
        # is made (concatenating chunks cost a third layer's worth of peak memory).
        buf = np.empty(len(layer) * width, dtype=dtype)
        used = 0
        for lo in range(0, len(layer), chunk):
            part = layer[lo : lo + chunk]
            out_low = np.zeros(len(part), dtype=np.int64)
            out_len = np.zeros(len(part), dtype=np.int64)
            fits = DK.distribution_layer(
                pid, solution.values, k.V0, part, sid, local, lows, lengths, nxt, out_low,
                out_len, out, k.R, TRIM,
            )  # fmt: skip
            if not fits:  # pragma: no cover - a remaining score above 2047 cannot occur
                raise AssertionError("a remaining-score distribution is longer than 2048")
            size = int(out_len.sum())
            part_offsets = DK.compact_rows(out[: len(part)], out_len, buf[used : used + size])
            part_ids = ids[lo : lo + len(part)]
            local[part_ids] = used + part_offsets
            lows[part_ids] = out_low
            lengths[part_ids] = out_len
            used += size
            if progress is not None:
                progress(next_id - len(full) - len(layer) + lo + len(part), todo)
        nxt = buf[:used]
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
        return float(self.pmf[self.scores >= t].sum())

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


def bonus_rates(solution: Solution, policy: str = "optimal") -> tuple[float, float, float]:
    """(P(upper bonus), P(Yahtzee box scores 50), expected Yahtzee bonuses) by a forward pass."""
    pid = _policy_id(policy)
    rules = solution.rules
    k = _Kernels(solution, pid)
    a = solution.arrays
    layers = reachable_states(rules, a)
    occ = np.zeros_like(solution.values)
    occ[0, 0, 0] = 1.0
    totals = np.zeros(3)
    ycat = rules.categories.index(rules.yahtzee_category)
    for filled in range(rules.num_categories):
        DK.occupancy_layer(pid, solution.values, k.V0, occ, layers[filled], k.R, ycat, totals)
    full = layers[rules.num_categories]
    threshold = rules.upper_bonus_threshold
    p_upper = float(occ[full[:, 0], full[:, 1], full[:, 2]][full[:, 1] >= threshold].sum())
    return p_upper, float(totals[0]), float(totals[1])


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
        table = remaining_distributions(solution, policy, keep="last", progress=progress)
        low, pmf = table.pmf(0, 0, 0)
        upper, fifty, bonuses = bonus_rates(solution, policy)
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
