"""A finished command again leaves its current report alone, and writes it again when what it
shows or how it is drawn changed."""

from __future__ import annotations

import json
import multiprocessing
import subprocess
from pathlib import Path

import pytest

from arena.report.prepared import prepared_writer
from arena.report.run_page import write_report
from arena.runs.planning.charts import ChartOptions
from arena.runs.store.directory import RunDirectoryError
from arena.runs.store.files import RunFiles
from tests.helpers.cli import arena_loading, invoke

MATCH = ("match", "random", "immediate-win", "-n", "6", "-q")


def _states(directory: Path) -> dict[str, tuple[int, int]]:
    """Inode and modification time of every report file of ``directory``."""
    files = RunFiles(directory)
    names = [files.REPORT, files.REPORT_HTML, files.REPORT_GAMES, files.REPORT_STAMP,
             *(p.name for p in directory.glob("*.png")), *(p.name for p in directory.glob("*.svg"))]
    return {name: ((directory / name).stat().st_ino, (directory / name).stat().st_mtime_ns)
            for name in names}


def _arena(*args: str) -> subprocess.CompletedProcess[str]:
    """``arena ARGS...`` in a child Python that says which chart libraries it loaded."""
    return arena_loading(("matplotlib", "pandas"), *args)


def test_the_same_command_again_rewrites_no_report_file_and_loads_no_chart_library(
        tmp_path: Path) -> None:
    run = tmp_path / "run"
    first = _arena(*MATCH, "--out", str(run))
    forks = "fork" in multiprocessing.get_all_start_methods()  # a child writes the report
    assert ("loaded: []" if forks else "loaded: ['matplotlib', 'pandas']") in first.stderr
    before = _states(run)
    assert {"wtl.png", "cost.png", "length.png", "report.html"} <= set(before)
    again = _arena(*MATCH, "--out", str(run))
    assert "loaded: []" in again.stderr
    assert f"Report      {run / 'report.md'}" in again.stdout
    assert _states(run) == before
    sessions = json.loads((run / "meta.json").read_text())["sessions"]
    assert [s["games_played"] for s in sessions] == [6, 0]
    assert (run / "report.md").read_text().count("`arena match random immediate-win") == 1


def test_another_format_a_new_game_or_a_lost_chart_writes_the_report_again(
        tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert invoke(*MATCH, "--out", str(run)).exit_code == 0
    before = _states(run)
    assert invoke(*MATCH, "--out", str(run), "--format", "png,svg").exit_code == 0
    after = _states(run)
    assert (run / "wtl.svg").is_file() and after["wtl.png"] != before["wtl.png"]
    assert after["report.md"] != before["report.md"]
    assert "wtl.svg" in (run / "report.md").read_text()

    write_report(run, ChartOptions(("png", "svg")))
    assert _states(run) == after  # current: left alone
    (run / "cost.svg").unlink()
    write_report(run, ChartOptions(("png", "svg")))
    assert (run / "cost.svg").is_file() and _states(run)["report.md"] != after["report.md"]

    grown = _states(run)
    assert invoke(*MATCH[:3], "-n", "8", "-q", "--out", str(run), "--format", "png,svg"
                  ).exit_code == 0
    assert "| 8 |" in (run / "report.md").read_text()
    assert _states(run)["wtl.png"] != grown["wtl.png"]


def test_a_report_the_child_cannot_write_is_written_by_the_command(tmp_path: Path) -> None:
    run = tmp_path / "run"
    with prepared_writer(True) as writer:
        assert invoke(*MATCH, "--out", str(run), "--no-report").exit_code == 0
        (run / "wtl.png").mkdir()  # in the way of the chart: the child fails
        with pytest.raises(RunDirectoryError, match="cannot write the report"):
            writer.write(run)  # written again here, failing the same way, said the same way
    (run / "wtl.png").rmdir()
    with prepared_writer(True) as writer:
        assert writer.write(run) == run / "report.md" and (run / "wtl.png").is_file()


def test_no_report_then_report_writes_it(tmp_path: Path) -> None:
    run = tmp_path / "run"
    assert invoke(*MATCH, "--out", str(run), "--no-report").exit_code == 0
    assert not (run / "report.md").exists()
    result = invoke("report", str(run))
    assert result.exit_code == 0 and result.output.strip() == str(run / "report.md")
    assert (run / "wtl.png").is_file()


def test_charts_of_a_format_no_longer_asked_for_are_removed(tmp_path: Path) -> None:
    """Only the files the last report wrote, each as it wrote it: a file of the user's, or
    a chart changed since, stays."""
    run = tmp_path / "run"
    assert invoke(*MATCH, "--out", str(run)).exit_code == 0
    (run / "notes.png").write_bytes(b"the user's own")  # never written by a report
    (run / "cost.png").write_bytes(b"edited")  # changed since the report wrote it
    assert invoke("report", str(run), "--format", "svg,pdf").exit_code == 0
    charts = sorted(path.name for path in run.iterdir() if path.suffix in (".png", ".svg",
                                                                            ".pdf"))
    assert charts == ["cost.pdf", "cost.png", "cost.svg", "length.pdf", "length.svg",
                      "notes.png", "wtl.pdf", "wtl.svg"]
    assert (run / "cost.png").read_bytes() == b"edited"
    assert ".png" not in (run / "report.md").read_text()
    assert invoke("report", str(run), "--format", "png").exit_code == 0
    assert not list(run.glob("*.svg")) and not list(run.glob("*.pdf"))
    assert (run / "notes.png").read_bytes() == b"the user's own"
