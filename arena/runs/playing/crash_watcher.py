"""The watcher of a run's process: what is said when that process dies in native code.

Run as a script, ``python -I -S crash_watcher.py PID DIRECTORY GAMES LOG TOTAL``, by
``arena.runs.playing.crashes``: standard library only, so that it starts fast and shares nothing
with the arena whose process may crash. Its standard input is the read end of the pipe that
process's faulthandler writes to. When process PID ends with a traceback in the pipe (a fatal
signal: a segmentation fault, say), the traceback is appended to LOG (the run's agents.log)
and one line on standard error says how many rows GAMES (the run's games.csv) holds out of
the TOTAL games of the run in DIRECTORY and how to resume. An end with nothing in the pipe (a
normal end, a kill) says nothing.
"""

from __future__ import annotations

import os
import select
import sys

POLL_SECONDS = 0.1
"""Without a pidfd (not Linux): how often the watcher looks whether its parent is gone."""

CHUNK = 65536


def _until_end(pid: int) -> bytes:
    """Everything written to standard input until process ``pid`` (the parent) ends."""
    try:
        ended: int | None = os.pidfd_open(pid)
    except (AttributeError, OSError):  # not Linux, or an old kernel: look at the parent
        ended = None
    received, open_ = [], True
    while True:
        watched = ([0] if open_ else []) + ([ended] if ended is not None else [])
        ready = select.select(watched, [], [], None if ended is not None else POLL_SECONDS)[0]
        if 0 in ready:
            chunk = os.read(0, CHUNK)
            received.append(chunk)
            open_ = bool(chunk)
        gone = ended in ready if ended is not None else os.getppid() != pid
        if gone:
            break
    if open_:  # what the parent wrote just before it ended
        os.set_blocking(0, False)
        try:
            while chunk := os.read(0, CHUNK):
                received.append(chunk)
        except BlockingIOError:
            pass
    return b"".join(received)


def _rows(path: str) -> int:
    """The whole rows of games.csv (a torn last line is not one)."""
    try:
        with open(path, "rb") as file:
            return max(0, file.read().count(b"\n") - 1)
    except OSError:
        return 0


def main() -> None:
    """Wait for the parent to end; report its crash if it left a traceback."""
    pid, directory, games, log, total = int(sys.argv[1]), *sys.argv[2:6]
    traceback = _until_end(pid).decode("utf-8", "replace").strip()
    if not traceback:
        return
    fatal = traceback.splitlines()[0].partition("Fatal Python error: ")[2].strip()
    what = fatal or "a fatal signal"
    saved = _rows(games)
    lines = [f"the arena's process crashed ({what}) with {saved} of {total} games saved; "
             "its Python traceback:", *traceback.splitlines()]
    try:
        with open(log, "a", encoding="utf-8") as file:
            file.write("".join(f"crash: {line}\n" for line in lines))
        where = f"the traceback is in {log}"
    except OSError as error:
        where = f"the traceback, below, could not be written to {log} ({error.strerror})"
        shown = traceback + "\n"
    else:
        shown = ""
    sys.stderr.write(
        f"arena: error: the arena's process crashed ({what}), most likely in an agent of "
        f"yours hosted inline; {saved} of {total} games are saved in {directory} and {where}: "
        "run the same command again to resume (--hosting process keeps such an agent out of "
        "the arena's process: a crash then costs one game)\n" + shown)


if __name__ == "__main__":
    main()
