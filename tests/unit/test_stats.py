"""Tests of arena.stats.elo against published vectors and hand-computed answers (`arena stats`:
tests/cli/test_stats_cli.py).

The vectors are fastchess's (its documentation and its tests, app/tests/sprt_test.cpp), copied
from shared/data/stats-vectors.md; the exact-LLR known answer is issue 9's.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.cli.stats import format_report
from arena.rules.results import Result
from arena.stats.elo import (
    MAX_UNITS,
    NELO_SCALE,
    SPRT_EMPTY_CLASS,
    Z95,
    EloEstimate,
    Interval,
    SprtBounds,
    Verdict,
    difference,
    elo_from_score,
    los,
    normal_cdf,
    pentanomial,
    score_from_elo,
    sprt,
    sprt_bounds,
    sprt_llr,
    sprt_sample,
    sprt_verdict,
    trinomial,
    wilson,
)
from arena.stats.tally import Tally


def two(x: float) -> str:
    """A number as printed in the vectors: two decimals."""
    return f"{x:.2f}"


# --------------------------------------------------------------------------- known vectors


def test_z_constant() -> None:
    assert Z95 == 1.959963984540054
    assert normal_cdf(Z95) == pytest.approx(0.975, abs=1e-12)
    assert abs(NELO_SCALE - 347.4355855) < 1e-6


def test_trinomial_vector() -> None:
    e = trinomial(wins=136, draws=111, losses=96)
    assert (e.n, e.games, e.points) == (343, 343, 191.5)
    assert two(e.elo) == "40.70"
    assert two(e.error) == "30.43"
    assert two(e.nelo) == "49.77"
    assert two(e.nelo_error) == "36.77"
    assert two(100 * e.los) == "99.60"


@pytest.mark.parametrize(
    ("counts", "elo", "error", "nelo", "nelo_error", "los_pct"),
    [
        ((34, 54, 31, 32, 64, 75), "55.58", "27.65", "57.94", "28.28", None),
        ((332, 433, 457, 41, 333, 334), "-8.64", "10.33", "-9.17", "10.96", "5.05"),
    ],
)
def test_pentanomial_vectors(
    counts: tuple[int, ...],
    elo: str,
    error: str,
    nelo: str,
    nelo_error: str,
    los_pct: str | None,
) -> None:
    e = pentanomial(counts)
    assert e.kind == "pentanomial"
    assert e.n == sum(counts)
    assert e.games == 2 * sum(counts)
    assert two(e.elo) == elo
    assert two(e.error) == error
    assert two(e.nelo) == nelo
    assert two(e.nelo_error) == nelo_error
    if los_pct is not None:
        assert two(100 * e.los) == los_pct


LLR_VECTORS = [
    (trinomial(36433, 68692, 36027), 0.0, 2.0, "normalized", "0.92"),
    (trinomial(21404, 40708, 21184), 0.5, 2.5, "logistic", "-1.57"),
    (pentanomial((365, 16618, 36029, 200, 16974, 390)), 0.0, 2.0, "normalized", "2.25"),
    (pentanomial((871, 26175, 55003, 980, 26678, 821)), 0.0, 2.0, "logistic", "-4.98"),
]
"""The LLR vectors of stats-vectors.md: the exact LLR and its approximation agree to 0.01."""

EXACT_LLR_VECTORS = [
    (trinomial(10871, 20431, 10650), -1.75, 0.25, "normalized", "2.30"),
    (trinomial(57433, 106593, 57030), 0.0, 2.0, "logistic", "-2.59"),
    (pentanomial((127, 4883, 10311, 401, 5150, 104)), -1.75, 0.25, "normalized", "3.01"),
    (pentanomial((223, 9863, 20279, 1000, 10037, 246)), 0.5, 2.5, "logistic", "-3.07"),
]
"""More of fastchess's tests of its exact LLR (W, D, L and LL, LD, WL, DD, WD, WW here)."""


@pytest.mark.parametrize("method", ["exact", "approximate"])
@pytest.mark.parametrize(("estimate", "elo0", "elo1", "model", "expected"), LLR_VECTORS)
def test_llr_vectors(estimate: EloEstimate, elo0: float, elo1: float, model: str,
                     expected: str, method: str) -> None:
    llr = sprt_llr(estimate, elo0, elo1, model, method)  # type: ignore[arg-type]
    assert two(llr) == expected


@pytest.mark.parametrize(("estimate", "elo0", "elo1", "model", "expected"), EXACT_LLR_VECTORS)
def test_exact_llr_vectors(estimate: EloEstimate, elo0: float, elo1: float, model: str,
                           expected: str) -> None:
    assert two(sprt_llr(estimate, elo0, elo1, model)) == expected  # type: ignore[arg-type]


def test_exact_llr_known_answer() -> None:
    # Issue 9: pairs LL 8, LD 3, WL 43, DD 1, WD 6, WW 39, normalized Elo 0 against 20.
    estimate = pentanomial((8, 3, 43, 1, 6, 39))
    assert f"{sprt_llr(estimate, 0, 20):.4f}" == "3.4548"
    assert f"{sprt_llr(estimate, 0, 20, method='exact'):.4f}" == "3.4548"
    assert f"{sprt_llr(estimate, 0, 20, method='approximate'):.4f}" == "3.5122"
    assert sprt(estimate, 0, 20).method == "exact"


def test_exact_logistic_llr_by_hand() -> None:
    # 100 wins, draws and losses each; H0 score 1/2, H1 score 0.6. Under H0 the sample itself
    # is the closest distribution. Under H1, p_i = (1/3) / (1 + x (a_i - 0.6)) for the scores
    # a = 0, 1/2, 1, with x the root in (-2.5, 5/3) of
    #   -0.6 / (1 - 0.6x) - 0.1 / (1 - 0.1x) + 0.4 / (1 + 0.4x) = 0,
    # i.e. of 0.072 x^2 - 0.44 x - 0.3 = 0: x = (0.44 - sqrt(0.28)) / 0.144. Then
    #   LLR = 300 * (1/3) * sum_i ln(3 p_i) = -100 * sum_i ln(1 + x (a_i - 0.6)).
    x = (0.44 - math.sqrt(0.28)) / 0.144
    terms = [1 + x * (a - 0.6) for a in (0.0, 0.5, 1.0)]
    p1 = [1 / 3 / term for term in terms]
    assert sum(p1) == pytest.approx(1.0) and p1[1] / 2 + p1[2] == pytest.approx(0.6)
    expected = -100 * sum(math.log(term) for term in terms)  # -9.1407...
    estimate = trinomial(100, 100, 100)
    llr = sprt_llr(estimate, 0.0, elo_from_score(0.6), "logistic")
    assert llr == pytest.approx(expected, abs=1e-9)
    # the closed form: N (s1 - s0)(2 s - s0 - s1) / (2 var) with s = 1/2, var = 1/6
    approximate = sprt_llr(estimate, 0.0, elo_from_score(0.6), "logistic", "approximate")
    assert approximate == pytest.approx(300 * 0.1 * -0.1 / (2 / 6))


def brute_force_trinomial_llr(wins: int, draws: int, losses: int, nelo0: float,
                              nelo1: float) -> float:
    """The exact normalized LLR of a trinomial sample with no empty class, by brute force.

    A distribution (pL, pD, pW) of mean m and t-value t has variance v = ((m - 1/2) / t)^2,
    and pW + pD / 4 - m^2 = v gives pD = 4 (m (1 - m) - v): the distributions of t-value t form
    a curve with parameter m. The best one is found by evaluating the likelihood on a fine
    grid of m, then on a finer grid around the best point.
    """
    n = wins + draws + losses
    f = np.array([losses, draws, wins]) / n

    def best(nelo: float) -> float:
        t = nelo / NELO_SCALE
        low, high = (0.5, 1.0) if t > 0 else (0.0, 0.5)
        grid = np.linspace(low, high, 200_001)[1:-1]
        for _ in range(3):
            v = ((grid - 0.5) / t) ** 2
            d = 4 * (grid * (1 - grid) - v)
            p = np.stack([1 - grid - d / 2, d, grid - d / 2])
            with np.errstate(invalid="ignore", divide="ignore"):
                likelihood = np.where((p > 0).all(axis=0), f @ np.log(np.abs(p)), -np.inf)
            k = int(np.argmax(likelihood))
            step = grid[1] - grid[0]
            grid = np.linspace(grid[k] - step, grid[k] + step, 2001)
        return float(likelihood[k])

    return n * (best(nelo1) - best(nelo0))


@pytest.mark.parametrize(("counts", "nelo0", "nelo1"), [
    ((60, 20, 20), 10.0, 100.0),   # both hypotheses between 0 and the sample's 174 nElo
    ((60, 20, 20), 20.0, 300.0),   # H1 beyond the sample
    ((30, 50, 20), -50.0, 40.0),
    ((3, 2, 9), -30.0, 25.0),
    ((7, 3, 9), 10.0, 400.0),      # fishtest's fixed-point iteration finds no solution for H1
])
def test_exact_normalized_llr_matches_a_brute_force_search(counts: tuple[int, int, int],
                                                           nelo0: float, nelo1: float) -> None:
    expected = brute_force_trinomial_llr(*counts, nelo0, nelo1)
    assert sprt_llr(trinomial(*counts), nelo0, nelo1) == pytest.approx(expected, abs=1e-6)


def test_empty_classes_count_1e3_with_wl_and_dd_merged() -> None:
    # WL and DD both score 1/2: fishtest counts them as one class before regularising
    merged = [sprt_sample(pentanomial(c)) for c in ((0, 0, 5, 0, 0, 0), (0, 0, 0, 5, 0, 0),
                                                    (0, 0, 2, 3, 0, 0))]
    e = SPRT_EMPTY_CLASS
    assert all(s.weights == (e, e, 5.0, e, e) for s in merged)
    assert merged[0].values == (0.0, 0.25, 0.5, 0.75, 1.0)
    assert sprt_sample(trinomial(0, 3, 7)) == sprt_sample(trinomial(0, 3, 7))
    assert sprt_sample(trinomial(0, 3, 7)).weights == (7.0, 3.0, e)  # losses, draws, wins
    # Every pair scored 1/2: t = 0, so the approximation is (games/2) ln(1 / (1 + t1^2)) with
    # games = 2 (5 + 4e-3) (four empty classes, not five) and t1 the per-game t-value.
    t1 = 20 / NELO_SCALE
    expected = (5 + 4 * e) * math.log(1 / (1 + t1**2))
    for counts in ((0, 0, 5, 0, 0, 0), (0, 0, 2, 3, 0, 0)):
        approximate = sprt_llr(pentanomial(counts), 0, 20, method="approximate")
        assert approximate == pytest.approx(expected, rel=1e-12)
        assert sprt_llr(pentanomial(counts), 0, 20) < 0  # exact: H0 explains it best


def test_one_sided_samples_decide_sensibly() -> None:
    # 16,700 straight wins: A is more than 5 nElo stronger; 16,700 draws: it is not.
    assert sprt(trinomial(16700, 0, 0), 0, 5).verdict is Verdict.ACCEPT_H1
    assert sprt(trinomial(0, 16700, 0), 0, 5).verdict is Verdict.ACCEPT_H0
    assert sprt(pentanomial((0, 0, 0, 0, 0, 104)), 0, 5).llr > 0


small_counts = st.tuples(*(st.integers(0, 40),) * 3).filter(lambda c: sum(c) > 0)
hypotheses = st.tuples(st.floats(-300, 300), st.floats(1, 300))


@settings(max_examples=25, deadline=None)
@given(small_counts, hypotheses, st.sampled_from(["normalized", "logistic"]))
def test_exact_llr_is_finite_and_mirrors(c: tuple[int, int, int], h: tuple[float, float],
                                         model: str) -> None:
    # A's wins are the mirror sample's losses: H1 against H0 there is H0 against H1 here.
    elo0, elo1 = h[0], h[0] + h[1]
    llr = sprt_llr(trinomial(*c), elo0, elo1, model)  # type: ignore[arg-type]
    mirror = sprt_llr(trinomial(*reversed(c)), -elo1, -elo0, model)  # type: ignore[arg-type]
    assert math.isfinite(llr)
    assert llr == pytest.approx(-mirror, rel=1e-6, abs=1e-6)


def test_sprt_bounds_default() -> None:
    b = sprt_bounds(0.05, 0.05)
    assert f"{b.lower:.3f}" == "-2.944"
    assert f"{b.upper:.3f}" == "2.944"
    assert b.lower == pytest.approx(math.log(0.05 / 0.95))


def test_sprt_bounds_asymmetric() -> None:
    b = sprt_bounds(alpha=0.05, beta=0.10)
    assert b.lower == pytest.approx(math.log(0.10 / 0.95))
    assert b.upper == pytest.approx(math.log(0.90 / 0.05))


@pytest.mark.parametrize(("alpha", "beta"), [(0.0, 0.05), (1.0, 0.05), (0.05, -0.1), (0.6, 0.5)])
def test_sprt_bounds_rejects_bad_rates(alpha: float, beta: float) -> None:
    with pytest.raises(ValueError, match=r"alpha|beta"):
        sprt_bounds(alpha, beta)


def test_sprt_verdicts() -> None:
    b = SprtBounds(-2.944, 2.944)
    assert sprt_verdict(3.0, b) is Verdict.ACCEPT_H1
    assert sprt_verdict(2.944, b) is Verdict.ACCEPT_H1
    assert sprt_verdict(-3.0, b) is Verdict.ACCEPT_H0
    assert sprt_verdict(0.5, b) is Verdict.CONTINUE
    assert sprt_verdict(math.nan, b) is Verdict.CONTINUE
    assert str(Verdict.ACCEPT_H0) == "accept H0"


def test_sprt_end_to_end() -> None:
    result = sprt(pentanomial((871, 26175, 55003, 980, 26678, 821)), 0, 2, model="logistic")
    assert two(result.llr) == "-4.98"
    assert result.verdict is Verdict.ACCEPT_H0
    strong = sprt(trinomial(600, 300, 300), 0, 5)
    assert strong.llr > strong.bounds.upper
    assert strong.verdict is Verdict.ACCEPT_H1
    assert sprt(trinomial(36433, 68692, 36027), 0, 2).verdict is Verdict.CONTINUE


def test_sprt_llr_rejects_bad_hypotheses() -> None:
    e = trinomial(10, 10, 10)
    with pytest.raises(ValueError, match="expected finite elo0 < elo1, got elo0 2, elo1 0"):
        sprt_llr(e, 2.0, 0.0)
    with pytest.raises(ValueError, match="expected finite elo0 < elo1"):
        sprt_llr(e, 1.0, 1.0)
    with pytest.raises(ValueError, match="model 'bayes'"):
        sprt_llr(e, 0.0, 2.0, "bayes")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="LLR method 'guess'"):
        sprt_llr(e, 0.0, 2.0, method="guess")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="elo1 7000 Elo is out of the logistic model's range"):
        sprt_llr(e, 0.0, 7000.0, "logistic")
    assert math.isfinite(sprt_llr(e, 0.0, 7000.0))  # a t-value of 20 is fine


def test_llr_sign_follows_the_data() -> None:
    good = trinomial(700, 200, 100)
    bad = trinomial(100, 200, 700)
    for model in ("normalized", "logistic"):
        for method in ("exact", "approximate"):
            assert sprt_llr(good, 0, 5, model, method) > 0  # type: ignore[arg-type]
            assert sprt_llr(bad, 0, 5, model, method) < 0  # type: ignore[arg-type]


# --------------------------------------------------------------------------- Wilson, Elo, LOS


def test_wilson_hand_computed() -> None:
    # p = 0.7, n = 10: centre (p + z^2/2n)/(1 + z^2/n), half z/(1 + z^2/n) sqrt(p q/n + z^2/4n^2)
    ci = wilson(7, 10)
    assert ci.low == pytest.approx(0.396778, abs=1e-6)
    assert ci.high == pytest.approx(0.892209, abs=1e-6)


def test_wilson_with_draws() -> None:
    ci = wilson(136 + 111 / 2, 343)
    assert ci.low == pytest.approx(0.505398, abs=1e-6)
    assert ci.high == pytest.approx(0.609928, abs=1e-6)


def test_the_normal_interval_uses_the_sample_variance() -> None:
    # s = 191.5 / 343, var = [136 (1 - s)^2 + 111 (1/2 - s)^2 + 96 s^2] / 343, se = sqrt(var / 343)
    e = trinomial(136, 111, 96)
    s = 191.5 / 343
    se = math.sqrt((136 * (1 - s) ** 2 + 111 * (0.5 - s) ** 2 + 96 * s**2) / 343 / 343)
    assert e.interval_method == "normal"
    assert (e.score_interval.low, e.score_interval.high) == pytest.approx(
        (s - Z95 * se, s + Z95 * se), abs=1e-12)
    assert (e.score_interval.low, e.score_interval.high) == pytest.approx((0.515231, 0.601387),
                                                                          abs=1e-6)
    assert e.elo_interval == Interval(elo_from_score(e.score_interval.low),
                                      elo_from_score(e.score_interval.high))
    assert wilson(191.5, 343).width > e.score_interval.width  # Wilson ignores what draws save


def test_paired_intervals_all_come_from_the_pair_variance() -> None:
    # Pair scores 0, 1/4, 1/2, 1/2, 3/4, 1 with counts 8, 3, 43, 1, 6, 39: s = 66.25 / 100 and
    # var = [8 s^2 + 3 (1/4 - s)^2 + 44 (1/2 - s)^2 + 6 (3/4 - s)^2 + 39 (1 - s)^2] / 100
    #     = 0.09671875 per pair; the interval is s +- 1.96 sqrt(var / 100 pairs).
    e = pentanomial((8, 3, 43, 1, 6, 39))
    half = Z95 * math.sqrt(0.09671875 / 100)
    assert e.variance == pytest.approx(0.09671875, abs=1e-15)
    assert e.interval_method == "normal"
    assert (e.score_interval.low, e.score_interval.high) == pytest.approx(
        (0.6625 - half, 0.6625 + half), abs=1e-12)
    assert e.elo_interval == Interval(elo_from_score(e.score_interval.low),
                                      elo_from_score(e.score_interval.high))
    assert e.error == pytest.approx(e.elo_interval.width / 2)
    games_interval = wilson(132.5, 200)  # what the games, taken as independent, would say
    assert abs(games_interval.low - e.score_interval.low) > 0.005


def test_wilson_edges() -> None:
    all_won = wilson(10, 10)
    assert all_won.high == 1.0
    assert all_won.low == pytest.approx(0.722467, abs=1e-6)
    assert wilson(0, 10).low == 0.0
    with pytest.raises(ValueError, match="n=0"):
        wilson(0, 0)
    with pytest.raises(ValueError, match="score_sum"):
        wilson(11, 10)


def test_elo_score_round_trip() -> None:
    assert elo_from_score(0.5) == 0.0
    assert elo_from_score(10 / 11) == pytest.approx(400.0)
    assert score_from_elo(400.0) == pytest.approx(10 / 11)
    assert score_from_elo(-400.0) == pytest.approx(1 / 11)
    assert elo_from_score(1.0) == math.inf
    assert elo_from_score(0.0) == -math.inf
    assert score_from_elo(1e6) == 1.0
    assert score_from_elo(-1e6) == 0.0
    with pytest.raises(ValueError, match="score"):
        elo_from_score(1.5)


def test_los_function() -> None:
    assert los(0.5, 0.01) == 0.5
    assert los(0.5 + Z95 * 0.01, 0.01) == pytest.approx(0.975)
    assert los(0.6, 0.0) == 1.0
    assert los(0.4, 0.0) == 0.0
    assert los(0.5, 0.0) == 0.5


def test_elo_interval_and_error_agree() -> None:
    e = trinomial(136, 111, 96)
    assert isinstance(e.elo_interval, Interval)
    assert e.elo in e.elo_interval
    assert e.error == pytest.approx(e.elo_interval.width / 2)
    low = elo_from_score(e.score - Z95 * e.se)
    assert e.elo_interval.low == pytest.approx(low)


# --------------------------------------------------------------------------- degenerate input


def test_all_wins() -> None:
    # Wilson at p = 1: [n / (n + z^2), 1]; no variance, so no nElo; LOS Phi(2 sqrt(n) / 2)
    e = trinomial(12, 0, 0)
    assert e.score == 1.0 and e.elo == math.inf
    assert e.interval_method == "wilson"
    assert e.score_interval.high == 1.0
    assert e.score_interval.low == pytest.approx(12 / (12 + Z95**2), abs=1e-12)
    assert e.elo_interval.low == pytest.approx(-400 * math.log10(Z95**2 / 12))
    assert e.elo_interval.high == math.inf and e.error == math.inf
    assert math.isnan(e.nelo_error)
    assert e.los == pytest.approx(normal_cdf(math.sqrt(12)))


def test_all_losses() -> None:
    e = pentanomial((5, 0, 0, 0, 0, 0))
    assert e.elo == -math.inf
    assert e.nelo == -math.inf
    assert e.score_interval == Interval(0.0, pytest.approx(Z95**2 / (5 + Z95**2)))
    assert e.elo_interval.low == -math.inf and math.isfinite(e.elo_interval.high)
    assert e.los == pytest.approx(normal_cdf(-math.sqrt(5)))  # 1.27%, not 0


def test_all_draws_zero_variance() -> None:
    # Wilson at p = 1/2, n = 8: 1/2 +- z / (1 + z^2/8) sqrt(1/32 + z^2/256)
    e = trinomial(0, 8, 0)
    half = Z95 / (1 + Z95**2 / 8) * math.sqrt(1 / 32 + Z95**2 / 256)
    assert e.variance == 0.0
    assert e.interval_method == "wilson"
    assert (e.score_interval.low, e.score_interval.high) == pytest.approx((0.5 - half,
                                                                           0.5 + half))
    assert e.elo == 0.0
    assert e.error == pytest.approx(elo_from_score(0.5 + half))
    assert math.isnan(e.nelo)
    assert e.los == 0.5
    # Empty classes count 1e-3, so the score stays 1/2 exactly and t = 0:
    # LLR = (games/2) ln(1 / (1 + t1^2)) with games = 8 + 2e-3, slightly in favour of H0.
    t1 = 2 / NELO_SCALE
    assert sprt_llr(e, 0, 2, method="approximate") == pytest.approx(
        4.001 * math.log(1 / (1 + t1**2)), rel=1e-12)
    assert -0.01 < sprt_llr(e, 0, 2) < 0
    assert sprt(e, 0, 2).verdict is Verdict.CONTINUE
    assert sprt_llr(pentanomial((0, 0, 4, 3, 0, 0)), 0, 2, "logistic") < 0


def test_wins_only_logistic_llr_is_not_infinite() -> None:
    # a single won game must not end an SPRT
    for method in ("exact", "approximate"):
        result = sprt(trinomial(1, 0, 0), 0, 5, model="logistic", method=method)  # type: ignore[arg-type]
        assert result.verdict is Verdict.CONTINUE


def test_ten_wins_one_loss_has_a_finite_elo_interval() -> None:
    # The normal interval 10/11 +- 1.96 sqrt((10/11)(1/11) / 11) passes 100%. The Wilson one:
    # centre (p + z^2/2n) / (1 + z^2/n), half-width z / (1 + z^2/n) sqrt(p q / n + z^2 / 4n^2).
    e = trinomial(10, 0, 1)
    assert 10 / 11 + Z95 * math.sqrt(10 / 11 / 11 / 11) > 1
    assert e.interval_method == "wilson"
    assert (e.score_interval.low, e.score_interval.high) == pytest.approx((0.622642, 0.983768),
                                                                          abs=1e-6)
    assert e.elo == pytest.approx(400.0)  # -400 log10(1/s - 1) with 1/s - 1 = 1/10
    # -400 log10(1/0.622642 - 1) and -400 log10(1/0.983768 - 1)
    assert (e.elo_interval.low, e.elo_interval.high) == pytest.approx((86.99, 713.01), abs=0.01)
    assert e.error == pytest.approx((713.01 - 86.99) / 2, abs=0.01)
    assert e.nelo == pytest.approx(9 / 22 / (math.sqrt(10) / 11) * NELO_SCALE)  # 494.41
    assert math.isnan(e.nelo_error)
    assert e.los == pytest.approx(normal_cdf(9 / math.sqrt(11)), abs=1e-12)  # 99.67%


def test_a_single_draw() -> None:
    # Wilson at p = 1/2, n = 1: 1/2 +- z / (2 sqrt(1 + z^2)) = [0.054621, 0.945379]
    e = trinomial(0, 1, 0)
    half = Z95 / (2 * math.sqrt(1 + Z95**2))
    assert (e.score_interval.low, e.score_interval.high) == pytest.approx((0.5 - half,
                                                                           0.5 + half))
    assert e.score_interval.low == pytest.approx(0.054621, abs=1e-6)
    assert e.elo == 0.0
    assert e.elo_interval.high == pytest.approx(-e.elo_interval.low)
    assert e.elo_interval.high == pytest.approx(495.30, abs=0.005)
    assert math.isnan(e.nelo) and math.isnan(e.nelo_error)
    assert e.los == 0.5


def test_a_single_win() -> None:
    # Wilson at p = 1, n = 1: [1 / (1 + z^2), 1], so Elo >= -400 log10(z^2) = -233.80;
    # LOS Phi(2 sqrt(1) (1 - 1/2)) = Phi(1) = 84.13%, not 100%.
    e = trinomial(1, 0, 0)
    assert e.score_interval.low == pytest.approx(1 / (1 + Z95**2))
    assert e.elo_interval.low == pytest.approx(-800 * math.log10(Z95))
    assert f"{e.elo_interval.low:.2f}" == "-233.80"
    assert e.los == pytest.approx(normal_cdf(1.0))
    assert f"{100 * e.los:.2f}" == "84.13"


def test_counts_beyond_1e15_are_refused() -> None:
    with pytest.raises(ValueError, match=r"add up to a number of 401 digits; at most 10\^15"):
        trinomial(10**400, 0, 1)
    with pytest.raises(ValueError, match="add up to 1000000000000001"):
        pentanomial((MAX_UNITS, 0, 0, 0, 0, 1))
    e = trinomial(MAX_UNITS - 1, 0, 1)  # the largest sample: its score is still below 1
    assert e.score < 1.0
    assert math.isfinite(e.elo_interval.low) and math.isfinite(e.elo_interval.high)


@pytest.mark.parametrize("counts", [(0, 0, 0)])
def test_no_games_raises(counts: tuple[int, int, int]) -> None:
    with pytest.raises(ValueError, match="no games"):
        trinomial(*counts)
    with pytest.raises(ValueError, match="no game pairs"):
        pentanomial((0, 0, 0, 0, 0, 0))


def test_negative_counts_raise() -> None:
    with pytest.raises(ValueError, match="losses must be non-negative"):
        trinomial(3, 2, -1)
    with pytest.raises(ValueError, match="WD must be non-negative"):
        pentanomial((1, 1, 1, 1, -2, 1))


def test_bad_count_types_raise() -> None:
    with pytest.raises(ValueError, match="six counts"):
        pentanomial((1, 2, 3))
    with pytest.raises(ValueError, match="whole number"):
        trinomial(1.5, 2, 3)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="whole number"):
        trinomial(math.inf, 2, 3)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="integer"):
        trinomial("3", 2, 3)  # type: ignore[arg-type]
    assert trinomial(3.0, 2, 1).counts == (3, 2, 1)  # type: ignore[arg-type]


def test_a_tally_counts_games_and_pairs_and_flips() -> None:
    w, d, lo = Result.WIN, Result.DRAW, Result.LOSS
    tally = Tally.of_pairs([w, lo, lo, w, d, d, w, w, d, lo])
    assert tally.pentanomial_counts == (0, 1, 2, 1, 0, 1)  # LL, LD, WL, DD, WD, WW
    assert tally.wtl == (4, 3, 3) and tally.games == 10 and tally.score == 0.55
    flipped = tally.flip()
    assert flipped.wtl == (3, 3, 4) and flipped.pentanomial_counts == (1, 0, 2, 1, 1, 0)
    assert (tally + flipped).score == 0.5 and flipped.flip() == tally
    assert tally.pentanomial().counts == tally.pentanomial_counts
    assert tally.trinomial().counts == (4, 3, 3)
    with pytest.raises(ValueError):
        Result("tie")


# --------------------------------------------------------------------------- properties


counts3 = st.tuples(*(st.integers(0, 500),) * 3).filter(lambda c: sum(c) > 0)


def check_intervals(e: EloEstimate) -> None:
    """The interval rules of arena.stats.elo, for any estimate."""
    ci = e.score_interval
    assert 0.0 <= ci.low <= e.score <= ci.high <= 1.0
    assert e.elo_interval == Interval(elo_from_score(ci.low), elo_from_score(ci.high))
    assert 0.0 <= e.los <= 1.0
    if e.interval_method == "normal":
        assert ci.low > 0.0 and ci.high < 1.0 and e.variance > 0.0
        assert math.isfinite(e.error) and math.isfinite(e.nelo_error)
        assert (e.los > 0.975) == (ci.low > 0.5)
    else:
        assert math.isnan(e.nelo_error)
        assert e.variance == 0.0 or e.score - Z95 * e.se <= 0.0 or e.score + Z95 * e.se >= 1.0
        assert ci == wilson(e.score * e.n, e.n)
    if 0.0 < e.score < 1.0:
        assert math.isfinite(e.elo_interval.low) and math.isfinite(e.elo_interval.high)
    text = format_report(e)
    assert "nan" not in text and "inf" not in text


@given(counts3)
def test_trinomial_properties(c: tuple[int, int, int]) -> None:
    w, d, lo = c
    e = trinomial(w, d, lo)
    mirror = trinomial(lo, d, w)
    check_intervals(e)
    assert e.interval_method == mirror.interval_method
    assert e.los == pytest.approx(1.0 - mirror.los, abs=1e-12)
    if math.isfinite(e.elo):
        assert e.elo == pytest.approx(-mirror.elo, abs=1e-9)
        assert e.elo_interval.low <= e.elo <= e.elo_interval.high
    if e.variance > 0:
        assert e.nelo == pytest.approx(-mirror.nelo, abs=1e-9)


@given(st.tuples(*(st.integers(0, 6),) * 6).filter(lambda c: sum(c) > 0))
def test_pentanomial_properties(c: tuple[int, ...]) -> None:
    e = pentanomial(c)
    check_intervals(e)
    assert e.n == sum(c)


@given(st.tuples(*(st.integers(0, 300),) * 3).filter(lambda c: sum(c) > 0))
def test_pairs_of_identical_games_match_trinomial_score(c: tuple[int, int, int]) -> None:
    # pairs LL, DD, WW only: same mean score as the games played twice
    w, d, lo = c
    assert pentanomial((lo, 0, 0, d, 0, w)).score == pytest.approx(trinomial(w, d, lo).score)


# --------------------------------------------------------------------------- differences


def test_the_difference_of_two_wilson_scores_is_newcombes_square_and_add() -> None:
    """Newcombe (1998, Statistics in Medicine 17: 873-890), Table II, 56/70 - 48/80 by the
    score method without continuity correction (his method 10): [0.0524, 0.3339]."""
    value, interval = difference(48 / 80, wilson(48, 80), 56 / 70, wilson(56, 70))
    assert value == pytest.approx(0.2)
    assert (round(interval.low, 4), round(interval.high, 4)) == (0.0524, 0.3339)


@given(st.floats(0.05, 0.95), st.floats(0.001, 0.04), st.floats(0.05, 0.95),
       st.floats(0.001, 0.04))
def test_the_difference_of_two_normal_intervals_adds_their_variances(
        first: float, first_se: float, second: float, second_se: float) -> None:
    value, interval = difference(
        first, Interval(first - Z95 * first_se, first + Z95 * first_se),
        second, Interval(second - Z95 * second_se, second + Z95 * second_se))
    half = Z95 * math.hypot(first_se, second_se)
    assert value == pytest.approx(second - first)
    assert interval.low == pytest.approx(value - half)
    assert interval.high == pytest.approx(value + half)


def test_an_infinite_estimate_has_no_finite_difference() -> None:
    value, interval = difference(100.0, Interval(50.0, 150.0), math.inf, Interval(300.0, math.inf))
    assert math.isnan(value) and interval == Interval(-math.inf, math.inf)
