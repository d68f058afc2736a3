"""The ladder's ratings: the Bradley-Terry fit with draws of every game of one board, the
anchors held at their fixed ratings, with bootstrap intervals; every fit kept as history.
"""

from __future__ import annotations

import math
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime

import pandas as pd

from arena.competitions.ladder.store import Ladder, LadderError
from arena.runs.planning.seeds import ratings_rng
from arena.stats.ratings import rate

__all__ = ["BOOTSTRAP", "FIT_SEED", "Estimate", "anchors_of", "board_games", "fit_agent",
           "fit_board", "refit"]

BOOTSTRAP = 500
"""Bootstrap replicates behind a fit's 95% intervals."""
FIT_SEED = 22
"""The seed of the fits' bootstrap: the same games give the same intervals."""


def anchors_of(connection: sqlite3.Connection, board: str) -> dict[str, float]:
    """The fixed ratings of ``board``'s anchors, by agent name."""
    return {name: rating for name, rating in connection.execute(
        "SELECT name, rating FROM anchors WHERE board = ?", (board,))}


def board_games(connection: sqlite3.Connection, board: str) -> pd.DataFrame:
    """Every game of ``board`` as the ratings take them: agent_a and agent_b (the ladder's
    agent ids, as text), result, pair (run and pair index, or empty)."""
    rows = connection.execute(
        "SELECT g.agent_a, g.agent_b, g.result, "
        "CASE WHEN g.pair IS NULL THEN '' ELSE g.run || ':' || g.pair END "
        "FROM games g JOIN runs r ON r.id = g.run WHERE r.board = ? ORDER BY g.run, g.game",
        (board,)).fetchall()
    return pd.DataFrame(
        [(str(a), str(b), result, pair) for a, b, result, pair in rows],
        columns=["agent_a", "agent_b", "result", "pair"])


def fit_board(connection: sqlite3.Connection, board: str,
              bootstrap: int = BOOTSTRAP) -> pd.DataFrame:
    """The ratings of ``board``'s agents from all its games, anchors held (columns of
    ``arena.stats.ratings.rate``, agent being the ladder's agent id as text)."""
    games = board_games(connection, board)
    if games.empty:
        raise LadderError(f"the ladder of board {board} has no games yet")
    names = dict(connection.execute("SELECT id, name FROM agents WHERE board = ?", (board,)))
    held = anchors_of(connection, board)
    fixed = {str(agent): held[name] for agent, name in names.items() if name in held}
    return rate(games, fixed=fixed or None, anchor=None if held else _random_id(names),
                rng=ratings_rng(FIT_SEED), bootstrap=bootstrap)


def _random_id(names: dict[int, str]) -> str | None:
    """Without anchors, the id of the random agent (rated 0), if it played."""
    return next((str(agent) for agent, name in names.items() if name == "random"), None)


def refit(ladder: Ladder, board: str, bootstrap: int = BOOTSTRAP) -> pd.DataFrame:
    """Fit ``board`` anew and keep the fit in the ladder's history. The fit reads one snapshot
    of the ladder (it stands for exactly the games it saw) and holds no lock while it runs;
    only writing it down is a write transaction."""
    with ladder.reading() as connection:
        table = fit_board(connection, board, bootstrap)
        games = int(connection.execute(
            "SELECT count(*) FROM games g JOIN runs r ON r.id = g.run WHERE r.board = ?",
            (board,)).fetchone()[0])
    with ladder.writing() as connection:
        fit = connection.execute(
            "INSERT INTO fits (board, at, games) VALUES (?, ?, ?)",
            (board, datetime.now(UTC).isoformat(timespec="seconds"), games)).lastrowid
        connection.executemany(
            "INSERT INTO ratings (fit, agent, rating, low, high, games, score) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(fit, int(r["agent"]), float(r["rating"]), float(r["low"]), float(r["high"]),
              int(r["games"]), float(r["score"])) for r in table.to_dict("records")])
    return table


@dataclass(frozen=True)
class Estimate:
    """One agent's rating from its games against the anchors: Elo, its 95% interval, games.
    An agent that won (lost) every game so far has an interval open above (below): its
    rating then rests on the fit's virtual draws alone on that side."""

    rating: float
    low: float
    high: float
    games: int

    @property
    def half_width(self) -> float:
        """Half the interval's width, in Elo."""
        return (self.high - self.low) / 2.0


def fit_agent(connection: sqlite3.Connection, board: str, name: str,
              bootstrap: int = BOOTSTRAP) -> Estimate | None:
    """The rating of agent ``name`` (every version of it) from its games against ``board``'s
    anchors, the anchors held; None before it has played one."""
    names = dict(connection.execute("SELECT id, name FROM agents WHERE board = ?", (board,)))
    held = anchors_of(connection, board)
    games = board_games(connection, board)
    side_a, side_b = games["agent_a"].map(lambda a: names[int(a)]), games["agent_b"].map(
        lambda b: names[int(b)])
    mine = ((side_a == name) & side_b.isin(list(held))) | ((side_b == name) & side_a.isin(
        list(held)))
    if not mine.any():
        return None
    table = rate(games[mine].assign(agent_a=side_a[mine], agent_b=side_b[mine]), fixed=held,
                 rng=ratings_rng(FIT_SEED), bootstrap=bootstrap)
    row = table[table["agent"] == name].to_dict("records")[0]
    low, high = float(row["low"]), float(row["high"])
    score = float(row["score"])
    if score in (0.0, 1.0):  # bootstrap replicates of a sweep do not vary: no bound that side
        low, high = (low, math.inf) if score == 1.0 else (-math.inf, high)
    return Estimate(float(row["rating"]), low, high, int(row["games"]))
