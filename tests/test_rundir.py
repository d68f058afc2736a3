"""The games table on disk: header, appends, partial last lines, locking, run directories."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from arena.records import COLUMNS, GameRow, GamesTableError, load_games
from arena.rundir import (
    GamesTable,
    RunDirectoryError,
    claim_run_dir,
    read_meta,
    truncate_partial_line,
    write_meta,
)


def row(game: int, **changes: Any) -> GameRow:
    """A plausible finished game."""
    base = GameRow(game, None, 1000 + game, "random", "immediate-win", "a", "", "4455667",
                   "loss", "four_in_a_row", 7, 0.001, 0.002, None, 40, 4, 3, "")
    return base._replace(**changes)


@pytest.mark.parametrize(
    ("content", "kept"),
    [
        (b"a,b\n1,2\n3,", b"a,b\n1,2\n"),
        (b"a,b\n1,2\n", b"a,b\n1,2\n"),
        (b"game,pa", b""),
        (b"", b""),
    ],
)
def test_a_last_line_without_newline_is_cut(tmp_path: Path, content: bytes, kept: bytes) -> None:
    path = tmp_path / "games.csv"
    path.write_bytes(content)
    truncate_partial_line(path)
    assert path.read_bytes() == kept


def test_a_partial_line_longer_than_one_read_is_cut(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    path.write_bytes(b"header\n" + b"x" * 200_000)
    truncate_partial_line(path)
    assert path.read_bytes() == b"header\n"


def test_a_new_table_gets_the_header_and_rows_in_append_order(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    with GamesTable(path, total_games=5) as table:
        assert not table.finished.any()
        table.append([row(3), row(0, pair=0, nodes_a=12)])
    lines = path.read_text().splitlines()
    assert lines[0] == ",".join(COLUMNS)
    assert lines[1] == ("3,,1003,random,immediate-win,a,,4455667,loss,four_in_a_row,7,"
                        "0.001,0.002,,40,4,3,")
    assert lines[2].startswith("0,0,1000,") and ",12,40," in lines[2]


def test_reopening_finds_the_finished_games_and_drops_a_half_written_row(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    with GamesTable(path, total_games=6) as table:
        table.append([row(1), row(4)])
    with path.open("a") as file:
        file.write("5,,1005,random,immed")  # killed while writing game 5
    with GamesTable(path, total_games=6) as table:
        assert list(table.finished) == [False, True, False, False, True, False]
        table.append([row(5)])
    games = load_games(path)
    assert list(games["game"]) == [1, 4, 5]
    assert path.read_text().count("\n") == 4


def test_error_messages_stay_on_one_line(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    with GamesTable(path, total_games=1) as table:
        table.append([row(0, termination="agent_error", error='ValueError: bad\nthing, "x"')])
    assert path.read_text().count("\n") == 2
    assert load_games(path)["error"][0] == 'ValueError: bad thing, "x"'


def test_load_games_sorts_by_game_and_keeps_empty_cells_empty(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    with GamesTable(path, total_games=3) as table:
        table.append([row(2, pair=1, opening="44"), row(0), row(1, moves="0123", error="")])
    games = load_games(path)
    assert list(games["game"]) == [0, 1, 2]
    assert games["pair"].isna().tolist() == [True, True, False]
    assert games["opening"].tolist() == ["", "", "44"]
    assert games["nodes_a"].isna().all() and games["nodes_b"].tolist() == [40, 40, 40]
    assert games["moves"][1] == "0123"  # move strings stay strings


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("game,seed\n1,2\n", "unexpected columns"),
        (",".join(COLUMNS) + "\n9" + ",x" * (len(COLUMNS) - 1) + "\n", "game 9 is outside"),
        (",".join(COLUMNS) + "\nabc,\n", "line 2: expected a game index"),
        (",".join(COLUMNS) + "\n1,\n1,\n", "line 3: game 1 appears twice"),
    ],
)
def test_a_table_that_is_not_this_runs_is_refused(tmp_path: Path, content: str,
                                                  message: str) -> None:
    path = tmp_path / "games.csv"
    path.write_text(content)
    with pytest.raises(GamesTableError, match=message), GamesTable(path, total_games=5):
        pass


def test_a_second_writer_is_refused_while_the_first_holds_the_table(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    with GamesTable(path, total_games=2) as table:
        with pytest.raises(RunDirectoryError, match="being written by another run"), \
                GamesTable(path, total_games=2):
            pass
        table.append([row(0)])
    with GamesTable(path, total_games=2) as again:  # released on close
        assert again.finished.tolist() == [True, False]


def test_claim_run_dir_accepts_a_new_or_the_same_run(tmp_path: Path) -> None:
    run = {"games": 10, "seed": 1}
    assert claim_run_dir(tmp_path / "new", run) == {}
    write_meta(tmp_path / "run", {"run": run, "note": "kept"})
    assert claim_run_dir(tmp_path / "run", dict(run))["note"] == "kept"
    assert read_meta(tmp_path / "run")["run"] == run


def test_claim_run_dir_names_what_differs(tmp_path: Path) -> None:
    write_meta(tmp_path, {"run": {"games": 10, "seed": 1, "openings": "none"}})
    with pytest.raises(RunDirectoryError) as caught:
        claim_run_dir(tmp_path, {"games": 20, "seed": 1, "openings": "random:4"})
    message = str(caught.value)
    assert str(tmp_path) in message
    assert 'games 10 there, 20 here' in message
    assert 'openings "none" there, "random:4" here' in message
    assert "seed" not in message


def test_claim_run_dir_refuses_run_files_without_meta(tmp_path: Path) -> None:
    (tmp_path / "games.csv").write_text("game\n")
    with pytest.raises(RunDirectoryError, match=r"games\.csv but no meta\.json"):
        claim_run_dir(tmp_path, {"games": 1})
    assert (tmp_path / "games.csv").read_text() == "game\n"


def test_unreadable_meta_is_refused(tmp_path: Path) -> None:
    (tmp_path / "meta.json").write_text("{not json")
    with pytest.raises(RunDirectoryError, match="cannot read it"):
        claim_run_dir(tmp_path, {})
    (tmp_path / "meta.json").write_text(json.dumps([1, 2]))
    with pytest.raises(RunDirectoryError, match="expected a JSON object"):
        claim_run_dir(tmp_path, {})
