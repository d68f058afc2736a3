"""Distance to perfect play: each ladder agent's rating gap to the perfect-play anchor beside its
best-move rate on the accuracy sets (``arena accuracy``'s accuracy.csv), so that what an agent
wins and how far its moves are from perfect are read side by side.

An accuracy row belongs to a ladder agent when their specs name the same agent (both read in
canonical form, so ``negamax:depth=4`` is the ladder's ``negamax``). The accuracy file should
be measured on the ladder's board (``arena accuracy ... --rows 5 --cols 6``): accuracy.csv
does not say its board.
"""

from __future__ import annotations

import pandas as pd

from arena.protocol.players import canonical_player
from arena.rules.board import Rules
from arena.rules.errors import ArenaError

__all__ = ["DISTANCE_COLUMNS", "distance_table"]

DISTANCE_COLUMNS = ("agent", "rating", "low", "high", "to_perfect", "set", "positions",
                    "accuracy", "accuracy_low", "accuracy_high", "blunder_rate")
"""One row per ladder agent and accuracy set (set empty for an agent with no accuracy row)."""


def _canonical(spec: str, rules: Rules) -> str:
    """``spec`` in canonical form, or as it is if it does not parse (an agent that is gone)."""
    try:
        return canonical_player(spec, rules)
    except (ArenaError, ValueError):
        return spec


def distance_table(standings: pd.DataFrame, accuracy: pd.DataFrame,
                   rules: Rules) -> pd.DataFrame:
    """Every agent of ``standings`` (``arena.competitions.ladder.tables.standings``) with its gap to
    perfect play and its rows of ``accuracy`` (``arena.analysis.accuracy.read_table``), in the
    standings' order (``DISTANCE_COLUMNS``)."""
    scored = accuracy.assign(agent=[_canonical(spec, rules) for spec in accuracy["agent"]])
    joined = standings[["agent", "rating", "low", "high", "to_perfect"]].merge(
        scored[["agent", "set", "positions", "accuracy", "accuracy_low", "accuracy_high",
                "blunder_rate"]], on="agent", how="left", sort=False)
    joined["set"] = joined["set"].fillna("")
    return joined[list(DISTANCE_COLUMNS)]
