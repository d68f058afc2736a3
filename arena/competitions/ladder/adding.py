"""Finished run directories into the ladder: their agents and games, once each.

A run is known by the digest of its description (what decides its games), and a game by its
run and its index, so adding a run twice, or a copy of it from another place, adds nothing.
Each run is added in one transaction, together with the incremental skill updates of its new
games (``arena.competitions.ladder.skill``).
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from arena.competitions.ladder.skill import update_skills
from arena.competitions.ladder.store import Ladder, LadderError, board_key
from arena.runs.store.meta import RunMeta
from arena.runs.store.reading import RunReading, open_run

__all__ = ["AddedRun", "add_run", "agent_id"]


@dataclass(frozen=True)
class AddedRun:
    """What adding one run did: its directory, board, and how many games were new."""

    directory: Path
    board: str
    games: int
    new_games: int


def finished_run(directory: Path | str) -> RunReading:
    """The run in ``directory``, checked as a resume checks it, with every planned game
    played; LadderError for a run still missing games."""
    reading = open_run(directory)
    played, planned = int(reading.finished.sum()), len(reading.finished)
    if played < planned:
        raise LadderError(f"{reading.directory}: the run is not finished ({played} of "
                          f"{planned} games); finish it by running its command again")
    return reading


def agent_id(connection: sqlite3.Connection, board: str, name: str, meta: RunMeta) -> int:
    """The ladder's id of agent ``name`` of the run ``meta`` (on ``board``), added if new."""
    record = meta.agents[name]
    connection.execute(
        "INSERT OR IGNORE INTO agents (board, name, fingerprint, target, params) "
        "VALUES (?, ?, ?, ?, ?)",
        (board, name, record.fingerprint, record.target,
         json.dumps(record.params, sort_keys=True, default=str)))
    row = connection.execute(
        "SELECT id FROM agents WHERE board = ? AND name = ? AND fingerprint = ?",
        (board, name, record.fingerprint)).fetchone()
    return int(row[0])


def add_run(ladder: Ladder, directory: Path | str) -> AddedRun:
    """Add the finished run in ``directory`` to ``ladder``: its agents, and those of its games
    the ladder lacks. NoRunError, MetaError or GamesTableError for a damaged run, LadderError
    for an unfinished one."""
    reading = finished_run(directory)
    meta = reading.meta
    board = board_key(meta.rules)
    games = reading.games()
    with ladder.writing() as connection:
        connection.execute(
            "INSERT OR IGNORE INTO runs (board, description, directory, added) "
            "VALUES (?, ?, ?, ?)",
            (board, meta.description_digest(), str(reading.directory.resolve()),
             datetime.now(UTC).isoformat(timespec="seconds")))
        run = int(connection.execute("SELECT id FROM runs WHERE description = ?",
                                     (meta.description_digest(),)).fetchone()[0])
        ids = {name: agent_id(connection, board, name, meta) for name in meta.agents}
        known = {row[0] for row in connection.execute("SELECT game FROM games WHERE run = ?",
                                                      (run,))}
        new = [(run, int(g["game"]), None if pd.isna(g["pair"]) else int(g["pair"]),
                ids[str(g["agent_a"])], ids[str(g["agent_b"])], str(g["result"]))
               for g in games.to_dict("records") if int(g["game"]) not in known]
        connection.executemany(
            "INSERT INTO games (run, game, pair, agent_a, agent_b, result) "
            "VALUES (?, ?, ?, ?, ?, ?)", new)
        update_skills(connection, [(a, b, result) for _, _, _, a, b, result in new])
    return AddedRun(reading.directory, board, len(games), len(new))
