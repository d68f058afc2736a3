"""How long an agent thinks a move, as reports show it: the median with its interval and a
high percentile, the mean only where it is named so.

games.csv keeps each side's think time over a whole game and its moves there, not the time of
each move. An agent's time a move in one game is that game's think time divided by its moves
(games where it made none are left out); over its games:

- the **median** of those figures: one game with a stall (a page fault, a garbage collection,
  the machine busy elsewhere) moves it by one rank, where it can multiply a mean;
- its **95% interval**, distribution-free: the order statistics ranked ``k`` and ``n + 1 - k``
  from each end, ``k`` the largest rank whose binomial tail ``P(B < k)``, ``B ~ Bin(n, 1/2)``,
  is at most 2.5% (none below 6 games, where even the extremes cover less);
- the **90th percentile** of the same figures (linear between order statistics, numpy's
  default), the slow end;
- the **mean**: all its think time over all its moves, which stalls dominate.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

LEVEL = 0.95
"""The coverage of the median's interval."""
HIGH_PERCENTILE = 90
"""The high percentile reported beside the median."""


@dataclass(frozen=True)
class MoveTimes:
    """Milliseconds a move of one agent over its games (nan where undefined: no game with
    a move; the interval, with fewer than 6)."""

    games: int
    median: float
    low: float
    high: float
    p90: float
    mean: float

    @classmethod
    def of_games(cls, seconds: npt.ArrayLike, moves: npt.ArrayLike) -> MoveTimes:
        """The times of an agent that thought ``seconds`` in each of its games over ``moves``
        moves there."""
        seconds, moves = np.asarray(seconds, dtype=float), np.asarray(moves, dtype=float)
        played = moves > 0
        total = float(moves[played].sum())
        mean = 1000.0 * float(seconds[played].sum()) / total if total else math.nan
        return cls.of_figures(1000.0 * seconds[played] / moves[played], mean)

    @classmethod
    def of_figures(cls, per_game: npt.ArrayLike, mean: float) -> MoveTimes:
        """The times of an agent whose games took ``per_game`` milliseconds a move, and
        ``mean`` milliseconds a move over all of them."""
        values = np.sort(np.asarray(per_game, dtype=float))
        if not len(values):
            return cls(0, math.nan, math.nan, math.nan, math.nan, mean)
        low, high = median_interval(values)
        return cls(len(values), sorted_median(values), low, high,
                   sorted_percentile(values, HIGH_PERCENTILE), mean)


# np.median and np.percentile give these figures too, but their first call imports numpy.ma
# (about 7 ms of every match's start); on sorted values each is two look-ups and numpy's own
# arithmetic, the same float64 operations in the same order (tests/unit/test_move_times.py).


def sorted_median(ordered: np.ndarray) -> float:
    """``np.median`` of the sorted, non-empty ``ordered``: the middle value, or the mean of
    the two middle ones (nan if any value is)."""
    n = len(ordered)
    if math.isnan(ordered[-1]):  # nan sorts last
        return math.nan
    middle = n // 2
    if n % 2:
        return float(ordered[middle])
    return (float(ordered[middle - 1]) + float(ordered[middle])) / 2


def sorted_percentile(ordered: np.ndarray, percent: float) -> float:
    """``np.percentile(ordered, percent)`` (its default, linear method) of the sorted,
    non-empty ``ordered``, computed as numpy computes it: the virtual index ``(n - 1) q``
    between two order statistics (the last one for an index at or past the end), and their
    interpolation from the nearer one (nan if any value is)."""
    n = len(ordered)
    if math.isnan(ordered[-1]):
        return math.nan
    virtual = (n - 1) * (percent / 100)
    below = -1 if virtual >= n - 1 else math.floor(virtual)
    above = -1 if below == -1 else below + 1
    a, b = float(ordered[below]), float(ordered[above])
    gamma = virtual - below
    step = b - a
    return b - step * (1 - gamma) if gamma >= 0.5 else a + step * gamma


def ms_text(milliseconds: float) -> str:
    """Milliseconds as the tables print them: three significant digits (``0.00230``,
    ``28.7``), whole from 100 on (``1,250``), a dash when undefined."""
    if math.isnan(milliseconds):
        return "-"
    return f"{milliseconds:,.0f}" if milliseconds >= 100 else f"{milliseconds:#.3g}".rstrip(".")


def median_text(times: MoveTimes) -> str:
    """The median with its interval, ``0.0312 [0.0305, 0.0320]`` (no interval below 6
    games)."""
    if math.isnan(times.low):
        return ms_text(times.median)
    return f"{ms_text(times.median)} [{ms_text(times.low)}, {ms_text(times.high)}]"


def median_interval(ordered: npt.ArrayLike, level: float = LEVEL) -> tuple[float, float]:
    """The distribution-free ``level`` interval of the median of the sorted ``ordered``: its
    order statistics ``k`` and ``n + 1 - k`` (1-based), ``k`` the largest rank whose
    binomial tail ``P(B <= k - 1)``, ``B ~ Bin(n, 1/2)``, is at most ``(1 - level) / 2``;
    (nan, nan) when even ``k = 1`` has a larger tail (fewer than 6 values at 95%)."""
    values = np.asarray(ordered, dtype=float)
    n = len(values)
    if not n:
        return math.nan, math.nan
    ranks = np.arange(n // 2 + 1)  # P(B = j) for j <= n/2, in logs: no underflow
    log_pmf = -n * math.log(2) + np.concatenate(
        ([0.0], np.cumsum(np.log(n - ranks[:-1]) - np.log(ranks[:-1] + 1))))
    log_tail = np.logaddexp.accumulate(log_pmf)  # P(B <= j)
    within = np.flatnonzero(log_tail <= math.log((1 - level) / 2))
    if not len(within):
        return math.nan, math.nan
    k = int(within[-1]) + 1  # P(B <= k - 1) within the bound
    return float(values[k - 1]), float(values[n - k])
