"""The rows of games.csv: one ``GameRow`` per game, read back as columns or a DataFrame."""

from __future__ import annotations

import csv
from collections.abc import Iterator, Sequence
from operator import itemgetter
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from arena.rules.errors import ArenaError

if TYPE_CHECKING:
    import pandas as pd

class GameRow(NamedTuple):
    """One game as a row of games.csv; results are from agent A's point of view."""

    game: int  # index in the run
    pair: int | None  # opening pair index, None without openings
    seed: int  # the game's seed: Generator(PCG64(seed)) is the agents' randomness
    agent_a: str
    agent_b: str
    first: str  # "a" or "b": who moved first
    opening: str  # move string
    moves: str  # the whole game's move string, opening included
    result: str  # "win", "draw" or "loss" for agent A
    termination: str
    plies: int
    time_a: float  # seconds agent A thought
    time_b: float
    nodes_a: int | None
    nodes_b: int | None
    turns_a: int  # how many times agent A was asked for a move
    turns_b: int
    error: str  # the message of a forfeit


COLUMNS: tuple[str, ...] = GameRow._fields


TIMING_COLUMNS = ("time_a", "time_b")
CATEGORIES = ("agent_a", "agent_b", "first", "result", "termination")


class GamesTableError(ArenaError):
    """A games.csv that cannot be read as this run's games."""


def read_header(path: Path, reader: Iterator[list[str]]) -> bool:
    """Read the header: False for an empty file, GamesTableError for unexpected columns."""
    header = next(reader, None)
    if header is not None and tuple(header) != COLUMNS:
        raise GamesTableError(
            f"{path}: unexpected columns {','.join(header)}; expected {','.join(COLUMNS)}"
        )
    return header is not None


def iter_columns(path: Path, names: Sequence[str]) -> Iterator[tuple[str, ...]]:
    """The named columns (two or more) of every row of a games.csv, in file order."""
    pick = itemgetter(*(COLUMNS.index(name) for name in names))
    with path.open(newline="", encoding="utf-8") as file:
        reader = csv.reader(file)
        if read_header(path, reader):
            yield from map(pick, reader)


def load_games(path: Path) -> pd.DataFrame:
    """games.csv as a DataFrame sorted by game index, with proper dtypes.

    Move strings and openings stay strings (``""`` for none), agents, first mover, result and
    termination are categories, ``pair`` and the node counts nullable integers (``<NA>`` where
    blank), times floats.
    """
    import pandas as pd  # imported here: pandas is slow to import and the match path avoids it

    dtypes: dict[str, str] = {"opening": "str", "moves": "str", "error": "str", "pair": "Int64",
                              "nodes_a": "Int64", "nodes_b": "Int64",
                              **dict.fromkeys(CATEGORIES, "category")}
    table = pd.read_csv(
        path,
        dtype=dtypes,
        keep_default_na=False,
        na_values={"pair": [""], "nodes_a": [""], "nodes_b": [""]},
    )
    return table.sort_values("game", ignore_index=True)
