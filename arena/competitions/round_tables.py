"""The tables at the top of a tournament played in rounds (Swiss, knockout), derived from its
round folders, and the tournament read back.

``rounds.csv`` has one row per pairing and per bye of every round: its games, agent A's wins,
draws and losses, the points each side took towards the standings (a Swiss bye scores its
games as won), and in a knockout the agent that goes through. ``games.csv`` and
``summary.csv`` hold every round's rows with a ``round`` column first (a game is named by its
round and its index in the round), so that pandas reads the whole tournament from the top
folder; ``ratings.csv`` and ``crosstable.csv`` beside them are those of every game
(``tournaments.write_standings``). All of it is written again from the round folders whenever
the tournament's command ends, so an interrupted tournament, resumed, has the files of one
that was never interrupted.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import astuple, dataclass, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from arena.runs.store.files import RunFiles
from arena.runs.store.meta import load_meta
from arena.runs.store.reading import RunReading, open_run
from arena.system.files import write_atomically

if TYPE_CHECKING:
    import pandas as pd

__all__ = ["ROUNDS_COLUMNS", "HeldTournament", "RoundRow", "held_tournament", "is_knockout",
           "is_rounds_tournament", "open_rounds", "played_rounds", "points_by_round", "points_text",
           "read_rounds", "rounds_games", "run_names", "write_round_tables"]


@dataclass(frozen=True)
class RoundRow:
    """One row of rounds.csv: a pairing of a round, or a bye (``agent_b`` empty, no games)."""

    round: int
    agent_a: str
    agent_b: str
    games: int
    wins: int  # agent A's
    draws: int
    losses: int
    points_a: float  # towards the standings
    points_b: float
    advances: str  # a knockout's agent through; empty in a Swiss


ROUNDS_COLUMNS = tuple(field.name for field in fields(RoundRow))


def points_text(points: float) -> str:
    """Points as the tables write them: whole or with their half, never in exponent form
    (``2``, ``1.5``, ``1000000``)."""
    return f"{points:.1f}".removesuffix(".0")


def is_rounds_tournament(directory: Path) -> bool:
    """Whether ``directory`` holds a tournament played in rounds (its rounds.csv and no
    meta.json of its own)."""
    files = RunFiles(directory)
    return files.rounds.is_file() and not files.meta.exists()


def write_round_tables(directory: Path, rows: Sequence[RoundRow]) -> None:
    """Write rounds.csv, and games.csv and summary.csv of every round of ``rows`` (each
    replaced only when its text changes: a report that is current stays current)."""
    files = RunFiles(directory)
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(ROUNDS_COLUMNS)
    writer.writerows([points_text(cell) if isinstance(cell, float) else cell
                      for cell in astuple(row)] for row in rows)
    _write_changed(files.rounds, text.getvalue())
    numbers = sorted({row.round for row in rows})
    for name in (RunFiles.GAMES, RunFiles.SUMMARY):
        _write_changed(files.path / name,
                       _with_round([(n, files.round(n) / name) for n in numbers]))


def _with_round(tables: Sequence[tuple[int, Path]]) -> str:
    """The CSV files ``tables`` (round number, path) as one, a ``round`` column first."""
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    for i, (number, path) in enumerate(tables):
        with path.open(newline="", encoding="utf-8") as file:
            reader = csv.reader(file)
            header = next(reader)
            if i == 0:
                writer.writerow(["round", *header])
            writer.writerows([number, *row] for row in reader)
    return text.getvalue()


def _write_changed(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` unless it holds that already."""
    try:
        if path.read_text(encoding="utf-8") == text:
            return
    except FileNotFoundError:
        pass
    write_atomically(path, text)


def read_rounds(directory: Path) -> pd.DataFrame:
    """rounds.csv of the tournament in ``directory`` (byes' agent B and a Swiss's advances
    as empty strings)."""
    import pandas as pd

    return pd.read_csv(RunFiles(directory).rounds, keep_default_na=False,
                       dtype={"agent_a": str, "agent_b": str, "advances": str})


def played_rounds(directory: Path) -> list[int]:
    """The numbers of the rounds rounds.csv of ``directory`` holds, in order."""
    with RunFiles(directory).rounds.open(newline="", encoding="utf-8") as file:
        return sorted({int(row["round"]) for row in csv.DictReader(file)})


def open_rounds(directory: Path) -> list[tuple[int, RunReading]]:
    """The rounds of rounds.csv in ``directory``, each round's folder opened for reading as
    a run (``open_run``: checked as a resume checks it)."""
    files = RunFiles(directory)
    return [(number, open_run(files.round(number))) for number in played_rounds(directory)]


class HeldTournament(NamedTuple):
    """What rounds.csv says of the tournament in a directory: its format, agents and games
    a pairing."""

    knockout: bool
    agents: frozenset[str]
    games: frozenset[int]  # one number, unless the file was edited


def run_directories(directory: Path) -> list[Path]:
    """The run directories in ``directory``: each played round's for a tournament in rounds,
    else ``directory`` itself."""
    if is_rounds_tournament(directory):
        return [RunFiles(directory).round(number) for number in played_rounds(directory)]
    return [directory]


def run_names(directory: Path, specs: Iterable[str]) -> dict[str, str]:
    """The names of the agents ``specs`` of the run in ``directory``, as its report names
    them (``RunMeta.names``): the labels its meta.json keeps (every round's, for a
    tournament in rounds: those of any command that worked on it), else short labels of
    their specs with the depth."""
    metas = [load_meta(run) for run in run_directories(directory)]
    given = {spec: name for meta in metas for spec, name in (meta.labels or {}).items()}
    return replace(metas[0], labels=given).names(specs)


def held_tournament(directory: Path) -> HeldTournament | None:
    """The tournament rounds.csv of ``directory`` describes, None without one (read with the
    csv module: no pandas)."""
    path = RunFiles(directory).rounds
    if not path.is_file():
        return None
    with path.open(newline="", encoding="utf-8") as file:
        rows = list(csv.DictReader(file))
    return HeldTournament(
        bool(rows) and all(row["advances"] for row in rows),
        frozenset(row[side] for row in rows for side in ("agent_a", "agent_b") if row[side]),
        frozenset(int(row["games"]) for row in rows if row["agent_b"]))


def rounds_games(directory: Path) -> pd.DataFrame:
    """Every game of the rounds of rounds.csv in ``directory``, each round's rows checked
    and typed as ``load_games`` gives them, a ``round`` column first."""
    import pandas as pd

    readings = open_rounds(directory)
    games = pd.concat([reading.games() for _, reading in readings],
                      keys=[number for number, _ in readings], names=["round"])
    return games.reset_index(level=0).reset_index(drop=True)


def is_knockout(table: pd.DataFrame) -> bool:
    """Whether rounds.csv ``table`` is a knockout's (every row names who goes through)."""
    return bool(len(table)) and bool((table["advances"] != "").all())


def points_by_round(table: pd.DataFrame) -> pd.DataFrame:
    """Each agent's points after each round (columns: the round numbers), best first after
    the last round (ties in the order the agents first appear in ``table``)."""
    import pandas as pd

    order = list(dict.fromkeys(a for a in [*table["agent_a"], *table["agent_b"]] if a))
    sides = pd.concat([
        table[["round", "agent_a", "points_a"]].set_axis(["round", "agent", "points"], axis=1),
        table[["round", "agent_b", "points_b"]].set_axis(["round", "agent", "points"], axis=1),
    ])
    sides = sides[sides["agent"] != ""]
    earned = sides.pivot_table("points", "agent", "round", aggfunc="sum", fill_value=0.0)
    standings = earned.reindex(order, fill_value=0.0).cumsum(axis=1)
    last = standings.columns[-1]
    return standings.sort_values(last, ascending=False, kind="stable")
