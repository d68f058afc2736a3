"""The report's section on language models (``llm:`` agents): from their transcripts, what
each model spent (requests, invalid answers, tokens, seconds, dollars) per move and per game;
from the solver (after ``arena analyze``), the first losing move each model made in each
game, by phase. Their blunder rates by phase are the blunder section's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from arena.report.blunders import Blunders, phase_names
from arena.report.markdown import markdown_table
from arena.rules.results import FORFEITS
from arena.stats.elo import wilson


def _forfeits(games: pd.DataFrame, agent: str) -> str:
    """The games ``agent`` forfeited, by termination (e.g. ``2 disqualified``)."""
    lost_a = (games["agent_a"] == agent) & (games["result"] == "loss")
    lost_b = (games["agent_b"] == agent) & (games["result"] == "win")
    ended = games.loc[lost_a | lost_b, "termination"]
    counts = ended[ended.isin([str(kind) for kind in FORFEITS])].value_counts()
    return ", ".join(f"{count} {kind}" for kind, count in counts.items() if count) or "none"


def _rate(count: int, total: int) -> str:
    interval = wilson(count, total)
    return f"{count / total:.1%} [{interval.low:.1%}, {interval.high:.1%}] ({count})"


def _cost(costs: pd.Series, games: int) -> str:
    if costs.isna().all():
        return "—"
    total = float(costs.sum())
    return f"${total:.4g} (${total / games:.3g} a game)"


def usage_rows(moves: pd.DataFrame, games: pd.DataFrame,
               labels: Mapping[str, str]) -> list[tuple[object, ...]]:
    """One row per model: games, moves, invalid answers per move, forfeits, requests and
    tokens per move, seconds per move (median and 90th percentile), cost."""
    rows: list[tuple[object, ...]] = []
    for agent, mine in moves.groupby("agent", sort=False):
        count = len(mine)
        played = int(mine["game"].nunique())
        seconds = mine["seconds"].to_numpy()
        rows.append((
            labels.get(str(agent), str(agent)), played, count,
            _rate(int(mine["invalid"].sum()), count), _forfeits(games, str(agent)),
            f"{mine['requests'].sum() / count:.2f} ({mine['retried'].sum()} asked again, "
            f"{mine['cached'].sum()} from the cache)",
            f"{mine['prompt_tokens'].mean():.0f} + {mine['completion_tokens'].mean():.0f}",
            f"{np.median(seconds):.2f} s, {np.percentile(seconds, 90):.2f} s",
            _cost(mine["cost"], played)))
    return rows


def losing_rows(analysis: Blunders, agents: Sequence[str], labels: Mapping[str, str]
                ) -> list[tuple[object, ...]]:
    """One row per model: games graded, games with a losing move of its own, where the first
    one fell (median move number and by phase), from ``Blunders.first_losses``."""
    names = phase_names(analysis.cells)
    firsts = {row["agent"]: row for row in analysis.first_losses.to_dict("records")}
    rows: list[tuple[object, ...]] = []
    for agent in agents:
        row = firsts.get(agent, {"games": 0, "losing": 0, **dict.fromkeys(names, 0)})
        rows.append((labels.get(agent, agent), row["games"],
                     _rate(row["losing"], row["games"]) if row["games"] else "—",
                     f"{row['median_ply'] + 1:.0f}" if row["losing"] else "—",
                     *(row[name] for name in names)))
    return rows


def llm_section(moves: pd.DataFrame, games: pd.DataFrame, analysis: Blunders | None,
                labels: Mapping[str, str]) -> list[str]:
    """The section's lines, or none when no language model played."""
    if moves.empty:
        return []
    agents = [str(agent) for agent in pd.unique(moves["agent"])]
    lines = ["## Language models", "",
             "What each model spent, from its transcripts (llm/game-NNNNNN.jsonl.gz): invalid "
             "answers per move (answers that named no legal column; 95% interval, count), "
             "requests per move (with those asked again after a server failure and those "
             "replayed from the response cache), prompt + completion tokens per move, and "
             "seconds per move (median, 90th percentile). Cost: at the price given to the "
             "agent (`price=IN/OUT`, dollars per million tokens), counting answers replayed "
             "from the cache as when they were paid.", "",
             markdown_table(("model", "games", "moves", "invalid answers", "forfeits",
                             "requests a move", "tokens a move", "seconds a move", "cost"),
                            usage_rows(moves, games, labels))]
    if analysis is None:
        return [*lines, "", "Run `arena analyze` on the run for the first losing move of each "
                "game and the blunder rates by phase, from the exact solver."]
    names = phase_names(analysis.cells)
    return [*lines, "",
            "The first losing move of each game: the first move of the model that changed "
            "the game's theoretical result against it (the blunder section has every "
            "blunder's rate by phase). The median is the game's move number.", "",
            markdown_table(("model", "games graded", "games with a losing move",
                            "median first losing move", *names),
                           losing_rows(analysis, agents, labels))]
