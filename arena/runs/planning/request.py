"""The run request: everything a run takes besides its agents and games, in one dataclass
with one default per field.

The commands (``arena match``, ``tournament``, ``sprt``: one option per field), the Python
API (``arena.match``, ``arena.tournament``, ``arena.sprt``: one keyword per field) and
experiment files (one key per field, in ``[defaults]`` or an entry) all build it. Where a
surface spells a field differently, the field's docstring says so.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields, replace
from pathlib import Path
from typing import Any, Literal

from arena.hosting.base import BUILD_BOUND, DEFAULT_MOVE_BOUND, GRACE_SECONDS, HOSTINGS, Hosting
from arena.hosting.engines.engines_file import EnginesTable, load_engines
from arena.protocol.players import canonical_player
from arena.rules.board import DEFAULT_RULES, Rules
from arena.runs.planning.board_options import BOARD_OPTIONS
from arena.runs.planning.charts import CHART_FORMATS as CHART_FORMATS  # the names it had
from arena.runs.planning.charts import DEFAULT_DPI, ChartOptions
from arena.runs.planning.charts import MAX_DPI as MAX_DPI
from arena.runs.planning.charts import parse_formats as parse_formats
from arena.runs.planning.openings import DEFAULT_OPENINGS
from arena.runs.planning.plan import (
    FIRST_CHOICES,
    First,
    GameSettings,
    MatchPlan,
    MatchSetupError,
    match_plan,
)
from arena.runs.planning.seeds import DEFAULT_SEED
from arena.system.install import needs_extra
from arena.system.options import (
    DIRECTORY,
    FILE,
    FLAG,
    TEXT,
    TEXTS,
    Option,
    choice,
    file_keys,
    number,
    whole,
)
from arena.system.processes import available_cores
from arena.system.schema import STRING, STRINGS, Kind

Backend = Literal["local", "dask"]
"""Where the workers of a run are: processes on this machine, or a dask.distributed cluster."""
BACKENDS: tuple[Backend, ...] = ("local", "dask")


@dataclass(frozen=True)
class RunRequest:
    """How to play a run: the board, seed, openings, limits, hosting, workers and output."""

    rules: Rules = DEFAULT_RULES
    """The board (commands: ``--rows``, ``--cols``, ``--connect``; experiment files: keys
    ``rows``, ``cols``, ``connect``)."""
    seed: int = DEFAULT_SEED
    """The run seed: each game's seed comes from it and the game's index."""
    openings: str | None = None
    """``none``, ``random:K``, ``uniform:K`` or a file of move strings; None: the default of
    the kind of run (``openings_for``: ``none``, ``random:8`` for an SPRT, which plays game
    pairs; ``arena.runs.planning.openings.DEFAULT_OPENINGS``)."""
    first: First = "alternate"
    """Who moves first in a match: ``alternate``, ``a`` or ``b`` (tournaments and SPRTs
    alternate within each pairing, so the commands ``tournament`` and ``sprt`` have no
    ``--first``)."""
    time_per_move: float | None = None
    """Seconds per move for both agents (an agent's own ``@time=`` wins)."""
    time_bank: float | None = None
    """Seconds of overtime per agent and game."""
    hosting: Hosting = "auto"
    """Where agents run: auto, inline or process."""
    adjudicate: int | None = None
    """The ply at which games end with the result the exact solver proves."""
    engines: EnginesTable | None = None
    """The engines ``engine:NAME`` names (commands: ``--engines FILE``; the API also takes
    the file's path; experiment files: the top-level key ``engines``, for every entry)."""
    jobs: int | None = None
    """Processes playing games, this one included; None: every core (1 with an interactive
    agent)."""
    backend: Backend = "local"
    """local (processes on this machine) or dask (a dask.distributed cluster)."""
    scheduler: str | None = None
    """With the dask backend: the scheduler to join (None: start a local cluster)."""
    out: Path | None = None
    """The run directory (None: the commands name one under results/ after the run; the API
    keeps nothing on disk; experiment files: each entry's directory is its ``name``)."""
    allow_changed_agents: bool = False
    """Resume a run although an agent's code changed since it began."""
    concurrency: int = 1
    """Games in flight at once in each playing process, each in a thread of its own: for
    agents that wait on a server (``llm:``); 1 plays one game after the other."""
    no_cache: bool = False
    """Ask language models (``llm:``) again rather than replay the answers the run directory
    keeps from an earlier session."""
    formats: tuple[str, ...] = ("png",)
    """The report's chart formats: png, svg and/or pdf (commands: ``--format png,svg``;
    experiment files and the API: a list or that text)."""
    dpi: int = DEFAULT_DPI
    """Pixels per inch of the report's PNG charts."""
    labels: tuple[tuple[str, str], ...] = ()
    """Names for agents, (spec, name) pairs, shown in every table, chart and page and in the
    run directory's name (commands: ``--label A=NAME``; experiment files: a ``labels``
    table of spec = name; the API: ``(name, agent)``)."""
    progress: bool = True
    """Show a progress bar where it is seen: on a terminal, or in Jupyter (commands:
    ``--quiet`` turns it off; experiment files: ``arena run --quiet``)."""

    def __post_init__(self) -> None:
        self.settings()  # the games' options are checked there
        object.__setattr__(self, "formats", self.charts().formats)
        if self.first not in FIRST_CHOICES:
            raise MatchSetupError(
                f"first mover {self.first!r}: expected one of {', '.join(FIRST_CHOICES)}")
        if self.jobs is not None and (isinstance(self.jobs, bool) or not isinstance(
                self.jobs, int) or self.jobs < 1):
            raise MatchSetupError(f"--jobs must be at least 1, got {self.jobs}")
        if self.backend not in BACKENDS:
            raise MatchSetupError(
                f"backend {self.backend!r}: expected one of {', '.join(BACKENDS)}")
        if self.scheduler is not None and self.backend != "dask":
            raise MatchSetupError("--scheduler applies only with --backend dask")
        if self.backend == "dask" and importlib.util.find_spec("distributed") is None:
            raise MatchSetupError(needs_extra("--backend dask needs dask.distributed", "dask"))

    def with_labels(self, names: Mapping[str, str]) -> RunRequest:
        """This request with ``names`` (agent spec as typed -> its name) added to its labels,
        the specs made canonical as runs name them; a blank name, one with a line break or
        one given to two agents is an error."""
        labels = dict(self.labels)
        for text, name in names.items():
            if not isinstance(name, str) or not name.strip() or "\n" in name:
                raise MatchSetupError(f"label {name!r} of {text}: expected a name on one line")
            labels[canonical_player(text, None, self.engines)] = name.strip()
        taken = [name for name in labels.values() if list(labels.values()).count(name) > 1]
        if taken:
            raise MatchSetupError(f"label {taken[0]!r} is given to two agents: names must differ")
        return replace(self, labels=tuple(labels.items()))

    def charts(self) -> ChartOptions:
        """The formats and resolution of the report's charts (checked)."""
        return ChartOptions(self.formats, self.dpi)

    def settings(self) -> GameSettings:
        """What every game of the run shares (sent to the workers)."""
        return GameSettings(rules=self.rules, seed=self.seed, time_per_move=self.time_per_move,
                            time_bank=self.time_bank, hosting=self.hosting,
                            engines=self.engines, adjudicate=self.adjudicate)

    def match_plan(self, agent_a: str, agent_b: str, games: int) -> MatchPlan:
        """The plan of a match of ``games`` games of ``agent_a`` against ``agent_b``."""
        return match_plan(agent_a, agent_b, games, self.settings(),
                          self.openings_for("match"), self.first)

    def openings_for(self, kind: str) -> str:
        """The openings spec asked for, else the default of the kind of run ``kind``
        (``match``, ``tournament`` or ``sprt``: ``DEFAULT_OPENINGS``)."""
        return DEFAULT_OPENINGS[kind] if self.openings is None else self.openings

    def workers(self, interactive: bool = False) -> int:
        """How many processes play: ``jobs``, else every core (one with an agent that asks a
        person at this terminal)."""
        if self.jobs is not None:
            return self.jobs
        return 1 if interactive else available_cores()

    def with_options(self, **options: Any) -> RunRequest:
        """This request with some fields replaced (the API's keywords): an unknown name is
        an error that lists the known ones; ``engines`` may be an engines file's path and
        ``out`` a string."""
        unknown = [name for name in options if name not in API_KEYWORDS]
        if unknown:
            raise MatchSetupError(f"unknown option {unknown[0]!r}; the options of a run are "
                                  f"{', '.join(API_KEYWORDS)}")
        converted = {name: _BY_NAME[name].convert(value)  # type: ignore[misc]
                     if name in _BY_NAME and _BY_NAME[name].convert is not None
                     and _BY_NAME[name].target == name else value
                     for name, value in options.items()}
        return replace(self, **converted)

    def with_values(self, values: Mapping[str, Any]) -> RunRequest:
        """This request with the options of ``REQUEST_OPTIONS`` given by their names (as
        the commands and experiment files name them: the board as ``rows``, ``cols`` and
        ``connect``, ``quiet`` for no progress bar, ``engines`` a file's path), each
        converted as it declares; ``labels`` are given with ``with_labels``."""
        changes: dict[str, Any] = {}
        board = {"rows": self.rules.rows, "cols": self.rules.cols,
                 "connect": self.rules.connect}
        for name, value in values.items():
            option = _BY_NAME[name]
            if option.target == "rules":
                board[name] = value
            elif option.target != "labels":
                changes[option.target] = value if option.convert is None else \
                    option.convert(value)
        if board != {"rows": self.rules.rows, "cols": self.rules.cols,
                     "connect": self.rules.connect}:
            changes["rules"] = Rules(**board)
        return replace(self, **changes)


def _default(name: str) -> Any:
    """The default of ``RunRequest``'s field ``name``: the one default an option has."""
    default = RunRequest.__dataclass_fields__[name].default
    assert default is not MISSING, name
    return default


def _engines(value: EnginesTable | str | Path | None) -> EnginesTable | None:
    """An engines table, or the one an engines file holds (a path, as the commands take it)."""
    return load_engines(value) if isinstance(value, str | Path) else value


def _path(value: str | Path | None) -> Path | None:
    return Path(value) if isinstance(value, str) else value


FORMATS_KIND = Kind("chart formats: a list of png, svg, pdf or that text comma-separated",
                    lambda v: STRING.accepts(v) or STRINGS.accepts(v))
"""What an experiment file's ``formats`` takes."""
LABELS_KIND = Kind("a table of agent spec = name", lambda v: isinstance(v, dict)
                   and all(isinstance(x, str) for x in v.values()))
"""What an experiment file's ``labels`` takes."""
FORMAT_HELP = ("Chart formats, comma-separated: png, svg, pdf (vector, for papers), e.g. "
               "--format png,pdf.")
DPI_HELP = "Pixels per inch of PNG charts (300 for print)."


REQUEST_OPTIONS: tuple[Option, ...] = (
    Option("jobs", ("-j", "--jobs"),
           "Processes playing games, this one included (default: all cores; 1 with an "
           "interactive agent).", whole(minimum=1), _default("jobs")),
    Option("seed", ("--seed",),
           "Run seed: each game's seed comes from it and the game's index.",
           whole(minimum=0), _default("seed"), show_default=True),
    Option("openings", ("--openings",),
           "none, random:K (K random plies, each opening played twice with colours swapped), "
           "uniform:K (K uniformly random plies drawn afresh for every game, unpaired) or a "
           "file of move strings, one per line.  [default: {openings}]", TEXT,
           _default("openings"), metavar="SPEC"),
    Option("first", ("--first",),
           "Who moves first: alternate between the agents (and within each opening pair), or "
           "always a or always b.", choice(FIRST_CHOICES), _default("first"),
           show_default=True),
    Option("time_per_move", ("--time-per-move",),
           f"Time limit per move for both agents; a move over it (and over the time bank) by "
           f"more than {GRACE_SECONDS} s loses the game. An agent can have its own limit: "
           "SPEC@time=0.5 (also depth=D, nodes=N for agents that support them).",
           number(minimum=0, above=True), _default("time_per_move"), metavar="SECONDS"),
    Option("time_bank", ("--time-bank",),
           "Overtime reserve of each agent per game (as Kaggle's overage): a move over its "
           "time limit draws the excess from it.", number(minimum=0), _default("time_bank"),
           metavar="SECONDS"),
    Option("hosting", ("--hosting",),
           "Where agents run. auto: built-in agents in the worker, agents from your files and "
           "modules each in a child process (a hang is stopped at the limit, a crash costs "
           "one game). process: every agent in a child process. inline: every agent in the "
           "worker (fastest; trust your code). Without a time limit, a child process gets "
           f"{DEFAULT_MOVE_BOUND:g} s a move ({BUILD_BOUND:g} s to be built). Engines "
           "(engine:..., pons:...) always run in a process of their own.", choice(HOSTINGS),
           _default("hosting"), show_default=True),
    Option("adjudicate", ("--adjudicate",),
           "End each game once PLY discs are on the board, with the result the exact solver "
           "proves from there (termination adjudicated), as engine testers adjudicate with "
           "tablebases. On 6 x 7 a game costs milliseconds at any ply, rarely more than a "
           "second (the published 12-ply database); on other big boards plies before about "
           "12 cost seconds to minutes unless `arena book` has been run.", whole(minimum=0),
           _default("adjudicate"), metavar="PLY"),
    Option("engines", ("--engines",),
           "An engines file (TOML): named engines with their command, arguments, directory "
           "and options, played as engine:NAME.", FILE, _default("engines"), metavar="FILE",
           convert=_engines, in_files=False),
    *BOARD_OPTIONS,
    Option("out", ("--out",),
           "Run directory (default: under {results_dir}, named after the command). The same "
           "command again resumes it.", DIRECTORY, _default("out"), convert=_path,
           in_files=False),
    Option("quiet", ("-q", "--quiet"), "No progress bar; only the final tables.", FLAG,
           not _default("progress"), field="progress", convert=lambda quiet: not quiet,
           in_files=False),
    Option("formats", ("--format",), FORMAT_HELP, TEXT, ",".join(_default("formats")),
           metavar="FORMATS", show_default=True, file_kind=FORMATS_KIND),
    Option("dpi", ("--dpi",), DPI_HELP, whole(minimum=10, maximum=MAX_DPI), _default("dpi"),
           show_default=True),
    Option("labels", ("--label",),
           "A name for an agent in every table, chart and page and in the run directory's "
           "name: WHICH is A for the first agent named, B for the second, and so on (or its "
           "position, 1, 2, ...), e.g. --label A=deep --label B='baseline d4'. Repeat for "
           "each agent.", TEXTS, _default("labels"), metavar="WHICH=NAME",
           file_kind=LABELS_KIND),
    Option("allow_changed_agents", ("--allow-changed-agents",),
           "Resume a run although an agent's code changed since it began (recorded in "
           "meta.json; by default that is refused).", FLAG, _default("allow_changed_agents")),
    Option("concurrency", ("--concurrency",),
           "Games in flight at once in each playing process, each in a thread (for agents that "
           "wait on a server, llm:; within their rpm= limit).", whole(minimum=1, maximum=1024),
           _default("concurrency"), show_default=True, metavar="N"),
    Option("no_cache", ("--no-cache",),
           "Ask language models (llm: agents) again instead of replaying the answers the run "
           "directory keeps from an earlier session.", FLAG, _default("no_cache")),
    Option("backend", ("--backend",),
           "local: processes on this machine; dask: a dask cluster.", choice(BACKENDS),
           _default("backend"), show_default=True),
    Option("scheduler", ("--scheduler",),
           "With --backend dask: join this scheduler, e.g. tcp://10.0.0.5:8786 (default: "
           "start a local cluster).", TEXT, _default("scheduler"), metavar="ADDRESS"),
)
"""Every option of a run, declared once, in the order ``--help`` lists them: the commands'
options (``arena.cli.options.run_options``), experiment files' keys (``RUN_FILE_KEYS``) and,
by the fields they fill, the API's keywords (``API_KEYWORDS``) are made from it. The board
fills one field from three options; ``first`` is a match's only."""

_BY_NAME = {option.name: option for option in REQUEST_OPTIONS}

RUN_FILE_KEYS: dict[str, Kind] = file_keys(REQUEST_OPTIONS)
"""The run options an experiment file's entry (or ``[defaults]``) may set, with their kinds."""

API_KEYWORDS: tuple[str, ...] = tuple(
    field.name for field in fields(RunRequest)
    if any(option.target == field.name for option in REQUEST_OPTIONS))
"""The API's keywords of a run: the fields the options fill, by their names (the board as
``rules``, the progress bar as ``progress``), in the order of ``RunRequest``."""
