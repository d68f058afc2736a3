"""Requests-per-minute limits of ``llm:`` agents (``rpm=R``): the requests to one model on one
server start at least 60/R seconds apart.

In a run, the playing processes share the limit through a file in the run directory
(``FilePacer``, locked while a request takes its turn), so ``-j 2`` does not double it;
outside a run (an agent built by hand), the agents of one process share it (``Pacer``)."""

from __future__ import annotations

import hashlib
import os
import threading
import time
from pathlib import Path

from arena.runs.store.files import RunFiles

try:
    import fcntl
except ImportError:  # not POSIX: each process keeps its own pace
    fcntl = None  # type: ignore[assignment]


class Pacer:
    """Spaces the requests of every agent of this process that asks one model on one
    server."""

    def __init__(self, rpm: float):
        self.gap = 60.0 / rpm
        self._next = 0.0
        self._lock = threading.Lock()

    def wait(self) -> None:
        """Return when the next request may start."""
        with self._lock:
            now = time.monotonic()
            start = max(now, self._next)
            self._next = start + self.gap
        if start > now:
            time.sleep(start - now)


class FilePacer:
    """Spaces the requests of every process that asks one model on one server for a run: the
    time the next request may start is kept in ``path``, read and moved on under a lock."""

    def __init__(self, path: Path, rpm: float):
        self.path = path
        self.gap = 60.0 / rpm

    def wait(self) -> None:
        """Return when the next request may start."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            if fcntl is not None:
                fcntl.flock(fd, fcntl.LOCK_EX)
            try:
                kept = float(os.read(fd, 64) or 0.0)
            except ValueError:  # torn by a kill: start afresh
                kept = 0.0
            now = time.time()
            start = max(now, kept)
            os.lseek(fd, 0, os.SEEK_SET)
            os.ftruncate(fd, 0)
            os.write(fd, repr(start + self.gap).encode())
        finally:
            os.close(fd)  # the lock with it
        if start > now:
            time.sleep(start - now)


_PACERS: dict[tuple[str, str, float], Pacer] = {}
_PACERS_LOCK = threading.Lock()


def pacer(where: str, model: str, rpm: float) -> Pacer:
    """The pacer this process shares for ``model`` at ``where`` under ``rpm``."""
    with _PACERS_LOCK:
        return _PACERS.setdefault((where, model, rpm), Pacer(rpm))


def run_pacer(files: RunFiles, where: str, model: str, rpm: float) -> FilePacer:
    """The pacer the processes of the run ``files`` share for ``model`` at ``where``."""
    path = files.llm_pace(hashlib.sha256(f"{where}\n{model}".encode()).hexdigest()[:16])
    path.parent.mkdir(parents=True, exist_ok=True)
    return FilePacer(path, rpm)
