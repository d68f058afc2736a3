"""The terminal names agents as report.md does: the --label names, else short labels."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.cli import invoke
from tests.helpers.sprt import STRONG, WEAK


def test_a_match_line_is_the_report_s(tmp_path: Path) -> None:
    """negamax:depth=2,heuristic=threats is printed 'negamax d2 threats' (default values
    dropped but the depth), random with its given name; the report's seeds line is the same."""
    out = tmp_path / "run"
    result = invoke("match", "negamax:depth=2,heuristic=threats", "random", "-n", "6", "-j", "1",
                    "-q", "--label", "B=the random one", "--out", str(out))
    assert result.exit_code == 0, result.output
    line = result.stdout.splitlines()[0]
    assert line.startswith("negamax d2 threats [") and line.endswith("] the random one (6)")
    assert f"\n{line}\n" in (out / "report.md").read_text()


def test_a_resumed_run_keeps_the_names_it_was_given(tmp_path: Path) -> None:
    """The names are the run's (its meta.json's): the same command without --label, on the
    finished run, prints them as its report does."""
    out = tmp_path / "run"
    first = invoke("match", "random", "immediate-win", "-n", "4", "-j", "1", "-q",
                   "--label", "A=Foo", "--no-report", "--out", str(out))
    assert first.exit_code == 0, first.output
    again = invoke("match", "random", "immediate-win", "-n", "4", "-j", "1", "-q",
                   "--no-report", "--out", str(out))
    assert again.exit_code == 0, again.output
    assert again.stdout.splitlines()[0] == first.stdout.splitlines()[0]
    assert again.stdout.startswith("Foo [")


def test_a_tournament_prints_labels_in_its_lines_crosstable_and_ratings(tmp_path: Path) -> None:
    out = tmp_path / "rr"
    result = invoke("tournament", "random", "immediate-win", "immediate-win:block=true", "-n",
                    "4", "-j", "1", "-q", "--label", "C=blocker", "--out", str(out))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert [line.split(" [")[0] for line in lines[:3]] == ["random", "random", "immediate-win"]
    assert [line.rsplit("] ", 1)[1] for line in lines[:3]] == [
        "immediate-win (4)", "blocker (4)", "blocker (4)"]
    page = (out / "report.md").read_text()
    assert all(f"\n{line}\n" in page for line in lines[:3])
    ratings = lines[lines.index(next(x for x in lines if x.startswith("rank"))) + 1:][:3]
    assert sorted(row.split()[1] for row in ratings) == ["blocker", "immediate-win", "random"]
    assert "immediate-win:block=true" not in result.stdout


def test_an_sprt_names_its_agents_in_the_line_and_the_verdict(tmp_path: Path) -> None:
    result = invoke("sprt", STRONG, WEAK, "--elo0", "0", "--elo1", "50", "--batch-pairs", "5",
                    "-j", "1", "--max-games", "40", "--no-report", "--label", "A=the winner",
                    "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    line, verdict = result.stdout.splitlines()[:2]
    assert line.startswith("the winner [") and line.endswith(f"] {WEAK} (40)")
    assert verdict.startswith("No decision") or "the winner is" in verdict
