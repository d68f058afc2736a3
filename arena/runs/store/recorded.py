"""Recorded games read back from a run directory: who played, the moves, the positions.

A game's row in games.csv says who played (agent A and B, who moved first), the moves, the
result from A's point of view and how the game ended; the board comes from the run's
meta.json. Every row is checked against the run before it is shown (``arena.runs.store.reading``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from arena.rules.board import Position, Rules
from arena.rules.errors import ArenaError
from arena.rules.notation import parse_moves
from arena.rules.results import Side
from arena.runs.store.reading import open_run
from arena.runs.store.rows import GameRow


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
        return 0 if loser is None else loser.other.mover(self.row.first)

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
    """The games of a run directory (all of them, or the indices ``games``) in that order,
    read as ``arena.runs.store.reading.open_run`` checks them."""
    reading = open_run(directory)
    rows = {row.game: row for row in reading.rows(None if games is None else set(games))}
    rules = reading.meta.rules
    wanted = sorted(rows) if games is None else list(games)
    missing = [game for game in wanted if game not in rows]
    if missing:
        held = [row.game for row in reading.rows()]  # the whole run, to say what it holds
        raise UnknownGameError(
            f"game {missing[0]} is not in {directory}: it holds {len(held)} game(s), "
            f"numbered {min(held)} to {max(held)}")
    return [RecordedGame(rows[game], rules) for game in wanted]
