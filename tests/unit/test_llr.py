"""arena.stats.llr: the generalised log-likelihood ratio of a score sample, and its closed forms."""

from __future__ import annotations

import math

import pytest

from arena.stats.llr import (
    ScoreSample,
    approximate_llr_mean,
    approximate_llr_t_value,
    exact_llr_mean,
    exact_llr_t_value,
)

GAMES = (0.0, 0.5, 1.0)
SAMPLE = ScoreSample(GAMES, (20.0, 30.0, 50.0))  # 20 losses, 30 draws, 50 wins


def t_value(sample: ScoreSample) -> float:
    return (sample.mean - 0.5) / math.sqrt(sample.variance)


def test_sample_moments() -> None:
    assert SAMPLE.size == 100.0
    assert SAMPLE.frequencies == (0.2, 0.3, 0.5)
    assert SAMPLE.mean == pytest.approx(0.65)
    assert SAMPLE.variance == pytest.approx(0.2 * 0.65**2 + 0.3 * 0.15**2 + 0.5 * 0.35**2)


@pytest.mark.parametrize(("values", "weights", "message"), [
    ((0.0,), (1.0,), "two or more values"),
    ((0.0, 1.0), (1.0,), "one weight each"),
    ((1.0, 0.0), (1.0, 1.0), "must ascend"),
    ((0.0, 1.0), (1.0, 0.0), "must be positive"),
    ((0.0, 1.0), (1.0, math.nan), "must be positive"),
])
def test_bad_samples_are_refused(values: tuple[float, ...], weights: tuple[float, ...],
                                 message: str) -> None:
    with pytest.raises(ValueError, match=message):
        ScoreSample(values, weights)


def test_a_hypothesis_the_sample_meets_is_its_own_best_explanation() -> None:
    # H0 at the sample's own mean (or t-value) is met by the sample itself: KL(f || p0) = 0,
    # so the LLR is -size KL(f || p1) < 0, and 0 when H1 is H0.
    assert exact_llr_mean(SAMPLE, SAMPLE.mean, SAMPLE.mean) == pytest.approx(0.0, abs=1e-12)
    assert exact_llr_mean(SAMPLE, SAMPLE.mean, 0.7) < 0.0
    t = t_value(SAMPLE)
    assert exact_llr_t_value(SAMPLE, t, t) == pytest.approx(0.0, abs=1e-9)
    assert exact_llr_t_value(SAMPLE, t, t + 0.1) < 0.0
    assert exact_llr_t_value(SAMPLE, t - 0.1, t) > 0.0


@pytest.mark.parametrize("sample", [
    ScoreSample(GAMES, (2000.0, 3000.0, 5000.0)),
    ScoreSample(GAMES, (4100.0, 1500.0, 4400.0)),
    ScoreSample((0.0, 0.25, 0.5, 0.75, 1.0), (300.0, 1800.0, 4100.0, 2700.0, 1100.0)),
    ScoreSample((0.0, 0.25, 0.5, 0.75, 1.0), (80.0, 3000.0, 6000.0, 900.0, 20.0)),
])
def test_near_the_data_the_exact_llr_knows_the_spread_of_the_estimate(
        sample: ScoreSample) -> None:
    # Near the sample's own value both LLRs are N/2 [(x - x0)^2 - (x - x1)^2] / Var, Var the
    # asymptotic variance of the estimate x of one observation. The closed forms take Var =
    # var for the mean (right) and Var = 1 for the t-value, whose true asymptotic variance is
    # 1 - t skewness + t^2 (excess kurtosis + 2) / 4 (the delta method; fishtest shows the
    # same expression). So exact / approximate tends to 1 for the mean, 1 / Var for t.
    f, a = sample.frequencies, sample.values
    mean, var = sample.mean, sample.variance
    skewness = sum(p * (x - mean) ** 3 for p, x in zip(f, a, strict=True)) / var**1.5
    kurtosis = sum(p * (x - mean) ** 4 for p, x in zip(f, a, strict=True)) / var**2
    t = t_value(sample)
    spread = 1 - t * skewness + t * t * (kurtosis - 1) / 4
    d = 1e-3
    ratio = exact_llr_mean(sample, mean - d, mean + d / 3) / approximate_llr_mean(
        sample, mean - d, mean + d / 3)
    assert ratio == pytest.approx(1.0, abs=2e-3)
    ratio = exact_llr_t_value(sample, t - d, t + d / 3) / approximate_llr_t_value(
        sample, t - d, t + d / 3)
    assert ratio == pytest.approx(1 / spread, rel=2e-3)


def test_the_closed_forms_by_hand() -> None:
    # size (s1 - s0)(2 s - s0 - s1) / (2 var), and (games / 2) ln[(1 + (t - t0)^2) / (1 + (t -
    # t1)^2)] with per-game t-values: a pair's t-value is sqrt(2) times a game's.
    var = SAMPLE.variance
    assert approximate_llr_mean(SAMPLE, 0.6, 0.7) == pytest.approx(100 * 0.1 * 0.0 / (2 * var))
    assert approximate_llr_mean(SAMPLE, 0.5, 0.6) == pytest.approx(100 * 0.1 * 0.2 / (2 * var))
    t = t_value(SAMPLE)
    assert approximate_llr_t_value(SAMPLE, 0.0, 0.2) == pytest.approx(
        50 * math.log((1 + t**2) / (1 + (t - 0.2) ** 2)))
    pairs = ScoreSample((0.0, 0.25, 0.5, 0.75, 1.0), (1.0, 2.0, 3.0, 2.0, 2.0))
    tp = t_value(pairs) / math.sqrt(2)
    assert approximate_llr_t_value(pairs, 0.0, 0.2 * math.sqrt(2), games_per_unit=2) == \
        pytest.approx(10 * math.log((1 + tp**2) / (1 + (tp - 0.2) ** 2)))


def test_hypotheses_out_of_range_are_refused() -> None:
    with pytest.raises(ValueError, match="strictly between 0 and 1"):
        exact_llr_mean(SAMPLE, 0.5, 1.0)
    with pytest.raises(ValueError, match="reference"):
        exact_llr_t_value(SAMPLE, 0.0, 0.1, reference=1.0)


def test_t_values_near_zero_are_continuous() -> None:
    # below 1e-12 a t-value counts as 0; the LLR is smooth and linear across the threshold
    small = [exact_llr_t_value(SAMPLE, 0.0, t) for t in (1e-13, 1e-11, 1e-9)]
    assert small[0] == 0.0
    assert small[2] == pytest.approx(100 * small[1], rel=1e-4)
