"""Summaries, confidence intervals and tests, done by scipy and statsmodels.

Every experiment in Stratagem reports its numbers through these functions,
so that an interval or a p-value is computed one way, by a library, and
checked against textbook examples in the tests.

>>> s = mean_ci([1.0, 2.0, 3.0, 4.0])
>>> round(s.mean, 2), round(s.lo, 3), round(s.hi, 3)
(2.5, 0.446, 4.554)
>>> [round(x, 4) for x in wilson(81, 263)[1:]]
[0.2553, 0.3662]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from stratagem.core.errors import StratagemError


def _sps() -> Any:
    """scipy.stats, imported on first use: it costs about a second of start-up, which
    every command that never computes an interval would pay (``stratagem.cli`` imports
    this module through the arenas)."""
    from scipy import stats

    return stats


@dataclass(frozen=True)
class Summary:
    """Mean with its t-based confidence interval, SD and SE of a sample.

    With one value there is no spread to estimate: ``sd``, ``se``, ``lo`` and
    ``hi`` are NaN (``None`` in :meth:`to_json`), and reports say "n too small".
    """

    n: int
    mean: float
    sd: float
    se: float
    lo: float
    hi: float
    minimum: float
    maximum: float
    confidence: float = 0.95

    def to_json(self) -> dict[str, float | None]:
        values = {
            "n": self.n, "mean": self.mean, "sd": self.sd, "se": self.se, "lo": self.lo,
            "hi": self.hi, "min": self.minimum, "max": self.maximum,
        }  # fmt: skip
        return {k: finite_or_none(v) for k, v in values.items()}


def finite_or_none(value: float) -> float | None:
    """``value``, or ``None`` for NaN (an estimate the sample is too small for) and infinity."""
    return float(value) if np.isfinite(value) else None


def _sample(values: Sequence[float] | np.ndarray, least: int = 1) -> np.ndarray:
    x = np.asarray(values, dtype=np.float64).ravel()
    if len(x) < least:
        raise StratagemError(f"need at least {least} values, got {len(x)}")
    if not np.all(np.isfinite(x)):
        raise StratagemError("values must be finite numbers")
    return x


def _check_confidence(confidence: float) -> None:
    if not (isinstance(confidence, float | int) and 0 < confidence < 1):
        raise StratagemError(
            f"the confidence level must lie strictly between 0 and 1, got {confidence!r}"
        )


def mean_ci(
    values: Sequence[float] | np.ndarray,
    confidence: float = 0.95,
    bounds: tuple[float, float] | None = None,
) -> Summary:
    """Mean and its Student-t confidence interval.

    One value has no SD, SE or interval (NaN). ``bounds``: the range the
    true mean must lie in (``(0, 1)`` for a rate); the interval is cut to it.

    >>> s = mean_ci([5.0])
    >>> s.mean, s.sd, s.lo
    (5.0, nan, nan)
    >>> s = mean_ci([1.0, 1.0, 0.0], bounds=(0.0, 1.0))
    >>> 0.0 <= s.lo < s.hi <= 1.0
    True
    """
    _check_confidence(confidence)
    x = _sample(values)
    n = len(x)
    mean = float(x.mean())
    if n == 1:
        nan = float("nan")
        return Summary(1, mean, nan, nan, nan, nan, mean, mean, confidence)
    sd = float(x.std(ddof=1))
    se = sd / np.sqrt(n)
    lo, hi = _sps().t.interval(confidence, n - 1, loc=mean, scale=se) if se > 0 else (mean, mean)
    if bounds is not None:
        # The values lie in the range, so the mean does too (up to rounding, which is
        # taken back); the interval is cut to the range and never excludes the mean.
        mean = min(max(mean, bounds[0]), bounds[1])
        lo = min(max(float(lo), bounds[0]), mean)
        hi = max(min(float(hi), bounds[1]), mean)
    return Summary(
        n, mean, sd, se, float(lo), float(hi), float(x.min()), float(x.max()), confidence
    )


def wilson(successes: float, n: int, confidence: float = 0.95) -> tuple[float, float, float]:
    """``(p, lo, hi)``: a proportion and its Wilson score interval (statsmodels).

    ``successes`` may count a tie as half a win; the interval stays inside 0..1.
    """
    from statsmodels.stats.proportion import proportion_confint

    _check_confidence(confidence)
    if n < 1 or not 0 <= successes <= n:
        raise StratagemError(f"need 0 <= successes <= n and n >= 1, got {successes} of {n}")
    lo, hi = proportion_confint(successes, n, alpha=1 - confidence, method="wilson")
    p = successes / n
    # the exact ends of Wilson's interval at 0 and n (statsmodels' float error can miss them)
    return p, 0.0 if successes == 0 else max(0.0, float(lo)), 1.0 if p == 1 else min(1.0, float(hi))


@dataclass(frozen=True)
class PairedTest:
    """Paired t-test of a - b: mean difference, its interval, t, degrees of freedom, p."""

    n: int
    mean_diff: float
    se: float
    lo: float
    hi: float
    t: float
    df: int
    p: float


def paired_t(
    a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray, confidence: float = 0.95
) -> PairedTest:
    """Paired t-test (scipy) with the confidence interval of the mean difference."""
    x, y = _sample(a, 2), _sample(b, 2)
    if len(x) != len(y):
        raise StratagemError(f"paired samples differ in length: {len(x)} and {len(y)}")
    d = x - y
    n = len(d)
    result = _sps().ttest_rel(x, y)
    se = float(d.std(ddof=1) / np.sqrt(n))
    lo, hi = (
        (float(v) for v in _sps().t.interval(confidence, n - 1, loc=d.mean(), scale=se))
        if (se > 0)
        else (float(d.mean()),) * 2
    )
    return PairedTest(
        n, float(d.mean()), se, lo, hi, float(result.statistic), n - 1, float(result.pvalue)
    )


def anova_two_way(
    response: Sequence[float] | np.ndarray,
    a: Sequence[Any],
    b: Sequence[Any],
    names: tuple[str, str] = ("a", "b"),
) -> dict[str, dict[str, float]]:
    """Two-way ANOVA with interaction, both factors categorical (statsmodels, type II).

    Returns ``{row: {"df", "sum_sq", "F", "p"}}`` for each factor, the
    interaction (``"a:b"``) and ``"residual"``.
    """
    import pandas as pd
    import statsmodels.api as sm
    from statsmodels.formula.api import ols

    y = _sample(response, 4)
    if not len(a) == len(b) == len(y):
        raise StratagemError("response and both factors must have the same length")
    frame = pd.DataFrame({"y": y, "fa": [str(v) for v in a], "fb": [str(v) for v in b]})
    model = ols("y ~ C(fa) * C(fb)", data=frame).fit()
    table = sm.stats.anova_lm(model, typ=2)
    rows = {
        "C(fa)": names[0],
        "C(fb)": names[1],
        "C(fa):C(fb)": f"{names[0]}:{names[1]}",
        "Residual": "residual",
    }
    out: dict[str, dict[str, float]] = {}
    for key, label in rows.items():
        row = table.loc[key]
        out[label] = {
            "df": float(row["df"]),
            "sum_sq": float(row["sum_sq"]),
            "F": float(row["F"]) if key != "Residual" else float("nan"),
            "p": float(row["PR(>F)"]) if key != "Residual" else float("nan"),
        }
    return out


@dataclass(frozen=True)
class TukeyPair:
    """One pairwise comparison: ``mean(b) - mean(a)`` with its simultaneous interval."""

    a: str
    b: str
    diff: float
    lo: float
    hi: float
    p: float
    reject: bool


def tukey_hsd(
    values: Sequence[float] | np.ndarray, groups: Sequence[Any], alpha: float = 0.05
) -> list[TukeyPair]:
    """Tukey's honestly significant difference for every pair of groups (statsmodels)."""
    from statsmodels.stats.multicomp import pairwise_tukeyhsd

    y = _sample(values, 3)
    labels = np.array([str(g) for g in groups])
    if len(labels) != len(y):
        raise StratagemError("values and groups must have the same length")
    result = pairwise_tukeyhsd(y, labels, alpha=alpha)
    pairs = []
    names = result.groupsunique
    k = 0
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            pairs.append(
                TukeyPair(
                    str(names[i]),
                    str(names[j]),
                    float(result.meandiffs[k]),
                    float(result.confint[k][0]),
                    float(result.confint[k][1]),
                    float(result.pvalues[k]),
                    bool(result.reject[k]),
                )
            )
            k += 1
    return pairs


def levene(*groups: Sequence[float] | np.ndarray, center: str = "median") -> tuple[float, float]:
    """Levene's test of equal variances (Brown-Forsythe with the default median): (W, p)."""
    samples = [_sample(g, 2) for g in groups]
    if len(samples) < 2:
        raise StratagemError("Levene's test needs at least two groups")
    result = _sps().levene(*samples, center=center)
    return float(result.statistic), float(result.pvalue)


def group_summaries(
    values: Sequence[float] | np.ndarray, groups: Sequence[Any]
) -> Mapping[str, Summary]:
    """:func:`mean_ci` of each group, in order of first appearance."""
    y = np.asarray(values, dtype=np.float64)
    labels = [str(g) for g in groups]
    order = list(dict.fromkeys(labels))
    return {g: mean_ci(y[[lab == g for lab in labels]]) for g in order}
