"""The report's section on blunders, from the analysis.csv and blunders.csv of
``arena analyze``: blunders per agent and per phase of the game (thirds of the board: with
42 cells, plies 0-13, 14-27 and 28-41), as rates per move analysed with 95% intervals, and
each agent's first losing move of a game (its first blunder there)."""

from __future__ import annotations

import statistics
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def phase_counts(agents: list[str], plies: list[int], cells: int) -> Counter[tuple[str, str]]:
    """How many of the moves (each an agent and the ply it was played at) fall in each
    (agent, phase), ``all`` among the phases."""
    names = phase_names(cells)
    counts: Counter[tuple[str, str]] = Counter()
    for agent, ply in zip(agents, plies, strict=True):
        counts[agent, names[phase_of(ply, cells)]] += 1
        counts[agent, ALL] += 1
    return counts


def phase_rates(moves: Counter[tuple[str, str]], hits: Counter[tuple[str, str]], name: str,
                cells: int) -> pd.DataFrame:
    """Rows agent, phase (a phase name or ``all``), moves, ``name`` (the hits), rate, low,
    high (the 95% Wilson interval), from counts by (agent, phase) (``phase_counts``)."""
    rows = []
    for (agent, phase), count in moves.items():
        interval = wilson(hits[agent, phase], count)
        rows.append({"agent": agent, "phase": phase, "moves": count, name: hits[agent, phase],
                     "rate": hits[agent, phase] / count, "low": interval.low,
                     "high": interval.high})
    order = {phase: index for index, phase in enumerate([ALL, *phase_names(cells)])}
    table = pd.DataFrame(rows, columns=["agent", "phase", "moves", name, "rate", "low", "high"])
    return table.sort_values(["agent", "phase"], key=lambda column: column.map(order)
                             if column.name == "phase" else column, ignore_index=True)


def blunder_rates(analysis: pd.DataFrame, blunders: pd.DataFrame, cells: int) -> pd.DataFrame:
    """Rows agent, phase (a phase name or ``all``), moves, blunders, rate, low, high."""
    agents, plies = [], []
    games = zip(*(analysis[c].tolist() for c in ("agent_a", "agent_b", "first", "graded_from",
                                                   "plies")), strict=True)
    for agent_a, agent_b, first, graded_from, length in games:
        for ply in range(graded_from, length):
            agents.append(agent_a if (ply % 2 == 0) == (first == "a") else agent_b)
            plies.append(ply)
    return phase_rates(phase_counts(agents, plies, cells),
                       phase_counts(blunders["agent"].tolist(), blunders["ply"].tolist(), cells),
                       "blunders", cells)


def first_losing_moves(analysis: pd.DataFrame, blunders: pd.DataFrame,
                       cells: int) -> pd.DataFrame:
    """Each agent's first losing move of a game (its first blunder there): rows agent, games
    (the games where it played a graded move; both sides of a game against itself), losing
    (the games with such a move), rate, low, high (95% Wilson), median_ply (of those moves,
    None without one), and the losing moves in each phase, a column each."""
    games: Counter[str] = Counter()
    for side in ("a", "b"):
        played = analysis[analysis[f"moves_{side}"] > 0]
        games.update(played[f"agent_{side}"].tolist())
    firsts = blunders.groupby(["game", "side"], sort=False).agg(
        agent=("agent", "first"), ply=("ply", "min"))
    names = phase_names(cells)
    rows = []
    for agent, count in games.items():
        plies = sorted(firsts.loc[firsts["agent"] == agent, "ply"].tolist())
        interval = wilson(len(plies), count)
        by_phase = Counter(names[phase_of(ply, cells)] for ply in plies)
        rows.append({"agent": agent, "games": count, "losing": len(plies),
                     "rate": len(plies) / count, "low": interval.low, "high": interval.high,
                     "median_ply": statistics.median(plies) if plies else None,
                     **{name: by_phase[name] for name in names}})
    table = pd.DataFrame(rows, columns=["agent", "games", "losing", "rate", "low", "high",
                                        "median_ply", *names])
    return table.sort_values("agent", ignore_index=True)


@dataclass(frozen=True)
class Blunders:
    """A run's analysis (analysis.csv: a row per game), its blunder rates
    (``blunder_rates``) and each agent's first losing moves (``first_losing_moves``) on a
    board of ``cells`` cells."""

    analysis: pd.DataFrame
    rates: pd.DataFrame
    cells: int
    first_losses: pd.DataFrame


def load_blunders(directory: Path) -> Blunders | None:
    """The blunders of the run in ``directory`` (after ``arena analyze``), or None without
    an analysis."""
    tables = load_analysis(directory)
    if tables is None:
        return None
    analysis, blunders = tables
    rules = load_meta(directory).rules
    cells = rules.rows * rules.cols
    return Blunders(analysis, blunder_rates(analysis, blunders, cells), cells,
                    first_losing_moves(analysis, blunders, cells))


def blunder_lines(blunders: Blunders, labels: Mapping[str, str]) -> list[str]:
    """The report's lines on blunders: how moves were graded, and a table of each agent's
    blunder rates over all its moves and by phase."""
    analysis = blunders.analysis
    first = analysis["first_blunder_agent"].value_counts()
    names = phase_names(blunders.cells)
    rows = [(labels.get(agent, agent), moves, first.get(agent, 0), *cells_of)
            for agent, moves, cells_of in rate_cells(blunders.rates, blunders.cells,
                                                     "blunders")]
    from_plies = sorted(set(analysis["from_ply"]))
    return ["## Blunders", "",
            f"Every move from ply {', '.join(map(str, from_plies))} on, graded by the exact "
            f"solver ({len(analysis)} games): a blunder changes the game's theoretical "
            "result (win, draw or loss with perfect play) for the worse for the side that "
            "plays it. Rates are per move, with 95% intervals and counts.", "",
            markdown_table(("agent", "moves", "first blunder of a game", "all moves", *names),
                           rows)]


def median_ply_text(first_losses: Mapping[Any, Any]) -> str:
    """The median ply of an agent's first losing moves (a row of ``first_losing_moves``), as
    every table of the report shows it: plies counted as the glossary counts them (ply N is
    the move played with N discs on the board, the first move ply 0); a dash without one."""
    return "—" if not first_losses["losing"] else f"{first_losses['median_ply']:g}"


def first_loss_lines(blunders: Blunders, labels: Mapping[str, str]) -> list[str]:
    """The report's lines on each agent's first losing move of a game: how often it made
    one, at which ply, in which phase."""
    names = phase_names(blunders.cells)
    rows = [(labels.get(row["agent"], row["agent"]), row["games"],
             f"{row['rate']:.1%} [{row['low']:.1%}, {row['high']:.1%}] ({row['losing']})",
             median_ply_text(row),
             *(f"{row[name]}" for name in names))
            for row in blunders.first_losses.to_dict("records")]
    return ["### First losing moves", "",
            "Each agent's first blunder of a game, the move that gave away the result it had "
            "(a game it played against itself counts once for each side): the share of its "
            "games with one (95% interval, count), the median ply of that move (ply N is "
            "played with N discs on the board: the first move is ply 0), and how many fell "
            "in each phase. A game already lost leaves no result to lose.", "",
            markdown_table(("agent", "games", "a losing move", "median ply", *names), rows)]


def rate_cells(rates: pd.DataFrame, cells: int, hits: str
               ) -> Iterator[tuple[str, object, list[str]]]:
    """Each agent of ``rates`` (as from ``phase_rates``, hits in column ``hits``), its moves
    and its rates over all moves and by phase as the report's cells."""
    for agent, group in rates.groupby("agent", sort=False):
        by_phase = group.set_index("phase")
        yield str(agent), by_phase.at[ALL, "moves"], [
            rate_cell(by_phase, phase, hits) for phase in [ALL, *phase_names(cells)]]


def blunder_section(directory: Path, labels: Mapping[str, str]) -> tuple[list[str], Figure] | None:
    """The report's lines on blunders and their chart, or None without an analysis."""
    blunders = load_blunders(directory)
    if blunders is None:
        return None
    return blunder_lines(blunders, labels), phase_accuracy_chart(blunders.rates, labels)


def rate_cell(by_phase: pd.DataFrame, phase: str, hits: str) -> str:
    """A phase's rate as the report's cell: ``rate [low, high] (hits)``; a dash without."""
    if phase not in by_phase.index:
        return "—"
    row = by_phase.loc[phase]
    return f"{row['rate']:.1%} [{row['low']:.1%}, {row['high']:.1%}] ({row[hits]})"
