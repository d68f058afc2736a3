"""Lines to and from a program's standard input and output, each wait bounded by a deadline."""

from __future__ import annotations

import errno
import os
import select
import time
from typing import IO

MAX_LINE = 1 << 20
"""Bytes a line may hold; a longer one is cut there and read as one line."""


class ChannelClosed(Exception):
    """The program closed its end (it exited, most likely)."""


class ChannelTimeout(Exception):
    """The program did not answer (or read what it was sent) before the deadline."""


class LineChannel:
    """Writes lines to a program's stdin and reads lines from its stdout.

    Deadlines are ``time.monotonic()`` values (None: wait as long as it takes). A program
    that stops reading cannot block the writer past its deadline.
    """

    def __init__(self, stdin: IO[bytes], stdout: IO[bytes]):
        self._in = stdin.fileno()
        self._out = stdout.fileno()
        os.set_blocking(self._in, False)
        os.set_blocking(self._out, False)
        self._buffer = bytearray()

    def send(self, text: str, deadline: float | None = None) -> None:
        """Write ``text`` (whole lines, each ending in a newline)."""
        data = memoryview(text.encode("utf-8"))
        while data:
            self._wait(self._in, select.POLLOUT, deadline)
            try:
                written = os.write(self._in, data)
            except BlockingIOError:
                continue
            except OSError as error:  # EPIPE: nobody reads any more
                if error.errno in (errno.EPIPE, errno.EBADF):
                    raise ChannelClosed from None
                raise
            data = data[written:]

    def receive(self, deadline: float | None = None) -> str:
        """The next line the program prints, without its line ending."""
        while True:
            end = self._buffer.find(b"\n")
            if end >= 0 or len(self._buffer) >= MAX_LINE:
                cut = end if end >= 0 else MAX_LINE
                line = bytes(self._buffer[:cut])
                del self._buffer[:cut + 1 if end >= 0 else cut]
                return line.decode("utf-8", errors="replace").rstrip("\r")
            self._wait(self._out, select.POLLIN, deadline)
            try:
                data = os.read(self._out, 65536)
            except BlockingIOError:
                continue
            if not data:
                raise ChannelClosed
            self._buffer += data

    @staticmethod
    def _wait(fd: int, event: int, deadline: float | None) -> None:
        """Wait until ``fd`` is ready for ``event`` (or closed); ChannelTimeout at the deadline."""
        poller = select.poll()
        poller.register(fd, event)
        while True:
            if deadline is None:
                timeout = None
            else:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ChannelTimeout
                timeout = max(1, int(left * 1000 + 0.999))
            if poller.poll(timeout):
                return
