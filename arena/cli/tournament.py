"""``arena tournament``: a round robin, a gauntlet, a Swiss or a knockout tournament, with a
crosstable and Elo ratings."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, TypeVar

import click

from arena.cli.options import (
    command_record,
    finish_run,
    name_agents,
    run_options,
    say_if_complete,
)
from arena.cli.printed import LABEL_WIDTH, aligned, format_ratings, usage_text
from arena.cli.progress import with_progress
from arena.competitions.round_tables import (
    points_by_round,
    points_text,
    read_rounds,
    run_names,
)
from arena.competitions.rounds import RoundsPlayed, planned_games, run_rounds
from arena.competitions.tournaments import (
    DEFAULT_TOURNAMENTS_DIR,
    Standings,
    TournamentPlayed,
    run_tournament,
    tournament_plan,
)
from arena.runs.planning.plan import default_out_dir
from arena.runs.planning.request import RunRequest
from arena.runs.playing.progress import TournamentProgressBar
from arena.runs.store.summary import model_totals, seeds_lines

if TYPE_CHECKING:
    pass

__all__ = ["LABEL_WIDTH", "aligned", "format_crosstable", "format_ratings", "tournament_command"]

T = TypeVar("T")

def format_crosstable(standings: Standings, labels: Mapping[str, str]) -> str:
    """The crosstable as text: agents numbered by rank, each cell the row agent's W-D-L
    (wins, draws, losses) and score against the column agent."""
    agents = list(standings.ratings["agent"])
    cells = {(r.agent, r.opponent): f"{r.wins}-{r.draws}-{r.losses} {r.score:.0%}"
             for r in standings.crosstable.itertuples()}
    rows = [[f"{i}. {labels[a]}", *(cells.get((a, b), "") for b in agents)]
            for i, a in enumerate(agents, start=1)]
    header = ["W-D-L score", *(str(i) for i in range(1, len(agents) + 1))]
    return aligned(header, rows, right=set(range(1, len(agents) + 1)))


def _anchor_text(anchor: str | None, labels: Mapping[str, str]) -> str:
    return f"{labels.get(anchor, anchor)} = 0" if anchor else "the field's mean = 0"


def format_tournament(done: TournamentPlayed, labels: Mapping[str, str]) -> str:
    """Everything printed after a tournament: the pairings' results, the crosstable, the
    ratings and where the files are; the agents named by ``labels`` (spec -> name)."""
    standings = done.standings
    lines = seeds_lines(done.run.summaries, labels)
    return "\n".join([
        *lines, "",
        "Crosstable (row agent against column agent):", format_crosstable(standings, labels), "",
        f"Ratings (Elo; {_anchor_text(done.anchor, labels)}; 95% bootstrap intervals):",
        format_ratings(standings.ratings, labels), "",
        *(f"{'Model':<{LABEL_WIDTH}}{labels.get(agent, agent)}: {usage_text(usage)}"
          for agent, usage in model_totals(done.run.summaries).items()),
        f"{'Conditions':<{LABEL_WIDTH}}{done.run.description.conditions()}",
        f"{'Output':<{LABEL_WIDTH}}{done.run.directory}",
    ])


def format_rounds(done: RoundsPlayed, labels: Mapping[str, str]) -> str:
    """Everything printed after a Swiss or knockout tournament: each round's results, the
    winner of a knockout, the crosstable and ratings of every game, the directory (agents
    named by ``labels``)."""
    standings = done.standings
    lines = []
    for number, (summaries, sitting) in enumerate(done.rounds, start=1):
        lines.append(f"Round {number}:")
        lines.extend(f"  {line}" for line in seeds_lines(summaries, labels))
        lines.extend(f"  {labels.get(bye, bye)} sits out" for bye in sitting)
    if done.winner is not None:
        lines.append(f"Winner: {labels.get(done.winner, done.winner)}")
    else:
        standings_table = points_by_round(read_rounds(done.directory))
        rounds = [str(n) for n in standings_table.columns]
        rows = [[labels.get(agent, agent), *map(points_text, points)]
                for agent, points in zip(standings_table.index,
                                         standings_table.to_numpy().tolist(), strict=True)]
        lines += ["", "Points after each round:",
                  aligned(["agent", *rounds], rows, right=set(range(1, len(rounds) + 1)))]
    return "\n".join([
        *lines, "",
        "Crosstable (row agent against column agent):", format_crosstable(standings, labels), "",
        f"Ratings (Elo; {_anchor_text(done.anchor, labels)}; 95% bootstrap intervals):",
        format_ratings(standings.ratings, labels), "",
        f"{'Conditions':<{LABEL_WIDTH}}{done.description.conditions()}",
        f"{'Output':<{LABEL_WIDTH}}{done.directory}",
    ])


@click.command("tournament")
@click.argument("specs", nargs=-1, required=True, metavar="SPEC SPEC...")
@click.option("-n", "--games", type=click.IntRange(min=2), required=True,
              help="Games per pairing (even: colours alternate), e.g. -n 100.")
@click.option("--gauntlet", is_flag=True,
              help="Gauntlet: the first agent against each of the others.")
@click.option("--swiss", type=click.IntRange(min=1), default=None, metavar="ROUNDS",
              help="Swiss, ROUNDS rounds: each round pairs agents with similar points that "
                   "have not met.")
@click.option("--knockout", is_flag=True,
              help="Knockout: first seed (the order given) against last, the one with more "
                   "points through (the better seed on a tie), until one is left.")
@click.option("--anchor", default=None, metavar="SPEC",
              help="The agent rated 0 (default: random when it plays, else the field's mean "
                   "is 0).")
@run_options(DEFAULT_TOURNAMENTS_DIR, kind="tournament")
def tournament_command(specs: tuple[str, ...], games: int, gauntlet: bool, swiss: int | None,
                       knockout: bool, anchor: str | None, request: RunRequest,
                       labels: tuple[str, ...], no_report: bool) -> None:
    """Play a round robin, gauntlet, Swiss or knockout tournament of the agents, GAMES games
    per pairing, then print the crosstable and the agents' Elo ratings. The formats:

    \b
      round robin     (the default) every pair of agents meets once
      --gauntlet      the first agent against each of the others
      --swiss ROUNDS  each round pairs agents of similar points that have not met
                      (with an odd number, the lowest without a bye yet sits out
                      and scores the round's games as won)
      --knockout      rounds of first seed against last until one is left (the
                      top seeds sit out the first round when the others must be
                      brought to a power of two: 3 of 5, 2 of 6)

    A round robin or gauntlet is one run: the directory gets games.csv, summary.csv (one
    row per pairing), crosstable.csv, ratings.csv, meta.json and the report, and running
    the same command again finishes an interrupted tournament.

    A Swiss or knockout tournament is played round by round, each round paired from the
    results so far and played as a run of its own (round-01, round-02, ... in the
    directory). At the top, rounds.csv has one row per pairing (and bye) of every round
    with its result, points and, in a knockout, who goes through; games.csv and
    summary.csv hold every round's rows with a round column; crosstable.csv, ratings.csv
    and the report (standings after each round, or the bracket) cover every game. The
    same command again rereads the finished rounds and goes on (a Swiss given more
    rounds plays them).

    The formats are --gauntlet, --swiss and --knockout here (--format names the charts'
    file formats); from Python, arena.tournament(..., format="swiss", rounds=N), and in
    an experiment file's [[tournament]], format = "swiss" with rounds = N.

    \b
    Examples:
      arena tournament random immediate-win negamax:depth=2 negamax:depth=4 -n 100
      arena tournament negamax:depth=6 negamax:depth=2 negamax:depth=4 -n 50 --gauntlet
      arena tournament minimax:depth=2 minimax:depth=3 random -n 40 --openings random:2
      arena tournament random immediate-win negamax:depth=2 negamax:depth=3 -n 20 --swiss 3
      arena tournament negamax:depth=4 negamax:depth=3 negamax:depth=2 random -n 20 --knockout
    """
    if sum((gauntlet, swiss is not None, knockout)) > 1:
        raise click.UsageError("give one of --gauntlet, --swiss and --knockout")
    request = name_agents(request, specs, labels)
    plan = tournament_plan(specs, games, request, gauntlet)
    directory = request.out or default_out_dir(plan, DEFAULT_TOURNAMENTS_DIR, dict(request.labels))
    if swiss is not None or knockout:
        total = planned_games(len(plan.specs), games, swiss)
        rounds = with_progress(total, directory, not request.progress,
                               lambda progress: run_rounds(specs, games, request, directory,
                                                           swiss=swiss, anchor=anchor,
                                                           progress=progress,
                                                           command=command_record()),
                               TournamentProgressBar)
        click.echo(format_rounds(rounds, run_names(directory, rounds.standings.ratings["agent"])))
        say_if_complete(rounds.played, directory, "a larger --swiss" if swiss else None)
    else:
        done = with_progress(plan.total, directory, not request.progress,
                             lambda progress: run_tournament(plan, directory, request,
                                                             anchor=anchor, progress=progress,
                                                             command=command_record()),
                             TournamentProgressBar)
        click.echo(format_tournament(done, run_names(directory, done.standings.ratings["agent"])))
        say_if_complete(done.run.played, directory, "a larger -n")
    finish_run(directory, not no_report, request.charts())
