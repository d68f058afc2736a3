"""Charts of the solver-backed analysis, in the style of ``arena.report.style``."""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import NullFormatter, PercentFormatter

from arena.protocol.labels import depth_family
from arena.report.palette import CATEGORIES, INK
from arena.report.style import STYLE, TWO_COLUMN, figure, log_axis, styled, time_unit, wrap

PANEL_WIDTH = 2.4  # inches per set
MAX_PANELS_PER_ROW = 3
LEGEND_WIDTH = 30
"""Characters per line of an agent's name in a legend."""
LEGEND_COLUMN = 2.3
"""Inches a legend column of such names takes, at most."""


def accuracy_chart(table: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """Best-move rate (95% Wilson interval) against time per move (in microseconds when every agent
    takes less than a millisecond): one panel per set, one point per agent, agents that
    differ only in depth joined in depth order."""
    sets = list(dict.fromkeys(table["set"]))
    unit = time_unit(table["ms_per_move"])
    table = table.assign(cost=table["ms_per_move"].clip(lower=1e-3) * unit.factor)
    columns = min(len(sets), MAX_PANELS_PER_ROW)
    rows = -(-len(sets) // columns)
    width = min(TWO_COLUMN, PANEL_WIDTH * columns)
    with matplotlib.rc_context(STYLE):
        fig = figure(2.9 * rows + 0.8, width)
        axes = fig.subplots(rows, columns, squeeze=False, sharex=True, sharey=True)
        agents = list(dict.fromkeys(table["agent"]))
        colour_of = {agent: CATEGORIES[i % len(CATEGORIES)] for i, agent in enumerate(agents)}
        for ax, name in zip(axes.flat, sets, strict=False):
            _accuracy_panel(ax, table[table["set"] == name], colour_of)
            ax.set_title(wrap(name, 30))
        for ax in axes.flat[len(sets):]:
            ax.set_visible(False)
        for ax in axes[:, 0]:
            ax.set_ylabel("plays a best move\n(95% Wilson score interval)")
        for ax in axes.flat[max(0, len(sets) - columns):len(sets)]:  # each column's lowest
            ax.xaxis.set_tick_params(labelbottom=True)  # sharex labels the bottom row only
            ax.set_xlabel(f"{unit.name} per move (log scale)")
        handles = [Line2D([], [], marker="o", linestyle="none", color=colour_of[agent],
                          label=wrap(labels[agent], LEGEND_WIDTH)) for agent in agents]
        if _has_depth_series(agents):
            handles.append(Line2D([], [], color=INK, linewidth=0.8, linestyle="--",
                                  label="same agent, deeper search"))
        fig.legend(handles=handles, loc="outside lower center",
                   ncol=max(1, min(len(handles), int(width // LEGEND_COLUMN))))
        cost = table["cost"]
        axes[0, 0].set_xlim(10.0 ** np.floor(np.log10(cost.min() / 2)),
                            10.0 ** np.ceil(np.log10(cost.max() * 2)))  # whole decades
        fig.suptitle("Accuracy against cost per move")
    return fig


def _has_depth_series(agents: list[str]) -> bool:
    """True if two of the agents differ only in their depth."""
    keys = [family.key for agent in agents if (family := depth_family(agent)) is not None]
    return len(keys) > len(set(keys))


def _accuracy_panel(ax: Axes, rows: pd.DataFrame, colour_of: Mapping[str, object]) -> None:
    """One set: the agents as points with intervals, depth families as lines (rows: the
    set's, their time per move in column ``cost``)."""
    cost = rows["cost"].to_numpy(dtype=float)
    accuracy = rows["accuracy"].to_numpy(dtype=float)
    yerr = np.vstack([accuracy - rows["accuracy_low"], rows["accuracy_high"] - accuracy])
    for i, agent in enumerate(rows["agent"]):
        ax.errorbar(cost[i], accuracy[i], yerr=yerr[:, i:i + 1], fmt="o", capsize=3,
                    color=colour_of[agent], markersize=5)
    families: dict[object, list[tuple[float, float, float]]] = {}
    for agent, x, y in zip(rows["agent"], cost, accuracy, strict=True):
        family = depth_family(agent)
        if family is not None:
            families.setdefault(family.key, []).append((family.value, x, y))
    for points in families.values():
        if len(points) >= 2:
            points.sort()
            ax.plot([p[1] for p in points], [p[2] for p in points], color=INK, linewidth=0.8,
                    linestyle="--", zorder=0)
    log_axis(ax)
    ax.xaxis.set_minor_formatter(NullFormatter())  # decades only: no crowded labels
    ax.set_ylim(0, 1.05)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))


@styled
def phase_accuracy_chart(rates: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """Accuracy against perfect play in each phase of the game: the share of an agent's moves
    that keep their game's theoretical result, one line per agent, with 95% Wilson score
    intervals (``rates`` as from ``blunders.blunder_rates``: blunders per move)."""
    kept = rates.assign(rate=1.0 - rates["rate"], low=1.0 - rates["high"],
                        high=1.0 - rates["low"])
    return _draw_by_phase(kept, labels, "moves that keep the theoretical\nresult (95% Wilson "
                        "score interval)", "Accuracy against perfect play by phase of the game")


@styled
def best_move_chart(rates: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """The share of an agent's moves that are a best move in each phase of the game, one line
    per agent, with 95% Wilson score intervals (``rates`` as from
    ``best_moves.best_move_rates``)."""
    return _draw_by_phase(rates, labels, "moves that are a best move\n(95% Wilson score "
                        "interval)", "Best moves by phase of the game")


def _draw_by_phase(rates: pd.DataFrame, labels: Mapping[str, str], ylabel: str,
                 title: str) -> Figure:
    """A rate by phase (``rates``' columns phase, agent, rate, low, high), one line per
    agent, phase ``all`` left out."""
    phases = [phase for phase in dict.fromkeys(rates["phase"]) if phase != "all"]
    agents = list(dict.fromkeys(rates["agent"]))
    fig = figure(3.0, TWO_COLUMN)
    ax = fig.add_subplot()
    x = np.arange(len(phases))
    for index, agent in enumerate(agents):
        rows = rates[rates["agent"] == agent].set_index("phase").reindex(phases)
        share = rows["rate"].to_numpy(dtype=float)
        low, high = rows["low"].to_numpy(dtype=float), rows["high"].to_numpy(dtype=float)
        shift = (index - (len(agents) - 1) / 2) * 0.06
        ax.errorbar(x + shift, share, yerr=np.clip(np.nan_to_num(
            np.vstack([share - low, high - share])), 0, None), marker="os^Dv<>p"[index % 8],
            capsize=2.5, label=wrap(labels.get(agent, agent), 30))
    ax.set_xticks(x, [wrap(phase, 14) for phase in phases])
    ax.yaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    fig.legend(loc="outside lower center", ncol=min(3, len(agents)))
    return fig
