"""games.csv read back: typed rows in file order, and a DataFrame with proper dtypes."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from arena.rules.results import Result, Side, Termination
from arena.runs.planning.plan import GameSettings, match_plan
from arena.runs.playing.runner import run_games
from arena.runs.store.reading import load_games
from arena.runs.store.rows import GameRow, read_rows


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


def test_rows_are_read_back_typed_as_they_were_written(tmp_path: Path) -> None:
    run_games(match_plan("random", "immediate-win", 4, GameSettings(seed=2), "random:2"),
              tmp_path)
    rows = list(read_rows(tmp_path / "games.csv"))
    assert [row.game for row in rows] == [0, 1, 2, 3] and [row.pair for row in rows] == [0, 0, 1, 1]
    assert [row.first for row in rows] == [Side.A, Side.B, Side.A, Side.B]
    assert all(isinstance(row.result, Result) and isinstance(row.termination, Termination)
               and row.nodes_a is None and row.plies == len(row.moves) for row in rows)
    lines = (tmp_path / "games.csv").read_text().splitlines()[1:]
    again = [",".join("" if v is None else str(v) for v in row) for row in rows]
    assert [line.split(",")[:12] for line in lines] == [text.split(",")[:12] for text in again]
    assert GameRow.from_csv(lines[0].split(",")) == rows[0]
