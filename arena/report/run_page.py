"""The report of a run: its charts (PNG unless told), report.md showing them with the tables,
and report.html.

The run is read by ``arena.report.loading`` (everything computed from its ``games.csv``, the
source of truth; ``ratings.csv`` and ``sprt.csv`` feed the rating ladder and the SPRT chart,
``meta.json`` the run's facts), its tables computed by ``arena.report.run_tables``, its
sections' Markdown written by ``arena.report.run_sections`` and its charts are those of
``arena.report.chart_kinds.CHART_KINDS`` that apply to it (a chart whose input is absent or
meaningless is left out, with its section); here the page is put together and its files
written.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from pathlib import Path

from matplotlib.figure import Figure

from arena.competitions.round_tables import is_knockout
from arena.report import chart_kinds
from arena.report.chart_kinds import MAX_BAR_PAIRINGS, Chart, run_charts
from arena.report.drawn_charts import draw_charts
from arena.report.llm_section import llm_section
from arena.report.loading import (
    MalformedRunError,
    NoRunError,
    Run,
    RunContents,
    load_rounds,
    load_run,
    read_summary,
    run_labels,
)
from arena.report.run_html import write_run_html
from arena.report.run_sections import (
    bracket_section,
    chart_lines,
    results_section,
    run_facts,
    terminations_section,
    verdict_section,
)
from arena.report.run_tables import (
    RunTables,
    SweepSeries,
    agent_scores,
    cost_per_move,
    crosstable,
    first_player,
    game_lengths,
    pairings,
    sweep_series,
)
from arena.report.stamp import current_report, left_over, report_fingerprint, write_stamp
from arena.runs.planning.charts import ChartOptions
from arena.runs.store.directory import RunDirectory, RunDirectoryError
from arena.runs.store.files import RunFiles
from arena.runs.store.model_usage import damage_warning
from arena.runs.store.reading import not_a_run
from arena.system.files import write_atomically

__all__ = [
    "MAX_BAR_PAIRINGS", "MalformedRunError", "NoRunError", "Run", "RunContents", "SweepSeries",
    "agent_scores", "chart_lines", "cost_per_move", "crosstable", "first_player",
    "game_lengths", "load_rounds", "load_run", "pairings", "read_summary", "report_figures",
    "run_labels", "sweep_series", "write_report",
]
"""The reading, the tables and the charts are declared in ``loading``, ``run_tables`` and
``chart_kinds``; their names stay importable from here, as they were."""


class ChartSection(list[str]):
    """A section's lines that show a chart: with the chart's kind and its figure."""

    def __init__(self, lines: Iterable[str], kind: str, figure: Figure) -> None:
        super().__init__(lines)
        self.kind = kind
        self.figure = figure


def _chart_section(chart: Chart, run: RunContents) -> ChartSection:
    """The chart's lines of the page followed by the chart (written by ``write_report`` in
    every format asked for: shown as its PNG, else its SVG, the others linked)."""
    names = [RunFiles(run.directory).chart(chart.kind, suffix).name
             for suffix in run.charts.formats]
    return ChartSection([*chart.lines(), "", *chart_lines(chart.title, names)], chart.kind,
                        chart.draw())


def _charts(tables: RunTables, before_results: bool) -> Iterator[list[str]]:
    """The sections of the registered charts (``chart_kinds.CHART_KINDS``) shown before the
    results, or after them: each chart the run has, else the lines a kind leaves in its
    place."""
    for kind in chart_kinds.CHART_KINDS:
        if kind.before_results != before_results:
            continue
        shown = kind.charts(tables)
        yield from (_chart_section(chart, tables.run) for chart in shown)
        if not shown and kind.otherwise is not None:
            yield kind.otherwise(tables)


def _sections(tables: RunTables) -> Iterator[list[str]]:
    """The page's sections (nothing written): the verdict and the results first, then the
    charts that answer the run's question, the run's facts last."""
    run, labels = tables.run, tables.labels
    yield [f"# Report: {run.directory.resolve().name}"]
    yield verdict_section(run, tables.pairings, labels)
    if run.rounds is not None and is_knockout(run.rounds):
        yield bracket_section(run.rounds, labels)
    yield from _charts(tables, before_results=True)
    yield results_section(tables.pairings, labels)
    yield from _charts(tables, before_results=False)
    models = llm_section(tables.model_moves, run.games, tables.blunders, tables.best_moves,
                         labels, damage_warning(tables.model_transcripts.damaged, "The figures "
                                                "above", run.directory))
    if models:
        yield models
    yield terminations_section(run.games)
    yield ["## The run", "", *run_facts(run)]


def _figures(sections: Iterable[list[str]]) -> dict[str, Figure]:
    return {section.kind: section.figure for section in sections
            if isinstance(section, ChartSection)}


def report_figures(run: RunContents) -> dict[str, Figure]:
    """The charts the run's report shows, by kind (``wtl``, ``crosstable``, ...), in order."""
    return {chart.kind: chart.draw() for chart in run_charts(RunTables(run))}


def write_report(run_dir: Path, options: ChartOptions | None = None) -> Path:
    """Write the charts (in ``options``' formats and resolution; default PNG), report.md and
    report.html (with report-games.html, the replay page of the games it links) into
    ``run_dir`` (locked meanwhile); return report.md's path. A report that is current
    (``arena.report.stamp.current_report``: nothing it shows changed since it was written,
    nor any file it wrote) is left as it is; the files the last report wrote and this one
    does not (charts of a format no longer asked for) are removed, if still as written."""
    if not Path(run_dir).is_dir():
        raise not_a_run(Path(run_dir), RunFiles.GAMES)
    options = options or ChartOptions()
    with RunDirectory(Path(run_dir), create=False):
        current = current_report(Path(run_dir), options)
        if current is not None:
            return current
        try:
            fingerprint = report_fingerprint(Path(run_dir), options)
            run = replace(load_run(Path(run_dir)), charts=options)
            tables = RunTables(run)
            sections = list(_sections(tables))
            figures = _figures(sections)
            files = RunFiles(run.directory)
            charts = draw_charts(figures, lambda kind: files.chart(kind).with_suffix(""),
                                 run.charts.formats, run.charts.dpi)
            page = "\n\n".join("\n".join(section) for section in sections)
            write_atomically(files.report, page + "\n")
            html = write_run_html(run.directory, run.games, tables.labels, page, figures,
                                  charts.written, charts.svgs, notable=run.rounds is None)
            outputs = [*charts.written, files.report, html]
            if files.report_games.exists():
                outputs.append(files.report_games)
            names = [path.name for path in outputs]
            for stale in left_over(run.directory, names):
                stale.unlink(missing_ok=True)
            write_stamp(run.directory, options, fingerprint, names)
        except OSError as error:
            raise RunDirectoryError(f"cannot write the report in {run_dir}: "
                                    f"{error.strerror or error}") from None
    return files.report
