"""Match statistics: Wilson intervals, Elo and normalized Elo with intervals, LOS and SPRT.

All functions are pure. Scores are from the point of view of the first agent (A):
a win counts 1, a draw 1/2, a loss 0. Trinomial statistics treat games as independent;
pentanomial statistics use game pairs (one opening played twice, colours swapped) as the
unit, with pair counts ordered (LL, LD, WL, DD, WD, WW).

The definitions follow the fastchess engine tester (see ``shared/data/stats-vectors.md``).
Degenerate samples (all wins, all losses, zero variance) give infinite or nan values rather
than errors; empty samples and negative counts raise ``ValueError``.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from numbers import Real
from typing import Literal

import numpy as np

__all__ = [
    "NELO_SCALE",
    "PENTA_SCORES",
    "Z95",
    "EloEstimate",
    "Homogeneity",
    "Interval",
    "Model",
    "SprtBounds",
    "SprtResult",
    "Verdict",
    "elo_from_score",
    "homogeneity",
    "los",
    "normal_cdf",
    "pentanomial",
    "pentanomial_counts",
    "score_from_elo",
    "sprt",
    "sprt_bounds",
    "sprt_llr",
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
    ``error`` is the half-width of the Elo interval, ``nelo_error`` that of nElo.
    ``los`` is the likelihood of superiority, a probability in [0, 1].
    """

    kind: Literal["trinomial", "pentanomial"]
    counts: tuple[int, ...]
    n: int
    games: int
    points: float
    score: float
    score_interval: Interval
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
    """One SPRT check: the hypotheses, the LLR, its bounds and the verdict."""

    elo0: float
    elo1: float
    model: Model
    llr: float
    bounds: SprtBounds
    verdict: Verdict


# --------------------------------------------------------------------------- helpers


def _check_counts(counts: Sequence[object], names: Sequence[str]) -> tuple[int, ...]:
    """Validate non-negative integer counts; return them as plain ints."""
    out: list[int] = []
    for name, value in zip(names, counts, strict=True):
        if isinstance(value, bool) or not isinstance(value, Real):
            raise TypeError(f"count {name} must be an integer, got {value!r}")
        if not float(value).is_integer():
            raise ValueError(f"count {name} must be a whole number, got {value!r}")
        if value < 0:
            raise ValueError(f"count {name} must be non-negative, got {value}")
        out.append(int(float(value)))
    return tuple(out)


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
    low_s = max(0.0, score - Z95 * se)
    high_s = min(1.0, score + Z95 * se)
    elo = elo_from_score(score)
    elo_low, elo_high = elo_from_score(low_s), elo_from_score(high_s)
    # with se = 0 this is 0 for a finite Elo and inf - inf = nan for an infinite one
    error = (elo_high - elo_low) / 2.0
    points = score * games
    return EloEstimate(
        kind=kind,
        counts=counts,
        n=n,
        games=games,
        points=points,
        score=score,
        score_interval=wilson(min(float(games), max(0.0, points)), games),
        variance=variance,
        se=se,
        elo=elo,
        error=error,
        elo_interval=Interval(elo_low, elo_high),
        nelo=_ratio(score - 0.5, sigma) * NELO_SCALE,
        nelo_error=_ratio(Z95 * se, sigma) * NELO_SCALE,
        los=los(score, se),
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


_PAIR_INDEX: dict[tuple[str, str], int] = {
    ("loss", "loss"): 0,
    ("loss", "draw"): 1,
    ("draw", "loss"): 1,
    ("win", "loss"): 2,
    ("loss", "win"): 2,
    ("draw", "draw"): 3,
    ("win", "draw"): 4,
    ("draw", "win"): 4,
    ("win", "win"): 5,
}


def pentanomial_counts(pairs: Iterable[tuple[str, str]]) -> tuple[int, int, int, int, int, int]:
    """Count game pairs into (LL, LD, WL, DD, WD, WW).

    Each pair holds two results ('win', 'draw' or 'loss') from the same agent's view.
    """
    counts = [0] * 6
    for pair in pairs:
        items = tuple(pair)
        index = _PAIR_INDEX.get((items[0], items[1])) if len(items) == 2 else None
        if index is None:
            raise ValueError(
                f"pentanomial_counts: expected two of 'win', 'draw', 'loss', got {pair!r}"
            )
        counts[index] += 1
    return (counts[0], counts[1], counts[2], counts[3], counts[4], counts[5])


# --------------------------------------------------------------------------- SPRT


def sprt_bounds(alpha: float = 0.05, beta: float = 0.05) -> SprtBounds:
    """SPRT bounds: lower = ln(beta / (1 - alpha)), upper = ln((1 - beta) / alpha)."""
    for name, value in (("alpha", alpha), ("beta", beta)):
        if not 0.0 < value < 1.0:
            raise ValueError(f"sprt_bounds: {name} must lie strictly between 0 and 1, got {value}")
    if alpha + beta >= 1.0:
        raise ValueError(f"sprt_bounds: alpha + beta must be below 1, got {alpha} + {beta}")
    return SprtBounds(math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha))


def sprt_llr(estimate: EloEstimate, elo0: float, elo1: float, model: Model = "normalized") -> float:
    """Log-likelihood ratio of H1 (elo1) against H0 (elo0) for a trinomial or pentanomial sample.

    ``model='normalized'``: elo0/elo1 are normalized Elo, GSPRT approximation
    (games/2) ln[(1 + (t - t0)^2) / (1 + (t - t1)^2)] with t = (s - 1/2) / sigma.
    ``model='logistic'``: elo0/elo1 are logistic Elo, approximation
    N (s1 - s0)(2s - s0 - s1) / (2 var) per unit (game or pair).
    As fishtest does, an outcome class with no observation counts as 1e-3 of one, so that a
    one-sided sample (every game won, say) still has a variance and the test can decide.
    """
    if not elo0 < elo1:
        raise ValueError(f"sprt_llr: elo0 must be below elo1, got elo0={elo0}, elo1={elo1}")
    if model not in MODELS:
        raise ValueError(f"sprt_llr: model must be one of {', '.join(MODELS)}, got {model!r}")
    s, variance = _regularized_moments(estimate)
    if model == "normalized":
        t = (s - 0.5) / _sigma(estimate.kind, variance)
        t0, t1 = elo0 / NELO_SCALE, elo1 / NELO_SCALE
        return estimate.games / 2.0 * math.log((1.0 + (t - t0) ** 2) / (1.0 + (t - t1) ** 2))
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return estimate.n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * variance)


SPRT_EMPTY_CLASS = 1e-3


def _regularized_moments(estimate: EloEstimate) -> tuple[float, float]:
    """Mean score and variance per unit, with empty outcome classes counted as 1e-3."""
    scores = PENTA_SCORES if estimate.kind == "pentanomial" else (1.0, 0.5, 0.0)
    counts = [k if k > 0 else SPRT_EMPTY_CLASS for k in estimate.counts]
    total = sum(counts)
    s = sum(a * k for a, k in zip(scores, counts, strict=True)) / total
    variance = sum(k * (a - s) ** 2 for a, k in zip(scores, counts, strict=True)) / total
    return s, variance


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
    alpha: float = 0.05,
    beta: float = 0.05,
    model: Model = "normalized",
) -> SprtResult:
    """Run one SPRT check of H0: elo = elo0 against H1: elo = elo1 on a sample."""
    bounds = sprt_bounds(alpha, beta)
    llr = sprt_llr(estimate, elo0, elo1, model)
    return SprtResult(elo0, elo1, model, llr, bounds, sprt_verdict(llr, bounds))


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
    return np.outer(table.sum(axis=1), table.sum(axis=0)) / table.sum()
