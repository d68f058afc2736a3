"""The ``arena`` command run on a pseudo-terminal, as a person runs it: progress bars drawn,
keys typed while it works, signals sent at a chosen moment; what it drew comes back."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import signal
import struct
import subprocess
import termios
import time
from collections.abc import Callable
from pathlib import Path

from tests.helpers.cli import arena_command, checkout_env

Step = tuple[Callable[[str], bool], str | signal.Signals]
"""Once the output so far satisfies the test, type the text (or send the signal)."""


def arena_on_terminal(*args: str, cwd: Path, steps: list[Step] | None = None,
                      timeout: float = 300) -> tuple[int, str]:
    """``arena ARGS...`` in a child Python whose stdin, stdout and stderr are a terminal of
    120 columns; each step in turn waits for its test on the output, then types its text or
    sends its signal. The exit status and everything drawn (with the terminal's ``\\r\\n``)."""
    return on_terminal(arena_command(*args), cwd=cwd, steps=steps, timeout=timeout)


def on_terminal(command: list[str], cwd: Path, steps: list[Step] | None = None,
                timeout: float = 300, env: dict[str, str] | None = None) -> tuple[int, str]:
    """``command`` run as ``arena_on_terminal`` runs ``arena``, in the checkout's environment
    with ``env`` added."""
    main, side = pty.openpty()
    fcntl.ioctl(side, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    process = subprocess.Popen(command, stdin=side, stdout=side, stderr=side, cwd=cwd,
                               env={**checkout_env(), **(env or {})}, start_new_session=True)
    os.close(side)
    pending = list(steps or [])
    drawn = b""
    deadline = time.monotonic() + timeout
    try:
        while True:
            assert time.monotonic() < deadline, f"no end after {timeout} s: {drawn[-500:]!r}"
            if pending and pending[0][0](drawn.decode(errors="replace")):
                action = pending.pop(0)[1]
                if isinstance(action, str):
                    os.write(main, action.encode())
                else:
                    process.send_signal(action)
            if select.select([main], [], [], 0.05)[0]:
                try:
                    chunk = os.read(main, 65536)
                except OSError:  # the terminal closed: every process that held it ended
                    break
                if not chunk:
                    break
                drawn += chunk
    finally:
        os.close(main)
        if process.poll() is None:
            process.kill()
    return process.wait(timeout=60), drawn.decode(errors="replace")
