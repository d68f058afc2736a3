"""``arena accuracy``: how often agents play a best move, measured with the exact solver."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import click

from arena.cli.options import board_options, chart_options, run_option, solver_options
from arena.cli.printed import LABEL_WIDTH, usage_text
from arena.rules.board import Rules
from arena.runs.playing.progress import progress_bar
from arena.system.processes import worker_count

if TYPE_CHECKING:
    from arena.analysis.accuracy import AccuracyRow
    from arena.runs.planning.charts import ChartOptions

DEFAULT_SETS_HELP = ("random:4-12 (on 6 x 7, where the solver has the published 12-ply "
                     "database), random:12-16, random:17-24 and random:25-34")
"""The default of --set in words (``arena.analysis.accuracy.default_sets``)."""
DEFAULT_OUT = Path("results") / "accuracy"


@click.command("accuracy")
@click.argument("agents", nargs=-1, required=True)
@click.option("--set", "sets", multiple=True, metavar="SPEC",
              help="Positions to test on (repeatable): a shipped set such as Test_L2_R1, a "
                   "file of move strings, random:A-B (random play stopped at A to B discs, "
                   "no immediate win for the side to move) or games:DIR[:A-B] (a run's "
                   f"games). Default: {DEFAULT_SETS_HELP}.")
@click.option("-n", "--positions", type=click.IntRange(min=1), default=None, metavar="N",
              help="Positions per set: the first N of a shipped set or file; N made by random "
                   "play (default 1000); N drawn from a run's games (default 1000).")
@click.option("--seed", type=click.IntRange(min=0), default=42, show_default=True,
              help="Seed of the random positions and of the agents' generators.")
@click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
              help="Processes that solve positions (default: all cores).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=DEFAULT_OUT,
              show_default=True,
              help="Directory of accuracy.csv, choices.csv and accuracy.png; an agent measured "
                   "again on a set replaces its rows, the others stay.")
@run_option("concurrency", more_help=" Here: positions asked at once, each in a thread with "
                                      "an agent of its own.")
@click.option("-q", "--quiet", is_flag=True, help="No progress bars.")
@chart_options
@board_options
@solver_options(pass_cache=True)
def accuracy_command(agents: tuple[str, ...], sets: tuple[str, ...], positions: int | None,
                     seed: int, jobs: int | None, out: Path, concurrency: int, quiet: bool,
                     rules: Rules, cache: Path, charts: ChartOptions) -> None:
    """Share of positions where each AGENT plays a best move, and its blunder rate.

    The exact solver scores every column of every test position. An agent's accuracy is the
    share of positions where it plays a column with the best score; its blunder rate the
    share where its column gives up the best result the position offers (a win becomes a
    draw or a loss, a draw a loss). Both come with 95% Wilson intervals, beside the
    agent's median milliseconds and mean nodes per move. Solved positions are cached, so the
    next agent on the same set costs only its own moves. A language model (llm:) is asked
    --concurrency positions at once, and what it spent is printed after the table.

    \b
    Examples:
      arena accuracy random negamax:depth=4,heuristic=threats+positional minimax:depth=4
      arena accuracy negamax:depth=2 negamax:depth=4 negamax:depth=6 --set Test_L2_R1
      arena accuracy solver:temperature=2 --set games:results/matches/RUN -n 300
      arena accuracy llm:gpt-4o-mini,price=0.15/0.6 --set random:13-20 -n 100 --concurrency 8
    """

    from arena.analysis.accuracy import CHART_FILE, default_sets, measure_agent, write_results
    from arena.analysis.position_sets import DEFAULT_RANDOM_COUNT, load_position_set
    from arena.analysis.scores import ScoreCache, score_positions
    from arena.protocol.labels import plain_specs, short_names
    from arena.protocol.registry import make_agent
    from arena.report.analysis_charts import accuracy_chart
    from arena.report.style import save
    from arena.runs.store.model_usage import ModelUsage
    for spec in agents:
        make_agent(spec)  # a bad spec fails before anything is solved
    count = positions
    loaded = []
    for spec in sets or default_sets(rules):
        default = DEFAULT_RANDOM_COUNT if spec.startswith(("random:", "games:")) else None
        loaded.append(load_position_set(spec, rules, count or default, seed))
    workers = worker_count(jobs)
    scored = []
    for position_set in loaded:
        score_cache = ScoreCache(cache, position_set.rules)
        with progress_bar(len(position_set), f"solving {position_set.label}",
                          not quiet) as advance:
            scored.append(score_positions(position_set.positions, score_cache, workers,
                                          progress=advance))
    summaries, choices = [], []
    spent: dict[str, ModelUsage] = {}
    for spec in agents:
        for position_set, scores in zip(loaded, scored, strict=True):
            with progress_bar(len(position_set), f"{spec} on {position_set.label}",
                              not quiet) as advance:
                summary, rows, usage = measure_agent(spec, position_set, scores, seed, advance,
                                                     concurrency)
            summaries.append(summary)
            choices.extend(rows)
            if usage is not None:
                spent.setdefault(spec, ModelUsage()).merge(usage)
    table = write_results(out, summaries, choices)
    labels = short_names(list(table["agent"]))
    save(accuracy_chart(table, labels), out / Path(CHART_FILE).stem, charts.formats, charts.dpi)
    names = plain_specs(agents)
    _print_summaries(summaries, names)
    for spec, usage in spent.items():
        click.echo(f"{'Model':<{LABEL_WIDTH}}{names[spec]}: {usage_text(usage)}")
    click.echo(f"{'Output':<{LABEL_WIDTH}}{out}")


def _print_summaries(summaries: Sequence[AccuracyRow], names: Mapping[str, str]) -> None:
    """The rows of this run as an aligned table, the agents named by ``names``."""
    header = ("agent", "set", "positions", "best move [95%]", "blunders [95%]", "ms/move",
              "nodes/move")
    lines = [header]
    for row in summaries:
        lines.append((names[row.agent], row.set, str(row.positions),
                      f"{row.accuracy:.1%} [{row.accuracy_low:.1%}, {row.accuracy_high:.1%}]",
                      f"{row.blunder_rate:.1%} [{row.blunder_low:.1%}, {row.blunder_high:.1%}]",
                      f"{row.ms_per_move:.3g}",
                      "" if row.nodes_per_move is None else f"{row.nodes_per_move:,.0f}"))
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    for line in lines:
        click.echo("  ".join(cell.ljust(w) if i < 2 else cell.rjust(w)
                             for i, (cell, w) in enumerate(zip(line, widths, strict=True)))
                   .rstrip())
