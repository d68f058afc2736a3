"""The ladder written out: the standings as CSV, and a self-contained HTML leaderboard (one
file, no scripts, no outside resources) with each agent's rating history drawn inline in SVG.
"""

from __future__ import annotations

import html
import math
from pathlib import Path

import pandas as pd

from arena.competitions.ladder.tables import score_text, skill_text
from arena.system.files import write_atomically

__all__ = ["history_svg", "leaderboard_html", "write_leaderboard"]

SVG_WIDTH, SVG_HEIGHT, SVG_PAD = 220, 44, 4
BAND = "#9ecae1"  # interval band and line: a blue pair that reads in every colour vision
LINE = "#08519c"


def _number(value: float, signed: bool = True) -> str:
    if not math.isfinite(value):
        return "-"
    return f"{value:+.0f}" if signed else f"{value:.0f}"


def history_svg(points: pd.DataFrame, low: float, high: float) -> str:
    """An inline SVG of one agent's ratings over the fits (rows of fit, rating, low, high in
    order), on the vertical scale ``low`` .. ``high`` shared by every agent of the board: the
    95% interval as a band, the rating as a line, a dot at the latest fit."""
    n = len(points)
    span = max(high - low, 1.0)

    def x(i: int) -> float:
        return SVG_PAD + (SVG_WIDTH - 2 * SVG_PAD) * (i / (n - 1) if n > 1 else 0.5)

    def y(value: float) -> float:
        return SVG_PAD + (SVG_HEIGHT - 2 * SVG_PAD) * (high - value) / span

    ratings = [float(v) for v in points["rating"]]
    lows = [float(v) if math.isfinite(v) else r for v, r in zip(points["low"], ratings,
                                                                  strict=True)]
    highs = [float(v) if math.isfinite(v) else r for v, r in zip(points["high"], ratings,
                                                                    strict=True)]
    top = [f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(highs)]
    bottom = [f"{x(i):.1f},{y(v):.1f}" for i, v in reversed(list(enumerate(lows)))]
    line = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(ratings))
    title = html.escape(f"{len(ratings)} fits; latest {ratings[-1]:+.0f} "
                        f"[{lows[-1]:+.0f}, {highs[-1]:+.0f}]")
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{SVG_WIDTH}" '
            f'height="{SVG_HEIGHT}" role="img"><title>{title}</title>'
            f'<polygon points="{" ".join(top + bottom)}" fill="{BAND}" stroke="none"/>'
            f'<polyline points="{line}" fill="none" stroke="{LINE}" stroke-width="1.5"/>'
            f'<circle cx="{x(n - 1):.1f}" cy="{y(ratings[-1]):.1f}" r="2.5" fill="{LINE}"/>'
            "</svg>")


def leaderboard_html(boards: dict[str, tuple[pd.DataFrame, pd.DataFrame]]) -> str:
    """The leaderboard page: for each board, its standings (see
    ``arena.competitions.ladder.tables.standings``) with each agent's history
    (``tables.history``)."""
    sections = []
    for board, (table, past) in boards.items():
        finite = pd.concat([past["low"], past["high"], past["rating"]]).dropna()
        low, high = (float(finite.min()), float(finite.max())) if len(finite) else (0.0, 1.0)
        rows = []
        for r in table.to_dict("records"):
            mine = past[(past["agent"] == r["agent"]) & (past["fingerprint"] == r["fingerprint"])]
            rows.append(
                "<tr>" + "".join(f"<td>{cell}</td>" for cell in (
                    r["rank"], html.escape(r["agent"]) + (" ⚓" if r["anchor"] else ""),
                    _number(r["rating"]), f"[{_number(r['low'])}, {_number(r['high'])}]",
                    _number(r["to_perfect"], signed=False), r["games"], score_text(r["score"]),
                    skill_text(r["skill_mu"], r["skill_sigma"]),
                    history_svg(mine, low, high) if len(mine) else "")) + "</tr>")
        sections.append(
            f"<h2>Board {html.escape(board)}</h2>\n<table>\n<thead><tr><th>rank</th>"
            "<th>agent</th><th>Elo</th><th>95% interval</th><th>gap to perfect play</th>"
            "<th>games</th><th>score</th><th>OpenSkill μ ± 2σ</th><th>rating history</th>"
            "</tr></thead>\n<tbody>\n" + "\n".join(rows) + "\n</tbody>\n</table>")
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        "<title>Connect Four ladder</title>\n<style>\n"
        "body { font-family: sans-serif; margin: 2em; }\n"
        "table { border-collapse: collapse; }\n"
        "th, td { padding: 0.2em 0.7em; text-align: right; border-bottom: 1px solid #ddd; }\n"
        "td { white-space: nowrap; }\n"
        "td:nth-child(2), th:nth-child(2) { text-align: left; }\n"
        "</style>\n</head>\n<body>\n<h1>Connect Four ladder</h1>\n"
        "<p>Elo on a fixed scale: the anchors (⚓) hold the ratings fixed once from the "
        "reference run (random = 0); every other agent is fitted around them (Bradley-Terry "
        "with draws, 95% bootstrap intervals). The gap to perfect play is the solver anchor's "
        "rating minus the agent's. OpenSkill's incremental estimate is on its own scale.</p>\n"
        + "\n".join(sections) + "\n</body>\n</html>\n")


def write_leaderboard(boards: dict[str, tuple[pd.DataFrame, pd.DataFrame]],
                      csv_path: Path, html_path: Path) -> None:
    """Write every board's standings to ``csv_path`` (a board column first) and the HTML
    leaderboard to ``html_path``, each atomically."""
    tables = [table.assign(board=board) for board, (table, _) in boards.items()]
    combined = pd.concat(tables, ignore_index=True) if tables else pd.DataFrame()
    if len(combined):
        combined = combined[["board", *(c for c in combined.columns if c != "board")]]
    write_atomically(csv_path, combined.to_csv(index=False))
    write_atomically(html_path, leaderboard_html(boards))
