"""The Python API: a match, a tournament or an SPRT in one call, from a notebook or a script.

Agents are spec strings (``"negamax:depth=4"``), agent objects, agent classes or plain
functions (``f(position, rng)``, or Kaggle's ``f(observation, configuration)``), also defined in
a notebook; ``(name, agent)`` names one (a spec string too): the name is its label in every
table, chart and page. Every other keyword is an option of the run: a field of
``arena.runs.planning.request.RunRequest`` (``seed``, ``openings``, ``time_per_move``, ``jobs``,
``out``, ...), the same options the commands take; a ``RunRequest`` may also be given whole.
The result holds the games as a DataFrame with proper dtypes, the summary (and for a
tournament the ratings and the crosstable, for an SPRT its steps), and writes the report on
request. With ``out`` the run is the same resumable directory the commands write; without it
nothing stays on disk.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.competitions.round_tables import is_rounds_tournament, rounds_games
from arena.competitions.rounds import run_rounds
from arena.competitions.sprt import (
    DEFAULT_MAX_GAMES,
    SprtPlayed,
    SprtTest,
    run_sprt,
    sprt_plan,
)
from arena.competitions.tournaments import (
    TournamentFormat,
    run_tournament,
    tournament_plan,
)
from arena.protocol.objects import register
from arena.report.notebook import report_figure, result_html, result_text, write_files
from arena.rules.errors import AgentSpecError
from arena.runs.planning.charts import DEFAULT_DPI, ChartOptions, parse_formats
from arena.runs.planning.request import RunRequest
from arena.runs.playing.progress import ProgressBar, TournamentProgressBar
from arena.runs.playing.runner import run_games
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import RunMeta, load_meta
from arena.runs.store.model_usage import moves_table
from arena.runs.store.reading import load_games as load_run_games
from arena.runs.store.reading import not_a_run, open_run

if TYPE_CHECKING:
    import pandas as pd
    from matplotlib.figure import Figure

KEPT_FILES = (RunFiles.GAMES, RunFiles.SUMMARY, RunFiles.META, RunFiles.RATINGS,
              RunFiles.CROSSTABLE, RunFiles.SPRT)
"""The files a result keeps in memory when its run left nothing on disk."""


NAME_COLUMNS = {"agent_a": "name_a", "agent_b": "name_b", "agent": "name",
                "opponent": "opponent_name"}
"""The columns of agents' specs in a result's tables, and those of their names beside them."""


@dataclass(repr=False)
class RunResult:
    """What a run played: its games, its summary (one row per pairing) and its meta.json.
    Its tables of agents name each one beside its spec (``name_a`` after ``agent_a``, ...),
    as the run's pages do; its repr is a short summary by those names (HTML in Jupyter);
    ``plot(kind)`` draws a chart of its report."""

    games: pd.DataFrame
    summary: pd.DataFrame
    meta: RunMeta
    directory: Path | None  # None when nothing was kept on disk
    _files: dict[str, bytes] = field(default_factory=dict, repr=False)

    def __post_init__(self) -> None:
        tables = self._agent_tables()
        names = self.meta.names([spec for table in tables for column in NAME_COLUMNS
                                 if column in table for spec in table[column]
                                 if isinstance(spec, str) and spec])
        for table in tables:
            for column, name in NAME_COLUMNS.items():
                if column in table and name not in table:
                    place = list(table.columns).index(column) + 1
                    table.insert(place, name, table[column].map(names))

    def _agent_tables(self) -> list[pd.DataFrame]:
        """The tables whose agents get their names (the summary; a tournament's ratings and
        crosstable too)."""
        return [self.summary]

    def _extras(self) -> dict[str, Any]:
        """What a summary shows besides the pairings (ratings, a conclusion)."""
        return {}

    def __repr__(self) -> str:
        return result_text(type(self).__name__, self.meta, self.summary, len(self.games),
                           self.directory, **self._extras())

    def _repr_html_(self) -> str:
        return result_html(type(self).__name__, self.meta, self.summary, len(self.games),
                           self.directory, **self._extras())

    def plot(self, kind: str) -> Figure:
        """The report's chart ``kind`` as a matplotlib Figure, drawn as the report draws it:
        one of the charts this run's report shows (every kind, and when a run has it, is
        declared in ``arena.report.chart_kinds.CHART_KINDS``); ValueError listing this run's
        charts for another."""
        return report_figure(self.directory, self._files, kind)

    def write_report(self, directory: str | Path | None = None, *,
                     formats: str | Sequence[str] = ("png",), dpi: int = DEFAULT_DPI) -> Path:
        """Write the charts (``formats``: png, svg and/or pdf; ``dpi`` for PNG), report.md
        and report.html (into the run's directory, or ``directory`` for a run kept in memory:
        the run's files are written there too); the page's path."""
        from arena.report.run_page import write_report

        charts = ChartOptions(parse_formats(formats), dpi)
        if directory is None:
            if self.directory is None:
                raise ValueError("this run was kept in memory: give the report a directory")
            return write_report(self.directory, charts)
        target = Path(directory)
        if target != self.directory:
            target.mkdir(parents=True, exist_ok=True)
            write_files(target, self._files)
        return write_report(target, charts)


@dataclass(repr=False)
class TournamentResult(RunResult):
    """A tournament's games and summary, plus its ratings and crosstable."""

    ratings: pd.DataFrame | None = None
    crosstable: pd.DataFrame | None = None

    def _agent_tables(self) -> list[pd.DataFrame]:
        return [table for table in (self.summary, self.ratings, self.crosstable)
                if table is not None]

    def _extras(self) -> dict[str, Any]:
        return {"ratings": self.ratings}


@dataclass(repr=False)
class SprtResult(RunResult):
    """An SPRT's games and summary, plus its steps (sprt.csv: one row per look at the LLR)
    and its conclusion in words."""

    steps: pd.DataFrame | None = None
    conclusion: str = ""

    def _extras(self) -> dict[str, Any]:
        return {"conclusion": self.conclusion}


def _players(agents: Sequence[Any]) -> tuple[list[str], dict[str, str]]:
    """Spec strings for agents given as strings, objects, classes, functions or (name, agent),
    and the names given (spec as given -> name)."""
    specs: list[str] = []
    names: dict[str, str] = {}
    objects: dict[str, Any] = {}
    for agent in agents:
        name, source = agent if isinstance(agent, tuple) and len(agent) == 2 and isinstance(
            agent[0], str) else (None, agent)
        if isinstance(source, str):
            spec = source
        else:
            spec = register(source, name)
            if objects.setdefault(spec, source) is not source:
                taken = spec.partition(":")[2]
                raise AgentSpecError(f"two different agents are both called {taken!r}: give "
                                     "each a name, e.g. (\"mine-d4\", agent)")
        if name is not None:
            names[spec] = name
        specs.append(spec)
    return specs, names


def _request(request: RunRequest | None, options: dict[str, Any]) -> RunRequest:
    """``request`` (default: the defaults) with the options given as keywords."""
    return (request or RunRequest()).with_options(**options)


def _finish(directory: Path, keep: bool, kind: type[RunResult],
            extra: dict[str, Any]) -> RunResult:
    """The result of the run in ``directory``, read into memory (and its files kept, when the
    directory is about to go)."""
    import pandas as pd

    run = RunFiles(directory)
    tables = {"ratings": run.ratings, "crosstable": run.crosstable} \
        if kind is TournamentResult else {"steps": run.sprt} if kind is SprtResult else {}
    extra = {**extra, **{name: pd.read_csv(path) for name, path in tables.items()}}
    files = {} if keep else {name: (directory / name).read_bytes() for name in KEPT_FILES
                             if (directory / name).is_file()}
    reading = open_run(directory)
    return kind(games=reading.games(), summary=pd.read_csv(run.summary), meta=reading.meta,
                directory=directory if keep else None, _files=files, **extra)


def _in_directory(request: RunRequest, play: Callable[[Path], dict[str, Any]],
                  kind: type[RunResult]) -> RunResult:
    """Run ``play(directory)`` in the request's ``out``, or in a temporary directory removed
    afterwards; ``play`` returns what the result holds besides the run's files."""
    if request.out is not None:
        extra = play(request.out)
        return _finish(request.out, True, kind, extra)
    with tempfile.TemporaryDirectory(prefix="arena-run-") as scratch:
        directory = Path(scratch) / "run"
        extra = play(directory)
        return _finish(directory, False, kind, extra)


def match(a: Any, b: Any, games: int = 100, request: RunRequest | None = None,
          **options: Any) -> RunResult:
    """Play ``games`` games of ``a`` against ``b`` (results from ``a``'s point of view).

    ``options``: any field of ``RunRequest`` (as ``arena match`` takes them); ``jobs``
    defaults to every core, ``out`` to no directory at all, ``progress`` to a progress bar
    where it is seen (tqdm's notebook bar in Jupyter, or stderr when it is a terminal).
    """
    (spec_a, spec_b), names = _players([a, b])
    request = _request(request, options).with_labels(names)
    plan = request.match_plan(spec_a, spec_b, games)

    def play(directory: Path) -> dict[str, Any]:
        with ProgressBar(enabled=request.progress) as bar:
            run_games(plan, directory, request, progress=bar)
        return {}

    return _in_directory(request, play, RunResult)


def tournament(agents: Sequence[Any], games: int = 100, request: RunRequest | None = None, *,
               gauntlet: bool = False, format: str = "round-robin", rounds: int | None = None,
               anchor: str | None = None, **options: Any) -> TournamentResult:
    """A round robin of ``agents`` (every pair ``games`` games), or with ``gauntlet`` (or
    ``format="gauntlet"``) the first against each other one, or ``format="swiss"`` with
    ``rounds`` rounds, or ``format="knockout"``, as ``arena tournament`` plays them; the
    result has the ratings and the crosstable too (a Swiss or knockout result's games and
    summary have a ``round`` column).

    ``anchor`` is the agent rated 0 (default: random when it plays, else the field's mean);
    ``options`` as for ``match``.
    """
    kind = TournamentFormat.of(format, rounds, gauntlet)
    specs, names = _players(agents)
    request = _request(request, options).with_labels(names)
    if kind.in_rounds:
        return _rounds_tournament(specs, games, request, kind.rounds, anchor)
    plan = tournament_plan(specs, games, request, kind.gauntlet)

    def play(directory: Path) -> dict[str, Any]:
        with TournamentProgressBar(enabled=request.progress) as bar:
            run_tournament(plan, directory, request, anchor=anchor, progress=bar)
        return {}

    result = _in_directory(request, play, TournamentResult)
    assert isinstance(result, TournamentResult)
    return result


def _rounds_tournament(specs: list[str], games: int, request: RunRequest, rounds: int | None,
                       anchor: str | None) -> TournamentResult:
    """A Swiss (``rounds`` rounds) or, without ``rounds``, a knockout tournament, its result
    read from its rounds' runs."""
    import pandas as pd

    def read(directory: Path, keep: bool) -> TournamentResult:
        with TournamentProgressBar(enabled=request.progress) as bar:
            run_rounds(specs, games, request, directory, swiss=rounds, anchor=anchor,
                       progress=bar)
        files = RunFiles(directory)
        kept = {} if keep else {str(path.relative_to(directory)): path.read_bytes()
                                for path in sorted(directory.rglob("*")) if path.is_file()}
        return TournamentResult(
            games=rounds_games(directory), summary=pd.read_csv(files.summary),
            meta=load_meta(files.round(1)),
            directory=directory if keep else None, _files=kept,
            ratings=pd.read_csv(files.ratings), crosstable=pd.read_csv(files.crosstable))

    if request.out is not None:
        return read(request.out, True)
    with tempfile.TemporaryDirectory(prefix="arena-run-") as scratch:
        return read(Path(scratch) / "run", False)


def load_games(path: str | Path) -> pd.DataFrame:
    """A run's games.csv as a DataFrame sorted by game, with proper dtypes, once every row is
    checked against the run's meta.json (``arena.runs.store.reading.load_games``); the games.csv
    at the top of a Swiss or knockout tournament gives every round's games so, a ``round``
    column first."""
    path = Path(path)
    if path.name == RunFiles.GAMES and is_rounds_tournament(path.parent):
        return rounds_games(path.parent)
    return load_run_games(path)


def load_model_moves(directory: str | Path) -> pd.DataFrame:
    """Every move a language model (an ``llm:`` agent) made in the finished games of the run
    in ``directory``, one row a move, from the games' transcripts: game, agent (its spec),
    side (``a`` or ``b``), ply (the discs on the board when it was played: the first move
    is ply 0, as in blunders.csv and moves.csv), column (blank for an answer that lost the
    game), requests, cached (answers replayed), retried (requests asked again after a server
    failure), invalid (answers that named no legal column), prompt_tokens, completion_tokens,
    seconds, cost (dollars at the agent's ``price``; nan without). Empty for a run without a
    language model; group by ``game`` for each game's totals."""
    files = RunFiles(Path(directory))
    if not files.games.is_file():
        raise not_a_run(Path(directory), RunFiles.GAMES)
    return moves_table(files)


TEST_FIELDS = frozenset(field.name for field in fields(SprtTest))
"""The keywords of ``sprt`` that set the test (alpha, beta, model, batch_pairs, llr)."""


def sprt(a: Any, b: Any, elo0: float, elo1: float, request: RunRequest | None = None, *,
         max_games: int = DEFAULT_MAX_GAMES, **options: Any) -> SprtResult:
    """Play game pairs of ``a`` (under test) against ``b`` (the baseline) until a sequential
    probability ratio test accepts H0 (``a`` is ``elo0`` stronger) or H1 (``elo1``
    stronger), or ``max_games`` are played; as ``arena sprt`` does.

    ``options``: the test's ``alpha``, ``beta``, ``model``, ``batch_pairs`` and ``llr``
    (``SprtTest``'s defaults), and any field of ``RunRequest`` (as for ``match``; the
    openings default to random:8).
    """
    test = SprtTest(elo0, elo1, **{k: v for k, v in options.items() if k in TEST_FIELDS})
    (spec_a, spec_b), names = _players([a, b])
    request = _request(request, {k: v for k, v in options.items() if k not in TEST_FIELDS}
                       ).with_labels(names)
    plan = sprt_plan(spec_a, spec_b, request, max_games=max_games)

    def play(directory: Path) -> dict[str, Any]:
        with ProgressBar(enabled=request.progress) as bar:
            done: SprtPlayed = run_sprt(plan, test, directory, request, progress=bar)
        return {"conclusion": done.conclusion(load_meta(directory).names())}

    result = _in_directory(request, play, SprtResult)
    assert isinstance(result, SprtResult)
    return result
