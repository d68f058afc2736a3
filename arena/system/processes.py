"""Processes: how many cores this process may use, the machine's memory, and child Pythons that
import this very arena, wherever it was imported from."""

from __future__ import annotations

import os
from pathlib import Path

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
