"""An experiment's page, ``report.md`` (and its HTML twin, report.html) in its results
directory: each entry's results and report, and the results that have a published reference
beside it, with a chi-square test of homogeneity per row and a chart."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from arena.competitions.experiments import (
    COMPARISON_CHART,
    REPORT,
    Comparison,
    Entry,
    Experiment,
    MatchEntry,
    TournamentEntry,
    entry_summaries,
)
from arena.competitions.round_tables import run_directories, run_names
from arena.protocol.labels import shown_spec
from arena.report.html_page import write_html_page
from arena.report.inline_svg import figure_svg
from arena.report.llm_section import usage_table
from arena.report.markdown import markdown_table
from arena.report.markdown_html import markdown_html
from arena.report.palette import DRAW, LOSS, WIN
from arena.report.run_sections import chart_lines
from arena.report.style import SMALL, figure, save, styled, wrap
from arena.runs.planning.charts import ChartOptions
from arena.runs.store.files import RunFiles
from arena.runs.store.model_usage import moves_table
from arena.runs.store.reading import open_run
from arena.runs.store.summary import seeds_lines, wtl_text
from arena.stats.elo import HOMOGENEITY_LEVEL, MIN_EXPECTED_COUNT
from arena.system.files import write_atomically

if TYPE_CHECKING:
    import pandas as pd

FOLDED_PAIRINGS = 12
"""An entry with more pairings than this shows their lines folded on the page."""
TITLE_WIDTH = 80
"""Characters per line of a pairing's title in the comparison chart."""
LINE = 0.7
"""Height of a title line in the comparison chart, in bar heights."""


def write_experiment_report(experiment: Experiment, root: Path, command: str | None = None,
                            options: ChartOptions | None = None) -> Path:
    """Write ``root/report.md``: each entry's results and report, and how the results with
    a reference compare with it (plus a chart of them); return its path."""
    lines = [f"# Experiment: {experiment.name}", ""]
    if experiment.description:
        lines += [experiment.description.strip(), ""]
    lines += [f"- **file**: `{experiment.path}`"]
    if command:
        lines += [f"- **command**: `{command}`"]
    lines += [""]
    compared = [c for e in experiment.entries if isinstance(e, MatchEntry)
                for c in [e.comparison(root)] if c is not None]
    charts: dict[str, str] = {}
    if compared:
        names = [_pairing_names(c.entry, root) for c in compared]
        chart = _comparison_chart(compared, names)
        lines += _comparison_section(compared, names, root, options or ChartOptions(), chart)
        svg = figure_svg(chart, "comparison")
        charts = {f"{Path(COMPARISON_CHART).stem}.{shown}": svg for shown in ("png", "svg")}
    lines += _models_section(experiment, root)
    lines += ["## Entries", ""]
    for entry in experiment.entries:
        lines += _entry_section(entry, root)
    path = root / REPORT
    write_atomically(path, "\n".join(lines) + "\n")
    body = markdown_html("\n".join(lines), charts, functools.partial(_html_twin, root))
    write_html_page(root / RunFiles.REPORT_HTML, f"Experiment: {experiment.name}", body)
    return path


def _html_twin(root: Path, target: str) -> str:
    """An entry's report.html for its report.md, when it has one."""
    twin = Path(target).with_name(RunFiles.REPORT_HTML)
    return str(twin) if Path(target).name == REPORT and (root / twin).is_file() else target


def _pairing_names(entry: MatchEntry, root: Path) -> tuple[str, str]:
    """A match entry's two agents by their names in its run, each with its spec where the
    spec says more (Markdown)."""
    pairing = entry.schedule.pairings[0]
    names = run_names(root / entry.name, (pairing.agent_a, pairing.agent_b))
    a, b = (names[spec] if names[spec] == shown_spec(spec) else
            f"{names[spec]} (`{shown_spec(spec)}`)" for spec in (pairing.agent_a, pairing.agent_b))
    return a, b


def _entry_section(entry: Entry, root: Path) -> list[str]:
    lines = [f"### {entry.kind} `{entry.name}`", ""]
    summaries = entry_summaries(root / entry.name)
    if not summaries:
        return [*lines, "Not played yet.", ""]
    ratings = entry.ratings(root) if isinstance(entry, TournamentEntry) else None
    specs = [spec for s in summaries for spec in (s.agent_a, s.agent_b)]
    names = run_names(root / entry.name, specs if ratings is None else [*specs, *ratings["agent"]])
    results = ["```text", *seeds_lines(summaries, names), "```", ""]
    if len(summaries) > FOLDED_PAIRINGS:
        results = [f"<details><summary>{len(summaries)} pairings</summary>", "", *results,
                   "</details>", ""]
    lines += results
    lines += [f"{note[0].upper()}{note[1:]}.\n" for note in entry.notes(root)]
    conditions = entry.conditions(root)
    lines += [f"**Conditions**: {conditions}.", ""] if conditions else []
    if ratings is not None:
        anchor = entry.anchor if isinstance(entry, TournamentEntry) else None
        anchored = f"{names.get(anchor, anchor)} = 0" if anchor else "mean 0"
        lines += [f"Ratings (Elo, {anchored}; 95% bootstrap intervals):", "",
                  _ratings_table(ratings, names), ""]
    if (root / entry.name / REPORT).is_file():
        lines += [f"Full report: [{entry.name}/{REPORT}]({entry.name}/{REPORT})", ""]
    return lines


def _models_section(experiment: Experiment, root: Path) -> list[str]:
    """What each language model spent over every entry (``llm_section.usage_table``); none
    when no model played."""
    import pandas as pd

    moves, games, names = [], [], {}
    offset = 0  # game numbers of each run after the last: one number a game over the entries
    for entry in experiment.entries:
        for run in run_directories(root / entry.name):
            table = moves_table(RunFiles(run))
            if table.empty:
                continue
            played = open_run(run).games()
            names.update(run_names(root / entry.name, table["agent"].unique()))
            moves.append(table.assign(game=table["game"] + offset))
            games.append(played.assign(game=played["game"] + offset))
            offset += int(played["game"].max()) + 1
    if not moves:
        return []
    return ["## Language models", "",
            "What each language model spent over every entry, from its games' transcripts, "
            "as each entry's report gives it (that report also grades the model's moves "
            "against perfect play after `arena analyze --best-moves`).", "",
            usage_table(pd.concat(moves), pd.concat(games), names), ""]


def _ratings_table(ratings: pd.DataFrame, names: Mapping[str, str]) -> str:
    rows = [(r["rank"], names[r["agent"]], f"{r['rating']:+.0f}",
             f"[{r['low']:+.0f}, {r['high']:+.0f}]", r["games"], f"{r['score']:.1%}")
            for r in ratings.to_dict("records")]
    return markdown_table(("rank", "agent", "Elo", "95% interval", "games", "score"), rows)


_FIRST = {"alternate": "alternate", "a": "A always", "b": "B always"}


def _comparison_section(compared: Sequence[Comparison], names: Sequence[tuple[str, str]],
                        root: Path, options: ChartOptions, chart: Figure) -> list[str]:
    """The results with a reference beside it (``names``: each entry's agents A and B)."""
    rows = [(c.entry.name, " vs ".join(pair),
             _FIRST[c.entry.schedule.pairings[0].first], wtl_text(c.ours), wtl_text(c.reference),
             f"{c.test.chi2:.2f}", c.test.dof, f"{c.test.p:.3g}",
             c.test.verdict + (" †" if c.test.approximate else ""))
            for c, pair in zip(compared, names, strict=True)]
    differ = sum(c.test.differs for c in compared)
    written = save(chart, root / Path(COMPARISON_CHART).stem, options.formats, options.dpi)
    header = ("entry", "A vs B", "first", "ours [W, T, L]", "reference [W, T, L]", "chi²",
              "dof", "p", "verdict")
    return [
        "## Against the reference", "",
        markdown_table(header, rows), "",
        f"{differ} of {len(compared)} results differ from their reference at the "
        f"{HOMOGENEITY_LEVEL:.0%} level; by chance alone about "
        f"{HOMOGENEITY_LEVEL * len(compared):.1f} would.", "",
        "Results are in the seeds' table format, `[W, T, L]` (wins, ties, losses of agent "
        "A), as the references are published. Each row tests whether ours and the "
        "reference's could come from one distribution: Pearson's chi-square test of "
        "homogeneity on the 2 x 3 table (ours and "
        "the reference; wins, ties, losses), 2 degrees of freedom, p = exp(-chi²/2). When a "
        f"row expects fewer than {MIN_EXPECTED_COUNT} ties, ties are counted with the losses (a "
        "2 x 2 table, wins against the rest: 1 degree of freedom, p = erfc(sqrt(chi²/2))). "
        f"A difference is within noise when p >= {HOMOGENEITY_LEVEL:.0%}. † marks a table with an "
        f"expected count below {MIN_EXPECTED_COUNT}, where the p-value is only approximate.", "",
        *chart_lines("Our results beside the reference's", [p.name for p in written]), "",
    ]


@styled
def _comparison_chart(compared: Sequence[Comparison], names: Sequence[tuple[str, str]]
                      ) -> Figure:
    """Stacked win/draw/loss shares of each compared entry: ours above the reference's,
    under a title naming the agents (``names``: each entry's A and B)."""
    rows = [row for c in compared for row in (
        (f"ours ({sum(c.ours)})", c.ours, ""),
        (f"reference ({sum(c.reference)})", c.reference, c.test.verdict))]
    titles = [wrap(f"{c.entry.name}:  " + "  vs  ".join(pair).replace("`", ""),
                   TITLE_WIDTH).split("\n") for c, pair in zip(compared, names, strict=True)]
    # In bar heights: a title line takes LINE, then ours, the reference and a gap.
    heights = [LINE * len(lines) for lines in titles]
    tops = -np.cumsum([0.0, *(h + 2.3 for h in heights[:-1])])
    ours = tops - np.array(heights) - 0.45
    y = np.column_stack([ours, ours - 1.0]).ravel()
    chart = figure(1.0 + 0.2 * (y[0] - y[-1] + 2))
    ax = chart.add_subplot()
    left = np.zeros(len(rows))
    for column, (colour, name) in enumerate(((WIN, "A wins"), (DRAW, "draw"),
                                             (LOSS, "A loses"))):
        share = np.array([counts[column] / sum(counts) for _, counts, _ in rows])
        ax.barh(y, share, left=left, height=0.75, color=colour, label=name, edgecolor="white",
                linewidth=0.5)
        left += share
    for lines, top in zip(titles, tops, strict=True):
        ax.text(0, top, "\n".join(lines), fontweight="bold", va="top", linespacing=1.3)
    for yi, (_, counts, verdict) in zip(y, rows, strict=True):
        ax.annotate(f"{wtl_text(counts)}  {verdict}", (1.0, yi), xytext=(5, 0),
                    textcoords="offset points", va="center", fontsize=SMALL)
    ax.set_yticks(y, [label for label, _, _ in rows])
    ax.set_ylim(y[-1] - 0.6, 0.2)
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="y", visible=False)
    ax.set_xlim(0, 1)
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("share of games, from agent A's view (A is the first agent named)")
    ax.set_title("Our results beside the reference's: win, draw, loss [W, T, L]")
    chart.legend(loc="outside lower center", ncol=3)
    return chart
