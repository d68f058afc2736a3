"""Experiment files: a TOML list of matches, tournaments and SPRTs, run into one directory.

An experiment file reads::

    description = "What question the experiment answers."   # optional
    engines = "engines.toml"   # optional: an engines file (relative to this file), for engine:NAME
    [defaults]            # optional; every entry may override these run options
    seed = 42             # the run seed of each entry (default 42)
    openings = "none"     # none, random:K, uniform:K or a file (relative to the file)
    rows = 6              # rows, cols, connect: the board
    time_per_move = 1.0   # seconds, optional; an agent may have its own: "random@time=0.5"
    time_bank = 10.0      # seconds of overtime per agent and game, optional
    hosting = "auto"      # auto (default), inline or process: see `arena match --help`
    adjudicate = 14       # optional: games end at this ply with the solver's proven result
    jobs = 2              # optional: processes playing (default: every core; arena run -j)
    concurrency = 16      # optional: games at once in each process (for llm: agents)
    backend = "local"     # local (default) or dask; scheduler = "tcp://..." with dask
    allow_changed_agents = false   # optional: resume although an agent's code changed

    [[match]]
    name = "d4-vs-random" # required, unique: the entry's directory
    a = "negamax:depth=4"
    b = "random"
    games = 1000
    first = "a"           # alternate (default), a or b (matches only)
    reference = [980, 0, 20]   # optional: a published W/T/L to compare ours with

    [[tournament]]
    name = "depths"
    agents = ["minimax:depth=1", "minimax:depth=2", "minimax:depth=3"]
    games = 20            # per pairing, even
    format = "swiss"      # optional: round-robin (default), gauntlet, swiss or knockout
    rounds = 2            # a Swiss's rounds (and only a Swiss's)
    anchor = "minimax:depth=1"   # optional: the agent rated 0

    [[sprt]]
    name = "best-vs-second"
    a = { tournament = "depths", rank = 1 }   # an agent spec, or a tournament's K-th best
    b = { tournament = "depths", rank = 2 }
    elo0 = 0              # H0 and H1, as `arena sprt` takes them
    elo1 = 10
    alpha = 0.05          # optional: alpha, beta, model, llr, max_games, batch_pairs
    openings = "random:8" # an SPRT plays opening pairs (default random:8)

The options are those of ``arena.runs.planning.request.RunRequest`` (the keys of ``[defaults]`` and
of every entry), but for ``out`` (each entry's directory is its name), ``progress``
(``arena run --quiet``) and ``engines`` (the top-level key, for every entry).

The whole file is checked before any game is played: an unknown key, a missing field, a value
of the wrong type, a bad agent spec, an agent that cannot be built or refuses its board or
limit (every agent of every entry is built once, as a run checks its own), a duplicate name or
a results directory holding another run is an ``ExperimentError`` naming the file, the entry
and the problem. Entries run in the order matches, tournaments, SPRTs; each gets a normal run
directory ``ROOT/<name>/`` (resumed when the experiment runs again; a Swiss or knockout
tournament's holds its rounds, as ``arena tournament`` writes them), and ``ROOT/report.md``
lists them all, comparing results with their references by a chi-square test.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

from arena.competitions.round_tables import run_directories
from arena.competitions.rounds import check_rounds_directory, planned_games, run_rounds
from arena.competitions.sprt import (
    DEFAULT_MAX_GAMES,
    SPRT_OPTIONS,
    SprtTest,
    run_sprt,
    sprt_plan,
)
from arena.competitions.tournaments import (
    TournamentFormat,
    resolve_anchor,
    run_tournament,
    tournament_plan,
)
from arena.hosting.engines.engines_file import EnginesTable, load_engines
from arena.rules.errors import ArenaError
from arena.runs.planning.charts import DEFAULT_DPI, ChartOptions, parse_formats
from arena.runs.planning.openings import names_a_file
from arena.runs.planning.plan import MatchPlan, Pairing, plan_players
from arena.runs.planning.request import FORMATS_KIND, LABELS_KIND, RUN_FILE_KEYS, RunRequest
from arena.runs.playing.batches import AgentCache
from arena.runs.playing.runner import Progress, check_workers, resolve_agents, run_games
from arena.runs.store.directory import check_directory
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import load_meta
from arena.runs.store.summary import PairingSummary, summarize, wtl_text
from arena.stats.elo import Homogeneity, homogeneity
from arena.system.options import file_keys
from arena.system.schema import (
    BOOLEAN,
    STRING,
    STRINGS,
    TABLE,
    TABLES,
    WHOLE,
    Kind,
    check_fields,
    is_whole,
    read_toml,
)

if TYPE_CHECKING:
    import pandas as pd

__all__ = [
    "Comparison", "Entry", "Experiment", "ExperimentError", "MatchEntry", "Ranked",
    "SprtEntry", "TournamentEntry", "entry_summaries", "load_experiment", "run_experiment",
]

DEFAULT_RESULTS_ROOT = Path("results")
REPORT = "report.md"
COMPARISON_CHART = "comparison.png"

_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


class ExperimentError(ArenaError):
    """An experiment file that cannot be run: where (file, entry) and what is wrong."""


# --------------------------------------------------------------------------- the schema


WTL = Kind("a list of three whole numbers >= 0, [W, T, L]", lambda v: isinstance(v, list)
           and len(v) == 3 and all(is_whole(x) and x >= 0 for x in v) and sum(v) > 0)

FORMATS = FORMATS_KIND  # the names these kinds had
LABELS = LABELS_KIND
RUN_OPTIONS: dict[str, Kind] = RUN_FILE_KEYS
"""The run options an entry (or ``[defaults]``) may set: those of ``REQUEST_OPTIONS`` that
files take (``RunRequest``'s fields, the board as rows, cols and connect), made from their
declarations."""
AGENT = Kind("an agent spec or {tournament = NAME, rank = K}", lambda v: isinstance(v, str)
             or (isinstance(v, dict) and v.keys() == {"tournament", "rank"}
                 and isinstance(v["tournament"], str) and is_whole(v["rank"])))
ENTRY_KINDS = ("match", "tournament", "sprt")
TOP_LEVEL: dict[str, Kind] = {"description": STRING, "defaults": TABLE, "labels": LABELS,
                              **dict.fromkeys(ENTRY_KINDS, TABLES), "engines": STRING}


@dataclass(frozen=True)
class Where:
    """A place in an experiment file, for error messages."""

    file: Path
    entry: str = ""

    def error(self, problem: str) -> ExperimentError:
        """An ExperimentError at this place."""
        return ExperimentError(f"{self.file}: {self.entry + ': ' if self.entry else ''}{problem}")


# --------------------------------------------------------------------------- entries


@dataclass(frozen=True)
class Entry:
    """One entry of an experiment: a run of games in its own directory, ``root/<name>``."""

    kind: ClassVar[str]
    index: int  # 1-based among the entries of its kind
    name: str
    specs: tuple[str, ...]  # the agents as the file writes them
    request: RunRequest  # the entry's run options

    @property
    def label(self) -> str:
        """How errors and progress name the entry, e.g. ``match #3 "d4-threats"``."""
        return _label(self.kind, self.index, self.name)

    def plan(self, root: Path) -> MatchPlan:
        """The games the entry may play (an SPRT may name agents by their rank in a
        tournament of ``root``)."""
        raise NotImplementedError

    def describe(self, root: Path) -> dict[str, Any] | None:
        """The run's description (as in meta.json), or None while it cannot be known yet."""
        return self.plan(root).describe()

    def check_directory(self, root: Path) -> None:
        """Refuse, without playing, a directory of the entry that holds another run."""
        run = self.describe(root)
        if run is not None:
            check_directory(root / self.name, run)

    def planned_games(self, root: Path) -> int:
        """The games the entry plays (at most, for an SPRT)."""
        return self.plan(root).total

    def run(self, root: Path, *, progress: Progress | None, command: dict[str, Any],
            jobs: int | None = None) -> list[PairingSummary]:
        """Play the games the entry's directory lacks (with ``jobs`` processes, when given,
        else as the entry says); the summaries of all its games."""
        raise NotImplementedError

    def agent_plan(self) -> MatchPlan:
        """A plan holding every agent the entry may play, on each side it may play, under
        the entry's settings: what its agents are checked with before the experiment plays
        (its plan, where the plan needs nothing from the results directory)."""
        return self.plan(Path())

    def request_with(self, jobs: int | None) -> RunRequest:
        """The entry's run options, with the command's ``jobs`` when it gives them."""
        return self.request if jobs is None else replace(self.request, jobs=jobs)

    def notes(self, root: Path) -> list[str]:
        """What to say about the entry's results besides their ``A [W, T, L] B (N)`` lines."""
        return []

    def conditions(self, root: Path) -> str:
        """What the entry's games were played under (``RunDescription.conditions``: its
        first run's, for a tournament in rounds), '' before it has played."""
        directories = run_directories(root / self.name)
        if not directories or not RunFiles(directories[0]).meta.is_file():
            return ""
        return load_meta(directories[0]).run.conditions()


def _label(kind: str, index: int, name: str) -> str:
    return f'{kind} #{index} "{name}"'


@dataclass(frozen=True)
class MatchEntry(Entry):
    """A match between two agents, maybe with a published result to compare with."""

    kind: ClassVar[str] = "match"
    schedule: MatchPlan
    reference: tuple[int, int, int] | None = None

    def plan(self, root: Path) -> MatchPlan:
        """The match's games."""
        return self.schedule

    def run(self, root: Path, *, progress: Progress | None, command: dict[str, Any],
            jobs: int | None = None) -> list[PairingSummary]:
        """Play the match."""
        return run_games(self.schedule, root / self.name, self.request_with(jobs),
                         progress=progress, command=command).summaries

    def comparison(self, root: Path) -> Comparison | None:
        """The result beside the reference, when there are both."""
        summaries = entry_summaries(root / self.name)
        if self.reference is None or not summaries:
            return None
        ours = (summaries[0].wins, summaries[0].draws, summaries[0].losses)
        return Comparison(self, ours, self.reference, homogeneity(ours, self.reference))

    def notes(self, root: Path) -> list[str]:
        """The reference and the verdict of the test against it."""
        compared = self.comparison(root)
        if compared is None:
            return []
        test = compared.test
        return [f"reference {wtl_text(compared.reference)}: "
                f"{'differs' if test.differs else 'within noise'} (chi-square p = {test.p:.3g})"]


@dataclass(frozen=True)
class TournamentEntry(Entry):
    """A round robin, gauntlet, Swiss or knockout tournament, rated."""

    kind: ClassVar[str] = "tournament"
    schedule: MatchPlan  # in rounds: a round robin of the agents, to check them with
    anchor: str | None = None
    format: TournamentFormat = field(default_factory=TournamentFormat)

    def plan(self, root: Path) -> MatchPlan:
        """The tournament's games (in rounds: a round robin of its agents)."""
        return self.schedule

    def describe(self, root: Path) -> dict[str, Any] | None:
        """The run's description; None in rounds (each round is described as it is paired)."""
        return None if self.format.in_rounds else super().describe(root)

    def check_directory(self, root: Path) -> None:
        """Refuse a directory that holds another run (in rounds: any run of its own)."""
        if self.format.in_rounds:
            check_rounds_directory(root / self.name, self.schedule.specs,
                                   self.schedule.pairings[0].games, self.format.rounds)
        else:
            super().check_directory(root)

    def planned_games(self, root: Path) -> int:
        """The games of every round, or of the one run."""
        if not self.format.in_rounds:
            return super().planned_games(root)
        pairing = self.schedule.pairings[0]
        return planned_games(len(self.schedule.specs), pairing.games, self.format.rounds)

    def run(self, root: Path, *, progress: Progress | None, command: dict[str, Any],
            jobs: int | None = None) -> list[PairingSummary]:
        """Play the tournament and write its ratings and crosstable (and in rounds, the
        tables at its top)."""
        request = self.request_with(jobs)
        if self.format.in_rounds:
            done = run_rounds(self.specs, self.schedule.pairings[0].games, request,
                              root / self.name, swiss=self.format.rounds, anchor=self.anchor,
                              progress=progress, command=command)
            return [summary for summaries, _ in done.rounds for summary in summaries]
        return run_tournament(self.schedule, root / self.name, request, anchor=self.anchor,
                              progress=progress, command=command).run.summaries

    def ratings(self, root: Path) -> pd.DataFrame | None:
        """The tournament's ratings.csv (best first), None before it is written."""
        import pandas as pd

        path = RunFiles(root / self.name).ratings
        return pd.read_csv(path) if path.is_file() else None

    def ranked(self, root: Path) -> list[str]:
        """The agents best first, from the tournament's ratings."""
        ratings = self.ratings(root)
        if ratings is None:
            raise ExperimentError(f"{self.label} has no ratings yet in {root / self.name}")
        return [str(agent) for agent in ratings["agent"]]


@dataclass(frozen=True)
class Ranked:
    """An agent named by its rank in a tournament of the same experiment."""

    tournament: TournamentEntry
    rank: int

    def __str__(self) -> str:
        return f"#{self.rank} of {self.tournament.name}"

    def spec(self, root: Path) -> str:
        """The agent at this rank, once the tournament is rated."""
        return self.tournament.ranked(root)[self.rank - 1]


@dataclass(frozen=True)
class SprtEntry(Entry):
    """An SPRT of agent A against agent B; either may be a tournament's rank."""

    kind: ClassVar[str] = "sprt"
    a: str | Ranked
    b: str | Ranked
    test: SprtTest
    max_games: int

    def plan(self, root: Path) -> MatchPlan:
        """The test's game pairs, up to its maximum."""
        a, b = (x.spec(root) if isinstance(x, Ranked) else x for x in (self.a, self.b))
        return sprt_plan(a, b, self.request, max_games=self.max_games)

    def agent_plan(self) -> MatchPlan:
        """A or B against the other, where a rank stands for every agent of its tournament."""
        settings = self.request.settings()
        a, b = (plan_players([x] if isinstance(x, str) else x.tournament.schedule.specs,
                             settings) for x in (self.a, self.b))
        pairings = [Pairing(player.name, b[0].name, 1) for player in a] + [
            Pairing(a[0].name, player.name, 1) for player in b[1:]]
        return MatchPlan(tuple(pairings), settings, players={p.name: p for p in (*a, *b)})

    def describe(self, root: Path) -> dict[str, Any] | None:
        """The run's description, None while a tournament it names is not rated."""
        if any(isinstance(x, Ranked) and not RunFiles(root / x.tournament.name).ratings.is_file()
               for x in (self.a, self.b)):
            return None
        return {**self.plan(root).describe(), **self.test.describe()}

    def run(self, root: Path, *, progress: Progress | None, command: dict[str, Any],
            jobs: int | None = None) -> list[PairingSummary]:
        """Play game pairs until the test decides."""
        return run_sprt(self.plan(root), self.test, root / self.name, self.request_with(jobs),
                        progress=progress, command=command).match.summaries

    def notes(self, root: Path) -> list[str]:
        """Which ranks the agents are, and the test's last verdict."""
        ranks = [f"{side} is {x} ({x.spec(root)})" for side, x in (("A", self.a), ("B", self.b))
                 if isinstance(x, Ranked)]
        path = RunFiles(root / self.name).sprt
        if not path.is_file():
            return ranks
        with path.open(newline="", encoding="utf-8") as file:
            last = list(csv.DictReader(file))[-1]
        return [*ranks, f"SPRT H0 {self.test.elo0:g} against H1 {self.test.elo1:g} "
                        f"{self.test.unit}: {last['verdict']} after {last['games']} games "
                        f"(LLR {float(last['llr']):.2f}, bounds {float(last['lower']):.2f} "
                        f"and {float(last['upper']):.2f})"]


@dataclass(frozen=True)
class Experiment:
    """A checked experiment file: its entries in the order they run."""

    path: Path
    description: str
    entries: tuple[Entry, ...]
    charts: ChartOptions = field(default_factory=ChartOptions)
    """The formats and resolution of the experiment page's chart ([defaults]' own)."""

    @property
    def name(self) -> str:
        """The file's stem: the experiment's results go to ``results/<name>/``."""
        return self.path.stem

    def default_root(self) -> Path:
        """``results/<name>``."""
        return DEFAULT_RESULTS_ROOT / self.name

    def check_directories(self, root: Path) -> None:
        """Refuse, before any game, an entry directory that holds a different run."""
        for entry in self.entries:
            try:
                entry.check_directory(root)
            except ArenaError as error:
                raise Where(self.path, entry.label).error(str(error)) from None

    def check_agents(self, jobs: int | None = None) -> None:
        """Build every agent of every entry once and check it on the entry's board and limits,
        and its workers (``jobs``, when given, else the entry's), as a run checks its own:
        an ExperimentError naming the file and the entry, before any game."""
        agents = AgentCache()
        try:
            for entry in self.entries:
                request = entry.request_with(jobs)
                try:
                    resolved = resolve_agents(entry.agent_plan(), agents)
                    interactive = any(agent.traits.interactive for agent in resolved)
                    check_workers(resolved, request.workers(interactive), request.backend)
                except ArenaError as error:
                    raise Where(self.path, entry.label).error(str(error)) from None
        finally:
            agents.close()


# --------------------------------------------------------------------------- loading


def load_experiment(path: Path) -> Experiment:
    """Read and check an experiment file: every entry's options, agents and plan."""
    path = Path(path)
    where = Where(path)
    data = read_toml(path, where)
    check_fields(data, TOP_LEVEL, (), where)
    engines = _engines(data.get("engines"), path)
    defaults = data.get("defaults", {})
    check_fields(defaults, RUN_OPTIONS, (), Where(path, "[defaults]"))
    entries: list[Entry] = []
    for kind in ENTRY_KINDS:
        for index, table in enumerate(data.get(kind, []), start=1):
            entries.append(_entry(kind, index, table, Context(path, defaults, entries,
                                                              engines, data.get("labels", {}))))
    if not entries:
        raise where.error("no entries: add a [[match]], [[tournament]] or [[sprt]] table")
    try:
        charts = ChartOptions(tuple(parse_formats(defaults.get("formats", "png"))),
                              defaults.get("dpi", DEFAULT_DPI))
    except ArenaError as error:
        raise Where(path, "[defaults]").error(str(error)) from None
    return Experiment(path, data.get("description", ""), tuple(entries), charts)


class Context(NamedTuple):
    """What building an entry may need: the file, its defaults, the entries before it."""

    path: Path
    defaults: dict[str, Any]
    entries: list[Entry]
    engines: EnginesTable | None
    labels: dict[str, str]
    """The file's [labels]: names of agents of any entry (spec = name)."""


def _engines(file: str | None, path: Path) -> EnginesTable | None:
    """The experiment's engines file (relative to the experiment file), loaded and made the
    table that ``engine:NAME`` names (none without one)."""
    try:
        table = load_engines(path.parent / file) if file is not None else None
    except ArenaError as error:
        raise Where(path).error(f"engines: {error}") from None
    return table


def _entry(kind: str, index: int, table: dict[str, Any], context: Context) -> Entry:
    name = table.get("name")
    where = Where(context.path,
                  _label(kind, index, name) if isinstance(name, str) else f"{kind} #{index}")
    build = _BUILDERS[kind]
    check_fields(table, {**build.fields, **RUN_OPTIONS}, build.required, where)
    if not _NAME.fullmatch(table["name"]):
        raise where.error(f"name {table['name']!r} must be a directory name: letters, digits, "
                          "'.', '_' and '-', starting with a letter or digit")
    if table["name"] in (REPORT, RunFiles.REPORT_HTML, COMPARISON_CHART):
        raise where.error(f"name {table['name']!r} is reserved for the experiment's page")
    taken = next((e for e in context.entries if e.name == table["name"]), None)
    if taken is not None:
        raise where.error(f"name {table['name']!r} is already used by {taken.label}")
    options = {**context.defaults, **table}
    try:
        return build.make(index, options, _request(options, context), context)
    except ArenaError as error:
        raise where.error(str(error)) from None


def _request(options: Mapping[str, Any], context: Context) -> RunRequest:
    """The run options of an entry: its own keys over the file's ``[defaults]``."""
    run = {key: options[key] for key in RUN_OPTIONS if key in options}
    if "openings" in run:
        run["openings"] = _openings(run["openings"], context.path)
    request = RunRequest(engines=context.engines).with_values(run)
    return request.with_labels({**context.labels, **options.get("labels", {})})


def _openings(spec: str, path: Path) -> str:
    """An openings spec; a file is found relative to the experiment file."""
    if names_a_file(spec) and not Path(spec).is_absolute():
        return str(path.parent / spec)
    return spec


def _make_match(index: int, options: Mapping[str, Any], request: RunRequest,
                context: Context) -> MatchEntry:
    plan = request.match_plan(options["a"], options["b"], options["games"])
    reference = options.get("reference")
    return MatchEntry(index, options["name"], (options["a"], options["b"]), request, plan,
                      tuple(reference) if reference else None)


def _make_tournament(index: int, options: Mapping[str, Any], request: RunRequest,
                     context: Context) -> TournamentEntry:
    kind = TournamentFormat.of(options.get("format", "round-robin"), options.get("rounds"),
                               options.get("gauntlet", False))
    plan = tournament_plan(options["agents"], options["games"], request, kind.gauntlet)
    return TournamentEntry(index, options["name"], tuple(options["agents"]), request, plan,
                           resolve_anchor(options.get("anchor"), plan.specs, request.engines),
                           kind)


def _make_sprt(index: int, options: Mapping[str, Any], request: RunRequest,
               context: Context) -> SprtEntry:
    a, b = (_agent(options[side], side, context) for side in ("a", "b"))
    if isinstance(a, Ranked) and a == b:
        raise ExperimentError(f"a and b are both {a}")
    test = SprtTest(float(options["elo0"]), float(options["elo1"]),
                    **{key: options[key] for key in ("alpha", "beta", "model", "batch_pairs",
                                                      "llr") if key in options})
    entry = SprtEntry(index, options["name"], (str(a), str(b)), request, a, b, test,
                      options.get("max_games", DEFAULT_MAX_GAMES))
    # Check the agents, openings and maximum now, ranks standing for their tournament's agents.
    stand_a, stand_b = (x.tournament.schedule.specs[x.rank - 1] if isinstance(x, Ranked) else x
                        for x in (a, b))
    sprt_plan(stand_a, stand_b, request, max_games=entry.max_games)
    return entry


def _agent(value: str | dict[str, Any], side: str, context: Context) -> str | Ranked:
    """An agent spec, or ``{tournament = NAME, rank = K}`` naming an earlier tournament's
    K-th best agent."""
    if isinstance(value, str):
        return value
    tournaments = {e.name: e for e in context.entries if isinstance(e, TournamentEntry)}
    tournament = tournaments.get(value["tournament"])
    if tournament is None:
        raise ExperimentError(f"{side} names tournament {value['tournament']!r}, which is not "
                              f"a [[tournament]] of this file ({', '.join(tournaments) or 'none'})")
    agents = len(tournament.schedule.specs)
    if not 1 <= value["rank"] <= agents:
        raise ExperimentError(f"{side} names rank {value['rank']} of {tournament.label}, which "
                              f"has {agents} agents")
    return Ranked(tournament, value["rank"])


class Builder(NamedTuple):
    """An entry kind's own fields, the required ones, and how to build the entry."""

    fields: dict[str, Kind]
    required: tuple[str, ...]
    make: Callable[[int, Mapping[str, Any], RunRequest, Context], Entry]


_BUILDERS: dict[str, Builder] = {
    "match": Builder({"name": STRING, "a": STRING, "b": STRING, "games": WHOLE,
                      "first": STRING, "reference": WTL},
                     ("name", "a", "b", "games"), _make_match),
    "tournament": Builder({"name": STRING, "agents": STRINGS, "games": WHOLE,
                           "gauntlet": BOOLEAN, "anchor": STRING, "format": STRING,
                           "rounds": WHOLE},
                          ("name", "agents", "games"), _make_tournament),
    "sprt": Builder({"name": STRING, "a": AGENT, "b": AGENT, **file_keys(SPRT_OPTIONS)},
                    ("name", "a", "b", "elo0", "elo1"), _make_sprt),
}


def entry_summaries(directory: Path) -> list[PairingSummary]:
    """The summaries of an entry's run directory, every round's of a tournament in rounds
    (none before it ran)."""
    return [summary for run in run_directories(directory)
            if (games := RunFiles(run).games).is_file() for summary in summarize(games)]


class Comparison(NamedTuple):
    """A match entry's result beside its reference."""

    entry: MatchEntry
    ours: tuple[int, int, int]
    reference: tuple[int, int, int]
    test: Homogeneity


# --------------------------------------------------------------------------- running


class EntryPlayed(NamedTuple):
    """An entry of an experiment, played: its pairings' summaries."""

    entry: Entry
    summaries: list[PairingSummary]


EntryPlayer = Callable[[Entry, Callable[[Progress | None], list[PairingSummary]]],
                       list[PairingSummary]]
"""Wraps the run of one entry, e.g. in a progress bar: ``play(entry, run)`` calls ``run``."""


def run_experiment(experiment: Experiment, root: Path, *, jobs: int | None = None,
                   command: str | None = None,
                   play: EntryPlayer | None = None) -> Iterator[EntryPlayed]:
    """Play the entries of ``experiment`` into ``root`` in order, resuming what is there,
    yielding each entry once it is played (its reports and the experiment's page are
    ``arena.report``'s to write).

    Every entry's directory and agents are checked before the first game
    (``check_directories``, ``check_agents``). ``jobs``, when given, is the number of processes
    of every entry (else each entry's own). ``play`` may wrap each entry's run (the CLI shows
    a progress bar); without it, entries run with none.
    """
    experiment.check_directories(root)
    experiment.check_agents(jobs)
    for entry in experiment.entries:
        record = {"command": command, "experiment": str(experiment.path), "entry": entry.label}

        def run(progress: Progress | None, entry: Entry = entry,
                record: dict[str, Any] = record) -> list[PairingSummary]:
            return entry.run(root, progress=progress, command=record, jobs=jobs)

        summaries = play(entry, run) if play is not None else run(None)
        yield EntryPlayed(entry, summaries)
