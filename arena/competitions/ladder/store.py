"""The ladder's database: one SQLite file holding agents, games, anchors and every fit.

A ladder file is an SQLite database whose ``application_id`` says it is a ladder and whose
``user_version`` is its schema's version; any other file (not SQLite, another program's
database, a damaged one) is refused with ``LadderError`` in one line. The file is in WAL mode
and every change is one ``BEGIN IMMEDIATE`` transaction, waited for up to ``BUSY_SECONDS``,
so that several commands may write to one ladder at once and none loses what another wrote.

Boards are kept apart: every agent, anchor and fit belongs to one board (its ``board_key``),
and a ladder of 6 x 7 never mixes with one of 5 x 6.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from arena.rules.board import Rules
from arena.rules.errors import ArenaError
from arena.system.files import UnwritableError, check_writable, directory_problem

__all__ = ["APPLICATION_ID", "BUSY_SECONDS", "Ladder", "LadderError", "board_key",
           "memory_ladder", "open_ladder"]

APPLICATION_ID = 0x43344C44  # "C4LD"
"""What marks an SQLite file as a ladder (PRAGMA application_id)."""
SCHEMA_VERSION = 1
BUSY_SECONDS = 60.0
"""How long a command waits for another one's write to finish before giving up."""

SCHEMA = """
CREATE TABLE agents (
    id INTEGER PRIMARY KEY,
    board TEXT NOT NULL,
    name TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    target TEXT NOT NULL,
    params TEXT NOT NULL,
    skill_mu REAL,
    skill_sigma REAL,
    UNIQUE (board, name, fingerprint)
);
CREATE TABLE runs (
    id INTEGER PRIMARY KEY,
    board TEXT NOT NULL,
    description TEXT NOT NULL UNIQUE,
    directory TEXT NOT NULL,
    added TEXT NOT NULL
);
CREATE TABLE games (
    run INTEGER NOT NULL REFERENCES runs (id),
    game INTEGER NOT NULL,
    pair INTEGER,
    agent_a INTEGER NOT NULL REFERENCES agents (id),
    agent_b INTEGER NOT NULL REFERENCES agents (id),
    result TEXT NOT NULL CHECK (result IN ('win', 'draw', 'loss')),
    PRIMARY KEY (run, game)
);
CREATE TABLE anchors (
    board TEXT NOT NULL,
    name TEXT NOT NULL,
    rating REAL NOT NULL,
    low REAL NOT NULL,
    high REAL NOT NULL,
    source TEXT NOT NULL,
    PRIMARY KEY (board, name)
);
CREATE TABLE fits (
    id INTEGER PRIMARY KEY,
    board TEXT NOT NULL,
    at TEXT NOT NULL,
    games INTEGER NOT NULL
);
CREATE TABLE ratings (
    fit INTEGER NOT NULL REFERENCES fits (id),
    agent INTEGER NOT NULL REFERENCES agents (id),
    rating REAL NOT NULL,
    low REAL,
    high REAL,
    games INTEGER NOT NULL,
    score REAL NOT NULL,
    PRIMARY KEY (fit, agent)
);
"""
TABLES = ("agents", "anchors", "fits", "games", "ratings", "runs")


class LadderError(ArenaError):
    """A ladder file that cannot be used: not a ladder, damaged, or of a newer schema."""


def board_key(rules: Rules) -> str:
    """The name a board's ladder goes by: ``6x7c4``."""
    return f"{rules.rows}x{rules.cols}c{rules.connect}"


@dataclass
class Ladder:
    """An open ladder file: a connection, and the transactions writers go through."""

    path: Path
    connection: sqlite3.Connection

    @contextmanager
    def writing(self) -> Iterator[sqlite3.Connection]:
        """One write transaction (BEGIN IMMEDIATE: a second writer waits for the first to
        commit), committed at the end of the block and rolled back if it raises."""
        connection = self.connection
        try:
            connection.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            raise LadderError(f"{self.path}: cannot write: {error}") from None
        try:
            yield connection
        except BaseException:
            connection.rollback()
            raise
        connection.commit()

    @contextmanager
    def reading(self) -> Iterator[sqlite3.Connection]:
        """One read transaction: every query in the block sees the ladder as it was at the
        first one (WAL snapshot), whatever other commands write meanwhile, and none waits."""
        connection = self.connection
        connection.execute("BEGIN")
        try:
            yield connection
        finally:
            connection.rollback()

    def close(self) -> None:
        """Close the connection."""
        self.connection.close()

    def __enter__(self) -> Ladder:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_ladder(path: Path | str, create: bool = True) -> Ladder:
    """The ladder in ``path``, made with its schema if the file does not exist (and
    ``create``); LadderError for a file that is not a ladder or cannot be opened."""
    path = Path(path)
    exists = path.exists()
    if not exists and not create:
        raise LadderError(f"{path}: no ladder there (arena ladder anchor or add makes one)")
    if exists and not path.is_file():
        raise LadderError(f"{path}: not a ladder file (a directory or a special file)")
    if not exists:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise LadderError(f"{path}: cannot make its directory: "
                              f"{directory_problem(path.parent, error)}") from None
    try:
        connection = sqlite3.connect(path, timeout=BUSY_SECONDS, isolation_level=None)
    except sqlite3.Error as error:
        raise LadderError(f"{path}: cannot open it: {error}") from None
    try:
        _prepare(connection, path)
    except sqlite3.DatabaseError as error:
        connection.close()
        raise _unusable(path, error) from None
    except LadderError:
        connection.close()
        raise
    return Ladder(path, connection)


def _unusable(path: Path, error: sqlite3.DatabaseError) -> LadderError:
    """Why SQLite could not use the ladder file ``path``: it cannot be written (a read-only
    file, or a folder that takes no new file: SQLite keeps a ladder's journal beside it, even
    to read it), else it is not a ladder or a damaged one."""
    if error.sqlite_errorname.startswith(("SQLITE_READONLY", "SQLITE_CANTOPEN")):
        try:
            check_writable(path.parent, "a ladder's journal")
        except UnwritableError as unwritable:
            return LadderError(f"{path}: cannot be written ({path.parent}: {unwritable.reason});"
                               " a ladder, even one only read, keeps its journal beside it")
        if not os.access(path, os.W_OK):
            return LadderError(f"{path}: cannot be written (the file is read-only)")
    return LadderError(f"{path}: not a ladder file, or a damaged one ({error})")


def memory_ladder() -> Ladder:
    """An empty ladder in memory: nothing of it is written to disk."""
    path = Path(":memory:")
    connection = sqlite3.connect(path, isolation_level=None)
    _prepare(connection, path)
    return Ladder(path, connection)


def _prepare(connection: sqlite3.Connection, path: Path) -> None:
    """Check the file is a ladder (or empty, then make it one), and set WAL mode."""
    connection.execute("PRAGMA foreign_keys = ON")
    connection.execute("BEGIN IMMEDIATE")
    try:
        application = connection.execute("PRAGMA application_id").fetchone()[0]
        tables = {row[0] for row in connection.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if application == 0 and not tables:
            for statement in _schema_statements():
                connection.execute(statement)
        elif application != APPLICATION_ID:
            raise LadderError(f"{path}: not a ladder file (an SQLite database of another "
                              "program)")
        else:
            version = connection.execute("PRAGMA user_version").fetchone()[0]
            if version != SCHEMA_VERSION:
                raise LadderError(f"{path}: a ladder of schema {version}; this arena reads "
                                  f"schema {SCHEMA_VERSION}")
            missing = sorted(set(TABLES) - tables)
            if missing:
                raise LadderError(f"{path}: damaged ladder: no table {missing[0]!r}")
            problem = connection.execute("PRAGMA quick_check(1)").fetchone()[0]
            if problem != "ok":
                raise LadderError(f"{path}: damaged ladder: {problem}")
        connection.execute("COMMIT")
    except BaseException:
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        raise
    connection.execute("PRAGMA journal_mode = WAL")


def _schema_statements() -> list[str]:
    """The statements that make an empty file a ladder (run one by one inside the open
    transaction: a second process making the same file waits, then finds it made)."""
    return [*(part.strip() for part in SCHEMA.split(";") if part.strip()),
            f"PRAGMA application_id = {APPLICATION_ID}",
            f"PRAGMA user_version = {SCHEMA_VERSION}"]
