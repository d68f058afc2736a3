"""The report of a run: its charts (PNG unless told), report.md showing them with the tables,
and report.html.

The run is read by ``arena.report.loading`` (everything computed from its ``games.csv``, the
source of truth; ``ratings.csv`` and ``sprt.csv`` feed the rating ladder and the SPRT chart,
``meta.json`` the run's facts), its tables computed by ``arena.report.run_tables`` and its
Markdown written by ``arena.report.run_sections``; here the page is put together and its
files written. A chart whose input is absent or meaningless is left out, with its section.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path

from matplotlib.figure import Figure

from arena.competitions.round_tables import is_knockout, points_by_round
from arena.report import charts
from arena.report.blunders import blunder_section
from arena.report.drawn_charts import draw_charts
from arena.report.loading import (
    MalformedRunError,
    NoRunError,
    Run,
    load_rounds,
    load_run,
    read_summary,
    run_labels,
)
from arena.report.run_html import write_run_html
from arena.report.run_sections import (
    agents_section,
    bracket_section,
    chart_lines,
    crosstable_section,
    ratings_section,
    results_section,
    run_facts,
    sprt_section,
    sprt_title,
    standings_section,
    terminations_section,
    verdict_section,
)
from arena.report.run_tables import (
    SweepSeries,
    agent_scores,
    cost_per_move,
    crosstable,
    first_player,
    game_lengths,
    pairings,
    sweep_series,
)
from arena.report.stamp import current_report, report_fingerprint, write_stamp
from arena.runs.directory import RunDirectory, RunDirectoryError
from arena.runs.files import RunFiles
from arena.runs.request import ChartOptions
from arena.system.files import write_atomically

__all__ = [
    "MalformedRunError", "NoRunError", "Run", "SweepSeries", "agent_scores", "chart_lines",
    "cost_per_move", "crosstable", "first_player", "game_lengths", "load_rounds", "load_run",
    "pairings", "read_summary", "report_figures", "run_labels", "sweep_series", "write_report",
]
"""The reading and the tables are in ``loading`` and ``run_tables``; their names stay
importable from here, as they were."""

MAX_BAR_PAIRINGS = 40
"""Above this many pairings the win/draw/loss bars are left out: the crosstable shows them all."""


class ChartSection(list[str]):
    """A section's lines that show a chart: with the chart's kind and its figure."""

    def __init__(self, lines: Iterable[str], kind: str, figure: Figure) -> None:
        super().__init__(lines)
        self.kind = kind
        self.figure = figure


def _with_chart(lines: list[str], run: Run, kind: str, alt: str, figure: Figure) -> list[str]:
    """The section's lines followed by its chart, the run's chart of ``kind`` (written by
    ``write_report`` in every format asked for: shown as its PNG, else its SVG, the others
    linked)."""
    names = [RunFiles(run.directory).chart(kind, suffix).name for suffix in run.charts.formats]
    return ChartSection([*lines, "", *chart_lines(alt, names)], kind, figure)



def _sections(run: Run, labels: Mapping[str, str]) -> Iterable[list[str]]:
    """The page's sections (nothing written): the verdict and the results first, then the
    charts that answer the run's question, the run's facts last."""
    games, agents = run.games, run.agents
    table = pairings(run)
    yield [f"# Report: {run.directory.resolve().name}"]
    yield verdict_section(run, table, labels)
    if run.rounds is not None:
        if is_knockout(run.rounds):
            yield bracket_section(run.rounds, labels)
        else:
            yield _with_chart(standings_section(run.rounds, labels), run, "standings",
                              "Standings after each round",
                              charts.standings_chart(points_by_round(run.rounds), labels))
    yield results_section(table, labels)
    if run.sprt is not None:
        yield _with_chart(sprt_section(run.sprt), run, "sprt",
                          "SPRT log-likelihood ratio against games",
                          charts.sprt_chart(run.sprt, sprt_title(table, labels)))
    if run.ratings is not None:
        yield _with_chart(ratings_section(run.ratings, labels), run, "ratings",
                          "Rating ladder", charts.ladder_chart(run.ratings, labels))
    cost = cost_per_move(games, agents)
    if run.ratings is not None and len(run.ratings) >= 3 and cost["ms_per_move"].notna().any():
        yield _with_chart(["## Strength against thinking time", "",
                           "Each agent's rating against its mean time per move; the "
                           "line joins the agents no other agent beats while thinking less."],
                          run, "elo-cost", "Elo against time per move",
                          charts.elo_cost_chart(run.ratings, cost, labels))
    if len(agents) >= 3:
        yield agents_section(run, labels)
        yield _with_chart(crosstable_section(run, labels), run, "crosstable",
                          "Crosstable heatmap",
                          charts.crosstable_chart(*crosstable(games, agents), labels))
        for sweep in sweep_series(run):
            yield _with_chart([f"## Strength against {sweep.parameter}"], run, sweep.kind,
                              f"Strength against {sweep.axis}",
                              charts.sweep_chart(sweep.table, sweep.axis, sweep.ylabel,
                                                 sweep.percent, sweep.log))
    if len(table) <= MAX_BAR_PAIRINGS:
        yield _with_chart(["## Wins, draws and losses"], run, "wtl",
                          "Wins, draws and losses per pairing", charts.wtl_chart(table, labels))
    else:
        yield [f"({len(table)} pairings: too many for readable bars; the crosstable shows "
               "every pairing's score.)"]
    yield _with_chart(["## Cost per move"], run, "cost", "Time and nodes per move",
                      charts.cost_chart(cost, labels))
    yield _with_chart(["## Game length and the first player's advantage"], run, "length",
                      "Game length by result and the first player's advantage",
                      charts.length_chart(game_lengths(games), first_player(games, agents),
                                          labels))
    blunders = blunder_section(run.directory, labels)  # after `arena analyze`
    if blunders is not None:
        yield _with_chart(blunders[0], run, "blunders", "Accuracy by phase", blunders[1])
    yield terminations_section(games)
    yield ["## The run", "", *run_facts(run)]



def _figures(sections: Iterable[list[str]]) -> dict[str, Figure]:
    return {section.kind: section.figure for section in sections
            if isinstance(section, ChartSection)}


def report_figures(run: Run) -> dict[str, Figure]:
    """The charts the run's report shows, by kind (``wtl``, ``crosstable``, ...), in order."""
    return _figures(_sections(run, run_labels(run)))


def write_report(run_dir: Path, options: ChartOptions | None = None) -> Path:
    """Write the charts (in ``options``' formats and resolution; default PNG), report.md and
    report.html (with report-games.html, the replay page of the games it links) into
    ``run_dir`` (locked meanwhile); return report.md's path. A report that is current
    (``arena.report.stamp.current_report``: nothing it shows changed since it was written,
    nor any file it wrote) is left as it is."""
    if not Path(run_dir).is_dir():
        raise NoRunError(f"{run_dir} is not a run directory: it does not exist")
    options = options or ChartOptions()
    with RunDirectory(Path(run_dir), create=False):
        current = current_report(Path(run_dir), options)
        if current is not None:
            return current
        try:
            fingerprint = report_fingerprint(Path(run_dir), options)
            run = replace(load_run(Path(run_dir)), charts=options)
            labels = run_labels(run)
            sections = list(_sections(run, labels))
            figures = _figures(sections)
            files = RunFiles(run.directory)
            charts = draw_charts(figures, lambda kind: files.chart(kind).with_suffix(""),
                                 run.charts.formats, run.charts.dpi)
            page = "\n\n".join("\n".join(section) for section in sections)
            write_atomically(files.report, page + "\n")
            html = write_run_html(run.directory, run.games, labels, page, figures,
                                  charts.written, charts.svgs, notable=run.rounds is None)
            outputs = [*charts.written, files.report, html]
            if files.report_games.exists():
                outputs.append(files.report_games)
            write_stamp(run.directory, options, fingerprint, [p.name for p in outputs])
        except OSError as error:
            raise RunDirectoryError(f"cannot write the report in {run_dir}: "
                                    f"{error.strerror or error}") from None
    return files.report
