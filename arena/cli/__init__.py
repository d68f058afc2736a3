"""The ``arena`` command: a click group that wires the library's pieces together.

Every bad input ends in one line on stderr, ``arena: error: ...``, and exit status 2.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from arena import __version__
from arena.cli.accuracy import accuracy_command
from arena.cli.agents import agents_command
from arena.cli.analyze import analyze_command
from arena.cli.bench import bench_command
from arena.cli.book import book_command
from arena.cli.match import match_command
from arena.cli.perft import perft_command
from arena.cli.play import play_command
from arena.cli.progress import INTERRUPTED
from arena.cli.report import report_command
from arena.cli.run import run_command
from arena.cli.solve import solve_command
from arena.cli.sprt import sprt_command
from arena.cli.stats import stats_command
from arena.cli.tournament import tournament_command
from arena.errors import ArenaError

USAGE_ERROR = 2


class ArenaGroup(click.Group):
    """A click group that turns usage errors and ArenaErrors into one-line messages."""

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command; report bad input in one line with exit status 2."""
        kwargs["standalone_mode"] = False
        try:
            result = super().main(*args, **kwargs)
        except click.exceptions.Exit as done:
            sys.exit(done.exit_code)
        except (click.exceptions.Abort, KeyboardInterrupt):
            click.echo("arena: interrupted", err=True)
            sys.exit(INTERRUPTED)
        except click.ClickException as error:
            click.echo(f"arena: error: {error.format_message()}", err=True)
            sys.exit(USAGE_ERROR)
        except ArenaError as error:
            click.echo(f"arena: error: {error}", err=True)
            sys.exit(USAGE_ERROR)
        sys.exit(result if isinstance(result, int) else 0)


@click.group(cls=ArenaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="arena")
def main() -> None:
    """Connect Four Arena: play Connect Four agents against each other and measure them.

    Agents are named by spec strings such as `random`, `immediate-win:block=true` or
    `negamax:depth=6,heuristic=threats+positional`; `arena agents` lists them all.
    """


for command in (accuracy_command, agents_command, analyze_command, bench_command, book_command,
                match_command, perft_command, play_command, report_command, run_command,
                solve_command, sprt_command, stats_command, tournament_command):
    main.add_command(command)
