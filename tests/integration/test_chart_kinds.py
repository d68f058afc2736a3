"""The chart registry (``arena.report.chart_kinds.CHART_KINDS``): every registered kind is
drawn, shown on the page and plotted alike for a run it applies to, and refused with a
message naming the run's charts for one it does not; a kind added to the registry is in the
report and in ``plot`` with no other edit."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from matplotlib.figure import Figure

import arena
from arena.api import RunResult
from arena.report import chart_kinds
from arena.report.chart_kinds import CHART_KINDS, ChartKind, every_run, few_pairings, run_figure
from arena.report.loading import load_run
from arena.report.run_page import write_report
from arena.report.run_tables import RunTables
from arena.report.style import save
from arena.runs.planning.charts import DEFAULT_DPI, ChartOptions
from tests.helpers.cli import invoke
from tests.integration.test_report import (
    match_run,
    play_rows,
    shown_kinds,
    sprt_run,
    tournament_run,
    write_run,
)


def sweep_run(directory: Path) -> Path:
    """A round robin of three agents of one family that differ in their iterations alone."""
    names = {"random": "toy:iterations=10", "immediate-win": "toy:iterations=100",
             "negamax:depth=2": "toy:iterations=1000"}
    agents = list(names)
    rows: list[dict[str, object]] = []
    for i, a in enumerate(agents):
        for b in agents[i + 1:]:
            rows += play_rows(a, b, pairs=2, seed=len(rows), start=len(rows))
    return write_run(directory, [{**row, "agent_a": names[str(row["agent_a"])],
                                  "agent_b": names[str(row["agent_b"])]} for row in rows])


def swiss_run(directory: Path) -> Path:
    """A Swiss tournament of three agents in two rounds (a bye each round)."""
    arena.tournament(["random", "immediate-win", "negamax:depth=1"], 2, format="swiss",
                     rounds=2, jobs=1, progress=False, out=directory)
    return directory


def analysed_run(directory: Path) -> Path:
    """A match on a 4 x 5 board graded by ``arena analyze --best-moves``."""
    for args in (("match", "negamax:depth=2", "random", "-n", "4", "--rows", "4", "--cols", "5",
                  "--out", str(directory), "--quiet", "--no-report", "-j", "1"),
                 ("analyze", str(directory), "--from-ply", "2", "--best-moves", "-j", "1")):
        result = invoke(*args)
        assert result.exit_code == 0, result.output
    return directory


RUNS: dict[str, Callable[[Path], Path]] = {
    "match": match_run, "tournament": tournament_run, "sprt": sprt_run, "sweep": sweep_run,
    "swiss": swiss_run, "analysed": analysed_run,
}
"""The runs the kinds are drawn for, by name."""

EXAMPLES: dict[str, tuple[str, str | None]] = {
    "standings": ("swiss", "tournament"),
    "sprt": ("sprt", "match"),
    "ratings": ("tournament", "match"),
    "elo-cost": ("tournament", "sprt"),
    "crosstable": ("tournament", "match"),
    "depth": ("tournament", "sweep"),
    "sweep-PARAMETER": ("sweep", "tournament"),
    "wtl": ("match", None),
    "cost": ("match", None),
    "length": ("match", None),
    "blunders": ("analysed", "match"),
    "best-moves": ("analysed", "match"),
}
"""For each registered kind, a run it applies to and one it does not (None: it applies to
every run of fewer pairings than bars can show)."""


@pytest.fixture(scope="module")
def runs(tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Path]:
    """The run of a name, made and reported (PNG and SVG) once."""
    made: dict[str, Path] = {}

    def run(name: str) -> Path:
        if name not in made:
            made[name] = RUNS[name](tmp_path_factory.mktemp("runs") / name)
            write_report(made[name], ChartOptions(("png", "svg"), DEFAULT_DPI))
        return made[name]

    return run


def test_every_kind_has_examples() -> None:
    assert list(EXAMPLES) == [entry.kind for entry in CHART_KINDS]


@pytest.mark.slow
@pytest.mark.parametrize("kind", list(EXAMPLES))
def test_a_kind_is_drawn_shown_and_plotted_where_it_applies(
        kind: str, runs: Callable[[str], Path], tmp_path: Path) -> None:
    [entry] = [entry for entry in CHART_KINDS if entry.kind == kind]
    run = runs(EXAMPLES[kind][0])
    tables = RunTables(load_run(run))
    assert entry.applies(tables)
    [chart] = entry.charts(tables)  # one: the sweep runs have one swept parameter each
    page = (run / "report.md").read_text()
    assert f"![{chart.title}]({chart.kind}.png)" in page
    assert f"{chart.title}: [SVG]({chart.kind}.svg)" in page
    assert "\n".join(chart.lines()) in page
    assert (run / f"{chart.kind}.svg").stat().st_size > 0
    figure = run_figure(run, chart.kind)
    assert isinstance(figure, Figure)
    [drawn] = save(figure, tmp_path / chart.kind, ("png",), DEFAULT_DPI)
    assert drawn.read_bytes() == (run / f"{chart.kind}.png").read_bytes()  # the report's own


@pytest.mark.slow
@pytest.mark.parametrize("kind", [kind for kind, (_, other) in EXAMPLES.items() if other])
def test_a_kind_is_left_out_and_refused_where_it_does_not_apply(
        kind: str, runs: Callable[[str], Path]) -> None:
    [entry] = [entry for entry in CHART_KINDS if entry.kind == kind]
    where, other = EXAMPLES[kind]
    assert other is not None
    [chart] = entry.charts(RunTables(load_run(runs(where))))  # its name: sweep-iterations
    run = runs(other)
    assert not entry.applies(RunTables(load_run(run))) and not entry.charts(
        RunTables(load_run(run)))
    page = (run / "report.md").read_text()
    assert f"]({chart.kind}." not in page and not (run / f"{chart.kind}.png").exists()
    shown = ", ".join(map(repr, shown_kinds(run)))
    assert shown and f"]({shown_kinds(run)[0]}.png)" in page  # the charts it does have
    with pytest.raises(ValueError, match=re.escape(
            f"no chart {chart.kind!r} in this run's report; its charts are {shown}")):
        run_figure(run, chart.kind)


def test_only_the_bars_and_costs_apply_to_every_run() -> None:
    """The kinds no example run refuses: the cost and length charts, drawn for every run,
    and the bars, drawn up to MAX_BAR_PAIRINGS pairings (test_report leaves them out)."""
    always = {entry.kind: entry.applies for entry in CHART_KINDS
              if EXAMPLES[entry.kind][1] is None}
    assert always == {"wtl": few_pairings, "cost": every_run, "length": every_run}


def plies_chart(games: pd.DataFrame, title: str) -> Figure:
    """A chart drawn from the games: their lengths."""
    figure = Figure()
    figure.add_subplot().hist(games["plies"])
    figure.suptitle(title)
    return figure


def test_a_kind_added_to_the_registry_is_in_the_report_and_in_plot(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The page, its files and ``plot`` show what the registry holds (here two kinds of
    charts alone, one of which applies), with no other edit."""
    added = ChartKind(kind="plies", title="Plies of every game", builder=plies_chart,
                      applies=every_run, arguments=lambda t: (t.run.games, "plies"),
                      section=lambda t: ["## Plies", "", f"{len(t.run.games)} games."])
    never = ChartKind(kind="never", title="Never drawn", builder=plies_chart,
                      applies=lambda t: False, arguments=lambda t: (t.run.games, "never"),
                      section=lambda t: ["## Never"])
    monkeypatch.setattr(chart_kinds, "CHART_KINDS", (added, never))
    run = match_run(tmp_path / "m")
    page = write_report(run).read_text()
    assert "## Results" in page and "## Cost per move" not in page
    assert re.findall(r"!\[[^]]*\]\(([^)]+)\)", page) == ["plies.png"]
    assert "## Plies\n\n20 games.\n\n![Plies of every game](plies.png)\n\n## Terminations" in page
    assert sorted(path.name for path in run.glob("*.png")) == ["plies.png"]
    assert "Plies of every game" in (run / "report.html").read_text()
    loaded = load_run(run)
    result = RunResult(games=loaded.games, summary=loaded.summary.copy(), meta=loaded.meta,
                       directory=run)
    assert result.plot("plies").texts[0].get_text() == "plies"
    with pytest.raises(ValueError, match=r"no chart 'never' in this run's report; its charts "
                       r"are 'plies'$"):
        result.plot("never")


def test_plot_s_docstring_refers_to_the_registry_and_lists_no_kind() -> None:
    doc = RunResult.plot.__doc__ or ""
    assert "arena.report.chart_kinds.CHART_KINDS" in doc
    assert not [entry.kind for entry in CHART_KINDS if f"``{entry.kind}``" in doc]
