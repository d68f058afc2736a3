"""Results in a notebook: a short repr and HTML summary (not whole DataFrames) whose numbers
are the summary's, and ``plot(kind)``: the report's own charts as matplotlib Figures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from matplotlib.figure import Figure

import arena
from arena.api import TournamentResult
from arena.report.run_page import write_report
from arena.report.style import save
from arena.runs.planning.charts import DEFAULT_DPI
from tests.integration.test_report import shown_kinds


@pytest.fixture(scope="module")
def result() -> TournamentResult:
    """A round robin of three agents, 4 games a pairing, kept in memory."""
    return arena.tournament(["random", "immediate-win", "negamax:depth=1"], 4, jobs=1,
                            progress=False)


def test_the_repr_is_a_few_lines_of_the_summary(result: TournamentResult) -> None:
    text = repr(result)
    lines = text.splitlines()
    assert lines[0] == ("TournamentResult: 12 games (openings none · 6 x 7 · no time limit), "
                        "seed 42, kept in memory")
    assert len(lines) == 1 + 3 + 1  # the line, one per pairing, the ratings
    for row, line in zip(result.summary.to_dict("records"), lines[1:4], strict=True):
        assert line == (f"  {row['name_a']} vs {row['name_b']}: {row['games']} games, "
                        f"W {row['wins']} D {row['draws']} L {row['losses']}, A's score "
                        f"{row['score']:.1%} [{row['score_low']:.1%}, {row['score_high']:.1%}]")
    best = result.ratings.iloc[0] if result.ratings is not None else None
    assert best is not None and lines[4].startswith(
        f"  ratings: 1. {best['name']} {best['rating']:+.0f}")
    assert "negamax d1" in text and "negamax:depth=1" not in text  # named as the pages name it
    assert "moves" not in text and "rows x" not in text  # no DataFrame printed


def test_the_html_summary_is_a_table_of_the_pairings(result: TournamentResult) -> None:
    page = result._repr_html_()
    assert page.count("<table>") == 2  # pairings and ratings
    for row in result.summary.to_dict("records"):
        assert (f"<td>{row['name_a']}</td><td>{row['name_b']}</td><td>{row['games']}</td>"
                f"<td>{row['wins']}</td><td>{row['draws']}</td><td>{row['losses']}</td>") in page
    assert "<script" not in page


@pytest.mark.slow
def test_plot_draws_each_chart_of_the_report(result: TournamentResult, tmp_path: Path) -> None:
    written = result.write_report(tmp_path / "run")
    kinds = sorted(path.stem for path in written.parent.glob("*.png"))
    assert kinds == sorted(shown_kinds(written.parent))  # the registry's for a round robin
    for kind in kinds:
        figure = result.plot(kind)
        assert isinstance(figure, Figure)
        [drawn] = save(figure, tmp_path / kind, ("png",), DEFAULT_DPI)
        assert drawn.read_bytes() == (written.parent / f"{kind}.png").read_bytes()


@pytest.mark.slow
def test_an_unknown_kind_is_a_value_error_listing_the_kinds(result: TournamentResult,
                                                            tmp_path: Path) -> None:
    shown = ", ".join(map(repr, shown_kinds(result.write_report(tmp_path / "run").parent)))
    assert "'crosstable'" in shown and "'sprt'" not in shown
    with pytest.raises(ValueError, match=re.escape(
            f"no chart 'sprt' in this run's report; its charts are {shown}")):
        result.plot("sprt")


@pytest.mark.slow
def test_a_run_on_disk_plots_from_its_directory(tmp_path: Path) -> None:
    match = arena.match("random", "immediate-win", 6, jobs=1, progress=False,
                        out=tmp_path / "m")
    assert repr(match).splitlines()[0].endswith(f"in {tmp_path / 'm'}")
    write_report(tmp_path / "m")
    [drawn] = save(match.plot("wtl"), tmp_path / "wtl", ("png",), DEFAULT_DPI)
    assert drawn.read_bytes() == (tmp_path / "m" / "wtl.png").read_bytes()
