"""Reading what runs wrote, for comparing runs."""

from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path
from typing import Any

from arena.runs.rows import TIMING_COLUMNS, load_games


def games_without_timing(directory: Path) -> list[dict[Hashable, Any]]:
    """The rows of a run's games.csv without the columns that vary from run to run (timings)."""
    return load_games(directory / "games.csv").drop(columns=list(TIMING_COLUMNS)).to_dict(
        "records")


LEFTMOST_AGENT = '''
from arena.protocol.agent import BaseAgent


class Leftmost(BaseAgent):
    """Plays the leftmost legal column."""

    def choose(self, position, rng):
        return position.legal_moves()[0]
'''
"""The source of an agent file (``FILE:Leftmost``) that runs load by path."""
