"""The run directory, claimed by a run: ``meta.json`` (what the run is), ``games.csv`` (one row
per finished game) and ``summary.csv`` (derived from games.csv), plus ``agents.log`` and what
competitions, the analysis and the report add (their names: ``arena.runs.store.files``).

A run claims its directory with an exclusive lock before it writes anything; every file but
games.csv is written atomically under a unique temporary name. games.csv is appended to as
games finish, every row it already holds checked against the plan when the run is opened
again (a last line without its newline, cut short by a kill, is dropped), and sorted by game
when the run ends, so that the same command gives the same file.
"""

from __future__ import annotations

import csv
import io
import itertools
import mmap
import os
from collections.abc import Iterable, Mapping
from contextlib import suppress
from pathlib import Path
from types import TracebackType
from typing import IO, Any, NamedTuple

import numpy as np

from arena.rules.errors import ArenaError
from arena.rules.results import Side
from arena.runs.planning.description import RunDescription
from arena.runs.planning.plan import MatchPlan
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import RunMeta, load_meta, write_meta
from arena.runs.store.rows import COLUMNS, GameRow
from arena.runs.store.validation import check_games, held_games
from arena.system.files import (
    UnwritableError,
    check_writable,
    complete_length,
    directory_problem,
    room_checked,
    write_all,
    write_chunks_atomically,
)

try:
    import fcntl
except ImportError:  # not POSIX: runs are not locked
    fcntl = None  # type: ignore[assignment]


class AgentOutput(NamedTuple):
    """What an agent printed during one game."""

    game: int
    side: Side
    agent: str
    text: str


class RunDirectoryError(ArenaError):
    """A run directory that belongs to another command, is in use, or cannot be used."""


class RunDirectory:
    """A run directory claimed by this process: created if need be, and locked for as long as
    the ``with`` block lasts, so that no other run (nor report) writes into it meanwhile.

    The lock file is removed at the end of the block, so a command leaves no file behind but
    what it wrote: one this process made, and one it found but could lock (left by a process
    that was killed: its holder is gone); the directories this process created (the run's and
    the missing ones above it) are removed again if the block fails before anything else was
    written into them.
    """

    def __init__(self, path: Path, create: bool = True):
        self.path = path
        self.create = create
        self._fd: int | None = None
        self._owns_lock = False
        self._created: list[Path] = []

    @property
    def files(self) -> RunFiles:
        """The run's files."""
        return RunFiles(self.path)

    def __enter__(self) -> RunDirectory:
        where = f"cannot use {self.path} as a run directory"
        try:
            if self.create:
                self._created = missing_directories(self.path)
                self.path.mkdir(parents=True, exist_ok=True)
            check_writable(self.path, "a run")
            while self._fd is None:
                self._fd, self._owns_lock = _lock(RunFiles(self.path).lock)
        except OSError as error:
            raise RunDirectoryError(f"{where}: {directory_problem(self.path, error)}") from None
        except UnwritableError as error:
            raise RunDirectoryError(f"{where}: {error.reason}") from None
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self._fd is not None:
            if self._owns_lock:  # removed while still held: see _lock
                with suppress(OSError):
                    RunFiles(self.path).lock.unlink()
            os.close(self._fd)  # releases the lock
            self._fd = None
        if error is not None:
            with suppress(OSError):
                for made in self._created:
                    made.rmdir()  # only if nothing else was written

    def read_meta(self) -> RunMeta | None:
        """meta.json, checked, or None when the directory holds no run yet."""
        return existing_meta(self.path)

    def write_meta(self, meta: RunMeta) -> None:
        """Write meta.json atomically."""
        write_meta(self.path, meta)


def missing_directories(path: Path) -> list[Path]:
    """The directories that making ``path`` creates: itself and its missing parents, the
    deepest first."""
    missing = []
    for directory in (path, *path.parents):
        if directory.exists() or directory.is_symlink():
            break
        missing.append(directory)
    return missing


def _lock(path: Path) -> tuple[int | None, bool]:
    """Open the lock file ``path`` (made if missing) and lock it: its descriptor and whether
    the file is this process's to remove (it made it, or locked one whose holder is gone;
    without file locks, only one it made); (None, False) if the file was removed meanwhile by
    the process that held it (try again). RunDirectoryError if another process holds it.

    A process removes the lock file while it still holds it; another process that opened the
    file before then gets its lock on a file no longer there, and must see it."""
    try:
        fd, made = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644), True
    except FileExistsError:
        try:
            fd, made = os.open(path, os.O_RDWR), False
        except FileNotFoundError:
            return None, False
    if fcntl is not None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise RunDirectoryError(f"{path.parent} is in use by another run (or report); "
                                    "wait for it to finish") from None
    try:
        current = os.stat(path)
    except FileNotFoundError:
        current = None
    held = os.fstat(fd)
    if current is None or (current.st_dev, current.st_ino) != (held.st_dev, held.st_ino):
        os.close(fd)
        return None, False
    return fd, made or fcntl is not None


def existing_meta(directory: Path) -> RunMeta | None:
    """The meta.json of the run in ``directory``, or None when it holds no run yet: it does
    not exist, or is empty (RunDirectoryError when it holds files but no meta.json: other
    files, or a run's tables without it; MetaError when meta.json is damaged)."""
    files = RunFiles(directory)
    if not files.meta.exists():
        strays = sorted(path.name for path in directory.iterdir()
                        if path.name != files.LOCK) if directory.is_dir() else []
        if strays:
            shown = ", ".join(strays[:3]) + (f" and {len(strays) - 3} more"
                                              if len(strays) > 3 else "")
            raise RunDirectoryError(
                f"{directory} holds {shown} but no {files.META}: not a run this command can "
                "resume, and a new run needs a new or empty directory; give another --out")
        return None
    return load_meta(directory)


Description = RunDescription | Mapping[str, Any]
"""A run's description, or its JSON object (as meta.json and earlier versions hold it)."""


def run_differences(old: Description, new: Description) -> list[str]:
    """The keys whose values differ between two run descriptions, as 'key OLD there, NEW here'
    (``RunDescription.differences``)."""
    return RunDescription.from_json(old).differences(RunDescription.from_json(new))


def extends(old: Description, new: Description) -> bool:
    """True if ``new`` is ``old`` with more games for every pairing alike, so that every game
    of ``old`` keeps its index (``RunDescription.extended_by``)."""
    return RunDescription.from_json(old).extended_by(RunDescription.from_json(new))


def check_run(directory: Path, old: Description, run: Description) -> None:
    """Refuse a directory whose run (described by ``old``) is not ``run`` and that ``run``
    does not extend."""
    old, run = RunDescription.from_json(old), RunDescription.from_json(run)
    if old == run or old.extended_by(run):
        return
    hint = ("give more games to extend it, another --out, or remove that directory"
            if old.same_but_counts(run) else "give another --out or remove that directory")
    raise RunDirectoryError(f"{directory} holds a different run "
                            f"({'; '.join(old.differences(run))}); {hint}")


def check_directory(directory: Path, run: Description) -> None:
    """Refuse, before any game, a directory that holds another run (without locking it)."""
    meta = existing_meta(directory)
    if meta is not None:
        check_run(directory, meta.run, run)


class GamesTable:
    """games.csv opened for appending, each row it holds checked against the plan first.

    Use as a context manager, in a locked ``RunDirectory``; ``finished`` tells which game
    indices the file holds. A last line without its newline (a write cut short by a kill) is
    cut off, once the rest of the file has passed the check. ``in_order``: the file holds
    nothing but the rows this table appended, in the order of their games (no sort needed).
    ``trusted``: the file is as the run left it (``arena.runs.store.summary.games_as_left``), so
    its rows are not checked again, only their game indices read.
    """

    def __init__(self, path: Path, plan: MatchPlan, trusted: bool = False):
        self.path = path
        self.plan = plan
        self.trusted = trusted
        self._file: IO[bytes] | None = None
        self.finished = np.zeros(plan.total, dtype=bool)
        self.in_order = True
        self._last = -1
        self._text = io.StringIO()  # one writer for every append: games may come one by one
        self._csv = csv.writer(self._text, lineterminator="\n")

    def __enter__(self) -> GamesTable:
        if self.path.exists():
            complete = complete_length(self.path)
            self.finished = held_games(self.path, self.plan.total) if self.trusted \
                else check_games(self.path, self.plan, complete)
            if complete < self.path.stat().st_size:
                os.truncate(self.path, complete)
            self.in_order = not self.finished.any()
        self._file = file = self.path.open("ab", buffering=0)
        if file.tell() == 0:
            try:
                with room_checked(self.path):
                    write_all(file.fileno(), (",".join(COLUMNS) + "\n").encode("utf-8"))
            except BaseException:  # a torn header would make the run unreadable: no file
                file.close()
                self._file = None
                self.path.unlink()
                raise
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    def append(self, rows: Iterable[GameRow]) -> None:
        """Append finished games and push them to the operating system."""
        rows = list(rows)
        self._text.seek(0)
        self._text.truncate()
        self._csv.writerows(_clean(row) for row in rows)
        self.append_text(self._text.getvalue().encode("utf-8"),
                         np.array([row.game for row in rows], dtype=np.int64))

    def append_text(self, text: bytes, games: np.ndarray) -> None:
        """Append the rows ``text`` (whole lines) of finished games ``games``, in the
        order of the lines, and push them to the operating system."""
        if self._file is None:
            raise RuntimeError("GamesTable.append outside its with block")
        with room_checked(self.path):
            write_all(self._file.fileno(), text)
        if len(games) == 1:  # games handed over one by one: no array operation
            game = int(games[0])
            self.in_order = self.in_order and game > self._last
            self._last = max(self._last, game)
            self.finished[game] = True
            return
        if len(games):
            self.in_order = self.in_order and bool(
                games[0] > self._last and np.all(games[1:] > games[:-1]))
            self._last = max(self._last, int(games.max()))
        self.finished[games] = True


def _clean(row: GameRow) -> GameRow:
    """Keep every row on one line: an agent's error message may hold line breaks."""
    if "\n" in row.error or "\r" in row.error:
        return row._replace(error=" ".join(row.error.splitlines()))
    return row


SCAN_BYTES = 1 << 23
"""Bytes of games.csv scanned for line ends at once when it is sorted."""
SORTED_LINES = 1 << 16
"""Lines of a sorted games.csv gathered and written at once."""


def sort_games(path: Path) -> None:
    """Leave games.csv sorted by game index (atomically), unless it is already. The file is
    read through a memory map and written in pieces: what it takes beyond the file's pages is
    a few numbers a game, not the text (a 1,000,000-game file would otherwise be held twice)."""
    if path.stat().st_size == 0:
        return
    with path.open("rb") as source, mmap.mmap(source.fileno(), 0, access=mmap.ACCESS_READ) as data:
        text = np.frombuffer(data, dtype=np.uint8)
        ends = np.concatenate([np.flatnonzero(text[at:at + SCAN_BYTES] == ord("\n")) + at + 1
                               for at in range(0, len(text), SCAN_BYTES)])
        starts, ends = ends[:-1], ends[1:]  # the header is the line before the first start
        order = np.argsort(_game_indices(text, starts), kind="stable")
        if np.all(order[1:] > order[:-1]):
            del text
            return
        pieces = (b"".join(data[starts[i]:ends[i]] for i in order[at:at + SORTED_LINES])
                  for at in range(0, len(order), SORTED_LINES))
        header = bytes(data[:starts[0]])  # there are rows: a file of none is in order
        del text  # no view of the map outlives it
        write_chunks_atomically(path, itertools.chain([header], pieces))


def _game_indices(text: np.ndarray, starts: np.ndarray) -> np.ndarray:
    """The game index (the leading digits) of each line of ``text`` starting at ``starts``."""
    indices = np.zeros(len(starts), dtype=np.int64)
    growing = np.ones(len(starts), dtype=bool)
    for offset in range(19):  # an int64 has at most 19 digits
        at = np.minimum(starts + offset, len(text) - 1)
        digit = text[at].astype(np.int64) - ord("0")
        growing &= (digit >= 0) & (digit <= 9)
        if not growing.any():
            break
        indices[growing] = indices[growing] * 10 + digit[growing]
    return indices


def write_outputs(path: Path, outputs: Iterable[AgentOutput]) -> None:
    """Append what agents printed to the run's log, each line under its game and agent."""
    lines = [f"game {output.game} {output.side.upper()} {output.agent}: {line}\n"
             for output in outputs for line in output.text.splitlines()]
    with room_checked(path), path.open("ab", buffering=0) as log:
        write_all(log.fileno(), "".join(lines).encode("utf-8"))
