"""The run directory: ``meta.json`` (what the run is), ``games.csv`` (one row per finished game,
in completion order) and ``summary.csv`` (derived from games.csv).

games.csv is only ever appended to; a line without its newline (the process died while writing
it) is cut off when the run is opened again. While a run writes, games.csv is locked against a
second run.
"""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, TextIO

import numpy as np

from arena.errors import ArenaError

try:
    import fcntl
except ImportError:  # not POSIX: runs are not locked
    fcntl = None  # type: ignore[assignment]

from arena.records import COLUMNS, GameRow, GamesTableError, read_header

if TYPE_CHECKING:
    from arena.worker import AgentOutput

GAMES_FILE = "games.csv"
SUMMARY_FILE = "summary.csv"
META_FILE = "meta.json"
AGENTS_LOG = "agents.log"


class RunDirectoryError(ArenaError):
    """A run directory that belongs to another command, or is in use."""


def run_differences(old: dict[str, Any], new: dict[str, Any]) -> list[str]:
    """The keys whose values differ between two run descriptions, as 'key OLD there, NEW here'."""
    return [
        f"{key} {_show(old.get(key))} there, {_show(new.get(key))} here"
        for key in sorted(old.keys() | new.keys())
        if old.get(key) != new.get(key)
    ]


def _show(value: Any) -> str:
    return json.dumps(value, sort_keys=True)


def claim_run_dir(directory: Path, run: dict[str, Any]) -> dict[str, Any]:
    """Check that ``directory`` is new, or holds this very run; return its meta.json (or {}).

    Refuses a directory whose meta.json describes a different run, or that holds run files
    without a meta.json, so that nothing there is overwritten.
    """
    meta_path = directory / META_FILE
    if meta_path.exists():
        meta = read_meta(directory)
        differences = run_differences(meta.get("run", {}), run)
        if differences:
            raise RunDirectoryError(
                f"{directory} holds a different run ({'; '.join(differences)}); "
                "give another --out or remove that directory"
            )
        return meta
    strays = [name for name in (GAMES_FILE, SUMMARY_FILE) if (directory / name).exists()]
    if strays:
        raise RunDirectoryError(
            f"{directory} holds {', '.join(strays)} but no {META_FILE}: not a run this "
            "command can resume; give another --out"
        )
    return {}


def read_meta(directory: Path) -> dict[str, Any]:
    """The run's meta.json."""
    path = directory / META_FILE
    try:
        meta = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise RunDirectoryError(f"{path}: cannot read it: {error}") from None
    if not isinstance(meta, dict):
        raise RunDirectoryError(f"{path}: expected a JSON object")
    return meta


def write_meta(directory: Path, meta: dict[str, Any]) -> None:
    """Write meta.json atomically (a reader sees the old or the new file, never half)."""
    directory.mkdir(parents=True, exist_ok=True)
    temporary = directory / (META_FILE + ".tmp")
    temporary.write_text(json.dumps(meta, indent=2, default=str) + "\n", encoding="utf-8")
    os.replace(temporary, directory / META_FILE)


class GamesTable:
    """games.csv opened for appending, locked, with its last partial line removed.

    Use as a context manager; ``finished`` tells which game indices are already in the file.
    """

    def __init__(self, path: Path, total_games: int):
        self.path = path
        self.total_games = total_games
        self._file: TextIO | None = None
        self._writer: Any = None
        self.finished = np.zeros(total_games, dtype=bool)

    def __enter__(self) -> GamesTable:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._file = file = self.path.open("a", newline="", encoding="utf-8")
        try:
            self._lock(file)
            truncate_partial_line(self.path)
            if self.path.stat().st_size == 0:
                file.write(",".join(COLUMNS) + "\n")
                file.flush()
            else:
                self._read_finished()
        except BaseException:
            self._close()
            raise
        self._writer = csv.writer(file, lineterminator="\n")
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._close()

    def _close(self) -> None:
        if self._file is not None:
            self._file.close()  # also releases the lock
            self._file = None

    def append(self, rows: Iterable[GameRow]) -> None:
        """Append finished games and push them to the operating system."""
        if self._file is None:
            raise RuntimeError("GamesTable.append outside its with block")
        rows = list(rows)
        self._writer.writerows(_clean(row) for row in rows)
        self._file.flush()
        self.finished[[row.game for row in rows]] = True

    def _lock(self, file: TextIO) -> None:
        if fcntl is None:
            return
        try:
            fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunDirectoryError(
                f"{self.path} is being written by another run; wait for it to finish"
            ) from None

    def _read_finished(self) -> None:
        for line, game in _game_indices(self.path):
            if not 0 <= game < self.total_games:
                raise GamesTableError(
                    f"{self.path}, line {line}: game {game} is outside this run's "
                    f"0 to {self.total_games - 1}"
                )
            if self.finished[game]:
                raise GamesTableError(f"{self.path}, line {line}: game {game} appears twice")
            self.finished[game] = True


def _clean(row: GameRow) -> GameRow:
    """Keep every row on one line: an agent's error message may hold line breaks."""
    if "\n" in row.error or "\r" in row.error:
        return row._replace(error=" ".join(row.error.splitlines()))
    return row


def truncate_partial_line(path: Path) -> None:
    """Cut a last line that lacks its newline (a write cut short by a kill or a crash)."""
    with path.open("r+b") as file:
        size = file.seek(0, os.SEEK_END)
        end = size
        while end > 0:
            start = max(0, end - 65536)
            file.seek(start)
            chunk = file.read(end - start)
            newline = chunk.rfind(b"\n")
            if newline >= 0:
                keep = start + newline + 1
                break
            end = start
        else:
            keep = 0
        if keep < size:
            file.truncate(keep)


def _game_indices(path: Path) -> Iterator[tuple[int, int]]:
    """(line number, game index) of every row of a games.csv, checking its header."""
    with path.open(newline="", encoding="utf-8") as file:
        reader = csv.reader(file)
        if read_header(path, reader):
            for row in reader:
                try:
                    yield reader.line_num, int(row[0])
                except (ValueError, IndexError):
                    raise GamesTableError(
                        f"{path}, line {reader.line_num}: expected a game index, got {row[:1]}"
                    ) from None


def write_outputs(path: Path, outputs: Iterable[AgentOutput]) -> None:
    """Append what agents printed to the run's log, each line under its game and agent."""
    with path.open("a", encoding="utf-8") as log:
        for output in outputs:
            head = f"game {output.game} {output.side.upper()} {output.agent}: "
            log.writelines(head + line + "\n" for line in output.text.splitlines())
