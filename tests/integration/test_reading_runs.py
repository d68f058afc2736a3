"""Every command that reads a run (report, show, export html, analyze, accuracy's games: sets)
and the API's load_games check it as a resume does (``arena.runs.store.reading``): a damaged run is
one line, exit 2, and nothing in it changes; a last line cut short by a kill is left unread,
and nothing is said about it."""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import arena
from arena.runs.store.directory import GamesTable
from arena.runs.store.meta import MetaError, load_meta
from arena.runs.store.reading import NoRunError, load_games, open_run
from arena.runs.store.rows import COLUMNS, GamesTableError
from arena.system.files import write_atomically
from tests.helpers.cli import invoke
from tests.helpers.runs import snapshot

GAMES = 8


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A finished run of eight games on a 4 x 5 board (quick to solve)."""
    out = tmp_path_factory.mktemp("finished") / "run"
    result = invoke("match", "random", "immediate-win", "-n", str(GAMES), "--rows", "4",
                    "--cols", "5", "--seed", "3", "-j", "1", "--out", str(out), "--quiet",
                    "--no-report")
    assert result.exit_code == 0, result.output
    return out


def readers(directory: Path, scratch: Path) -> dict[str, list[str]]:
    """The arguments of every command that reads the run in ``directory`` (what they write
    elsewhere goes under ``scratch``)."""
    return {
        "report": ["report", str(directory)],
        "show": ["show", str(directory), "1"],
        "export": ["export", "html", str(directory), "--out", str(scratch / "page.html")],
        "analyze": ["analyze", str(directory), "--from-ply", "0", "-j", "1", "-q"],
        "accuracy": ["accuracy", "random", "--set", f"games:{directory}", "--out",
                     str(scratch / "accuracy"), "--cache", str(scratch / "cache"), "-j", "1",
                     "-q"],
    }


def damaged(finished: Path, target: Path, damage: Callable[[Path], None]) -> Path:
    """A copy of the finished run, damaged by ``damage``."""
    shutil.copytree(finished, target)
    damage(target)
    return target


def edit_meta(change: Callable[[dict[str, Any]], None]) -> Callable[[Path], None]:
    def damage(directory: Path) -> None:
        data = json.loads((directory / "meta.json").read_text())
        change(data)
        (directory / "meta.json").write_text(json.dumps(data))

    return damage


def edit_row(line: int, column: str, value: str) -> Callable[[Path], None]:
    def damage(directory: Path) -> None:
        rows = list(csv.reader(io.StringIO((directory / "games.csv").read_text())))
        rows[line - 1][COLUMNS.index(column)] = value
        text = io.StringIO()
        csv.writer(text, lineterminator="\n").writerows(rows)
        (directory / "games.csv").write_text(text.getvalue())

    return damage


def torn(directory: Path) -> None:
    """The last line cut short, as by a kill in the middle of a write."""
    text = (directory / "games.csv").read_text()
    (directory / "games.csv").write_text(text[:text.rindex("\n", 0, -1) + 30])


DAMAGES: dict[str, tuple[Callable[[Path], None], str]] = {
    "another seed": (edit_meta(lambda data: data["run"].update(seed=4)),
                     "games.csv, line 2: seed is "),
    "more games": (edit_meta(lambda data: data["run"].update(games=999)),
                   "meta.json: damaged: the run's games is 999, but its description makes it 8"),
    "fewer games": (edit_meta(lambda data: [data["run"].update(games=4),
                                            data["run"]["pairings"][0].__setitem__(2, 4)]),
                    "games.csv, line 6: game '4' is not a game index from 0 to 3"),
    "pairings cut": (edit_meta(lambda data: data["run"].update(
        pairings=[data["run"]["pairings"][0][:2]])), "meta.json: damaged: not enough values"),
    "pairings emptied": (edit_meta(lambda data: data["run"].update(pairings=[])),
                         "meta.json: damaged: a run holds 1 to"),
    "agents emptied": (edit_meta(lambda data: data.update(agents={})),
                       "meta.json: damaged: agent 'random' of the run is not recorded"),
    "adjudication added": (edit_meta(lambda data: data["run"].update(adjudicate=4)),
                           "past this run's adjudication at ply 4"),
    "banana": (edit_row(5, "result", "banana"),
               "games.csv, line 5: result 'banana' is not one of win, draw, loss"),
    "torn in the middle": (edit_row(3, "termination", "boar"),
                           "games.csv, line 3: termination 'boar' is not one of"),
}


READERS = ["report", "show", "export", "analyze", "accuracy"]
CASES = [(damage, "report") for damage in DAMAGES] + [
    (damage, reader) for damage in ("another seed", "agents emptied", "banana")
    for reader in READERS[1:]]
"""Every damage through the report, three kinds of damage through every other reader."""


@pytest.mark.parametrize(("damage", "reader"), CASES)
def test_a_damaged_run_is_refused_by_the_readers_in_one_line(
        finished: Path, tmp_path: Path, damage: str, reader: str) -> None:
    change, problem = DAMAGES[damage]
    directory = damaged(finished, tmp_path / "run", change)
    before = snapshot(directory)
    result = invoke(*readers(directory, tmp_path)[reader])
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("arena: error: ")
    assert problem in result.stderr
    assert snapshot(directory) == before  # nothing written, no lock left
    assert sorted(path.name for path in tmp_path.iterdir()) == ["run"]


@pytest.mark.parametrize("damage", list(DAMAGES))
def test_a_damaged_run_is_refused_by_the_api(finished: Path, tmp_path: Path,
                                             damage: str) -> None:
    change, problem = DAMAGES[damage]
    directory = damaged(finished, tmp_path / "run", change)
    with pytest.raises((MetaError, GamesTableError), match=problem.replace("(", r"\(")):
        load_games(directory / "games.csv")
    with pytest.raises((MetaError, GamesTableError)):
        arena.load_games(str(directory / "games.csv"))


@pytest.mark.slow
def test_a_torn_last_line_is_left_unread_by_every_reader(finished: Path, tmp_path: Path) -> None:
    directory = damaged(finished, tmp_path / "run", torn)
    games_csv = (directory / "games.csv").read_bytes()
    assert not games_csv.endswith(b"\n")
    kept = GAMES - 1
    commands = readers(directory, tmp_path)
    outputs = {}
    for name, args in commands.items():
        result = invoke(*args)
        assert result.exit_code == 0, (name, result.output)
        assert result.stderr == "", name  # nothing said about it: nothing is wrong
        outputs[name] = result.stdout
    assert f"- **games played**: {kept}" in (directory / "report.md").read_text()
    assert f"Wrote {kept} games to" in outputs["export"]
    assert outputs["analyze"].startswith(f"Games       {kept} analysed ({kept} now)")
    assert (directory / "games.csv").read_bytes() == games_csv  # left as it is: not cut
    assert not (directory / ".lock").exists()
    assert len(load_games(directory / "games.csv")) == kept
    result = invoke("show", str(directory), str(kept))
    assert result.exit_code == 2
    assert f"game {kept} is not in {directory}: it holds {kept} game(s)" in result.stderr
    # The run's own command repairs it: the torn game is played again.
    again = invoke("match", "random", "immediate-win", "-n", str(GAMES), "--rows", "4",
                   "--cols", "5", "--seed", "3", "-j", "1", "--out", str(directory),
                   "--quiet", "--no-report")
    assert again.exit_code == 0, again.output
    assert (directory / "games.csv").read_text().splitlines()[:-1] == \
        games_csv.decode().splitlines()[:-1]
    assert len(load_games(directory / "games.csv")) == GAMES


def test_a_torn_last_line_is_left_out_by_the_reader(finished: Path, tmp_path: Path) -> None:
    directory = damaged(finished, tmp_path / "run", torn)
    before = snapshot(directory)
    reading = open_run(directory)
    assert reading.finished.tolist() == [True] * (GAMES - 1) + [False]
    assert [row.game for row in reading.rows()] == list(range(GAMES - 1))
    assert reading.games()["game"].tolist() == list(range(GAMES - 1))
    assert reading.meta == load_meta(directory)
    assert snapshot(directory) == before


def test_a_run_without_a_complete_game_holds_no_games(finished: Path, tmp_path: Path) -> None:
    directory = damaged(finished, tmp_path / "run", lambda path: (path / "games.csv").write_text(
        (path / "games.csv").read_text().splitlines()[0] + "\n0,,1288490188"))
    with pytest.raises(NoRunError, match=r"games\.csv holds no games yet"):
        open_run(directory)


def test_a_games_csv_replaced_while_it_is_read_is_one_error(finished: Path,
                                                           tmp_path: Path) -> None:
    directory = damaged(finished, tmp_path / "run", lambda path: None)
    reading = open_run(directory)
    text = (directory / "games.csv").read_text()
    write_atomically(directory / "games.csv", text)  # a new file, as a run that ends sorts it
    with pytest.raises(GamesTableError, match=r"was replaced while it was read .*; run the "
                                              r"same command again"):
        list(reading.rows())


def test_readers_and_writers_agree_on_the_rows_they_hold(finished: Path) -> None:
    """What a resume counts (GamesTable) is what a reader reads."""
    plan = load_meta(finished).plan()
    with GamesTable(finished / "games.csv", plan) as table:
        assert table.finished.tolist() == open_run(finished).finished.tolist()


def test_a_run_as_it_left_itself_is_read_without_a_new_check(
        finished: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """games.csv and the description are what the run left (their digests in meta.json): the
    rows are trusted; a byte changed in either is checked again, and refused."""
    run = tmp_path / "run"
    shutil.copytree(finished, run)

    def no_check(*args: object) -> None:
        raise AssertionError("checked again")

    monkeypatch.setattr("arena.runs.store.reading.check_games", no_check)
    reading = open_run(run)
    assert reading.finished.sum() == GAMES and len(reading.games()) == GAMES
    meta = run / "meta.json"
    meta.write_text(meta.read_text().replace('"seed": 3', '"seed": 4'))
    with pytest.raises(AssertionError, match="checked again"):
        open_run(run)
    shutil.copy(finished / "meta.json", meta)
    open_run(run)
    with (run / "games.csv").open("a") as games:
        games.write("\n")
    with pytest.raises(AssertionError, match="checked again"):
        open_run(run)
