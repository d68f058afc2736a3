"""report.html's SVGs drawn by a forked child while the chart files are saved: the same page
as drawn in this process, the child's drawings really used, and a failing child harmless."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import arena.report.run_html as run_html
import arena.report.svg_beside as svg_beside
from arena.report.run_page import write_report
from tests.helpers.cli import arena


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished tournament of three agents without its report."""
    out = tmp_path_factory.mktemp("svg") / "run"
    code, output = arena("tournament", "random", "immediate-win", "negamax:depth=2", "-n", "6",
                         "-j", "1", "--out", str(out), "--quiet", "--no-report")
    assert code == 0, output
    return out


def reported(finished: Path, where: Path) -> str:
    shutil.copytree(finished, where)
    write_report(where)
    return (where / "report.html").read_text()


def test_the_child_draws_the_page_this_process_would(finished: Path, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    forked = reported(finished, tmp_path / "forked" / "run")
    monkeypatch.setattr(svg_beside, "os", _NoFork())
    alone = reported(finished, tmp_path / "alone" / "run")
    assert "<svg" in forked
    assert forked == alone


def test_the_page_takes_the_child_s_drawings(finished: Path, tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    def not_here(*args: object, **kwargs: object) -> str:
        raise AssertionError("drawn again in the parent")

    monkeypatch.setattr(run_html, "figure_svg", not_here)  # the child has its own copy
    page = reported(finished, tmp_path / "run")
    assert page.count("<svg") >= 3


def test_a_child_that_fails_costs_nothing_but_time(finished: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    expected = reported(finished, tmp_path / "expected" / "run")

    def broken(*args: object, **kwargs: object) -> str:
        raise RuntimeError("the child cannot draw")

    monkeypatch.setattr(svg_beside, "figure_svg", broken)  # raises in the child only
    assert reported(finished, tmp_path / "failed" / "run") == expected


class _NoFork:
    """``os`` without ``fork``, as on a platform that cannot fork."""

    def __getattr__(self, name: str) -> object:
        if name == "fork":
            raise AttributeError(name)
        return getattr(os, name)
