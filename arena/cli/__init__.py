"""The ``arena`` command: a click group that wires the library's pieces together.

Every bad input ends in one line on stderr, ``arena: error: ...``, and exit status 2.
"""

from __future__ import annotations

import faulthandler
import importlib
import io
import sys
from contextlib import suppress
from typing import Any

import click

from arena import __version__
from arena.cli.status import INTERRUPTED, USAGE_ERROR
from arena.rules.errors import ArenaError
from arena.system.interrupts import watch_interrupts

COMMANDS = {
    "accuracy": "arena.cli.accuracy:accuracy_command",
    "agents": "arena.cli.agents:agents_command",
    "analyze": "arena.cli.analyze:analyze_command",
    "bench": "arena.cli.bench:bench_command",
    "book": "arena.cli.book:book_command",
    "export": "arena.cli.export:export_command",
    "match": "arena.cli.match:match_command",
    "perft": "arena.cli.perft:perft_command",
    "play": "arena.cli.play:play_command",
    "report": "arena.cli.report:report_command",
    "run": "arena.cli.run:run_command",
    "show": "arena.cli.show:show_command",
    "solve": "arena.cli.solve:solve_command",
    "sprt": "arena.cli.sprt:sprt_command",
    "stats": "arena.cli.stats:stats_command",
    "tournament": "arena.cli.tournament:tournament_command",
}
"""Every command and where it lives, imported only when it runs (a run starts sooner)."""


class ArenaGroup(click.Group):
    """A click group that turns usage errors and ArenaErrors into one-line messages, and
    imports the commands of ``COMMANDS`` when they are asked for."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        """Every command's name, the lazily imported ones included."""
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        """The command ``name``, imported on first use."""
        if name in COMMANDS and name not in self.commands:
            module, _, attribute = COMMANDS[name].partition(":")
            self.add_command(getattr(importlib.import_module(module), attribute), name)
        return super().get_command(ctx, name)

    def main(self, *args: Any, **kwargs: Any) -> Any:
        """Run the command; report bad input in one line with exit status 2."""
        kwargs["standalone_mode"] = False
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
        sys.exit(result if isinstance(result, int) else 0)


@click.group(cls=ArenaGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="arena")
def main() -> None:
    """Connect Four Arena: play Connect Four agents against each other and measure them.

    Agents are named by spec strings such as `random`, `immediate-win:block=true` or
    `negamax:depth=6,heuristic=threats+positional`; `arena agents` lists them all.
    """
