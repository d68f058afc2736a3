"""A native crash of the process that plays games (an inline agent's segmentation fault, say):
its traceback kept in the run's agents.log and one line that says how to resume.

No Python runs in a process after a fatal signal, so a small watcher process
(``crash_watcher.py``) outlives it: faulthandler writes the traceback into a pipe the watcher
reads, and when this process ends with a traceback in the pipe, the watcher writes it to
agents.log and prints the line. The games finished before the crash are in games.csv already
(the pool hands them over one by one while such an agent plays), so the same command resumes
the run.
"""

from __future__ import annotations

import faulthandler
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from arena.runs.files import RunFiles

WATCHER = Path(__file__).with_name("crash_watcher.py")


def start_watcher(files: RunFiles, total: int, pipe: int) -> subprocess.Popen[bytes]:
    """The watcher of this process for the run in ``files`` (``total`` games), reading the
    pipe whose read end is ``pipe``. It has a session of its own, so the terminal's Ctrl-C
    is not its, and ends by itself when this process does."""
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
            try:  # before the pipe closes: its number may go to another file
                faulthandler.enable(sys.__stderr__ or sys.stderr)
            except (AttributeError, ValueError, OSError):  # stderr may be no file (tests)
                faulthandler.disable()
            watcher.kill()
            watcher.wait()
