"""Match statistics: score and Elo intervals, normalized Elo, LOS and SPRT.

All functions are pure. Scores are from the point of view of the first agent (A):
a win counts 1, a draw 1/2, a loss 0. Trinomial statistics treat games as independent;
pentanomial statistics use game pairs (one opening played twice, colours swapped) as the
unit, with pair counts ordered (LL, LD, WL, DD, WD, WW).

The definitions follow the fastchess engine tester (see ``shared/data/stats-vectors.md``).

Intervals (95%). An estimate has one score interval, over its units (games, or pairs), and its
Elo interval is that interval's bounds mapped to Elo, so the two always agree:
- ``normal``: score +- 1.96 standard errors, with the sample's variance (trinomial or
  pentanomial), when that variance is positive and the interval lies strictly inside (0, 1);
- ``wilson`` otherwise (every unit scored the same, or the normal interval would pass 0% or
  100%: few games or a one-sided result): the Wilson score interval, the scores p whose
  distance to the observed score is at most 1.96 standard errors computed with p (1 - p), the
  largest variance a score of mean p can have. It needs no variance estimate and is never
  empty, so small and one-sided samples get finite, honest bounds (an Elo bound is infinite
  only on the side of a perfect score).
The LOS uses the same approximation: Phi((s - 1/2) / se) with the normal interval, and
Phi(2 sqrt(n) (s - 1/2)) with the Wilson one (the Wilson score test of an even score), so it
is at least 97.5% exactly when the score interval lies above 50%. nElo needs a positive
variance (without one it is +-inf, or nan at an even score), and its +- interval exists only
with the normal approximation (nan otherwise).

Counts must be whole, non-negative and add up to at most ``MAX_UNITS`` (10^15) games or pairs,
so that every score is exact to double precision; bad counts raise ``ValueError``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from numbers import Real
from typing import TYPE_CHECKING, Literal

from arena.stats.llr import (
    ScoreSample,
    approximate_llr_mean,
    approximate_llr_t_value,
    exact_llr_mean,
    exact_llr_t_value,
)

if TYPE_CHECKING:
    import numpy as np

__all__ = [
    "LLR_METHODS",
    "MAX_UNITS",
    "NELO_SCALE",
    "PENTA_SCORES",
    "Z95",
    "EloEstimate",
    "Homogeneity",
    "Interval",
    "IntervalMethod",
    "LlrMethod",
    "Model",
    "SprtBounds",
    "SprtResult",
    "Verdict",
    "check_hypotheses",
    "difference",
    "elo_from_score",
    "homogeneity",
    "los",
    "normal_cdf",
    "pentanomial",
    "score_from_elo",
    "sprt",
    "sprt_bounds",
    "sprt_llr",
    "sprt_sample",
    "sprt_verdict",
    "trinomial",
    "wilson",
]

Z95: float = 1.959963984540054
"""Two-sided 95% quantile of the standard normal distribution."""

NELO_SCALE: float = 800.0 / math.log(10.0)
"""Factor turning a standardized score excess (s - 1/2) / sigma into normalized Elo."""

PENTA_SCORES: tuple[float, ...] = (0.0, 0.25, 0.5, 0.5, 0.75, 1.0)
"""Mean score of a game pair for each pentanomial count (LL, LD, WL, DD, WD, WW)."""

PENTA_LABELS: tuple[str, ...] = ("LL", "LD", "WL", "DD", "WD", "WW")

Model = Literal["normalized", "logistic"]
MODELS: tuple[str, ...] = ("normalized", "logistic")

LlrMethod = Literal["exact", "approximate"]
LLR_METHODS: tuple[str, ...] = ("exact", "approximate")
"""How the SPRT's log-likelihood ratio is computed: the generalised likelihood ratio of
fishtest and fastchess (default), or its closed-form approximation."""

IntervalMethod = Literal["normal", "wilson"]

DEFAULT_MODEL: Model = "normalized"
"""An SPRT's default model: its Elo values are normalized Elo."""
DEFAULT_LLR: LlrMethod = "exact"
"""An SPRT's default log-likelihood ratio: the exact one."""
DEFAULT_ALPHA = 0.05
"""An SPRT's default chance of accepting H1 when H0 holds."""
DEFAULT_BETA = 0.05
"""An SPRT's default chance of accepting H0 when H1 holds."""

MAX_UNITS = 10**15
"""Most games (trinomial) or pairs (pentanomial) a sample may hold: below 2^50, so that a
score short of 100% by half a game never rounds to 100%."""


@dataclass(frozen=True)
class Interval:
    """A closed interval [low, high]."""

    low: float
    high: float

    def __contains__(self, value: object) -> bool:
        return isinstance(value, (int, float)) and self.low <= value <= self.high

    @property
    def width(self) -> float:
        """high - low."""
        return self.high - self.low


@dataclass(frozen=True)
class EloEstimate:
    """Elo and normalized Elo of agent A against agent B, with 95% intervals.

    ``n`` is the number of statistical units (games for trinomial input, pairs for
    pentanomial input); ``variance`` and ``se`` are per unit and of the mean score.
    ``score_interval`` comes from ``interval_method`` (see the module's docstring) and
    ``elo_interval`` is its image in Elo; ``error`` is the half-width of the Elo interval
    (infinite when a bound is), ``nelo_error`` that of nElo (nan without the normal
    approximation). ``los`` is the likelihood of superiority, a probability in [0, 1].
    """

    kind: Literal["trinomial", "pentanomial"]
    counts: tuple[int, ...]
    n: int
    games: int
    points: float
    score: float
    score_interval: Interval
    interval_method: IntervalMethod
    variance: float
    se: float
    elo: float
    error: float
    elo_interval: Interval
    nelo: float
    nelo_error: float
    los: float

    @property
    def sigma(self) -> float:
        """Standard deviation of one game's score (sqrt(2 var) for pairs)."""
        return _sigma(self.kind, self.variance)


@dataclass(frozen=True)
class SprtBounds:
    """SPRT log-likelihood-ratio bounds: accept H0 at or below ``lower``, H1 at or above
    ``upper``."""

    lower: float
    upper: float


class Verdict(StrEnum):
    """Outcome of an SPRT check."""

    ACCEPT_H0 = "accept H0"
    ACCEPT_H1 = "accept H1"
    CONTINUE = "continue"


@dataclass(frozen=True)
class SprtResult:
    """One SPRT check: the hypotheses, the LLR (and how it was computed), its bounds and the
    verdict."""

    elo0: float
    elo1: float
    model: Model
    method: LlrMethod
    llr: float
    bounds: SprtBounds
    verdict: Verdict


# --------------------------------------------------------------------------- helpers


def _check_counts(counts: Sequence[object], names: Sequence[str]) -> tuple[int, ...]:
    """Validate non-negative whole counts adding up to at most MAX_UNITS; return them as ints."""
    out: list[int] = []
    for name, value in zip(names, counts, strict=True):
        if isinstance(value, bool) or not isinstance(value, Real):
            raise TypeError(f"count {name} must be an integer, got {value!r}")
        try:
            whole = int(math.trunc(value))  # noqa: RUF046 (Real.__trunc__ gives an Integral)
        except (OverflowError, ValueError):  # inf, nan
            whole = None
        if whole is None or whole != value:
            raise ValueError(f"count {name} must be a whole number, got {value!r}")
        if whole < 0:
            raise ValueError(f"count {name} must be non-negative, got {whole}")
        out.append(whole)
    if sum(out) > MAX_UNITS:
        raise ValueError(f"counts {', '.join(names)} add up to {_count_text(sum(out))}; "
                         f"at most 10^15 (games or pairs) are supported")
    return tuple(out)


def _count_text(count: int) -> str:
    """A count as digits, or as 'a number of N digits' when it is too long to show."""
    digits = len(str(count)) if count.bit_length() < 10_000 else int(count.bit_length()
                                                                      * math.log10(2)) + 1
    return str(count) if digits <= 20 else f"a number of {digits} digits"


def _sigma(kind: str, variance: float) -> float:
    return math.sqrt(2.0 * variance) if kind == "pentanomial" else math.sqrt(variance)


def _ratio(num: float, den: float) -> float:
    """num / den with IEEE semantics for a zero denominator (±inf, or nan for 0/0)."""
    if den != 0.0:
        return num / den
    if num == 0.0 or math.isnan(num):
        return math.nan
    return math.copysign(math.inf, num)


# --------------------------------------------------------------------------- basics


def wilson(score_sum: float, n: int, z: float = Z95) -> Interval:
    """Wilson score interval for a mean score ``score_sum / n`` (draws count 1/2).

    ``score_sum`` is wins + draws/2 over ``n`` games; the default ``z`` gives 95%.
    """
    if n <= 0:
        raise ValueError(f"wilson: number of games must be positive, got n={n}")
    if not 0.0 <= score_sum <= n:
        raise ValueError(f"wilson: score_sum must lie in [0, n={n}], got {score_sum}")
    p = score_sum / n
    z2 = z * z
    denom = 1.0 + z2 / n
    centre = (p + z2 / (2.0 * n)) / denom
    half = z / denom * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n))
    low = 0.0 if p == 0.0 else max(0.0, centre - half)  # the bounds are exact at 0 and 1
    high = 1.0 if p == 1.0 else min(1.0, centre + half)
    return Interval(low, high)


def elo_from_score(score: float) -> float:
    """Logistic Elo difference for an expected score: -400 log10(1/s - 1).

    A score of 0 gives -inf, a score of 1 gives +inf; nan stays nan.
    """
    if math.isnan(score):
        return math.nan
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"score must lie in [0, 1], got {score}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0  # + 0.0 turns -0.0 into 0.0


def score_from_elo(elo: float) -> float:
    """Expected score for a logistic Elo difference: 1 / (1 + 10^(-elo/400))."""
    x = -elo / 400.0
    if x > 300.0:  # 10**x would overflow; the score is 0 to double precision
        return 0.0
    return 1.0 / (1.0 + 10.0**x)


def normal_cdf(x: float) -> float:
    """Standard normal cumulative distribution function."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def los(score: float, se: float) -> float:
    """Likelihood of superiority Phi((s - 1/2) / se), in [0, 1].

    With ``se`` = 0 the result is 1 above an even score, 0 below and 1/2 at it.
    """
    if se == 0.0:
        return 1.0 if score > 0.5 else 0.0 if score < 0.5 else 0.5
    return normal_cdf((score - 0.5) / se)


def difference(first: float, first_interval: Interval, second: float,
               second_interval: Interval) -> tuple[float, Interval]:
    """``second - first`` for two independent estimates, with its 95% interval from theirs by
    the method of variance estimates recovery (MOVER; Newcombe's square-and-add for two
    proportions): the bounds stand sqrt(a² + b²) from the difference, a and b the distances
    from each estimate to the bound of its own interval on that side. Two normal intervals
    give the usual ±1.96 sqrt(se₁² + se₂²); lopsided ones (Wilson, Elo) keep their shape. An
    infinite estimate gives a nan difference within (-inf, inf)."""
    if not (math.isfinite(first) and math.isfinite(second)):
        return math.nan, Interval(-math.inf, math.inf)
    value = second - first
    low = value - math.hypot(second - second_interval.low, first_interval.high - first)
    high = value + math.hypot(second_interval.high - second, first - first_interval.low)
    return value, Interval(low, high)


# --------------------------------------------------------------------------- Elo estimates


def _estimate(
    kind: Literal["trinomial", "pentanomial"],
    counts: tuple[int, ...],
    n: int,
    games: int,
    score: float,
    variance: float,
) -> EloEstimate:
    se = math.sqrt(variance / n)
    sigma = _sigma(kind, variance)
    normal = se > 0.0 and score - Z95 * se > 0.0 and score + Z95 * se < 1.0
    if normal:
        method: IntervalMethod = "normal"
        score_interval = Interval(score - Z95 * se, score + Z95 * se)
        superiority = los(score, se)
        nelo_error = Z95 * se / sigma * NELO_SCALE
    else:
        method = "wilson"
        score_interval = wilson(min(float(n), max(0.0, score * n)), n)
        superiority = los(score, 0.5 / math.sqrt(n))  # the largest se, that of an even score
        nelo_error = math.nan
    elo_interval = Interval(elo_from_score(score_interval.low),
                            elo_from_score(score_interval.high))
    return EloEstimate(
        kind=kind,
        counts=counts,
        n=n,
        games=games,
        points=score * games,
        score=score,
        score_interval=score_interval,
        interval_method=method,
        variance=variance,
        se=se,
        elo=elo_from_score(score),
        error=(elo_interval.high - elo_interval.low) / 2.0,
        elo_interval=elo_interval,
        nelo=_ratio(score - 0.5, sigma) * NELO_SCALE,
        nelo_error=nelo_error,
        los=superiority,
    )


def trinomial(wins: int, draws: int, losses: int) -> EloEstimate:
    """Elo, nElo and LOS of agent A from its wins, draws and losses (independent games)."""
    w, d, lo = _check_counts((wins, draws, losses), ("wins", "draws", "losses"))
    n = w + d + lo
    if n == 0:
        raise ValueError("trinomial: no games (wins + draws + losses must be positive)")
    s = (w + d / 2.0) / n
    var = (w * (1.0 - s) ** 2 + d * (0.5 - s) ** 2 + lo * s**2) / n
    return _estimate("trinomial", (w, d, lo), n, n, s, var)


def pentanomial(counts: Sequence[int]) -> EloEstimate:
    """Elo, nElo and LOS of agent A from game-pair counts (LL, LD, WL, DD, WD, WW)."""
    if len(counts) != 6:
        raise ValueError(
            f"pentanomial: expected six counts (LL, LD, WL, DD, WD, WW), got {len(counts)}"
        )
    c = _check_counts(counts, PENTA_LABELS)
    pairs = sum(c)
    if pairs == 0:
        raise ValueError("pentanomial: no game pairs (the six counts must not all be zero)")
    s = sum(a * k for a, k in zip(PENTA_SCORES, c, strict=True)) / pairs
    var = sum(k * (a - s) ** 2 for a, k in zip(PENTA_SCORES, c, strict=True)) / pairs
    return _estimate("pentanomial", c, pairs, 2 * pairs, s, var)


# --------------------------------------------------------------------------- SPRT


def sprt_bounds(alpha: float = DEFAULT_ALPHA, beta: float = DEFAULT_BETA) -> SprtBounds:
    """SPRT bounds: lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha)."""
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < value < 1.0:
            raise ValueError(f"sprt_bounds: {name} must lie strictly between 0 and 1, got {value}")
    if alpha + beta >= 1.0:
        raise ValueError(f"sprt_bounds: alpha + beta must be below 1, got {alpha} + {beta}")
    return SprtBounds(math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha))


def check_hypotheses(elo0: float, elo1: float, model: Model = DEFAULT_MODEL,
                     method: LlrMethod = DEFAULT_LLR) -> None:
    """Raise ValueError unless elo0 < elo1 are finite and ``model`` and ``method`` are known.

    Under the logistic model both hypotheses must have an expected score strictly between 0
    and 1 in double precision (|Elo| below about 6000).
    """
    if not (math.isfinite(elo0) and math.isfinite(elo1) and elo0 < elo1):
        raise ValueError(f"expected finite elo0 < elo1, got elo0 {elo0:g}, elo1 {elo1:g}")
    if model not in MODELS:
        raise ValueError(f"model {model!r}: expected one of {', '.join(MODELS)}")
    if method not in LLR_METHODS:
        raise ValueError(f"LLR method {method!r}: expected one of {', '.join(LLR_METHODS)}")
    if model == "logistic":
        for name, elo in (("elo0", elo0), ("elo1", elo1)):
            if not 0.0 < score_from_elo(elo) < 1.0:
                raise ValueError(f"{name} {elo:g} Elo is out of the logistic model's range: "
                                 "its expected score rounds to 0 or 1")


def sprt_llr(estimate: EloEstimate, elo0: float, elo1: float, model: Model = DEFAULT_MODEL,
             method: LlrMethod = DEFAULT_LLR) -> float:
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0) for a trinomial or pentanomial sample.

    ``model='normalized'``: elo0/elo1 are normalized Elo, fixing the t-value
    (s - 1/2) / sigma of the per-unit score (a pair's t-value is sqrt(2) times a game's).
    ``model='logistic'``: elo0/elo1 are logistic Elo, fixing the expected score.
    ``method='exact'``: the generalised likelihood ratio of fishtest and fastchess (see
    ``arena.stats.llr``); ``method='approximate'``: its closed form, (games/2)
    ln[(1 + (t - t0)^2) / (1 + (t - t1)^2)] per game, or N (s1 - s0)(2s - s0 - s1) / (2 var)
    per unit. As fishtest does, an outcome class with no observation counts as 1e-3 of one
    (WL and DD of a pair are one class, both scoring 1/2), so that a one-sided sample (every
    game won, say) still has a variance and the test can decide.
    """
    check_hypotheses(elo0, elo1, model, method)
    sample = sprt_sample(estimate)
    if model == "normalized":
        per_unit = 2 if estimate.kind == "pentanomial" else 1
        t0, t1 = (elo / NELO_SCALE * math.sqrt(per_unit) for elo in (elo0, elo1))
        if method == "exact":
            return exact_llr_t_value(sample, t0, t1)
        return approximate_llr_t_value(sample, t0, t1, games_per_unit=per_unit)
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    if method == "exact":
        return exact_llr_mean(sample, s0, s1)
    return approximate_llr_mean(sample, s0, s1)


SPRT_EMPTY_CLASS = 1e-3
"""The weight an outcome class nobody observed gets in the SPRT, as in fishtest."""


def sprt_sample(estimate: EloEstimate) -> ScoreSample:
    """The sample the SPRT weighs: unit scores with their counts, an empty class counting 1e-3.

    Games score 0, 1/2, 1 (L, D, W); pairs 0, 1/4, 1/2, 3/4, 1 (LL, LD, WL + DD, WD, WW).
    """
    if estimate.kind == "pentanomial":
        ll, ld, wl, dd, wd, ww = estimate.counts
        counts: tuple[int, ...] = (ll, ld, wl + dd, wd, ww)
    else:
        wins, draws, losses = estimate.counts
        counts = (losses, draws, wins)
    values = tuple(i / (len(counts) - 1) for i in range(len(counts)))
    return ScoreSample(values, tuple(float(k) if k > 0 else SPRT_EMPTY_CLASS for k in counts))


def sprt_verdict(llr: float, bounds: SprtBounds) -> Verdict:
    """Accept H1 at or above the upper bound, H0 at or below the lower; else (or nan) continue."""
    if llr >= bounds.upper:
        return Verdict.ACCEPT_H1
    if llr <= bounds.lower:
        return Verdict.ACCEPT_H0
    return Verdict.CONTINUE


def sprt(
    estimate: EloEstimate,
    elo0: float,
    elo1: float,
    alpha: float = DEFAULT_ALPHA,
    beta: float = DEFAULT_BETA,
    model: Model = DEFAULT_MODEL,
    method: LlrMethod = DEFAULT_LLR,
) -> SprtResult:
    """Run one SPRT check of H0: elo = elo0 against H1: elo = elo1 on a sample."""
    bounds = sprt_bounds(alpha, beta)
    llr = sprt_llr(estimate, elo0, elo1, model, method)
    return SprtResult(elo0, elo1, model, method, llr, bounds, sprt_verdict(llr, bounds))


# --- comparing two W/T/L results ---------------------------------------------------------

HOMOGENEITY_LEVEL = 0.05
"""Two results differ when the homogeneity test's p-value is below this."""
MIN_EXPECTED_COUNT = 5
"""The draw column is merged into the losses when a row expects fewer draws than this."""


@dataclass(frozen=True)
class Homogeneity:
    """A chi-square test that two W/T/L tables come from one distribution."""

    chi2: float
    dof: int
    p: float
    merged_draws: bool  # draws counted with losses (too few expected)
    approximate: bool  # some expected count is below MIN_EXPECTED_COUNT

    @property
    def differs(self) -> bool:
        """True when the difference is significant at the ``HOMOGENEITY_LEVEL`` (5%)."""
        return self.p < HOMOGENEITY_LEVEL

    @property
    def verdict(self) -> str:
        """``within noise`` or ``differs (p = ...)``."""
        return f"differs (p = {self.p:.2g})" if self.differs else "within noise"


def homogeneity(ours: Sequence[int], reference: Sequence[int]) -> Homogeneity:
    """Pearson's chi-square test of homogeneity on the 2 x 3 table of two [W, T, L] results.

    When a row expects fewer than ``MIN_EXPECTED_COUNT`` draws the draws join the losses (a 2 x 2
    table, wins against the rest); a column empty in both rows is left out. The p-value is
    exact for the chi-square distribution: ``exp(-chi2 / 2)`` with 2 degrees of freedom,
    ``erfc(sqrt(chi2 / 2))`` with 1.
    """
    import numpy as np  # only here: a match's statistics and `arena stats` load without numpy

    table = np.array([ours, reference], dtype=float)
    expected = _expected(table)
    merged = bool(expected[:, 1].min() < MIN_EXPECTED_COUNT)
    if merged:
        table = np.column_stack([table[:, 0], table[:, 1] + table[:, 2]])
    table = table[:, table.sum(axis=0) > 0]
    dof = table.shape[1] - 1
    if dof == 0:
        return Homogeneity(0.0, 0, 1.0, merged, False)
    expected = _expected(table)
    chi2 = float(((table - expected) ** 2 / expected).sum())
    p = math.exp(-chi2 / 2) if dof == 2 else math.erfc(math.sqrt(chi2 / 2))
    return Homogeneity(chi2, dof, p, merged, bool(expected.min() < MIN_EXPECTED_COUNT))


def _expected(table: np.ndarray) -> np.ndarray:
    import numpy as np  # homogeneity's

    return np.outer(table.sum(axis=1), table.sum(axis=0)) / table.sum()
