"""Charts of the solver-backed analysis, in the style of ``arena.charts``."""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib
import numpy as np
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import PercentFormatter

from arena.protocol.labels import depth_family
from arena.report.charts import INK, STYLE, WIDTH

PANEL_WIDTH = 4.2  # inches per set
MAX_PANELS_PER_ROW = 3


def accuracy_chart(table: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """Best-move rate (95% interval) against milliseconds per move: one panel per set,
    one point per agent, agents that differ only in depth joined in depth order."""
    sets = list(dict.fromkeys(table["set"]))
    columns = min(len(sets), MAX_PANELS_PER_ROW)
    rows = -(-len(sets) // columns)
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(max(WIDTH, PANEL_WIDTH * columns), 3.6 * rows + 0.6),
                     layout="constrained")
        axes = fig.subplots(rows, columns, squeeze=False, sharex=True, sharey=True)
        colours = matplotlib.colormaps["tab10"]
        agents = list(dict.fromkeys(table["agent"]))
        colour_of = {agent: colours(i % 10) for i, agent in enumerate(agents)}
        for ax, name in zip(axes.flat, sets, strict=False):
            _accuracy_panel(ax, table[table["set"] == name], colour_of)
            ax.set_title(name, fontsize=10)
        for ax in axes.flat[len(sets):]:
            ax.set_visible(False)
        for ax in axes[:, 0]:
            ax.set_ylabel("plays a best move (95% interval)")
        for ax in axes[-1, :]:
            ax.set_xlabel("milliseconds per move (log scale)")
        handles = [Line2D([], [], marker="o", linestyle="none", color=colour_of[agent],
                          label=labels[agent]) for agent in agents]
        if _has_depth_series(agents):
            handles.append(Line2D([], [], color=INK, linewidth=0.8, linestyle="--",
                                  label="same agent, deeper search"))
        fig.legend(handles=handles, loc="outside lower center", ncol=min(3, len(handles)))
        cost = table["ms_per_move"].clip(lower=1e-3)
        axes[0, 0].set_xlim(cost.min() / 2, cost.max() * 2)
        fig.suptitle("Accuracy against cost per move", fontweight="bold")
    return fig


def _has_depth_series(agents: list[str]) -> bool:
    """True if two of the agents differ only in their depth."""
    keys = [family.key for agent in agents if (family := depth_family(agent)) is not None]
    return len(keys) > len(set(keys))


def _accuracy_panel(ax: Axes, rows: pd.DataFrame, colour_of: Mapping[str, object]) -> None:
    """One set: the agents as points with intervals, depth families as lines."""
    cost = rows["ms_per_move"].clip(lower=1e-3).to_numpy(dtype=float)
    accuracy = rows["accuracy"].to_numpy(dtype=float)
    yerr = np.vstack([accuracy - rows["accuracy_low"], rows["accuracy_high"] - accuracy])
    for i, agent in enumerate(rows["agent"]):
        ax.errorbar(cost[i], accuracy[i], yerr=yerr[:, i:i + 1], fmt="o", capsize=3,
                    color=colour_of[agent], markersize=5)
    families: dict[object, list[tuple[int, float, float]]] = {}
    for agent, x, y in zip(rows["agent"], cost, accuracy, strict=True):
        family = depth_family(agent)
        if family is not None:
            families.setdefault(family.key, []).append((family.depth, x, y))
    for points in families.values():
        if len(points) >= 2:
            points.sort()
            ax.plot([p[1] for p in points], [p[2] for p in points], color=INK, linewidth=0.8,
                    linestyle="--", zorder=0)
    ax.set_xscale("log")
    ax.set_ylim(0, 1.05)
    ax.yaxis.set_major_formatter(PercentFormatter(1.0))


def blunder_chart(rates: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """Blunders per move in each phase of the game, one group of bars per agent, with 95%
    intervals (``rates`` as from ``report_section.blunder_rates``)."""
    phases = [phase for phase in dict.fromkeys(rates["phase"]) if phase != "all"]
    agents = list(dict.fromkeys(rates["agent"]))
    with matplotlib.rc_context(STYLE):
        fig = Figure(figsize=(WIDTH, 1.6 + 0.5 * len(agents) * max(1, len(phases)) / 2),
                     layout="constrained")
        ax = fig.add_subplot()
        height = 0.8 / max(1, len(phases))
        colours = matplotlib.colormaps["viridis"]
        for index, phase in enumerate(phases):
            rows = rates[rates["phase"] == phase].set_index("agent").reindex(agents)
            y = np.arange(len(agents))[::-1] + (len(phases) / 2 - index - 0.5) * height
            value = rows["rate"].to_numpy(dtype=float)
            xerr = np.vstack([value - rows["low"], rows["high"] - value])
            ax.barh(y, value, height=height * 0.9, color=colours(index / max(1, len(phases))),
                    label=phase, xerr=np.nan_to_num(xerr), capsize=2,
                    error_kw={"elinewidth": 0.8, "ecolor": INK})
        ax.set_yticks(np.arange(len(agents))[::-1], [labels.get(a, a) for a in agents])
        ax.tick_params(axis="y", length=0)
        ax.xaxis.set_major_formatter(PercentFormatter(1.0, decimals=0))
        ax.set_xlabel("blunders per move (95% interval)")
        ax.set_title("Blunders by phase of the game")
        fig.legend(loc="outside lower center", ncol=len(phases))
    return fig
