"""The report's section on blunders, from the analysis.csv and blunders.csv of
``arena analyze``: blunders per agent and per phase of the game (thirds of the board: with
42 cells, plies 0-13, 14-27 and 28-41), as rates per move analysed with 95% intervals."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from arena.analysis.annotate import load_analysis
from arena.report.analysis_charts import phase_accuracy_chart
from arena.report.markdown import markdown_table
from arena.runs.store.meta import load_meta
from arena.stats.elo import wilson

PHASES = ("opening", "middle game", "endgame")
ALL = "all"


def phase_of(ply: int, cells: int) -> int:
    """0, 1 or 2: the third of the board's cells the disc count ``ply`` falls in."""
    return min(len(PHASES) - 1, ply * len(PHASES) // cells)


def phase_names(cells: int) -> list[str]:
    """The phases with their plies, e.g. ``opening (plies 0-13)``."""
    names = []
    for index, name in enumerate(PHASES):
        plies = [ply for ply in range(cells) if phase_of(ply, cells) == index]
        names.append(f"{name} (plies {plies[0]}-{plies[-1]})")
    return names


def blunder_rates(analysis: pd.DataFrame, blunders: pd.DataFrame, cells: int) -> pd.DataFrame:
    """Rows agent, phase (a phase name or ``all``), moves, blunders, rate, low, high."""
    names = phase_names(cells)
    moves: Counter[tuple[str, str]] = Counter()
    games = zip(*(analysis[c].tolist() for c in ("agent_a", "agent_b", "first", "graded_from",
                                                   "plies")), strict=True)
    for agent_a, agent_b, first, graded_from, plies in games:
        for ply in range(graded_from, plies):
            agent = agent_a if (ply % 2 == 0) == (first == "a") else agent_b
            moves[agent, names[phase_of(ply, cells)]] += 1
            moves[agent, ALL] += 1
    errors: Counter[tuple[str, str]] = Counter()
    for agent, ply in zip(blunders["agent"].tolist(), blunders["ply"].tolist(), strict=True):
        errors[agent, names[phase_of(ply, cells)]] += 1
        errors[agent, ALL] += 1
    rows = []
    for (agent, phase), count in moves.items():
        interval = wilson(errors[agent, phase], count)
        rows.append({"agent": agent, "phase": phase, "moves": count,
                     "blunders": errors[agent, phase], "rate": errors[agent, phase] / count,
                     "low": interval.low, "high": interval.high})
    order = {name: index for index, name in enumerate([ALL, *names])}
    table = pd.DataFrame(rows, columns=["agent", "phase", "moves", "blunders", "rate", "low",
                                        "high"])
    return table.sort_values(["agent", "phase"], key=lambda column: column.map(order)
                             if column.name == "phase" else column, ignore_index=True)


@dataclass(frozen=True)
class Blunders:
    """A run's analysis (analysis.csv: a row per game), its blunders (blunders.csv: a row a
    blunder) and their rates (``blunder_rates``) on a board of ``cells`` cells."""

    analysis: pd.DataFrame
    rates: pd.DataFrame
    cells: int
    blunders: pd.DataFrame


def load_blunders(directory: Path) -> Blunders | None:
    """The blunders of the run in ``directory`` (after ``arena analyze``), or None without
    an analysis."""
    tables = load_analysis(directory)
    if tables is None:
        return None
    analysis, blunders = tables
    rules = load_meta(directory).rules
    cells = rules.rows * rules.cols
    return Blunders(analysis, blunder_rates(analysis, blunders, cells), cells, blunders)


def blunder_lines(blunders: Blunders, labels: Mapping[str, str]) -> list[str]:
    """The report's lines on blunders: how moves were graded, and a table of each agent's
    blunder rates over all its moves and by phase."""
    analysis, rates = blunders.analysis, blunders.rates
    first = analysis["first_blunder_agent"].value_counts()
    names = phase_names(blunders.cells)
    rows = []
    for agent, group in rates.groupby("agent", sort=False):
        by_phase = group.set_index("phase")
        cells_of = [_rate(by_phase, phase) for phase in [ALL, *names]]
        rows.append((labels.get(str(agent), str(agent)), by_phase.at[ALL, "moves"],
                     first.get(agent, 0), *cells_of))
    from_plies = sorted(set(analysis["from_ply"]))
    return ["## Blunders", "",
            f"Every move from ply {', '.join(map(str, from_plies))} on, graded by the exact "
            f"solver ({len(analysis)} games): a blunder changes the game's theoretical "
            "result (win, draw or loss with perfect play) for the worse for the side that "
            "plays it. Rates are per move, with 95% intervals and counts.", "",
            markdown_table(("agent", "moves", "first blunder of a game", "all moves", *names),
                           rows)]


def blunder_section(directory: Path, labels: Mapping[str, str]) -> tuple[list[str], Figure] | None:
    """The report's lines on blunders and their chart, or None without an analysis."""
    blunders = load_blunders(directory)
    if blunders is None:
        return None
    return blunder_lines(blunders, labels), phase_accuracy_chart(blunders.rates, labels)


def _rate(by_phase: pd.DataFrame, phase: str) -> str:
    if phase not in by_phase.index:
        return "—"
    row = by_phase.loc[phase]
    return f"{row['rate']:.1%} [{row['low']:.1%}, {row['high']:.1%}] ({row['blunders']})"
