"""A dask run stopped by Ctrl-C (to the terminal's process group; it finishes the batches
submitted first) or SIGTERM (to the command, at once, also while the results of compiled
batches are on their way): one line (after Ctrl-C's note), the interrupted run's status, no
warning, every finished game kept and the run resumable."""

from __future__ import annotations

import os
import signal
import subprocess
from pathlib import Path

import pytest

from tests.helpers.cli import arena_command, checkout_env
from tests.helpers.paths import DATA
from tests.helpers.processes import running_in_group, wait_for

SLEEPS = (f"{DATA / 'hosting_agents.py'}:Sleeps:seconds=0.02", "random")
FUSED = ("negamax:depth=4", "negamax:depth=2")
"""Played in compiled batches of a few hundred games: many results are on their way at any
moment (the issue's command)."""


@pytest.mark.slow
@pytest.mark.dask
@pytest.mark.parametrize(("agents", "games", "sent", "to_group"),
                         [(SLEEPS, 60, signal.SIGINT, True), (SLEEPS, 60, signal.SIGTERM, False),
                          (FUSED, 20000, signal.SIGTERM, False)],
                         ids=["ctrl-c", "sigterm", "sigterm-fused"])
def test_a_dask_run_stops_cleanly_and_resumes(tmp_path: Path, agents: tuple[str, str],
                                              games: int, sent: signal.Signals,
                                              to_group: bool) -> None:
    out = tmp_path / "run"
    command = arena_command("match", *agents, "-n", str(games), "-j", "2", "--backend",
                            "dask", "--quiet", "--no-report", "--out", str(out))
    process = subprocess.Popen(command, env=checkout_env(), cwd=tmp_path,
                               start_new_session=True, text=True,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    table = out / "games.csv"
    wait_for(lambda: (table.exists() and table.read_bytes().count(b"\n") > 3)
             or process.poll() is not None, 120, "playing")
    if to_group:
        os.killpg(process.pid, sent)
    else:
        process.send_signal(sent)
    _, stderr = process.communicate(timeout=120)
    assert process.returncode == 130, stderr
    if sent == signal.SIGINT:  # the first Ctrl-C lets the batches submitted finish
        stopping, _, stderr = stderr.partition("\n")
        assert stopping.startswith("arena: stopping after the games in progress"), stopping
    assert stderr.count("\n") == 1 and stderr.startswith("arena: interrupted with "), stderr
    kept = table.read_bytes().count(b"\n") - 1
    assert f"with {kept} of {games} games" in stderr
    wait_for(lambda: running_in_group(process.pid) == [], 30, "the workers ended")
    finished = subprocess.run(command, env=checkout_env(), cwd=tmp_path, capture_output=True,
                              text=True, timeout=300)
    assert finished.returncode == 0, finished.stderr
    lines = table.read_text().splitlines()[1:]
    assert sorted(int(line.split(",")[0]) for line in lines) == list(range(games))
