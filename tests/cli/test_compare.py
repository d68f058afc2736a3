"""``arena report --compare`` and ``arena.compare``: several runs in one table whose numbers
are each run's summary.csv, one chart, pages written to --out; runs that cannot be compared
refused in one line with exit status 2, nothing written."""

from __future__ import annotations

import csv
import math
from pathlib import Path

import pytest

import arena as api
from arena.rules.errors import ArenaError
from tests.helpers.cli import arena


def play(out: Path, *args: str) -> Path:
    code, output = arena("match", *args, "-j", "1", "--out", str(out), "--quiet", "--no-report")
    assert code == 0, output
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    """Two heuristic variants against negamax d2 (20 games each, other seeds), and a
    two-pairing tournament."""
    root = tmp_path_factory.mktemp("runs")
    first = play(root / "threats", "negamax:depth=2,heuristic=threats", "negamax:depth=2", "-n",
                 "20", "--openings", "random:2", "--seed", "1")
    second = play(root / "positional", "negamax:depth=2,heuristic=positional",
                  "negamax:depth=2", "-n", "20", "--openings", "random:2", "--seed", "2")
    code, output = arena("tournament", "random", "immediate-win", "negamax:depth=1", "-n", "4",
                         "--gauntlet", "-j", "1", "--out", str(root / "gauntlet"), "--quiet",
                         "--no-report")
    assert code == 0, output
    return [first, second, root / "gauntlet"]


def summary_rows(run: Path) -> list[dict[str, str]]:
    with (run / "summary.csv").open(newline="") as file:
        return list(csv.DictReader(file))


def test_the_table_holds_every_runs_summary(runs: list[Path]) -> None:
    comparison = api.compare(*runs)
    expected = [(run.name, row) for run in runs for row in summary_rows(run)]
    assert len(comparison.table) == len(expected) == 4
    for (_, row), (name, summary) in zip(comparison.table.iterrows(), expected, strict=True):
        assert row["run"] == name
        assert (row["agent_a"], row["agent_b"]) == (summary["agent_a"], summary["agent_b"])
        for column in ("games", "wins", "draws", "losses"):
            assert row[column] == int(summary[column])
        for column in ("score", "score_low", "score_high", "elo"):
            assert row[column] == pytest.approx(float(summary[column]))
    assert repr(comparison).startswith("<Comparison of 3 runs on 6 x 7 connect 4: threats,")
    assert "<table" in comparison._repr_html_()


def test_the_command_prints_the_table_and_writes_the_pages(runs: list[Path],
                                                          tmp_path: Path) -> None:
    out = tmp_path / "compared"
    code, output = arena("report", "--compare", *map(str, runs), "--out", str(out))
    assert code == 0, output
    lines = output.splitlines()
    assert lines[0].split()[:4] == ["run", "date", "A", "B"]
    first = summary_rows(runs[0])[0]
    printed = (f"{float(first['score']):.2%} [{float(first['score_low']):.2%}, "
               f"{float(first['score_high']):.2%}]")
    assert lines[1].startswith("threats ") and printed in lines[1]  # as arena match prints it
    assert lines[-1] == f"Report      {out / 'report.md'}"
    assert lines[-2].startswith("Verdict: ")
    assert lines[-3] == ("Conditions differ: threats openings random:2 · 6 x 7 · no time limit; "
                         "positional openings random:2 · 6 x 7 · no time limit; gauntlet "
                         "openings none · 6 x 7 · no time limit")
    assert api.compare(*runs[:2]).conditions() == \
        "Conditions: openings random:2 · 6 x 7 · no time limit (every run)"
    assert "**Conditions differ**: threats openings random:2" in (out / "report.md").read_text()
    assert sorted(path.name for path in out.iterdir()) == ["compare.png", "report.html",
                                                          "report.md"]
    page = (out / "report.html").read_text()
    assert page.count("<svg") == 1 and "http://" not in page.replace(
        'xmlns="http://www.w3.org/2000/svg"', "").replace(
        'xmlns:xlink="http://www.w3.org/1999/xlink"', "")
    assert printed in (out / "report.md").read_text()  # one rounding: the page's as printed


def test_the_chart_gives_each_score_as_the_table_does(runs: list[Path]) -> None:
    comparison = api.compare(*runs[:2])
    tabled = [row[8].split(" [")[0] for row in comparison.rows()]
    chart = comparison.chart()
    noted = [text.get_text() for text in chart.axes[0].texts]
    assert noted == tabled and all(note.endswith("%") for note in noted)


def test_each_later_run_is_measured_against_the_first(runs: list[Path]) -> None:
    """The two heuristics' matches (one agent A each, the same B): A's score and Elo in the
    second minus the first, their interval made of the two runs' own (MOVER), and the
    gauntlet's pairings, with other agents, left out; a one-line verdict."""
    comparison = api.compare(*runs, labels={runs[0]: "v1", str(runs[1]): "v2"})
    first, second = (summary_rows(run)[0] for run in runs[:2])
    [row] = comparison.differences.to_dict("records")
    assert (row["run"], row["agent_a"], row["baseline_a"]) == (
        "v2", second["agent_a"], first["agent_a"])
    s1, l1, h1, s2, l2, h2 = (float(r[c]) for r in (first, second)
                              for c in ("score", "score_low", "score_high"))
    assert row["score"] == pytest.approx(s2 - s1)
    assert row["score_low"] == pytest.approx(s2 - s1 - math.hypot(s2 - l2, h1 - s1))
    assert row["score_high"] == pytest.approx(s2 - s1 + math.hypot(h2 - s2, s1 - l1))
    assert row["elo"] == pytest.approx(float(second["elo"]) - float(first["elo"]))
    verdict = comparison.verdict()
    assert verdict.count("\n") == 0 and verdict.startswith("Verdict: A's score is ")
    low = (s2 - s1 - math.hypot(s2 - l2, h1 - s1)) * 100
    assert f"in v2 than in v1 (95% interval [{low:+.2f}, " in verdict
    significant = row["score_low"] > 0 or row["score_high"] < 0
    assert verdict.endswith("a difference at 95%." if significant else "(the interval holds 0).")
    assert list(comparison.table["run"]) == ["v1", "v2", "gauntlet", "gauntlet"]


def test_labels_name_the_runs_on_the_command_line(runs: list[Path], tmp_path: Path) -> None:
    code, output = arena("report", "--compare", str(runs[0]), str(runs[1]), "--label", "1=v1",
                         "--label", "B=v2", "--out", str(tmp_path / "out"))
    assert code == 0, output
    lines = output.splitlines()
    assert lines[1].startswith("v1 ") and lines[2].startswith("v2 ")
    assert "in v2 than in v1" in output
    page = (tmp_path / "out" / "report.md").read_text()
    assert "| v2 |" in page and "**Verdict**: A's score is " in page
    for bad, message in ((["--label", "3=x"], "expected WHICH=NAME"),
                         (["--label", "1=x", "--label", "2=x"], "given to two runs")):
        code, output = arena("report", "--compare", str(runs[0]), str(runs[1]), *bad)
        assert code == 2 and message in output and output.count("\n") == 1
    code, output = arena("report", str(runs[0]), "--label", "1=x")
    assert code == 2 and "--label goes with --compare" in output


@pytest.mark.parametrize(("args", "message"), [
    (["threats"], "a comparison needs at least two run directories, got 1"),
    (["threats", "threats"], "is given twice"),
    (["threats", "small"], "small is not comparable with"),
    (["threats", "nosuch"], "nosuch is not a run directory"),
])
def test_runs_that_cannot_be_compared_are_refused_in_one_line(
        runs: list[Path], tmp_path: Path, args: list[str], message: str) -> None:
    root = runs[0].parent
    if not (root / "small").exists():
        play(root / "small", "random", "random", "-n", "2", "--rows", "5", "--cols", "6")
    out = tmp_path / "out"
    code, output = arena("report", "--compare", *(str(root / a) for a in args), "--out", str(out))
    assert code == 2
    assert output.count("\n") == 1 and message in output
    assert not out.exists()
    with pytest.raises(ArenaError, match=message):  # the API raises what the command says
        api.compare(*(root / a for a in args))


def test_out_may_not_be_a_run_directory(runs: list[Path]) -> None:
    report = runs[1] / "report.md"
    before = report.read_bytes() if report.exists() else None
    code, output = arena("report", "--compare", str(runs[0]), str(runs[1]), "--out",
                         str(runs[1]))
    assert code == 2 and "is a run directory" in output and output.count("\n") == 1
    assert (report.read_bytes() if report.exists() else None) == before


def test_one_run_without_compare_takes_one_directory(runs: list[Path]) -> None:
    code, output = arena("report", str(runs[0]), str(runs[1]))
    assert code == 2 and "--compare" in output
    code, output = arena("report", str(runs[0]), "--out", "x")
    assert code == 2 and "--out goes with --compare" in output
