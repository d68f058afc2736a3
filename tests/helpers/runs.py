"""Reading what runs wrote, for comparing runs."""

from __future__ import annotations

from collections.abc import Hashable
from pathlib import Path
from typing import Any

from arena.rules.board import Rules
from arena.runs.planning.plan import GameSettings, MatchPlan, match_plan
from arena.runs.store.reading import load_games
from arena.runs.store.rows import TIMING_COLUMNS


def plan_of(a: str, b: str, games: int, *, openings: str = "none", first: str = "alternate",
            seed: int = 5, time_per_move: float | None = None,
            rules: Rules | None = None) -> MatchPlan:
    """The plan of a match of ``games`` games of ``a`` against ``b`` (seed 5 unless told)."""
    settings = GameSettings(rules or Rules(), seed, time_per_move)
    return match_plan(a, b, games, settings, openings, first)  # type: ignore[arg-type]


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


def snapshot(directory: Path) -> dict[str, bytes | None]:
    """Every file under ``directory`` (hidden ones too) by relative path, with its bytes, and
    every folder (None): equal snapshots, nothing added, removed or changed."""
    return {str(path.relative_to(directory)): path.read_bytes() if path.is_file() else None
            for path in sorted(directory.rglob("*")) if path.is_file() or path.is_dir()}
