"""The distance to perfect play: ladder ratings joined with accuracy rows by canonical spec."""

from __future__ import annotations

import math

import pandas as pd

from arena.competitions.ladder.distance import DISTANCE_COLUMNS, distance_table
from arena.rules.board import Rules


def test_accuracy_rows_join_the_ladder_agent_they_name() -> None:
    standings = pd.DataFrame({
        "agent": ["solver", "negamax", "random"], "rating": [1108.0, 563.0, 0.0],
        "low": [1078.0, 536.0, 0.0], "high": [1142.0, 593.0, 0.0],
        "to_perfect": [0.0, 545.0, 1108.0]})
    accuracy = pd.DataFrame({
        "agent": ["negamax:depth=4", "solver", "solver", "minimax"],  # depth 4 is the default
        "set": ["random:6-12", "random:6-12", "random:13-20", "random:6-12"],
        "positions": [300, 300, 300, 300], "accuracy": [0.7, 1.0, 1.0, 0.5],
        "accuracy_low": [0.65, 0.99, 0.99, 0.45], "accuracy_high": [0.75, 1.0, 1.0, 0.55],
        "blunder_rate": [0.1, 0.0, 0.0, 0.2]})
    table = distance_table(standings, accuracy, Rules(rows=5, cols=6))
    assert list(table.columns) == list(DISTANCE_COLUMNS)
    rows = [(r["agent"], r["to_perfect"], r["set"], r["accuracy"])
            for r in table.to_dict("records")]
    assert rows[:3] == [("solver", 0.0, "random:6-12", 1.0), ("solver", 0.0, "random:13-20", 1.0),
                        ("negamax", 545.0, "random:6-12", 0.7)]
    assert rows[3][:3] == ("random", 1108.0, "") and math.isnan(rows[3][3])  # not measured
