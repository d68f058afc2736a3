"""A run's result in a notebook: a short text (``repr``) and a short HTML summary (Jupyter's
``_repr_html_``) of its pairings, ratings or SPRT verdict, and its report's charts as
matplotlib figures. matplotlib loads only when a chart is asked for."""

from __future__ import annotations

import html
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

    from arena.runs.store.meta import RunMeta

SHOWN = 8
"""Pairings (and ratings) a summary shows; the rest are counted."""


def _score(row: Mapping[str, Any]) -> str:
    return f"{row['score']:.1%} [{row['score_low']:.1%}, {row['score_high']:.1%}]"


def _records(table: pd.DataFrame) -> list[dict[str, Any]]:
    return [{str(key): value for key, value in record.items()}
            for record in table.head(SHOWN).to_dict("records")]


def _more(table: pd.DataFrame, what: str) -> list[str]:
    return [f"... and {len(table) - SHOWN} more {what}"] if len(table) > SHOWN else []


def _where(meta: RunMeta, games: int, directory: Path | None) -> str:
    place = f"in {directory}" if directory is not None else "kept in memory"
    return f"{games} games ({meta.run.conditions()}), seed {meta.seed}, {place}"


def result_text(kind: str, meta: RunMeta, summary: pd.DataFrame, games: int,
                directory: Path | None, ratings: pd.DataFrame | None = None,
                conclusion: str = "") -> str:
    """A few lines: what was played, each pairing's W/D/L and A's score, the best ratings,
    the SPRT's conclusion; the agents by their names (the tables' ``name`` columns)."""
    lines = [f"{kind}: {_where(meta, games, directory)}"]
    lines += [f"  {r['name_a']} vs {r['name_b']}: {r['games']} games, W {r['wins']} "
              f"D {r['draws']} L {r['losses']}, A's score {_score(r)}" for r in _records(summary)]
    lines += [f"  {line}" for line in _more(summary, "pairings")]
    if ratings is not None:
        lines += ["  ratings: " + ", ".join(f"{r['rank']}. {r['name']} {r['rating']:+.0f}"
                                            for r in _records(ratings))]
    if conclusion:
        lines += [f"  {conclusion}"]
    return "\n".join(lines)


def _table(header: tuple[str, ...], rows: list[tuple[Any, ...]]) -> str:
    head = "".join(f"<th>{html.escape(cell)}</th>" for cell in header)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(cell))}</td>" for cell in row)
                   + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def result_html(kind: str, meta: RunMeta, summary: pd.DataFrame, games: int,
                directory: Path | None, ratings: pd.DataFrame | None = None,
                conclusion: str = "") -> str:
    """``result_text``'s summary as HTML for Jupyter: a line, a table of the pairings, the
    best ratings, the conclusion, and how to draw the charts."""
    parts = [f"<p><strong>{html.escape(kind)}</strong>: "
             f"{html.escape(_where(meta, games, directory))}</p>"]
    if conclusion:
        parts.append(f"<p>{html.escape(conclusion)}</p>")
    parts.append(_table(("A", "B", "games", "W", "D", "L", "A's score [95%]"), [
        (r["name_a"], r["name_b"], r["games"], r["wins"], r["draws"], r["losses"], _score(r))
        for r in _records(summary)]))
    parts += [f"<p>{html.escape(line)}</p>" for line in _more(summary, "pairings")]
    if ratings is not None:
        parts.append(_table(("rank", "agent", "Elo", "95% interval"), [
            (r["rank"], r["name"], f"{r['rating']:+.0f}", f"[{r['low']:+.0f}, {r['high']:+.0f}]")
            for r in _records(ratings)]))
        parts += [f"<p>{html.escape(line)}</p>" for line in _more(ratings, "agents")]
    parts.append("<p><code>.games</code>, <code>.summary</code>: the tables; "
                 "<code>.plot(kind)</code>: the report's charts.</p>")
    return "\n".join(parts)


def write_files(directory: Path, files: Mapping[str, bytes]) -> None:
    """Write a run kept in memory into ``directory``: ``files`` by their paths in the run (a
    tournament in rounds has its rounds' folders)."""
    for name, data in files.items():
        path = directory / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def report_figure(directory: Path | None, files: Mapping[str, bytes], kind: str) -> Figure:
    """The chart ``kind`` of the run's report (the run in ``directory``, or made of ``files``
    when it was kept in memory), drawn alone (``arena.report.chart_kinds.run_figure``);
    ValueError naming the report's charts for another kind."""
    from arena.report.chart_kinds import run_figure

    if directory is not None:
        return run_figure(directory, kind)
    with tempfile.TemporaryDirectory(prefix="arena-plot-") as scratch:
        write_files(Path(scratch), files)
        return run_figure(Path(scratch), kind)
