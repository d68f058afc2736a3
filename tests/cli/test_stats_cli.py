"""`arena stats` against published vectors and hand-computed answers (the statistics
themselves: tests/unit/test_stats.py)."""

from __future__ import annotations

import re
from functools import partial

import click
import pytest

from arena.cli.stats import stats_command
from tests.helpers.cli import arena

STATS_ONLY = click.Group("arena", commands=[stats_command])
"""A plain click group holding `stats` alone: click's own usage errors, not the arena's."""
run = partial(arena, "stats", command=STATS_ONLY)


def test_cli_trinomial_vector() -> None:
    code, out = run("--wins", "136", "--draws", "111", "--losses", "96")
    assert code == 0, out
    assert re.search(r"^Games\s+343\b", out, re.M)
    assert re.search(r"^Score\s+55\.83%\s+\[51\.52%, 60\.14%\]$", out, re.M)
    assert re.search(r"^Intervals\s+95%, normal approximation with the trinomial variance of "
                     r"343 games$", out, re.M)
    elo = re.search(r"^Elo\s+40\.70  \[(\S+), (\S+)\]$", out, re.M)
    assert elo is not None  # the interval summary.csv holds: the score's bounds in Elo
    low, high = float(elo[1]), float(elo[2])
    assert (low, high) == (10.59, 71.44)
    assert (high - low) / 2 == pytest.approx(30.43, abs=0.01)  # fastchess's "40.70 +/- 30.43"
    assert re.search(r"^nElo\s+49\.77 ± 36\.77$", out, re.M)
    assert re.search(r"^LOS\s+99\.60%$", out, re.M)
    assert "LLR" not in out
    # aligned: every value starts in the same column
    starts = {len(m.group(1)) for m in re.finditer(r"^(\S+\s+)\S", out, re.M)}
    assert len(starts) == 1


def test_cli_pentanomial_sprt() -> None:
    code, out = run("--penta", "365,16618,36029,200,16974,390", "--sprt", "0,2")
    assert code == 0, out
    assert re.search(r"^LLR\s+2\.25 \(exact\)$", out, re.M)
    assert re.search(r"^Bounds\s+-2\.94, 2\.94$", out, re.M)
    assert re.search(r"^Verdict\s+continue$", out, re.M)
    assert re.search(r"^Games\s+141152\s+\(70576 pairs", out, re.M)


def test_cli_logistic_sprt_accepts_h0() -> None:
    code, out = run(
        "--penta", "871,26175,55003,980,26678,821", "--sprt", "0,2", "--model", "logistic"
    )
    assert code == 0, out
    assert re.search(r"^LLR\s+-4\.98 \(exact\)$", out, re.M)
    assert re.search(r"^Verdict\s+accept H0$", out, re.M)


def test_cli_alpha_changes_bounds() -> None:
    code, out = run("--wins", "30", "--losses", "20", "--sprt", "0,5", "--alpha", "0.1")
    assert code == 0, out
    assert re.search(r"^Bounds\s+-2\.89, 2\.25$", out, re.M)


def test_cli_degenerate_counts_do_not_crash() -> None:
    code, out = run("--wins", "3")
    assert code == 0, out
    # Wilson interval of 3/3 by hand: low = 3 / (3 + z^2) = 0.4385, so
    # Elo >= -400 log10(1/0.4385 - 1) = -42.95
    assert re.search(r"^Elo\s+at least -42\.95 \(A won every game: no finite estimate\)$", out,
                     re.M)
    assert re.search(r"^nElo\s+undefined \(no variance: every game ended alike\)$", out, re.M)


def table(out: str) -> dict[str, str]:
    """`arena stats` output as {label: text}."""
    return dict(line.split(maxsplit=1) for line in out.splitlines())  # type: ignore[misc]


def test_cli_ten_wins_one_loss() -> None:
    code, out = run("--wins", "10", "--losses", "1")
    assert code == 0, out
    rows = table(out)
    assert rows["Score"] == "90.91%  [62.26%, 98.38%]"
    assert rows["Elo"] == "400.00  [86.99, 713.01]"
    assert rows["nElo"] == "494.41 (no interval: the normal approximation fails here)"
    assert rows["LOS"] == "99.67%"
    assert rows["Intervals"] == ("95%, Wilson score interval of 11 games (the normal "
                                 "approximation would pass 100%)")


def test_cli_a_single_draw() -> None:
    code, out = run("--draws", "1")
    assert code == 0, out
    rows = table(out)
    assert rows["Score"] == "50.00%  [5.46%, 94.54%]"
    assert rows["Elo"] == "0.00  [-495.30, 495.30]"
    assert rows["nElo"] == "undefined (no variance: every game ended alike)"
    assert rows["LOS"] == "50.00%"


def test_cli_a_single_win() -> None:
    code, out = run("--wins", "1")
    assert code == 0, out
    rows = table(out)
    assert rows["Elo"] == "at least -233.80 (A won every game: no finite estimate)"
    assert rows["LOS"] == "84.13%"


def test_cli_all_lost_pairs() -> None:
    code, out = run("--penta", "5,0,0,0,0,0")
    assert code == 0, out
    rows = table(out)
    assert rows["Elo"].startswith("at most -45.79 (A lost every game")
    assert rows["nElo"] == "undefined (no variance: every pair scored the same)"
    assert rows["Intervals"] == ("95%, Wilson score interval of 5 game pairs (no variance: every "
                                 "pair scored the same)")


def test_cli_known_answer_exact_and_approximate() -> None:
    code, out = run("--penta", "8,3,43,1,6,39", "--elo0", "0", "--elo1", "20")
    assert code == 0, out
    rows = table(out)
    assert rows["Score"] == "66.25%  [60.15%, 72.35%]"
    assert rows["Intervals"] == ("95%, normal approximation with the pentanomial variance of "
                                 "100 game pairs")
    assert rows["SPRT"] == "H0 nElo 0.00, H1 nElo 20.00 (normalized model)"
    assert rows["LLR"] == "3.45 (exact)"
    assert rows["Verdict"] == "accept H1"
    code, out = run("--penta", "8,3,43,1,6,39", "--sprt", "0,20", "--llr", "approximate")
    assert code == 0, out
    assert table(out)["LLR"] == "3.51 (approximate)"


def test_cli_help_explains_options() -> None:
    code, out = run("--help")
    assert code == 0
    for text in ("--wins", "--penta", "--elo0", "--elo1", "--sprt", "--alpha", "--beta",
                 "--model", "--llr", "e.g.", "Wilson"):
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
    (("--wins", "5", "--alpha", "0.1"), "--alpha only applies to an SPRT"),
    (("--wins", "5", "--llr", "exact"), "--llr only applies to an SPRT"),
    (("--wins", "5", "--sprt", "0,2", "--llr", "guess"), "--llr"),
    (("--wins", "5", "--elo0", "0"), "--elo1 is missing"),
    (("--wins", "5", "--elo1", "0"), "--elo0 is missing"),
    (("--wins", "5", "--elo0", "2", "--elo1", "0"), "ELO0 < ELO1"),
    (("--wins", "5", "--sprt", "0,2", "--elo0", "0", "--elo1", "2"), "not both"),
    (("--wins", "5", "--elo0", "0", "--elo1", "7000", "--model", "logistic"),
     "out of the logistic model's range"),
    (("--wins", "9" * 400, "--losses", "1"), "expected at most 10^15, got a number of 400 digits"),
    (("--wins", "600000000000000", "--losses", "600000000000000"), "at most 10^15"),
    (("--penta", "1,2,3,4,5," + "9" * 5000), "got a number of 5000 digits"),
    (("--draws", "1.5"), "expected a non-negative whole number"),
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
