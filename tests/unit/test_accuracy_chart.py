"""The accuracy chart's panels, one a set, three a row: each column's lowest panel labels the
shared cost axis, also when the row below it is short (four sets: the top row's middle and
right panels stand above nothing)."""

from __future__ import annotations

import pandas as pd
import pytest
from matplotlib.backends.backend_agg import FigureCanvasAgg

from arena.report.analysis_charts import MAX_PANELS_PER_ROW, accuracy_chart

SPECS = ("negamax:depth=1", "negamax:depth=2")


@pytest.mark.parametrize("sets", [4, *(pytest.param(n, marks=pytest.mark.slow)
                                       for n in (1, 2, 3, 5, 6, 7))])  # a second a chart
def test_every_column_s_lowest_panel_labels_the_cost_axis(sets: int) -> None:
    table = pd.DataFrame([{"set": f"set {s}", "agent": agent, "ms_per_move": 0.5 * (i + 1),
                           "accuracy": 0.6, "accuracy_low": 0.5, "accuracy_high": 0.7}
                          for s in range(sets) for i, agent in enumerate(SPECS)])
    fig = accuracy_chart(table, {spec: spec for spec in SPECS})
    FigureCanvasAgg(fig).draw()
    panels = {ax.get_title(): ax for ax in fig.axes if ax.get_visible()}
    assert len(panels) == sets
    for s in range(sets):
        ax = panels[f"set {s}"]
        lowest = s + MAX_PANELS_PER_ROW >= sets
        labelled = [t.get_text() for t in ax.get_xticklabels() if t.get_visible()
                    and t.get_text()]
        assert bool(labelled) is lowest, (s, labelled)
        assert bool(ax.get_xlabel()) is lowest, s
