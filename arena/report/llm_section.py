"""The report's section on language models (``llm:`` agents): from their transcripts, what
each model spent (requests, invalid answers, tokens, seconds, dollars) per move and per game;
from the solver (after ``arena analyze``), each model's best-move and blunder rates and its
first losing moves, over all its graded moves (the best-move, blunder and first-losing-move
sections give them by phase)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd

from arena.report.best_moves import BestMoves
from arena.report.blunders import ALL, Blunders, median_ply_text, rate_cell
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


def usage_table(moves: pd.DataFrame, games: pd.DataFrame, labels: Mapping[str, str]) -> str:
    """The table of ``usage_rows``, one row per model (Markdown)."""
    return markdown_table(("model", "games", "moves", "invalid answers", "forfeits",
                           "requests a move", "tokens a move", "seconds a move", "cost"),
                          usage_rows(moves, games, labels))


def _overall(rates: pd.DataFrame | None, agent: str, hits: str) -> str:
    """``agent``'s rate over all its graded moves in ``rates`` (``phase_rates``' rows)."""
    if rates is None:
        return "—"
    row = rates[(rates["agent"] == agent) & (rates["phase"] == ALL)]
    return rate_cell(row.set_index("phase"), ALL, hits) if len(row) else "—"


def solver_rows(analysis: Blunders, best: BestMoves | None, agents: Sequence[str],
                labels: Mapping[str, str]) -> list[tuple[object, ...]]:
    """One row per model: its best moves and blunders over all its graded moves, the games
    with a losing move of its own and the median ply of the first one (``median_ply_text``:
    the figure of the First losing moves section)."""
    firsts = {row["agent"]: row for row in analysis.first_losses.to_dict("records")}
    rows: list[tuple[object, ...]] = []
    for agent in agents:
        first = firsts.get(agent)
        rows.append((
            labels.get(agent, agent), _overall(None if best is None else best.rates, agent,
                                               "best"),
            _overall(analysis.rates, agent, "blunders"),
            _rate(first["losing"], first["games"]) if first and first["games"] else "—",
            median_ply_text(first) if first else "—"))
    return rows


def llm_section(moves: pd.DataFrame, games: pd.DataFrame, analysis: Blunders | None,
                best: BestMoves | None, labels: Mapping[str, str],
                damage: str | None = None) -> list[str]:
    """The section's lines, or none when no language model played; ``damage`` names the
    damaged transcripts whose lost moves the figures lack."""
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
             usage_table(moves, games, labels), *(["", f"**Warning:** {damage}."] if damage
                                                  else [])]
    if analysis is None:
        return [*lines, "", "Run `arena analyze --best-moves` on the run for each model's "
                "best moves, blunders and first losing moves, from the exact solver."]
    return [*lines, "",
            "Against perfect play, over every move the solver graded: best moves (a column "
            "with the highest exact score; after `arena analyze --best-moves`), blunders "
            "(moves that changed the game's theoretical result for the worse), the games "
            "with a losing move of the model and the median ply of the first one (ply N is "
            "played with N discs on the board: the first move is ply 0). "
            "The Best moves, Blunders and First losing moves sections give each by phase.", "",
            markdown_table(("model", "best moves", "blunders", "games with a losing move",
                            "median ply of the first losing move"),
                           solver_rows(analysis, best, agents, labels))]
