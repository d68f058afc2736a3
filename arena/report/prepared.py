"""A report writer made ready while the games play: a forked child process loads the
report's libraries (matplotlib, pandas: about a second) beside the games, then writes the
report when the run is done, so a run's command does not wait for those imports at its end.

Where the platform cannot fork, or the child fails, the report is written in this process
as before: the child only ever saves time.
"""

from __future__ import annotations

import multiprocessing
import signal
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

from arena.runs.planning.charts import ChartOptions
from arena.system.collector import uncollected

__all__ = ["ReportWriter", "prepared_writer"]


def _serve(connection: Connection) -> None:
    """The child: load the report's code, then write the one report asked for (or none)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    try:
        with uncollected():
            from arena.report.run_page import write_report

        request = connection.recv()
    except (EOFError, OSError, ImportError):
        return
    if request is None:
        return
    directory, options = request
    try:
        connection.send(("ok", str(write_report(Path(directory), options))))
    except Exception as error:  # noqa: BLE001 - the parent writes it again and says why
        connection.send(("failed", repr(error)))


class ReportWriter:
    """Writes a run's report: in the child made ready beforehand when there is one."""

    def __init__(self, process: Any = None, connection: Connection | None = None) -> None:
        self._process = process
        self._connection = connection

    def write(self, directory: Path, options: ChartOptions | None = None) -> Path:
        """Write the report of ``directory`` (see ``run_page.write_report``); its path."""
        if self._connection is not None:
            try:
                self._connection.send((str(directory), options or ChartOptions()))
                status, text = self._connection.recv()
                if status == "ok":
                    return Path(text)
            except (EOFError, OSError):
                pass
            finally:
                self.close()
        with uncollected():
            from arena.report.run_page import write_report  # matplotlib and pandas load now

        return write_report(directory, options)

    def close(self) -> None:
        """Let the child go (it exits without writing anything if it was not asked to)."""
        if self._connection is not None:
            with suppress(OSError):  # a child done already has gone
                self._connection.send(None)
            self._connection.close()
            self._connection = None
        if self._process is not None:
            self._process.join(timeout=5)
            if self._process.is_alive():
                self._process.terminate()
            self._process = None


@contextmanager
def prepared_writer(ready: bool) -> Iterator[ReportWriter]:
    """A ReportWriter whose child starts loading now when ``ready`` (and the platform forks);
    the child is let go when the block ends, used or not."""
    writer = ReportWriter()
    if ready and "fork" in multiprocessing.get_all_start_methods():
        parent, child = multiprocessing.get_context("fork").Pipe()
        process = multiprocessing.get_context("fork").Process(
            target=_serve, args=(child,), daemon=True, name="arena-report")
        process.start()
        child.close()
        writer = ReportWriter(process, parent)
    try:
        yield writer
    finally:
        writer.close()
