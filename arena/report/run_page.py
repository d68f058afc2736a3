"""The report of a run: PNG charts and a ``report.md`` page showing them with the tables.

Everything is computed from the run's ``games.csv`` (the source of truth); ``ratings.csv``
and ``sprt.csv`` feed the rating ladder and the SPRT chart, ``meta.json`` the page's header.
A chart whose input is absent or meaningless is left out, with its section.
"""

from __future__ import annotations

import io
import math
import typing
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from pandas.api.types import union_categoricals

from arena.competitions.round_tables import (
    is_knockout,
    is_rounds_tournament,
    open_rounds,
    points_by_round,
    points_text,
    read_rounds,
)
from arena.competitions.tournaments import crosstable as tournament_crosstable
from arena.protocol.labels import shown_spec, sweeps
from arena.report import charts
from arena.report.blunders import blunder_section
from arena.report.drawn_charts import draw_charts
from arena.report.markdown import markdown_table
from arena.report.run_html import write_run_html
from arena.report.stamp import current_report, report_fingerprint, write_stamp
from arena.rules.errors import ArenaError
from arena.rules.results import Result
from arena.runs.planning.charts import ChartOptions
from arena.runs.store.directory import RunDirectory, RunDirectoryError
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import RunMeta
from arena.runs.store.reading import NoRunError, RunReading, open_run
from arena.runs.store.summary import current_summary, seeds_line, summarize, summary_csv
from arena.stats.elo import wilson
from arena.stats.ratings import RATING_COLUMNS
from arena.system.files import write_atomically

__all__ = [
    "MalformedRunError", "NoRunError", "Run", "SweepSeries", "agent_scores", "cost_per_move",
    "crosstable", "first_player", "game_lengths", "load_rounds", "load_run", "pairings",
    "read_summary", "report_figures", "run_labels", "sweep_series", "write_report",
]

_AGENTS = ("agent_a", "agent_b")
_TEXT = (*_AGENTS, "first", "result", "termination")
_USED = (*_TEXT, "game", "plies", "time_a", "time_b", "turns_a", "turns_b", "nodes_a", "nodes_b")
"""The columns of games.csv the report reads; moves, openings and errors stay on disk."""


class MalformedRunError(ArenaError):
    """A table of a run the report cannot read: not CSV, or missing columns."""


@dataclass(frozen=True)
class Run:
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

    @cached_property
    def agents(self) -> list[str]:
        """Every agent spec, in order of first appearance."""
        specs = [*pd.unique(self.games["agent_a"]), *pd.unique(self.games["agent_b"])]
        return [str(spec) for spec in dict.fromkeys(specs)]


MAX_BAR_PAIRINGS = 40
"""Above this many pairings the win/draw/loss bars are left out: the crosstable shows them all."""

# --------------------------------------------------------------------------- reading


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
    """The checked rows' columns the report uses, with each game's score and first mover."""
    # The text columns stay categories (a byte a row each, not an 8-byte pointer), the agents'
    # four sharing one set of names so that they compare and combine with each other.
    with reading.open_games() as file:
        games = pd.read_csv(file, usecols=list(_USED), dtype={c: "category" for c in _TEXT})
    names = union_categoricals([games["agent_a"], games["agent_b"]]).categories
    for column in _TEXT:
        text = games[column].cat.set_categories(names) if column in _AGENTS else games[column]
        games[column] = text.cat.add_categories("").fillna("") if text.isna().any() else text
    for column in ("plies", "turns_a", "turns_b"):  # a byte a game, not eight
        games[column] = pd.to_numeric(games[column], downcast="integer")
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


def load_run(run_dir: Path) -> Run:
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
    return Run(
        directory=reading.directory,
        games=_read_games(reading),
        summary=read_summary(reading),
        ratings=_read_optional(files.ratings, RATING_COLUMNS),
        sprt=_read_optional(files.sprt, ("games", "llr", "lower", "upper")),
        meta=reading.meta,
    )


def load_rounds(directory: Path) -> Run:
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
    description = {"format": "knockout" if is_knockout(table) else "swiss",
                   "rounds": len(numbers), **metas[0].run}
    description.pop("pairings", None)
    description["games"] = sum(meta.games for meta in metas)
    labels = {name: label for meta in metas for name, label in (meta.labels or {}).items()}
    meta = replace(metas[0], run=description, labels=labels or None,
                   sessions=[session for meta in metas for session in meta.sessions],
                   agents={name: agent for meta in metas for name, agent in meta.agents.items()})
    return Run(directory=Path(directory),
               games=games.reset_index(level=0).reset_index(drop=True),
               summary=summary.reset_index(level=0).reset_index(drop=True),
               ratings=_read_optional(RunFiles(directory).ratings, RATING_COLUMNS), sprt=None,
               meta=meta, rounds=table)


# --------------------------------------------------------------------------- tables


def pairings(run: Run) -> pd.DataFrame:
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


def cost_per_move(games: pd.DataFrame, agents: list[str]) -> pd.DataFrame:
    """Mean milliseconds and nodes per move of each agent (nodes NaN when never reported)."""
    totals = []
    for me in ("a", "b"):  # each side summed on its own: no table of every game twice
        side = pd.DataFrame({"seconds": games[f"time_{me}"], "turns": games[f"turns_{me}"],
                             "nodes": games[f"nodes_{me}"]})
        side["node_turns"] = side["turns"].where(side["nodes"].notna(), 0)
        totals.append(side.groupby(games[f"agent_{me}"]).sum(min_count=1))
    total = totals[0].add(totals[1], fill_value=0).reindex(agents)
    with np.errstate(invalid="ignore", divide="ignore"):
        return pd.DataFrame({
            "agent": agents,
            "ms_per_move": (1000.0 * total["seconds"] / total["turns"]).to_numpy(),
            "nodes_per_move": (total["nodes"] / total["node_turns"]).to_numpy(),
        }).replace([np.inf, -np.inf], np.nan)


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


def sweep_series(run: Run) -> list[SweepSeries]:
    """Strength against every numeric spec parameter in which two or more agents of the run
    differ and in nothing else (depth first, then in the order the parameters come): Elo
    when every such agent is rated, else the score against all opponents."""
    points = [(spec, point) for spec in run.agents for point in sweeps(spec)]
    swept = [spec for spec, _ in points]
    ratings = run.ratings
    if ratings is not None and set(swept) <= set(ratings["agent"]):
        strength = ratings.set_index("agent").rename(columns={"rating": "value"})
        ylabel, percent = f"Elo rating ({charts.BOOTSTRAP})", False
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


# --------------------------------------------------------------------------- the page


def _number(x: float, digits: int = 1) -> str:
    return f"{x:+.{digits}f}" if math.isfinite(x) else ("+∞" if x > 0 else "-∞" if x < 0 else "—")


def _plus_minus(value: float, error: float) -> str:
    if math.isnan(error):  # no interval (see arena.stats.elo)
        return _number(value)
    return f"{_number(value)} ± {_number(error).lstrip('+')}"


def _interval(score: float, low: float, high: float) -> str:
    if math.isnan(score):
        return "—"
    return f"{score:.1%} [{low:.1%}, {high:.1%}]"


def _scalars(mapping: Mapping[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in mapping.items() if isinstance(v, (str, int, float)) and v != ""}


def _header(run: Run) -> list[str]:
    """The title and what the run was: its commands, dates, seed, board, games."""
    meta = run.meta.to_json()
    plan = meta["run"]
    sessions = [s for s in meta.get("sessions", []) if isinstance(s, dict)]
    commands = list(dict.fromkeys(s["command"] for s in [meta, *sessions]
                                  if isinstance(s.get("command"), str)))  # each once
    board = plan.get("board", {}) if isinstance(plan.get("board"), dict) else {}
    facts = {**_scalars(meta), **_scalars(plan)}
    facts.pop("command", None)
    if "games" in facts:
        facts["games planned"] = facts.pop("games")
    if {"rows", "cols", "connect"} <= board.keys():
        facts["board"] = f"{board['rows']} x {board['cols']} (rows x columns), connect " \
            f"{board['connect']}"
    facts["games played"] = len(run.games)
    return [f"# Report: {run.directory.resolve().name}", "",
            *(f"- **command**: `{command}`" for command in commands),
            *(f"- **{key}**: {value}" for key, value in facts.items())]


def _records(table: pd.DataFrame) -> list[dict[str, Any]]:
    return typing.cast(list[dict[str, Any]], table.to_dict("records"))


def _agents_section(run: Run, labels: Mapping[str, str]) -> list[str]:
    rows = [(labels[r["agent"]], f"`{shown_spec(r['agent'])}`", r["games"],
             _interval(r["score"], r["low"], r["high"]))
            for r in _records(agent_scores(run.games, run.agents))]
    return ["## Agents", "", markdown_table(
        ("label", "spec", "games against others", "score against all others (95% Wilson)"),
        rows), "", "Each agent's score over all its games against the others, with the Wilson "
        "score interval (the games of different opponents are not alike: no pair model)."]


def _results_section(table: pd.DataFrame, labels: Mapping[str, str]) -> list[str]:
    records = _records(table)
    seeds = [seeds_line(labels[r["agent_a"]], r["wins"], r["draws"], r["losses"],
                        labels[r["agent_b"]], r["games"]) for r in records]
    rows = [(labels[r["agent_a"]], labels[r["agent_b"]], r["games"], r["wins"], r["draws"],
             r["losses"], _interval(r["score"], r["score_low"], r["score_high"]),
             f"{_number(r['elo'])} [{_number(r['elo_low'])}, {_number(r['elo_high'])}]",
             _plus_minus(r["nelo"], r["nelo_error"]), f"{r['los']:.1%}", r["elo_model"],
             charts.INTERVAL_NAMES.get(r.get("interval", ""), "—"))
            for r in records]  # no interval column in summaries written before it
    header = ("A", "B", "games", "win", "draw", "loss", "A's score (95% interval)",
              "Elo (95% interval)", "nElo ± 95%", "LOS", "model", "interval method")
    return ["## Results", "", markdown_table(header, rows), "",
            "The same results in the seeds' table format, `A [W, T, L] B (games)`, where T "
            "(ties) counts the draws:", "", "```text", *seeds, "```", "",
            "The pentanomial model counts colour-swapped game pairs, when every game has its "
            "partner; the trinomial model counts games. Intervals are the normal approximation "
            "with that model's variance, or the Wilson score interval where it fails (few games, "
            "one-sided results); the Elo interval is the score interval mapped to Elo."]


def _crosstable_section(run: Run, labels: Mapping[str, str]) -> list[str]:
    points, played = (t.to_numpy(dtype=float) for t in crosstable(run.games, run.agents))
    rows = [[labels[a], *(f"{p / n:.0%} ({n:.0f})" if n else "" for p, n in zip(
        points[i], played[i], strict=True))] for i, a in enumerate(run.agents)]
    return ["## Crosstable", "", "The row agent's score against each opponent (games).", "",
            markdown_table(("", *(labels[b] for b in run.agents)), rows)]


def _ratings_section(ratings: pd.DataFrame, labels: Mapping[str, str]) -> list[str]:
    rows = [(r["rank"], labels[r["agent"]], f"`{shown_spec(r['agent'])}`",
             _number(r["rating"], 0), f"[{_number(r['low'], 0)}, {_number(r['high'], 0)}]",
             r["games"], f"{r['score']:.1%}") for r in _records(ratings)]
    header = ("rank", "label", "spec", "Elo", "95% bootstrap interval", "games", "score")
    return ["## Ratings", "", markdown_table(header, rows), "",
            "Bradley-Terry maximum-likelihood ratings with percentile-bootstrap intervals "
            "(games resampled); the score column is over all games, without an interval."]


def _sprt_section(sprt: pd.DataFrame) -> list[str]:
    last = _records(sprt)[-1]
    verdict = _sprt_verdict(last)
    return ["## SPRT", "", markdown_table(("games", "LLR", "lower", "upper", "verdict"), [(
        int(last["games"]), f"{last['llr']:.2f}", f"{last['lower']:.2f}",
        f"{last['upper']:.2f}", last.get("verdict", verdict))])]


def _sprt_title(table: pd.DataFrame, labels: Mapping[str, str]) -> str:
    if len(table) != 1:
        return "SPRT: log-likelihood ratio against games"
    pairing = _records(table)[0]
    return f"SPRT: {labels[pairing['agent_a']]} vs {labels[pairing['agent_b']]}"


def _rounds_section(run: Run, table: pd.DataFrame, labels: Mapping[str, str]) -> list[str]:
    """A knockout's bracket (every round's pairings and who went through), or a Swiss's
    standings: each agent's points after each round, with their chart."""
    rows: list[tuple[Any, ...]]
    if is_knockout(table):
        rows = [(r["round"], labels[r["agent_a"]], "sits out", "", "", labels[r["advances"]])
                if not r["agent_b"] else
                (r["round"], labels[r["agent_a"]], labels[r["agent_b"]],
                 f"{r['wins']}-{r['draws']}-{r['losses']}",
                 f"{points_text(r['points_a'])}-{points_text(r['points_b'])}",
                 labels[r["advances"]])
                for r in _records(table)]
        return ["## Bracket", "", markdown_table(
            ("round", "A", "B", "A's W-D-L", "points", "through"), rows), "",
            "Each round pairs first seed (the order the agents were given) against last among "
            "those still in; more points go through, the better seed on a tie. In the first "
            "round the top seeds that bring the others to a power of two sit out."]
    standings = points_by_round(table)
    rows = [(i, labels[agent], *map(points_text, points)) for i, (agent, points) in
            enumerate(zip(standings.index, standings.to_numpy().tolist(), strict=True),
                      start=1)]
    byes = [f"round {r['round']}: {labels[r['agent_a']]}" for r in _records(table)
            if not r["agent_b"]]
    return _with_chart(["## Standings by round", "", markdown_table(
        ("rank", "agent", *(f"after round {n}" for n in standings.columns)), rows), "",
        "Points after each round (a win 1, a draw 1/2, a bye the round's games as won), best "
        "first after the last round, ties in the order the agents were given. Byes: "
        + ("; ".join(byes) if byes else "none") + "."], run, "standings",
        "Standings after each round", charts.standings_chart(standings, labels))


def _terminations_section(games: pd.DataFrame) -> list[str]:
    counts = games["termination"].replace("", "unknown").value_counts()
    return ["## Terminations", "", markdown_table(("termination", "games"), counts.items())]


class ChartSection(list[str]):
    """A section's lines that show a chart: with the chart's kind and its figure."""

    def __init__(self, lines: Iterable[str], kind: str, figure: Figure) -> None:
        super().__init__(lines)
        self.kind = kind
        self.figure = figure


def _with_chart(lines: list[str], run: Run, kind: str, alt: str, figure: Figure) -> list[str]:
    """The section's lines followed by its chart, the run's chart of ``kind`` (written by
    ``write_report`` in every format asked for: shown as its PNG, else its SVG, the others
    linked)."""
    names = [RunFiles(run.directory).chart(kind, suffix).name for suffix in run.charts.formats]
    return ChartSection([*lines, "", *chart_lines(alt, names)], kind, figure)


def chart_lines(alt: str, names: Sequence[str]) -> list[str]:
    """A chart on the page: its PNG or SVG shown, its vector files linked."""
    shown = next((n for n in names if n.endswith(".png")), None) or next(
        (n for n in names if n.endswith(".svg")), None)
    links = [f"[{name.rpartition('.')[2].upper()}]({name})" for name in names
             if name.endswith((".svg", ".pdf"))]
    return [*([f"![{alt}]({shown})"] if shown else []),
            *([f"{alt}: " + ", ".join(links)] if links else [])]


def _verdict(run: Run, table: pd.DataFrame, labels: Mapping[str, str]) -> list[str]:
    """What the run found, in a sentence or two: the SPRT's decision, the strongest agent of
    a rated field, or the one pairing's score."""
    lines = ["## Verdict", ""]
    if run.rounds is not None:
        if is_knockout(run.rounds):
            winner = str(run.rounds["advances"].iloc[-1])
            lines += [f"**{labels[winner]}** wins the knockout of {len(run.agents)} agents "
                      f"({run.rounds['round'].max()} rounds).", ""]
        else:
            standings = points_by_round(run.rounds)
            leader, points = str(standings.index[0]), standings.to_numpy()[0, -1]
            lines += [f"**{labels[leader]}** leads the Swiss tournament with "
                      f"{points_text(points)} points after {len(standings.columns)} rounds.",
                      ""]
    if run.sprt is not None:
        last = _records(run.sprt)[-1]
        verdict = last.get("verdict") or _sprt_verdict(last)
        lines += [f"**SPRT: {verdict}** after {int(last['games'])} games (LLR {last['llr']:.2f}, "
                  f"bounds {last['lower']:.2f} and {last['upper']:.2f}).", ""]
    if run.ratings is not None and len(run.ratings) >= 2:
        best = _records(run.ratings)[0]
        lines += [f"**{labels[best['agent']]}** rates highest: {_number(best['rating'], 0)} Elo "
                  f"[{_number(best['low'], 0)}, {_number(best['high'], 0)}] (95% bootstrap "
                  f"interval), of {len(run.ratings)} agents.", ""]
    if len(table) == 1:
        r = _records(table)[0]
        lines += [f"**{labels[r['agent_a']]}** scores "
                  f"{_interval(r['score'], r['score_low'], r['score_high'])} against "
                  f"**{labels[r['agent_b']]}** over {r['games']} games (win {r['wins']}, draw "
                  f"{r['draws']}, loss {r['losses']}): Elo {_number(r['elo'])} "
                  f"[{_number(r['elo_low'])}, {_number(r['elo_high'])}]. 95% intervals: "
                  f"{charts.INTERVAL_NAMES.get(r.get('interval', ''), 'normal approximation')}, "
                  f"{r['elo_model']} model.", ""]
    return lines[:-1]


def _sprt_verdict(last: Mapping[str, Any]) -> str:
    return ("accept H1" if last["llr"] >= last["upper"] else
            "accept H0" if last["llr"] <= last["lower"] else "continue")


def _sections(run: Run, labels: Mapping[str, str]) -> Iterable[list[str]]:
    """The page's sections (nothing written): the verdict and the results first, then the
    charts that answer the run's question, the run's facts last."""
    games, agents = run.games, run.agents
    table = pairings(run)
    yield [f"# Report: {run.directory.resolve().name}"]
    yield _verdict(run, table, labels)
    if run.rounds is not None:
        yield _rounds_section(run, run.rounds, labels)
    yield _results_section(table, labels)
    if run.sprt is not None:
        yield _with_chart(_sprt_section(run.sprt), run, "sprt",
                          "SPRT log-likelihood ratio against games",
                          charts.sprt_chart(run.sprt, _sprt_title(table, labels)))
    if run.ratings is not None:
        yield _with_chart(_ratings_section(run.ratings, labels), run, "ratings",
                          "Rating ladder", charts.ladder_chart(run.ratings, labels))
    cost = cost_per_move(games, agents)
    if run.ratings is not None and len(run.ratings) >= 3 and cost["ms_per_move"].notna().any():
        yield _with_chart(["## Strength against thinking time", "",
                           "Each agent's rating against its mean time per move; the "
                           "line joins the agents no other agent beats while thinking less."],
                          run, "elo-cost", "Elo against time per move",
                          charts.elo_cost_chart(run.ratings, cost, labels))
    if len(agents) >= 3:
        yield _agents_section(run, labels)
        yield _with_chart(_crosstable_section(run, labels), run, "crosstable",
                          "Crosstable heatmap",
                          charts.crosstable_chart(*crosstable(games, agents), labels))
        for sweep in sweep_series(run):
            yield _with_chart([f"## Strength against {sweep.parameter}"], run, sweep.kind,
                              f"Strength against {sweep.axis}",
                              charts.sweep_chart(sweep.table, sweep.axis, sweep.ylabel,
                                                 sweep.percent, sweep.log))
    if len(table) <= MAX_BAR_PAIRINGS:
        yield _with_chart(["## Wins, draws and losses"], run, "wtl",
                          "Wins, draws and losses per pairing", charts.wtl_chart(table, labels))
    else:
        yield [f"({len(table)} pairings: too many for readable bars; the crosstable shows "
               "every pairing's score.)"]
    yield _with_chart(["## Cost per move"], run, "cost", "Time and nodes per move",
                      charts.cost_chart(cost, labels))
    yield _with_chart(["## Game length and the first player's advantage"], run, "length",
                      "Game length by result and the first player's advantage",
                      charts.length_chart(game_lengths(games), first_player(games, agents),
                                          labels))
    blunders = blunder_section(run.directory, labels)  # after `arena analyze`
    if blunders is not None:
        yield _with_chart(blunders[0], run, "blunders", "Accuracy by phase", blunders[1])
    yield _terminations_section(games)
    yield ["## The run", "", *_header(run)[2:]]


def run_labels(run: Run) -> dict[str, str]:
    """The name of every agent of the run (and of its ratings), its own labels first
    (``RunMeta.names``)."""
    rated = [] if run.ratings is None else [str(agent) for agent in run.ratings["agent"]]
    return run.meta.names([*run.agents, *rated])


def _figures(sections: Iterable[list[str]]) -> dict[str, Figure]:
    return {section.kind: section.figure for section in sections
            if isinstance(section, ChartSection)}


def report_figures(run: Run) -> dict[str, Figure]:
    """The charts the run's report shows, by kind (``wtl``, ``crosstable``, ...), in order."""
    return _figures(_sections(run, run_labels(run)))


def write_report(run_dir: Path, options: ChartOptions | None = None) -> Path:
    """Write the charts (in ``options``' formats and resolution; default PNG), report.md and
    report.html (with report-games.html, the replay page of the games it links) into
    ``run_dir`` (locked meanwhile); return report.md's path. A report that is current
    (``arena.report.stamp.current_report``: nothing it shows changed since it was written,
    nor any file it wrote) is left as it is."""
    if not Path(run_dir).is_dir():
        raise NoRunError(f"{run_dir} is not a run directory: it does not exist")
    options = options or ChartOptions()
    with RunDirectory(Path(run_dir), create=False):
        current = current_report(Path(run_dir), options)
        if current is not None:
            return current
        try:
            fingerprint = report_fingerprint(Path(run_dir), options)
            run = replace(load_run(Path(run_dir)), charts=options)
            labels = run_labels(run)
            sections = list(_sections(run, labels))
            figures = _figures(sections)
            files = RunFiles(run.directory)
            charts = draw_charts(figures, lambda kind: files.chart(kind).with_suffix(""),
                                 run.charts.formats, run.charts.dpi)
            page = "\n\n".join("\n".join(section) for section in sections)
            write_atomically(files.report, page + "\n")
            html = write_run_html(run.directory, run.games, labels, page, figures,
                                  charts.written, charts.svgs, notable=run.rounds is None)
            outputs = [*charts.written, files.report, html]
            if files.report_games.exists():
                outputs.append(files.report_games)
            write_stamp(run.directory, options, fingerprint, [p.name for p in outputs])
        except OSError as error:
            raise RunDirectoryError(f"cannot write the report in {run_dir}: "
                                    f"{error.strerror or error}") from None
    return files.report
