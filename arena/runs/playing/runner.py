"""Running a plan into a run directory: agents checked, missing games played, summary written.

``run_games`` plays the games a run directory does not hold yet, in batches on the workers of
``arena.runs.playing.pool``, appending each finished batch to games.csv, then writes
summary.csv. While an agent of the user's plays inline (its native crash would end the process
that plays it), games are appended as they end (``arena.runs.playing.pool``), and a crash of
this process is reported (``arena.runs.playing.crashes``). With a ``StoppingRule`` (an SPRT,
say) it plays the games stage by stage and stops when the rule says so. The user's first Ctrl-C
while games are played hands out no more games: those in progress finish and are written, then
``Stopped`` (a KeyboardInterrupt) ends the call; a second Ctrl-C ends it at once.
"""

from __future__ import annotations

import multiprocessing
import os
import platform
import sys
from collections.abc import Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import numpy as np

from arena.hosting.base import AgentFault
from arena.hosting.engines.engine import EngineHost
from arena.hosting.process import ProcessHost
from arena.protocol.agent import GameStart, Limit, Traits, traits_of
from arena.protocol.objects import PREFIX as LOCAL_PREFIX
from arena.protocol.players import check_limit
from arena.protocol.registry import AgentSpec, is_builtin
from arena.rules.errors import AgentSpecError
from arena.rules.results import Side
from arena.runs.planning.description import RunDescription
from arena.runs.planning.openings import FileOpenings
from arena.runs.planning.plan import MatchPlan, MatchSetupError
from arena.runs.planning.request import Backend, RunRequest
from arena.runs.playing.batches import AgentCache, BatchResult, warm_fused
from arena.runs.playing.crashes import crash_report
from arena.runs.playing.pool import BatchSizer, Pool, batches, open_pool
from arena.runs.store.directory import (
    GamesTable,
    RunDirectory,
    RunDirectoryError,
    check_run,
    sort_games,
    write_outputs,
)
from arena.runs.store.meta import AgentRecord, RunMeta, SessionRecord
from arena.runs.store.summary import (
    PairingSummary,
    SummaryColumns,
    add_model_usage,
    games_as_left,
    summarize,
    summary_fingerprint,
    write_summary,
)
from arena.runs.store.validation import held_games
from arena.stats.tally import Tally
from arena.system.heap import release_free_memory
from arena.system.interrupts import (
    Stopped,
    finish_on_interrupt,
    interrupts_held,
    watch_interrupts,
)
from arena.system.version import VERSION


class ResolvedAgent(NamedTuple):
    """A player of the plan, checked by building its agent once in its host."""

    name: str  # the player as the plan names it: canonical spec, then @limit if any
    spec: AgentSpec
    limit: Limit  # the effective limit per move
    hosting: str  # "inline", "process" or "engine"
    traits: Traits


def resolve_agents(plan: MatchPlan, agents: AgentCache) -> list[ResolvedAgent]:
    """Build, start and check every player of ``plan`` on its board, in order of appearance.

    The started hosts go into ``agents``, warm, for this process to play with. Raises
    AgentSpecError (a spec that cannot be built, a constructor that fails, a board or a limit
    the agent refuses) before any game is played.
    """
    plan = plan.with_players()
    settings = plan.settings
    sides = {p.agent_b: Side.B for p in reversed(plan.pairings)}
    sides.update({p.agent_a: Side.A for p in reversed(plan.pairings)})
    resolved = []
    for name in plan.specs:
        player = plan.players[name]
        host = agents.get(player, sides[name], settings.hosting)
        try:
            host.new_game(GameStart(settings.rules, 1, player.limit, settings.time_bank))
            traits = host.traits
        except AgentFault as fault:
            raise AgentSpecError(fault.prefixed(f"agent spec {player.text!r}")) from None
        check_limit(name, player.limit, traits.supported_limits)
        kind = "engine" if isinstance(host, EngineHost) else \
            "process" if isinstance(host, ProcessHost) else "inline"
        resolved.append(ResolvedAgent(name, player.spec, player.limit, kind, traits))
    return resolved


def recorded_agents(plan: MatchPlan, meta: RunMeta, games: Path) -> list[ResolvedAgent] | None:
    """The players of a finished run as its meta.json records them, without building or
    starting any agent: ``games`` is as the run left it (``games_as_left``) and holds every
    planned game, so there is nothing to play.

    None when a game is missing, or when a player is one the run did not record, an engine
    or a Python object of this process (only its host can describe it): ``resolve_agents``
    then builds them.
    """
    if not held_games(games, plan.total).all():
        return None
    plan = plan.with_players()
    resolved = []
    for name in plan.specs:
        player = plan.players[name]
        record = meta.agents.get(name)
        if record is None or record.hosting == "engine" or record.limit != player.limit \
                or player.text.startswith(f"{LOCAL_PREFIX}:"):
            return None
        resolved.append(ResolvedAgent(name, player.spec, player.limit, record.hosting,
                                      traits_of(player.spec.factory)))
    return resolved


def check_workers(agents: Sequence[ResolvedAgent], jobs: int, backend: Backend) -> None:
    """Refuse an interactive agent (a person at this terminal) and the Python objects of this
    process on other processes."""
    forks = "fork" in multiprocessing.get_all_start_methods()
    for resolved in agents:
        if resolved.name.startswith(f"{LOCAL_PREFIX}:") and (
                backend != "local" or (jobs > 1 and not forks)):
            raise MatchSetupError(
                f"agent {resolved.name!r} is a Python object of this process: it plays with "
                "the local backend, and with more than one job only where workers are forked "
                "(Linux)")
        if resolved.traits.interactive and (jobs > 1 or backend != "local"):
            raise MatchSetupError(
                f"agent {resolved.name!r} is interactive: it needs --jobs 1 and the local "
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

    def advance(self, games: int, tally: Tally) -> None:
        """``games`` more games are finished and written, with agent A's ``tally``."""

    def stopping(self) -> None:
        """The user's first Ctrl-C: the run stops after the games in progress (called from
        the signal handler)."""


@dataclass
class MatchPlayed:
    """What a call to ``run_games`` did: where, how many games it played (0: the run was
    complete already), the summaries, and the description the games were played under."""

    directory: Path
    played: int
    summaries: list[PairingSummary]
    description: RunDescription


MatchRun = MatchPlayed
"""The earlier name of ``MatchPlayed`` (each class of a run says which part of it it is)."""


def run_games(
    plan: MatchPlan,
    out_dir: Path,
    request: RunRequest | None = None,
    *,
    progress: Progress | None = None,
    command: dict[str, Any] | None = None,
    stopping: StoppingRule | None = None,
) -> MatchPlayed:
    """Play the games of ``plan`` that ``out_dir`` does not hold yet; write summary.csv.

    ``request`` gives the workers (jobs, backend, scheduler) and whether a resume may go on
    after an agent's code changed (``allow_changed_agents``); the games' own options are the
    plan's. ``command`` (JSON-friendly: the command line and its options) is recorded in
    meta.json with this session. With ``stopping``, games are played stage by stage until the
    rule stops the run (or the plan's games are all played); the rule's description is part
    of the run's. What agents print goes to agents.log in ``out_dir``. Refuses
    (RunDirectoryError) a directory that holds a different run (a plan with more games per
    pairing extends it), whose rows do not fit the plan (GamesTableError), or whose agents'
    code changed, and checks the agents (AgentSpecError, MatchSetupError) before any game.
    """
    request = request or RunRequest()
    plan = plan.with_players()  # a plan made from names alone gets its players here
    plan = replace(plan, settings=replace(plan.settings, run_dir=str(Path(out_dir).resolve()),
                                          no_cache=request.no_cache,
                                          concurrency=request.concurrency))
    if stopping is not None and stopping.stage < 1:
        raise MatchSetupError(f"a stage holds at least 1 game, got {stopping.stage}")
    run = plan.description()
    if stopping is not None:
        run = run.stopped_by(stopping.describe())
    engines = plan.settings.engines
    agents = AgentCache()
    pool: Pool | None = None
    try:
        with watch_interrupts(), RunDirectory(out_dir) as directory:
            meta = directory.read_meta()
            if meta is not None:
                check_run(out_dir, meta.run, run)
            files = directory.files
            resolved = recorded_agents(plan, meta, files.games) if meta is not None \
                and meta.run == run and files.games.is_file() and games_as_left(files, meta) \
                else None
            trusted = resolved is not None  # finished as the run left it: nothing to check
            if resolved is None:
                resolved = resolve_agents(plan, agents)
            jobs = request.workers(any(agent.traits.interactive for agent in resolved))
            check_workers(resolved, jobs, request.backend)
            record = SessionRecord(
                _now(), None, jobs, request.backend, plan.settings.hosting, request.scheduler,
                os.cpu_count(), _versions(), dict(command or {}),
                engines=engines.describe() if engines is not None else None)
            meta = _session_meta(meta, plan, run, resolved, record,
                                 request.allow_changed_agents, out_dir)
            if request.labels:
                meta.labels = {**(meta.labels or {}), **dict(request.labels)}
            with GamesTable(files.games, plan, trusted) as table:
                directory.write_meta(meta)
                risky = plays_user_code_here(resolved, request)
                if not table.finished.all():  # workers start before any thread does
                    if request.backend == "local":
                        warm_fused(plan, agents)  # in the workers forked from here too
                    pool = open_pool(request.backend, jobs, request.scheduler, agents,
                                     files.agents_log if risky else None)
                if progress is not None:
                    progress.start(plan.total, int(table.finished.sum()))
                fresh = not table.finished.any()
                gathered = SummaryColumns()
                watched = risky and pool is not None  # workers forked first: not on the pipe
                with crash_report(files, plan.total) if watched else nullcontext(), \
                        finish_on_interrupt(lambda: _stop(pool, progress)):
                    sizer = BatchSizer(jobs, concurrency=request.concurrency)
                    played = _play(plan, table, pool, sizer, stopping, progress,
                                   files.agents_log, gathered)
            pool, finished = None, pool
            if finished is not None:
                finished.close()
            if not table.in_order:
                sort_games(files.games)
            if fresh:
                summaries = gathered.summaries()
                add_model_usage(summaries, files)
            else:
                summaries = summarize(files.games)
            write_summary(summaries, files.summary)
            record.ended, record.games_played = _now(), played
            meta.ended = record.ended
            meta.summary = summary_fingerprint(files, meta)
            directory.write_meta(meta)
            release_free_memory()  # what sorting and summing freed, before the report
    finally:
        if pool is not None:
            pool.close(abort=True)
        agents.close()
    return MatchPlayed(out_dir, played, summaries, run)


def plays_user_code_here(agents: Sequence[ResolvedAgent], request: RunRequest) -> bool:
    """Whether the processes of this machine play an agent of the user's (not one that comes
    with the arena) inline: its native crash would end the process that plays it."""
    return request.backend == "local" and any(
        agent.hosting == "inline" and not is_builtin(agent.spec.text)
        for agent in agents)


def _stop(pool: Pool | None, progress: Progress | None) -> None:
    """At the user's first Ctrl-C: no more games; say so."""
    if pool is not None:
        pool.stop()
    if progress is not None:
        progress.stopping()


def _play(plan: MatchPlan, table: GamesTable, pool: Pool | None, sizer: BatchSizer,
          stopping: StoppingRule | None, progress: Progress | None, log: Path,
          gathered: SummaryColumns) -> int:
    """Play the missing games stage by stage, appending them as the pool hands them over
    and gathering them for the summary; ``Stopped`` once a stopped pool handed over its games
    in progress."""
    played = 0
    for games in _stages(table.finished, stopping):
        if not len(games):
            continue
        assert pool is not None
        for batch in pool.results(batches(plan, games, sizer), plan.settings):
            with interrupts_held():  # a game written is a game counted, even on a SIGTERM
                _keep(batch, table, gathered, log)
                if batch.timed:
                    sizer.record(batch.timed, batch.seconds)
                played += batch.games
                if progress is not None:
                    progress.advance(batch.games, batch.tally())
        if pool.stopped:
            raise Stopped
    return played


def _keep(batch: BatchResult, table: GamesTable, gathered: SummaryColumns, log: Path) -> None:
    """Append a batch's games to games.csv, gather them for the summary and log what its
    agents printed."""
    if batch.rows:
        table.append(batch.rows)
        gathered.add_rows(batch.rows)
    for fused in batch.fused:
        text, hashes = fused.text()
        table.append_text(text, fused.batch.games)
        gathered.add(*fused.agents, fused.columns(hashes))
    if batch.outputs:
        write_outputs(log, batch.outputs)


def _session_meta(meta: RunMeta | None, plan: MatchPlan, run: RunDescription,
                  agents: Sequence[ResolvedAgent], record: SessionRecord,
                  allow_changed_agents: bool, directory: Path) -> RunMeta:
    """meta.json with this session added: new for a new run; else the run extended if it
    grows, and the agents' code checked against what the run began with."""
    described = {agent.name: AgentRecord(agent.spec.target, agent.spec.resolved(),
                                         agent.limit, agent.hosting,
                                         agent.traits.reproducible, agent.spec.fingerprint())
                 for agent in agents}
    if meta is None:
        openings = list(plan.openings.moves) if isinstance(plan.openings, FileOpenings) \
            else None
        meta = RunMeta(run, described, [], started=_now(), openings=openings)
    else:
        if meta.run != run:
            record.extended_from = meta.run.games
            meta.run = run
        changed = {name: [meta.agents[name].fingerprint, now.fingerprint]
                   for name, now in described.items()
                   if name in meta.agents and meta.agents[name].fingerprint != now.fingerprint}
        if changed and not allow_changed_agents:
            name, (before, after) = next(iter(changed.items()))
            raise RunDirectoryError(
                f"{directory}: the code of agent {name!r} changed since the run began "
                f"({before} then, {after} now); its games would mix two agents: give another "
                "--out, or --allow-changed-agents to resume anyway (recorded in meta.json)")
        if changed:
            record.changed_agents = changed
        meta.agents = {**meta.agents, **described}
    meta.sessions.append(record)
    meta.ended = None
    return meta


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _versions() -> dict[str, str]:
    found = {"python": platform.python_version(), "platform": sys.platform,
             "arena": VERSION}
    for package in ("numpy", "click", "dask", "distributed"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            continue
    return found
