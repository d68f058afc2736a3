"""Every process a run starts ends with the command, however the command ends: killed with
SIGKILL while an engine hangs (and a program it started runs), while an agent's process or a
worker loops in native code with the GIL held."""

from __future__ import annotations

import os
import signal
import subprocess
import uuid
from pathlib import Path

import pytest

from tests.helpers.cli import arena_command, checkout_env
from tests.helpers.paths import DATA, ENGINES
from tests.helpers.processes import (
    MARK,
    command_line,
    cpu_seconds,
    marked,
    parent_of,
    wait_for,
)

GIL = f"{DATA / 'hosting_agents.py'}:HoldsGil"

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")


def start_run(tmp_path: Path, *args: str) -> tuple[subprocess.Popen[bytes], str]:
    """``arena match ARGS`` in a process group of its own, every process of it marked."""
    mark = uuid.uuid4().hex
    command = arena_command("match", *args, "-n", "100", "--quiet", "--no-report",
                            "--out", str(tmp_path / "run"))
    process = subprocess.Popen(command, env={**checkout_env(), MARK: mark}, cwd=tmp_path,
                               start_new_session=True, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    return process, mark


def stuck(mark: str, chosen) -> list[int]:  # type: ignore[no-untyped-def]
    """The marked processes ``chosen`` picks (by pid) that have burnt 0.2 s of CPU or more."""
    return [pid for pid in marked(mark) if chosen(pid) and cpu_seconds(pid) >= 0.2]


def kill_and_check(process: subprocess.Popen[bytes], mark: str, group: bool) -> None:
    """SIGKILL the command (its process group, or its process alone): nothing it started
    may go on running."""
    before = marked(mark)
    if group:
        os.killpg(process.pid, signal.SIGKILL)
    else:
        process.kill()
    process.wait()
    try:
        wait_for(lambda: marked(mark) == [], 30, "ended with the command")
    finally:
        for pid in marked(mark):  # a failed test cleans up after the run it started
            os.kill(pid, signal.SIGKILL)
    assert len(before) >= 2


@pytest.mark.slow
@pytest.mark.parametrize("group", [True, False], ids=["group", "command"])
def test_a_hung_engine_and_the_program_it_started_die_with_the_command(
        tmp_path: Path, group: bool) -> None:
    process, mark = start_run(tmp_path, f"engine:{ENGINES / 'hangs_with_helper.py'}",
                              "random", "--first", "a")
    wait_for(lambda: any(command_line(pid)[:1] == ["sleep"] for pid in marked(mark)), 60,
             "the engine's helper started")
    kill_and_check(process, mark, group)


@pytest.mark.slow
@pytest.mark.parametrize("group", [True, False], ids=["group", "command"])
def test_an_agent_process_holding_the_gil_dies_with_the_command(tmp_path: Path,
                                                                group: bool) -> None:
    process, mark = start_run(tmp_path, GIL, "random", "--first", "a", "--hosting", "process")
    wait_for(lambda: stuck(mark, lambda pid: "arena.hosting.child" in command_line(pid)), 60,
             "the agent's process busy")
    kill_and_check(process, mark, group)


@pytest.mark.slow
def test_a_worker_holding_the_gil_dies_with_the_command(tmp_path: Path) -> None:
    process, mark = start_run(tmp_path, GIL, "random", "--first", "a", "--hosting", "inline",
                              "-j", "2")
    wait_for(lambda: stuck(mark, lambda pid: parent_of(pid) == process.pid), 60,
             "the worker busy")
    kill_and_check(process, mark, group=False)  # the worker is left to itself
