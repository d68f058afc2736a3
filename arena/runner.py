"""Running a plan into a run directory: agents checked, missing games played, summary written.

``run_games`` plays the games a run directory does not hold yet, in batches on the workers of
``arena.pool``, appending each finished batch to games.csv, then writes summary.csv. With a
``StoppingRule`` (an SPRT, say) it plays the games stage by stage and stops when the rule says
so.
"""

from __future__ import annotations

import importlib.util
import os
import platform
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import numpy as np

from arena import __version__
from arena.agent import Agent, check_agent_rules
from arena.board import Rules
from arena.plan import MatchPlan, MatchSetupError
from arena.pool import Backend, BatchSizer, staged_results
from arena.records import GameRow
from arena.registry import AgentSpec, canonical_spec, parse_spec
from arena.rundir import (
    GAMES_FILE,
    META_FILE,
    SUMMARY_FILE,
    GamesTable,
    claim_run_dir,
    read_meta,
    write_meta,
)
from arena.summary import PairingSummary, summarize, write_summary


class ResolvedAgent(NamedTuple):
    """An agent spec checked by building the agent once."""

    name: str  # the canonical spec
    spec: AgentSpec
    agent: Agent


def resolve_agents(specs: Sequence[str], rules: Rules) -> list[ResolvedAgent]:
    """Parse, build and check each spec on ``rules``, in order (each distinct spec built once).

    Raises AgentSpecError or UnsupportedBoardError before any game is played.
    """
    built: dict[str, ResolvedAgent] = {}
    resolved = []
    for text in specs:
        if text not in built:
            spec = parse_spec(text)
            agent = spec.build()
            check_agent_rules(agent, rules)
            built[text] = ResolvedAgent(canonical_spec(spec), spec, agent)
        resolved.append(built[text])
    return resolved


def check_workers(agents: Sequence[ResolvedAgent], jobs: int, backend: Backend) -> None:
    """Refuse bad worker counts, a missing dask, and an interactive agent (a person at this
    terminal) on other processes."""
    if jobs < 1:
        raise MatchSetupError(f"--jobs must be at least 1, got {jobs}")
    if backend == "dask" and importlib.util.find_spec("distributed") is None:
        raise MatchSetupError(
            "--backend dask needs dask.distributed: pip install 'connect-four-arena[dask]'"
        )
    for resolved in agents:
        if getattr(resolved.agent, "interactive", False) and (jobs > 1 or backend != "loky"):
            raise MatchSetupError(
                f"agent {resolved.name!r} is interactive: it needs --jobs 1 and the loky "
                f"backend (got --jobs {jobs}, --backend {backend})"
            )


class StoppingRule(Protocol):
    """Decides, stage by stage, whether a run has played enough of its games.

    The games of a stage are played only once every game before it is finished.
    """

    @property
    def stage(self) -> int:
        """Games per stage (the last stage may be shorter)."""

    def describe(self) -> dict[str, Any]:
        """What decides where the run stops (JSON-friendly), added to the run's description."""

    def stop(self, games: int) -> bool:
        """Games 0 to ``games - 1`` are all in games.csv: True to play no more."""


def _stages(finished: np.ndarray, stopping: StoppingRule | None) -> Iterator[np.ndarray]:
    """The missing games, stage by stage; after each stage, ``stopping`` may end the run.

    Stages a former session finished are offered too (with no games), so the rule sees every
    stage from the first.
    """
    if stopping is None:
        yield np.flatnonzero(~finished)
        return
    for start in range(0, len(finished), stopping.stage):
        end = min(start + stopping.stage, len(finished))
        yield start + np.flatnonzero(~finished[start:end])
        if stopping.stop(end):
            return


class Progress(Protocol):
    """Told how a run goes: once at the start, then after each batch is on disk."""

    def start(self, total: int, finished: int) -> None:
        """``finished`` of ``total`` games were already in the run directory."""

    def advance(self, rows: list[GameRow]) -> None:
        """These games are finished and written."""


@dataclass
class MatchRun:
    """What a call to ``run_games`` did: where, how many games it played, the summaries."""

    directory: Path
    played: int
    summaries: list[PairingSummary]


def run_games(
    plan: MatchPlan,
    out_dir: Path,
    *,
    jobs: int = 1,
    backend: Backend = "loky",
    scheduler: str | None = None,
    progress: Progress | None = None,
    session: dict[str, Any] | None = None,
    stopping: StoppingRule | None = None,
) -> MatchRun:
    """Play the games of ``plan`` that ``out_dir`` does not hold yet; write summary.csv.

    ``session`` (JSON-friendly, e.g. the command line) is recorded in meta.json.
    With ``stopping``, games are played stage by stage until the rule stops the run (or the
    plan's games are all played); the rule's description is part of the run's.
    Refuses (RunDirectoryError) a directory that holds a different run, and checks the
    agents (AgentSpecError, UnsupportedBoardError, MatchSetupError) before any game.
    """
    if stopping is not None and stopping.stage < 1:
        raise MatchSetupError(f"a stage holds at least 1 game, got {stopping.stage}")
    run = {**plan.describe(), **(stopping.describe() if stopping is not None else {})}
    claim_run_dir(out_dir, run)
    agents = resolve_agents(plan.specs, plan.settings.rules)
    check_workers(agents, jobs, backend)
    if not (out_dir / META_FILE).exists():
        write_meta(out_dir, _new_meta(run, agents))  # before games.csv exists
    played = 0
    with GamesTable(out_dir / GAMES_FILE, plan.total) as table:
        meta = read_meta(out_dir)  # read under the lock: another session may have ended
        record = {"started": _now(), "ended": None, "jobs": jobs, "backend": backend,
                  "scheduler": scheduler, "cores": os.cpu_count(), "versions": _versions(),
                  **(session or {})}
        meta["sessions"].append(record)
        meta["ended"] = None
        write_meta(out_dir, meta)
        if progress is not None:
            progress.start(plan.total, int(table.finished.sum()))
        sizer = BatchSizer(jobs)
        stages = _stages(table.finished, stopping)
        for batch in staged_results(plan, stages, sizer, jobs, backend, scheduler):
            table.append(batch.rows)
            sizer.record(len(batch.rows), batch.seconds)
            played += len(batch.rows)
            if progress is not None:
                progress.advance(batch.rows)
        summaries = summarize(out_dir / GAMES_FILE)
        write_summary(summaries, out_dir / SUMMARY_FILE)
        record.update(ended=_now(), games_played=played)
        meta["ended"] = record["ended"]
        write_meta(out_dir, meta)
    return MatchRun(out_dir, played, summaries)


def _new_meta(run: dict[str, Any], agents: Sequence[ResolvedAgent]) -> dict[str, Any]:
    return {
        "run": run,
        "agents": {
            agent.name: {"target": agent.spec.target, "params": agent.spec.resolved()}
            for agent in agents
        },
        "started": _now(),
        "ended": None,
        "sessions": [],
    }


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _versions() -> dict[str, str]:
    found = {"python": platform.python_version(), "platform": sys.platform,
             "arena": __version__}
    for package in ("numpy", "joblib", "click", "dask", "distributed"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            continue
    return found
