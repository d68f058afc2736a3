"""The ladder's database: finished runs added once, anchors held by every fit, files that are not
ladders refused in one line, and writers in several processes at once losing nothing."""

from __future__ import annotations

import dataclasses
import re
import shutil
import sqlite3
import subprocess
from pathlib import Path

import pandas as pd
import pytest

from arena.competitions.ladder.adding import add_run
from arena.competitions.ladder.fit import refit
from arena.competitions.ladder.store import LadderError, open_ladder
from arena.competitions.ladder.tables import standings
from arena.competitions.tournaments import run_tournament, tournament_plan
from arena.rules.board import Rules
from arena.runs.planning.request import RunRequest
from arena.runs.playing.runner import run_games
from arena.runs.store.files import RunFiles
from tests.helpers.cli import arena, arena_command, checkout_env
from tests.helpers.runs import plan_of

SMALL = Rules(rows=5, cols=6)
REQUEST = RunRequest(rules=SMALL, jobs=1, progress=False)


def play(a: str, b: str, games: int, directory: Path, seed: int = 5) -> Path:
    """A finished match of ``games`` games on the small board in ``directory``."""
    run_games(plan_of(a, b, games, seed=seed, rules=SMALL), directory, REQUEST)
    return directory


def game_count(db: Path) -> int:
    with open_ladder(db) as ladder:
        return int(ladder.connection.execute("SELECT count(*) FROM games").fetchone()[0])


@pytest.mark.slow
def test_adding_a_run_twice_adds_nothing(tmp_path: Path) -> None:
    run = play("random", "immediate-win", 10, tmp_path / "run")
    db = tmp_path / "ladder.sqlite"
    with open_ladder(db) as ladder:
        assert add_run(ladder, run).new_games == 10
        assert add_run(ladder, run).new_games == 0
    assert game_count(db) == 10
    code, out = arena("ladder", "add", str(run), "--db", str(db))
    assert code == 0 and "0 new of 10 games" in out
    assert game_count(db) == 10


@pytest.mark.slow
def test_an_unfinished_run_is_refused(tmp_path: Path) -> None:
    run = play("random", "immediate-win", 10, tmp_path / "run")
    games = run / "games.csv"
    games.write_text("".join(games.read_text().splitlines(keepends=True)[:-3]))
    code, out = arena("ladder", "add", str(run), "--db", str(tmp_path / "ladder.sqlite"))
    assert code == 2
    assert out.strip().endswith("the run is not finished (7 of 10 games); finish it by "
                                "running its command again")


@pytest.mark.slow
def test_files_that_are_not_ladders_are_one_line_errors(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all, but long enough to be read as one\n" * 20)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as connection:
        connection.execute("CREATE TABLE things (x)")
    damaged = tmp_path / "damaged.sqlite"
    play("random", "immediate-win", 10, tmp_path / "run")
    arena("ladder", "add", str(tmp_path / "run"), "--db", str(damaged))
    data = damaged.read_bytes()
    damaged.write_bytes(data[:100] + b"\xff" * 4000 + data[4100:])
    for path, reason in ((text, "not a ladder file"), (other, "another program"),
                         (damaged, "damaged")):
        code, out = arena("ladder", "show", "--db", str(path))
        assert code == 2, out
        assert out.count("\n") == 1 and out.startswith("arena: error: ") and reason in out


@pytest.mark.slow
def test_anchors_are_held_by_every_fit(tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    plan = tournament_plan(["random", "immediate-win", "negamax:depth=2"], 20, REQUEST)
    run_tournament(plan, reference, REQUEST)
    db = tmp_path / "ladder.sqlite"
    code, out = arena("ladder", "anchor", str(reference), "--db", str(db))
    assert code == 0, out
    with open_ladder(db) as ladder:
        before = standings(ladder.connection, "5x6c4").set_index("agent")["rating"]
        assert before["random"] == 0.0
        add_run(ladder, play("negamax:depth=1", "immediate-win", 20, tmp_path / "new"))
        refit(ladder, "5x6c4", bootstrap=20)
        after = standings(ladder.connection, "5x6c4").set_index("agent")
        assert after.loc[before.index, "rating"].tolist() == before.tolist()
        assert "negamax:depth=1" in after.index and not after.loc["negamax:depth=1", "anchor"]
    code, out = arena("ladder", "anchor", str(reference), "--db", str(db))
    assert code == 0, out  # the same run again: the same anchors, no new game
    assert game_count(db) == 3 * 20 + 20
    other = tmp_path / "other-reference"
    run_tournament(tournament_plan(["random", "immediate-win", "negamax:depth=2"], 20,
                                   dataclasses.replace(REQUEST, seed=7)), other, REQUEST)
    code, out = arena("ladder", "anchor", str(other), "--db", str(db))
    assert code == 2 and "are fixed already" in out


@pytest.mark.slow
def test_export_writes_csv_and_a_self_contained_page(tmp_path: Path) -> None:
    db = tmp_path / "ladder.sqlite"
    arena("ladder", "add", str(play("random", "immediate-win", 10, tmp_path / "one")),
          "--db", str(db))
    arena("ladder", "add", str(play("random", "immediate-win", 10, tmp_path / "two", seed=6)),
          "--db", str(db))
    code, out = arena("ladder", "export", "--db", str(db), "-o", str(tmp_path / "site"))
    assert code == 0, out
    page = (tmp_path / "site" / "ladder.html").read_text()
    assert "<script" not in page and "src=" not in page and "href=" not in page
    assert page.count("<svg") == 2 and page.count("<polyline") == 2  # each agent's history
    csv = (tmp_path / "site" / "ladder.csv").read_text().splitlines()
    assert csv[0].startswith("board,rank,agent,fingerprint,anchor,rating,low,high")
    agents = [line.split(",")[2] for line in csv[1:]]  # the shipped anchors, best first
    assert len(agents) == 10 and agents[0] == "solver"
    assert agents[-2:] == ["immediate-win", "random"]


@pytest.mark.slow
def test_writers_in_several_processes_at_once_lose_nothing(tmp_path: Path) -> None:
    runs = [play("random", "immediate-win", 20, tmp_path / f"run{i}", seed=i) for i in range(4)]
    db = tmp_path / "ladder.sqlite"
    children = [subprocess.Popen(arena_command("ladder", "add", str(run), str(runs[0]),
                                               "--db", str(db)),
                                 env=checkout_env(), stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, text=True)
                for run in runs]
    outputs = [child.communicate()[0] for child in children]
    assert [child.returncode for child in children] == [0] * 4, outputs
    assert game_count(db) == 80  # four runs of 20 games, the first added by every process
    with open_ladder(db) as ladder:
        fits = ladder.connection.execute("SELECT count(*) FROM fits").fetchone()[0]
    assert fits >= 1


def test_a_missing_directory_is_one_line_and_makes_no_ladder(tmp_path: Path) -> None:
    for command in ("add", "anchor"):
        code, out = arena("ladder", command, str(tmp_path / "nowhere"), "--db",
                          str(tmp_path / "ladder.sqlite"))
        assert code == 2 and out.count("\n") == 1
    assert not (tmp_path / "ladder.sqlite").exists()


def test_a_ladder_that_is_a_directory_is_refused(tmp_path: Path) -> None:
    with pytest.raises(LadderError, match="not a ladder file"):
        open_ladder(tmp_path)


def anchored_ladder(tmp_path: Path, name: str) -> Path:
    """A ladder file whose 5 x 6 anchors random, immediate-win and negamax:depth=2 are fixed
    from one small reference round robin (played once per test)."""
    reference = tmp_path / "reference"
    if not reference.is_dir():
        plan = tournament_plan(["random", "immediate-win", "negamax:depth=2"], 40, REQUEST)
        run_tournament(plan, reference, REQUEST)
    db = tmp_path / name
    assert arena("ladder", "anchor", str(reference), "--db", str(db))[0] == 0
    return db


def moves_of(run: Path) -> pd.DataFrame:
    """A run's games without their timings."""
    games = pd.read_csv(run / "games.csv")
    return games.drop(columns=[c for c in games.columns if c.startswith("time")])


@pytest.mark.slow
def test_a_placement_cut_mid_step_finishes_that_step_first(tmp_path: Path) -> None:
    place = ("ladder", "place", "immediate-win:block=true", "--rows", "5", "--cols", "6",
             "--target", "120", "--batch", "20", "-j", "1", "--seed", "3")
    whole = anchored_ladder(tmp_path, "whole.sqlite")
    code, out = arena(*place, "--db", str(whole), "--out", str(tmp_path / "whole"))
    assert code == 0, out
    steps = sorted(path.name for path in (tmp_path / "whole").iterdir())
    # the same placement, its first step cut after 7 of its 20 games (as a kill leaves it)
    cut = tmp_path / "cut"
    shutil.copytree(tmp_path / "whole" / steps[0], cut / steps[0])
    games = cut / steps[0] / "games.csv"
    games.write_text("".join(games.read_text().splitlines(keepends=True)[:8]))
    db = anchored_ladder(tmp_path, "cut.sqlite")
    code, again = arena(*place, "--db", str(db), "--out", str(cut))
    assert code == 0, again
    assert again.splitlines()[0].startswith("Placing immediate-win:block=true on board 5x6c4")
    assert again.splitlines()[1].startswith(f"13 games against {steps[0][7:]}:")
    assert sorted(path.name for path in cut.iterdir()) == steps
    for step in steps:
        pd.testing.assert_frame_equal(moves_of(cut / step), moves_of(tmp_path / "whole" / step))
    assert game_count(db) == game_count(whole)
    [first] = [line for line in out.splitlines() if "target ±" in line]
    [second] = [line for line in again.splitlines() if "target ±" in line]
    assert first.split(" on board")[0] == second.split(" on board")[0]  # the same rating
    played = int(re.search(r"(\d+) of them played now", first)[1])  # type: ignore[index]
    assert f"{played - 7} of them played now" in second
    # killed just after the second step's folder was made: it holds a stale lock, no more
    assert len(steps) > 1
    stale = tmp_path / "stale"
    db = anchored_ladder(tmp_path, "stale.sqlite")
    code, out = arena(*place, "--db", str(db), "--out", str(stale), "--max-games", "20")
    assert code == 0 and sorted(path.name for path in stale.iterdir()) == steps[:1], out
    (stale / steps[1]).mkdir()
    RunFiles(stale / steps[1]).lock.touch()
    code, out = arena(*place, "--db", str(db), "--out", str(stale))
    assert code == 0, out
    assert sorted(path.name for path in stale.iterdir()) == steps
    for step in steps:
        pd.testing.assert_frame_equal(moves_of(stale / step), moves_of(tmp_path / "whole" / step))


@pytest.mark.slow
def test_a_placement_plays_the_nearest_anchors_until_its_interval_is_narrow(
        tmp_path: Path) -> None:
    reference = tmp_path / "reference"
    plan = tournament_plan(["random", "immediate-win", "negamax:depth=2"], 40, REQUEST)
    run_tournament(plan, reference, REQUEST)
    db = tmp_path / "ladder.sqlite"
    arena("ladder", "anchor", str(reference), "--db", str(db))
    place = ("ladder", "place", "immediate-win:block=true", "--db", str(db), "--rows", "5",
             "--cols", "6", "--target", "120", "--batch", "20", "-j", "1", "--out",
             str(tmp_path / "placed"))
    code, out = arena(*place)
    assert code == 0, out
    steps = sorted(path.name for path in (tmp_path / "placed").iterdir())
    # the estimate starts at the median anchor (immediate-win): at or below it first, then above
    assert steps[:2] == ["000-vs-immediate-win", "001-vs-negamax_depth=2"]
    assert "target ± 120 reached" in out
    with open_ladder(db) as ladder:
        table = standings(ladder.connection, "5x6c4").set_index("agent")
        played = ladder.connection.execute("SELECT count(*) FROM games").fetchone()[0]
    assert table.loc["immediate-win:block=true", "games"] == 20 * len(steps)
    code, again = arena(*place)  # the interval is narrow already: nothing new is played
    assert code == 0
    [first] = [line for line in out.splitlines() if "target ±" in line]
    [second] = [line for line in again.splitlines() if "target ±" in line]
    assert f"{20 * len(steps)} of them played now" in first and "0 of them played now" in second
    assert first.split(" on board")[0] == second.split(" on board")[0]  # same games, same rating
    with open_ladder(db) as ladder:
        assert ladder.connection.execute("SELECT count(*) FROM games").fetchone()[0] == played
    code, out = arena("ladder", "place", "random", "--db", str(db), "--rows", "5", "--cols", "6")
    assert (code, out) == (2, "arena: error: random is an anchor of board 5x6c4: its rating "
                              "is fixed\n")


@pytest.mark.slow
def test_an_agent_that_wins_every_game_is_placed_above_the_anchors_it_beat(
        tmp_path: Path) -> None:
    db = anchored_ladder(tmp_path, "ladder.sqlite")
    code, out = arena("ladder", "place", "solver", "--db", str(db), "--rows", "5", "--cols",
                      "6", "--batch", "10", "--max-games", "30", "-j", "1", "--out",
                      str(tmp_path / "placed"))
    assert code == 0, out
    steps = sorted(path.name for path in (tmp_path / "placed").iterdir())
    # perfect play sweeps the median anchor, then moves up to the strongest and stays there
    assert steps == ["000-vs-immediate-win", "001-vs-negamax_depth=2", "002-vs-negamax_depth=2"]
    lines = out.splitlines()[1:]  # after the line saying what is to be played
    assert lines[0].startswith("10 games against immediate-win: +") and lines[0].endswith(
        ", +inf] after 10 games")
    assert "target ± 30 not reached" in out
    with open_ladder(db) as ladder:
        table = standings(ladder.connection, "5x6c4").set_index("agent")
    anchors = table[table["anchor"].astype(bool)]
    assert table.loc["solver", "rating"] > anchors["rating"].max()
    assert table.loc["solver", "score"] == 1.0
