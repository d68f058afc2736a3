"""Every kind of chart a run's report can show, each declared once, in the order of the page:
its kind (the name of its files, ``wtl.png``, and ``RunResult.plot``'s argument), its title
(the image's alt text), the function that draws it and what it draws from, when it applies to
a run, and the lines of the page above it.

The report's pages (``arena.report.run_page``), ``RunResult.plot``, the README's chart
gallery (``benchmarks/readme_figures.py``) and the tests take their list of charts from
``CHART_KINDS``: a kind added here is drawn, shown and plotted wherever it applies.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from matplotlib.figure import Figure

from arena.report import charts
from arena.report.analysis_charts import best_move_chart, phase_accuracy_chart
from arena.report.best_moves import best_move_lines
from arena.report.blunders import blunder_lines, first_loss_lines
from arena.report.loading import load_run
from arena.report.run_sections import (
    agents_section,
    cost_section,
    crosstable_section,
    ratings_section,
    sprt_section,
    sprt_title,
    standings_section,
)
from arena.report.run_tables import RunTables, SweepSeries, first_player, game_lengths

__all__ = ["CHART_KINDS", "MAX_BAR_PAIRINGS", "Chart", "ChartKind", "SweepKind", "run_chart",
           "run_charts", "run_figure"]

T = TypeVar("T")

MAX_BAR_PAIRINGS = 40
"""Above this many pairings the win/draw/loss bars are left out: the crosstable shows them all."""


@dataclass(frozen=True)
class Chart:
    """One chart of one run: its kind, its title, and the page's lines above it and its
    figure, each made when asked for."""

    kind: str
    title: str
    lines: Callable[[], list[str]]
    draw: Callable[[], Figure]


@dataclass(frozen=True, kw_only=True)
class ChartKind:
    """A kind of chart: drawn by ``builder(*arguments(tables))`` for a run it ``applies``
    to, below the page's ``section(tables)``; where it does not apply, ``otherwise`` (when
    given) gives the lines that stand in its place. A kind shown ``before_results`` stands
    between the verdict and the table of results (a tournament's rounds)."""

    kind: str
    title: str
    builder: Callable[..., Figure]
    applies: Callable[[RunTables], bool]
    arguments: Callable[[RunTables], tuple[Any, ...]]
    section: Callable[[RunTables], list[str]]
    otherwise: Callable[[RunTables], list[str]] | None = None
    before_results: bool = False

    def charts(self, tables: RunTables) -> list[Chart]:
        """The run's chart of this kind, where it applies."""
        if not self.applies(tables):
            return []
        return [Chart(self.kind, self.title, lambda: self.section(tables),
                      lambda: self.builder(*self.arguments(tables)))]


@dataclass(frozen=True, kw_only=True)
class SweepKind:
    """Strength against a spec parameter: a chart for each of the run's ``sweeps`` (agents
    that differ in that parameter alone, ``run_tables.sweep_series``), its kind the sweep's
    (``SweepSeries.kind``: ``depth``, ``sweep-iterations``); it applies where there is one."""

    kind: str
    title: str
    sweeps: Callable[[RunTables], list[SweepSeries]]
    builder: Callable[..., Figure] = charts.sweep_chart
    otherwise: Callable[[RunTables], list[str]] | None = None
    before_results: bool = False

    def applies(self, tables: RunTables) -> bool:
        """True when the run has one of these sweeps."""
        return bool(self.sweeps(tables))

    def charts(self, tables: RunTables) -> list[Chart]:
        """A chart for each sweep."""
        return [Chart(sweep.kind, f"Strength against {sweep.axis}",
                      partial(_heading, f"Strength against {sweep.parameter}"),
                      partial(self.builder, sweep.table, sweep.axis, sweep.ylabel,
                              sweep.percent, sweep.log))
                for sweep in self.sweeps(tables)]


# --------------------------------------------------------------------------- when


def every_run(tables: RunTables) -> bool:
    """Every run."""
    return True


def swiss(tables: RunTables) -> bool:
    """A Swiss tournament (played in rounds, not a knockout)."""
    return tables.standings is not None


def sprt_run(tables: RunTables) -> bool:
    """An SPRT (its sprt.csv)."""
    return tables.run.sprt is not None


def rated(tables: RunTables) -> bool:
    """A tournament: its agents rated (ratings.csv)."""
    return tables.run.ratings is not None


def rated_with_times(tables: RunTables) -> bool:
    """Three agents or more rated, with the time they thought."""
    ratings = tables.run.ratings
    return ratings is not None and len(ratings) >= 3 and bool(
        tables.cost["ms_median"].notna().any())


def three_agents(tables: RunTables) -> bool:
    """Three agents or more."""
    return len(tables.run.agents) >= 3


def depth_sweeps(tables: RunTables) -> list[SweepSeries]:
    """Three agents or more, of which two or more differ in their depth alone: that sweep."""
    return [sweep for sweep in _sweeps(tables) if sweep.parameter == "depth"]


def parameter_sweeps(tables: RunTables) -> list[SweepSeries]:
    """Three agents or more, of which two or more differ in another numeric spec parameter
    alone: a sweep for each such parameter."""
    return [sweep for sweep in _sweeps(tables) if sweep.parameter != "depth"]


def _sweeps(tables: RunTables) -> list[SweepSeries]:
    return tables.sweeps if three_agents(tables) else []


def few_pairings(tables: RunTables) -> bool:
    """At most ``MAX_BAR_PAIRINGS`` pairings."""
    return len(tables.pairings) <= MAX_BAR_PAIRINGS


def analysed(tables: RunTables) -> bool:
    """A run graded by ``arena analyze`` (its analysis.csv)."""
    return tables.blunders is not None


def best_moves_graded(tables: RunTables) -> bool:
    """A run graded by ``arena analyze --best-moves`` (its moves.csv)."""
    return tables.best_moves is not None


def _given(table: T | None) -> T:
    """A table a kind is drawn from, there wherever the kind applies."""
    assert table is not None, "drawn only where it applies"
    return table


# --------------------------------------------------------------------------- the kinds


def _too_many_pairings(tables: RunTables) -> list[str]:
    return [f"({len(tables.pairings)} pairings: too many for readable bars; the crosstable "
            "shows every pairing's score.)"]


def _heading(text: str, tables: RunTables | None = None) -> list[str]:
    return [f"## {text}"]


CHART_KINDS: tuple[ChartKind | SweepKind, ...] = (
    ChartKind(kind="standings", title="Standings after each round",
              builder=charts.standings_chart, applies=swiss,
              arguments=lambda t: (t.standings, t.labels),
              section=lambda t: standings_section(_given(t.run.rounds), t.labels),
              before_results=True),
    ChartKind(kind="sprt", title="SPRT log-likelihood ratio against games",
              builder=charts.sprt_chart, applies=sprt_run,
              arguments=lambda t: (t.run.sprt, sprt_title(t.pairings, t.labels)),
              section=lambda t: sprt_section(_given(t.run.sprt))),
    ChartKind(kind="ratings", title="Rating ladder", builder=charts.ladder_chart, applies=rated,
              arguments=lambda t: (t.run.ratings, t.labels),
              section=lambda t: ratings_section(_given(t.run.ratings), t.labels)),
    ChartKind(kind="elo-cost", title="Elo against time per move",
              builder=charts.elo_cost_chart, applies=rated_with_times,
              arguments=lambda t: (t.run.ratings, t.cost, t.labels),
              section=lambda t: [
                  "## Strength against thinking time", "",
                  "Each agent's rating against its time a move (the median game's, with its "
                  "95% interval, as in Cost per move); the line joins the agents no other "
                  "agent beats while thinking less."]),
    ChartKind(kind="crosstable", title="Crosstable heatmap", builder=charts.crosstable_chart,
              applies=three_agents, arguments=lambda t: (*t.crosstable, t.labels),
              section=lambda t: [*agents_section(t.run, t.labels), "",
                                 *crosstable_section(t.crosstable, t.labels)]),
    SweepKind(kind="depth", title="Strength against search depth (plies)",
              sweeps=depth_sweeps),
    SweepKind(kind="sweep-PARAMETER", title="Strength against a numeric spec parameter",
              sweeps=parameter_sweeps),
    ChartKind(kind="wtl", title="Wins, draws and losses per pairing", builder=charts.wtl_chart,
              applies=few_pairings, arguments=lambda t: (t.pairings, t.labels),
              section=partial(_heading, "Wins, draws and losses"), otherwise=_too_many_pairings),
    ChartKind(kind="cost", title="Time and nodes per move", builder=charts.cost_chart,
              applies=every_run, arguments=lambda t: (t.cost, t.labels),
              section=lambda t: cost_section(t.cost, t.labels)),
    ChartKind(kind="length", title="Game length by result and the first player's advantage",
              builder=charts.length_chart, applies=every_run,
              arguments=lambda t: (game_lengths(t.run.games),
                                   first_player(t.run.games, t.run.agents), t.labels),
              section=partial(_heading, "Game length and the first player's advantage")),
    ChartKind(kind="blunders", title="Accuracy by phase", builder=phase_accuracy_chart,
              applies=analysed, arguments=lambda t: (_given(t.blunders).rates, t.labels),
              section=lambda t: [*blunder_lines(_given(t.blunders), t.labels), "",
                                 *first_loss_lines(_given(t.blunders), t.labels)]),
    ChartKind(kind="best-moves", title="Best moves by phase", builder=best_move_chart,
              applies=best_moves_graded,
              arguments=lambda t: (_given(t.best_moves).rates, t.labels),
              section=lambda t: best_move_lines(_given(t.best_moves), t.labels)),
)
"""Every kind of chart of a run's report, in the order of the page."""


def run_charts(tables: RunTables) -> Iterator[Chart]:
    """Every chart of the run's report, in the order of the page."""
    for entry in CHART_KINDS:
        yield from entry.charts(tables)


def run_chart(tables: RunTables, kind: str) -> Figure:
    """The run's chart ``kind`` as its report draws it; ValueError naming the run's charts
    for a kind it has not."""
    shown = list(run_charts(tables))
    for chart in shown:
        if chart.kind == kind:
            return chart.draw()
    raise ValueError(f"no chart {kind!r} in this run's report; its charts are "
                     f"{', '.join(repr(chart.kind) for chart in shown)}")


def run_figure(directory: Path, kind: str) -> Figure:
    """The chart ``kind`` of the run in ``directory`` (``run_chart``)."""
    return run_chart(RunTables(load_run(directory)), kind)
