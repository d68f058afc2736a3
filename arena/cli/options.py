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
from arena.system.options import FLAG, Option

if TYPE_CHECKING:
    from arena.report.prepared import ReportWriter
    from arena.runs.planning.charts import ChartOptions
    from arena.runs.planning.request import RunRequest


def click_option(option: Option, **changes: Any
                 ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The click option of a declared ``option``: its flags, help, kind of value, default and
    how ``--help`` shows them; ``changes`` replace some for one command (``default``,
    ``show_default``, ``required``, ``more_help`` appended to the help, ``context`` filling
    its places)."""
    value = option.value
    settings: dict[str, Any] = {
        "default": changes.get("default", option.default),
        "show_default": changes.get("show_default", option.show_default) or None,
        "metavar": option.metavar,
        "required": changes.get("required"),
        "help": option.described(**changes.get("context", {})) + changes.get("more_help", ""),
    }
    if value.kind in ("flag", "texts"):  # off, or none given: click's own default
        settings["is_flag" if value.kind == "flag" else "multiple"] = True
        del settings["default"]
    elif value.kind == "whole":
        settings["type"] = int if value.minimum is None and value.maximum is None else \
            click.IntRange(min=_whole(value.minimum), max=_whole(value.maximum))
    elif value.kind == "number":
        settings["type"] = float if value.minimum is None and value.maximum is None else \
            click.FloatRange(min=value.minimum, max=value.maximum, min_open=value.above,
                             max_open=value.below)
    elif value.kind == "choice":
        settings["type"] = click.Choice(value.choices)
    elif value.kind in ("file", "directory"):
        settings["type"] = click.Path(dir_okay=value.kind == "directory",
                                      file_okay=value.kind == "file", path_type=Path)
    flags = [*option.flags] if option.flags[-1] == "--" + option.name.replace("_", "-") \
        else [*option.flags, option.name]
    kept = {key: v for key, v in settings.items()  # a required option has no default
            if v is not None or (key == "default" and not settings["required"])}
    return click.option(*flags, **kept)


def _whole(bound: float | None) -> int | None:
    return None if bound is None else int(bound)


def apply(decorators: Sequence[Callable[[Callable[..., Any]], Callable[..., Any]]],
          command: Callable[..., Any]) -> Callable[..., Any]:
    """``command`` with ``decorators`` applied, the first one's option listed first."""
    for decorator in reversed(decorators):
        command = decorator(command)
    return command


def board_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add --rows, --cols and --connect (``BOARD_OPTIONS``); the command receives them as
    ``rules``."""
    from arena.runs.planning.board_options import BOARD_OPTIONS

    @functools.wraps(command)
    def with_rules(*args: Any, rows: int, cols: int, connect: int, **kwargs: Any) -> Any:
        return command(*args, rules=Rules(rows=rows, cols=cols, connect=connect), **kwargs)

    return apply([click_option(option) for option in BOARD_OPTIONS], with_rules)


def command_line() -> str:
    """The command as typed, for the record: ``arena`` and its arguments."""
    return shlex.join(["arena", *sys.argv[1:]])


def command_record() -> dict[str, Any]:
    """What meta.json records of the command running: its line and its options."""
    return {"command": command_line(), "options": click.get_current_context().params}


def __getattr__(name: str) -> Any:
    """The names this module had for the help of --format and --dpi, now declared with the
    options (``arena.runs.planning.request``)."""
    if name in ("FORMAT_HELP", "DPI_HELP"):
        from arena.runs.planning import request

        return getattr(request, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def run_option(name: str, **changes: Any) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """The click option of the run option ``name`` (one of ``REQUEST_OPTIONS``: ``formats``,
    ``dpi``, ``concurrency``, ...) for a command that is not a run, changed as
    ``click_option`` allows."""
    from arena.runs.planning.request import REQUEST_OPTIONS

    [option] = [option for option in REQUEST_OPTIONS if option.name == name]
    return click_option(option, **changes)


def chart_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """Add --format and --dpi; the command receives them as ``charts`` (ChartOptions)."""
    from arena.runs.planning.charts import ChartOptions

    @functools.wraps(command)
    def with_charts(*args: Any, formats: str, dpi: int, **kwargs: Any) -> Any:
        return command(*args, charts=ChartOptions(parse_formats_option(formats), dpi), **kwargs)

    return apply([run_option("formats"), run_option("dpi")], with_charts)


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


def warn_damaged_transcripts(*runs: Path) -> None:
    """A one-line warning on stderr when the finished games of ``runs`` have damaged
    transcripts, whose lost moves the language models' figures lack."""
    from arena.runs.store.files import RunFiles
    from arena.runs.store.model_usage import damage_warning, read_model_moves

    damaged = [damage for run in runs for damage in read_model_moves(RunFiles(run)).damaged]
    warning = damage_warning(damaged, "the language models' figures")
    if warning is not None:
        click.echo(f"arena: warning: {warning}", err=True)


def finish_run(directory: Path, report: bool, charts: ChartOptions | None = None,
               writer: ReportWriter | None = None) -> None:
    """After a run's tables: its report (if wanted, its charts as ``charts`` says; written by
    ``writer`` when one was made ready) and a warning of damaged transcripts; then, if an
    agent forfeited every one of its games for one reason, a one-line error naming it and
    exit status 1."""
    from arena.competitions.round_tables import run_directories
    from arena.runs.store.summary import unanimous_forfeits

    if report:
        write_run_report(directory, charts, writer)
    runs = run_directories(directory)
    warn_damaged_transcripts(*runs)
    for broken in unanimous_forfeits(*runs):
        click.echo(f"arena: error: every game of {broken.agent} ended in its forfeit, "
                   f"{broken.termination}: {broken.example or 'no message'}", err=True)
        raise click.exceptions.Exit(BROKEN_AGENT)


def say_if_complete(played: int, directory: Path, more: str | None) -> None:
    """After a command that played no game (its run was complete already, so it printed the
    same result again), a one-line note saying so and how to make another run; ``more``
    says how to ask for more games of this one (None: none can be asked for)."""
    if played:
        return
    extend = f", for more games {more}" if more else ""
    click.echo(f"arena: note: the run in {directory} was complete, nothing was played: for a "
               f"new run give another --seed or --out{extend}", err=True)


NO_REPORT = Option("no_report", ("--no-report",),
                   "Skip the charts and report.md written at the end (see `arena report`).",
                   FLAG, False)
"""The commands' --no-report, listed among the run's options (after --quiet); not an option
of the run itself."""


def run_options(results_dir: Path, kind: str = "match", first: bool = False
                ) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """Add the options of a run (``REQUEST_OPTIONS``, one click option each, ``first`` only
    with ``first``: matches only) and --no-report. The command receives ``request`` (a
    RunRequest) instead of them, ``labels`` (the --label texts, for ``name_agents``) and
    ``no_report``. The help names the defaults of the run: ``results_dir`` and the openings
    of its ``kind`` (``match``, ``tournament`` or ``sprt``: ``DEFAULT_OPENINGS``)."""
    from arena.runs.planning.openings import DEFAULT_OPENINGS
    from arena.runs.planning.request import REQUEST_OPTIONS, RunRequest

    declared = [option for option in REQUEST_OPTIONS if first or option.name != "first"]
    names = [option.name for option in declared if option.name != "labels"]
    context = {"results_dir": str(results_dir), "openings": DEFAULT_OPENINGS[kind]}
    options = [click_option(option, context=context) for option in declared]
    options.insert(names.index("quiet") + 1, click_option(NO_REPORT))

    def decorate(command: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(command)
        def with_request(*args: Any, **kwargs: Any) -> Any:
            values = {name: kwargs.pop(name) for name in names}
            values["formats"] = parse_formats_option(values["formats"])
            return command(*args, request=RunRequest().with_values(values), **kwargs)

        return apply(options, with_request)

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
    (``arena.search.solver.configured``): it loads the kernels only then."""
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
