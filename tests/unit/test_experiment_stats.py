"""What experiment pages compute: the homogeneity test that compares a result with its
reference, and chart titles (the experiment files and `arena run`: tests/cli/test_experiment.py)."""

from __future__ import annotations

import math

import pytest

from arena.report.style import wrap
from arena.stats.elo import homogeneity


def test_identical_tables_are_within_noise_with_p_one() -> None:
    test = homogeneity([500, 100, 400], [500, 100, 400])
    assert (test.chi2, test.dof, test.p, test.verdict) == (0.0, 2, 1.0, "within noise")


def test_two_degrees_of_freedom_match_a_hand_computation() -> None:
    # Column totals 80, 60, 60 of 200: each row expects 40, 30, 30.
    # chi2 = 2 * 10^2 / 40 + 0 + 2 * 10^2 / 30 = 5 + 20/3; p = exp(-chi2 / 2).
    test = homogeneity([50, 30, 20], [30, 30, 40])
    assert test.dof == 2 and not test.merged_draws
    assert test.chi2 == pytest.approx(35 / 3)
    assert test.p == pytest.approx(math.exp(-35 / 6)) and test.p == pytest.approx(0.0029283, 1e-4)
    assert test.verdict == "differs (p = 0.0029)"


def test_an_empty_draw_column_leaves_one_degree_of_freedom() -> None:
    # Each row expects 50 wins and 50 losses: chi2 = 4 * 10^2 / 50 = 8; p = erfc(2).
    test = homogeneity([60, 0, 40], [40, 0, 60])
    assert (test.dof, test.merged_draws) == (1, True)
    assert test.chi2 == pytest.approx(8.0) and test.p == pytest.approx(math.erfc(2.0))


def test_few_expected_draws_are_counted_with_the_losses() -> None:
    # Merged: [55, 45] and [50, 50]; expected 52.5 and 47.5 per row.
    test = homogeneity([55, 2, 43], [50, 1, 49])
    chi2 = 2 * (2.5**2 / 52.5 + 2.5**2 / 47.5)
    assert (test.dof, test.merged_draws) == (1, True)
    assert test.chi2 == pytest.approx(chi2)
    assert test.p == pytest.approx(math.erfc(math.sqrt(chi2 / 2)))
    assert test.verdict == "within noise"


def test_a_clearly_different_result_differs_and_small_tables_are_flagged() -> None:
    assert homogeneity([841, 65, 94], [719, 144, 137]).p < 1e-9
    assert homogeneity([40, 0, 0], [38, 0, 2]).approximate
    assert homogeneity([40, 0, 0], [40, 0, 0]).p == 1.0


def test_chart_titles_break_between_parameters_never_inside_one() -> None:
    title = "entry:  negamax:depth=4,heuristic=threats*10+positional,tiebreak=left  vs  random"
    lines = wrap(title, 40).split("\n")
    assert lines == ["entry:  negamax:depth=4,", "heuristic=threats*10+positional,",
                     "tiebreak=left  vs  random"]
    assert wrap("a  vs  b", 40) == "a  vs  b"


def test_a_word_longer_than_a_line_is_broken_with_nothing_lost() -> None:
    word = "x" * 25
    assert wrap(f"mine {word} end", 10).split("\n") == ["mine", "x" * 10, "x" * 10,
                                                        "x" * 5 + " end"]
