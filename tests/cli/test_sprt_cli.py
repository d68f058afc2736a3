"""`arena sprt`: the verdict, the table and the chart, resuming, one-line errors (the test
itself: tests/integration/test_sprt.py)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import click
import pytest

from arena.cli import ArenaGroup
from arena.cli.sprt import SprtProgressBar, sprt_command
from arena.competitions.sprt import run_sprt
from tests.helpers.cli import invoke
from tests.helpers.sprt import H0_H1, STRONG, TWINS, WEAK, plan, sprt_rows


@pytest.fixture
def arena() -> click.Group:
    """An `arena` group holding `sprt`, with the group's one-line errors and exit status 2."""
    return ArenaGroup("arena", commands=[sprt_command])


@pytest.mark.slow
def test_the_command_prints_the_verdict_and_writes_the_chart(arena: click.Group,
                                                             tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [STRONG, WEAK, "--elo0", "0", "--elo1", "50", "--batch-pairs", "5", "-j", "1",
            "--max-games", "400", "--out", str(out)]
    result = invoke("sprt", *args, command=arena)
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    last = sprt_rows(out).iloc[-1]
    games = int(last["games"])
    assert lines[0].startswith(f"{STRONG} [") and lines[0].endswith(f"] {WEAK} ({games})")
    assert lines[1] == f"H1 accepted: {STRONG} is stronger than {WEAK}"
    table = dict(line.split(maxsplit=1) for line in lines[2:])
    assert list(table) == ["Games", "Score", "Elo", "nElo", "LOS", "Intervals", "SPRT", "LLR",
                           "Bounds", "Verdict", "Batches", "Conditions", "Output", "Report"]
    assert table["Games"].startswith(f"{games}  ({games // 2} pairs: LL ")
    assert table["Intervals"].endswith(f"pentanomial variance of {games // 2} game pairs")
    assert table["SPRT"] == "H0 nElo 0.00, H1 nElo 50.00 (normalized model)"
    with (out / "summary.csv").open(newline="") as file:
        [summary] = csv.DictReader(file)
    assert table["Elo"] == "  [".join([f"{float(summary['elo']):.2f}", ", ".join(
        f"{float(summary[bound]):.2f}" for bound in ("elo_low", "elo_high"))]) + "]"
    assert table["LLR"] == f"{last['llr']:.2f} (exact)" and table["Bounds"] == "-2.94, 2.94"
    assert table["Verdict"] == "accept H1"
    assert table["Batches"] == f"{last['batch']} (5 pairs each); at most 400 games"
    assert table["Conditions"] == "openings random:8 · 6 x 7 · no time limit"  # the default
    assert table["Output"] == str(out) and table["Report"] == str(out / "report.md")
    assert "**Conditions**: openings random:8 · 6 x 7 · no time limit." in (
        out / "report.md").read_text()
    assert (out / "sprt.png").stat().st_size > 0
    assert "## SPRT" in (out / "report.md").read_text()
    again = invoke("sprt", *args, "--no-report", "-j", "2",
                   command=arena)  # resumes: nothing left to play
    assert again.exit_code == 0
    assert again.stdout.splitlines() == lines[:-1]


def test_the_approximate_llr_is_asked_for_and_recorded(arena: click.Group,
                                                       tmp_path: Path) -> None:
    out = tmp_path / "run"
    args = [STRONG, WEAK, "--elo0", "0", "--elo1", "50", "--batch-pairs", "5", "-j", "1",
            "--max-games", "40", "--no-report", "--out", str(out)]
    result = invoke("sprt", *args, "--llr", "approximate", command=arena)
    assert result.exit_code == 0, result.output
    rows = sprt_rows(out)
    assert (rows["llr_method"] == "approximate").all()
    assert f"LLR         {rows['llr'].iloc[-1]:.2f} (approximate)\n" in result.stdout
    assert json.loads((out / "meta.json").read_text())["run"]["sprt_llr"] == "approximate"
    resumed = invoke("sprt", *args, command=arena)  # the default, exact: another test
    assert resumed.exit_code == 2
    assert 'sprt_llr "approximate" there, "exact" here' in resumed.output


def test_without_a_decision_the_command_says_so(arena: click.Group, tmp_path: Path) -> None:
    result = invoke("sprt", *TWINS, "--elo0", "0", "--elo1", "50", "--batch-pairs", "5",
                    "--max-games", "20", "--no-report", "--out", str(tmp_path / "run"),
                    command=arena)
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[1].startswith("No decision after 20 games, the maximum")
    assert "Verdict     no decision\n" in result.stdout
    assert not (tmp_path / "run" / "report.md").exists()


BAD_INPUT = [
    (["--elo0", "5", "--elo1", "5"], "expected finite elo0 < elo1"),
    (["--elo0", "0", "--elo1", "5", "--alpha", "1.5"], "1.5 is not in the range 0.0<x<1.0"),
    (["--elo0", "0", "--elo1", "5", "--alpha", "0.5", "--beta", "0.5"], "alpha + beta"),
    (["--elo1", "5"], "Missing option '--elo0'"),
    (["--elo0", "0", "--elo1", "5", "--model", "bayes"], "'bayes' is not one of"),
    (["--elo0", "0", "--elo1", "5", "--llr", "guess"], "'guess' is not one of"),
    (["--elo0", "0", "--elo1", "7000", "--model", "logistic"], "out of the logistic model"),
    (["--elo0", "0", "--elo1", "5", "--max-games", "101"], "must be even and at least 2"),
    (["--elo0", "0", "--elo1", "5", "--max-games", "0"], "0 is not in the range x>=2"),
    (["--elo0", "0", "--elo1", "5", "--batch-pairs", "0"], "0 is not in the range x>=1"),
    (["--elo0", "0", "--elo1", "5", "--openings", "none"], "an SPRT plays game pairs"),
    (["--elo0", "0", "--elo1", "5", "--scheduler", "tcp://x:1"], "only with --backend dask"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUT)
def test_bad_input_is_one_line_and_exit_status_2(arena: click.Group, tmp_path: Path,
                                                 args: list[str], message: str) -> None:
    out = tmp_path / "run"
    result = invoke("sprt", STRONG, WEAK, *args, "--out", str(out), command=arena)
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("arena: error: ")
    assert message in result.stderr
    assert not out.exists()


def test_an_interrupted_command_says_how_to_resume(arena: click.Group, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(*args: Any, **kwargs: Any) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("arena.cli.sprt.run_sprt", interrupted)
    result = invoke("sprt", STRONG, WEAK, "--elo0", "0", "--elo1", "5", "--max-games", "100",
                    "--out", str(tmp_path / "run"), command=arena)
    assert result.exit_code == 130 and result.stdout == ""
    assert result.stderr == (f"arena: interrupted with 0 of 100 games in "
                             f"{tmp_path / 'run'}; run the same command to finish\n")


def test_an_unknown_agent_is_refused_before_any_game(arena: click.Group, tmp_path: Path) -> None:
    result = invoke("sprt", "nosuch", WEAK, "--elo0", "0", "--elo1", "5", "--out",
                    str(tmp_path / "run"), command=arena)
    assert result.exit_code == 2 and "unknown agent 'nosuch'" in result.stderr
    assert not (tmp_path / "run").exists()


def test_the_progress_bar_shows_the_llr(capsys: pytest.CaptureFixture[str],
                                        tmp_path: Path, bars_seen: None) -> None:
    with SprtProgressBar(enabled=True) as bar:
        run_sprt(plan(), H0_H1, tmp_path, progress=bar, on_step=bar.step)
    shown = capsys.readouterr().err
    last = sprt_rows(tmp_path).iloc[-1]
    assert f"LLR {last['llr']:.2f} [-2.94, 2.94]" in shown
    assert f"{int(last['games'])}/400" in shown
