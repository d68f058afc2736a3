"""Nothing overflows a chart, in any format: with long agent labels, every text of every
chart kind lies inside its figure as each format draws it (PNG, SVG and PDF each measure text
their own way; rotated labels by their drawn corners, not their axis-aligned box), and labels
are wrapped whole, never cut."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.path import Path as MplPath
from matplotlib.text import Text
from matplotlib.transforms import Affine2D, Bbox

from arena.report import charts
from arena.report.analysis_charts import accuracy_chart, best_move_chart, phase_accuracy_chart
from arena.report.chart_kinds import CHART_KINDS
from arena.report.compare import compare_chart
from arena.report.experiment_page import _comparison_chart
from arena.report.style import save
from arena.stats.elo import homogeneity

pytestmark = pytest.mark.slow  # about a second a chart and format

FORMATS = ("png", "svg", "pdf")

AGENTS = [f"agent {i}: negamax with threats and positional heuristics, depth {i}, tiebreak "
          "left to right" for i in range(5)]
SPECS = [f"negamax:depth={i}" for i in range(5)]
LABELS = dict(zip(SPECS, AGENTS, strict=True))


def pairings() -> pd.DataFrame:
    """Every pair of the agents; the last pairing's normal approximation failed (Wilson)."""
    rows = [{"agent_a": a, "agent_b": b, "games": 10, "wins": 5, "draws": 2, "losses": 3,
             "score": 0.6, "score_low": 0.3, "score_high": 0.85, "interval": "normal"}
            for i, a in enumerate(SPECS) for b in SPECS[i + 1:]]
    rows[-1].update(wins=10, draws=0, losses=0, score=1.0, score_low=0.72, score_high=1.0,
                    interval="wilson")
    return pd.DataFrame(rows)


def ratings() -> pd.DataFrame:
    return pd.DataFrame({"rank": range(1, 6), "agent": SPECS, "rating": [300, 200, 100, 0, -100],
                         "low": [250, 150, 50, -50, -150], "high": [350, 250, 150, 50, -50],
                         "games": 40, "score": 0.5})


def cost() -> pd.DataFrame:
    median = np.array([5.0, 1.0, 0.5, 0.1, 0.01])
    return pd.DataFrame({"agent": SPECS, "ms_median": median, "ms_low": 0.9 * median,
                         "ms_high": 1.2 * median, "ms_p90": 2.0 * median,
                         "nodes_per_move": [5e4, 1e4, 5e3, 1e3, np.nan]})


def phase_rates(rate: float) -> pd.DataFrame:
    """Three agents' rates in each phase of the game, with an interval around ``rate``."""
    return pd.DataFrame([{"agent": a, "phase": phase, "rate": rate, "low": rate - 0.05,
                          "high": rate + 0.1} for a in SPECS[:3]
                         for phase in ("opening (plies 0-13)", "middle game (plies 14-27)",
                                       "endgame (plies 28-41)")])


BUILDERS: dict[str, Callable[[], Figure]] = {
    "wtl_chart": lambda: charts.wtl_chart(pairings(), LABELS),
    "crosstable_chart": lambda: charts.crosstable_chart(
        pd.DataFrame(np.full((5, 5), 3.0), SPECS, SPECS),
        pd.DataFrame(np.full((5, 5), 6) - 6 * np.eye(5, dtype=int), SPECS, SPECS), LABELS),
    "ladder_chart": lambda: charts.ladder_chart(ratings(), LABELS),
    "cost_chart": lambda: charts.cost_chart(cost(), LABELS),
    "elo_cost_chart": lambda: charts.elo_cost_chart(ratings(), cost(), LABELS),
    "length_chart": lambda: charts.length_chart(
        pd.DataFrame({"outcome": ["first", "draw", "second"] * 4, "plies": range(7, 19)}),
        pd.DataFrame([{"agent": a, "side": side, "score": 0.5, "low": 0.3, "high": 0.7}
                      for a in ["", *SPECS[:3]] for side in ("first", "second")
                      if a or side == "first"]), LABELS),
    "sweep_chart": lambda: charts.sweep_chart(pd.DataFrame(
        {"family": [AGENTS[0]] * 3, "value_of": [1, 2, 3], "value": [0.2, 0.5, 0.7],
         "low": [0.1, 0.4, 0.6], "high": [0.3, 0.6, 0.8]}), "search depth (plies)",
        "score against all opponents (95% Wilson score interval)", True),
    "standings_chart": lambda: charts.standings_chart(pd.DataFrame(
        [[2.0, 4.0, 6.0], [2.0, 3.5, 4.5], [0.0, 2.0, 3.0], [2.0, 2.5, 2.5], [0.0, 0.0, 2.0]],
        SPECS, [1, 2, 3]), LABELS),
    "sprt_chart": lambda: charts.sprt_chart(pd.DataFrame(
        {"games": [20, 40], "llr": [0.5, 3.1], "lower": -2.94, "upper": 2.94}),
        f"SPRT: {AGENTS[0]} vs {AGENTS[1]}"),
    "accuracy_chart": lambda: accuracy_chart(pd.DataFrame(
        [{"set": name, "agent": a, "ms_per_move": 0.01 + 0.005 * i, "accuracy": 0.5 + 0.1 * i,
          "accuracy_low": 0.4 + 0.1 * i, "accuracy_high": 0.55 + 0.1 * i}
         for name in ("random:17-24", "random:25-34", "pons:L2_R1", "pons:L3_R1")
         for i, a in enumerate(SPECS[:4])]),  # four sets: two rows, the second short
        LABELS),
    "phase_accuracy_chart": lambda: phase_accuracy_chart(phase_rates(0.1), LABELS),
    "best_move_chart": lambda: best_move_chart(phase_rates(0.7), LABELS),
    "compare_chart": lambda: compare_chart(pairings().tail(3).assign(
        run=[f"run-{i}-of-a-long-name_seed42_1a2b3c4d" for i in range(3)], date="2026-11-25"),
        LABELS),
    "comparison_chart": lambda: _comparison_chart([SimpleNamespace(  # type: ignore[list-item]
        entry=SimpleNamespace(name=f"entry-{i}"), ours=(120, 30, 250), reference=(110, 40, 250),
        test=homogeneity((120, 30, 250), (110, 40, 250))) for i in range(2)],
        [(AGENTS[i], AGENTS[i + 1]) for i in range(2)]),
}
"""Every chart function, by its name, drawn with the long labels."""


def test_every_kind_of_the_registry_is_checked() -> None:
    """Every chart function the registry draws with has its case here (by its name)."""
    assert {entry.builder.__name__ for entry in CHART_KINDS} <= set(BUILDERS)


class Drawn:
    """A text as a format drew it: the corners of its box (rotated with it), matplotlib's
    axis-aligned box around it and the figure's box, in that format's units."""

    def __init__(self, text: Text, renderer: object, figure: Bbox) -> None:
        self.text = text
        self.figure = figure
        self.aligned = text.get_window_extent(renderer)
        _, _, (corner, (width, height)) = text._get_layout(renderer)  # type: ignore[attr-defined]
        x, y = text.get_transform().transform(text.get_unitless_position())
        box = np.array([(0, 0), (width, 0), (width, height), (0, height)], dtype=float)
        turned = Affine2D().rotate_deg(text.get_rotation()).transform(box)
        self.corners = turned + np.add(corner, (x, y))
        self.box = Bbox.from_extents(*self.corners.min(axis=0), *self.corners.max(axis=0))

    @property
    def inside(self) -> bool:
        """Every corner within the figure (half a point of slack for rounding)."""
        (left, bottom), (right, top) = self.figure.get_points()
        xs, ys = self.corners[:, 0], self.corners[:, 1]
        return bool(xs.min() >= left - 0.5 and ys.min() >= bottom - 0.5
                    and xs.max() <= right + 0.5 and ys.max() <= top + 0.5)


def drawn_texts(fig: Figure, kind: str, tmp_path: Path,
                monkeypatch: pytest.MonkeyPatch) -> list[Drawn]:
    """The texts that saving ``fig`` as ``kind`` (png, svg or pdf) draws in the file, as they
    are drawn there (tick labels beyond an axis's limits are not)."""
    drawn: list[Drawn] = []
    draw_figure, draw_text = Figure.draw, Text.draw

    def figure_drawn(figure: Figure, renderer: object) -> None:
        drawn.clear()  # the file is the last drawing: layouts draw the figure before it
        draw_figure(figure, renderer)  # type: ignore[arg-type]

    def text_drawn(text: Text, renderer: object) -> None:
        draw_text(text, renderer)  # type: ignore[arg-type]
        if text.get_visible() and text.get_text().strip():
            drawn.append(Drawn(text, renderer, fig.bbox.frozen()))

    with monkeypatch.context() as patch:
        patch.setattr(Figure, "draw", figure_drawn)
        patch.setattr(Text, "draw", text_drawn)
        [path] = save(fig, tmp_path / "chart", [kind])
    assert path.stat().st_size > 0
    return drawn


@pytest.mark.parametrize("kind", FORMATS)
@pytest.mark.parametrize("chart", list(BUILDERS))
def test_every_text_lies_inside_the_figure(chart: str, kind: str, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    texts = drawn_texts(BUILDERS[chart](), kind, tmp_path, monkeypatch)
    assert texts
    for text in texts:
        assert text.inside, (chart, kind, text.text.get_text(), text.corners, text.figure)
    shown = " ".join(t.text.get_text().replace("\n", " ") for t in texts)
    assert "…" not in shown  # wrapped, never cut
    if chart not in ("sweep_chart", "sprt_chart", "comparison_chart"):
        assert "tiebreak left to right" in shown


def test_rotated_labels_are_checked_by_their_drawn_corners(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The crosstable's opponents are turned 35 degrees: their drawn corners lie inside their
    axis-aligned box, touching each of its sides, and not on its own corners."""
    texts = drawn_texts(BUILDERS["crosstable_chart"](), "pdf", tmp_path, monkeypatch)
    turned = [t for t in texts if t.text.get_rotation() == 35]
    assert len(turned) == len(SPECS)
    for text in turned:
        box = text.aligned
        assert np.allclose(text.box.get_points(), box.get_points(), atol=0.01)
        corner = np.array([box.x0, box.y0])
        assert np.linalg.norm(text.corners - corner, axis=1).min() > 5


def tick_boxes(texts: list[Drawn], axis: object) -> list[Bbox]:
    """The drawn boxes of ``axis``'s tick labels among ``texts``."""
    ticks = {id(t) for t in axis.get_ticklabels(which="both")}  # type: ignore[attr-defined]
    return [t.box for t in texts if id(t.text) in ticks]


@pytest.mark.parametrize("kind", FORMATS)
@pytest.mark.parametrize("chart", ["accuracy_chart", "cost_chart", "elo_cost_chart"])
def test_log_axes_label_ticks_apart(chart: str, kind: str, tmp_path: Path,
                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """The tick labels of the log axes stand apart, even over less than a decade (the
    accuracy chart's costs: 0.01 to 0.025 ms)."""
    fig = BUILDERS[chart]()
    texts = drawn_texts(fig, kind, tmp_path, monkeypatch)
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            boxes = tick_boxes(texts, axis)
            for i, one in enumerate(boxes):
                for other in boxes[i + 1:]:
                    assert not one.overlaps(other), (chart, kind, axis.axis_name)


@pytest.mark.parametrize("kind", FORMATS)
@pytest.mark.parametrize("chart", ["wtl_chart", "ladder_chart", "cost_chart", "length_chart"])
def test_long_labels_on_a_categorical_axis_stand_apart(
        chart: str, kind: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Wrapped over several lines, the agents' labels of one axis do not run into each other
    (nor do the win/draw/loss counts beside them)."""
    fig = BUILDERS[chart]()
    texts = drawn_texts(fig, kind, tmp_path, monkeypatch)
    checked = 0
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            boxes = tick_boxes(texts, axis)
            for i, one in enumerate(boxes):
                for other in boxes[i + 1:]:
                    assert not one.overlaps(other), (chart, kind, axis.axis_name)
            checked += len(boxes) > 1
    assert checked  # an axis with several labels was looked at


def test_the_elo_cost_notes_stay_off_the_front_line(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """Every agent of the chart is on the front, a rising line: no agent's note crosses it
    where the PDF draws them."""
    lines: list[MplPath] = []
    draw_line = Line2D.draw

    def line_drawn(line: Line2D, renderer: object) -> None:
        draw_line(line, renderer)  # type: ignore[arg-type]
        if line.axes is not None and str(line.get_label()).startswith("trade-off front"):
            lines[:] = [MplPath(line.get_transform().transform(line.get_xydata()))]

    monkeypatch.setattr(Line2D, "draw", line_drawn)
    texts = drawn_texts(BUILDERS["elo_cost_chart"](), "pdf", tmp_path, monkeypatch)
    notes = [t for t in texts if t.text.get_text().startswith("agent ")]
    [front] = lines
    assert len(notes) == len(SPECS) and len(front) == len(SPECS)
    for note in notes:
        assert not front.intersects_bbox(note.box, filled=False), note.text.get_text()


@pytest.mark.parametrize(("ms", "unit"), [([0.004, 0.009, 0.02], "microseconds"),
                                          ([0.5, 2.0, 40.0], "milliseconds")])
def test_times_under_a_millisecond_read_in_microseconds(ms: list[float], unit: str) -> None:
    table = pd.DataFrame({"agent": SPECS[:3], "ms_median": ms, "ms_low": np.nan,
                          "ms_high": np.nan, "ms_p90": ms, "nodes_per_move": np.nan})
    fig = charts.cost_chart(table, LABELS)
    assert fig.axes[0].get_xlabel() == f"{unit} per move, the median game (log scale)"
    shown = [text.get_text() for text in fig.axes[0].texts]
    factor, symbol = (1000, "µs") if unit == "microseconds" else (1, "ms")
    assert shown == [f"{value * factor:.3g} {symbol}" for value in ms]
    ratings = pd.DataFrame({"agent": SPECS[:3], "rating": [0.0, 50.0, 100.0], "low": np.nan,
                            "high": np.nan})
    elo = charts.elo_cost_chart(ratings, table, LABELS)
    assert elo.axes[0].get_xlabel() == f"{unit} per move, the median game (log scale)"


@pytest.mark.parametrize("chart", ["wtl_chart", "compare_chart"])
def test_a_figure_names_the_interval_method_of_each_score(chart: str) -> None:
    """One method: named once. Pairings whose normal approximation failed: their scores get
    a marker of their own and the legend names the Wilson interval beside the normal one."""
    for table, expected in ((pairings().head(3), ["normal approximation"]),
                            (pairings().tail(3), ["normal approximation", "Wilson score "
                                                  "interval, where the normal approximation "
                                                  "fails"])):
        fig = (charts.wtl_chart(table, LABELS) if chart == "wtl_chart" else compare_chart(
            table.assign(run="r", date=""), LABELS))
        [legend] = fig.legends
        named = [t.get_text() for t in legend.get_texts() if "95% interval" in t.get_text()]
        assert named == [f"A's score and its 95% interval ({name})" for name in expected]
        markers = {line.get_marker() for line in fig.axes[0].get_lines()} & {"D", "o"}
        assert len(markers) == len(expected)  # a marker per method (caps and bars aside)
