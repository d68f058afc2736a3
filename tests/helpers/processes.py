"""Processes seen from /proc (Linux): which still run, which a run started, how much CPU they
used; for the tests that stop runs with real signals."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from pathlib import Path

MARK = "ARENA_TEST_MARK"
"""An environment variable every process of a marked run inherits (``marked``)."""


def _stat(pid: int | str) -> list[str]:
    """The fields of /proc/PID/stat after the command name (state first)."""
    return Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()


def is_running(pid: int) -> bool:
    """True if process ``pid`` exists and is not a zombie."""
    try:
        return _stat(pid)[0] != "Z"
    except OSError:
        return False


def running_in_group(group: int) -> list[int]:
    """The processes of a process group that still run (not zombies)."""
    running = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = _stat(entry.name)
        except OSError:
            continue  # it ended while we looked
        if int(fields[2]) == group and fields[0] != "Z":
            running.append(int(entry.name))
    return running


def marked(mark: str) -> list[int]:
    """The processes still running (not zombies) whose environment holds ``MARK=mark``."""
    wanted = f"{MARK}={mark}".encode()
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if wanted in (entry / "environ").read_bytes().split(b"\0") and is_running(
                    int(entry.name)):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def command_line(pid: int) -> list[str]:
    """The arguments process ``pid`` was started with (empty once it ended)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode().split("\0")[:-1]
    except OSError:
        return []


def parent_of(pid: int) -> int | None:
    """The parent process of ``pid`` (None once it ended)."""
    try:
        return int(_stat(pid)[1])
    except OSError:
        return None


def cpu_seconds(pid: int) -> float:
    """The CPU time process ``pid`` used so far, in seconds (0 once it ended)."""
    try:
        fields = _stat(pid)
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def wait_for(condition: Callable[[], bool], seconds: float, what: str) -> None:
    """Poll ``condition`` until it holds; fail the test (AssertionError naming ``what``) if it
    does not within ``seconds`` (a bound on a hang, not a measure of speed)."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"still not {what} after {seconds:g} s"
        time.sleep(0.05)
