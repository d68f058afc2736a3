"""The report's sweep charts over spec parameters other than depth, from a real tournament."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import arena
from arena.report.run_page import load_run, sweep_series, write_report

ITERATIONS = (10, 100, 1000)


@pytest.mark.slow
def test_mcts_iterations_sweep(tmp_path: Path) -> None:
    """Three MCTS agents that differ in their iterations alone, and random: the report
    charts Elo against iterations on a log axis (they span two decades), each point the
    agent's rating in ratings.csv, and draws no depth chart (no agent has a depth)."""
    specs = [f"mcts:iterations={n}" for n in ITERATIONS]
    arena.tournament(["random", *specs], 8, openings="random:2", jobs=1, progress=False,
                     out=tmp_path / "rr")
    run = tmp_path / "rr"
    page = write_report(run).read_text()
    [sweep] = sweep_series(load_run(run))
    ratings = pd.read_csv(run / "ratings.csv").set_index("agent")["rating"]
    assert (sweep.parameter, sweep.kind, sweep.log, sweep.percent) == (
        "iterations", "sweep-iterations", True, False)
    assert sweep.table["family"].unique().tolist() == ["mcts"]
    assert sweep.table["value_of"].tolist() == list(ITERATIONS)
    rated = ["mcts:iterations=10", "mcts:iterations=100", "mcts"]  # 1,000 is the default
    assert sweep.table["value"].tolist() == [ratings[s] for s in rated]
    assert sweep.table["value"].is_monotonic_increasing  # more playouts, stronger play
    assert "## Strength against iterations" in page and "](sweep-iterations.png)" in page
    assert (run / "sweep-iterations.png").stat().st_size > 10_000
    assert not (run / "depth.png").exists() and "## Strength against depth" not in page


def test_a_parameter_of_one_value_is_no_sweep(tmp_path: Path) -> None:
    """Agents that differ in a word (rollout), or in a number together with another
    parameter, make no sweep: a family needs two values of one number, nothing else apart."""
    from tests.integration.test_report import hand_rows, write_run

    specs = {"x": "mcts:iterations=50,rollout=immediate-win", "y": "mcts:iterations=100"}
    rows = [{**row, "agent_a": specs["x"], "agent_b": specs["y"]} for row in hand_rows()]
    assert sweep_series(load_run(write_run(tmp_path, rows))) == []
