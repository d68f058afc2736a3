"""Processes: how many cores this process may use, the machine's memory, child Pythons that
import this very arena, wherever it was imported from, and workers that die with their parent."""

from __future__ import annotations

import ctypes
import os
import signal
import sys
import threading
import time
from pathlib import Path

PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal this process gets when the thread that started it ends."""
WATCH_SECONDS = 0.5
"""Where Linux's parent-death signal is missing, how often a thread looks for the parent."""

SOURCE_ROOT = str(Path(__file__).resolve().parents[2])
"""The folder that holds the packages ``arena`` and ``agents``."""


def child_environment() -> dict[str, str]:
    """This process's environment with ``SOURCE_ROOT`` first on PYTHONPATH, so that a child
    Python imports the same arena (a checkout, not another installed copy)."""
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, (SOURCE_ROOT, path)))}


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def worker_count(jobs: int | None) -> int:
    """``jobs`` processes, or by default one per available core."""
    return jobs if jobs is not None else available_cores()


def physical_memory() -> int | None:
    """The machine's memory in bytes (None where the system does not say)."""
    try:
        return os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # not POSIX, or no such name
        return None


def die_with_parent(parent: int) -> None:
    """End this process (SIGKILL) as soon as ``parent``, the process that forked it, ends,
    however it ends: on Linux by the kernel's parent-death signal (which needs nothing of this
    process, so a worker stuck in native code holding the GIL dies too; it follows the
    *thread* that forked this process, so call it only in a process forked by a thread that
    outlives it), elsewhere by a thread that looks every WATCH_SECONDS."""
    if sys.platform == "linux":
        libc = ctypes.CDLL(None, use_errno=True)
        if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
            if os.getppid() != parent:  # it ended before the signal was asked for
                os._exit(1)
            return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, daemon=True, name="arena parent watch").start()
