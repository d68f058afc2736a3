"""What the ladder holds, read as tables: boards, the latest standings, rating history."""

from __future__ import annotations

import math
import sqlite3

import pandas as pd

from arena.competitions.ladder.anchors import PERFECT_PLAY

__all__ = ["STANDING_COLUMNS", "boards", "history", "score_text", "skill_text", "standings"]

STANDING_COLUMNS = ("rank", "agent", "fingerprint", "anchor", "rating", "low", "high",
                    "to_perfect", "games", "score", "skill_mu", "skill_sigma")
"""The standings' columns: an anchor's interval is the one of its reference run, to_perfect
the rating gap to perfect play (the solver anchor's rating minus the agent's), skill_mu and
skill_sigma OpenSkill's incremental estimate."""


def boards(connection: sqlite3.Connection) -> list[str]:
    """The boards with games or anchors in the ladder."""
    return sorted({row[0] for row in connection.execute(
        "SELECT board FROM runs UNION SELECT board FROM anchors")})


def standings(connection: sqlite3.Connection, board: str) -> pd.DataFrame:
    """Every agent of ``board`` as its latest fit rates it, best first (``STANDING_COLUMNS``),
    and every anchor the fit did not see (none of its games in the ladder) at its fixed
    rating, with 0 games. The latest fit is the one that saw the most games (games are
    never taken away; two fits running at once may be written down in either order)."""
    rows = connection.execute(
        """
        SELECT a.name, a.fingerprint, an.rating IS NOT NULL, r.rating, coalesce(an.low, r.low),
               coalesce(an.high, r.high),
               r.games, r.score, a.skill_mu, a.skill_sigma
        FROM ratings r JOIN agents a ON a.id = r.agent
        LEFT JOIN anchors an ON an.board = a.board AND an.name = a.name
        WHERE r.fit = (SELECT id FROM fits WHERE board = ? ORDER BY games DESC, id DESC
                       LIMIT 1)
        """, (board,)).fetchall()
    fitted = {row[0] for row in rows}
    rows += [(name, "", True, rating, low, high, 0, math.nan, None, None)
             for name, rating, low, high in connection.execute(
                 "SELECT name, rating, low, high FROM anchors WHERE board = ?", (board,))
             if name not in fitted]
    table = pd.DataFrame(rows, columns=["agent", "fingerprint", "anchor", "rating", "low",
                                        "high", "games", "score", "skill_mu", "skill_sigma"])
    table["anchor"] = table["anchor"].astype(bool)
    perfect = table.loc[table["agent"] == PERFECT_PLAY, "rating"]
    table["to_perfect"] = (float(perfect.iloc[0]) - table["rating"]) if len(perfect) else (
        float("nan"))
    table = table.sort_values(["rating", "agent"], ascending=[False, True], ignore_index=True)
    table.insert(0, "rank", table["rating"].rank(method="min", ascending=False).astype(int))
    return table[list(STANDING_COLUMNS)]


def history(connection: sqlite3.Connection, board: str) -> pd.DataFrame:
    """Every fit's rating of every agent of ``board``: fit, at, agent, fingerprint, rating,
    low, high, in the order of the fits."""
    rows = connection.execute(
        """
        SELECT f.id, f.at, a.name, a.fingerprint, r.rating, r.low, r.high
        FROM ratings r JOIN fits f ON f.id = r.fit JOIN agents a ON a.id = r.agent
        WHERE f.board = ? ORDER BY f.id, a.name
        """, (board,)).fetchall()
    return pd.DataFrame(rows, columns=["fit", "at", "agent", "fingerprint", "rating", "low",
                                       "high"])


def score_text(score: float) -> str:
    """A share of the points as a percentage, or ``-`` without games."""
    return f"{score:.1%}" if math.isfinite(score) else "-"


def skill_text(mu: float | None, sigma: float | None) -> str:
    """OpenSkill's estimate as ``mu ± 2 sigma``, or ``-`` for none."""
    if mu is None or sigma is None or not math.isfinite(mu):
        return "-"
    return f"{mu:.1f} ± {2 * sigma:.1f}"
