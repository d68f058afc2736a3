"""The SPRT's log-likelihood ratio of a sample of scores: exact (generalised) and approximate.

A sample is ``size`` independent observations of a score with finitely many values: a game
scores 0, 1/2 or 1; a game pair 0, 1/4, 1/2, 3/4 or 1. A hypothesis fixes one number of the
unknown score distribution p: its expected score (the logistic Elo model) or its t-value
(mu - 1/2) / sigma (the normalized Elo model). The generalised log-likelihood ratio of H1
against H0 compares the best explanation of the sample that each hypothesis allows: with p0 and
p1 the distributions meeting H0 and H1 that are closest to the observed frequencies f in the
Kullback-Leibler sense (the maximum-likelihood ones),

    LLR = size * sum_i f_i ln(p1_i / p0_i) = size * (KL(f || p0) - KL(f || p1)).

This is the statistic of fishtest and fastchess (Michel Van den Bergh's notes on the
multinomial maximum-likelihood estimate and on normalized Elo). The approximations are the
closed forms those tools used before: the LLR of a normal sample with the observed variance.

How the closest distributions are found:
- expected score s: p_i = f_i / (1 + x (a_i - s)), the multiplier x chosen so that the mean is s
  (a convex problem with one solution);
- t-value t: the mean m and the standard deviation (m - 1/2) / t then fix two linear moments of
  p, so for each m the closest p is again a convex problem; the best m is found by scanning the
  means the constraint allows and refining every local maximum. The likelihood along that
  curve can have several peaks, so the fixed-point iteration of fishtest (which finds one
  stationary point) is only one more candidate; the most likely candidate wins.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

__all__ = [
    "ScoreSample",
    "approximate_llr_mean",
    "approximate_llr_t_value",
    "exact_llr_mean",
    "exact_llr_t_value",
]

_SCAN_POINTS = 32
"""Means tried on each stretch of the t-value constraint before refining the best ones."""
_NEWTON_STEPS = 100
_FIXED_POINT_STEPS = 200
_GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0
_NEGLIGIBLE_T = 1e-12
"""A t-value this close to 0 is taken as 0: the mean is then the reference (the constraint on
the mean is too narrow to scan in double precision)."""

Vector = tuple[float, ...]


@dataclass(frozen=True)
class ScoreSample:
    """Observed score values (ascending) with positive weights (counts, maybe fractional)."""

    values: Vector
    weights: Vector

    def __post_init__(self) -> None:
        if len(self.values) != len(self.weights) or len(self.values) < 2:
            raise ValueError("ScoreSample: expected two or more values, one weight each")
        if any(b <= a for a, b in itertools.pairwise(self.values)):
            raise ValueError(f"ScoreSample: values must ascend, got {self.values}")
        if not all(w > 0.0 and math.isfinite(w) for w in self.weights):
            raise ValueError(f"ScoreSample: weights must be positive, got {self.weights}")

    @property
    def size(self) -> float:
        """The number of observations: the sum of the weights."""
        return math.fsum(self.weights)

    @property
    def frequencies(self) -> Vector:
        """The weights as a probability distribution."""
        size = self.size
        return tuple(w / size for w in self.weights)

    @property
    def mean(self) -> float:
        """Mean score."""
        return _dot(self.frequencies, self.values)

    @property
    def variance(self) -> float:
        """Variance of one observation's score."""
        return _variance(self.frequencies, self.values)


def _dot(x: Sequence[float], y: Sequence[float]) -> float:
    return math.fsum(a * b for a, b in zip(x, y, strict=True))


def _variance(p: Sequence[float], values: Sequence[float]) -> float:
    mean = _dot(p, values)
    return math.fsum(q * (a - mean) ** 2 for q, a in zip(p, values, strict=True))


# --------------------------------------------------------------------------- the LLRs


def exact_llr_mean(sample: ScoreSample, mean0: float, mean1: float) -> float:
    """Generalised LLR of H1 (expected score ``mean1``) against H0 (``mean0``).

    Both means must lie strictly between the lowest and the highest value.
    """
    return sample.size * (_best_with_mean(sample, mean1) - _best_with_mean(sample, mean0))


def exact_llr_t_value(sample: ScoreSample, t0: float, t1: float,
                      reference: float = 0.5) -> float:
    """Generalised LLR of H1 (t-value ``t1``) against H0 (``t0``); the t-value of a score
    distribution is (mean - reference) / standard deviation, per observation."""
    best0 = _best_with_t_value(sample, t0, reference)
    best1 = _best_with_t_value(sample, t1, reference)
    return sample.size * (best1 - best0)


def approximate_llr_mean(sample: ScoreSample, mean0: float, mean1: float) -> float:
    """Closed-form LLR for expected scores: size (s1 - s0)(2 s - s0 - s1) / (2 var)."""
    return (sample.size * (mean1 - mean0) * (2.0 * sample.mean - mean0 - mean1)
            / (2.0 * sample.variance))


def approximate_llr_t_value(sample: ScoreSample, t0: float, t1: float,
                            reference: float = 0.5, games_per_unit: int = 1) -> float:
    """Closed-form LLR for t-values, in games: (games / 2) ln[(1 + (t - t0)^2) / (1 + (t - t1)^2)].

    ``t0``, ``t1`` and the sample's t are per observation; an observation of
    ``games_per_unit`` games (2 for a pair) has a per-game t-value sqrt(games_per_unit) times
    smaller.
    """
    scale = math.sqrt(games_per_unit)
    t = (sample.mean - reference) / math.sqrt(sample.variance) / scale
    t0, t1 = t0 / scale, t1 / scale
    games = sample.size * games_per_unit
    return games / 2.0 * math.log((1.0 + (t - t0) ** 2) / (1.0 + (t - t1) ** 2))


# --------------------------------------------------------------------------- closest distributions


@dataclass(frozen=True)
class _Fit:
    """The distribution closest to the sample under linear moment conditions."""

    p: Vector
    multipliers: Vector
    log_likelihood: float  # per observation: sum_i f_i ln p_i


def _closest(f: Vector, moments: Sequence[Vector], start: Vector | None = None) -> _Fit | None:
    """The distribution p closest to ``f`` with sum_i p_i moments[i][j] = 0 for each j (one
    or two conditions).

    p_i = f_i / (1 + moments[i] . lam), where lam minimises the convex function
    -sum_i f_i ln(1 + moments[i] . lam) (damped Newton steps). None when no such p exists.
    """
    k = len(moments[0])
    lam = start if start is not None and len(start) == k else (0.0,) * k
    d = _denominators(moments, lam)
    if d is None:
        lam, d = (0.0,) * k, (1.0,) * len(f)
    value = -sum(fi * math.log(di) for fi, di in zip(f, d, strict=True))
    previous = math.inf
    for _ in range(_NEWTON_STEPS):
        p = [fi / di for fi, di in zip(f, d, strict=True)]
        curvature = [pi * pi / fi for pi, fi in zip(p, f, strict=True)]
        gradient = [-sum(pi * g[j] for pi, g in zip(p, moments, strict=True)) for j in range(k)]
        hessian = [[sum(c * g[i] * g[j] for c, g in zip(curvature, moments, strict=True))
                    for j in range(k)] for i in range(k)]
        step = _solve(hessian, [-x for x in gradient])
        if step is None:
            return None
        decrement = -sum(x * y for x, y in zip(gradient, step, strict=True))
        if not math.isfinite(decrement):
            return None
        if decrement <= 1e-20 or (decrement < 1e-14 and decrement >= previous / 2):
            # converged, or at the level of rounding
            return _Fit(tuple(p), lam, sum(fi * math.log(pi) for fi, pi in zip(f, p, strict=True)))
        previous = decrement
        size = 1.0
        while True:
            trial = tuple(x + size * y for x, y in zip(lam, step, strict=True))
            d_trial = _denominators(moments, trial)
            if d_trial is not None:
                value_trial = -sum(fi * math.log(di) for fi, di in zip(f, d_trial, strict=True))
                # decrement / 2 is the gain a full step predicts
                if value_trial <= value - 0.25 * size * decrement + 1e-15 * abs(value):
                    break
            size /= 2.0
            if size < 1e-20:
                return None
        lam, d, value = trial, d_trial, value_trial
    return None


def _denominators(moments: Sequence[Vector], lam: Vector) -> Vector | None:
    """1 + moments[i] . lam for each i, or None when one is not positive."""
    d = tuple(1.0 + sum(x * y for x, y in zip(g, lam, strict=True)) for g in moments)
    return d if min(d) > 0.0 else None


def _solve(matrix: list[list[float]], rhs: list[float]) -> Vector | None:
    """The solution of a positive definite 1 x 1 or 2 x 2 linear system (None if singular)."""
    if len(rhs) == 1:
        return (rhs[0] / matrix[0][0],) if matrix[0][0] > 0.0 else None
    (a, b), (c, d) = matrix
    det = a * d - b * c
    if not det > 0.0:
        return None
    return ((d * rhs[0] - b * rhs[1]) / det, (a * rhs[1] - c * rhs[0]) / det)


def _best_with_mean(sample: ScoreSample, mean: float) -> float:
    """Largest log-likelihood per observation of a distribution with this expected score."""
    values = sample.values
    if not values[0] < mean < values[-1]:
        raise ValueError(f"expected score {mean} must lie strictly between {values[0]:g} and "
                         f"{values[-1]:g}")
    fit = _closest(sample.frequencies, [(a - mean,) for a in values])
    if fit is None:
        raise ArithmeticError(f"no distribution of mean {mean} found for {sample}")
    return fit.log_likelihood


def _best_with_t_value(sample: ScoreSample, t: float, reference: float) -> float:
    """Largest log-likelihood per observation of a distribution with this t-value."""
    values = sample.values
    if not values[0] < reference < values[-1]:
        raise ValueError(f"reference {reference} must lie strictly between the values")
    if abs(t) < _NEGLIGIBLE_T:
        return _best_with_mean(sample, reference)
    f = sample.frequencies
    fixed_point = _fixed_point(f, values, t, reference)
    candidates = [] if fixed_point is None else [fixed_point]
    for low, high in _feasible_means(values, t, reference):
        candidates += _profile_maxima(f, values, t, reference, low, high)
    if not candidates:
        raise ArithmeticError(f"no distribution of t-value {t} found for {sample}")
    return max(candidates)


def _t_moments(values: Vector, mean: float, t: float, reference: float) -> list[Vector]:
    """The two moment conditions of a distribution with this mean and t-value: mean ``mean``
    and variance ((mean - reference) / t)^2."""
    variance = ((mean - reference) / t) ** 2
    return [(a - mean, (a - mean) ** 2 - variance) for a in values]


def _feasible_means(values: Vector, t: float, reference: float) -> list[tuple[float, float]]:
    """The open stretches of means m for which a distribution on ``values`` with every
    probability positive has mean m and t-value t (m on t's side of the reference)."""
    low, high = (reference, values[-1]) if t > 0 else (values[0], reference)
    t2 = t * t
    # The variance (m - reference)^2 / t^2 must exceed the least variance of mean m, that of
    # the two values around m, and stay below the largest, that of the extreme values: the
    # stretches end where (m - reference)^2 = t^2 (m - a)(b - m) for such a pair a, b.
    pairs = [*itertools.pairwise(values), (values[0], values[-1])]
    cuts = {low, high, *(v for v in values if low < v < high)}
    for a, b in pairs:
        cuts.update(r for r in _roots(1.0 + t2, -(2.0 * reference + (a + b) * t2),
                                      reference**2 + a * b * t2) if low < r < high)
    edges = sorted(cuts)
    stretches: list[tuple[float, float]] = []
    for left, right in itertools.pairwise(edges):
        if _allowed(values, 0.5 * (left + right), t, reference):
            if stretches and stretches[-1][1] == left:
                stretches[-1] = (stretches[-1][0], right)
            else:
                stretches.append((left, right))
    return stretches


def _roots(a: float, b: float, c: float) -> list[float]:
    """Real roots of a x^2 + b x + c (a > 0)."""
    discriminant = b * b - 4.0 * a * c
    if discriminant < 0.0:
        return []
    root = math.sqrt(discriminant)
    return [(-b - root) / (2.0 * a), (-b + root) / (2.0 * a)]


def _allowed(values: Vector, mean: float, t: float, reference: float) -> bool:
    """True when the mean and the variance its t-value sets are inside the moment space."""
    variance = ((mean - reference) / t) ** 2
    j = max(i for i in range(len(values) - 1) if values[i] <= mean or i == 0)
    least = (mean - values[j]) * (values[j + 1] - mean)
    most = (mean - values[0]) * (values[-1] - mean)
    return least < variance < most


Profile = Callable[[float, Vector | None], tuple[float, Vector | None]]
"""The best log-likelihood at a mean, warm-started from Newton multipliers: (value, multipliers)."""


def _profile_maxima(f: Vector, values: Vector, t: float, reference: float,
                    low: float, high: float) -> list[float]:
    """Local maxima of the best log-likelihood as a function of the mean on (low, high)."""
    def profile(mean: float, start: Vector | None) -> tuple[float, Vector | None]:
        fit = _closest(f, _t_moments(values, mean, t, reference), start)
        return (-math.inf, None) if fit is None else (fit.log_likelihood, fit.multipliers)

    means = [low + (high - low) * (k + 0.5) / _SCAN_POINTS for k in range(_SCAN_POINTS)]
    scanned: list[float] = []
    start = None
    for mean in means:
        value, multipliers = profile(mean, start)
        scanned.append(value)
        start = multipliers if multipliers is not None else start
    edges = [low, *means, high]
    heights = [-math.inf, *scanned, -math.inf]
    maxima = [max(heights[k], _golden_max(profile, edges[k - 1], edges[k + 1]))
              for k in range(1, _SCAN_POINTS + 1)
              if heights[k] >= heights[k - 1] and heights[k] >= heights[k + 1]]
    # a peak may hug an end of the stretch, between it and the first or last mean scanned
    maxima.append(_golden_max(profile, edges[0], edges[1]))
    maxima.append(_golden_max(profile, edges[-2], edges[-1]))
    return maxima


def _golden_max(profile: Profile, left: float, right: float) -> float:
    """The largest value golden-section search finds on (left, right)."""
    inner_left = right - _GOLDEN * (right - left)
    inner_right = left + _GOLDEN * (right - left)
    value_left, start_left = profile(inner_left, None)
    value_right, start_right = profile(inner_right, None)
    while right - left > 1e-14 * max(1.0, abs(left)) and not (
            abs(value_left - value_right) <= 1e-16 * max(1.0, abs(value_left))
            and right - left < 1e-6 * (1.0 + abs(left))):
        if value_left >= value_right:
            right, inner_right, value_right, start_right = (inner_right, inner_left,
                                                            value_left, start_left)
            inner_left = right - _GOLDEN * (right - left)
            value_left, start_left = profile(inner_left, start_right)
        else:
            left, inner_left, value_left, start_left = (inner_left, inner_right,
                                                        value_right, start_right)
            inner_right = left + _GOLDEN * (right - left)
            value_right, start_right = profile(inner_right, start_left)
    return max(value_left, value_right)


def _fixed_point(f: Vector, values: Vector, t: float, reference: float) -> float | None:
    """fishtest's iteration for the closest distribution of t-value t, from the uniform one.

    With mu and sigma those of the current p, the next p is the one closest to f with
    sum_i p_i b_i = 0, b_i = a_i - reference - t sigma (1 + ((a_i - mu) / sigma)^2) / 2: a
    stationary point of the likelihood on the constraint once p stops changing. None when
    it does not settle on a distribution of t-value t; else the log-likelihood per observation.
    """
    p: Vector = (1.0 / len(f),) * len(f)
    for _ in range(_FIXED_POINT_STEPS):
        mu, sigma = _dot(p, values), math.sqrt(_variance(p, values))
        b = [a - reference - t * sigma * (1.0 + ((a - mu) / sigma) ** 2) / 2.0 for a in values]
        if not min(b) < 0.0 < max(b):
            return None
        fit = _closest(f, [(x,) for x in b])
        if fit is None:
            return None
        change = max(abs(new - old) / new for new, old in zip(fit.p, p, strict=True))
        p = fit.p
        if change < 1e-12:
            break
    if abs((_dot(p, values) - reference) / math.sqrt(_variance(p, values)) - t) \
            > 1e-9 * (1.0 + abs(t)):
        return None
    return _dot(f, [math.log(x) for x in p])
