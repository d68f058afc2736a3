"""The ``arena`` command: a click group that wires the library's pieces together.

Every bad input ends in one line on stderr, ``arena: error: ...``, and exit status 2.
"""

from __future__ import annotations

import faulthandler
import gc
import importlib
import io
import sys
from contextlib import suppress
from typing import Any, NamedTuple

import click

from arena import __version__
from arena.cli.status import INTERRUPTED, USAGE_ERROR
from arena.rules.errors import ArenaError
from arena.system.interrupts import watch_interrupts


class Lazy(NamedTuple):
    """A command imported only when it runs: ``module:attribute``, and its one-line summary
    (the first sentence of its help, as the command itself says it)."""

    target: str
    summary: str


COMMANDS = {
    "accuracy": Lazy(
        "arena.cli.accuracy:accuracy_command",
        "Share of positions where each AGENT plays a best move, and its blunder rate."),
    "agents": Lazy(
        "arena.cli.agents:agents_command",
        "List every agent, then every other form of spec, with their parameters."),
    "analyze": Lazy(
        "arena.cli.analyze:analyze_command",
        "Find, in each game of the run in DIRECTORY, the first move that changed its result."),
    "bench": Lazy(
        "arena.cli.bench:bench_command",
        "Measure milliseconds per move, nodes and playouts per second on fixed positions."),
    "book": Lazy(
        "arena.cli.book:book_command",
        "Build the solver's opening book: the exact score of every early position."),
    "dataset": Lazy(
        "arena.cli.dataset:dataset_command",
        "Play GAMES games and write their positions as a dataset, labelled by the solver."),
    "docs": Lazy(
        "arena.cli.docs:docs_command",
        "Tell where the documentation is: the built site or its sources, else the install's "
        "help."),
    "export": Lazy(
        "arena.cli.export:export_command",
        "Write a run's games in another form, or an agent as a Kaggle submission."),
    "ladder": Lazy(
        "arena.cli.ladder:ladder_command",
        "Rate agents on a fixed scale anchored from random up to perfect play."),
    "match": Lazy(
        "arena.cli.match:match_command",
        "Play GAMES games of AGENT_A against AGENT_B and print the statistics."),
    "perft": Lazy(
        "arena.cli.perft:perft_command",
        "Count the move sequences of length DEPTH (a won position has no moves)."),
    "play": Lazy(
        "arena.cli.play:play_command",
        "Play against AGENT (a spec string such as negamax:depth=6, with its own limit after @ if "
        "you like: solver@time=1)."),
    "report": Lazy(
        "arena.cli.report:report_command",
        "Write the charts, report.md and report.html of the run in DIR, or compare runs."),
    "run": Lazy(
        "arena.cli.run:run_command",
        "Run the matches, tournaments and SPRTs of the experiment file FILE (TOML)."),
    "show": Lazy(
        "arena.cli.show:show_command",
        "Show GAME (its index, the game column of games.csv) of the run in DIRECTORY."),
    "solve": Lazy(
        "arena.cli.solve:solve_command",
        "Exact score of the position after MOVES, and of every column."),
    "sprt": Lazy(
        "arena.cli.sprt:sprt_command",
        "Test whether AGENT_A is stronger than AGENT_B with the fewest games."),
    "stats": Lazy(
        "arena.cli.stats:stats_command",
        "Score, Elo, normalized Elo and LOS of agent A against agent B, from result counts."),
    "tournament": Lazy(
        "arena.cli.tournament:tournament_command",
        "Play a round robin, gauntlet, Swiss or knockout tournament of the agents, GAMES games "
        "per pairing, then print the crosstable and the agents' Elo ratings."),
}
"""Every command: where it lives, imported only when it runs (a run starts sooner), and the
line ``arena --help`` lists it with, so that listing imports none of them."""


class ArenaGroup(click.Group):
    """A click group that turns usage errors and ArenaErrors into one-line messages, and
    imports the commands of ``COMMANDS`` when they are asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, the lazily imported ones included."""
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """The command ``name``, imported on first use."""
        if name in COMMANDS and name not in self.commands:
            module, _, attribute = COMMANDS[name].target.partition(":")
            self.add_command(getattr(importlib.import_module(module), attribute), name)
        return super().get_command(ctx, name)

    def resolve_command(self, ctx: click.Context, args: list[str]
                        ) -> tuple[str | None, click.Command | None, list[str]]:
        """The command ``args`` name; one that is none is refused with the commands close to
        it (click's "Did you mean", as for options: click only knows the commands imported)."""
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand as error:
            raise click.exceptions.NoSuchCommand(error.command_name, ctx=ctx,
                                                 possibilities=self.list_commands(ctx)) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The list of commands in ``--help``, from their summaries: no command is imported."""
        limit = formatter.width - 6 - max(len(name) for name in self.list_commands(ctx))
        rows = [(name, self.commands[name].get_short_help_str(limit) if name in self.commands
                 else click.Command(name, help=COMMANDS[name].summary).get_short_help_str(limit))
                for name in self.list_commands(ctx)]
        with formatter.section("Commands"):
            formatter.write_dl(rows)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command; report bad input in one line with exit status 2.

        Run on the process's own command line (no ``args``: not a test's CliRunner), it
        ends by freezing the objects left (``gc.freeze``): the process exits next, and
        Python's last collection of them at exit (a report's libraries make many) would take
        0.1 s or more.
        """
        kwargs["standalone_mode"] = False
        own_command_line = not args and kwargs.get("args") is None
        with suppress(io.UnsupportedOperation, ValueError):  # stderr may be no file (tests)
            faulthandler.enable()  # an agent that crashes this process natively: its traceback
        try:
            with watch_interrupts():  # a KeyboardInterrupt not from Ctrl-C is an agent's
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
        finally:
            if own_command_line:
                gc.freeze()
        sys.exit(result if isinstance(result, int) else 0)


@click.group(cls=ArenaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="arena")
def main() -> None:
    """Connect Four Arena: play Connect Four agents against each other and measure them.

    Agents are named by spec strings such as `random`, `immediate-win:block=true` or
    `negamax:depth=6,heuristic=threats+positional`; `arena agents` lists them all, and
    `arena docs` tells where the documentation is.
    """
