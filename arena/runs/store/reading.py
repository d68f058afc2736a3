"""A run directory opened for reading: checked as a resume checks it, and never written.

``open_run`` is how every command that only reads a run (``arena report``, ``show``, ``export
html``, ``analyze``, ``accuracy --set games:DIR``) and the API's ``load_games`` open it:
meta.json through ``load_meta``, then every row of games.csv through ``check_games`` against the
plan meta.json describes, so a damaged run is one error naming the file (and the line), not a
report of the wrong games. A run whose games.csv and description are what it left when it
ended (their digests are in meta.json) is trusted without the check: its rows are its own.
A last line without its newline (a write cut short by a kill) is left unread, as a resume
would cut it; the reader does not cut it (it writes nothing), and running the command that
made the run again repairs the file.
"""

from __future__ import annotations

import os
from collections.abc import Container, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, BinaryIO

import numpy as np

from arena.rules.errors import ArenaError
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import RunMeta, load_meta
from arena.runs.store.rows import GameRow, GamesTableError, games_table, read_rows
from arena.runs.store.summary import games_as_left
from arena.runs.store.validation import check_games, held_games
from arena.system.files import complete_length, open_prefix

if TYPE_CHECKING:
    import pandas as pd


class NoRunError(ArenaError):
    """A directory that holds no run: it does not exist, lacks games.csv or meta.json, or holds
    not one game yet."""


@dataclass(frozen=True)
class RunReading:
    """A run as a reader sees it: meta.json loaded, and the rows of games.csv up to its last
    complete line (``length`` bytes), every one checked against the run's plan."""

    directory: Path
    meta: RunMeta
    length: int
    finished: np.ndarray  # the games the rows hold, by index
    inode: tuple[int, int]  # games.csv's device and inode when it was checked

    @property
    def files(self) -> RunFiles:
        """The run's files."""
        return RunFiles(self.directory)

    def rows(self, games: Container[int] | None = None) -> Iterator[GameRow]:
        """The checked rows (those of the game indices ``games``), in file order."""
        self._same_file()
        return read_rows(self.files.games, self.length, games)

    def games(self, columns: Sequence[str] | None = None) -> pd.DataFrame:
        """The checked rows as a DataFrame sorted by game, with proper dtypes (see
        ``arena.runs.store.rows.games_table``): every column, or only ``columns`` (and
        ``game``)."""
        self._same_file()
        return games_table(self.files.games, self.length, columns)

    def open_games(self) -> BinaryIO:
        """games.csv opened to read the checked rows' bytes (the header first)."""
        self._same_file()
        return open_prefix(self.files.games, self.length)

    def _same_file(self) -> None:
        """Refuse a games.csv replaced since it was checked (a run that ended meanwhile
        sorts it anew)."""
        if _identity(self.files.games) != self.inode:
            raise _replaced(self.files.games)


def not_a_run(directory: Path, missing: str) -> NoRunError:
    """The error of a ``directory`` that holds no run: it does not exist, is a file, or has
    no ``missing`` (a file of a run)."""
    what = ("does not exist" if not directory.exists() else
            "is a file, not a directory" if not directory.is_dir() else f"has no {missing}")
    return NoRunError(f"{directory} is not a run directory: it {what}")


def open_run(directory: Path | str) -> RunReading:
    """The run in ``directory``, checked as a resume checks it, without writing anything:
    NoRunError if there is no run with a game, MetaError for a damaged meta.json,
    GamesTableError naming the line of the first row that does not fit the run."""
    directory = Path(directory)
    files = RunFiles(directory)
    for needed in (files.games, files.meta):
        if not needed.is_file():
            if files.round(1).is_dir():  # the top of a Swiss or knockout tournament
                raise NoRunError(f"{directory} holds the rounds of a tournament, each a run: "
                                 f"give one of them, such as {files.round(1)}")
            raise not_a_run(directory, needed.name)
    meta = load_meta(directory)
    before = _identity(files.games)
    length = complete_length(files.games)
    plan = meta.plan()
    try:
        if games_as_left(files, meta):
            finished = held_games(files.games, plan.total)
        else:
            finished = check_games(files.games, plan, length)
    except GamesTableError:
        if _identity(files.games) != before:
            raise _replaced(files.games) from None
        raise
    if not finished.any():
        raise NoRunError(f"{files.games} holds no games yet")
    return RunReading(directory, meta, length, finished, before)


def load_games(path: Path | str) -> pd.DataFrame:
    """A run's games.csv as a DataFrame sorted by game index, with proper dtypes, once every
    row is checked against the run's meta.json beside it (``open_run``); a last line cut
    short by a kill is left out."""
    path = Path(path)
    if path.name != RunFiles.GAMES:
        raise NoRunError(f"{path}: load_games reads a run's {RunFiles.GAMES} (checked "
                         f"against the {RunFiles.META} beside it)")
    return open_run(path.parent).games()


def _replaced(path: Path) -> GamesTableError:
    """The error of a games.csv replaced while it was read."""
    return GamesTableError(f"{path} was replaced while it was read (a run was writing it); "
                           "run the same command again")


def _identity(path: Path) -> tuple[int, int]:
    """The device and inode of ``path`` (a file replaced atomically gets a new inode)."""
    status = os.stat(path)
    return status.st_dev, status.st_ino
