"""A native crash of a process that plays games (an inline agent's segmentation fault, say):
its traceback kept in the run's agents.log and one line that says how to resume.

No Python runs in a process after a fatal signal, so a small watcher process
(``crash_watcher.py``) outlives it: faulthandler writes the traceback into a pipe the watcher
reads, and when this process ends with a traceback in the pipe, the watcher writes it to
agents.log and prints the line. The games finished before the crash are in games.csv already
(the pool hands them over as they end while such an agent plays), so the same command resumes
the run. A worker process's crash is its parent's to tell (``arena.runs.playing.pool``): the
worker's faulthandler writes to agents.log itself (``crashes_logged``).
"""

from __future__ import annotations

import faulthandler
import os
import signal
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from arena.runs.store.files import RunFiles

WATCHER = Path(__file__).with_name("crash_watcher.py")
FATAL_SIGNALS = (signal.SIGSEGV, signal.SIGFPE, signal.SIGABRT, signal.SIGBUS, signal.SIGILL)
"""The signals whose Python traceback faulthandler writes before the process dies."""


@contextmanager
def crashes_logged(log: Path) -> Iterator[None]:
    """While the body runs, faulthandler (where it is enabled) appends a native crash's
    traceback to ``log``; then to standard error again."""
    if not faulthandler.is_enabled():
        yield
        return
    with log.open("ab", buffering=0) as file:
        faulthandler.enable(file, all_threads=True)
        try:
            yield
        finally:
            _back_to_stderr()


def reported_by_faulthandler(exit_code: int) -> bool:
    """Whether a process forked from this one that ended with ``exit_code`` (a
    multiprocessing exit code: minus the signal that ended it) died of a signal that
    faulthandler, enabled here, wrote a traceback for."""
    return faulthandler.is_enabled() and -exit_code in FATAL_SIGNALS


def start_watcher(files: RunFiles, total: int, pipe: int) -> subprocess.Popen[bytes]:
    """The watcher of this process for the run in ``files`` (``total`` games), reading the
    pipe whose read end is ``pipe``. It leads a process group of its own, apart from the
    terminal's, so the terminal's Ctrl-C is not its, and ends by itself when this process does."""
    return subprocess.Popen(
        [sys.executable, "-I", "-S", str(WATCHER), str(os.getpid()), str(files.path),
         str(files.games), str(files.agents_log), str(total)],
        stdin=pipe, stdout=subprocess.DEVNULL, start_new_session=True)


@contextmanager
def crash_report(files: RunFiles, total: int) -> Iterator[None]:
    """While the body runs, a native crash of this process is reported for the run in
    ``files`` (``total`` games). Only where faulthandler is enabled (the ``arena`` command
    enables it), and faulthandler writes to standard error again afterwards."""
    if not faulthandler.is_enabled():
        yield
        return
    read, write = os.pipe()
    try:
        watcher = start_watcher(files, total, read)
    finally:
        os.close(read)
    with os.fdopen(write, "wb", buffering=0) as pipe:
        faulthandler.enable(pipe, all_threads=True)
        try:
            yield
        finally:
            _back_to_stderr()
            watcher.kill()
            watcher.wait()


def _back_to_stderr() -> None:
    """faulthandler on standard error again (before the file it wrote to closes: its number
    may go to another file), or off where standard error is no file (tests)."""
    try:
        faulthandler.enable(sys.__stderr__ or sys.stderr)
    except (AttributeError, ValueError, OSError):
        faulthandler.disable()
