"""``arena match``: many games of agent A against agent B, resumable, with statistics."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

import click

from arena.cli.options import (
    command_record,
    finish_run,
    name_agents,
    run_options,
    say_if_complete,
)
from arena.cli.printed import LABEL_WIDTH, format_report, repeated_games_warning, usage_text
from arena.cli.progress import with_progress
from arena.competitions.round_tables import run_names
from arena.report.prepared import prepared_writer
from arena.report.stamp import current_report
from arena.rules.results import Side
from arena.runs.planning.plan import DEFAULT_RESULTS_DIR, default_out_dir
from arena.runs.planning.request import RunRequest
from arena.runs.playing.progress import ProgressBar
from arena.runs.playing.runner import MatchPlayed, run_games
from arena.runs.store.files import RunFiles
from arena.runs.store.summary import FORFEITS, PairingSummary, seeds_lines
from arena.stats.move_times import median_text, ms_text


def format_summary(summary: PairingSummary, directory: Path,
                   labels: Mapping[str, str] | None = None, conditions: str = "") -> str:
    """The table printed after a match, the agents named by ``labels`` (spec -> name), with
    the ``conditions`` its games were played under (``RunDescription.conditions``); the
    forfeits, if any, point to where their reasons are (agents.log, else games.csv)."""
    forfeits = "; ".join(
        f"{agent} {summary.forfeits[(kind, side)]} {kind}"
        for kind in FORFEITS
        for side, agent in ((Side.A, "A"), (Side.B, "B"))
        if summary.forfeits[(kind, side)]
    )
    if forfeits:
        files = RunFiles(directory)
        forfeits += f"; what the agents printed: {files.agents_log}" if \
            files.agents_log.is_file() else f"; why: the error column of {files.games}"
    nodes = [summary.side_a.nodes_per_move, summary.side_b.nodes_per_move]
    times = [summary.side_a.times, summary.side_b.times]
    rows = [
        ("Forfeits", forfeits or "none"),
        ("Distinct", f"{summary.distinct_games} games"),
        ("Plies", f"{summary.plies / summary.games:.1f} per game" + (
            f" ({summary.adjudicated} adjudicated: the solver's result)"
            if summary.adjudicated else "")),
        ("ms/move", f"median A {median_text(times[0])}, B {median_text(times[1])}"),
        ("ms/move p90", f"A {ms_text(times[0].p90)}, B {ms_text(times[1].p90)}"),
        ("nodes/move", ", ".join(f"{side} {'-' if n is None else f'{n:.0f}'}"
                                 for side, n in zip("AB", nodes, strict=True))),
        *((f"Model {side.name}", usage_text(usage)) for side, usage in
          sorted(summary.models.items())),
        *((("Conditions", conditions),) if conditions else ()),
        ("Output", str(directory)),
    ]
    report = [line.split(maxsplit=1) for line in format_report(summary.estimate).splitlines()]
    rows = [(label, text) for label, text in report] + rows
    table = "\n".join(f"{label:<{LABEL_WIDTH}}{text}" for label, text in rows)
    [line] = seeds_lines([summary], labels)
    return f"{line}\n{table}"


@click.command("match")
@click.argument("agent_a")
@click.argument("agent_b")
@click.option("-n", "--games", type=click.IntRange(min=1), required=True,
              help="Number of games, e.g. -n 1000.")
@run_options(DEFAULT_RESULTS_DIR, first=True)
def match_command(agent_a: str, agent_b: str, games: int, request: RunRequest,
                  labels: tuple[str, ...], no_report: bool) -> None:
    """Play GAMES games of AGENT_A against AGENT_B and print the statistics.

    Agents are spec strings (see `arena agents`), optionally with their own limit after @.
    Results are from AGENT_A's point of view. The run directory gets games.csv (one row per
    game, appended as games finish), summary.csv, meta.json, agents.log (what the agents
    printed, if anything), and charts with report.md; running the same command again
    finishes an interrupted run.

    \b
    Examples:
      arena match random random -n 10000
      arena match negamax:depth=6 negamax:depth=4 -n 200 --openings random:4
      arena match minimax:depth=4 random -n 100 --first a --out results/minimax-first
      arena match ./my_agent.py:Bot@time=0.5 negamax -n 100 --time-bank 5
      arena match engine:./my_engine.py random -n 100
      arena match engine:mine negamax -n 100 --engines engines.toml
    """
    request = name_agents(request, (agent_a, agent_b), labels)
    plan = request.match_plan(agent_a, agent_b, games)
    interactive = any(player.spec.interactive for player in plan.players.values())
    directory = request.out or default_out_dir(plan, labels=dict(request.labels))
    charts = request.charts()
    # The report's libraries load in a child beside the games, unless the report is current.
    with prepared_writer(not no_report and current_report(directory, charts) is None
                         ) as writer:
        run = with_progress(plan.total, directory, not request.progress or interactive,
                            lambda progress: run_games(plan, directory, request,
                                                       progress=progress,
                                                       command=command_record()), ProgressBar)
        _print_run(run, run_names(run.directory, [spec for summary in run.summaries
                                                  for spec in (summary.agent_a, summary.agent_b)]))
        say_if_complete(run.played, run.directory, "a larger -n")
        finish_run(run.directory, not no_report, charts, writer)


def _print_run(run: MatchPlayed, labels: Mapping[str, str]) -> None:
    for summary in run.summaries:
        click.echo(format_summary(summary, run.directory, labels,
                                  run.description.conditions()))
        warning = repeated_games_warning(summary, labels)
        if warning:
            click.echo(f"arena: warning: {warning}", err=True)
