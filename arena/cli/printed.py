"""The tables the commands print, shared by several of them: the statistics of a result
(``arena stats``, ``match``, ``sprt``), aligned text tables and ratings (``tournament``, ``run``,
``ladder``), and the warning of games that repeat. Commands import these from here, never
from one another."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from arena.stats.elo import EloEstimate, SprtResult

if TYPE_CHECKING:
    import pandas as pd

    from arena.runs.store.model_usage import ModelUsage
    from arena.runs.store.summary import PairingSummary

PENTA_ORDER = "LL,LD,WL,DD,WD,WW"
"""The pentanomial counts in the order they are typed and printed."""


LABEL_WIDTH = 12
"""Width of the labels of the printed tables (Output, Batches, ...), as of the Report line
written after them."""


def aligned(header: Sequence[str], rows: Sequence[Sequence[str]], right: set[int]) -> str:
    """A plain-text table: columns padded to their widest cell, ``right`` ones to the right."""
    cells = [list(header), *map(list, rows)]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return "\n".join(
        "  ".join(cell.rjust(w) if i in right else cell.ljust(w)
                  for i, (cell, w) in enumerate(zip(row, widths, strict=True))).rstrip()
        for row in cells
    )


def _signed(value: float) -> str:
    return f"{value:+.0f}" if math.isfinite(value) else "-"


def format_ratings(ratings: pd.DataFrame, labels: Mapping[str, str]) -> str:
    """The ratings as text: rank, agent, Elo, 95% interval, games, score."""
    rows = [[str(r["rank"]), labels[r["agent"]], _signed(r["rating"]),
             f"[{_signed(r['low'])}, {_signed(r['high'])}]", str(r["games"]), f"{r['score']:.1%}"]
            for r in ratings.to_dict("records")]
    return aligned(["rank", "agent", "Elo", "95% interval", "games", "score"], rows,
                   right={0, 2, 3, 4, 5})


def _num(x: float) -> str:
    return f"{x:.2f}"


def _pct(x: float) -> str:
    return f"{100.0 * x:.2f}%"


def _units(estimate: EloEstimate) -> str:
    """'343 games' or '100 game pairs'."""
    if estimate.kind == "pentanomial":
        return f"{estimate.n} game pair{'s' * (estimate.n != 1)}"
    return f"{estimate.n} game{'s' * (estimate.n != 1)}"


def _alike(estimate: EloEstimate) -> str:
    """Why a sample has no variance."""
    return "every pair scored the same" if estimate.kind == "pentanomial" else \
        "every game ended alike"


def _interval_text(estimate: EloEstimate) -> str:
    """Which 95% interval the Score and Elo rows show, and why."""
    if estimate.interval_method == "normal":
        return f"95%, normal approximation with the {estimate.kind} variance of {_units(estimate)}"
    if estimate.variance == 0.0:
        reason = f"no variance: {_alike(estimate)}"
    else:
        side = "100%" if estimate.score > 0.5 else "0%"
        reason = f"the normal approximation would pass {side}"
    return f"95%, Wilson score interval of {_units(estimate)} ({reason})"


def _elo_text(estimate: EloEstimate) -> str:
    """Elo with its interval's bounds, as summary.csv holds them (the score interval mapped
    to Elo: not symmetric), or the one finite bound of a perfect score."""
    low, high = estimate.elo_interval.low, estimate.elo_interval.high
    if estimate.elo == math.inf:
        return f"at least {_num(low)} (A won every game: no finite estimate)"
    if estimate.elo == -math.inf:
        return f"at most {_num(high)} (A lost every game: no finite estimate)"
    return f"{_num(estimate.elo)}  [{_bound(low)}, {_bound(high)}]"


def _bound(x: float) -> str:
    return _num(x) if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def _nelo_text(estimate: EloEstimate) -> str:
    """nElo ± error, nElo alone when there is no normal interval, or why it is undefined."""
    if estimate.variance == 0.0:
        return f"undefined (no variance: {_alike(estimate)})"
    if estimate.interval_method == "normal":
        return f"{_num(estimate.nelo)} ± {_num(estimate.nelo_error)}"
    return f"{_num(estimate.nelo)} (no interval: the normal approximation fails here)"


def format_report(estimate: EloEstimate, test: SprtResult | None = None) -> str:
    """The plain-text table printed by `arena stats` (and by `arena match` and `arena sprt`)."""
    if estimate.kind == "trinomial":
        w, d, lo = estimate.counts
        detail = f"(W {w}, D {d}, L {lo})"
    else:
        labels = PENTA_ORDER.split(",")
        pairs = ", ".join(f"{k} {v}" for k, v in zip(labels, estimate.counts, strict=True))
        detail = f"({estimate.n} pairs: {pairs})"
    ci = estimate.score_interval
    rows = [
        ("Games", f"{estimate.games}  {detail}"),
        ("Score", f"{_pct(estimate.score)}  [{_pct(ci.low)}, {_pct(ci.high)}]"),
        ("Elo", _elo_text(estimate)),
        ("nElo", _nelo_text(estimate)),
        ("LOS", _pct(estimate.los)),
        ("Intervals", _interval_text(estimate)),
    ]
    if test is not None:
        unit = "nElo" if test.model == "normalized" else "Elo"
        rows += [
            (
                "SPRT",
                f"H0 {unit} {_num(test.elo0)}, H1 {unit} {_num(test.elo1)} ({test.model} model)",
            ),
            ("LLR", f"{_num(test.llr)} ({test.method})"),
            ("Bounds", f"{_num(test.bounds.lower)}, {_num(test.bounds.upper)}"),
            ("Verdict", str(test.verdict)),
        ]
    width = max(len(label) for label, _ in rows) + 2
    return "\n".join(f"{label:<{width}}{text}" for label, text in rows)


def repeated_games_warning(summary: PairingSummary, labels: Mapping[str, str]) -> str | None:
    """A warning when fewer than half the games are distinct (deterministic agents), the
    agents named by ``labels``."""
    if 2 * summary.distinct_games >= summary.games:
        return None
    return (f"only {summary.distinct_games} distinct games in {summary.games} of "
            f"{labels[summary.agent_a]} against {labels[summary.agent_b]}: the agents repeat "
            "the same games; give --openings random:K or an openings file for varied games")


def usage_text(usage: ModelUsage) -> str:
    """A language model's totals on one line: requests, invalid answers, tokens, cost."""
    parts = [f"{usage.requests:,} requests ({usage.retried} asked again, {usage.cached} from "
             f"the cache)", f"{usage.invalid} invalid answers",
             f"{usage.prompt_tokens:,} + {usage.completion_tokens:,} tokens"]
    if usage.cost is not None:
        parts.append(f"${usage.cost:.4g}")
    return ", ".join(parts)
