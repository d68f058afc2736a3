"""`arena match`: output, exit status 2 for bad input, reruns, interruption by kill -9."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import click
import pandas as pd
import pytest

from arena.cli import main
from arena.cli.match import format_summary, match_command
from arena.rules.results import Result as GameResult
from arena.rules.results import Side, Termination
from arena.runs.planning.seeds import DEFAULT_SEED
from arena.runs.playing.progress import ProgressBar
from arena.runs.store.reading import load_games
from arena.runs.store.rows import GameRow
from arena.runs.store.summary import PairingSummary
from arena.stats.tally import Tally
from tests.helpers.cli import arena_command, checkout_env, invoke
from tests.helpers.runs import games_without_timing


def test_a_small_match_prints_the_table_and_the_seeds_line(tmp_path: Path) -> None:
    result = invoke("match", "immediate-win", "random", "-n", "30", "--jobs", "1",
                    "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    seeds_line = re.fullmatch(r"immediate-win \[(\d+), (\d+), (\d+)\] random \(30\)", lines[0])
    assert seeds_line, lines[0]
    wins, ties, losses = map(int, seeds_line.groups())
    assert wins + ties + losses == 30
    assert lines[1].split() == ["Games", "30", "(W", f"{wins},", "D", f"{ties},", "L", f"{losses})"]
    labels = [line.split()[0] for line in lines[1:]]
    assert labels == ["Games", "Score", "Elo", "nElo", "LOS", "Intervals", "Forfeits",
                      "Distinct", "Plies", "ms/move", "ms/move", "nodes/move", "Conditions",
                      "Output",
                      "Report"]
    assert lines[-3] == "Conditions  openings none · 6 x 7 · no time limit"
    assert "\n\n**Conditions**: openings none · 6 x 7 · no time limit.\n\n## Results" in (
        tmp_path / "run" / "report.md").read_text()
    assert lines[-2].split() == ["Output", str(tmp_path / "run")]
    assert lines[-1].split() == ["Report", str(tmp_path / "run" / "report.md")]
    games = load_games(tmp_path / "run" / "games.csv")
    assert len(games) == 30 and set(games["agent_a"]) == {"immediate-win"}
    assert (games["result"] == "win").sum() == wins
    assert {"summary.csv", "meta.json", "report.md", "wtl.png"} <= {
        p.name for p in (tmp_path / "run").iterdir()}


def test_the_printed_elo_interval_is_the_one_summary_csv_holds(tmp_path: Path) -> None:
    """Not the mean of its two half-widths: the score interval mapped to Elo is lopsided."""
    result = invoke("match", "random", "random", "-n", "40", "--jobs", "1", "--no-report",
                    "--out", str(tmp_path / "run"))
    assert result.exit_code == 0, result.output
    table = dict(line.split(maxsplit=1) for line in result.output.splitlines()[1:])
    summary = pd.read_csv(tmp_path / "run" / "summary.csv").iloc[0]
    assert summary["interval"] == "normal"
    assert table["Elo"] == (f"{summary['elo']:.2f}  [{summary['elo_low']:.2f}, "
                            f"{summary['elo_high']:.2f}]")


def test_the_times_a_move_are_printed_as_medians_with_intervals_and_90th_percentiles(
        tmp_path: Path) -> None:
    """A: eight games at 2 µs a move, one at 3 µs, one with a 12 ms stall (ten moves each);
    B: 0.5 ms a move in every game, but one at 1 ms (as tests/unit/runs/store/test_summary
    counts them)."""
    summary = PairingSummary("x", "y", 0)
    for index, (a, b) in enumerate(zip([0.00002] * 8 + [0.00003, 0.012],
                                       [0.005] * 9 + [0.01], strict=True)):
        summary.add(GameRow(index, None, index, "x", "y", Side.A, "", "4455667", GameResult.WIN,
                            Termination.FOUR_IN_A_ROW, 7, a, b, None, None, 10, 10, ""))
    lines = format_summary(summary, tmp_path).splitlines()
    assert lines[10:12] == ["ms/move     median A 0.00200 [0.00200, 0.00300], "
                            "B 0.500 [0.500, 0.500]", "ms/move p90 A 0.123, B 0.550"]


@pytest.mark.slow
def test_the_default_directory_and_seed_make_a_rerun_reuse_the_games(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    args = ["match", "random", "random", "-n", "12", "-j", "1", "--first", "a"]
    monkeypatch.chdir(tmp_path)  # the default directory is under ./results
    first = invoke(*args)
    [directory] = Path("results/matches").iterdir()
    assert f"seed{DEFAULT_SEED}" in directory.name and "random-vs-random" in directory.name
    played = (directory / "games.csv").read_text()
    second = invoke(*args)
    assert second.stdout == first.stdout and second.stderr.startswith(
        f"arena: note: the run in {directory} was complete")
    assert (directory / "games.csv").read_text() == played
    other = invoke(*args, "--seed", "3")
    assert other.exit_code == 0 and len(list(Path("results/matches").iterdir())) == 2


@pytest.mark.slow
def test_deterministic_agents_get_a_warning(tmp_path: Path) -> None:
    agent = tmp_path / "left.py"
    agent.write_text("def leftmost(position, rng):\n    return position.legal_moves()[0]\n")
    result = invoke("match", f"{agent}:leftmost", "random", "-n", "4", "-j", "1", "--quiet",
                    "--out", str(tmp_path / "varied"))
    assert result.exit_code == 0 and result.stderr == ""
    result = invoke("match", f"{agent}:leftmost", f"{agent}:leftmost", "-n", "10", "-j", "1",
                    "--out", str(tmp_path / "same"))
    assert result.exit_code == 0
    assert "Distinct    2 games" in result.stdout
    assert result.stderr.startswith("arena: warning: only 2 distinct games in 10")
    assert "--openings random:K" in result.stderr


def test_the_progress_bar_counts_this_commands_results(capsys: pytest.CaptureFixture[str],
                                                       bars_seen: None) -> None:
    with ProgressBar(enabled=False) as bar:
        bar.start(total=10, finished=3)
        bar.advance(3, Tally.of([GameResult.WIN, GameResult.DRAW, GameResult.WIN]))
    assert bar.finished == 6 and bar.tally.wtl == (2, 1, 0) and bar.wtl_text() == "W/D/L 2/1/0"
    assert capsys.readouterr() == ("", "")
    with ProgressBar(enabled=True) as bar:
        bar.start(total=10, finished=3)
        bar.advance(1, Tally(1, 0, 0))
    shown = capsys.readouterr().err
    assert "4/10" in shown and "W/D/L 1/0/0" in shown


BAD_INPUT = [
    (["nosuch", "random", "-n", "5"], "unknown agent 'nosuch'"),
    (["random:depth=2", "random", "-n", "5"], "unknown parameter 'depth'"),
    (["immediate-win:block=maybe", "random", "-n", "5"], "block expects true or false"),
    (["random", "random", "-n", "0"], "0 is not in the range x>=1"),
    (["random", "random"], "Missing option '-n'"),
    (["random", "random", "-n", "5", "--openings", "nofile.txt"], "no such file"),
    (["random", "random", "-n", "5", "--openings", "random:x"], "random:K"),
    (["random", "random", "-n", "5", "--cols", "10"], "1 to 9 columns"),
    (["human", "random", "-n", "5", "--jobs", "2"], "'human' is interactive"),
    (["random", "random", "-n", "5", "--scheduler", "tcp://x:1"], "only with --backend dask"),
    (["random", "random", "-n", "5", "--first", "c"], "'c' is not one of"),
    (["random", "random", "-n", "5", "--time-per-move", "0"], "x>0"),
    (["os:getcwd", "random", "-n", "2"], "agent spec 'os:getcwd': not an agent: getcwd() "
                                          "cannot be called as getcwd(position, rng)"),
    (["collections:OrderedDict", "random", "-n", "2"], "has no choose(position, rng) method"),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUT)
def test_bad_input_is_one_line_and_exit_status_2(tmp_path: Path,
                                                 args: list[str], message: str) -> None:
    out = tmp_path / "run"
    result = invoke("match", *args, "--out", str(out))
    assert result.exit_code == 2, result.output
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1 and result.stderr.startswith("arena: error: ")
    assert message in result.stderr
    assert not out.exists()


def test_a_malformed_openings_file_names_its_line(tmp_path: Path) -> None:
    openings = tmp_path / "openings.txt"
    openings.write_text("44 1\n4z 2\n")
    result = invoke("match", "random", "random", "-n", "4", "--openings", str(openings))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"arena: error: openings file '{openings}', line 2:")


def test_an_agent_that_cannot_play_the_board_is_refused(tmp_path: Path) -> None:
    agent = tmp_path / "square.py"
    agent.write_text(
        "from arena.protocol.agent import BaseAgent\n"
        "from arena.rules.errors import UnsupportedBoardError\n"
        "class Seven(BaseAgent):\n"
        "    def check_rules(self, rules):\n"
        "        if rules.cols != 7:\n"
        "            raise UnsupportedBoardError(f'plays 7 columns only, not {rules.cols}')\n"
        "    def choose(self, position, rng):\n"
        "        return position.legal_moves()[0]\n")
    result = invoke("match", f"{agent}:Seven", "random", "-n", "4", "--cols", "6",
                    "--out", str(tmp_path / "run"))
    assert result.exit_code == 2
    assert result.stderr == (f"arena: error: agent spec '{agent}:Seven': UnsupportedBoardError: "
                             "plays 7 columns only, not 6\n")
    assert not (tmp_path / "run" / "games.csv").exists()


def test_another_command_on_a_run_directory_is_refused(tmp_path: Path) -> None:
    out = str(tmp_path / "run")
    assert invoke("match", "random", "random", "-n", "6", "-j", "1", "--out", out).exit_code == 0
    before = (tmp_path / "run" / "games.csv").read_bytes()
    result = invoke("match", "random", "random", "-n", "4", "-j", "1", "--out", out)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert f"arena: error: {out} holds a different run" in result.stderr
    assert "games 6 there, 4 here" in result.stderr and "give more games to extend it" in \
        result.stderr
    assert (tmp_path / "run" / "games.csv").read_bytes() == before


def test_the_command_is_registered_on_the_arena_group() -> None:
    assert main.get_command(click.Context(main), "match") is match_command


@pytest.mark.slow
def test_kill_9_mid_run_then_the_same_command_finishes_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    games = 2000
    command = arena_command("match", "random", "immediate-win", "-n", str(games),
                            "--openings", "random:2", "--jobs", "2", "--quiet", "--out", str(out))
    env = checkout_env()
    process = subprocess.Popen(command, env=env, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    games_csv = out / "games.csv"
    deadline = time.monotonic() + 60
    while not (games_csv.exists() and games_csv.read_bytes().count(b"\n") > 3):
        assert process.poll() is None, process.stderr.read() if process.stderr else ""
        assert time.monotonic() < deadline, "no games written within a minute"
        time.sleep(0.005)
    os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    written = games_csv.read_bytes()
    assert written.count(b"\n") - 1 < games, "the run finished before it could be killed"
    with games_csv.open("ab") as file:
        file.write(b"1999,999,171798695")  # as if killed in the middle of a row
    finished = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert finished.stdout.startswith("random [")
    resumed = games_without_timing(out)
    assert [row["game"] for row in resumed] == list(range(games))
    kept = set(written.splitlines()[:-1])  # the rows finished before the kill (and header)
    assert kept <= set(games_csv.read_bytes().splitlines())  # every one of them kept
    reference = subprocess.run([*command[:-1], str(tmp_path / "reference"), "--jobs", "1"],
                               env=env, capture_output=True, text=True, timeout=120)
    assert reference.returncode == 0, reference.stderr
    assert resumed == games_without_timing(tmp_path / "reference")


CRASHING_WORKER = '''
import multiprocessing
import os
from arena.protocol.agent import BaseAgent

class DiesAfterTwoMoves(BaseAgent):
    """Kills the worker process that runs it on its third move of a game (in a worker
    process only: the process that runs the command plays games too)."""

    def choose(self, position, rng):
        if position.plies >= 4 and multiprocessing.parent_process() is not None:
            os._exit(3)
        return position.legal_moves()[0]
'''


def test_a_worker_that_dies_is_one_line_and_the_games_stay(tmp_path: Path) -> None:
    agent = tmp_path / "dies.py"
    agent.write_text(CRASHING_WORKER)
    out = tmp_path / "run"
    result = invoke("match", "random", f"{agent}:DiesAfterTwoMoves", "-n", "6", "--jobs", "2",
                    "--hosting", "inline", "--no-report", "--out", str(out))
    assert result.exit_code == 1, result.output
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("arena: error: a worker process exited (exit code 3")
    assert f"games are saved in {out}; run the same command to finish" in result.stderr
    assert (out / "games.csv").read_text().startswith("game,")  # the table is intact
