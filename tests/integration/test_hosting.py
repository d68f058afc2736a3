"""Hosting: a misbehaving agent costs one game, never the run (tests/data/hosting_agents.py)."""

from __future__ import annotations

import faulthandler
import os
import signal
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from arena.hosting.process import ProcessHost
from arena.protocol.players import canonical_player
from arena.rules.errors import AgentSpecError
from arena.runs.planning.plan import GameBatch, GameSettings, MatchPlan, Pairing, match_plan
from arena.runs.planning.request import RunRequest
from arena.runs.playing import crashes
from arena.runs.playing.batches import AgentCache, BatchResult, play_steps
from arena.runs.playing.pool import HELD_BATCHES, BatchSizer, LocalPool, batches
from arena.runs.playing.runner import run_games
from arena.runs.store.files import RunFiles
from arena.runs.store.reading import load_games
from tests.helpers.cli import arena_command, checkout_env, invoke
from tests.helpers.paths import DATA
from tests.helpers.processes import MARK, is_running, marked, running_in_group, wait_for

AGENTS = DATA / "hosting_agents.py"


def agent(name: str) -> str:
    return f"{AGENTS}:{name}"


def plan_of(a: str, b: str, games: int, time_per_move: float | None = None,
            time_bank: float | None = None, hosting: str = "auto") -> MatchPlan:
    settings = GameSettings(seed=3, time_per_move=time_per_move, time_bank=time_bank,
                            hosting=hosting)  # type: ignore[arg-type]
    return match_plan(a, b, games, settings)


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_hang_under_a_limit_is_a_time_forfeit_and_the_run_ends(tmp_path: Path,
                                                                  jobs: int) -> None:
    began = time.monotonic()
    run = run_games(plan_of(agent("Hangs"), agent("Leftmost"), 4, time_per_move=0.2),
                    tmp_path, RunRequest(jobs=jobs))
    assert time.monotonic() - began < 30  # it used to never end
    games = load_games(tmp_path / "games.csv")
    assert games["termination"].tolist() == ["time_forfeit"] * 4
    assert games["result"].tolist() == ["loss"] * 4
    assert set(games["error"]) == {"no answer within 0.3 s to a move; the agent's process was "
                                   "stopped"}
    assert run.summaries[0].forfeits[("time_forfeit", "a")] == 4


@pytest.mark.slow
def test_a_long_sleep_is_cut_at_the_limit_not_waited_for(tmp_path: Path) -> None:
    plan = plan_of(agent("Sleeps:seconds=600"), agent("Leftmost"), 1, time_per_move=0.05)
    began = time.monotonic()
    run_games(plan, tmp_path)
    assert time.monotonic() - began < 300  # no load explains half of the sleep: not waited for
    games = load_games(tmp_path / "games.csv")
    assert games["termination"][0] == "time_forfeit"
    assert games["error"][0].startswith("no answer within 0.15 s to a move")


@pytest.mark.parametrize("hosting", ["auto", "inline"])
@pytest.mark.parametrize(("name", "error"), [
    ("Exits:code=0", "SystemExit: 0"),
    ("Exits:code=1", "SystemExit: 1"),
    ("Interrupts", "KeyboardInterrupt"),
])
def test_exits_and_interrupts_raised_by_an_agent_are_its_errors(tmp_path: Path, hosting: str,
                                                                name: str, error: str) -> None:
    run = run_games(plan_of(agent(name), "random", 4, hosting=hosting), tmp_path)
    games = load_games(tmp_path / "games.csv")
    assert games["termination"].tolist() == ["agent_error"] * 4
    assert games["error"].tolist() == [error] * 4
    assert run.summaries[0].losses == 4 and (tmp_path / "summary.csv").exists()


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_an_agent_process_that_dies_is_an_agent_crash(tmp_path: Path, jobs: int) -> None:
    run_games(plan_of("random", agent("HardExits"), 6), tmp_path, RunRequest(jobs=jobs))
    games = load_games(tmp_path / "games.csv")
    assert games["termination"].tolist() == ["agent_crash"] * 6
    assert set(games["error"]) == {"the agent's process exited with status 3"}
    assert games["result"].tolist() == ["win"] * 6


@pytest.mark.parametrize("hosting", ["auto", "inline"])
def test_a_constructor_that_fails_is_one_line_before_any_game(tmp_path: Path,
                                                              hosting: str) -> None:
    spec = agent("BadConstructor")
    result = invoke("match", spec, "random", "-n", "4", "--hosting", hosting,
                    "--out", str(tmp_path / "run"))
    assert result.exit_code == 2
    assert result.stderr == (f"arena: error: agent spec {spec!r}: could not build the agent: "
                             "RuntimeError: no weights file\n")
    assert not (tmp_path / "run" / "games.csv").exists()


def test_a_constructor_that_fails_only_in_a_worker_forfeits_those_games(tmp_path: Path) -> None:
    spec = agent(f"BuildsOnce:marker={tmp_path / 'built'}")
    run_games(plan_of(spec, agent("Leftmost"), 8), tmp_path / "run", RunRequest(jobs=2))
    games = load_games(tmp_path / "run" / "games.csv")
    failed = games[games["termination"] == "agent_error"]
    assert 0 < len(failed) < 8  # the worker's games; this process built it before the run
    assert set(failed["error"]) == {
        "new_game: could not build the agent: RuntimeError: missing on this worker"}
    assert set(failed["plies"]) == {0}


@pytest.mark.parametrize("hosting", ["auto", "inline"])
@pytest.mark.parametrize("clear", [False, True])
def test_an_agent_that_changes_its_position_changes_no_other_game(tmp_path: Path, hosting: str,
                                                                  clear: bool) -> None:
    settings = GameSettings(seed=9, hosting=hosting)  # type: ignore[arg-type]
    mutator = canonical_player(agent(f"Mutates:clear={clear}"))
    run_games(MatchPlan((Pairing(mutator, "random", 6), Pairing("random", "random", 6)),
                        settings), tmp_path / "mutated")
    run_games(MatchPlan((Pairing("immediate-win", "random", 6),
                         Pairing("random", "random", 6)), settings), tmp_path / "clean")
    mutated = load_games(tmp_path / "mutated" / "games.csv")
    clean = load_games(tmp_path / "clean" / "games.csv")
    columns = ["game", "moves", "result", "termination"]
    assert mutated[columns][1::2].to_dict("records") == clean[columns][1::2].to_dict("records")
    first = mutated[::2]  # the pairings play in turns
    if hosting == "inline":  # it changed the position the game holds: caught, its loss
        assert set(first["termination"]) == {"agent_error"}
        assert set(first["error"]) == {"the agent changed the position it was given"}
    else:  # in its own process it only changed its own copy
        assert set(first["termination"]) <= {"four_in_a_row", "board_full"}


@pytest.mark.parametrize("jobs", ["1", pytest.param("2", marks=pytest.mark.slow)])
def test_what_agents_print_goes_to_the_log_not_the_output(tmp_path: Path, jobs: str) -> None:
    spec = agent("Chatty")
    out = tmp_path / "run"
    result = invoke("match", spec, agent("Leftmost"), "-n", "4", "-j", jobs,
                    "--no-report", "--out", str(out))
    assert result.exit_code == 0, result.output
    assert "thinking" not in result.stdout and "warning" not in result.stdout
    assert result.stderr == ""
    log = (out / "agents.log").read_text().splitlines()
    assert f"game 0 A {spec}: thinking about ply 0" in log
    assert f"game 1 A {spec}: thinking about ply 1" in log
    assert f"game 0 A {spec}: a warning" in log
    assert not any(" B " in line for line in log)


@pytest.mark.slow
def test_agents_get_their_own_limits_and_refuse_what_they_cannot_honour(tmp_path: Path) -> None:
    spec = agent(f"Remembers:directory={tmp_path}") + "@depth=3"
    run_games(plan_of(spec, "random", 2), tmp_path / "run")
    assert set(load_games(tmp_path / "run" / "games.csv")["termination"]) <= {
        "four_in_a_row", "board_full"}  # told depth 3 (anything else plays column -1)
    with pytest.raises(AgentSpecError, match="does not support a depth limit"):
        run_games(plan_of("random@depth=3", "random", 2), tmp_path / "refused")
    with pytest.raises(AgentSpecError, match="limit time must be a number of seconds > 0"):
        canonical_player("random@time=0")
    sleeper = agent("Sleeps:seconds=0.2") + "@time=2"  # its own limit beats the run's
    run_games(plan_of(sleeper, "random", 1, time_per_move=0.05), tmp_path / "own")
    assert load_games(tmp_path / "own" / "games.csv")["termination"][0] != "time_forfeit"


@pytest.mark.slow
def test_the_time_bank_pays_for_overtime(tmp_path: Path) -> None:
    slow_start = agent("Sleeps:seconds=0.3,first_only=true")
    run_games(plan_of(slow_start, agent("Leftmost"), 2, time_per_move=0.05), tmp_path / "none")
    assert set(load_games(tmp_path / "none" / "games.csv")["termination"]) == {"time_forfeit"}
    run_games(plan_of(slow_start, agent("Leftmost"), 2, time_per_move=0.05, time_bank=2.0),
              tmp_path / "bank")
    banked = load_games(tmp_path / "bank" / "games.csv")
    assert set(banked["termination"]) <= {"four_in_a_row", "board_full"}


@pytest.mark.slow
def test_warming_up_is_never_timed(tmp_path: Path) -> None:
    run_games(plan_of(agent("SlowWarmUp"), agent("Leftmost"), 2), tmp_path, RunRequest(jobs=2))
    games = load_games(tmp_path / "games.csv")
    assert games["time_a"].sum() < 0.5  # the half-second warm-up is not in it


@pytest.mark.parametrize("hosting", ["inline", "process"])
def test_no_garbage_collection_while_a_move_is_timed(tmp_path: Path, hosting: str) -> None:
    run_games(plan_of(agent("ChecksCollection"), "random", 2, hosting=hosting), tmp_path)
    games = load_games(tmp_path / "games.csv")
    assert set(games["termination"]) <= {"four_in_a_row", "board_full"}, games["error"].iloc[0]


@pytest.mark.slow
def test_without_a_limit_a_move_still_has_a_bound(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("arena.hosting.process.DEFAULT_MOVE_BOUND", 1.0)  # building: 120 s
    run_games(plan_of(agent("Hangs"), "random", 1), tmp_path)
    games = load_games(tmp_path / "games.csv")
    assert games["error"][0].startswith("no answer within 1 s to a move")


def test_building_an_agent_is_not_cut_by_a_short_bound_on_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("arena.hosting.process.DEFAULT_MOVE_BOUND", 0.001)
    host = ProcessHost(agent("Leftmost"))
    try:
        host.start()  # a child Python and its imports take far more than 1 ms
        assert host.traits.reproducible
    finally:
        host.close()


@pytest.mark.slow
def test_agents_are_closed_and_no_process_is_left(tmp_path: Path) -> None:
    spec = agent(f"Remembers:directory={tmp_path}")
    run_games(plan_of(spec, agent("Hangs"), 4, time_per_move=0.1), tmp_path / "run",
              RunRequest(jobs=2))
    built = sorted(path.name.split("-")[1] for path in tmp_path.glob("built-*"))
    closed = sorted(path.name.split("-")[1] for path in tmp_path.glob("closed-*"))
    assert len(built) >= 2 and closed == built  # this process's and the worker's
    time.sleep(0.5)
    assert not any(map(is_running, map(int, built)))


def test_a_worker_whose_agent_kills_it_ends_the_run_with_one_line(tmp_path: Path) -> None:
    out = tmp_path / "run"
    result = invoke("match", "random", agent("DiesInWorkers"), "-n", "6", "-j", "2",
                    "--hosting", "inline", "--no-report", "--out", str(out))
    assert result.exit_code == 1
    assert result.stderr.startswith("arena: error: a worker process exited (exit code 4")
    assert result.stderr.count("\n") == 1
    assert (out / "games.csv").read_text().startswith("game,")


@pytest.mark.slow
@pytest.mark.dask
def test_dask_workers_survive_hangs_and_crashes(tmp_path: Path) -> None:
    settings = GameSettings(seed=1, time_per_move=0.2)
    plan = MatchPlan((Pairing(canonical_player(agent("Hangs")), "random", 2),
                      Pairing(canonical_player(agent("HardExits")), "random", 2)), settings)
    run_games(plan, tmp_path, RunRequest(jobs=2, backend="dask"))
    games = load_games(tmp_path / "games.csv")
    assert games["termination"].tolist() == ["time_forfeit", "agent_crash"] * 2


@pytest.mark.slow
def test_ctrl_c_is_one_line_and_leaves_nothing_running(tmp_path: Path) -> None:
    out = tmp_path / "run"
    command = arena_command("match", agent("Sleeps:seconds=0.02"), "random",
                            "-n", "2000", "-j", "2", "--quiet", "--out", str(out))
    env = checkout_env()
    process = subprocess.Popen(command, env=env, start_new_session=True, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    games_csv = out / "games.csv"
    deadline = time.monotonic() + 60
    while not (games_csv.exists() and games_csv.read_bytes().count(b"\n") > 3):
        assert process.poll() is None and time.monotonic() < deadline
        time.sleep(0.05)
    os.killpg(process.pid, signal.SIGINT)  # as a terminal does: to the whole process group
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    stopping, interrupted = stderr.splitlines()  # the games in progress were finished
    assert stopping.startswith("arena: stopping after the games in progress"), stderr
    assert interrupted.startswith("arena: interrupted with "), stderr
    time.sleep(0.5)
    assert running_in_group(process.pid) == []  # no worker, no agent process left


@pytest.mark.parametrize(("source", "problem"), [
    ("def f(:\n", "importing {path} failed: SyntaxError: invalid syntax"),
    ("raise RuntimeError('no GPU')\n", "importing {path} failed: RuntimeError: no GPU"),
    ("import sys\nsys.exit(3)\n", "importing {path} failed: SystemExit: 3"),
    ("raise KeyboardInterrupt\n", "importing {path} failed: KeyboardInterrupt"),
])
def test_an_agent_file_that_fails_to_load_is_one_line(tmp_path: Path,
                                                      source: str, problem: str) -> None:
    path = tmp_path / "broken.py"
    path.write_text(source)
    result = invoke("match", f"{path}:Agent", "random", "-n", "2",
                    "--out", str(tmp_path / "run"))
    assert result.exit_code == 2 and result.stderr.count("\n") == 1
    assert problem.format(path=path) in result.stderr
    assert not (tmp_path / "run").exists()


@pytest.mark.parametrize(("out", "problem"), [
    ("{tmp}/a_file.txt/sub", "{tmp}/a_file.txt is a file, not a directory"),
    ("/proc/arena-run", "No such file or directory"),
])
def test_a_run_directory_that_cannot_be_written_is_one_line(tmp_path: Path,
                                                            out: str, problem: str) -> None:
    (tmp_path / "a_file.txt").write_text("not a directory")
    directory = out.format(tmp=tmp_path)
    result = invoke("match", "random", "random", "-n", "2", "--out", directory)
    assert result.exit_code == 2
    assert result.stderr == f"arena: error: cannot use {directory} as a run directory: " \
                            f"{problem.format(tmp=tmp_path)}\n"


def test_bench_checks_its_output_before_it_measures(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("arena.cli.bench.run_bench", None)  # measuring would fail the test
    result = invoke("bench", "--quick", "--out", "/proc/arena.csv")
    assert result.exit_code == 2
    assert result.stderr == ("arena: error: cannot write the table arena.csv in /proc: "
                             "it takes no new files\n")


CRASHING = f"{AGENTS}:SegfaultsOnce:marker=crashed,game=5"


@pytest.mark.slow
def test_an_inline_agent_that_crashes_the_process_loses_no_finished_game(
        tmp_path: Path) -> None:
    crashing, clean = tmp_path / "crashing", tmp_path / "clean"
    crashing.mkdir()
    clean.mkdir()
    (clean / "crashed").write_text("")  # the agent crashes only where this file is missing
    mark = f"crash-{os.getpid()}-{tmp_path.name}"
    command = arena_command("match", CRASHING, "random", "-n", "12", "--jobs", "1",
                            "--hosting", "inline", "--quiet", "--no-report", "--out", "run")

    def run(cwd: Path) -> subprocess.CompletedProcess[str]:
        return subprocess.run(command, env={**checkout_env(), MARK: mark}, cwd=cwd,
                              capture_output=True, text=True, timeout=120)

    crashed = run(crashing)
    assert crashed.returncode == -signal.SIGSEGV
    [line] = crashed.stderr.splitlines()  # the traceback went to agents.log
    assert line == (
        "arena: error: the arena's process crashed (Segmentation fault), most likely in an "
        "agent of yours hosted inline; 4 of 12 games are saved in run and the traceback is in "
        f"{Path('run', 'agents.log')}: run the same command again to resume (--hosting process "
        "keeps such an agent out of the arena's process: a crash then costs one game)")
    assert load_games(crashing / "run" / "games.csv")["game"].tolist() == [0, 1, 2, 3]
    log = (crashing / "run" / "agents.log").read_text()
    assert log.startswith("crash: the arena's process crashed (Segmentation fault) with 4 of "
                          "12 games saved; its Python traceback:\n")
    assert f'crash:   File "{AGENTS}", line' in log  # the agent's own line
    wait_for(lambda: marked(mark) == [], 10, "ended with the crashed command")  # the watcher
    assert run(crashing).returncode == 0  # the same command resumes
    assert run(clean).returncode == 0
    same = ["game", "seed", "first", "moves", "result", "termination", "plies", "error"]
    resumed, uninterrupted = (load_games(cwd / "run" / "games.csv")[same]
                              for cwd in (crashing, clean))
    assert len(resumed) == 12
    assert resumed.equals(uninterrupted)


@pytest.mark.slow
def test_an_inline_agent_that_crashes_a_worker_is_one_line_with_its_traceback_in_the_log(
        tmp_path: Path) -> None:
    command = arena_command("match", f"{CRASHING.replace('game=5', 'game=3')},in_worker=true",
                            "random", "-n", "40", "--jobs", "2", "--hosting", "inline",
                            "--quiet", "--no-report", "--out", "run")
    crashed = subprocess.run(command, env=checkout_env(), cwd=tmp_path, capture_output=True,
                             text=True, timeout=120)
    assert crashed.returncode == 1
    [line] = crashed.stderr.splitlines()  # the worker's traceback went to agents.log
    saved = len(load_games(tmp_path / "run" / "games.csv"))
    assert line == (
        "arena: error: a worker process crashed (Segmentation fault), most likely in an agent of "
        f"yours hosted inline; its Python traceback is in {Path('run', 'agents.log')}; {saved} "
        "of 40 games are saved in run; run the same command to finish")
    log = (tmp_path / "run" / "agents.log").read_text()
    assert "Fatal Python error: Segmentation fault" in log
    assert f'File "{AGENTS}", line' in log  # the agent's own line
    resumed = subprocess.run(command, env=checkout_env(), cwd=tmp_path, capture_output=True,
                             text=True, timeout=120)
    assert resumed.returncode == 0, resumed.stderr
    assert load_games(tmp_path / "run" / "games.csv")["game"].tolist() == list(range(40))


@pytest.mark.slow
def test_the_watcher_of_an_inline_agent_of_the_user_ends_with_a_run_that_ends_well(
        tmp_path: Path) -> None:
    children = tmp_path / "children.txt"
    finished = subprocess.run(
        arena_command("match", f"{AGENTS}:NotesChildren:path={children}", "random", "-n", "4",
                      "--jobs", "1", "--hosting", "inline", "--quiet", "--no-report",
                      "--out", "run"),
        env=checkout_env(), cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    watchers = [int(line.split("\t")[0]) for line in children.read_text().splitlines()
                if "crash_watcher.py" in line]
    assert len(watchers) == 1  # it watched the run
    assert not is_running(watchers[0])  # and ended with it
    assert finished.stderr == ""


@pytest.fixture
def watchers_started(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[Path]]:
    """The run directories a crash watcher was started for, faulthandler enabled meanwhile
    (as the ``arena`` command has it)."""
    started: list[Path] = []
    start = crashes.start_watcher

    def spy(files: RunFiles, total: int, pipe: int) -> subprocess.Popen[bytes]:
        started.append(files.path)
        return start(files, total, pipe)

    monkeypatch.setattr(crashes, "start_watcher", spy)
    was_enabled = faulthandler.is_enabled()
    faulthandler.enable()
    yield started
    if not was_enabled:
        faulthandler.disable()


@pytest.mark.parametrize(("agent_a", "hosting", "watched"), [
    (agent("Leftmost"), "inline", True),
    ("random", "inline", False),  # built-in agents only: nothing to watch
    ("negamax:depth=2", "inline", False),
    pytest.param(agent("Leftmost"), "auto", False, marks=pytest.mark.slow),  # its own process
])
def test_a_watcher_is_started_only_while_an_agent_of_the_user_plays_inline(
        tmp_path: Path, watchers_started: list[Path], agent_a: str, hosting: str,
        watched: bool) -> None:
    run_games(plan_of(agent_a, "random", 6, hosting=hosting), tmp_path, RunRequest(jobs=1))
    assert watchers_started == ([tmp_path] if watched else [])
    assert len(load_games(tmp_path / "games.csv")) == 6


def test_a_batch_played_step_by_step_hands_over_its_games_as_asked() -> None:
    plan = plan_of(agent("Leftmost"), "random", 6, hosting="inline")
    batch = plan.batch(np.arange(6))

    def steps(every: float | None) -> list[BatchResult | None]:
        return list(play_steps(plan.settings, batch, AgentCache(), every))

    each = steps(0.0)  # every game before the next one starts
    assert [[row.game for row in step.rows] if step else None for step in each] == [
        None, [0], [1], [2], [3], [4], [5]]
    assert [step.timed for step in each if step] == [0, 0, 0, 0, 0, 6]  # timed once, whole
    for every in (None, 3600.0):  # the whole batch at its end
        *held, whole = steps(every)
        assert held == [None] * 6
        assert whole is not None and [row.game for row in whole.rows] == list(range(6))
        assert whole.timed == 6


def test_with_an_agent_of_the_user_inline_the_pool_hands_over_games_as_they_end(
        tmp_path: Path) -> None:
    plan = plan_of(agent("Leftmost"), "random", 40, hosting="inline")
    pool = LocalPool(2, AgentCache(), crash_log=tmp_path / "agents.log")
    sizer = BatchSizer(2)
    sizer.record(1, 0.0001)  # batches of several games from the start
    try:
        parts = list(pool.results(batches(plan, np.arange(40), sizer), plan.settings))
    finally:
        pool.close()
    assert sorted(row.game for part in parts for row in part.rows) == list(range(40))
    assert sum(part.timed for part in parts) == 40  # each batch timed once, whole
    assert len(parts) > len([part for part in parts if part.timed])  # in parts


def test_a_local_worker_holds_its_next_batch_while_it_plays_one() -> None:
    plan = plan_of("random", "random", 60)  # fused: this process plays a batch in one call
    taken: list[int] = []

    def counted() -> Iterator[GameBatch]:
        for batch in batches(plan, np.arange(60), BatchSizer(2, largest=5)):
            taken.append(len(batch))
            yield batch

    pool = LocalPool(2, AgentCache())
    try:
        results = pool.results(counted(), plan.settings)
        first = next(results)
        held = len(taken)  # batches handed out before any came back
        parts = [first, *results]
    finally:
        pool.close()
    assert held == 1 + HELD_BATCHES  # this process's own, and the worker's two
    games = [int(game) for part in parts for fused in part.fused for game in fused.batch.games]
    assert sorted(games) == list(range(60))  # each game once
    assert sum(part.timed for part in parts) == 60


def test_a_batch_that_a_stop_finds_unbegun_comes_back_empty() -> None:
    plan = plan_of("random", "random", 6)
    steps = list(play_steps(plan.settings, plan.batch(np.arange(6)), AgentCache(),
                            stop=lambda: True))
    assert len(steps) == 1
    [empty] = steps
    assert empty is not None and empty.last and empty.games == 0 and empty.timed == 0
