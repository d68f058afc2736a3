"""The tables a run's report is made of, computed from a ``RunContents`` (nothing read or
written): its pairings, the crosstable, each agent's score, cost per move, the first mover's
advantage, game lengths and the strength of agents that differ in one numeric parameter;
``RunTables`` holds a run with those its report shows, each computed once."""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import numpy as np
import pandas as pd

from arena.competitions.round_tables import is_knockout, points_by_round
from arena.competitions.tournaments import crosstable as tournament_crosstable
from arena.protocol.labels import sweeps
from arena.report.best_moves import BestMoves, load_best_moves
from arena.report.blunders import Blunders, load_blunders
from arena.report.charts import BOOTSTRAP
from arena.report.loading import RunContents, run_labels
from arena.runs.store.files import RunFiles
from arena.runs.store.model_usage import ModelMoves, moves_table, read_model_moves
from arena.stats.elo import wilson
from arena.stats.move_times import MoveTimes

__all__ = ["AXIS_NAMES", "COST_COLUMNS", "RunTables", "SweepSeries", "agent_scores",
           "cost_per_move", "crosstable",
           "first_player", "game_lengths", "pairings", "sweep_series"]


def pairings(run: RunContents) -> pd.DataFrame:
    """summary.csv's rows, one per (agent_a, agent_b)."""
    return run.summary


def crosstable(games: pd.DataFrame, agents: list[str]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Points each row agent took from each other agent, and the games they played (the
    tournament's crosstable as two matrices; self-play says nothing of strength and is out)."""
    table = tournament_crosstable(games, agents)
    points = table.pivot_table("points", "agent", "opponent", aggfunc="sum", fill_value=0.0)
    played = table.pivot_table("games", "agent", "opponent", aggfunc="sum", fill_value=0)
    return (points.reindex(index=agents, columns=agents, fill_value=0.0),
            played.reindex(index=agents, columns=agents, fill_value=0))


def _wilson_row(points: float, n: int) -> dict[str, float]:
    """Games, score and its Wilson interval (nan without games)."""
    if n == 0:
        return {"games": 0, "score": math.nan, "low": math.nan, "high": math.nan}
    interval = wilson(points, n)
    return {"games": n, "score": points / n, "low": interval.low, "high": interval.high}


def agent_scores(games: pd.DataFrame, agents: list[str]) -> pd.DataFrame:
    """Each agent's games and score against other agents, with a Wilson interval."""
    totals = tournament_crosstable(games, agents).groupby("agent")[["points", "games"]].sum()
    totals = totals.reindex(agents, fill_value=0)
    rows = [{"agent": agent, **_wilson_row(float(points), int(played))}
            for agent, points, played in zip(agents, totals["points"], totals["games"],
                                             strict=True)]
    return pd.DataFrame(rows, columns=["agent", "games", "score", "low", "high"])


COST_COLUMNS = ("agent", "games", "ms_median", "ms_low", "ms_high", "ms_p90", "ms_mean",
                "nodes_per_move")
"""``cost_per_move``'s table: the games with a move of the agent's, its milliseconds a move
(``arena.stats.move_times.MoveTimes``: the median game's, its 95% interval, the 90th
percentile, the mean) and its mean nodes a move."""


def cost_per_move(games: pd.DataFrame, agents: list[str]) -> pd.DataFrame:
    """Each agent's time a move over its games, on both sides (``COST_COLUMNS``; the
    interval NaN below 6 games) and its mean nodes a move (NaN when never reported)."""
    def both(column: str) -> np.ndarray:
        return np.concatenate([games[f"{column}_{me}"].astype(float).to_numpy()
                               for me in ("a", "b")])  # <NA> nodes: NaN

    who = np.concatenate([pd.Categorical(games[f"agent_{me}"], categories=agents).codes
                          for me in ("a", "b")])
    seconds, turns, nodes = both("time"), both("turns"), both("nodes")
    rows = []
    for code, agent in enumerate(agents):
        mine = who == code
        times = MoveTimes.of_games(seconds[mine], turns[mine])
        reported = mine & ~np.isnan(nodes)
        node_turns = turns[reported].sum()
        rows.append((agent, times.games, times.median, times.low, times.high, times.p90,
                     times.mean, nodes[reported].sum() / node_turns if node_turns else np.nan))
    return pd.DataFrame(rows, columns=list(COST_COLUMNS))


def first_player(games: pd.DataFrame, agents: list[str]) -> pd.DataFrame:
    """Scores moving first and second, per agent and over all games (agent '')."""
    rows = [{"agent": "", "side": "first",
             **_wilson_row(float(games["first_score"].sum()), len(games))}]
    for agent in agents:
        for side, score in (("first", games["first_score"]),
                            ("second", 1.0 - games["first_score"])):
            mine = games[f"{side}_agent"] == agent
            if mine.any():
                rows.append({"agent": agent, "side": side,
                             **_wilson_row(float(score[mine].sum()), int(mine.sum()))})
    return pd.DataFrame(rows)


def game_lengths(games: pd.DataFrame) -> pd.DataFrame:
    """Plies of every game and its outcome for the first player: first, draw or second."""
    score = games["first_score"].to_numpy()
    codes = np.select([score == 1.0, score == 0.0], [0, 2], 1).astype(np.int8)
    outcome = pd.Categorical.from_codes(codes, pd.Index(["first", "draw", "second"]))  # a byte
    return pd.DataFrame({"outcome": outcome, "plies": games["plies"]})


@dataclass(frozen=True)
class SweepSeries:
    """Strength against one numeric parameter: rows family, value_of (the parameter's
    value), value, low, high, one line per family of agents that differ in it alone."""

    parameter: str
    table: pd.DataFrame
    ylabel: str
    percent: bool

    @property
    def log(self) -> bool:
        """True when the values are positive and span a decade or more."""
        values = self.table["value_of"]
        return bool(values.min() > 0 and values.max() >= 10 * values.min())

    @property
    def axis(self) -> str:
        """The x-axis's name."""
        return AXIS_NAMES.get(self.parameter, self.parameter)

    @property
    def kind(self) -> str:
        """The chart's kind (its file's name): ``depth`` or ``sweep-PARAMETER``."""
        return "depth" if self.parameter == "depth" else f"sweep-{self.parameter}"


AXIS_NAMES = {"depth": "search depth (plies)"}
"""Parameters whose axis says more than their name."""


def sweep_series(run: RunContents) -> list[SweepSeries]:
    """Strength against every numeric spec parameter in which two or more agents of the run
    differ and in nothing else (depth first, then in the order the parameters come): Elo
    when every such agent is rated, else the score against all opponents."""
    points = [(spec, point) for spec in run.agents for point in sweeps(spec)]
    swept = [spec for spec, _ in points]
    ratings = run.ratings
    if ratings is not None and set(swept) <= set(ratings["agent"]):
        strength = ratings.set_index("agent").rename(columns={"rating": "value"})
        ylabel, percent = f"Elo rating ({BOOTSTRAP})", False
    else:
        strength = agent_scores(run.games, list(dict.fromkeys(swept))).set_index("agent")
        strength = strength.rename(columns={"score": "value"})
        ylabel, percent = "score against all opponents (95% Wilson score interval)", True
    rows = [{"parameter": p.parameter, "key": p.key, "family": p.label, "value_of": p.value,
             **strength.loc[spec, ["value", "low", "high"]]} for spec, p in points]
    columns = ["parameter", "key", "family", "value_of", "value", "low", "high"]
    table = pd.DataFrame(rows, columns=columns).drop_duplicates(["key", "value_of"])
    table = table[table.groupby("key")["value_of"].transform("size") >= 2]
    order = sorted(dict.fromkeys(table["parameter"]), key=lambda name: name != "depth")
    return [SweepSeries(name, table[table["parameter"] == name].drop(
        columns=["parameter", "key"]).reset_index(drop=True), ylabel, percent)
        for name in order]


@dataclass(frozen=True)
class RunTables:
    """A run, its agents' names and the tables its report shows, each computed once, when it
    is first asked for (a chart and its section, or a chart's predicate, share them)."""

    run: RunContents

    @cached_property
    def labels(self) -> dict[str, str]:
        """Every agent's name (``run_labels``)."""
        return run_labels(self.run)

    @cached_property
    def pairings(self) -> pd.DataFrame:
        """summary.csv's rows (``pairings``)."""
        return pairings(self.run)

    @cached_property
    def cost(self) -> pd.DataFrame:
        """Time and nodes per move of each agent (``cost_per_move``)."""
        return cost_per_move(self.run.games, self.run.agents)

    @cached_property
    def crosstable(self) -> tuple[pd.DataFrame, pd.DataFrame]:
        """Points and games of each agent against each other (``crosstable``)."""
        return crosstable(self.run.games, self.run.agents)

    @cached_property
    def sweeps(self) -> list[SweepSeries]:
        """Strength against each swept parameter (``sweep_series``)."""
        return sweep_series(self.run)

    @cached_property
    def standings(self) -> pd.DataFrame | None:
        """A Swiss tournament's points after each round (None for any other run)."""
        rounds = self.run.rounds
        return None if rounds is None or is_knockout(rounds) else points_by_round(rounds)

    @cached_property
    def blunders(self) -> Blunders | None:
        """The run's blunders after ``arena analyze`` (None without an analysis)."""
        return load_blunders(self.run.directory)

    @cached_property
    def best_moves(self) -> BestMoves | None:
        """The run's best moves after ``arena analyze --best-moves`` (None without)."""
        return load_best_moves(self.run.directory)

    @cached_property
    def model_transcripts(self) -> ModelMoves:
        """The moves of the run's language models and their damaged transcripts
        (``model_usage.read_model_moves``)."""
        return read_model_moves(RunFiles(self.run.directory))

    @cached_property
    def model_moves(self) -> pd.DataFrame:
        """The moves of the run's language models (``model_usage.moves_table``)."""
        return moves_table(RunFiles(self.run.directory), read=self.model_transcripts)
