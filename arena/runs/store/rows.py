"""The rows of games.csv: one ``GameRow`` per game, built once from a played game
(``GameRow.of_game``), written as text by the csv module and read back typed
(``GameRow.from_csv``, ``read_rows``) or as a DataFrame (``games_table``), up to a given
length (a reader stops at the last complete line: ``arena.runs.store.reading``)."""

from __future__ import annotations

import csv
import io
from collections.abc import Container, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, Protocol

from arena.rules.errors import ArenaError
from arena.rules.results import Result, Side, Termination
from arena.runs.planning.plan import GameTask
from arena.system.files import open_prefix

if TYPE_CHECKING:
    import pandas as pd

class PlayedGame(Protocol):
    """What a row takes of a played game (``arena.runs.playing.game.GameRecord``), from the
    players' point of view: player 1 moved first, each list holds player 1's then player 2's."""

    @property
    def winner(self) -> int: ...  # 0 for a draw
    @property
    def termination(self) -> Termination: ...
    @property
    def moves(self) -> Sequence[int]: ...
    @property
    def move_string(self) -> str: ...
    @property
    def seconds(self) -> Sequence[float]: ...
    @property
    def nodes(self) -> Sequence[int | None]: ...
    @property
    def turns(self) -> Sequence[int]: ...
    @property
    def error(self) -> str: ...


class GameRow(NamedTuple):
    """One game as a row of games.csv; results are from agent A's point of view."""

    game: int  # index in the run
    pair: int | None  # opening pair index, None without openings
    seed: int  # the game's seed: Generator(PCG64(seed)) is the agents' randomness
    agent_a: str
    agent_b: str
    first: Side  # who moved first
    opening: str  # move string
    moves: str  # the whole game's move string, opening included
    result: Result  # agent A's
    termination: Termination
    plies: int
    time_a: float  # seconds agent A thought
    time_b: float
    nodes_a: int | None
    nodes_b: int | None
    turns_a: int  # how many times agent A was asked for a move
    turns_b: int
    error: str  # the message of a forfeit

    @classmethod
    def of_game(cls, task: GameTask, seed: int, record: PlayedGame) -> GameRow:
        """The row of ``task``'s game, played with ``seed`` as ``record`` tells it (the record
        numbers players 1 and 2; the row names agents A and B)."""
        a, b = (0, 1) if task.first is Side.A else (1, 0)
        return cls(
            task.game, task.pair, seed, task.agent_a, task.agent_b, task.first, task.opening,
            record.move_string, Result.of_winner(record.winner, a + 1), record.termination,
            len(record.moves), round(record.seconds[a], 6), round(record.seconds[b], 6),
            record.nodes[a], record.nodes[b], record.turns[a], record.turns[b], record.error)

    @classmethod
    def from_csv(cls, fields: Sequence[str]) -> GameRow:
        """A row of games.csv as its fields (ValueError if one does not parse; rows a run
        wrote are checked by ``arena.runs.store.validation``)."""
        (game, pair, seed, agent_a, agent_b, first, opening, moves, result, termination,
         plies, time_a, time_b, nodes_a, nodes_b, turns_a, turns_b, error) = fields
        try:  # dictionaries: a million rows are read in well under a second
            values = _SIDES[first], _RESULTS[result], _TERMINATIONS[termination]
        except KeyError as unknown:
            raise ValueError(f"{unknown.args[0]!r} is not a first mover, result or "
                             "termination") from None
        return cls(int(game), int(pair) if pair else None, int(seed), agent_a, agent_b,
                   values[0], opening, moves, values[1], values[2], int(plies), float(time_a),
                   float(time_b), int(nodes_a) if nodes_a else None,
                   int(nodes_b) if nodes_b else None, int(turns_a), int(turns_b), error)

    @property
    def loser(self) -> Side | None:
        """The side that lost (None for a draw)."""
        if self.result is Result.DRAW:
            return None
        return Side.A if self.result is Result.LOSS else Side.B


COLUMNS: tuple[str, ...] = GameRow._fields

_SIDES = {side.value: side for side in Side}
_RESULTS = {result.value: result for result in Result}
_TERMINATIONS = {termination.value: termination for termination in Termination}


TIMING_COLUMNS = ("time_a", "time_b")
CATEGORIES = ("agent_a", "agent_b", "first", "result", "termination")


class GamesTableError(ArenaError):
    """A games.csv that cannot be read as this run's games."""


def read_header(path: Path, reader: Iterator[list[str]]) -> bool:
    """Read the header: False for an empty file, GamesTableError for unexpected columns."""
    header = next(reader, None)
    if header is not None and tuple(header) != COLUMNS:
        raise GamesTableError(f"{path} cannot be read as a games table: unexpected columns "
                              f"{','.join(header)}; expected {','.join(COLUMNS)}")
    return header is not None


def read_rows(path: Path, length: int | None = None,
              games: Container[int] | None = None) -> Iterator[GameRow]:
    """Every row of a games.csv (of its first ``length`` bytes), or those of the game
    indices ``games``, in file order; GamesTableError names a row that does not parse."""
    with io.TextIOWrapper(open_prefix(path, length), encoding="utf-8", newline="") as file:
        reader = csv.reader(file)
        if not read_header(path, reader):
            return
        for fields in reader:
            if games is not None and fields[:1] and fields[0].isdigit() \
                    and int(fields[0]) not in games:  # the game index comes first (COLUMNS)
                continue
            try:
                yield GameRow.from_csv(fields)
            except ValueError as error:
                raise GamesTableError(f"{path}, line {reader.line_num}: {error}") from None


def games_table(path: Path, length: int | None = None,
                columns: Sequence[str] | None = None) -> pd.DataFrame:
    """games.csv (its first ``length`` bytes) as a DataFrame sorted by game index, with
    proper dtypes, read as it is (``arena.runs.store.reading.load_games`` checks it first);
    only ``columns`` (with ``game``, in the file's order) when given, the others left unread.

    Move strings and openings stay strings (``""`` for none), agents, first mover, result and
    termination are categories, ``pair`` and the node counts nullable integers (``<NA>`` where
    blank), times floats.
    """
    import pandas as pd  # imported here: pandas is slow to import and the match path avoids it

    dtypes: dict[str, str] = {"opening": "str", "moves": "str", "error": "str", "pair": "Int64",
                              "nodes_a": "Int64", "nodes_b": "Int64",
                              **dict.fromkeys(CATEGORIES, "category")}
    read = None if columns is None else [c for c in COLUMNS if c == "game" or c in columns]
    with open_prefix(path, length) as file:
        table = pd.read_csv(
            file,
            usecols=read,
            dtype=dtypes,
            keep_default_na=False,
            na_values={"pair": [""], "nodes_a": [""], "nodes_b": [""]},
        )
    return table.sort_values("game", ignore_index=True)
