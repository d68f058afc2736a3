"""Options shared by several commands."""

from __future__ import annotations

import functools
import shlex
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from arena.cli.status import BROKEN_AGENT
from arena.rules.board import Rules

if TYPE_CHECKING:
    from arena.report.prepared import ReportWriter
    from arena.runs.planning.charts import ChartOptions
    from arena.runs.planning.request import RunRequest


def board_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add --rows, --cols and --connect; the command receives them as ``rules``."""

    @functools.wraps(command)
    def with_rules(*args: Any, rows: int, cols: int, connect: int, **kwargs: Any) -> Any:
        return command(*args, rules=Rules(rows=rows, cols=cols, connect=connect), **kwargs)

    options: list[Callable[[Callable[..., Any]], Callable[..., Any]]] = [
        click.option("--rows", type=int, default=6, show_default=True, help="Board rows."),
        click.option("--cols", type=int, default=7, show_default=True,
                     help="Board columns (at most 9; columns x (rows + 1) <= 64)."),
        click.option("--connect", type=int, default=4, show_default=True,
                     help="Discs in a row that win (3 to max(rows, cols))."),
    ]
    decorated: Callable[..., Any] = with_rules
    for option in reversed(options):
        decorated = option(decorated)
    return decorated


def command_line() -> str:
    """The command as typed, for the record: ``arena`` and its arguments."""
    return shlex.join(["arena", *sys.argv[1:]])


def command_record() -> dict[str, Any]:
    """What meta.json records of the command running: its line and its options."""
    return {"command": command_line(), "options": click.get_current_context().params}


FORMAT_HELP = ("Chart formats, comma-separated: png, svg, pdf (vector, for papers), e.g. "
               "--format png,pdf.")
DPI_HELP = "Pixels per inch of PNG charts (300 for print)."


def _format_option(default: str | None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("--format", "formats", default=default, metavar="FORMATS",
                        show_default=default is not None,
                        help=FORMAT_HELP + ("" if default else "  [default: png]"))


def _dpi_option(default: int | None) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    return click.option("--dpi", type=click.IntRange(min=10, max=1200), default=default,
                        show_default=default is not None,
                        help=DPI_HELP + ("" if default else "  [default: 120]"))


def chart_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add --format and --dpi; the command receives them as ``charts`` (ChartOptions)."""
    from arena.runs.planning.charts import DEFAULT_DPI, ChartOptions

    @functools.wraps(command)
    def with_charts(*args: Any, formats: str, dpi: int, **kwargs: Any) -> Any:
        return command(*args, charts=ChartOptions(parse_formats_option(formats), dpi), **kwargs)

    return _format_option("png")(_dpi_option(DEFAULT_DPI)(with_charts))


def parse_formats_option(text: str) -> tuple[str, ...]:
    """--format's text as formats; a bad one is click's usage error (exit 2), which names
    the flags of a tournament's format when ``text`` is one."""
    from arena.runs.planning.charts import parse_formats
    from arena.runs.planning.plan import MatchSetupError

    try:
        return parse_formats(text)
    except MatchSetupError as error:
        from arena.competitions.tournaments import FORMATS

        hint = ("; --format names the charts' file formats: a tournament's format is "
                "--gauntlet, --swiss ROUNDS or --knockout") if text in FORMATS else ""
        raise click.BadParameter(f"{error}{hint}", param_hint="--format") from None


def which_names(labels: Sequence[str], items: Sequence[str], what: str) -> dict[str, str]:
    """--label WHICH=NAME options as item -> name, WHICH one of ``items`` by its letter (A,
    B, ...) or its position (1, 2, ...) in the order typed (``what``: what the items are); a
    bad one is click's usage error (exit 2)."""
    names = {}
    for text in labels:
        which, equals, name = text.partition("=")
        which = which.strip()
        index = (int(which) - 1 if which.isdigit() else
                 ord(which.upper()) - ord("A") if len(which) == 1 and which.isalpha() else -1)
        if not equals or not 0 <= index < len(items):
            raise click.BadParameter(
                f"{text!r}: expected WHICH=NAME, WHICH one of "
                f"{', '.join(chr(ord('A') + i) for i in range(min(len(items), 26)))} (the "
                f"{what} in the order given) or their positions 1, 2, ...", param_hint="--label")
        names[items[index]] = name
    return names


def name_agents(request: RunRequest, specs: Sequence[str], labels: Sequence[str]
                ) -> RunRequest:
    """``request`` with the agents named by --label WHICH=NAME (``which_names``); a bad one
    is click's usage error (exit 2)."""
    from arena.runs.planning.plan import MatchSetupError

    try:
        return request.with_labels(which_names(labels, specs, "agents"))
    except MatchSetupError as error:
        raise click.BadParameter(str(error), param_hint="--label") from None


def report_run(directory: Path, charts: ChartOptions | None = None,
               writer: ReportWriter | None = None) -> Path:
    """Write the charts and report of a finished run unless they are current (then neither
    matplotlib nor pandas is loaded), with ``writer`` when one was made ready; report.md's
    path."""
    from arena.report.prepared import ReportWriter
    from arena.report.stamp import current_report

    path = current_report(directory, charts)
    return path if path is not None else (writer or ReportWriter()).write(directory, charts)


def write_run_report(directory: Path, charts: ChartOptions | None = None,
                     writer: ReportWriter | None = None) -> None:
    """Write the charts and report.md of a finished run and say where they are."""
    click.echo(f"Report      {report_run(directory, charts, writer)}")


def finish_run(directory: Path, report: bool, charts: ChartOptions | None = None,
               writer: ReportWriter | None = None) -> None:
    """After a run's tables: its report (if wanted, its charts as ``charts`` says; written by
    ``writer`` when one was made ready); then, if an agent forfeited every one of its games
    for one reason, a one-line error naming it and exit status 1."""
    from arena.competitions.round_tables import is_rounds_tournament, played_rounds
    from arena.runs.store.files import RunFiles
    from arena.runs.store.summary import unanimous_forfeits

    if report:
        write_run_report(directory, charts, writer)
    files = RunFiles(directory)
    runs = [files.round(n) for n in played_rounds(directory)] \
        if is_rounds_tournament(directory) else [directory]
    for broken in unanimous_forfeits(*runs):
        click.echo(f"arena: error: every game of {broken.agent} ended in its forfeit, "
                   f"{broken.termination}: {broken.example or 'no message'}", err=True)
        raise click.exceptions.Exit(BROKEN_AGENT)


def run_options(results_dir: Path, openings: str = "none", first: bool = False
                ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Add the options of a run (``RunRequest``'s fields): workers, seed, openings, first mover
    (with ``first``: matches only), limits, hosting, adjudication, engines, board, output
    directory, quiet, backend, --no-report and the charts' --format and --dpi. The command
    receives ``request`` (a RunRequest) instead of them, and ``no_report``. ``openings`` is
    the default the help names (the run's own)."""
    from arena.hosting.base import BUILD_BOUND, DEFAULT_MOVE_BOUND, GRACE_SECONDS, HOSTINGS
    from arena.hosting.engines.engines_file import load_engines
    from arena.runs.planning.charts import DEFAULT_DPI
    from arena.runs.planning.plan import FIRST_CHOICES
    from arena.runs.planning.request import BACKENDS, RunRequest
    from arena.runs.planning.seeds import DEFAULT_SEED

    options: list[Callable[[Callable[..., Any]], Callable[..., Any]]] = [
        click.option("-j", "--jobs", type=click.IntRange(min=1), default=None,
                     help="Processes playing games, this one included (default: all cores; 1 "
                          "with an interactive agent)."),
        click.option("--seed", type=click.IntRange(min=0), default=DEFAULT_SEED,
                     show_default=True,
                     help="Run seed: each game's seed comes from it and the game's index."),
        click.option("--openings", default=None, metavar="SPEC",
                     help="none, random:K (K random plies, each opening played twice with "
                          "colours swapped), uniform:K (K uniformly random plies drawn "
                          "afresh for every game, unpaired) or a file of move strings, one "
                          f"per line.  [default: {openings}]"),
        *([click.option("--first", type=click.Choice(FIRST_CHOICES), default="alternate",
                        show_default=True,
                        help="Who moves first: alternate between the agents (and within "
                             "each opening pair), or always a or always b.")] if first else []),
        click.option("--time-per-move", type=click.FloatRange(min=0, min_open=True),
                     default=None, metavar="SECONDS",
                     help=f"Time limit per move for both agents; a move over it (and over "
                          f"the time bank) by more than {GRACE_SECONDS} s loses the game. "
                          "An agent can have its own limit: SPEC@time=0.5 (also depth=D, "
                          "nodes=N for agents that support them)."),
        click.option("--time-bank", type=click.FloatRange(min=0), default=None,
                     metavar="SECONDS",
                     help="Overtime reserve of each agent per game (as Kaggle's overage): a "
                          "move over its time limit draws the excess from it."),
        click.option("--hosting", type=click.Choice(HOSTINGS), default="auto",
                     show_default=True,
                     help="Where agents run. auto: built-in agents in the worker, agents from "
                          "your files and modules each in a child process (a hang is stopped "
                          "at the limit, a crash costs one game). process: every agent in a "
                          "child process. inline: every agent in the worker (fastest; trust "
                          f"your code). Without a time limit, a child process gets "
                          f"{DEFAULT_MOVE_BOUND:g} s a move ({BUILD_BOUND:g} s to be built). "
                          "Engines (engine:..., pons:...) "
                          "always run in a process of their own."),
        click.option("--adjudicate", type=click.IntRange(min=0), default=None,
                     metavar="PLY",
                     help="End each game once PLY discs are on the board, with the result "
                          "the exact solver proves from there (termination adjudicated), as "
                          "engine testers adjudicate with tablebases. On 6 x 7 a game costs "
                          "milliseconds at any ply, rarely more than a second (the published "
                          "12-ply database); on other big boards plies before about 12 cost "
                          "seconds to minutes unless `arena book` has been run."),
        click.option("--engines", type=click.Path(dir_okay=False, path_type=Path),
                     default=None, metavar="FILE",
                     help="An engines file (TOML): named engines with their command, "
                          "arguments, directory and options, played as engine:NAME."),
        board_options,
        click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=None,
                     help=f"Run directory (default: under {results_dir}, named after the "
                          "command). The same command again resumes it."),
        click.option("-q", "--quiet", is_flag=True,
                     help="No progress bar; only the final tables."),
        click.option("--no-report", is_flag=True,
                     help="Skip the charts and report.md written at the end (see "
                          "`arena report`)."),
        _format_option("png"),
        _dpi_option(DEFAULT_DPI),
        click.option("--label", "labels", multiple=True, metavar="WHICH=NAME",
                     help="A name for an agent in every table, chart and page and in the run "
                          "directory's name: WHICH is A for the first agent named, B for the "
                          "second, and so on (or its position, 1, 2, ...), e.g. --label "
                          "A=deep --label B='baseline d4'. Repeat for each agent."),
        click.option("--allow-changed-agents", is_flag=True,
                     help="Resume a run although an agent's code changed since it began "
                          "(recorded in meta.json; by default that is refused)."),
        click.option("--backend", type=click.Choice(BACKENDS), default="local",
                     show_default=True,
                     help="local: processes on this machine; dask: a dask cluster."),
        click.option("--scheduler", default=None, metavar="ADDRESS",
                     help="With --backend dask: join this scheduler, e.g. tcp://10.0.0.5:8786 "
                          "(default: start a local cluster)."),
    ]

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(command)
        def with_request(*args: Any, rules: Rules, seed: int, openings: str | None,
                         time_per_move: float | None, time_bank: float | None, hosting: Any,
                         adjudicate: int | None, engines: Path | None, jobs: int | None,
                         backend: Any, scheduler: str | None, out: Path | None, quiet: bool,
                         allow_changed_agents: bool, formats: str, dpi: int,
                         first: Any = "alternate", **kwargs: Any) -> Any:
            request = RunRequest(
                rules=rules, seed=seed, openings=openings, first=first,
                time_per_move=time_per_move, time_bank=time_bank, hosting=hosting,
                adjudicate=adjudicate,
                engines=load_engines(engines) if engines is not None else None, jobs=jobs,
                backend=backend, scheduler=scheduler, out=out,
                allow_changed_agents=allow_changed_agents, progress=not quiet,
                formats=parse_formats_option(formats), dpi=dpi)
            return command(*args, request=request, **kwargs)

        decorated: Callable[..., Any] = with_request
        for option in reversed(options):
            decorated = option(decorated)
        return decorated

    return decorate


FROM_PLY_HELP = ("every move on 6 x 7, where the solver has the published 12-ply database; "
                 "from ply 12 on other boards, whose early positions are costly")
"""The default of --from-ply in words (``arena.analysis.annotate.default_from_ply``)."""


def threads_option(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add --threads: the exact solver's threads on one position (None: not given)."""
    return click.option(
        "--threads", type=click.IntRange(min=1), default=None, metavar="N",
        help="Threads of the exact solver on one position, per process (default: every "
             "core this process may use; 1: a single-threaded search).")(command)


def solver_options(table_mb: float | None = None, pass_cache: bool = False,
                   configure: bool = True, with_threads: bool = False
                   ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Add --table-mb (default ``table_mb``, else the solver's) and --cache, and with
    ``with_threads`` --threads; the command runs with the process's solver made with that
    table, the books of that cache directory and those threads (default: the available
    cores, shared among the command's --jobs processes if it has that option; without
    ``with_threads``, one) and, with ``pass_cache``, receives the directory as ``cache``.
    Without ``configure`` the size is only checked, and the command receives ``table_mb``,
    ``cache`` and ``threads`` to make the solver itself when it needs one
    (``arena.search.solver.configured``): it loads numba only then."""
    from arena.search.table_size import DEFAULT_TABLE_MB, MIN_TABLE_MB

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(command)
        def with_solver(*args: Any, table_mb: float, cache: Path | None,
                        threads: int | None = 1, **kwargs: Any) -> Any:
            from arena.system.cachedir import cache_dir
            from arena.system.processes import available_cores

            directory = cache_dir(cache)
            if threads is None:  # the cores, shared among the command's processes
                cores = available_cores()
                processes = (kwargs["jobs"] or cores) if "jobs" in kwargs else 1
                threads = max(1, cores // processes)
            if not configure:
                from arena.search.table_size import table_bits

                table_bits(table_mb)  # a size the machine cannot hold is refused now
                return command(*args, **kwargs, table_mb=table_mb, cache=directory,
                               threads=threads)
            from arena.search.solver import configured

            with configured(table_mb, directory, threads):
                return command(*args, **kwargs, **({"cache": directory} if pass_cache else {}))

        table = click.option(
            "--table-mb", type=click.FloatRange(min=MIN_TABLE_MB),
            default=table_mb or DEFAULT_TABLE_MB, show_default=True, metavar="MB",
            help="Size of the solver's transposition table in megabytes, per process (a "
                 "power of two is used in full).")
        cache = click.option(
            "--cache", type=click.Path(file_okay=False, path_type=Path), default=None,
            metavar="DIR",
            help="Cache directory of opening books and solved positions (default: "
                 "$CONNECT_FOUR_ARENA_CACHE or ~/.cache/connect-four-arena).")
        decorated = table(cache(with_solver))
        return threads_option(decorated) if with_threads else decorated

    return decorate
