"""Several runs side by side (``arena report --compare``, ``arena.compare``): one table of
every run's pairings (A's score with its 95% interval, Elo, games, the run's name or label and
date), the difference of each later run's scores and Elo from the first run's with its 95%
interval and a one-line verdict, and one chart of the scores, for runs played on the same
board. Each run is read as every reader reads it (``arena.runs.store.reading.open_run``, checked);
nothing in a run is written. Numbers have two decimals, as ``arena match`` prints them, in
the terminal, on the page and on the chart alike."""

from __future__ import annotations

import math
import typing
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from arena.protocol.labels import TABLE_WIDTH, short_names
from arena.report.charts import LABEL_WIDTH, TICK_LINE, draw_scores
from arena.report.html_page import write_html_page
from arena.report.inline_svg import figure_svg
from arena.report.loading import read_summary
from arena.report.markdown import markdown_table
from arena.report.markdown_html import markdown_html
from arena.report.palette import FIRST, INK
from arena.report.run_sections import chart_lines
from arena.report.style import SMALL, figure, save, styled, wrap
from arena.rules.board import Rules
from arena.rules.errors import ArenaError
from arena.runs.planning.charts import ChartOptions
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import RunMeta
from arena.runs.store.reading import open_run
from arena.stats.elo import Interval, difference
from arena.system.files import write_atomically

CHART = "compare"
"""The comparison's chart (its name without the format's suffix), beside its report.md."""
ALT = "A's score in each run"
COLUMNS = ("run", "date", "agent_a", "agent_b", "games", "wins", "draws", "losses", "score",
           "score_low", "score_high", "elo", "elo_low", "elo_high", "interval")
"""The comparison's table: one row per pairing of each run (the numbers are summary.csv's)."""
DIFFERENCE_COLUMNS = ("run", "agent_a", "agent_b", "baseline_a", "baseline_b", "score",
                      "score_low", "score_high", "elo", "elo_low", "elo_high")
"""The differences: a row per pairing of a later run that matches one of the first run's (the
same agents, or the same opponent B when each run has one agent A), its A's score and Elo
minus the first run's, with 95% intervals (``arena.stats.elo.difference``)."""


DECIMALS = 2
"""Decimals of every percentage and Elo figure of a comparison, in the terminal, on its page
and on its chart alike: as ``arena match`` prints a run's score and Elo."""


class IncomparableRunsError(ArenaError):
    """Runs that cannot share one table: fewer than two, one given twice, other boards."""


@dataclass(frozen=True)
class ComparedRun:
    """One run of a comparison: where it is, its meta.json and its summary."""

    directory: Path
    meta: RunMeta
    summary: pd.DataFrame
    label: str = ""
    """The name the comparison gives the run (``--label``), '' for none."""

    @property
    def name(self) -> str:
        """The run's label, else its directory's name."""
        return self.label or self.directory.resolve().name

    @property
    def date(self) -> str:
        """The day the run started (YYYY-MM-DD), '' when unknown."""
        return (self.meta.started or "")[:10]


def _board(rules: Rules) -> str:
    return f"{rules.rows} x {rules.cols} connect {rules.connect}"


def _comparable(runs: Sequence[ComparedRun]) -> None:
    first = runs[0]
    for run in runs[1:]:
        if run.meta.rules != first.meta.rules:
            raise IncomparableRunsError(
                f"{run.directory} is not comparable with {first.directory}: played on "
                f"{_board(run.meta.rules)}, not {_board(first.meta.rules)}")


@dataclass(frozen=True)
class Comparison:
    """Runs played on one board, side by side."""

    runs: tuple[ComparedRun, ...]

    @cached_property
    def table(self) -> pd.DataFrame:
        """One row per pairing of each run, in the order given (columns ``COLUMNS``)."""
        frames = [run.summary.assign(run=run.name, date=run.date) for run in self.runs]
        table = pd.concat(frames, ignore_index=True)
        if "interval" not in table:  # summaries written before the column
            table["interval"] = ""
        return table.reindex(columns=list(COLUMNS))

    @cached_property
    def labels(self) -> dict[str, str]:
        """The short name of every agent of the runs."""
        given = {spec: name for run in self.runs for spec, name in (run.meta.labels or {}).items()}
        specs = dict.fromkeys([*self.table["agent_a"], *self.table["agent_b"]])
        return short_names(specs, TABLE_WIDTH, given)

    @property
    def board(self) -> Rules:
        """The board every run was played on."""
        return self.runs[0].meta.rules

    @cached_property
    def differences(self) -> pd.DataFrame:
        """Each later run's pairings that match one of the first run's, A's score and Elo
        there minus in the first run, with 95% intervals (columns ``DIFFERENCE_COLUMNS``;
        scores as fractions)."""
        first, *later = self.runs
        rows = []
        for run in later:
            for mine in _records(run.summary):
                theirs = _matching(mine, first.summary, run.summary)
                if theirs is None:
                    continue
                score, score_interval = difference(
                    theirs["score"], Interval(theirs["score_low"], theirs["score_high"]),
                    mine["score"], Interval(mine["score_low"], mine["score_high"]))
                elo, elo_interval = difference(
                    theirs["elo"], Interval(theirs["elo_low"], theirs["elo_high"]),
                    mine["elo"], Interval(mine["elo_low"], mine["elo_high"]))
                rows.append((run.name, mine["agent_a"], mine["agent_b"], theirs["agent_a"],
                             theirs["agent_b"], score, score_interval.low, score_interval.high,
                             elo, elo_interval.low, elo_interval.high))
        return pd.DataFrame(rows, columns=list(DIFFERENCE_COLUMNS))

    def verdict(self) -> str:
        """The comparison in one line: whether the runs' scores differ at 95%."""
        first = self.runs[0].name
        table = self.differences
        if table.empty:
            return (f"Verdict: no pairing of the other runs matches one of {first}'s (the same "
                    "agents, or the same opponent for one agent A): nothing to compare.")
        significant = (table["score_low"] > 0) | (table["score_high"] < 0)
        if len(table) == 1:
            r = _records(table)[0]
            higher = "higher" if r["score"] > 0 else "lower"
            return (f"Verdict: A's score is {abs(r['score']) * 100:.{DECIMALS}f} "
                    f"percentage points {higher} in {r['run']} than in {first} (95% interval "
                    f"{_points(r).partition(' ')[2]}): "
                    + ("a difference at 95%." if significant.iloc[0] else
                       "no difference at 95% (the interval holds 0)."))
        which = [f"{r['run']}: {self.labels[r['agent_a']]} vs {self.labels[r['agent_b']]} "
                 f"{_points(r)}" for r in _records(table[significant])]
        return (f"Verdict: {int(significant.sum())} of {len(table)} differences from {first} "
                "are beyond chance at 95%" + (": " + "; ".join(which) if which else "") + ".")

    def rows(self) -> list[tuple[str, ...]]:
        """The table's rows as text: run, date, A, B, games, W, D, L, score [95%], Elo [95%]."""
        return [(r["run"], r["date"], self.labels[r["agent_a"]], self.labels[r["agent_b"]],
                 *(str(r[c]) for c in ("games", "wins", "draws", "losses")),
                 f"{_percent(r['score'])} [{_percent(r['score_low'])}, "
                 f"{_percent(r['score_high'])}]",
                 f"{_elo(r['elo'])} [{_elo(r['elo_low'])}, "
                 f"{_elo(r['elo_high'])}]")
                for r in _records(self.table)]

    HEADER = ("run", "date", "A", "B", "games", "W", "D", "L", "A's score [95%]", "Elo [95%]")
    DIFFERENCE_HEADER = ("run", "A", "B", "A's score, percentage points [95%]", "Elo [95%]")

    def difference_rows(self) -> list[tuple[str, ...]]:
        """The differences as text: run, A, B, score difference [95%], Elo difference [95%]."""
        return [(r["run"], self.labels[r["agent_a"]], self.labels[r["agent_b"]],
                 _points(r),
                 f"{_elo(r['elo'])} [{_elo(r['elo_low'])}, "
                 f"{_elo(r['elo_high'])}]") for r in _records(self.differences)]

    def conditions(self) -> str:
        """What the runs were played under (``RunDescription.conditions``), in one line:
        the same for every run, or each run's where they differ."""
        each = {run.name: run.meta.run.conditions() for run in self.runs}
        if len(set(each.values())) == 1:
            return f"Conditions: {next(iter(each.values()))} (every run)"
        return "Conditions differ: " + "; ".join(f"{name} {conditions}"
                                                 for name, conditions in each.items())

    def _about_differences(self) -> str:
        return (f"Differences from {self.runs[0].name}, the first run (95% intervals from "
                "both runs' own, MOVER):")

    def text(self) -> str:
        """The tables for a terminal, in aligned columns, and the verdict."""
        lines = [_aligned(self.HEADER, self.rows())]
        if not self.differences.empty:
            lines += ["", self._about_differences(),
                      _aligned(self.DIFFERENCE_HEADER, self.difference_rows())]
        return "\n".join([*lines, self.conditions(), self.verdict()])

    def chart(self) -> Figure:
        """A's score with its 95% interval, one row per pairing of each run."""
        return compare_chart(self.table, self.labels)

    def markdown(self, charts: Sequence[str] = (f"{CHART}.png",)) -> str:
        """The comparison's page: the runs, the table, the differences and the verdict, the
        chart (its files ``charts``)."""
        lines = [f"# Comparison of {len(self.runs)} runs", "",
                 f"All played on {_board(self.board)}. Scores are agent A's, with each run's "
                 "95% interval (the method each run's summary names).", "",
                 "**{}**: {}.".format(*self.conditions().split(": ", 1)), ""]
        lines += [f"- **{run.name}**: `{run.directory}`, started {run.meta.started or '?'}"
                  for run in self.runs]
        lines += ["", markdown_table(self.HEADER, self.rows()), ""]
        if not self.differences.empty:
            lines += [self._about_differences(), "",
                      markdown_table(self.DIFFERENCE_HEADER, self.difference_rows()), ""]
        lines += [self.verdict().replace("Verdict:", "**Verdict**:", 1), "",
                  *chart_lines(ALT, charts)]
        return "\n".join(lines) + "\n"

    def write(self, out: Path, charts: ChartOptions | None = None) -> Path:
        """Write report.md, its chart (in ``charts``' formats, default PNG) and report.html
        into ``out``; return report.md's path."""
        options = charts or ChartOptions()
        out = Path(out)
        if (out / RunFiles.META).exists() or (out / RunFiles.GAMES).exists():
            raise IncomparableRunsError(f"--out {out} is a run directory: its report would be "
                                        "overwritten; give the comparison a directory of its own")
        try:
            out.mkdir(parents=True, exist_ok=True)
            chart = self.chart()
            written = save(chart, out / CHART, options.formats, options.dpi)
            page = self.markdown([path.name for path in written])
            write_atomically(out / RunFiles.REPORT, page)
            svg = figure_svg(chart, "compare")
            write_html_page(out / RunFiles.REPORT_HTML, f"Comparison of {len(self.runs)} runs",
                            markdown_html(page, {path.name: svg for path in written}))
        except OSError as error:
            raise IncomparableRunsError(f"cannot write the comparison in {out}: "
                                        f"{error.strerror or error}") from None
        return out / RunFiles.REPORT

    def __repr__(self) -> str:
        return (f"<Comparison of {len(self.runs)} runs on {_board(self.board)}: "
                f"{', '.join(run.name for run in self.runs)}>")

    def _repr_html_(self) -> str:
        """The page's body, for Jupyter."""
        return markdown_html(self.markdown(), {f"{CHART}.png": figure_svg(self.chart(), "compare")})


def _records(table: pd.DataFrame) -> list[dict[str, Any]]:
    return typing.cast(list[dict[str, Any]], table.to_dict("records"))


def _matching(pairing: dict[str, Any], first: pd.DataFrame, mine: pd.DataFrame
              ) -> dict[str, Any] | None:
    """The first run's pairing that ``pairing`` (of a later run whose summary is ``mine``)
    compares with: the same agents, else, when each run has one agent A, the same B."""
    same = first[(first["agent_a"] == pairing["agent_a"])
                 & (first["agent_b"] == pairing["agent_b"])]
    if same.empty and first["agent_a"].nunique() == 1 and mine["agent_a"].nunique() == 1:
        same = first[first["agent_b"] == pairing["agent_b"]]
    return _records(same)[0] if len(same) else None


def _percent(value: float) -> str:
    return f"{value:.{DECIMALS}%}" if math.isfinite(value) else "—"


def _elo(value: float) -> str:
    if math.isfinite(value):
        return f"{value:+.{DECIMALS}f}"
    return "+inf" if value > 0 else "-inf" if value < 0 else "—"


def _points(row: Mapping[str, Any]) -> str:
    """A difference of scores in percentage points, with its interval."""
    return (f"{row['score'] * 100:+.{DECIMALS}f} [{row['score_low'] * 100:+.{DECIMALS}f}, "
            f"{row['score_high'] * 100:+.{DECIMALS}f}]")


def _aligned(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """Rows under ``header`` in columns padded to their widest cell."""
    lines = [header, *rows]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    return "\n".join("  ".join(cell.ljust(width) for cell, width in zip(
        line, widths, strict=True)).rstrip() for line in lines)


@styled
def compare_chart(table: pd.DataFrame, labels: dict[str, str]) -> Figure:
    """Points at A's score with their 95% interval, one row per (run, pairing), the runs in
    the order given from the top (columns run, date, agent_a, agent_b, score, score_low,
    score_high)."""
    n = len(table)
    names = [f"{wrap(labels[a], LABEL_WIDTH)}\nvs {wrap(labels[b], LABEL_WIDTH)}\n"
             f"{wrap(f'{run} {date}'.rstrip(), LABEL_WIDTH)}" for a, b, run, date in zip(
                 table["agent_a"], table["agent_b"], table["run"], table["date"], strict=True)]
    lines = max((name.count("\n") + 1 for name in names), default=3)
    chart = figure(1.1 + max(0.42, TICK_LINE * (lines + 1)) * n)  # long names stand apart
    ax = chart.add_subplot()
    y = np.arange(n)[::-1]
    score = table["score"].to_numpy(dtype=float)
    draw_scores(ax, table, y, color=FIRST, ecolor=INK)
    for yi, value in zip(y, score, strict=True):
        ax.annotate(_percent(value), (value, yi), xytext=(0, 6), textcoords="offset points",
                    ha="center", fontsize=SMALL)
    ax.axvline(0.5, color=INK, linewidth=0.8, linestyle=":")
    ax.set_yticks(y, names)
    ax.set_ylim(-0.7, n - 0.3)
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.grid(axis="y", visible=False)
    ax.tick_params(axis="y", length=0)
    ax.set_xlabel("agent A's score")
    ax.set_title("Agent A's score in each run")
    chart.legend(loc="outside lower center")
    return chart


def compare(*directories: str | Path, out: str | Path | None = None,
            charts: ChartOptions | None = None,
            labels: Mapping[str, str] | Mapping[Path, str] | None = None) -> Comparison:
    """The runs in ``directories`` side by side (with ``out``, its pages written there too,
    the chart in ``charts``' formats; ``labels`` names runs, by their directory as given);
    IncomparableRunsError (one line) for fewer than two, one given twice, runs on different
    boards or a bad label, a reading error for a run that is not one."""
    paths = [Path(directory) for directory in directories]
    if len(paths) < 2:
        raise IncomparableRunsError(f"a comparison needs at least two run directories, got "
                                    f"{len(paths)}")
    seen: dict[Path, Path] = {}
    for path in paths:
        if path.resolve() in seen:
            raise IncomparableRunsError(f"{path} is given twice (as {seen[path.resolve()]})")
        seen[path.resolve()] = path
    names = _run_labels(paths, labels or {})
    runs = []
    for path in paths:
        reading = open_run(path)
        runs.append(ComparedRun(reading.directory, reading.meta, read_summary(reading),
                                names.get(path.resolve(), "")))
    _comparable(runs)
    comparison = Comparison(tuple(runs))
    if out is not None:
        comparison.write(Path(out), charts)
    return comparison


def _run_labels(paths: Sequence[Path], labels: Mapping[str, str] | Mapping[Path, str]
                ) -> dict[Path, str]:
    """The runs' names by resolved directory; IncomparableRunsError for a label of no run
    compared, a blank one, one with a line break or one given to two runs."""
    names: dict[Path, str] = {}
    compared = {path.resolve() for path in paths}
    for directory, name in labels.items():
        if Path(directory).resolve() not in compared:
            raise IncomparableRunsError(f"label {name!r} of {directory}: not a run compared")
        if not isinstance(name, str) or not name.strip() or "\n" in name:
            raise IncomparableRunsError(f"label {name!r} of {directory}: expected a name on "
                                        "one line")
        names[Path(directory).resolve()] = name.strip()
    taken = [name for name in names.values() if list(names.values()).count(name) > 1]
    if taken:
        raise IncomparableRunsError(f"label {taken[0]!r} is given to two runs: names must "
                                    "differ")
    return names
