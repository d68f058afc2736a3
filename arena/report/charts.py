"""The report's charts, as matplotlib figures built without pyplot (no display needed).

Each builder takes tidy tables (see ``arena.report.run_tables`` for how they are computed)
and a map from agent spec to its label, and returns a Figure in the one style of
``arena.report.style``; ``arena.report.style.save`` writes it as PNG, SVG or PDF. Agent A's
results read win, draw and loss everywhere; every interval names its method. Which of them
a run's report shows, and when, is declared in ``arena.report.chart_kinds``.
"""

from __future__ import annotations

from collections.abc import Mapping

import matplotlib
import numpy as np
import numpy.typing as npt
import pandas as pd
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.path import Path
from matplotlib.ticker import MaxNLocator, NullFormatter, PercentFormatter
from matplotlib.transforms import Bbox

from arena.report.palette import DRAW, FIRST, INK, LOSS, SCORE_MAP, SECOND, WIN
from arena.report.style import (
    ONE_COLUMN,
    SMALL,
    STYLE,
    TWO_COLUMN,
    figure,
    log_axis,
    styled,
    time_unit,
    wrap,
)
from arena.report.vision import lightness

__all__ = [
    "INTERVAL_NAMES",
    "SCORE_MARKERS",
    "cost_chart",
    "crosstable_chart",
    "draw_scores",
    "elo_cost_chart",
    "ladder_chart",
    "length_chart",
    "sprt_chart",
    "standings_chart",
    "sweep_chart",
    "wtl_chart",
]

ROW = 0.36
"""Inches per agent or pairing on a categorical axis."""
LABEL_WIDTH = 26
"""Characters per line of an agent's label on an axis (longer labels wrap)."""
TICK_LINE = 1.2 * float(STYLE["ytick.labelsize"]) / 72
"""Inches per line of a tick label (its font's size and the usual line spacing)."""
INTERVAL_NAMES = {"normal": "normal approximation", "wilson": "Wilson score interval"}
"""The score intervals' methods in words (summary.csv's column ``interval``)."""
BOOTSTRAP = "95% bootstrap interval"
"""How rating intervals are made (arena.stats.ratings: a percentile bootstrap of the
Bradley-Terry fit)."""


def _interval_bars(
    ax: Axes, value: npt.ArrayLike, low: npt.ArrayLike, high: npt.ArrayLike, y: npt.ArrayLike,
    **style: object,
) -> None:
    """Points at ``value`` with horizontal bars from ``low`` to ``high``."""
    value_, low_, high_ = (np.asarray(v, dtype=float) for v in (value, low, high))
    xerr = np.vstack([value_ - low_, high_ - value_])  # rounding may leave -1e-13: clipped
    ax.errorbar(value_, y, xerr=np.clip(np.nan_to_num(xerr), 0, None), capsize=2.5,
                linestyle="none", clip_on=False, **style)  # type: ignore[arg-type]


def _percent_axis(ax: Axes, which: str = "x") -> None:
    axis = ax.xaxis if which == "x" else ax.yaxis
    axis.set_major_formatter(PercentFormatter(1.0))


def _name(labels: Mapping[str, str], spec: str) -> str:
    return wrap(labels.get(spec, spec), LABEL_WIDTH)


SCORE_MARKERS = {"normal": "D", "wilson": "o"}
"""The marker of a score drawn with each interval method."""


def score_marks(methods: pd.Series) -> list[tuple[npt.NDArray[np.bool_], str, str]]:
    """The rows drawn with each interval method of ``methods`` (summary.csv's column
    ``interval``; blank for summaries written before it: normal), each method's marker and
    the legend's words for it: a figure names the one method its scores have, or, where a
    pairing's normal approximation failed, marks and names each."""
    methods = methods.fillna("").replace("", "normal").astype(str)
    present = list(dict.fromkeys(methods))
    return [((methods == method).to_numpy(), SCORE_MARKERS.get(method, "D"),
             INTERVAL_NAMES.get(method, method)
             + (", where the normal approximation fails" if method == "wilson"
                and len(present) > 1 else "")) for method in present]


def draw_scores(ax: Axes, table: pd.DataFrame, y: npt.ArrayLike, **style: object) -> None:
    """A's score of each row of ``table`` (columns score, score_low, score_high and
    interval) at ``y`` with its 95% interval, one marker and legend entry per method."""
    methods = table["interval"] if "interval" in table else pd.Series("", index=table.index)
    places = np.asarray(y)
    for rows, marker, name in score_marks(methods):
        _interval_bars(ax, table["score"][rows], table["score_low"][rows],
                       table["score_high"][rows], places[rows], fmt=marker,
                       label=f"A's score and its 95% interval ({name})", **style)


@styled
def wtl_chart(pairings: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """Stacked win/draw/loss shares per pairing, with A's score and its 95% interval (the
    method summary.csv names, each method marked and named)."""
    n = len(pairings)
    names = [f"{_name(labels, a)}\nvs {_name(labels, b)}"
             for a, b in zip(pairings["agent_a"], pairings["agent_b"], strict=True)]
    lines = max((name.count("\n") + 1 for name in names), default=2)
    fig = figure(1.3 + max(2.2 * ROW, TICK_LINE * (lines + 1)) * n)  # long names stand apart
    ax = fig.add_subplot()
    y = np.arange(n)[::-1]
    left = np.zeros(n)
    for column, colour, name in (("wins", WIN, "A wins"), ("draws", DRAW, "draw"),
                                 ("losses", LOSS, "A loses")):
        share = (pairings[column] / pairings["games"]).to_numpy(dtype=float)
        ax.barh(y, share, left=left, height=0.62, color=colour, label=name,
                edgecolor="white", linewidth=0.5)
        left += share
    draw_scores(ax, pairings, y, color=INK, markersize=4)
    ax.axvline(0.5, color=INK, linewidth=0.8, linestyle=":")
    ax.set_yticks(y, names)
    ax.set_ylim(-0.6, n - 0.4)
    counts = ax.secondary_yaxis("right")
    counts.set_yticks(y, [f"win {w}, draw {d}, loss {lo}\n({g} games)" for w, d, lo, g in zip(
        pairings["wins"], pairings["draws"], pairings["losses"], pairings["games"], strict=True)])
    counts.tick_params(length=0, pad=6)
    ax.tick_params(axis="y", length=0)
    ax.grid(axis="y", visible=False)
    ax.set_xlim(0, 1)
    _percent_axis(ax)
    ax.set_xlabel("share of games, from agent A's view (A is the upper name)")
    ax.set_title("Wins, draws and losses per pairing")
    fig.legend(loc="outside lower center", ncol=2)
    return fig


@styled
def crosstable_chart(points: pd.DataFrame, games: pd.DataFrame,
                     labels: Mapping[str, str]) -> Figure:
    """Heatmap of each row agent's score against each column agent."""
    k = len(points)
    played = games.to_numpy(dtype=int)
    with np.errstate(invalid="ignore", divide="ignore"):
        score = points.to_numpy(dtype=float) / played
    side = min(TWO_COLUMN - 1.6, 1.6 + 0.55 * k)
    fig = figure(side + 0.9, min(TWO_COLUMN, side + 1.8))
    ax = fig.add_subplot()
    cmap = matplotlib.colormaps[SCORE_MAP]
    image = ax.imshow(np.ma.masked_invalid(score), cmap=cmap, vmin=0.0, vmax=1.0)
    size = SMALL if k <= 8 else 5.5
    for i, j in np.ndindex(k, k):
        if played[i, j] > 0:
            dark = lightness(cmap(score[i, j])[:3]) < 55
            ax.text(j, i, f"{score[i, j]:.0%}\n{played[i, j]} g", ha="center", va="center",
                    fontsize=size, color="white" if dark else INK)
    names = [_name(labels, a) for a in points.index]
    ax.set_xticks(range(k), names, rotation=35, ha="right", rotation_mode="anchor")
    ax.set_yticks(range(k), names)
    ax.grid(False)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    ax.set_title("Crosstable:\nthe row agent's score against each opponent")
    bar = fig.colorbar(image, ax=ax, shrink=0.8, format=PercentFormatter(1.0))
    bar.set_label("row agent's score")
    return fig


@styled
def ladder_chart(ratings: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """Rating of every agent, best at the top, with its bootstrap interval."""
    n = len(ratings)
    fig = figure(1.1 + ROW * n * (1 + _wrapped_lines(ratings["agent"], labels) / 3),
                 TWO_COLUMN * 0.75)
    ax = fig.add_subplot()
    y = np.arange(n)[::-1]
    _interval_bars(ax, ratings["rating"], ratings["low"].fillna(ratings["rating"]),
                   ratings["high"].fillna(ratings["rating"]), y, fmt="o", color=WIN,
                   ecolor=INK)
    for yi, rating, high in zip(y, ratings["rating"], ratings["high"].fillna(ratings["rating"]),
                                strict=True):
        ax.annotate(f"{rating:+.0f}", (high, yi), xytext=(5, 0), textcoords="offset points",
                    va="center", fontsize=SMALL)
    ax.set_yticks(y, [f"{rank}. {_name(labels, a)}" for rank, a in zip(
        ratings["rank"], ratings["agent"], strict=True)])
    ax.set_ylim(-0.7, n - 0.3)
    ax.margins(x=0.15)
    ax.grid(axis="y", visible=False)
    ax.set_xlabel(f"Elo rating ({BOOTSTRAP})")
    ax.set_title("Rating ladder")
    return fig


def _wrapped_lines(specs: pd.Series, labels: Mapping[str, str]) -> int:
    """The most lines an agent's wrapped label takes, less one."""
    return max((_name(labels, str(s)).count("\n") for s in specs), default=0)


@styled
def sweep_chart(series: pd.DataFrame, parameter: str, ylabel: str, percent: bool,
                log: bool = False) -> Figure:
    """Strength against one parameter (a depth, a number of iterations), one line per family
    of agents that differ only in it (columns family, value_of, value, low, high)."""
    fig = figure(2.9, ONE_COLUMN + 0.6)
    ax = fig.add_subplot()
    families = series["family"].nunique()
    for offset, (family, rows) in enumerate(series.groupby("family", sort=False)):
        rows = rows.sort_values("value_of")
        x = rows["value_of"].to_numpy(dtype=float)
        x = x * (1 + 0.02 * offset) if log else x + 0.06 * offset  # keep intervals apart
        value = rows["value"].to_numpy(dtype=float)
        yerr = np.vstack([value - rows["low"].fillna(rows["value"]),
                          rows["high"].fillna(rows["value"]) - value])
        ax.errorbar(x, value, yerr=np.clip(yerr, 0, None), marker="o", capsize=2.5,
                    label=wrap(str(family), 40))
    if log:
        log_axis(ax)
    else:
        ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    if percent:
        _percent_axis(ax, "y")
    ax.set_xlabel(parameter + (" (log scale)" if log else ""))
    ax.set_ylabel(wrap(ylabel, 34))
    ax.set_title(f"Strength against {parameter}")
    if families > 1:
        fig.legend(title="agents", loc="outside lower center")
    return fig


@styled
def elo_cost_chart(ratings: pd.DataFrame, cost: pd.DataFrame, labels: Mapping[str, str]
                   ) -> Figure:
    """Each agent's rating against its time a move (the median game's, with its 95% interval:
    ``run_tables.COST_COLUMNS``; in microseconds when every agent takes less than a
    millisecond), with the trade-off front: the agents no other agent beats while thinking
    less."""
    table = ratings.merge(cost, on="agent").dropna(subset=["ms_median"])
    unit = time_unit(table["ms_median"])
    table = table.assign(ms=table["ms_median"].clip(lower=1e-3) * unit.factor,
                         ms_low=table["ms_low"].clip(lower=1e-3) * unit.factor,
                         ms_high=table["ms_high"].clip(lower=1e-3) * unit.factor)
    table = table.sort_values("ms")
    fig = figure(3.4, TWO_COLUMN)
    ax = fig.add_subplot()
    yerr = np.vstack([table["rating"] - table["low"].fillna(table["rating"]),
                      table["high"].fillna(table["rating"]) - table["rating"]])
    best = table["rating"].astype(float).cummax()
    front = table["rating"] > best.shift(fill_value=-np.inf)
    ax.errorbar(table["ms"], table["rating"], yerr=np.clip(yerr, 0, None), fmt="none",
                ecolor=INK, capsize=2.5, elinewidth=0.8)
    timed = table.dropna(subset=["ms_low", "ms_high"])
    ax.errorbar(timed["ms"], timed["rating"], xerr=np.clip(np.vstack([
        timed["ms"] - timed["ms_low"], timed["ms_high"] - timed["ms"]]), 0, None), fmt="none",
        ecolor=INK, capsize=2.5, elinewidth=0.8)
    ax.plot(table["ms"][front], table["rating"][front], color=WIN, marker="o", linewidth=1.2,
            label="trade-off front (no agent stronger for less time)", zorder=3)
    if not front.all():
        ax.plot(table["ms"][~front], table["rating"][~front], color=LOSS, marker="s",
                linestyle="none", label="behind the front", zorder=3)
    log_axis(ax)
    ax.margins(x=0.25, y=0.15)
    ax.set_xlabel(f"{unit.name} per move, the median game (log scale)")
    ax.set_ylabel(f"Elo rating\n({BOOTSTRAP})")
    ax.set_title("Strength against thinking time")
    fig.legend(loc="outside lower center", ncol=2)
    _place_notes(fig, ax, [(row["ms"], row["rating"], wrap(labels.get(row["agent"], row["agent"]),
                                                           22)) for _, row in table.iterrows()],
                 list(zip(table["ms"], table["rating"] - yerr[0], table["rating"] + yerr[1],
                          strict=True)),
                 np.column_stack([table["ms"][front], table["rating"][front]]))
    return fig


CORNERS = ((5, 3, "left", "bottom"), (5, -3, "left", "top"), (-5, 3, "right", "bottom"),
           (-5, -3, "right", "top"))
"""Where a point's note may stand beside it: offset in points and alignment."""
SLACK = 1.1
"""How much wider and taller than measured a note must fit inside the figure: text measured
for one format is a few percent wider in another."""


def _place_notes(fig: Figure, ax: Axes, notes: list[tuple[float, float, str]],
                 bars: list[tuple[float, float, float]], line: npt.ArrayLike) -> None:
    """Each note beside its point (notes: x, y, text), at a corner of the point, else above
    or below its interval (bars: x, low, high), the first place that stays inside the figure
    and crosses neither a note placed before it, nor an interval, nor the ``line`` (its
    points' x and y); when none does, the first inside the figure. Called once the rest of
    the figure is drawn, so that the notes are placed where they will stand."""
    renderer = FigureCanvasAgg(fig).get_renderer()
    fig.draw_without_rendering()  # the layout first: where the axes stand (notes leave it)
    ax.set_autoscale_on(False)
    placed = [Bbox(ax.transData.transform([(x, low), (x, high)])).expanded(1, 1).padded(3)
              for x, low, high in bars]
    drawn_line = Path(ax.transData.transform(np.asarray(line, dtype=float).reshape(-1, 2)))
    for (x, y, text), (_, low, high) in zip(notes, bars, strict=True):
        places = [((x, y), (dx, dy), ha, va) for dx, dy, ha, va in CORNERS]
        places += [((x, high), (0, 4), "center", "bottom"), ((x, low), (0, -4), "center", "top")]
        chosen = None
        for xy, offset, ha, va in places:
            note = ax.annotate(text, xy, xytext=offset, textcoords="offset points",
                               fontsize=6.5, ha=ha, va=va, in_layout=False)
            box = note.get_window_extent(renderer)
            roomy = box.expanded(SLACK, SLACK)
            inside = fig.bbox.contains(*roomy.min) and fig.bbox.contains(*roomy.max)
            free = not any(box.overlaps(other) for other in placed) and not (
                len(drawn_line) > 1 and drawn_line.intersects_bbox(box, filled=False))
            if inside and free:
                if chosen is not None:
                    chosen[0].remove()
                chosen = (note, box)
                break
            if inside and chosen is None:
                chosen = (note, box)  # kept unless a free place comes
            else:
                note.remove()
        if chosen is not None:
            placed.append(chosen[1])


def _log_bars(ax: Axes, values: np.ndarray, y: np.ndarray, unit: str, colour: str,
              spread: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None) -> None:
    """Horizontal bars on a log axis, each labelled with its value; 'n/a' where missing.
    With ``spread`` (low, high, mark), each bar also gets its interval from low to high
    (where known) and a diamond at its mark, the label beside the rightmost of them."""
    known = np.isfinite(values) & (values > 0)
    lows, highs, marks = spread if spread is not None else (values, values, values)
    right = np.fmax(np.fmax(values, highs), marks)
    low, high = (np.fmin(values, lows)[known].min(), right[known].max()) if known.any() \
        else (1.0, 1.0)
    floor = 10.0 ** np.floor(np.log10(low / 2))  # whole decades: labelled major ticks only
    log_axis(ax)
    ax.xaxis.set_minor_formatter(NullFormatter())
    ax.barh(y[known], values[known] - floor, left=floor, height=0.6, color=colour)
    if spread is not None:
        bounded = known & np.isfinite(lows) & np.isfinite(highs)
        ax.errorbar(values[bounded], y[bounded], xerr=np.vstack([
            values[bounded] - lows[bounded], highs[bounded] - values[bounded]]).clip(0),
            fmt="none", ecolor=INK, elinewidth=0.8, capsize=2.5)
        marked = known & np.isfinite(marks)
        ax.plot(marks[marked], y[marked], linestyle="none", marker="D", markersize=3,
                color=INK)
    for yi, value, at, ok in zip(y, values, right, known, strict=True):
        text = (f"{value:,.0f}" if value >= 100 else f"{value:.3g}") + unit if ok else "n/a"
        ax.annotate(text, (at if ok else floor, yi), xytext=(3 if spread is None else 5, 0),
                    textcoords="offset points", va="center", fontsize=SMALL)
    ax.set_xlim(floor, 10.0 ** np.ceil(np.log10(high * 30)))
    ax.grid(axis="y", visible=False)


@styled
def cost_chart(cost: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """Time a move by agent (in milliseconds, or microseconds when every agent takes less
    than a millisecond: ``run_tables.COST_COLUMNS``' median game with its 95% interval and
    90th percentile) and mean nodes per move, on log scales."""
    n = len(cost)
    with_nodes = bool(cost["nodes_per_move"].notna().any())
    fig = figure(1.4 + ROW * n * (1 + _wrapped_lines(cost["agent"], labels) / 3))
    axes = fig.subplots(1, 2 if with_nodes else 1, sharey=True, squeeze=False)[0]
    y = np.arange(n)[::-1]
    unit = time_unit(cost["ms_median"])
    times = [cost[column].to_numpy(dtype=float) * unit.factor
             for column in ("ms_median", "ms_low", "ms_high", "ms_p90")]
    _log_bars(axes[0], times[0], y, f" {unit.symbol}", FIRST, (times[1], times[2], times[3]))
    axes[0].set_xlabel(f"{unit.name} per move, the median game (log scale)")
    axes[0].set_yticks(y, [_name(labels, a) for a in cost["agent"]])
    axes[0].set_ylim(-0.6, n - 0.4)
    if with_nodes:
        _log_bars(axes[1], cost["nodes_per_move"].to_numpy(dtype=float), y, "", SECOND)
        axes[1].set_xlabel("mean nodes searched per move (log scale)")
        axes[1].tick_params(axis="y", length=0)
    fig.suptitle("Cost per move")
    fig.legend(handles=[
        Line2D([], [], color=INK, linewidth=0.8, marker="|", markersize=5,
               label="the median's 95% interval"),
        Line2D([], [], color=INK, linestyle="none", marker="D", markersize=3,
               label="90th percentile of the games")], loc="outside lower center", ncol=2)
    return fig


OUTCOMES = (("first", "first player won", FIRST), ("draw", "draw", DRAW),
            ("second", "second player won", SECOND))


@styled
def length_chart(lengths: pd.DataFrame, sides: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """Game length by outcome (columns outcome, plies), and each agent's score moving first
    and second (columns agent, side, score, low, high; agent '' stands for all games), with
    Wilson score intervals."""
    agents = list(dict.fromkeys(sides["agent"]))
    fig = figure(max(2.8, 1.3 + ROW * 1.4 * len(agents)))
    left, right = fig.subplots(1, 2, width_ratios=[1, 1.3])
    groups = [(label, lengths.loc[lengths["outcome"] == key, "plies"], colour)
              for key, label, colour in OUTCOMES]
    groups = [(label, plies, colour) for label, plies, colour in groups if len(plies)]
    boxes = left.boxplot([plies.to_numpy() for _, plies, _ in groups], patch_artist=True,
                         tick_labels=[f"{wrap(label, 12)}\n({len(plies)} games)"
                                      for label, plies, _ in groups],
                         medianprops={"color": INK}, widths=0.55,
                         flierprops={"markersize": 3})
    for patch, (_, _, colour) in zip(boxes["boxes"], groups, strict=True):
        patch.set_facecolor(colour)
        patch.set_edgecolor(INK)
    left.yaxis.set_major_locator(MaxNLocator(integer=True))
    left.set_ylabel("game length (plies, opening included)")
    left.set_title("Game length by result")
    y = {agent: float(i) for i, agent in enumerate(reversed(agents))}
    for side, colour, shift, marker in (("first", FIRST, 0.14, "o"),
                                        ("second", SECOND, -0.14, "s")):
        rows = sides[sides["side"] == side]
        ys = np.array([y[a] for a in rows["agent"]]) + np.where(rows["agent"] == "", 0, shift)
        _interval_bars(right, rows["score"], rows["low"], rows["high"], ys, fmt=marker,
                       color=colour, label=f"moving {side}")
    right.axvline(0.5, color=INK, linewidth=0.8, linestyle=":")
    right.set_yticks(list(y.values()), [_name(labels, a) if a else "all games:\nthe first player"
                                        for a in y])
    right.set_ylim(-0.6, len(agents) - 0.4)
    right.set_xlim(0, 1)
    _percent_axis(right)
    right.grid(axis="y", visible=False)
    right.tick_params(axis="y", length=0)
    right.set_xlabel("score (95% Wilson score interval)")
    right.set_title("First player's advantage")
    fig.legend(loc="outside lower right", ncol=2)
    return fig


MARKERS = "osD^vPX*"
"""One marker per line, so that lines stay apart where colours repeat or cannot be told."""


@styled
def standings_chart(standings: pd.DataFrame, labels: Mapping[str, str]) -> Figure:
    """A Swiss tournament's standings: each agent's points after each round (rows: agents,
    best first; columns: the round numbers), one line per agent from 0 before the first."""
    fig = figure(2.6 + 0.12 * len(standings), TWO_COLUMN * 0.75)
    ax = fig.add_subplot()
    rounds = [0, *(int(n) for n in standings.columns)]
    for i, (agent, points) in enumerate(zip(standings.index, standings.to_numpy(dtype=float),
                                            strict=True)):
        ax.plot(rounds, [0.0, *points], marker=MARKERS[i % len(MARKERS)], markersize=4,
                label=wrap(labels.get(str(agent), str(agent)), 40))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    ax.set_xlim(0, rounds[-1] + 0.1)
    ax.set_ylim(bottom=0)
    ax.set_xlabel("after round")
    ax.set_ylabel("points")
    ax.set_title("Standings after each round")
    fig.legend(loc="outside lower center", ncol=2 if len(standings) > 3 else len(standings))
    return fig


@styled
def sprt_chart(sprt: pd.DataFrame, title: str) -> Figure:
    """The log-likelihood ratio against games played, with the two stopping bounds."""
    fig = figure(3.0, TWO_COLUMN * 0.75)
    ax = fig.add_subplot()
    games, llr, lower, upper = (np.r_[start, sprt[c].to_numpy(dtype=float)] for c, start in (
        ("games", 0.0), ("llr", 0.0), ("lower", sprt["lower"].iat[0]),
        ("upper", sprt["upper"].iat[0])))  # the LLR is 0 before the first game
    ax.plot(games, llr, marker="o", markersize=2.5, color=INK, label="LLR")
    ax.plot(games, upper, linestyle="--", color=WIN, label="upper bound: accept H1")
    ax.plot(games, lower, linestyle="-.", color=LOSS, label="lower bound: accept H0")
    ax.fill_between(games, upper, np.nanmax(np.r_[upper, llr]) + 1, color=WIN, alpha=0.1)
    ax.fill_between(games, lower, np.nanmin(np.r_[lower, llr]) - 1, color=LOSS, alpha=0.1)
    ax.axhline(0, color=INK, linewidth=0.6)
    ax.set_xlim(0, games[-1] * 1.02)
    ax.set_xlabel("games played")
    ax.set_ylabel("log-likelihood ratio")
    ax.set_title(wrap(title, 55))
    fig.legend(loc="outside lower center", ncol=3)
    return fig
