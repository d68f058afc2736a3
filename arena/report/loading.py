"""A run directory read for its report: the typed ``RunContents`` (its games, summary,
ratings, SPRT steps, meta.json and, for a tournament in rounds, its rounds), read
without writing anything.

games.csv is read through ``arena.runs.store.reading`` (the run checked as a resume checks it, its
rows by ``arena.runs.store.rows.games_table``'s dtypes); a summary that is not current is computed
in memory; ratings.csv and sprt.csv are read when present.
"""

from __future__ import annotations

import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from pandas.api.types import union_categoricals

from arena.competitions.round_tables import (
    is_knockout,
    is_rounds_tournament,
    open_rounds,
    read_rounds,
)
from arena.rules.errors import ArenaError
from arena.rules.results import Result
from arena.runs.planning.charts import ChartOptions
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import RunMeta
from arena.runs.store.reading import NoRunError, RunReading, open_run
from arena.runs.store.summary import current_summary, summarize, summary_csv
from arena.stats.ratings import RATING_COLUMNS

__all__ = ["MalformedRunError", "NoRunError", "Run", "RunContents", "load_rounds", "load_run",
           "read_summary", "run_labels"]

_AGENTS = ("agent_a", "agent_b")
_USED = (*_AGENTS, "first", "result", "termination", "game", "plies", "time_a", "time_b",
         "turns_a", "turns_b", "nodes_a", "nodes_b")
"""The columns of games.csv the report reads; moves, openings and errors stay on disk."""


class MalformedRunError(ArenaError):
    """A table of a run the report cannot read: not CSV, or missing columns."""


@dataclass(frozen=True)
class RunContents:
    """What a run directory holds, as the report reads it."""

    directory: Path
    games: pd.DataFrame
    summary: pd.DataFrame
    ratings: pd.DataFrame | None
    sprt: pd.DataFrame | None
    meta: RunMeta
    charts: ChartOptions = field(default_factory=ChartOptions)
    rounds: pd.DataFrame | None = None
    """A tournament played in rounds: its rounds.csv (the run's games and summary then have
    a ``round`` column first)."""
    facts: dict[str, Any] = field(default_factory=dict)
    """What the page says of the run before its description's facts (a tournament in rounds:
    its format and number of rounds)."""

    @cached_property
    def agents(self) -> list[str]:
        """Every agent spec, in order of first appearance."""
        specs = [*pd.unique(self.games["agent_a"]), *pd.unique(self.games["agent_b"])]
        return [str(spec) for spec in dict.fromkeys(specs)]


def _read_csv(path: Path, **options: Any) -> pd.DataFrame:
    try:
        return pd.read_csv(path, **options)
    except pd.errors.EmptyDataError:
        return pd.DataFrame()
    except (pd.errors.ParserError, UnicodeDecodeError) as error:
        detail = str(error).strip().splitlines()[-1]
        raise MalformedRunError(f"{path} is not a readable CSV file: {detail}") from None


def _require(table: pd.DataFrame, columns: Iterable[str], path: Path) -> None:
    missing = [c for c in columns if c not in table.columns]
    if missing:
        raise MalformedRunError(f"{path} lacks column(s) {', '.join(missing)}")


def _read_games(reading: RunReading) -> pd.DataFrame:
    """The checked rows' columns the report uses (``RunReading.games``: games.csv's one
    reader and its dtypes), with each game's score and first mover; the agents' two columns
    share one set of names, so that they compare and combine with each other."""
    games = reading.games(_USED)
    names = union_categoricals([games["agent_a"], games["agent_b"]]).categories
    for column in _AGENTS:
        games[column] = games[column].cat.set_categories(names)
    a_first = (games["first"] == "a").to_numpy()
    score = games["result"].map({str(result): result.score for result in Result}).astype(float)
    agent_a, agent_b = games["agent_a"].cat.codes.to_numpy(), games["agent_b"].cat.codes.to_numpy()
    return games.assign(
        score_a=score,
        first_agent=pd.Categorical.from_codes(np.where(a_first, agent_a, agent_b), names),
        second_agent=pd.Categorical.from_codes(np.where(a_first, agent_b, agent_a), names),
        first_score=score.where(a_first, 1.0 - score),
    )


def _read_optional(path: Path, columns: Sequence[str]) -> pd.DataFrame | None:
    if not path.is_file():
        return None
    table = _read_csv(path)
    if table.empty:
        return None
    _require(table, columns, path)
    return table


def read_summary(reading: RunReading) -> pd.DataFrame:
    """The run's summary.csv while it and games.csv are what the run wrote (their digests are
    in meta.json); otherwise the summary computed afresh from the checked rows."""
    files = reading.files
    summary_types = {"agent_a": str, "agent_b": str, "elo_model": str}
    if current_summary(files, reading.meta):
        return _read_csv(files.summary, dtype=summary_types)
    text = summary_csv(summarize(files.games, reading.length))
    return pd.read_csv(io.StringIO(text), dtype=summary_types)


Run = RunContents
"""The earlier name of ``RunContents`` (a run is the games of a run directory)."""


def load_run(run_dir: Path) -> RunContents:
    """Read a run directory (locked by the caller), checked as a resume checks it
    (``arena.runs.store.reading.open_run``: NoRunError without a game, MetaError, GamesTableError
    naming the first row that does not fit). Nothing in it is written.

    The summary is ``read_summary``'s. A tournament played in rounds is read from its round
    folders (``load_rounds``).
    """
    if is_rounds_tournament(run_dir):
        return load_rounds(run_dir)
    files = RunFiles(run_dir)
    if not files.meta.exists() and files.round(1).is_dir():
        raise NoRunError(f"{run_dir} holds the rounds of a tournament that has not ended yet "
                         f"(no {files.ROUNDS}): run its command again to finish it, or report "
                         f"a round ({files.round(1)})")
    reading = open_run(run_dir)
    files = reading.files
    return RunContents(
        directory=reading.directory,
        games=_read_games(reading),
        summary=read_summary(reading),
        ratings=_read_optional(files.ratings, RATING_COLUMNS),
        sprt=_read_optional(files.sprt, ("games", "llr", "lower", "upper")),
        meta=reading.meta,
    )


def load_rounds(directory: Path) -> RunContents:
    """A Swiss or knockout tournament: rounds.csv, and the games and summaries of the rounds
    it holds, each round's folder read as ``load_run`` reads a run, a ``round`` column
    first; its ratings are those at its top. The page's facts are the first round's, with
    the format, the rounds and the commands of them all."""
    table = read_rounds(directory)
    readings = open_rounds(directory)
    numbers = [number for number, _ in readings]
    games = pd.concat([_read_games(r) for _, r in readings], keys=numbers, names=["round"])
    summary = pd.concat([read_summary(r) for _, r in readings], keys=numbers, names=["round"])
    metas = [r.meta for _, r in readings]
    description = replace(metas[0].run, games=sum(meta.games for meta in metas))
    labels = {name: label for meta in metas for name, label in (meta.labels or {}).items()}
    meta = replace(metas[0], run=description, labels=labels or None,
                   sessions=[session for meta in metas for session in meta.sessions],
                   agents={name: agent for meta in metas for name, agent in meta.agents.items()})
    return RunContents(directory=Path(directory),
               games=games.reset_index(level=0).reset_index(drop=True),
               summary=summary.reset_index(level=0).reset_index(drop=True),
               ratings=_read_optional(RunFiles(directory).ratings, RATING_COLUMNS), sprt=None,
               meta=meta, rounds=table,
               facts={"format": "knockout" if is_knockout(table) else "swiss",
                      "rounds": len(numbers)})


def run_labels(run: RunContents) -> dict[str, str]:
    """The name of every agent of the run (and of its ratings), its own labels first
    (``RunMeta.names``)."""
    rated = [] if run.ratings is None else [str(agent) for agent in run.ratings["agent"]]
    return run.meta.names([*run.agents, *rated])

