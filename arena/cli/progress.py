"""How the commands that play games handle interruptions and dead workers around a progress
bar."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import click

from arena.cli.status import INTERRUPTED, NO_ROOM, WORKER_DIED
from arena.protocol.agent import GameAbandoned
from arena.runs.playing.pool import WorkerDiedError
from arena.runs.playing.progress import ProgressBar
from arena.system.files import NoRoomError

T = TypeVar("T")
B = TypeVar("B", bound="ProgressBar")


def with_progress(total: int, directory: Path, quiet: bool, play: Callable[[B], T],
                  bar: type[B]) -> T:
    """Call ``play`` with a progress bar of kind ``bar`` (unless ``quiet``; on a terminal).

    An interruption ends the command with a one-line note and exit status 130; a worker
    process that died, with a one-line error and status 1; a file that found no room to be
    written (a full disk), with a one-line error and status 2. Finished games stay on disk.
    """
    progress = bar(enabled=not quiet)
    try:
        with progress:  # closed before any note, which then starts a line of its own
            return play(progress)
    except (KeyboardInterrupt, GameAbandoned):
        click.echo(f"arena: interrupted with {progress.finished} of {total} games in "
                   f"{directory}; run the same command to finish", err=True)
        raise click.exceptions.Exit(INTERRUPTED) from None
    except WorkerDiedError as error:
        click.echo(f"arena: error: {error}; {progress.finished} of {total} games are saved "
                   f"in {directory}; run the same command to finish", err=True)
        raise click.exceptions.Exit(WORKER_DIED) from None
    except NoRoomError as error:
        click.echo(f"arena: error: {error}; at least {progress.finished} of {total} games "
                   f"are saved in {directory}; make room and run the same command to finish",
                   err=True)
        raise click.exceptions.Exit(NO_ROOM) from None
