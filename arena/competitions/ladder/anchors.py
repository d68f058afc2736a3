"""The anchors: reference agents whose ratings fix a board's scale, once, from a reference run.

The reference set spans the whole range of strength, from no skill to perfect play:

- ``random``: a legal column at random; rated 0 by definition.
- ``immediate-win`` and ``immediate-win:block=true``: one ply of sight, then with blocking.
- ``negamax:depth=2`` and ``negamax:depth=4``: plain search without a heuristic.
- ``solver:blunder=0.3``, ``solver:temperature=1``, ``solver:blunder=0.1``,
  ``solver:blunder=0.03``: the exact solver with graded strength (a random column with that
  chance per move; a soft-max over the exact scores).
- ``solver``: perfect play.

``fix_anchors`` rates every agent of a finished round robin of these (Bradley-Terry with
draws, random = 0, bootstrap intervals) and writes them as the board's anchors; a board's
anchors are fixed once and never refitted, so every later fit is on the same scale.
"""

from __future__ import annotations

from arena.competitions.ladder.adding import add_run, finished_run
from arena.competitions.ladder.store import Ladder, LadderError, board_key
from arena.runs.seeds import ratings_rng
from arena.stats.ratings import rate

__all__ = ["PERFECT_PLAY", "REFERENCE_AGENTS", "ZERO", "fix_anchors"]

REFERENCE_AGENTS: tuple[str, ...] = (
    "random", "immediate-win", "immediate-win:block=true", "negamax:depth=2",
    "negamax:depth=4", "solver:blunder=0.3", "solver:temperature=1", "solver:blunder=0.1",
    "solver:blunder=0.03", "solver")
"""The reference set, weakest first (as ``arena tournament`` names them)."""
ZERO = "random"
"""The anchor rated 0."""
PERFECT_PLAY = "solver"
"""The anchor that plays perfectly."""
BOOTSTRAP = 1000
"""Bootstrap replicates behind the anchors' 95% intervals."""


def fix_anchors(ladder: Ladder, directory: str) -> str:
    """Fix the anchors of the board of the finished run in ``directory`` (a round robin in
    which ``random`` plays) from its games, add the run to the ladder, and return the board.
    LadderError if the board has anchors already or random does not play."""
    reading = finished_run(directory)
    board = board_key(reading.meta.rules)
    games = reading.games()
    if ZERO not in set(games["agent_a"]) | set(games["agent_b"]):
        raise LadderError(f"{directory}: {ZERO} does not play in the run; the anchors' "
                          f"scale puts {ZERO} at 0")
    table = rate(games, anchor=ZERO, rng=ratings_rng(reading.meta.seed), bootstrap=BOOTSTRAP)
    source = str(reading.directory)
    with ladder.writing() as connection:
        if connection.execute("SELECT 1 FROM anchors WHERE board = ?", (board,)).fetchone():
            raise LadderError(f"the anchors of board {board} are fixed already; anchors are "
                              "never refitted (start another ladder file for another scale)")
        connection.executemany(
            "INSERT INTO anchors (board, name, rating, low, high, source) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            [(board, r["agent"], float(r["rating"]), float(r["low"]), float(r["high"]), source)
             for r in table.to_dict("records")])
    add_run(ladder, reading.directory)
    return board
