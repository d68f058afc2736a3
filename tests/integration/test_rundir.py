"""The run directory: claimed under a lock, files written atomically, meta.json checked,
games.csv sorted when a run ends, agents' code fingerprinted, runs extended."""

from __future__ import annotations

import os
import subprocess
from dataclasses import replace
from pathlib import Path

import numpy as np
import pytest

from arena.rules.board import Rules
from arena.runs.planning.description import Pairing, RunDescription
from arena.runs.planning.plan import GameSettings, MatchPlan, match_plan
from arena.runs.planning.request import RunRequest
from arena.runs.playing.batches import AgentCache, play_task
from arena.runs.playing.runner import run_games
from arena.runs.store import directory as directory_module
from arena.runs.store.directory import (
    GamesTable,
    RunDirectory,
    RunDirectoryError,
    check_run,
    complete_length,
    sort_games,
)
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import MetaError, RunMeta, load_meta, write_meta
from arena.runs.store.reading import load_games
from arena.runs.store.rows import COLUMNS, TIMING_COLUMNS, GameRow, games_table
from arena.system.files import write_atomically
from tests.helpers.cli import arena_command, checkout_env
from tests.helpers.runs import LEFTMOST_AGENT


@pytest.mark.parametrize(("content", "kept"), [
    (b"a,b\n1,2\n3,", b"a,b\n1,2\n"), (b"a,b\n1,2\n", b"a,b\n1,2\n"), (b"game,pa", b""),
    (b"", b""), (b"header\n" + b"x" * 200_000, b"header\n"),
])
def test_the_complete_part_ends_at_the_last_newline(tmp_path: Path, content: bytes,
                                                    kept: bytes) -> None:
    path = tmp_path / "games.csv"
    path.write_bytes(content)
    assert complete_length(path) == len(kept)


def _played(plan: MatchPlan, game: int) -> GameRow:
    """Game ``game`` of ``plan``, played as a worker plays it."""
    task = plan.task(game)
    players = plan.players[task.agent_a], plan.players[task.agent_b]
    return play_task(task, players, plan.settings, AgentCache(), [])


def test_a_new_table_gets_the_header_then_rows_as_they_come(tmp_path: Path) -> None:
    plan = match_plan("random", "immediate-win", 4, GameSettings(seed=1))
    rows = [_played(plan, game) for game in (3, 0)]
    path = tmp_path / "games.csv"
    with GamesTable(path, plan) as table:
        assert not table.finished.any()
        table.append(rows)
        assert table.finished.tolist() == [True, False, False, True]
    lines = path.read_text().splitlines()
    assert lines[0] == ",".join(COLUMNS)
    assert [line.split(",")[0] for line in lines[1:]] == ["3", "0"]
    with GamesTable(path, plan) as again:  # reopened: the rows are checked and counted
        assert again.finished.tolist() == [True, False, False, True]


def test_error_messages_stay_on_one_line(tmp_path: Path) -> None:
    plan = match_plan("random", "immediate-win", 1, GameSettings(seed=1))
    row = _played(plan, 0)
    with GamesTable(tmp_path / "games.csv", plan) as table:
        table.append([row._replace(error='ValueError: bad\nthing, "x"')])
    assert (tmp_path / "games.csv").read_text().count("\n") == 2
    assert games_table(tmp_path / "games.csv")["error"][0] == 'ValueError: bad thing, "x"'


def test_a_directory_is_claimed_by_one_process_at_a_time(tmp_path: Path) -> None:
    with RunDirectory(tmp_path / "run"), pytest.raises(RunDirectoryError,
                                                       match="in use by another run"), \
            RunDirectory(tmp_path / "run"):
        pass
    with RunDirectory(tmp_path / "run"):  # released at the end of the block
        pass


def test_a_directory_created_for_nothing_is_removed(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="boom"), RunDirectory(tmp_path / "new"):
        raise ValueError("boom")
    assert not (tmp_path / "new").exists()


def test_two_commands_started_at_once_on_one_directory(tmp_path: Path) -> None:
    """One of them claims it; the other gets one line; meta.json and games.csv agree."""
    env = checkout_env()
    out = tmp_path / "run"
    commands = [arena_command("match", "random", "random", "-n", "300", "--seed", str(seed),
                              "-j", "1", "--quiet", "--no-report", "--out", str(out))
                for seed in (1, 2)]
    processes = [subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for command in commands]
    results = [(process.wait(120), *process.communicate()) for process in processes]
    winners = [seed for seed, (code, _, _) in zip((1, 2), results, strict=True) if code == 0]
    assert len(winners) == 1
    [(code, _, stderr)] = [result for result in results if result[0] != 0]
    assert code == 2 and stderr.count("\n") == 1 and stderr.startswith("arena: error: ")
    meta = load_meta(out)
    assert meta.seed == winners[0]
    games = load_games(out / "games.csv")
    assert games["seed"].tolist() == [(winners[0] << 32) + game for game in range(300)]
    assert not list(out.glob(".*.tmp"))  # no temporary file left behind


def test_atomic_writes_use_a_fresh_temporary_name_each(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    sources: list[str] = []
    replace = os.replace
    monkeypatch.setattr(os, "replace", lambda a, b: (sources.append(str(a)), replace(a, b)))
    for text in ("one", "two"):
        write_atomically(RunFiles(tmp_path).meta, text)
    assert RunFiles(tmp_path).meta.read_text() == "two"
    assert len(set(sources)) == 2 and all(Path(s).parent == tmp_path for s in sources)
    assert [p.name for p in tmp_path.iterdir()] == [RunFiles.META]


@pytest.mark.parametrize(("content", "problem"), [
    (b"{not json", "cannot read it"),
    (b"[1, 2]", "damaged: expected a JSON object"),
    (b'{"run": {}, "agents": {}}', "damaged: no 'sessions' list"),
    (b'{"run": [], "agents": {}, "sessions": []}', "damaged: no 'run' dict"),
    (b'{"run": {}, "agents": {}, "sessions": []}', "damaged: no 'board' in it"),
    (b"\xff\xfe{}", "cannot read it"),
])
def test_a_damaged_meta_json_is_one_error(tmp_path: Path, content: bytes,
                                          problem: str) -> None:
    RunFiles(tmp_path).meta.write_bytes(content)
    with pytest.raises(MetaError, match=problem):
        load_meta(tmp_path)


def test_meta_json_reads_back_as_it_was_written(tmp_path: Path) -> None:
    """The typed record gives the same file again, its board, seed and plan read once."""
    plan = match_plan("random", "immediate-win", 4, GameSettings(seed=3), "random:2")
    run_games(plan, tmp_path, RunRequest(jobs=1))
    text = RunFiles(tmp_path).meta.read_text()
    meta = load_meta(tmp_path)
    assert isinstance(meta, RunMeta) and (meta.seed, meta.games) == (3, 4)
    assert meta.rules == plan.settings.rules and meta.plan().describe() == plan.describe()
    assert meta.agents["immediate-win"].fingerprint.startswith("connect-four-arena ")
    assert meta.summary is not None and meta.ended is not None
    assert load_meta(str(tmp_path)) == meta  # a path given as text, as notebooks give it
    write_meta(tmp_path, meta)
    assert RunFiles(tmp_path).meta.read_text() == text


def test_a_run_whose_agent_record_is_lost_is_refused(tmp_path: Path) -> None:
    run_games(match_plan("random", "immediate-win", 2, GameSettings()), tmp_path,
              RunRequest(jobs=1))
    path = RunFiles(tmp_path).meta
    path.write_text(path.read_text().replace('"immediate-win": {', '"someone-else": {'))
    with pytest.raises(MetaError, match="agent 'immediate-win' of the run is not recorded"):
        load_meta(tmp_path)


def test_check_run_names_what_differs_and_accepts_a_larger_run(tmp_path: Path) -> None:
    old = RunDescription((Pairing("a", "b", 10),), 10, 1, Rules())
    check_run(tmp_path, old, replace(old))
    check_run(tmp_path, old, replace(old, pairings=(Pairing("a", "b", 20),), games=20))
    check_run(tmp_path, old.to_json(), {**old.to_json(), "pairings": [["a", "b", 20, "alternate"]],
                                        "games": 20})  # meta.json's objects as well
    for new in (replace(old, seed=2, openings="random:4"),
                {**old.to_json(), "seed": 2, "openings": "random:4"}):
        with pytest.raises(RunDirectoryError) as caught:
            check_run(tmp_path, old, new)
        message = str(caught.value)
        assert message == (f"{tmp_path} holds a different run (openings \"none\" there, "
                           "\"random:4\" here; seed 1 there, 2 here); give another --out or "
                           "remove that directory")
    with pytest.raises(RunDirectoryError, match=r"\(games 10 there, 5 here; pairings .*\); give "
                       "more games to extend it, another --out, or remove that directory"):
        check_run(tmp_path, old, replace(old, pairings=(Pairing("a", "b", 5),), games=5))


def test_sort_games_leaves_a_sorted_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "games.csv"
    path.write_text("game,x\n2,c\n0,a\n1,b\n")
    sort_games(path)
    assert path.read_text() == "game,x\n0,a\n1,b\n2,c\n"
    inode = path.stat().st_ino
    sort_games(path)
    assert path.stat().st_ino == inode  # not rewritten


def test_sort_games_in_pieces_orders_every_line_by_its_game(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Lines scanned and written a few at a time (as a large file is): every line once, in the
    order of its game index, whatever its number of digits."""
    monkeypatch.setattr(directory_module, "SCAN_BYTES", 64)
    monkeypatch.setattr(directory_module, "SORTED_LINES", 7)
    games = np.random.default_rng(4).permutation(1234)
    lines = [f"{game},{'x' * (game % 13)},\"a, b\"\n" for game in games]
    path = tmp_path / "games.csv"
    path.write_text("game,text,quoted\n" + "".join(lines))
    sort_games(path)
    assert path.read_text() == "game,text,quoted\n" + "".join(
        sorted(lines, key=lambda line: int(line.split(",")[0])))


def test_the_same_command_gives_the_same_bytes_but_for_the_timings(tmp_path: Path) -> None:
    plan = match_plan("random", "immediate-win", 60, GameSettings(seed=3), "random:2")
    for name, jobs in (("one", 1), ("two", 2)):
        run_games(plan, tmp_path / name, RunRequest(jobs=jobs))

    def without_timing(name: str) -> list[list[str]]:
        lines = (tmp_path / name / "games.csv").read_text().splitlines()
        drop = [COLUMNS.index(column) for column in TIMING_COLUMNS]
        return [[cell for i, cell in enumerate(line.split(",")) if i not in drop]
                for line in lines]

    assert without_timing("one") == without_timing("two")
    assert [row[0] for row in without_timing("two")[1:]] == [str(g) for g in range(60)]


def test_an_agent_whose_code_changed_is_refused_unless_allowed(tmp_path: Path) -> None:
    source = tmp_path / "mine.py"
    source.write_text(LEFTMOST_AGENT)
    small = match_plan(f"{source}:Leftmost", "random", 2, GameSettings(seed=1))
    large = match_plan(f"{source}:Leftmost", "random", 4, GameSettings(seed=1))
    run_games(small, tmp_path / "run")
    source.write_text(LEFTMOST_AGENT + "# tuned\n")
    with pytest.raises(RunDirectoryError, match=r"code of agent .*mine\.py:Leftmost' changed"):
        run_games(large, tmp_path / "run")
    assert len(load_games(tmp_path / "run" / "games.csv")) == 2  # nothing played
    assert run_games(large, tmp_path / "run", RunRequest(allow_changed_agents=True)).played == 2
    session = load_meta(tmp_path / "run").sessions[-1]
    [(before, after)] = session["changed_agents"].values()
    assert before != after and after.startswith("sha256 ")
