"""Tests of arena.stats and `arena stats` against the published vectors in stats-vectors.md."""

from __future__ import annotations

import math
import re

import click
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from arena.cli.stats import stats_command
from arena.stats import (
    NELO_SCALE,
    Z95,
    EloEstimate,
    Interval,
    SprtBounds,
    Verdict,
    elo_from_score,
    los,
    normal_cdf,
    pentanomial,
    pentanomial_counts,
    score_from_elo,
    sprt,
    sprt_bounds,
    sprt_llr,
    sprt_verdict,
    trinomial,
    wilson,
)


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


@pytest.mark.parametrize(
    ("estimate", "elo0", "elo1", "model", "expected"),
    [
        (trinomial(36433, 68692, 36027), 0.0, 2.0, "normalized", "0.92"),
        (trinomial(21404, 40708, 21184), 0.5, 2.5, "logistic", "-1.57"),
        (pentanomial((365, 16618, 36029, 200, 16974, 390)), 0.0, 2.0, "normalized", "2.25"),
        (pentanomial((871, 26175, 55003, 980, 26678, 821)), 0.0, 2.0, "logistic", "-4.98"),
    ],
)
def test_llr_vectors(
    estimate: EloEstimate, elo0: float, elo1: float, model: str, expected: str
) -> None:
    llr = sprt_llr(estimate, elo0, elo1, model)  # type: ignore[arg-type]
    assert two(llr) == expected


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
    with pytest.raises(ValueError, match="elo0 must be below elo1"):
        sprt_llr(e, 2.0, 0.0)
    with pytest.raises(ValueError, match="elo0 must be below elo1"):
        sprt_llr(e, 1.0, 1.0)
    with pytest.raises(ValueError, match="model"):
        sprt_llr(e, 0.0, 2.0, "bayes")  # type: ignore[arg-type]


def test_llr_sign_follows_the_data() -> None:
    good = trinomial(700, 200, 100)
    bad = trinomial(100, 200, 700)
    for model in ("normalized", "logistic"):
        assert sprt_llr(good, 0, 5, model) > 0
        assert sprt_llr(bad, 0, 5, model) < 0


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
    assert trinomial(136, 111, 96).score_interval == ci


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
    e = trinomial(12, 0, 0)
    assert e.score == 1.0
    assert e.elo == math.inf
    assert math.isnan(e.error)
    assert e.nelo == math.inf
    assert math.isnan(e.nelo_error)
    assert e.los == 1.0


def test_all_losses() -> None:
    e = pentanomial((5, 0, 0, 0, 0, 0))
    assert e.elo == -math.inf
    assert e.nelo == -math.inf
    assert e.los == 0.0


def test_all_draws_zero_variance() -> None:
    e = trinomial(0, 8, 0)
    assert e.variance == 0.0
    assert e.elo == 0.0
    assert e.error == 0.0
    assert math.isnan(e.nelo)
    assert e.los == 0.5
    # Empty classes count 1e-3, so the score stays 1/2 exactly and t = 0:
    # LLR = games/2 ln(1 / (1 + t1^2)), slightly in favour of H0.
    t1 = 2 / NELO_SCALE
    assert sprt_llr(e, 0, 2) == pytest.approx(4 * math.log(1 / (1 + t1**2)), rel=1e-9)
    assert sprt(e, 0, 2).verdict is Verdict.CONTINUE
    assert sprt_llr(pentanomial((0, 0, 4, 3, 0, 0)), 0, 2, "logistic") < 0


def test_wins_only_logistic_llr_is_not_infinite() -> None:
    # a single won game must not end an SPRT
    assert sprt(trinomial(1, 0, 0), 0, 5, model="logistic").verdict is Verdict.CONTINUE


def test_huge_advantage_interval_reaches_infinity() -> None:
    e = trinomial(9, 0, 1)
    assert math.isfinite(e.elo)
    assert e.elo_interval.high == math.inf
    assert e.error == math.inf


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
    with pytest.raises(TypeError, match="integer"):
        trinomial("3", 2, 3)  # type: ignore[arg-type]
    assert trinomial(3.0, 2, 1).counts == (3, 2, 1)  # type: ignore[arg-type]


def test_pentanomial_counts() -> None:
    pairs = [("win", "loss"), ("loss", "win"), ("draw", "draw"), ("win", "win"), ("draw", "loss")]
    assert pentanomial_counts(pairs) == (0, 1, 2, 1, 0, 1)
    with pytest.raises(ValueError, match="win"):
        pentanomial_counts([("win", "tie")])


# --------------------------------------------------------------------------- properties


counts3 = st.tuples(*(st.integers(0, 500),) * 3).filter(lambda c: sum(c) > 0)


@given(counts3)
def test_trinomial_properties(c: tuple[int, int, int]) -> None:
    w, d, lo = c
    e = trinomial(w, d, lo)
    mirror = trinomial(lo, d, w)
    assert 0.0 <= e.los <= 1.0
    assert e.score_interval.low <= e.score <= e.score_interval.high
    if math.isfinite(e.elo):
        assert e.elo == pytest.approx(-mirror.elo, abs=1e-9)
        assert e.elo_interval.low <= e.elo <= e.elo_interval.high
    if e.variance > 0:
        assert e.los == pytest.approx(1.0 - mirror.los, abs=1e-12)
        assert e.nelo == pytest.approx(-mirror.nelo, abs=1e-9)


@given(st.tuples(*(st.integers(0, 300),) * 3).filter(lambda c: sum(c) > 0))
def test_pairs_of_identical_games_match_trinomial_score(c: tuple[int, int, int]) -> None:
    # pairs LL, DD, WW only: same mean score as the games played twice
    w, d, lo = c
    assert pentanomial((lo, 0, 0, d, 0, w)).score == pytest.approx(trinomial(w, d, lo).score)


# --------------------------------------------------------------------------- CLI


def run(*args: str) -> tuple[int, str]:
    group = click.Group("arena")
    group.add_command(stats_command)
    result = CliRunner().invoke(group, ["stats", *args])
    return result.exit_code, result.output


def test_cli_trinomial_vector() -> None:
    code, out = run("--wins", "136", "--draws", "111", "--losses", "96")
    assert code == 0, out
    assert re.search(r"^Games\s+343\b", out, re.M)
    assert re.search(r"^Score\s+55\.83%\s+\[50\.54%, 60\.99%\]$", out, re.M)
    assert re.search(r"^Elo\s+40\.70 ± 30\.43$", out, re.M)
    assert re.search(r"^nElo\s+49\.77 ± 36\.77$", out, re.M)
    assert re.search(r"^LOS\s+99\.60%$", out, re.M)
    assert "LLR" not in out
    # aligned: every value starts in the same column
    starts = {len(m.group(1)) for m in re.finditer(r"^(\S+\s+)\S", out, re.M)}
    assert len(starts) == 1


def test_cli_pentanomial_sprt() -> None:
    code, out = run("--penta", "365,16618,36029,200,16974,390", "--sprt", "0,2")
    assert code == 0, out
    assert re.search(r"^LLR\s+2\.25$", out, re.M)
    assert re.search(r"^Bounds\s+-2\.94, 2\.94$", out, re.M)
    assert re.search(r"^Verdict\s+continue$", out, re.M)
    assert re.search(r"^Games\s+141152\s+\(70576 pairs", out, re.M)


def test_cli_logistic_sprt_accepts_h0() -> None:
    code, out = run(
        "--penta", "871,26175,55003,980,26678,821", "--sprt", "0,2", "--model", "logistic"
    )
    assert code == 0, out
    assert re.search(r"^LLR\s+-4\.98$", out, re.M)
    assert re.search(r"^Verdict\s+accept H0$", out, re.M)


def test_cli_alpha_changes_bounds() -> None:
    code, out = run("--wins", "30", "--losses", "20", "--sprt", "0,5", "--alpha", "0.1")
    assert code == 0, out
    assert re.search(r"^Bounds\s+-2\.89, 2\.25$", out, re.M)


def test_cli_degenerate_counts_do_not_crash() -> None:
    code, out = run("--wins", "3")
    assert code == 0, out
    # Wilson interval of 3/3 by hand: low = 0.4385, so Elo >= -400 log10(1/0.4385 - 1)
    assert re.search(r"^Elo\s+\+inf \(A won every game; 95% lower bound -42\.95\)$", out, re.M)


def test_cli_help_explains_options() -> None:
    code, out = run("--help")
    assert code == 0
    for text in ("--wins", "--penta", "--sprt", "--alpha", "--beta", "--model", "e.g."):
        assert text in out
    assert "arena stats --wins 136 --draws 111 --losses 96" in out


BAD_INPUTS = [
    (("--wins", "3", "--penta", "1,2,3,4,5,6"), "not both"),
    ((), "expected --wins"),
    (("--penta", "1,2,3"), "six non-negative integers"),
    (("--penta", "1,2,3,4,5,x"), "six non-negative integers"),
    (("--penta", "1,2,3,4,5,-6"), "six non-negative integers"),
    (("--penta", "0,0,0,0,0,0"), "at least one game pair"),
    (("--wins", "-1", "--losses", "2"), "--wins"),
    (("--losses", "-4"), "--losses"),
    (("--wins", "0"), "no games"),
    (("--wins", "5", "--sprt", "0,2", "--alpha", "1.5"), "--alpha"),
    (("--wins", "5", "--sprt", "0,2", "--beta", "0"), "--beta"),
    (("--wins", "5", "--sprt", "0,2", "--alpha", "0.6", "--beta", "0.5"), "alpha + beta"),
    (("--wins", "5", "--sprt", "2,0"), "ELO0 < ELO1"),
    (("--wins", "5", "--sprt", "1,1"), "ELO0 < ELO1"),
    (("--wins", "5", "--sprt", "zero"), "ELO0,ELO1"),
    (("--wins", "5", "--alpha", "0.1"), "--sprt"),
    (("--wins", "5", "--sprt", "0,2", "--model", "bayes"), "--model"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUTS)
def test_cli_bad_input_is_a_usage_error(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(click.UsageError) as info:
        stats_command.main(list(args), prog_name="arena stats", standalone_mode=False)
    text = info.value.format_message()
    assert message in text
    assert "\n" not in text
    code, out = run(*args)
    assert code == 2
    assert message in out
