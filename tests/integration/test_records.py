"""games.csv read back: columns picked in file order, and a DataFrame with proper dtypes."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from arena.runs.plan import GameSettings, match_plan
from arena.runs.rows import iter_columns, load_games
from arena.runs.runner import run_games


def test_load_games_gives_proper_dtypes(tmp_path: Path) -> None:
    plan = match_plan("random", "immediate-win", 6, GameSettings(seed=2), "random:2")
    run_games(plan, tmp_path / "paired")
    games = load_games(tmp_path / "paired" / "games.csv")
    assert games["game"].tolist() == list(range(6))
    assert games["pair"].tolist() == [0, 0, 1, 1, 2, 2] and str(games["pair"].dtype) == "Int64"
    assert all(isinstance(moves, str) and moves.startswith(opening)
               for moves, opening in zip(games["moves"], games["opening"], strict=True))
    assert games["moves"].map(len).tolist() == games["plies"].tolist()  # "0123" stays text
    assert {column: str(games[column].dtype) for column in
            ("agent_a", "result", "termination", "time_a", "nodes_a")} == {
        "agent_a": "category", "result": "category", "termination": "category",
        "time_a": "float64", "nodes_a": "Int64"}
    assert pd.api.types.is_string_dtype(games["error"])
    assert games["nodes_a"].isna().all() and (games["error"] == "").all()
    run_games(match_plan("random", "random", 2, GameSettings(seed=2)), tmp_path / "plain")
    plain = load_games(tmp_path / "plain" / "games.csv")
    assert plain["pair"].isna().all() and (plain["opening"] == "").all()


def test_iter_columns_reads_the_named_columns_in_file_order(tmp_path: Path) -> None:
    run_games(match_plan("random", "random", 3, GameSettings(seed=2)), tmp_path)
    rows = list(iter_columns(tmp_path / "games.csv", ("game", "agent_b")))
    assert rows == [("0", "random"), ("1", "random"), ("2", "random")]
