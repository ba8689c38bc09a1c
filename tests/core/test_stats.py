"""Statistics against textbook examples with known answers."""

from __future__ import annotations

import numpy as np
import pytest

from stratagem.core.errors import StratagemError
from stratagem.core.stats import anova_two_way, levene, mean_ci, paired_t, tukey_hsd, wilson

# Student's sleep data (Cushny & Peebles 1905; R `datasets::sleep`): extra hours of
# sleep of 10 patients under two drugs.
DRUG1 = [0.7, -1.6, -0.2, -1.2, -0.1, 3.4, 3.7, 0.8, 0.0, 2.0]
DRUG2 = [1.9, 0.8, 1.1, 0.1, -0.1, 4.4, 5.5, 1.6, 4.6, 3.4]


def test_mean_ci_matches_r_t_test_on_the_sleep_data() -> None:
    # R: t.test(sleep$extra[1:10]) -> mean 0.75, 95% CI -0.5297804 2.0297804
    s = mean_ci(DRUG1)
    assert (s.n, s.mean) == (10, pytest.approx(0.75))
    assert (s.lo, s.hi) == (pytest.approx(-0.5297804, abs=1e-7), pytest.approx(2.0297804, abs=1e-7))


def test_paired_t_matches_r_on_the_sleep_data() -> None:
    # R: t.test(extra ~ group, data = sleep, paired = TRUE):
    # t = -4.0621, df = 9, p-value = 0.002833, CI -2.4598858 -0.7001142, mean diff -1.58
    r = paired_t(DRUG1, DRUG2)
    assert r.t == pytest.approx(-4.0621, abs=1e-4) and r.df == 9
    assert r.p == pytest.approx(0.002833, abs=1e-6)
    assert r.mean_diff == pytest.approx(-1.58)
    assert (r.lo, r.hi) == (
        pytest.approx(-2.4598858, abs=1e-7),
        pytest.approx(-0.7001142, abs=1e-7),
    )


@pytest.mark.parametrize(
    ("x", "n", "lo", "hi"),
    [
        (81, 263, 0.2553, 0.3662),
        (15, 148, 0.0624, 0.1605),
        (0, 20, 0.0, 0.1611),
        (1, 29, 0.0061, 0.1718),
    ],
)
def test_wilson_matches_newcombe_1998(x: int, n: int, lo: float, hi: float) -> None:
    # Newcombe (1998), Statistics in Medicine 17:857-872, Table II, method 3 (score interval).
    p, a, b = wilson(x, n)
    assert p == x / n
    assert (a, b) == (pytest.approx(lo, abs=5e-5), pytest.approx(hi, abs=5e-5))


# Montgomery, Design and Analysis of Experiments, Example 5.1: battery life (hours)
# by plate material (1, 2, 3) and temperature (15, 70, 125 F), four batteries per cell.
BATTERY = {
    (1, 15): [130, 155, 74, 180], (1, 70): [34, 40, 80, 75], (1, 125): [20, 70, 82, 58],
    (2, 15): [150, 188, 159, 126], (2, 70): [136, 122, 106, 115], (2, 125): [25, 70, 58, 45],
    (3, 15): [138, 110, 168, 160], (3, 70): [174, 120, 150, 139], (3, 125): [96, 104, 82, 60],
}  # fmt: skip


def test_two_way_anova_matches_montgomery_example_5_1() -> None:
    y, material, temperature = [], [], []
    for (m, t), lives in BATTERY.items():
        y += lives
        material += [m] * 4
        temperature += [t] * 4
    table = anova_two_way(y, material, temperature, ("material", "temperature"))
    # Montgomery Table 5.5: SS 10683.72 / 39118.72 / 9613.78 / 18230.75;
    # F 7.91 / 28.97 / 3.56; P 0.0020 / < 0.0001 / 0.0186.
    assert table["material"]["sum_sq"] == pytest.approx(10683.72, abs=0.01)
    assert table["temperature"]["sum_sq"] == pytest.approx(39118.72, abs=0.01)
    assert table["material:temperature"]["sum_sq"] == pytest.approx(9613.78, abs=0.01)
    assert table["residual"]["sum_sq"] == pytest.approx(18230.75, abs=0.01)
    assert table["material"]["F"] == pytest.approx(7.91, abs=0.005)
    assert table["temperature"]["F"] == pytest.approx(28.97, abs=0.005)
    assert table["material:temperature"]["F"] == pytest.approx(3.56, abs=0.005)
    assert table["material"]["p"] == pytest.approx(0.0020, abs=5e-5)
    assert table["material:temperature"]["p"] == pytest.approx(0.0186, abs=5e-5)
    assert table["temperature"]["p"] < 1e-4
    assert table["residual"]["df"] == 27


def test_tukey_matches_montgomery_example_3_1() -> None:
    # Montgomery Example 3.1 (etch rate by RF power). With MS_E = 333.70 on 16 df,
    # Tukey's critical difference is q(4, 16) * sqrt(333.70 / 5) = 4.05 * 8.17 = 33.09,
    # and every pair of powers differs significantly (section 3.5.7).
    etch = {
        160: [575, 542, 530, 539, 570],
        180: [565, 593, 590, 579, 610],
        200: [600, 651, 610, 637, 629],
        220: [725, 700, 715, 685, 710],
    }
    values = [v for vs in etch.values() for v in vs]
    groups = [g for g, vs in etch.items() for _ in vs]
    pairs = tukey_hsd(values, groups)
    assert len(pairs) == 6 and all(p.reject for p in pairs)
    first = next(p for p in pairs if (p.a, p.b) == ("160", "180"))
    assert first.diff == pytest.approx(36.2)
    assert first.diff - first.lo == pytest.approx(33.09, abs=0.05)


def test_levene_matches_the_scipy_reference_example() -> None:
    # scipy.stats.levene documentation example (three machines' measurements):
    # statistic 7.584952754501659, p 0.002431505967249681 (median-centred).
    a = [8.88, 9.12, 9.04, 8.98, 9.00, 9.08, 9.01, 8.85, 9.06, 8.99]
    b = [8.88, 8.95, 9.29, 9.44, 9.15, 9.58, 8.36, 9.18, 8.67, 9.05]
    c = [8.95, 9.12, 8.95, 8.85, 9.03, 8.84, 9.07, 8.98, 8.86, 8.98]
    w, p = levene(a, b, c)
    assert w == pytest.approx(7.584952754501659, rel=1e-9)
    assert p == pytest.approx(0.002431505967249681, rel=1e-9)


def test_bad_samples_are_refused() -> None:
    with pytest.raises(StratagemError, match="at least 1 values"):
        mean_ci([])
    with pytest.raises(StratagemError, match="finite"):
        mean_ci([1.0, float("nan")])
    with pytest.raises(StratagemError, match="differ in length"):
        paired_t([1, 2, 3], [1, 2])
    with pytest.raises(StratagemError, match="successes"):
        wilson(5, 3)


def test_a_single_value_has_no_spread_and_no_interval() -> None:
    s = mean_ci(np.array([3.0]))
    assert s.mean == 3.0 and all(np.isnan(v) for v in (s.lo, s.hi, s.sd, s.se))
    assert s.to_json()["sd"] is None and s.to_json()["mean"] == 3.0


def test_a_bounded_mean_keeps_its_interval_inside_the_bounds() -> None:
    s = mean_ci([1.0, 1.0, 1.0, 0.5], bounds=(0.0, 1.0))
    assert 0.0 <= s.lo <= s.mean <= s.hi == 1.0
    assert mean_ci([1.0, 1.0, 1.0, 0.5]).hi > 1.0  # what the cut prevents


def test_wilson_with_half_wins_stays_inside_0_1() -> None:
    for wins in (0.0, 0.5, 1.5, 2.5, 3.0):
        p, lo, hi = wilson(wins, 3)
        assert 0.0 <= lo <= p <= hi <= 1.0
