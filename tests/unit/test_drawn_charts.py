"""A report's charts drawn on two cores, every other one by a forked child: the same files
and page as drawn in this process alone, every chart drawn once, by one of the two, and a
failing child harmless."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import arena.report.drawn_charts as drawn_charts
from arena.report.run_page import write_report
from tests.helpers.cli import arena

KINDS = ("ratings", "elo-cost", "crosstable", "wtl", "cost", "length")
"""The charts of a three-agent tournament's report, in the order of the page."""


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tournament of three agents without its report."""
    out = tmp_path_factory.mktemp("charts") / "run"
    code, output = arena("tournament", "random", "immediate-win", "negamax:depth=2", "-n", "6",
                         "-j", "1", "--out", str(out), "--quiet", "--no-report")
    assert code == 0, output
    return out


def reported(finished: Path, where: Path) -> dict[str, bytes]:
    """The report's files (the page and every chart), written from a copy of ``finished``."""
    shutil.copytree(finished, where)
    write_report(where)
    return {path.name: path.read_bytes() for path in sorted(where.iterdir())
            if path.name == "report.html" or path.suffix == ".png"}


def test_the_child_draws_what_this_process_would(finished: Path, tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    forked = reported(finished, tmp_path / "forked" / "run")
    monkeypatch.setattr(drawn_charts, "os", _NoFork())
    alone = reported(finished, tmp_path / "alone" / "run")
    assert sorted(forked) == sorted([*(f"{kind}.png" for kind in KINDS), "report.html"])
    assert forked["report.html"].count(b"<svg") == len(KINDS)
    assert forked == alone


def test_each_chart_is_drawn_once_half_of_them_by_the_child(
        finished: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    log = tmp_path / "drawn.txt"
    draw = drawn_charts.draw_chart

    def logged(kind: str, *args: object) -> object:
        with log.open("a") as file:  # one short line a write: the two processes' lines whole
            file.write(f"{os.getpid()} {kind}\n")
        return draw(kind, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(drawn_charts, "draw_chart", logged)
    reported(finished, tmp_path / "run")
    drawn = [line.split() for line in log.read_text().splitlines()]
    assert sorted(kind for _, kind in drawn) == sorted(KINDS)
    by = {kind: int(pid) for pid, kind in drawn}
    assert {kind for kind, pid in by.items() if pid == os.getpid()} == set(KINDS[0::2])
    assert {kind for kind, pid in by.items() if pid != os.getpid()} == set(KINDS[1::2])


def test_a_child_that_fails_costs_nothing_but_time(finished: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    expected = reported(finished, tmp_path / "expected" / "run")
    parent = os.getpid()
    draw = drawn_charts.draw_chart

    def broken_in_the_child(*args: object) -> object:
        if os.getpid() != parent:
            raise RuntimeError("the child cannot draw")
        return draw(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(drawn_charts, "draw_chart", broken_in_the_child)
    assert reported(finished, tmp_path / "failed" / "run") == expected


class _NoFork:
    """``os`` without ``fork``, as on a platform that cannot fork."""

    def __getattr__(self, name: str) -> object:
        if name == "fork":
            raise AttributeError(name)
        return getattr(os, name)
