"""Nothing overflows a chart: with long agent labels, every text of every chart kind lies
inside its figure once drawn, and labels are wrapped whole, never cut."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from arena.report import charts
from arena.report.analysis_charts import accuracy_chart, phase_accuracy_chart

pytestmark = pytest.mark.slow  # about a second a chart

AGENTS = [f"agent {i}: negamax with threats and positional heuristics, depth {i}, tiebreak "
          "left to right" for i in range(5)]
SPECS = [f"negamax:depth={i}" for i in range(5)]
LABELS = dict(zip(SPECS, AGENTS, strict=True))


def pairings() -> pd.DataFrame:
    rows = [{"agent_a": a, "agent_b": b, "games": 10, "wins": 5, "draws": 2, "losses": 3,
             "score": 0.6, "score_low": 0.3, "score_high": 0.85, "interval": "normal"}
            for i, a in enumerate(SPECS) for b in SPECS[i + 1:]]
    return pd.DataFrame(rows)


def ratings() -> pd.DataFrame:
    return pd.DataFrame({"rank": range(1, 6), "agent": SPECS, "rating": [300, 200, 100, 0, -100],
                         "low": [250, 150, 50, -50, -150], "high": [350, 250, 150, 50, -50],
                         "games": 40, "score": 0.5})


def cost() -> pd.DataFrame:
    return pd.DataFrame({"agent": SPECS, "ms_per_move": [5.0, 1.0, 0.5, 0.1, 0.01],
                         "nodes_per_move": [5e4, 1e4, 5e3, 1e3, np.nan]})


BUILDERS: dict[str, Callable[[], Figure]] = {
    "wtl": lambda: charts.wtl_chart(pairings(), LABELS),
    "crosstable": lambda: charts.crosstable_chart(
        pd.DataFrame(np.full((5, 5), 3.0), SPECS, SPECS),
        pd.DataFrame(np.full((5, 5), 6) - 6 * np.eye(5, dtype=int), SPECS, SPECS), LABELS),
    "ladder": lambda: charts.ladder_chart(ratings(), LABELS),
    "cost": lambda: charts.cost_chart(cost(), LABELS),
    "elo_cost": lambda: charts.elo_cost_chart(ratings(), cost(), LABELS),
    "length": lambda: charts.length_chart(
        pd.DataFrame({"outcome": ["first", "draw", "second"] * 4, "plies": range(7, 19)}),
        pd.DataFrame([{"agent": a, "side": side, "score": 0.5, "low": 0.3, "high": 0.7}
                      for a in ["", *SPECS[:3]] for side in ("first", "second")
                      if a or side == "first"]), LABELS),
    "sweep": lambda: charts.sweep_chart(pd.DataFrame(
        {"family": [AGENTS[0]] * 3, "value_of": [1, 2, 3], "value": [0.2, 0.5, 0.7],
         "low": [0.1, 0.4, 0.6], "high": [0.3, 0.6, 0.8]}), "search depth (plies)",
        "score against all opponents (95% Wilson score interval)", True),
    "standings": lambda: charts.standings_chart(pd.DataFrame(
        [[2.0, 4.0, 6.0], [2.0, 3.5, 4.5], [0.0, 2.0, 3.0], [2.0, 2.5, 2.5], [0.0, 0.0, 2.0]],
        SPECS, [1, 2, 3]), LABELS),
    "sprt": lambda: charts.sprt_chart(pd.DataFrame(
        {"games": [20, 40], "llr": [0.5, 3.1], "lower": -2.94, "upper": 2.94}),
        f"SPRT: {AGENTS[0]} vs {AGENTS[1]}"),
    "accuracy": lambda: accuracy_chart(pd.DataFrame(
        [{"set": name, "agent": a, "ms_per_move": 0.01 + 0.005 * i, "accuracy": 0.5 + 0.1 * i,
          "accuracy_low": 0.4 + 0.1 * i, "accuracy_high": 0.55 + 0.1 * i}
         for name in ("random:17-24", "random:25-34") for i, a in enumerate(SPECS[:4])]),
        LABELS),
    "phase_accuracy": lambda: phase_accuracy_chart(pd.DataFrame(
        [{"agent": a, "phase": phase, "rate": 0.1, "low": 0.05, "high": 0.2}
         for a in SPECS[:3] for phase in ("opening (plies 0-13)", "middle game (plies 14-27)",
                                          "endgame (plies 28-41)")]), LABELS),
}


def drawn_texts(fig: Figure, monkeypatch: pytest.MonkeyPatch) -> list[Text]:
    """The texts drawing ``fig`` draws (tick labels beyond an axis's limits are not)."""
    drawn: list[Text] = []
    draw = Text.draw

    def recording(text: Text, renderer: object) -> None:
        if text.get_visible() and text.get_text().strip():
            drawn.append(text)
        draw(text, renderer)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(Text, "draw", recording)
        FigureCanvasAgg(fig).draw()
    return drawn


@pytest.mark.parametrize("kind", list(BUILDERS))
def test_every_text_lies_inside_the_figure(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fig = BUILDERS[kind]()
    texts = drawn_texts(fig, monkeypatch)
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    bounds = fig.bbox
    assert texts
    for text in texts:
        box = text.get_window_extent(renderer)
        assert box.x0 >= bounds.x0 - 1 and box.y0 >= bounds.y0 - 1, (kind, text.get_text())
        assert box.x1 <= bounds.x1 + 1 and box.y1 <= bounds.y1 + 1, (kind, text.get_text())
    shown = " ".join(t.get_text().replace("\n", " ") for t in texts)
    assert "…" not in shown  # wrapped, never cut
    if kind not in ("sweep", "sprt"):
        assert "tiebreak left to right" in shown


@pytest.mark.parametrize("kind", ["accuracy", "cost", "elo_cost"])
def test_log_axes_label_ticks_apart(kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The tick labels of the log axes stand apart, even over less than a decade (the
    accuracy chart's costs: 0.01 to 0.025 ms)."""
    fig = BUILDERS[kind]()
    texts = drawn_texts(fig, monkeypatch)
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            ticks = {id(t) for t in axis.get_ticklabels(which="both")}
            boxes = [t.get_window_extent(renderer) for t in texts if id(t) in ticks]
            for i, one in enumerate(boxes):
                for other in boxes[i + 1:]:
                    assert not one.overlaps(other), (kind, axis.axis_name)


@pytest.mark.parametrize("kind", ["wtl", "ladder", "cost", "length"])
def test_long_labels_on_a_categorical_axis_stand_apart(
        kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Wrapped over several lines, the agents' labels of one axis do not run into each other
    (nor do the win/draw/loss counts beside them), and every one lies inside the figure."""
    fig = BUILDERS[kind]()
    texts = drawn_texts(fig, monkeypatch)
    renderer = fig.canvas.get_renderer()  # type: ignore[attr-defined]
    checked = 0
    for ax in fig.axes:
        for axis in (ax.xaxis, ax.yaxis):
            ticks = {id(t) for t in axis.get_ticklabels(which="both")}
            boxes = [t.get_window_extent(renderer) for t in texts if id(t) in ticks]
            for i, one in enumerate(boxes):
                assert fig.bbox.contains(one.x0 + 1, one.y0 + 1), (kind, i)
                assert fig.bbox.contains(one.x1 - 1, one.y1 - 1), (kind, i)
                for other in boxes[i + 1:]:
                    assert not one.overlaps(other), (kind, axis.axis_name)
            checked += len(boxes) > 1
    assert checked  # an axis with several labels was looked at
