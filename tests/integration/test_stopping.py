"""Ctrl-C during a run, sent to the process group as a terminal does: the first one lets the
games in progress finish and be written, then stops (resumable); a second stops at once, and
so does SIGTERM to the command alone."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from arena.runs.store.directory import GamesTable
from arena.runs.store.files import RunFiles
from tests.helpers.cli import arena, arena_command, checkout_env
from tests.helpers.paths import DATA, ENGINES
from tests.helpers.processes import wait_for

GAMES = 8


def _sleeps(seconds: float) -> str:
    return f"{DATA / 'hosting_agents.py'}:Sleeps:seconds={seconds}"


def _command(agent: str, out: Path, jobs: int) -> list[str]:
    return arena_command("match", agent, "random", "-n", str(GAMES), "-j", str(jobs),
                         "--quiet", "--no-report", "--out", str(out))


def _rows(games: Path) -> int:
    return games.read_bytes().count(b"\n") - 1 if games.exists() else 0


def _played(games: Path) -> pd.DataFrame:
    """The games without their agents' names and think times."""
    table = pd.read_csv(games).sort_values("game").reset_index(drop=True)
    return table.drop(columns=["agent_a", "agent_b", "time_a", "time_b"])


@pytest.mark.parametrize("jobs", [1, 2])
def test_the_first_ctrl_c_finishes_the_games_in_progress(tmp_path: Path, jobs: int) -> None:
    out, games = tmp_path / "run", tmp_path / "run" / "games.csv"
    command = _command(_sleeps(0.2), out, jobs)
    process = subprocess.Popen(command, env=checkout_env(), cwd=tmp_path,
                               start_new_session=True, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for(lambda: _rows(games) >= 1 or process.poll() is not None, 60, "a game written")
    # into the next game: it lasts at least 0.8 s (four or more moves of 0.2 s), so the
    # Ctrl-C lands while a game is in progress, not in the moment between two games
    time.sleep(0.3)
    seen = _rows(games)
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    kept = _rows(games)
    assert stderr == ("arena: stopping after the games in progress (Ctrl-C again to stop at "
                      "once)\n"
                      f"arena: interrupted with {kept} of {GAMES} games in {out}; run the same "
                      "command to finish\n")
    assert seen < kept < GAMES  # the games in progress at the signal were finished, no more
    finished = subprocess.run(command, env=checkout_env(), cwd=tmp_path, capture_output=True,
                              text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    reference = tmp_path / "reference"
    uninterrupted = subprocess.run(_command(_sleeps(0), reference, jobs), env=checkout_env(),
                                   cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert uninterrupted.returncode == 0, uninterrupted.stderr
    pd.testing.assert_frame_equal(_played(games), _played(reference / "games.csv"))


def test_a_second_ctrl_c_stops_at_once(tmp_path: Path) -> None:
    out, games = tmp_path / "run", tmp_path / "run" / "games.csv"
    # every move takes 60 s: a run that waited for its games in progress would outlast the
    # generous bound below
    process = subprocess.Popen(_command(_sleeps(60), out, 2), env=checkout_env(), cwd=tmp_path,
                               start_new_session=True, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for(lambda: games.exists() or process.poll() is not None, 60, "the run started")
    # games.csv is there before the workers and the first Ctrl-C's handler (a Ctrl-C then
    # stops at once): on a loaded machine that can take a while; the games last minutes
    time.sleep(1.0)
    os.killpg(process.pid, signal.SIGINT)
    assert process.stderr is not None
    first = process.stderr.readline()  # the first Ctrl-C was taken
    assert first == "arena: stopping after the games in progress (Ctrl-C again to stop at " \
                    "once)\n"
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr
    assert stderr == f"arena: interrupted with 0 of {GAMES} games in {out}; run the same " \
                     "command to finish\n"
    assert _rows(games) == 0


@pytest.mark.parametrize("agent", ["random", f"engine:{ENGINES / 'leftmost.py'}"],
                         ids=["inline", "engine"])
def test_sigterm_stops_at_once_and_leaves_no_lock(tmp_path: Path, agent: str) -> None:
    """SIGTERM to the command's process alone, as ``timeout``, Slurm, ``docker stop`` and
    systemd send it: a second Ctrl-C's one line and status, the finished games kept, no lock
    left; the same command then finishes the run."""
    out, games = tmp_path / "run", tmp_path / "run" / "games.csv"
    command = arena_command("match", agent, _sleeps(0.2), "-n", str(GAMES), "-j", "2",
                            "--quiet", "--no-report", "--out", str(out))
    process = subprocess.Popen(command, env=checkout_env(), cwd=tmp_path,
                               start_new_session=True, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for(lambda: _rows(games) >= 1 or process.poll() is not None, 60, "a game written")
    process.send_signal(signal.SIGTERM)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    kept = _rows(games)
    assert stderr == f"arena: interrupted with {kept} of {GAMES} games in {out}; run the " \
                     "same command to finish\n"
    assert 1 <= kept < GAMES and not RunFiles(out).lock.exists()
    finished = subprocess.run(command, env=checkout_env(), cwd=tmp_path, capture_output=True,
                              text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    assert _rows(games) == GAMES and not RunFiles(out).lock.exists()


@pytest.mark.slow
def test_a_tournament_in_rounds_stops_at_the_first_ctrl_c_and_the_command_finishes_it(
        tmp_path: Path) -> None:
    """A Swiss stopped in its first round counts its games out of every round's, leaves no
    table at its top, and the same command again plays it to the end."""
    out = tmp_path / "swiss"
    games = out / "round-01" / "games.csv"
    command = arena_command("tournament", _sleeps(0.1), "random", "immediate-win", "-n", "4",
                            "--swiss", "2", "-j", "1", "--quiet", "--no-report", "--out",
                            str(out))
    process = subprocess.Popen(command, env=checkout_env(), cwd=tmp_path,
                               start_new_session=True, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wait_for(lambda: _rows(games) >= 1 or process.poll() is not None, 60, "a game written")
    os.killpg(process.pid, signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130, stderr
    kept = _rows(games)
    # three agents: a pairing and a bye in each of two rounds, 4 games a pairing
    assert stderr.endswith(f"arena: interrupted with {kept} of 8 games in {out}; run the "
                           "same command to finish\n")
    assert 1 <= kept < 4 and not (out / "rounds.csv").exists()
    finished = subprocess.run(command, env=checkout_env(), cwd=tmp_path, capture_output=True,
                              text=True, timeout=120)
    assert finished.returncode == 0, finished.stderr
    rounds = pd.read_csv(out / "rounds.csv", keep_default_na=False)
    assert rounds["round"].tolist() == [1, 1, 2, 2] and rounds["games"].sum() == 8
    assert len(pd.read_csv(out / "games.csv")) == 8


def test_a_sigterm_just_after_a_write_is_counted_in_the_note(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch,
                                                              ) -> None:
    """The note's count is the games in games.csv even when SIGTERM lands between a batch's
    write and its count (it once said 3 where the file held 4)."""
    written = GamesTable.append_text

    def append_then_signal(table: GamesTable, text: bytes, games: np.ndarray) -> None:
        written(table, text, games)
        signal.raise_signal(signal.SIGTERM)

    monkeypatch.setattr(GamesTable, "append_text", append_then_signal)
    out = tmp_path / "run"
    status, output = arena("match", "random", "random", "-n", "200", "--quiet", "--no-report",
                           "--out", str(out))
    kept = _rows(out / "games.csv")
    assert status == 130, output
    assert 0 < kept < 200
    assert output == (f"arena: interrupted with {kept} of 200 games in {out}; run the same "
                      "command to finish\n")
