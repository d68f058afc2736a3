"""The anchors that come with the arena: the shipped table is what the committed reference
runs fix, `arena ladder show` reads it where there is no ladder, and `arena ladder place`
takes it into a ladder (made if needed) from any directory; other boards need their own."""

from __future__ import annotations

import math
import sqlite3
from pathlib import Path

import pytest

from arena.competitions.ladder.adding import finished_run
from arena.competitions.ladder.anchors import (
    anchor_table,
    anchored_ladder,
    shipped_anchors,
    shipped_ladder,
)
from arena.competitions.ladder.store import LadderError, board_key, open_ladder
from arena.competitions.ladder.tables import standings
from arena.rules.board import Rules
from arena.runs.planning.request import RunRequest
from arena.runs.playing.runner import run_games
from arena.runs.store.meta import load_meta
from tests.helpers.cli import arena
from tests.helpers.paths import ROOT
from tests.helpers.runs import plan_of


def anchors_in(db: Path, board: str) -> dict[str, float]:
    with sqlite3.connect(db) as connection:
        return dict(connection.execute("SELECT name, rating FROM anchors WHERE board = ?",
                                       (board,)).fetchall())


def shipped_ratings(board: str) -> dict[str, float]:
    shipped = shipped_anchors()
    ours = shipped[shipped["board"] == board]
    return dict(zip(ours["agent"], ours["rating"], strict=True))


@pytest.mark.slow
def test_the_shipped_anchors_are_what_the_committed_reference_runs_fix() -> None:
    """Every committed reference run is shipped, each board's rows as `arena ladder anchor`
    rates that run (anchor_table is fix_anchors' own): the table cannot drift from the runs."""
    shipped = shipped_anchors()
    committed = sorted(path.relative_to(ROOT).as_posix()
                       for path in (ROOT / "results" / "ladder").glob("reference-*"))
    assert sorted(set(shipped["source"])) == committed
    assert set(shipped["board"]) >= {"5x6c4", "6x7c4"}
    for source, rows in shipped.groupby("source"):
        board, table = anchor_table(finished_run(ROOT / str(source)))
        assert set(rows["board"]) == {board}
        assert rows["agent"].tolist() == table["agent"].tolist()
        for column in ("rating", "low", "high"):
            assert all(math.isclose(a, b, rel_tol=0, abs_tol=1e-6)
                       for a, b in zip(rows[column], table[column], strict=True)), column


def test_show_reads_the_shipped_anchors_where_there_is_no_ladder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = arena("ladder", "show")
    assert code == 0, out
    assert out.startswith("No ladder at results/ladder/ladder.sqlite yet: the anchors that "
                          "come with the arena")
    assert "Board 5x6c4 (Elo" in out and "Board 6x7c4 (Elo" in out
    solver = round(shipped_ratings("6x7c4")["solver"])
    assert f"  1  solver (anchor)                    +{solver}  [" in out
    assert list(tmp_path.iterdir()) == []  # a reader writes nothing
    with shipped_ladder() as ladder:
        table = standings(ladder.connection, "5x6c4")
    assert table["anchor"].all() and (table["games"] == 0).all()
    assert dict(zip(table["agent"], table["rating"], strict=True)) == shipped_ratings("5x6c4")


def test_a_ladder_without_anchors_for_a_board_takes_the_shipped_ones_once(
        tmp_path: Path) -> None:
    db = tmp_path / "ladder.sqlite"
    ladder, taken = anchored_ladder(db, "6x7c4")
    ladder.close()
    assert taken == "results/ladder/reference-6x7"
    assert anchors_in(db, "6x7c4") == shipped_ratings("6x7c4")
    assert anchors_in(db, "5x6c4") == {}  # only the board asked for
    ladder, taken = anchored_ladder(db, "6x7c4")
    ladder.close()
    assert taken is None


def test_a_board_with_no_anchors_anywhere_is_refused_before_a_ladder_is_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out = arena("ladder", "place", "negamax:depth=3", "--rows", "4", "--cols", "5")
    assert (code, out) == (2, "arena: error: board 4x5c4 has no anchors yet (the arena ships "
                              "those of 5x6c4 and 6x7c4); fix them from a reference run with "
                              "arena ladder anchor DIR\n")
    code, out = arena("ladder", "place", "negamx:depth=3", "--rows", "5", "--cols", "6")
    assert code == 2 and "did you mean 'negamax:depth=3'" in out
    assert list(tmp_path.iterdir()) == []
    with open_ladder(tmp_path / "mine.sqlite") as ladder, pytest.raises(
            LadderError, match="board 4x5c4 has no anchors yet"):
        anchored_ladder(ladder.path, "4x5c4")


@pytest.mark.slow
def test_place_works_from_any_directory_on_the_shipped_anchors(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """In a directory with no ladder: the ladder is made with the shipped anchors, the agent
    placed against them; anchoring the very reference run they come from then only adds its
    games."""
    monkeypatch.chdir(tmp_path)
    code, out = arena("ladder", "place", "negamax:depth=1", "--rows", "5", "--cols", "6",
                      "--target", "150", "--batch", "10", "-j", "1")
    assert code == 0, out
    db = Path("results/ladder/ladder.sqlite")
    assert out.splitlines()[0] == (f"{db}: board 5x6c4 takes the anchors that come with the "
                                   "arena (arena ladder show lists them)")
    assert "negamax:depth=1: +" in out and "on board 5x6c4" in out and "target ± 150" in out
    assert anchors_in(db, "5x6c4") == shipped_ratings("5x6c4")
    code, shown = arena("ladder", "show")
    assert code == 0 and not shown.startswith("No ladder")
    assert "Board 5x6c4" in shown and "Board 6x7c4" not in shown


@pytest.mark.slow
def test_anchoring_the_shipped_reference_run_adds_its_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    ladder, taken = anchored_ladder(Path("ladder.sqlite"), "5x6c4")
    ladder.close()
    assert taken is not None
    code, out = arena("ladder", "anchor", str(ROOT / taken), "--db", "ladder.sqlite")
    assert code == 0, out
    assert anchors_in(Path("ladder.sqlite"), "5x6c4") == shipped_ratings("5x6c4")
    with open_ladder("ladder.sqlite") as ladder:
        games = ladder.connection.execute("SELECT count(*) FROM games").fetchone()[0]
    assert games == 18_000


@pytest.mark.slow
def test_placements_on_two_boards_keep_apart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The default folder of a placement names its board; in one --out, the cap counts the
    games of the agent on the board placed on, not those of another board."""
    monkeypatch.chdir(tmp_path)
    place = ("ladder", "place", "negamax:depth=1", "--batch", "10", "--max-games",
             "10", "-j", "1")
    boards = (("--rows", "5", "--cols", "6"), ())
    for board in boards:
        code, out = arena(*place, *board)
        assert code == 0, out
        assert "10 of them played now" in out
    placements = Path("results/ladder/placements")
    assert sorted(path.name for path in placements.iterdir()) == [
        "negamax_d1_5x6c4_seed42", "negamax_d1_6x7c4_seed42"]
    for board in boards:
        code, out = arena(*place, *board, "--db", "shared.sqlite", "--out", "shared")
        assert code == 0, out
        assert "10 of them played now" in out
    steps = sorted(Path("shared").iterdir())
    assert [path.name[:3] for path in steps] == ["000", "001"]
    assert [board_key(load_meta(step).rules) for step in steps] == ["5x6c4", "6x7c4"]


@pytest.mark.slow
def test_add_takes_the_shipped_anchors_of_a_board_that_has_none(tmp_path: Path) -> None:
    """A run of 5 x 6 added to a new ladder is rated against the shipped anchors; one of
    4 x 5 (none shipped) is rated within its field, and its standings say so."""
    runs = []
    for rules, opponent in ((Rules(rows=5, cols=6), "immediate-win"),
                            (Rules(rows=4, cols=5), "random")):
        runs.append(tmp_path / board_key(rules))
        run_games(plan_of("negamax:depth=1", opponent, 10, rules=rules), runs[-1],
                  RunRequest(rules=rules, jobs=1, progress=False))
    db = tmp_path / "ladder.sqlite"
    code, out = arena("ladder", "add", *map(str, runs), "--db", str(db))
    assert code == 0, out
    assert out.splitlines()[0] == (f"{db}: board 5x6c4 takes the anchors that come with the "
                                   f"arena (arena ladder show --db {db} lists them)")
    assert anchors_in(db, "5x6c4") == shipped_ratings("5x6c4")
    assert anchors_in(db, "4x5c4") == {}
    assert "Board 5x6c4 (Elo; anchors fixed; 95% bootstrap intervals):" in out
    assert ("Board 4x5c4 (Elo; no anchors: relative to this field, random = 0; 95% "
            "bootstrap intervals):") in out
    with open_ladder(db) as ladder:
        table = standings(ladder.connection, "5x6c4").set_index("agent")
    assert table.loc["immediate-win", "rating"] == shipped_ratings("5x6c4")["immediate-win"]
    assert math.isfinite(table.loc["negamax:depth=1", "to_perfect"])
