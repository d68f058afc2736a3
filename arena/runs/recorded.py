"""Recorded games read back from a run directory: who played, the moves, the positions.

A game's row in games.csv says who played (agent A and B, who moved first), the moves, the
result from A's point of view and how the game ended; the board comes from the run's
meta.json.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from arena.rules.board import Position, Rules
from arena.rules.errors import ArenaError
from arena.rules.notation import parse_moves, play_moves
from arena.rules.results import Side
from arena.runs.files import RunFiles
from arena.runs.meta import load_meta
from arena.runs.rows import GameRow, read_rows


class NotARunError(ArenaError):
    """A directory that holds no readable games.csv."""


class UnknownGameError(ArenaError):
    """A game index that the run does not hold."""


@dataclass(frozen=True)
class RecordedGame:
    """One game of a run, as games.csv recorded it, on the run's board."""

    row: GameRow
    rules: Rules

    @property
    def game(self) -> int:
        """The game's index in the run."""
        return self.row.game

    @property
    def players(self) -> tuple[str, str]:
        """The specs of player 1 (X, moved first) and player 2 (O)."""
        row = self.row
        if row.first is Side.A:
            return row.agent_a, row.agent_b
        return row.agent_b, row.agent_a

    @property
    def winner(self) -> int:
        """The winning player (1 or 2), 0 for a draw."""
        loser = self.row.loser
        return 0 if loser is None else loser.other.player(self.row.first)

    @cached_property
    def columns(self) -> list[int]:
        """The moves as 0-based columns."""
        return parse_moves(self.row.moves, self.rules)

    @cached_property
    def positions(self) -> list[Position]:
        """The position after each ply, from the empty board (index = plies played)."""
        positions = [Position.empty(self.rules)]
        for column in self.columns:
            positions.append(positions[-1].play(column))
        return positions


def load_recorded_games(directory: Path, games: Sequence[int] | None = None
                        ) -> list[RecordedGame]:
    """The games of a run directory (all of them, or the indices ``games``) in that order."""
    directory = Path(directory)
    files = RunFiles(directory)
    path = files.games
    for needed in (files.games, files.meta):
        if not needed.is_file():
            what = "does not exist" if not directory.exists() else f"has no {needed.name}"
            raise NotARunError(f"{directory} is not a run directory: it {what}")
    try:
        rows = {row.game: row for row in read_rows(path)}
    except (ArenaError, ValueError) as error:
        raise NotARunError(f"{path} cannot be read as a games table: {error}") from None
    if not rows:
        raise NotARunError(f"{path} holds no games yet")
    rules = load_meta(directory).rules
    wanted = sorted(rows) if games is None else list(games)
    missing = [game for game in wanted if game not in rows]
    if missing:
        raise UnknownGameError(
            f"game {missing[0]} is not in {directory}: it holds {len(rows)} game(s), "
            f"numbered {min(rows)} to {max(rows)}")
    return [_recorded(rows[game], rules, path) for game in wanted]


def _recorded(row: GameRow, rules: Rules, path: Path) -> RecordedGame:
    game = RecordedGame(row, rules)
    try:
        play_moves(Position.empty(rules), game.columns, row.moves)
    except ArenaError as error:
        raise NotARunError(f"{path}, game {game.game}: {error}") from None
    return game
