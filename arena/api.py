"""The Python API: a match or a tournament in one call, from a notebook or a script.

Agents are spec strings (``"negamax:depth=4"``), agent objects, agent classes or plain
functions (``f(position, rng)``, or Kaggle's ``f(observation, configuration)``), also defined in
a notebook; ``(name, agent)`` names one. The result holds the games as a DataFrame with proper
dtypes, the summary (and for a tournament the ratings and the crosstable), and writes the
report on request. With ``out`` the run is the same resumable directory ``arena match``
writes; without it nothing stays on disk.
"""

from __future__ import annotations

import json
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from arena.competitions.tournaments import (
    CROSSTABLE_FILE,
    RATINGS_FILE,
    run_tournament,
    tournament_plan,
)
from arena.hosting.base import Hosting
from arena.protocol.objects import register
from arena.rules.board import Rules
from arena.rules.errors import AgentSpecError
from arena.runs.directory import GAMES_FILE, META_FILE, SUMMARY_FILE
from arena.runs.openings import load_openings
from arena.runs.plan import DEFAULT_SEED, First, GameSettings, match_plan
from arena.runs.pool import Backend, available_cores
from arena.runs.progress import ProgressBar, TournamentProgressBar
from arena.runs.rows import load_games
from arena.runs.runner import run_games

if TYPE_CHECKING:
    import pandas as pd

KEPT_FILES = (GAMES_FILE, SUMMARY_FILE, META_FILE, RATINGS_FILE, CROSSTABLE_FILE)
"""The files a result keeps in memory when its run left nothing on disk."""


@dataclass
class RunResult:
    """What a run played: its games, its summary (one row per pairing) and its meta.json."""

    games: pd.DataFrame
    summary: pd.DataFrame
    meta: dict[str, Any]
    directory: Path | None  # None when nothing was kept on disk
    _files: dict[str, bytes] = field(default_factory=dict, repr=False)

    def write_report(self, directory: str | Path | None = None) -> Path:
        """Write the charts and report.md (into the run's directory, or ``directory`` for a
        run kept in memory: the run's files are written there too); the page's path."""
        from arena.report.run_page import write_report

        if directory is None:
            if self.directory is None:
                raise ValueError("this run was kept in memory: give the report a directory")
            return write_report(self.directory)
        target = Path(directory)
        if target != self.directory:
            target.mkdir(parents=True, exist_ok=True)
            for name, data in self._files.items():
                (target / name).write_bytes(data)
        return write_report(target)


@dataclass
class TournamentResult(RunResult):
    """A tournament's games and summary, plus its ratings and crosstable."""

    ratings: pd.DataFrame | None = None
    crosstable: pd.DataFrame | None = None


def _players(agents: Sequence[Any]) -> list[str]:
    """Spec strings for agents given as strings, objects, classes, functions or (name, agent)."""
    specs: list[str] = []
    objects: dict[str, Any] = {}
    for agent in agents:
        if isinstance(agent, str):
            specs.append(agent)
            continue
        name, source = agent if isinstance(agent, tuple) and len(agent) == 2 and isinstance(
            agent[0], str) else (None, agent)
        spec = register(source, name)
        if objects.setdefault(spec, source) is not source:
            taken = spec.partition(":")[2]
            raise AgentSpecError(f"two different agents are both called {taken!r}: give each "
                                 "a name, e.g. (\"mine-d4\", agent)")
        specs.append(spec)
    return specs


def _settings(rules: Rules | None, seed: int, time_per_move: float | None,
              time_bank: float | None, hosting: Hosting, adjudicate: int | None) -> GameSettings:
    return GameSettings(rules or Rules(), seed, time_per_move, time_bank, hosting,
                        adjudicate=adjudicate)


def _finish(directory: Path, keep: bool, kind: type[RunResult]) -> RunResult:
    """The result of the run in ``directory``, read into memory (and its files kept, when the
    directory is about to go)."""
    import pandas as pd

    extra: dict[str, Any] = {}
    if kind is TournamentResult:
        extra = {name: pd.read_csv(directory / file) for name, file in
                 (("ratings", RATINGS_FILE), ("crosstable", CROSSTABLE_FILE))}
    files = {} if keep else {name: (directory / name).read_bytes() for name in KEPT_FILES
                             if (directory / name).is_file()}
    return kind(games=load_games(directory / GAMES_FILE),
                summary=pd.read_csv(directory / SUMMARY_FILE),
                meta=json.loads((directory / META_FILE).read_text(encoding="utf-8")),
                directory=directory if keep else None, _files=files, **extra)


def _in_directory(out: str | Path | None, play: Any, kind: type[RunResult]) -> RunResult:
    """Run ``play(directory)`` in ``out``, or in a temporary directory removed afterwards."""
    if out is not None:
        play(Path(out))
        return _finish(Path(out), True, kind)
    with tempfile.TemporaryDirectory(prefix="arena-run-") as scratch:
        directory = Path(scratch) / "run"
        play(directory)
        return _finish(directory, False, kind)


def match(
    a: Any,
    b: Any,
    games: int = 100,
    *,
    jobs: int | None = None,
    seed: int = DEFAULT_SEED,
    openings: str = "none",
    first: First = "alternate",
    time_per_move: float | None = None,
    time_bank: float | None = None,
    hosting: Hosting = "auto",
    adjudicate: int | None = None,
    rules: Rules | None = None,
    out: str | Path | None = None,
    progress: bool = True,
    backend: Backend = "local",
    scheduler: str | None = None,
) -> RunResult:
    """Play ``games`` games of ``a`` against ``b`` (results from ``a``'s point of view).

    Options as ``arena match`` takes them; ``jobs`` defaults to every core, ``out`` to no
    directory at all, ``progress`` to a progress bar (tqdm's notebook bar in Jupyter).
    """
    spec_a, spec_b = _players([a, b])
    plan = match_plan(spec_a, spec_b, games,
                      _settings(rules, seed, time_per_move, time_bank, hosting, adjudicate),
                      openings, first)

    def play(directory: Path) -> None:
        with ProgressBar(enabled=progress) as bar:
            run_games(plan, directory, jobs=jobs or available_cores(), backend=backend,
                      scheduler=scheduler, progress=bar)

    return _in_directory(out, play, RunResult)


def tournament(
    agents: Sequence[Any],
    games: int = 100,
    *,
    gauntlet: bool = False,
    anchor: str | None = None,
    jobs: int | None = None,
    seed: int = DEFAULT_SEED,
    openings: str = "none",
    time_per_move: float | None = None,
    time_bank: float | None = None,
    hosting: Hosting = "auto",
    adjudicate: int | None = None,
    rules: Rules | None = None,
    out: str | Path | None = None,
    progress: bool = True,
    backend: Backend = "local",
    scheduler: str | None = None,
) -> TournamentResult:
    """A round robin of ``agents`` (every pair ``games`` games), or with ``gauntlet`` the
    first against each other one; the result has the ratings and the crosstable too."""
    settings = _settings(rules, seed, time_per_move, time_bank, hosting, adjudicate)
    plan = tournament_plan(_players(agents), games, settings,
                           load_openings(openings, settings.rules, seed), gauntlet)

    def play(directory: Path) -> None:
        with TournamentProgressBar(enabled=progress) as bar:
            run_tournament(plan, directory, anchor=anchor, jobs=jobs or available_cores(),
                           backend=backend, scheduler=scheduler, progress=bar)

    result = _in_directory(out, play, TournamentResult)
    assert isinstance(result, TournamentResult)
    return result
