"""arena.stats.move_times: the median and the 90th percentile of sorted times, computed
without np.median and np.percentile (whose first call imports numpy.ma), held to hand-checked
values and to numpy's own answers bit for bit."""

from __future__ import annotations

import math
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from arena.stats.move_times import MoveTimes, sorted_median, sorted_percentile
from tests.helpers.cli import checkout_env


@pytest.mark.parametrize(("values", "median", "p90"), [
    ([3.0], 3.0, 3.0),
    ([1.0, 2.0], 1.5, 1.9),  # 1 + 0.9 * (2 - 1)
    ([1.0, 2.0, 4.0], 2.0, 3.6),  # index 1.8: 4 - (4 - 2) * 0.2
    ([0.0] * 9 + [10.0], 0.0, 1.0),  # index 8.1 between 0 and 10
    ([1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0], 6.0, 10.0),  # index 9 exactly
    ([1.0, 2.0, math.nan], math.nan, math.nan),  # nan sorts last
    ([5.0, math.inf], math.inf, math.nan),  # numpy's lerp: inf - (inf - 5) * 0.1
])
def test_hand_checked_figures(values: list[float], median: float, p90: float) -> None:
    ordered = np.sort(np.asarray(values))
    assert sorted_median(ordered) == pytest.approx(median, nan_ok=True)
    assert sorted_percentile(ordered, 90) == pytest.approx(p90, nan_ok=True)


figures = st.lists(st.one_of(
    st.floats(min_value=0.0, max_value=1e12, allow_subnormal=True),
    st.floats(min_value=-1e300, max_value=1e300),
    st.sampled_from([0.0, 1e-9, 0.1, 0.2, 0.3, 1e308, math.inf, -math.inf, math.nan]),
), min_size=1, max_size=40)


def same(got: float, want: float) -> bool:
    """The same float, bit for bit (nan equal to nan), but for the sign of a zero: which of
    equal zeros a sort leaves in the middle is the sort's choice (think times are never -0)."""
    return (math.isnan(got) and math.isnan(want)) or (got == want and (got == 0 or math.copysign(
        1.0, got) == math.copysign(1.0, want)))


@settings(max_examples=400, deadline=None)
@given(figures, st.sampled_from([0, 10, 25, 50, 75, 90, 99, 100]))
def test_the_figures_are_numpys_bit_for_bit(values: list[float], percent: int) -> None:
    ordered = np.sort(np.asarray(values, dtype=float))
    with np.errstate(invalid="ignore", over="ignore"):
        median = float(np.median(ordered))
        percentile = float(np.percentile(ordered, percent))
    assert same(sorted_median(ordered), median)
    assert same(sorted_percentile(ordered, percent), percentile)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.floats(min_value=0.0, max_value=100.0), min_size=1, max_size=30))
def test_move_times_are_numpys(per_game: list[float]) -> None:
    times = MoveTimes.of_figures(per_game, 1.0)
    assert times.median == float(np.median(per_game))
    assert times.p90 == float(np.percentile(per_game, 90))
    assert times.games == len(per_game)


def test_no_games_no_figures() -> None:
    times = MoveTimes.of_figures([], math.nan)
    assert times.games == 0 and math.isnan(times.median) and math.isnan(times.p90)


def test_the_figures_import_no_numpy_ma() -> None:
    probe = ("import sys\n"
             "from arena.stats.move_times import MoveTimes\n"
             "MoveTimes.of_games([0.5, 0.25, 1.0, 0.75, 0.1, 0.2, 0.3], [3, 1, 4, 1, 5, 9, 2])\n"
             "print('numpy.ma' in sys.modules)")
    shown = subprocess.run([sys.executable, "-c", probe], env=checkout_env(), text=True,
                           capture_output=True, check=True).stdout.split()
    assert shown == ["False"]
