"""The published 12-ply database of the 6 x 7 board: the exact score of every position of
exactly 12 discs, the solver's book on that board.

The file is ``book_12ply_distances.dat`` of the ``bitbully-databases`` package (Markus
Thill, MIT licence), the data BitBully's solver uses. It holds 4,200,899 records of five
bytes, sorted by their first four: a position's code, a big-endian signed 32-bit integer,
then its value, a signed byte. The code lists the columns left to right, each from the
bottom up: ``10`` for a disc of the first player, ``11`` for one of the second, ``0`` after
the column's last disc (a full column too), and one ``0`` at the end; 12 discs make
exactly 32 bits. The value is for the first player, who is to move: 0 for a draw, else
``100 - d`` for a win and ``d - 100`` for a loss, where the winning disc is the ``d``-th
from now. In Pons' convention (``arena.search.kernels.solver``) that is ``(44 - 12 - d) //
2`` points for the winner.

It holds every position of 12 discs where nobody has won and the side to move cannot win
at once (those the solver answers without a search), one of each mirror pair in either
orientation (so a lookup tries the position, then its mirror image). Checked here: of the
11,662,778 such positions (both images) all are found, and only the 3,262,449 with a win
at once are missing (``docs/database.md``).

``CONNECT_FOUR_ARENA_DATABASE=off`` turns it off (every position is searched); a path
there uses that file instead of the packaged one. A file of the wrong size or checksum is
a ``DatabaseError`` naming it, never a wrong score.
"""

from __future__ import annotations

import hashlib
import importlib.util
import os
import stat
from functools import cache
from pathlib import Path

import numpy as np

from arena.rules.board import Position, Rules
from arena.rules.errors import ArenaError

DATABASE_ENV = "CONNECT_FOUR_ARENA_DATABASE"
OFF = "off"
RULES = Rules(6, 7, 4)
PLIES = 12
"""The discs of every position the database holds."""
RECORD = 5  # bytes: the code (4, big-endian, signed), the value (1, signed)
ENTRIES = 4_200_899
SHA256 = "1e01874dbb9b296a96baa2f5483ae69333ac7009377b34b222f112d9d8e89704"
"""The checksum of the file published in bitbully-databases 0.0.2."""
PACKAGE = "bitbully_databases"
PACKAGED_FILE = ("assets", "book_12ply_distances.dat")
RECORD_DTYPE = np.dtype([("code", ">i4"), ("value", "i1")])


class DatabaseError(ArenaError):
    """The database file is missing, truncated or damaged."""


class Database:
    """The records of a verified database file, memory-mapped read-only (``records``:
    uint8, ``RECORD`` bytes an entry, as the solver's kernels read them)."""

    def __init__(self, path: Path, records: np.ndarray):
        self.path = path
        self.records = records
        self.index = bucket_index(records)
        self._codes: np.ndarray | None = None

    def __len__(self) -> int:
        return len(self.records) // RECORD

    @property
    def table(self) -> np.ndarray:
        """The records as a structured array: ``code`` and ``value``."""
        return self.records.view(RECORD_DTYPE)

    def entry(self, index: int) -> tuple[Position, int]:
        """The position of record ``index`` and its exact score (Pons' convention)."""
        code, value = self.table[index]
        current = mask = 0
        for column, discs in enumerate(code_columns(int(code))):
            for row, player in enumerate(discs):
                bit = RULES.cell_bit(column, row)
                mask |= bit
                current |= bit if player == 1 else 0  # the first player is to move
        return Position(RULES, current, mask), pons_score(int(value), PLIES)

    def score(self, position: Position) -> int | None:
        """The exact score of ``position`` for the side to move (Pons' convention), or None
        if the database does not hold it (another board, another number of discs, or a win
        at once)."""
        if position.rules != RULES or position.plies != PLIES:
            return None
        if self._codes is None:
            self._codes = self.table["code"].astype(np.int32)
        for code in (position_code(position), position_code(position.mirror())):
            index = int(np.searchsorted(self._codes, code))
            if index < len(self._codes) and self._codes[index] == code:
                return pons_score(int(self.table["value"][index]), position.plies)
        return None


def bucket_index(records: np.ndarray) -> np.ndarray:
    """Where the records of each value of a code's top 16 bits begin (the kernel's
    ``Books.database_index``): 2**16 + 1 int32 offsets, the last the number of records.

    The records are sorted, so the records of a value begin after all those of smaller
    values: the offsets are the running totals of each value's count (one pass over the
    4.2 M codes, where 65,537 binary searches among them cost 40-100 ms a solve). The top
    16 bits are read in place, a big-endian uint16 every ``RECORD`` bytes, their sign bit
    flipped so that they count in the order of the signed codes."""
    entries = len(records) // RECORD
    top = np.ndarray((entries,), dtype=">u2", buffer=records, strides=(RECORD,))
    index = np.zeros((1 << 16) + 1, dtype=np.int32)
    np.cumsum(np.bincount(top.astype(np.intp) ^ 0x8000, minlength=1 << 16), out=index[1:])
    return index


def pons_score(value: int, plies: int, cells: int = 42) -> int:
    """The score in Pons' convention of a database ``value`` for the side to move in a
    position of ``plies`` discs (which is the first player's)."""
    if value == 0:
        return 0
    points = (cells + 2 - plies - (100 - abs(value))) // 2
    return points if value > 0 else -points


def position_code(position: Position) -> int:
    """The database's code of ``position`` (signed 32-bit, as stored)."""
    code = 0
    for column in range(position.rules.cols):
        for row in range(position.rules.rows):
            owner = position.cell(column, row)
            if owner == 0:
                break
            code = code << 2 | (2 if owner == 1 else 3)
        code <<= 1
    code <<= 1
    return code - (1 << 32) if code >= 1 << 31 else code


def code_columns(code: int) -> tuple[tuple[int, ...], ...]:
    """The columns of discs (1 or 2, bottom up) that a code stands for, left to right."""
    bits = format(code & 0xFFFF_FFFF, "032b")
    columns = []
    at = 0
    for _ in range(RULES.cols):
        column = []
        while bits[at] == "1":
            column.append(1 if bits[at + 1] == "0" else 2)
            at += 2
        at += 1
        columns.append(tuple(column))
    return tuple(columns)


def database_setting() -> str | None:
    """What ``CONNECT_FOUR_ARENA_DATABASE`` says: ``OFF``, a path, or None (the default)."""
    value = os.environ.get(DATABASE_ENV, "").strip()
    if not value:
        return None
    return OFF if value.lower() in (OFF, "0", "no", "false", "none") else value


def packaged_path() -> Path:
    """Where pip put the database of the bitbully-databases package."""
    spec = importlib.util.find_spec(PACKAGE)
    if spec is None or not spec.submodule_search_locations:
        raise DatabaseError(f"the 6 x 7 database needs the bitbully-databases package: "
                            f"python3 -m pip install bitbully-databases (or set {DATABASE_ENV}=off "
                            "to search every position)")
    return Path(next(iter(spec.submodule_search_locations))).joinpath(*PACKAGED_FILE)


def database_used(rules: Rules) -> bool:
    """Whether the solver looks positions of ``rules``' board up in the database: on 6 x 7
    unless turned off (the file is opened and checked when the solver first needs it)."""
    return rules == RULES and database_setting() != OFF


def database_for(rules: Rules) -> Database | None:
    """The database to use on ``rules``' board: the published one on 6 x 7 unless turned
    off, else None."""
    if not database_used(rules):
        return None
    setting = database_setting()
    return open_database(Path(setting) if setting else packaged_path())


@cache
def open_database(path: Path) -> Database:
    """The database file at ``path``, checked (size and checksum) and memory-mapped once a
    process."""
    try:
        status = path.stat()
    except OSError as error:
        raise DatabaseError(f"database {path} cannot be read: {error.strerror}; reinstall "
                            f"bitbully-databases or set {DATABASE_ENV}=off") from None
    if not stat.S_ISREG(status.st_mode):
        what = "a directory" if stat.S_ISDIR(status.st_mode) else "a special file"
        raise DatabaseError(f"database {path} is {what}, not the database file; set "
                            f"{DATABASE_ENV} to the file ({PACKAGED_FILE[-1]}) or to off")
    size = status.st_size
    if size != ENTRIES * RECORD:
        raise DatabaseError(f"database {path} is damaged: {size:,} bytes where the published "
                            f"file has {ENTRIES * RECORD:,}; reinstall bitbully-databases or "
                            f"set {DATABASE_ENV}=off")
    records = np.memmap(path, dtype=np.uint8, mode="r")
    if hashlib.sha256(records.data).hexdigest() != SHA256:  # the mapped bytes, not a copy
        raise DatabaseError(f"database {path} is damaged: its checksum is not the published "
                            f"file's; reinstall bitbully-databases or set {DATABASE_ENV}=off")
    return Database(path, np.asarray(records))
