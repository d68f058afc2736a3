"""The Markdown of a run's report: its sections as lists of lines (the verdict, the tables
of results, ratings, the SPRT, a crosstable, a tournament's rounds, the terminations, the
run's facts) and how a chart stands on the page. Nothing here draws or writes."""

from __future__ import annotations

import math
import typing
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd

from arena.competitions.round_tables import (
    is_knockout,
    points_by_round,
    points_text,
    run_directories,
)
from arena.protocol.labels import shown_spec
from arena.report.charts import INTERVAL_NAMES
from arena.report.loading import RunContents
from arena.report.markdown import markdown_table
from arena.report.run_tables import agent_scores
from arena.rules.results import FORFEITS
from arena.runs.store.files import RunFiles
from arena.runs.store.summary import first_errors, seeds_line
from arena.stats.move_times import MoveTimes, median_text, ms_text

__all__ = ["agents_section", "bracket_section", "chart_lines", "cost_section",
           "crosstable_section",
           "forfeits_sentence", "ratings_section", "records", "results_section", "run_facts",
           "sprt_section", "sprt_title", "standings_section", "terminations_section",
           "verdict_section"]


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


def run_facts(run: RunContents) -> list[str]:
    """What the run was, a fact a line: its commands, dates, seed, board, games."""
    meta = run.meta.to_json()
    plan = meta["run"]
    sessions = [s for s in meta.get("sessions", []) if isinstance(s, dict)]
    commands = list(dict.fromkeys(s["command"] for s in [meta, *sessions]
                                  if isinstance(s.get("command"), str)))  # each once
    board = plan.get("board", {}) if isinstance(plan.get("board"), dict) else {}
    facts = {**_scalars(meta), **_scalars({**run.facts, **plan})}
    facts.pop("command", None)
    if "games" in facts:
        facts["games planned"] = facts.pop("games")
    if {"rows", "cols", "connect"} <= board.keys():
        facts["board"] = f"{board['rows']} x {board['cols']} (rows x columns), connect " \
            f"{board['connect']}"
    facts["games played"] = len(run.games)
    return [*(f"- **command**: `{command}`" for command in commands),
            *(f"- **{key}**: {value}" for key, value in facts.items())]


def records(table: pd.DataFrame) -> list[dict[str, Any]]:
    """The table's rows as dictionaries."""
    return typing.cast(list[dict[str, Any]], table.to_dict("records"))


def agents_section(run: RunContents, labels: Mapping[str, str]) -> list[str]:
    """Each agent's score against all the others, with its Wilson interval."""
    rows = [(labels[r["agent"]], f"`{shown_spec(r['agent'])}`", r["games"],
             _interval(r["score"], r["low"], r["high"]))
            for r in records(agent_scores(run.games, run.agents))]
    return ["## Agents", "", markdown_table(
        ("label", "spec", "games against others", "score against all others (95% Wilson)"),
        rows), "", "Each agent's score over all its games against the others, with the Wilson "
        "score interval (the games of different opponents are not alike: no pair model)."]


def results_section(table: pd.DataFrame, labels: Mapping[str, str]) -> list[str]:
    """Each pairing's results (summary.csv's rows), also in the seeds' table format."""
    rows_of = records(table)
    seeds = [seeds_line(labels[r["agent_a"]], r["wins"], r["draws"], r["losses"],
                        labels[r["agent_b"]], r["games"]) for r in rows_of]
    rows = [(labels[r["agent_a"]], labels[r["agent_b"]], r["games"], r["wins"], r["draws"],
             r["losses"], _interval(r["score"], r["score_low"], r["score_high"]),
             f"{_number(r['elo'])} [{_number(r['elo_low'])}, {_number(r['elo_high'])}]",
             _plus_minus(r["nelo"], r["nelo_error"]), f"{r['los']:.1%}", r["elo_model"],
             INTERVAL_NAMES.get(r.get("interval", ""), "—"))
            for r in rows_of]  # no interval column in summaries written before it
    header = ("A", "B", "games", "win", "draw", "loss", "A's score (95% interval)",
              "Elo (95% interval)", "nElo ± 95%", "LOS", "model", "interval method")
    return ["## Results", "", markdown_table(header, rows), "",
            "The same results in the seeds' table format, `A [W, T, L] B (games)`, where T "
            "(ties) counts the draws:", "", "```text", *seeds, "```", "",
            "The pentanomial model counts colour-swapped game pairs, when every game has its "
            "partner; the trinomial model counts games. Intervals are the normal approximation "
            "with that model's variance, or the Wilson score interval where it fails (few games, "
            "one-sided results); the Elo interval is the score interval mapped to Elo."]


def crosstable_section(matrices: tuple[pd.DataFrame, pd.DataFrame],
                       labels: Mapping[str, str]) -> list[str]:
    """The crosstable (``run_tables.crosstable``'s points and games) as a table of scores."""
    agents = [str(agent) for agent in matrices[0].index]
    points, played = (t.to_numpy(dtype=float) for t in matrices)
    rows = [[labels[a], *(f"{p / n:.0%} ({n:.0f})" if n else "" for p, n in zip(
        points[i], played[i], strict=True))] for i, a in enumerate(agents)]
    return ["## Crosstable", "", "The row agent's score against each opponent (games).", "",
            markdown_table(("", *(labels[b] for b in agents)), rows)]


def ratings_section(ratings: pd.DataFrame, labels: Mapping[str, str]) -> list[str]:
    """The ratings (ratings.csv), best first, with their bootstrap intervals."""
    rows = [(r["rank"], labels[r["agent"]], f"`{shown_spec(r['agent'])}`",
             _number(r["rating"], 0), f"[{_number(r['low'], 0)}, {_number(r['high'], 0)}]",
             r["games"], f"{r['score']:.1%}") for r in records(ratings)]
    header = ("rank", "label", "spec", "Elo", "95% bootstrap interval", "games", "score")
    return ["## Ratings", "", markdown_table(header, rows), "",
            "Bradley-Terry maximum-likelihood ratings with percentile-bootstrap intervals "
            "(games resampled); the score column is over all games, without an interval."]


def sprt_section(sprt: pd.DataFrame) -> list[str]:
    """The SPRT's last look at the log-likelihood ratio (sprt.csv) and its verdict."""
    last = records(sprt)[-1]
    verdict = _sprt_verdict(last)
    return ["## SPRT", "", markdown_table(("games", "LLR", "lower", "upper", "verdict"), [(
        int(last["games"]), f"{last['llr']:.2f}", f"{last['lower']:.2f}",
        f"{last['upper']:.2f}", last.get("verdict", verdict))])]


def sprt_title(table: pd.DataFrame, labels: Mapping[str, str]) -> str:
    """The SPRT chart's title: the pairing tested, by its agents' names."""
    if len(table) != 1:
        return "SPRT: log-likelihood ratio against games"
    pairing = records(table)[0]
    return f"SPRT: {labels[pairing['agent_a']]} vs {labels[pairing['agent_b']]}"


def bracket_section(table: pd.DataFrame, labels: Mapping[str, str]) -> list[str]:
    """A knockout's bracket (rounds.csv): every round's pairings and who went through."""
    rows = [(r["round"], labels[r["agent_a"]], "sits out", "", "", labels[r["advances"]])
            if not r["agent_b"] else
            (r["round"], labels[r["agent_a"]], labels[r["agent_b"]],
             f"{r['wins']}-{r['draws']}-{r['losses']}",
             f"{points_text(r['points_a'])}-{points_text(r['points_b'])}",
             labels[r["advances"]])
            for r in records(table)]
    return ["## Bracket", "", markdown_table(
        ("round", "A", "B", "A's W-D-L", "points", "through"), rows), "",
        "Each round pairs first seed (the order the agents were given) against last among "
        "those still in; more points go through, the better seed on a tie. In the first "
        "round the top seeds that bring the others to a power of two sit out."]


def standings_section(table: pd.DataFrame, labels: Mapping[str, str]) -> list[str]:
    """A Swiss tournament's standings (rounds.csv): each agent's points after each round."""
    standings = points_by_round(table)
    rows = [(i, labels[agent], *map(points_text, points)) for i, (agent, points) in
            enumerate(zip(standings.index, standings.to_numpy().tolist(), strict=True),
                      start=1)]
    byes = [f"round {r['round']}: {labels[r['agent_a']]}" for r in records(table)
            if not r["agent_b"]]
    return ["## Standings by round", "", markdown_table(
        ("rank", "agent", *(f"after round {n}" for n in standings.columns)), rows), "",
        "Points after each round (a win 1, a draw 1/2, a bye the round's games as won), best "
        "first after the last round, ties in the order the agents were given. Byes: "
        + ("; ".join(byes) if byes else "none") + "."]


def cost_section(cost: pd.DataFrame, labels: Mapping[str, str]) -> list[str]:
    """Each agent's time a move (``run_tables.COST_COLUMNS``: the median game's with its 95%
    interval, the 90th percentile, the mean) and mean nodes a move, and how they are
    counted."""
    rows = []
    for r in records(cost):
        times = MoveTimes(r["games"], r["ms_median"], r["ms_low"], r["ms_high"], r["ms_p90"],
                          r["ms_mean"])
        nodes = r["nodes_per_move"]
        rows.append((labels[r["agent"]], r["games"], median_text(times), ms_text(times.p90),
                     ms_text(times.mean), "—" if math.isnan(nodes) else f"{nodes:,.0f}"))
    return ["## Cost per move", "", markdown_table(
        ("agent", "games", "ms a move, median game [95%]", "90th percentile", "mean",
         "nodes a move (mean)"), rows), "",
        "games.csv keeps each agent's think time over a whole game, so its time a move in a "
        "game is that time over its moves there. Over its games: the median, with its "
        "distribution-free 95% interval (order statistics; none below 6 games), and the 90th "
        "percentile, which a game with a stall moves by one rank; the mean (all its time over "
        "all its moves) is shown for comparison, as one stall can multiply it."]


def terminations_section(games: pd.DataFrame) -> list[str]:
    """How many games ended each way."""
    counts = games["termination"].replace("", "unknown").value_counts()
    return ["## Terminations", "", markdown_table(("termination", "games"), counts.items())]


def chart_lines(alt: str, names: Sequence[str]) -> list[str]:
    """A chart on the page: its PNG or SVG shown, its vector files linked."""
    shown = next((n for n in names if n.endswith(".png")), None) or next(
        (n for n in names if n.endswith(".svg")), None)
    links = [f"[{name.rpartition('.')[2].upper()}]({name})" for name in names
             if name.endswith((".svg", ".pdf"))]
    return [*([f"![{alt}]({shown})"] if shown else []),
            *([f"{alt}: " + ", ".join(links)] if links else [])]


def verdict_section(run: RunContents, table: pd.DataFrame,
                    labels: Mapping[str, str]) -> list[str]:
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
        last = records(run.sprt)[-1]
        verdict = last.get("verdict") or _sprt_verdict(last)
        lines += [f"**SPRT: {verdict}** after {int(last['games'])} games (LLR {last['llr']:.2f}, "
                  f"bounds {last['lower']:.2f} and {last['upper']:.2f}).", ""]
    if run.ratings is not None and len(run.ratings) >= 2:
        best = records(run.ratings)[0]
        lines += [f"**{labels[best['agent']]}** rates highest: {_number(best['rating'], 0)} Elo "
                  f"[{_number(best['low'], 0)}, {_number(best['high'], 0)}] (95% bootstrap "
                  f"interval), of {len(run.ratings)} agents.", ""]
    forfeits = forfeits_sentence(run, labels)
    if len(table) == 1:
        r = records(table)[0]
        lines += [f"**{labels[r['agent_a']]}** scores "
                  f"{_interval(r['score'], r['score_low'], r['score_high'])} against "
                  f"**{labels[r['agent_b']]}** over {r['games']} games (win {r['wins']}, draw "
                  f"{r['draws']}, loss {r['losses']}): Elo {_number(r['elo'])} "
                  f"[{_number(r['elo_low'])}, {_number(r['elo_high'])}]. 95% intervals: "
                  f"{INTERVAL_NAMES.get(r.get('interval', ''), 'normal approximation')}, "
                  f"{r['elo_model']} model." + (f" {forfeits}" if forfeits else ""), ""]
    elif forfeits:
        lines += [forfeits, ""]
    lines += [f"**Conditions**: {run.meta.run.conditions()}.", ""]
    return lines[:-1]


ERROR_WIDTH = 160
"""Characters of a forfeit's error message quoted in the verdict."""


def forfeits_sentence(run: RunContents, labels: Mapping[str, str]) -> str:
    """How many of the run's games ended in a forfeit, whose and why (each agent's kinds of
    forfeit, with the error message of the first game lost so), and where what the agents
    printed is; '' when no game did."""
    counts: Counter[tuple[str, str]] = Counter()
    for row in records(run.summary):
        for kind in FORFEITS:
            for side in ("a", "b"):
                count = row.get(f"{kind}_{side}", 0)
                if count:
                    counts[str(row[f"agent_{side}"]), str(kind)] += int(count)
    if not counts:
        return ""
    directories = run_directories(run.directory)
    errors = first_errors(directories, counts)
    causes = []
    for (agent, why), count in counts.items():
        error = " ".join(errors.get((agent, why), "").split()).replace("`", "'")
        if len(error) > ERROR_WIDTH:
            error = error[:ERROR_WIDTH - 1] + "…"
        causes.append(f"{labels.get(agent, agent)} {count} {why}"
                      + (f", the first `{error}`" if error else ""))
    logs = [RunFiles(directory).agents_log for directory in directories]
    printed = f" What the agents printed is in {RunFiles.AGENTS_LOG}." if any(
        log.is_file() for log in logs) else ""
    total = sum(counts.values())
    return (f"**{total} of these {len(run.games)} games ended in a forfeit**, each counted as "
            f"a loss of the agent at fault: {'; '.join(causes)}.{printed}")


def _sprt_verdict(last: Mapping[str, Any]) -> str:
    return ("accept H1" if last["llr"] >= last["upper"] else
            "accept H0" if last["llr"] <= last["lower"] else "continue")

