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
from dataclasses import dataclass, fields, replace
from pathlib import Path
from typing import Any, Literal

from arena.hosting.base import Hosting
from arena.hosting.engines.engines_file import EnginesTable, load_engines
from arena.protocol.players import canonical_player
from arena.rules.board import DEFAULT_RULES, Rules
from arena.runs.planning.charts import CHART_FORMATS as CHART_FORMATS  # the names it had
from arena.runs.planning.charts import DEFAULT_DPI, ChartOptions
from arena.runs.planning.charts import MAX_DPI as MAX_DPI
from arena.runs.planning.charts import parse_formats as parse_formats
from arena.runs.planning.plan import (
    FIRST_CHOICES,
    First,
    GameSettings,
    MatchPlan,
    MatchSetupError,
    match_plan,
)
from arena.runs.planning.seeds import DEFAULT_SEED
from arena.system.processes import available_cores

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
    """``none``, ``random:K``, ``uniform:K`` or a file of move strings; None: the run's own
    default (``none``; ``random:8`` for an SPRT, which plays game pairs)."""
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
    """Show a progress bar (commands: ``--quiet`` turns it off; it shows on a terminal only;
    experiment files: ``arena run --quiet``)."""

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
            raise MatchSetupError(
                "--backend dask needs dask.distributed: pip install 'connect-four-arena[dask]'")

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
        return match_plan(agent_a, agent_b, games, self.settings(), self.openings_or("none"),
                          self.first)

    def openings_or(self, default: str) -> str:
        """The openings spec, or ``default`` (the run's own) when none was asked for."""
        return default if self.openings is None else self.openings

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
        known = [field.name for field in fields(self)]
        unknown = [name for name in options if name not in known]
        if unknown:
            raise MatchSetupError(f"unknown option {unknown[0]!r}; the options of a run are "
                                  f"{', '.join(known)}")
        if isinstance(options.get("engines"), str | Path):
            options["engines"] = load_engines(options["engines"])
        if isinstance(options.get("out"), str):
            options["out"] = Path(options["out"])
        return replace(self, **options)
