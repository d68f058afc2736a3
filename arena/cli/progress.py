"""The progress bar of the commands that play games, and their handling of interruptions."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from types import TracebackType
from typing import Any, Self, TypeVar

import click
from tqdm import tqdm

from arena.agent import GameAbandoned
from arena.pool import WorkerDiedError
from arena.records import GameRow

INTERRUPTED = 130
WORKER_DIED = 1

T = TypeVar("T")
B = TypeVar("B", bound="ProgressBar")


class ProgressBar:
    """A tqdm bar on stderr: games done, games per second, time left, and the wins, ties and
    losses of agent A in the games played by this command."""

    def __init__(self, enabled: bool):
        self.enabled = enabled
        self.counts = {"win": 0, "draw": 0, "loss": 0}
        self.finished = 0
        self._bar: tqdm[Any] | None = None

    def start(self, total: int, finished: int) -> None:
        """Open the bar at the games already played."""
        self.finished = finished
        if self.enabled:
            self._bar = tqdm(total=total, initial=finished, unit="game", file=sys.stderr,
                             dynamic_ncols=True, smoothing=0.1)

    def advance(self, rows: list[GameRow]) -> None:
        """Count finished games."""
        for row in rows:
            self.counts[row.result] += 1
        self.finished += len(rows)
        if self._bar is not None:
            self._bar.set_postfix_str("W/T/L {win}/{draw}/{loss}".format(**self.counts),
                                      refresh=False)
            self._bar.update(len(rows))

    def __enter__(self) -> Self:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self._bar is not None:
            self._bar.close()


def with_progress(total: int, directory: Path, quiet: bool, play: Callable[[B], T],
                  bar: type[B]) -> T:
    """Call ``play`` with a progress bar of kind ``bar`` (on a terminal, unless ``quiet``).

    An interruption ends the command with a one-line note and exit status 130; a worker
    process that died, with a one-line error and status 1. Finished games stay on disk.
    """
    with bar(enabled=not quiet and sys.stderr.isatty()) as progress:
        try:
            return play(progress)
        except (KeyboardInterrupt, GameAbandoned):
            click.echo(f"arena: interrupted with {progress.finished} of {total} games in "
                       f"{directory}; run the same command to finish", err=True)
            raise click.exceptions.Exit(INTERRUPTED) from None
        except WorkerDiedError as error:
            click.echo(f"arena: error: {error}; {progress.finished} of {total} games are saved "
                       f"in {directory}; run the same command to finish", err=True)
            raise click.exceptions.Exit(WORKER_DIED) from None
