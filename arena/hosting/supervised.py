"""A supervised child process: its output kept in a temporary file, killed with all it started.

Both hosts that run agents in processes of their own stand on this: ``ProcessHost`` (the
arena's child running a Python agent) and ``EngineHost`` (an engine program).
The child runs in a process group of its own, so that killing it also kills whatever it
started (a shell script's programs, say) and the terminal's Ctrl-C never reaches it: its host
decides. The group is led by a *watchdog*, a tiny ``/bin/sh`` that waits on a pipe only this
process writes to: when this process dies, however it dies (``kill -9`` included, or stuck in
native code), the pipe's end closes and the watchdog kills the whole group. It needs neither
this process's GIL nor its cooperation, and while it lives the group's id cannot be reused.
"""

from __future__ import annotations

import os
import signal
import subprocess
import tempfile
from collections.abc import Sequence
from contextlib import suppress
from typing import IO, Any

MAX_OUTPUT = 64 * 1024
"""Bytes of a child's output kept per call of ``take_output``; the rest is cut."""
EXIT_SECONDS = 1.0
"""How long a child that closed its pipes may take to exit before it is killed."""
LAST_LINE = 200
"""Characters of a child's last printed line kept in a fault's message."""
WATCHDOG = ("/bin/sh", "-c", "read _ || kill -KILL 0")
"""Waits for a line that never comes: at end of file (the host's process ended, which holds
the only writing end), it kills its process group: the child and all it started."""


class Watchdog:
    """A process group whose leader kills the group when this process ends (see above)."""

    def __init__(self) -> None:
        reading, self._writing = os.pipe()  # both close on exec: no other program holds them
        try:
            self._process = subprocess.Popen(
                WATCHDOG, stdin=reading, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                process_group=0)
        except BaseException:
            os.close(self._writing)
            raise
        finally:
            os.close(reading)
        self.group = self._process.pid

    def kill(self) -> None:
        """Kill the whole group, the watchdog included (from any thread)."""
        with suppress(ProcessLookupError, PermissionError):
            os.killpg(self.group, signal.SIGKILL)

    def end(self) -> None:
        """Kill the whole group and reap the watchdog."""
        self.kill()
        self._process.wait()
        os.close(self._writing)

    def forget(self) -> None:
        """In a forked copy of this process: close only this copy of the pipe's end."""
        os.close(self._writing)


class ChildProcess:
    """At most one child process at a time, and the temporary file its output goes to.

    The file outlives the children: a child started after another one was stopped appends
    to it, so that ``take_output`` also returns what a crashed child printed last.
    """

    def __init__(self) -> None:
        self.process: subprocess.Popen[bytes] | None = None
        self._watchdog: Watchdog | None = None
        self._log: IO[bytes] | None = None
        self._read_at = 0

    def spawn(self, argv: Sequence[str], *, pipes: bool, **popen: Any) -> subprocess.Popen[bytes]:
        """Start ``argv``; its stderr goes to the log, and so does its stdout unless ``pipes``
        (then stdin and stdout are pipes to this process; else stdin is empty).
        ``popen`` holds further arguments of ``subprocess.Popen`` (cwd, env, pass_fds)."""
        if self._log is None:
            self._log = tempfile.TemporaryFile(prefix="arena-agent-")  # noqa: SIM115 - closed in close()
        watchdog = Watchdog()
        try:
            self.process = subprocess.Popen(
                list(argv), stdin=subprocess.PIPE if pipes else subprocess.DEVNULL,
                stdout=subprocess.PIPE if pipes else self._log, stderr=self._log,
                process_group=watchdog.group, **popen)
        except BaseException:
            watchdog.end()
            raise
        self._watchdog = watchdog
        return self.process

    def take_output(self) -> str:
        """What the children printed to the log since the last call (at most MAX_OUTPUT
        bytes of it)."""
        if self._log is None:
            return ""
        size = os.fstat(self._log.fileno()).st_size
        if size <= self._read_at:
            return ""
        data = os.pread(self._log.fileno(), min(size - self._read_at, MAX_OUTPUT), self._read_at)
        cut = size - self._read_at - len(data)
        self._read_at = size
        text = data.decode("utf-8", errors="replace")
        return text + (f"\n[{cut} more bytes of output cut]\n" if cut else "")

    def ending(self) -> str:
        """How the child that just closed its pipes ended, and the last line it printed, e.g.
        ``exited with status 3; it last printed: ValueError: bad``; the child is stopped."""
        process = self.process
        assert process is not None, "ending() without a child"
        try:
            code = process.wait(EXIT_SECONDS)
        except subprocess.TimeoutExpired:
            code = None
        self.stop()
        if code is None:
            how = f"closed its output but did not exit within {EXIT_SECONDS:g} s, and was killed"
        elif code < 0:
            how = f"was killed by {signal.Signals(-code).name}"
        else:
            how = f"exited with status {code}"
        last = self._last_line()
        return how + (f"; it last printed: {last}" if last else "")

    def kill(self) -> None:
        """Kill the child and everything it started, at once (from any thread)."""
        watchdog = self._watchdog
        if watchdog is not None:
            watchdog.kill()

    def stop(self) -> None:
        """Kill the child (if any) and what it started, wait for it and close its pipes."""
        process, self.process = self.process, None
        watchdog, self._watchdog = self._watchdog, None
        if process is None or watchdog is None:
            return
        watchdog.end()  # also once the child ended: what it started
        process.wait()
        for pipe in (process.stdin, process.stdout):
            if pipe is not None:
                with suppress(OSError):
                    pipe.close()

    def abandon(self) -> None:
        """Forget the child without touching it (in a forked copy of this process): only our
        copies of its pipes are closed."""
        process, self.process = self.process, None
        watchdog, self._watchdog = self._watchdog, None
        if watchdog is not None:
            watchdog.forget()
        if process is not None:
            for pipe in (process.stdin, process.stdout):
                if pipe is not None:
                    with suppress(OSError):
                        pipe.close()
        self._log, self._read_at = None, 0

    def close(self) -> None:
        """Stop the child and delete the log."""
        self.stop()
        if self._log is not None:
            self._log.close()
            self._log, self._read_at = None, 0

    def _last_line(self) -> str:
        if self._log is None:
            return ""
        size = os.fstat(self._log.fileno()).st_size
        tail = os.pread(self._log.fileno(), min(size, 4096), max(0, size - 4096))
        lines = tail.decode("utf-8", errors="replace").strip().splitlines()
        return lines[-1][:LAST_LINE] if lines else ""
