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

The anchors of the boards with a committed reference run (``results/ladder/reference-*``) are
shipped with the arena, a small table (``anchors.csv`` beside this module, written by
``tools/ship_anchors.py``, which ``anchor_table`` rates as ``fix_anchors`` does): a ladder
without anchors for such a board takes them when an agent is first placed on it
(``anchored_ladder``) or a run of that board is first added (``take_shipped``), and a command
that reads a ladder where there is none reads them (``shipped_ladder``).
"""

from __future__ import annotations

import math
import sqlite3
from importlib import resources
from pathlib import Path

import pandas as pd

from arena.competitions.ladder.adding import add_run, finished_run
from arena.competitions.ladder.store import (
    Ladder,
    LadderError,
    board_key,
    memory_ladder,
    open_ladder,
)
from arena.runs.planning.seeds import ratings_rng
from arena.runs.store.reading import RunReading
from arena.stats.ratings import rate

__all__ = ["PERFECT_PLAY", "REFERENCE_AGENTS", "SHIPPED_COLUMNS", "ZERO", "anchor_table",
           "anchored_ladder", "fix_anchors", "no_anchors", "readable_ladder", "shipped_anchors",
           "shipped_ladder", "take_shipped"]

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
SHIPPED = "anchors.csv"
"""The shipped anchors, a file of this package."""
SHIPPED_COLUMNS = ("board", "agent", "rating", "low", "high", "source")
"""The shipped table's columns: the board (``6x7c4``), an anchor, its Elo and 95% interval,
and the reference run it was fixed from (a directory of the repository)."""


def anchor_table(reading: RunReading) -> tuple[str, pd.DataFrame]:
    """The board of a finished reference run (a round robin in which ``random`` plays) and its
    anchors, best first: every agent's rating in the run, random = 0, with its 95% interval
    (columns agent, rating, low, high). LadderError if random does not play."""
    games = reading.games()
    if ZERO not in set(games["agent_a"]) | set(games["agent_b"]):
        raise LadderError(f"{reading.directory}: {ZERO} does not play in the run; the "
                          f"anchors' scale puts {ZERO} at 0")
    table = rate(games, anchor=ZERO, rng=ratings_rng(reading.meta.seed), bootstrap=BOOTSTRAP)
    return board_key(reading.meta.rules), table[["agent", "rating", "low", "high"]]


def fix_anchors(ladder: Ladder, directory: str) -> str:
    """Fix the anchors of the board of the finished run in ``directory`` from its games, add
    the run to the ladder, and return the board. A board whose anchors are those of this run
    already (the shipped ones, from the same run) only gets the run's games. LadderError if
    the board has other anchors or random does not play."""
    reading = finished_run(directory)
    board, table = anchor_table(reading)
    source = str(reading.directory)
    with ladder.writing() as connection:
        held = {name: rating for name, rating in connection.execute(
            "SELECT name, rating FROM anchors WHERE board = ?", (board,))}
        if not held:
            _insert(connection, board, table.assign(source=source))
        elif not _same(held, table):
            raise LadderError(f"the anchors of board {board} are fixed already; anchors are "
                              "never refitted (start another ladder file for another scale)")
    add_run(ladder, reading.directory)
    return board


def _same(held: dict[str, float], table: pd.DataFrame) -> bool:
    """True if ``table`` rates the agents of ``held`` alike (to a millionth of an Elo)."""
    fixed = dict(zip(table["agent"], table["rating"], strict=True))
    return fixed.keys() == held.keys() and all(
        math.isclose(fixed[name], held[name], rel_tol=0, abs_tol=1e-6) for name in held)


def _insert(connection: sqlite3.Connection, board: str, table: pd.DataFrame) -> None:
    """Write ``table``'s rows (agent, rating, low, high, source) as ``board``'s anchors."""
    connection.executemany(
        "INSERT INTO anchors (board, name, rating, low, high, source) VALUES (?, ?, ?, ?, ?, ?)",
        [(board, str(r["agent"]), float(r["rating"]), float(r["low"]), float(r["high"]),
          str(r["source"])) for r in table.to_dict("records")])


def shipped_anchors() -> pd.DataFrame:
    """The anchors shipped with the arena (``SHIPPED_COLUMNS``)."""
    with resources.files(__package__).joinpath(SHIPPED).open("r", encoding="utf-8") as file:
        return pd.read_csv(file)[list(SHIPPED_COLUMNS)]


def no_anchors(board: str) -> LadderError:
    """The error for a board with no anchors in a ladder and none shipped."""
    shipped = " and ".join(sorted(set(shipped_anchors()["board"])))
    return LadderError(f"board {board} has no anchors yet (the arena ships those of "
                       f"{shipped}); fix them from a reference run with arena ladder anchor DIR")


def take_shipped(ladder: Ladder, board: str) -> str | None:
    """Fix the shipped anchors of ``board`` in ``ladder`` if it has none for it: the reference
    run they come from, or None when it has anchors for the board already or none are
    shipped."""
    shipped = shipped_anchors()
    ours = shipped[shipped["board"] == board]
    with ladder.writing() as connection:
        if ours.empty or connection.execute("SELECT 1 FROM anchors WHERE board = ?",
                                            (board,)).fetchone():
            return None
        _insert(connection, board, ours)
    return str(ours["source"].iloc[0])


def anchored_ladder(path: Path, board: str) -> tuple[Ladder, str | None]:
    """The ladder in ``path``, made if there is none, with anchors for ``board``: its own,
    else the shipped ones, fixed in it now (then the reference run they come from is
    returned too). LadderError, before any file is made, when neither has any."""
    shipped = shipped_anchors()
    if board not in set(shipped["board"]) and not path.exists():
        raise no_anchors(board)
    ladder = open_ladder(path)
    try:
        taken = take_shipped(ladder, board)
        with ladder.reading() as connection:
            if not connection.execute("SELECT 1 FROM anchors WHERE board = ?",
                                      (board,)).fetchone():
                raise no_anchors(board)
    except BaseException:
        ladder.close()
        raise
    return ladder, taken


def shipped_ladder() -> Ladder:
    """A ladder in memory holding the shipped anchors of every board, and nothing else."""
    ladder = memory_ladder()
    shipped = shipped_anchors()
    with ladder.writing() as connection:
        for board, table in shipped.groupby("board", sort=True):
            _insert(connection, str(board), table)
    return ladder


def readable_ladder(path: Path) -> Ladder:
    """The ladder in ``path`` (LadderError if the file is not one); where there is no file,
    the shipped anchors in memory (``shipped_ladder``, whose ``path`` is ``:memory:``)."""
    return open_ladder(path, create=False) if path.exists() else shipped_ladder()
