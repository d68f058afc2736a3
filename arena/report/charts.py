"""The report's charts, as matplotlib figures built without pyplot (no display needed).

Each function takes tidy tables (see ``arena.report`` for how they are computed) and a map
from agent spec to its short label, and returns a Figure in the report's style.
"""

from __future__ import annotations

import functools
import os
import tempfile
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, ParamSpec

import matplotlib
import numpy as np
import numpy.typing as npt
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.ticker import MaxNLocator, NullFormatter, PercentFormatter

from arena.system.files import FILE_MODE

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

__all__ = [
    "cost_chart",
    "crosstable_chart",
    "depth_chart",
    "ladder_chart",
    "length_chart",
    "save",
    "sprt_chart",
    "wtl_chart",
]

DPI = 120
WIN, DRAW, LOSS = "#59a14f", "#bab0ac", "#e15759"
INK = "#222222"
FIRST, SECOND = "#4e79a7", "#f28e2b"
STYLE: dict[RcKeyType, Any] = {
    "font.size": 9,
    "axes.titlesize": 11,
    "axes.titleweight": "bold",
    "axes.labelsize": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.axisbelow": True,
    "grid.alpha": 0.35,
    "grid.linewidth": 0.6,
    "legend.frameon": False,
    "legend.fontsize": 8,
}
WIDTH = 8.0  # inches
ROW = 0.42  # inches per agent or pairing on a categorical axis

P = ParamSpec("P")


def _styled(build: Callable[P, Figure]) -> Callable[P, Figure]:
    """Build the figure under the report's style."""

    @functools.wraps(build)
    def styled(*args: P.args, **kwargs: P.kwargs) -> Figure:
        with matplotlib.rc_context(STYLE):
            return build(*args, **kwargs)

    return styled


def _figure(height: float, width: float = WIDTH) -> Figure:
    return Figure(figsize=(width, height), layout="constrained")


def save(figure: Figure, path: Path) -> Path:
    """Write ``figure`` as a PNG, atomically (under a unique temporary name first)."""
    handle, name = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    os.close(handle)
    try:
        figure.savefig(name, dpi=DPI, format="png")
        os.chmod(name, FILE_MODE)
        os.replace(name, path)
    finally:
        Path(name).unlink(missing_ok=True)
    return path


def _interval_bars(
    ax: Axes, value: npt.ArrayLike, low: npt.ArrayLike, high: npt.ArrayLike, y: npt.ArrayLike,
    **style: Any,
) -> None:
    """Points at ``value`` with horizontal bars from ``low`` to ``high``."""
    value_, low_, high_ = (np.asarray(v, dtype=float) for v in (value, low, high))
    xerr = np.vstack([value_ - low_, high_ - value_])  # rounding may leave -1e-13: clipped
    ax.errorbar(value_, y, xerr=np.clip(np.nan_to_num(xerr), 0, None), capsize=3,
                linestyle="none", clip_on=False, **style)


def _percent_axis(ax: Axes, which: str = "x") -> None:
    axis = ax.xaxis if which == "x" else ax.yaxis
    axis.set_major_formatter(PercentFormatter(1.0))


@_styled
def wtl_chart(pairings: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """Stacked win/draw/loss shares per pairing, with A's score and its 95% interval."""
    n = len(pairings)
    fig = _figure(1.6 + 1.3 * ROW * n)
    ax = fig.add_subplot()
    y = np.arange(n)[::-1]
    left = np.zeros(n)
    for column, colour, name in (("wins", WIN, "A wins"), ("draws", DRAW, "draws"),
                                 ("losses", LOSS, "A losses")):
        share = (pairings[column] / pairings["games"]).to_numpy(dtype=float)
        ax.barh(y, share, left=left, height=0.62, color=colour, label=name)
        left += share
    _interval_bars(ax, pairings["score"], pairings["score_low"], pairings["score_high"], y, fmt="D",
                   color=INK, markersize=5, label="A's score, 95% interval")
    ax.axvline(0.5, color=INK, linewidth=0.8, linestyle=":")
    ax.set_yticks(y, [f"{labels[a]}\nvs {labels[b]}"
                      for a, b in zip(pairings["agent_a"], pairings["agent_b"], strict=True)])
    ax.set_ylim(-0.6, n - 0.4)
    counts = ax.secondary_yaxis("right")
    counts.set_yticks(y, [f"[{w}, {d}, {lo}]\n({g} games)" for w, d, lo, g in zip(
        pairings["wins"], pairings["draws"], pairings["losses"], pairings["games"], strict=True)])
    counts.tick_params(length=0, pad=8)
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="y", visible=False)
    ax.set_xlim(0, 1)
    _percent_axis(ax)
    ax.set_xlabel("share of games, from agent A's view (A is the upper name)")
    ax.set_title("Wins, draws and losses per pairing  [W, T, L]")
    fig.legend(loc="outside lower center", ncol=4)
    return fig


@_styled
def crosstable_chart(points: pd.DataFrame, games: pd.DataFrame,
                     labels: Mapping[str, str]) -> Figure:
    """Heatmap of each row agent's score against each column agent."""
    k = len(points)
    played = games.to_numpy(dtype=int)
    with np.errstate(invalid="ignore", divide="ignore"):
        score = points.to_numpy(dtype=float) / played
    side = 2.2 + 0.75 * k
    fig = _figure(side, side + 1.2)
    ax = fig.add_subplot()
    image = ax.imshow(np.ma.masked_invalid(score), cmap="RdYlGn", vmin=0.0, vmax=1.0)
    for i, j in np.ndindex(k, k):
        if played[i, j] > 0:
            ax.text(j, i, f"{score[i, j]:.0%}\n{played[i, j]} g", ha="center",
                    va="center", fontsize=8, color="white" if abs(score[i, j] - 0.5) > 0.3
                    else INK)
    names = [labels[a] for a in points.index]
    ax.set_xticks(range(k), names, rotation=35, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(k), names)
    ax.grid(False)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    ax.set_title("Crosstable: the row agent's score against each opponent")
    bar = fig.colorbar(image, ax=ax, shrink=0.8, format=PercentFormatter(1.0))
    bar.set_label("row agent's score")
    return fig


@_styled
def ladder_chart(ratings: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """Rating of every agent, best at the top, with its interval."""
    n = len(ratings)
    fig = _figure(1.4 + ROW * n)
    ax = fig.add_subplot()
    y = np.arange(n)[::-1]
    _interval_bars(ax, ratings["rating"], ratings["low"].fillna(ratings["rating"]),
                   ratings["high"].fillna(ratings["rating"]), y, fmt="o", color=FIRST,
                   markersize=6, ecolor=INK)
    for yi, rating, high in zip(y, ratings["rating"], ratings["high"].fillna(ratings["rating"]),
                                strict=True):
        ax.annotate(f"{rating:+.0f}", (high, yi), xytext=(6, 0), textcoords="offset points",
                    va="center", fontsize=8)
    ax.set_yticks(y, [f"{rank}. {labels[a]}" for rank, a in zip(ratings["rank"],
                                                               ratings["agent"], strict=True)])
    ax.set_ylim(-0.7, n - 0.3)
    ax.margins(x=0.12)
    ax.grid(axis="y", visible=False)
    ax.set_xlabel("Elo rating (95% interval)")
    ax.set_title("Rating ladder")
    return fig


@_styled
def depth_chart(series: pd.DataFrame, ylabel: str, percent: bool) -> Figure:
    """Strength against search depth, one line per family (columns family, depth, value,
    low, high)."""
    fig = _figure(4.2, 7.0)
    ax = fig.add_subplot()
    for offset, (family, rows) in enumerate(series.groupby("family", sort=False)):
        rows = rows.sort_values("depth")
        depth = rows["depth"].to_numpy(dtype=float) + 0.06 * offset  # keep intervals apart
        value = rows["value"].to_numpy(dtype=float)
        yerr = np.vstack([value - rows["low"].fillna(rows["value"]),
                          rows["high"].fillna(rows["value"]) - value])
        ax.errorbar(depth, value, yerr=yerr, marker="o", capsize=3, label=str(family))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if percent:
        _percent_axis(ax, "y")
    ax.set_xlabel("search depth (plies)")
    ax.set_ylabel(ylabel)
    ax.set_title("Strength against search depth")
    fig.legend(title="family", loc="outside lower center", ncol=min(3, series["family"].nunique()))
    return fig


def _log_bars(ax: Axes, values: np.ndarray, y: np.ndarray, unit: str, colour: str) -> None:
    """Horizontal bars on a log axis, each labelled with its value; 'n/a' where missing."""
    known = np.isfinite(values) & (values > 0)
    low, high = (values[known].min(), values[known].max()) if known.any() else (1.0, 1.0)
    floor = 10.0 ** np.floor(np.log10(low / 2))  # whole decades: labelled major ticks only
    ax.set_xscale("log")
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.barh(y[known], values[known] - floor, left=floor, height=0.6, color=colour)
    for yi, value, ok in zip(y, values, known, strict=True):
        text = (f"{value:,.0f}" if value >= 100 else f"{value:.3g}") + unit if ok else "n/a"
        ax.annotate(text, (value if ok else floor, yi), xytext=(4, 0),
                    textcoords="offset points", va="center", fontsize=8)
    ax.set_xlim(floor, 10.0 ** np.ceil(np.log10(high * 15)))
    ax.grid(axis="y", visible=False)


@_styled
def cost_chart(cost: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """Mean milliseconds and nodes per move by agent, on log scales."""
    n = len(cost)
    with_nodes = bool(cost["nodes_per_move"].notna().any())
    fig = _figure(1.4 + ROW * n)
    axes = fig.subplots(1, 2 if with_nodes else 1, sharey=True, squeeze=False)[0]
    y = np.arange(n)[::-1]
    _log_bars(axes[0], cost["ms_per_move"].to_numpy(dtype=float), y, " ms", FIRST)
    axes[0].set_xlabel("milliseconds per move (log scale)")
    axes[0].set_yticks(y, [labels[a] for a in cost["agent"]])
    axes[0].set_ylim(-0.6, n - 0.4)
    if with_nodes:
        _log_bars(axes[1], cost["nodes_per_move"].to_numpy(dtype=float), y, "", SECOND)
        axes[1].set_xlabel("nodes searched per move (log scale)")
        axes[1].tick_params(axis="y", length=0)
    fig.suptitle("Cost per move", fontweight="bold", fontsize=11)
    return fig


OUTCOMES = (("first", "first player won", FIRST), ("draw", "draw", DRAW),
            ("second", "second player won", SECOND))


@_styled
def length_chart(lengths: pd.DataFrame, sides: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """Game length by outcome (columns outcome, plies), and each agent's score moving first
    and second (columns agent, side, score, low, high; agent '' stands for all games)."""
    agents = list(dict.fromkeys(sides["agent"]))
    fig = _figure(max(3.6, 1.5 + ROW * len(agents)), 9.0)
    left, right = fig.subplots(1, 2, width_ratios=[1, 1.25])
    groups = [(label, lengths.loc[lengths["outcome"] == key, "plies"], colour)
              for key, label, colour in OUTCOMES]
    groups = [(label, plies, colour) for label, plies, colour in groups if len(plies)]
    boxes = left.boxplot([plies.to_numpy() for _, plies, _ in groups], patch_artist=True,
                         tick_labels=[f"{label}\n({len(plies)} games)"
                                      for label, plies, _ in groups],
                         medianprops={"color": INK}, widths=0.55)
    for patch, (_, _, colour) in zip(boxes["boxes"], groups, strict=True):
        patch.set_facecolor(colour)
    left.yaxis.set_major_locator(MaxNLocator(integer=True))
    left.set_ylabel("game length (plies, opening included)")
    left.set_title("Game length by result")
    y = {agent: float(i) for i, agent in enumerate(reversed(agents))}
    for side, colour, shift, marker in (("first", FIRST, 0.14, "o"),
                                        ("second", SECOND, -0.14, "s")):
        rows = sides[sides["side"] == side]
        ys = np.array([y[a] for a in rows["agent"]]) + np.where(rows["agent"] == "", 0, shift)
        _interval_bars(right, rows["score"], rows["low"], rows["high"], ys, fmt=marker,
                       color=colour, markersize=5, label=f"moving {side}")
    right.axvline(0.5, color=INK, linewidth=0.8, linestyle=":")
    right.set_yticks(list(y.values()), [labels.get(a, "all games:\nthe first player") for a in y])
    right.set_ylim(-0.6, len(agents) - 0.4)
    right.set_xlim(0, 1)
    _percent_axis(right)
    right.grid(axis="y", visible=False)
    right.tick_params(axis="y", length=0)
    right.set_xlabel("score (95% interval)")
    right.set_title("First player's advantage")
    fig.legend(loc="outside lower right", ncol=2)
    return fig


@_styled
def sprt_chart(sprt: pd.DataFrame, title: str) -> Figure:
    """The log-likelihood ratio against games played, with the two stopping bounds."""
    fig = _figure(4.2, 7.5)
    ax = fig.add_subplot()
    games, llr, lower, upper = (np.r_[start, sprt[c].to_numpy(dtype=float)] for c, start in (
        ("games", 0.0), ("llr", 0.0), ("lower", sprt["lower"].iat[0]),
        ("upper", sprt["upper"].iat[0])))  # the LLR is 0 before the first game
    ax.plot(games, llr, marker="o", markersize=3, color=INK, label="LLR")
    ax.plot(games, upper, linestyle="--", color=WIN, label="upper bound: accept H1")
    ax.plot(games, lower, linestyle="--", color=LOSS, label="lower bound: accept H0")
    ax.fill_between(games, upper, np.nanmax(np.r_[upper, llr]) + 1, color=WIN, alpha=0.08)
    ax.fill_between(games, lower, np.nanmin(np.r_[lower, llr]) - 1, color=LOSS, alpha=0.08)
    ax.axhline(0, color=INK, linewidth=0.6)
    ax.set_xlim(0, games[-1] * 1.02)
    ax.set_xlabel("games played")
    ax.set_ylabel("log-likelihood ratio")
    ax.set_title(title)
    fig.legend(loc="outside lower center", ncol=3)
    return fig
