"""Many games: plans, seeds, openings, colours and the workers that play them.

A ``MatchPlan`` numbers every game of a run. Game ``i`` is fully decided by the plan and ``i``:
its pairing, who moves first, its opening and its seed (from the run seed and ``i``), so a run
gives the same games whatever the number of workers, the backend, the batching or the order in
which games finish. ``run_games`` plays the games a run directory does not hold yet, in batches
on joblib workers (loky processes, or a dask.distributed cluster), appending each finished
batch to games.csv, then writes summary.csv. With a ``StoppingRule`` (an SPRT, say) it plays the
games stage by stage and stops when the rule says so.

Agents are built once per worker process from their spec strings and reused for every game
that worker plays, so an agent must not let one game influence the next (reset in
``new_game``).
"""

from __future__ import annotations

import bisect
import hashlib
import importlib.util
import json
import logging
import os
import platform
import re
import sys
import time
from collections.abc import Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from itertools import accumulate
from pathlib import Path
from typing import Any, Literal, NamedTuple, Protocol

import numpy as np
from joblib import Parallel, delayed, parallel_config
from joblib.externals.loky import get_reusable_executor
from joblib.externals.loky.process_executor import TerminatedWorkerError

from arena import __version__
from arena.agent import Agent, AgentSpec, check_agent_rules, parse_spec
from arena.board import DEFAULT_RULES, Position, Rules
from arena.errors import ArenaError
from arena.game import play_game
from arena.notation import parse_moves, play_moves
from arena.openings import NoOpenings, OpeningBook
from arena.results import (
    GAMES_FILE,
    META_FILE,
    SUMMARY_FILE,
    GameRow,
    GamesTable,
    claim_run_dir,
    read_meta,
    write_meta,
)
from arena.summary import PairingSummary, summarize, write_summary

DEFAULT_SEED = 42
"""The run seed when none is given: the same command always plays the same games."""

DEFAULT_RESULTS_DIR = Path("results") / "matches"

First = Literal["alternate", "a", "b"]
FIRST_CHOICES: tuple[First, ...] = ("alternate", "a", "b")
Backend = Literal["loky", "dask"]

# Game indices fit in the low bits of a game's seed.
GAME_BITS = 32

# Batches are sized so that one takes about this long in a worker.
BATCH_SECONDS = 0.25
LARGEST_BATCH = 5000


class MatchSetupError(ArenaError):
    """Options that cannot work together, found before any game is played."""


# --- the plan ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Pairing:
    """Agent A against agent B (canonical spec strings) for a number of games."""

    agent_a: str
    agent_b: str
    games: int
    first: First = "alternate"

    def __post_init__(self) -> None:
        if self.games < 1:
            raise MatchSetupError(f"number of games must be at least 1, got {self.games}")
        if self.first not in FIRST_CHOICES:
            raise MatchSetupError(
                f"first mover {self.first!r}: expected one of {', '.join(FIRST_CHOICES)}"
            )


@dataclass(frozen=True)
class GameSettings:
    """What every game of a run shares; sent to the workers with each batch."""

    rules: Rules = DEFAULT_RULES
    seed: int = DEFAULT_SEED
    time_per_move: float | None = None

    def __post_init__(self) -> None:
        if isinstance(self.seed, bool) or not isinstance(self.seed, int) or self.seed < 0:
            raise MatchSetupError(f"seed must be a whole number >= 0, got {self.seed!r}")
        if self.time_per_move is not None and not self.time_per_move > 0:
            raise MatchSetupError(
                f"time per move must be a positive number of seconds, got {self.time_per_move}"
            )


class GameTask(NamedTuple):
    """One game to play: everything a worker needs besides the shared settings."""

    game: int
    agent_a: str
    agent_b: str
    first: str  # "a" or "b"
    pair: int | None
    opening: str


@dataclass(frozen=True)
class MatchPlan:
    """Every game of a run, numbered from 0: pairing after pairing, in order.

    Within a pairing, game ``j`` (counted from the pairing's first game) uses opening pair
    ``j // 2`` when the openings are paired, and with ``first="alternate"`` agent A moves
    first when ``j`` is even. Every pairing plays the same paired openings; unpaired ones
    (``uniform:K``) are the game's own, by its index in the run.
    """

    pairings: tuple[Pairing, ...]
    settings: GameSettings = GameSettings()
    openings: OpeningBook = field(default_factory=NoOpenings)

    _starts: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        starts = (0, *accumulate(p.games for p in self.pairings))
        if not self.pairings or starts[-1] >= 1 << GAME_BITS:
            raise MatchSetupError(
                f"a run holds 1 to {(1 << GAME_BITS) - 1} games, got {starts[-1]}"
            )
        object.__setattr__(self, "_starts", starts)

    @property
    def total(self) -> int:
        """The number of games in the run."""
        return self._starts[-1]

    @property
    def specs(self) -> list[str]:
        """Every agent spec in the plan, once each, in order of appearance."""
        return list(dict.fromkeys(s for p in self.pairings for s in (p.agent_a, p.agent_b)))

    def describe(self) -> dict[str, Any]:
        """What decides the games (JSON-friendly): equal descriptions give equal games."""
        rules = self.settings.rules
        return {
            "pairings": [[p.agent_a, p.agent_b, p.games, p.first] for p in self.pairings],
            "games": self.total,
            "seed": self.settings.seed,
            "board": {"rows": rules.rows, "cols": rules.cols, "connect": rules.connect},
            "time_per_move": self.settings.time_per_move,
            **self.openings.describe(),
        }

    def task(self, game: int) -> GameTask:
        """Game ``game`` of the run."""
        if not 0 <= game < self.total:
            raise IndexError(f"game {game} is not in a run of {self.total} games")
        index = bisect.bisect_right(self._starts, game) - 1
        pairing, local = self.pairings[index], game - self._starts[index]
        a_first = pairing.first == "a" or (pairing.first == "alternate" and local % 2 == 0)
        pair = local // 2 if self.openings.paired else None
        opening = self.openings.opening(game if pair is None else pair)
        return GameTask(game, pairing.agent_a, pairing.agent_b, "a" if a_first else "b",
                        pair, opening)


def canonical_spec(spec: AgentSpec) -> str:
    """The spec with only non-default parameters, in signature order: one text per agent."""
    values = [
        f"{p.name}={_format_value(spec.values[p.name])}"
        for p in spec.params
        if p.name in spec.values and (p.required or spec.values[p.name] != p.default)
    ]
    return spec.name + (":" + ",".join(values) if values else "")


def _format_value(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


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


def default_out_dir(plan: MatchPlan, root: Path = DEFAULT_RESULTS_DIR) -> Path:
    """A directory named after the run: its agents, games and seed, plus a digest of it all."""
    digest = hashlib.sha256(json.dumps(plan.describe(), sort_keys=True).encode()).hexdigest()
    agents = "_".join(f"{p.agent_a}-vs-{p.agent_b}" for p in plan.pairings)
    readable = re.sub(r"[^A-Za-z0-9=+.-]+", "_", agents)[:80]
    return root / f"{readable}_n{plan.total}_seed{plan.settings.seed}_{digest[:8]}"


# --- one game, one batch (in the workers) ---------------------------------------------


def game_seed(run_seed: int, game: int) -> int:
    """The seed of game ``game``: ``Generator(PCG64(seed))`` is the randomness of its agents.

    It is ``run_seed * 2**32 + game``, the run seed and the game index in one integer, which
    PCG64 hashes through a SeedSequence: every (run seed, game) gets its own stream.
    """
    return (run_seed << GAME_BITS) | game


class AgentCache:
    """Agents built from their specs on first use, one per spec and side (A or B)."""

    def __init__(self) -> None:
        self._agents: dict[tuple[str, str], Agent] = {}

    def get(self, spec: str, side: str) -> Agent:
        """The agent for ``spec`` playing as ``side``."""
        key = (spec, side)
        if key not in self._agents:
            self._agents[key] = parse_spec(spec).build()
        return self._agents[key]


_WORKER_AGENTS = AgentCache()


@lru_cache(maxsize=4096)
def _start(rules: Rules, opening: str) -> tuple[tuple[int, ...], Position]:
    columns = tuple(parse_moves(opening, rules))
    return columns, play_moves(Position.empty(rules), columns)


def play_task(task: GameTask, settings: GameSettings, agents: AgentCache) -> GameRow:
    """Play one game and return its row."""
    seed = game_seed(settings.seed, task.game)
    rng = np.random.Generator(np.random.PCG64(seed))
    a, b = (0, 1) if task.first == "a" else (1, 0)
    players = [agents.get(task.agent_a, "a"), agents.get(task.agent_b, "b")]
    if a == 1:
        players.reverse()
    opening, start = _start(settings.rules, task.opening)
    outcome = play_game(players, (rng, rng), start, opening, settings.time_per_move)
    result = "draw" if outcome.winner == 0 else "win" if outcome.winner == a + 1 else "loss"
    return GameRow(
        task.game, task.pair, seed, task.agent_a, task.agent_b, task.first, task.opening,
        outcome.move_string, result, outcome.termination, len(outcome.moves),
        round(outcome.seconds[a], 6), round(outcome.seconds[b], 6),
        outcome.nodes[a], outcome.nodes[b], outcome.agent_moves[a], outcome.agent_moves[b],
        outcome.error,
    )


class BatchResult(NamedTuple):
    """The rows of a batch and the seconds the worker spent on it."""

    rows: list[GameRow]
    seconds: float


def play_batch(settings: GameSettings, tasks: Sequence[GameTask],
               agents: AgentCache = _WORKER_AGENTS) -> BatchResult:
    """Play a batch of games, by default with the agents of this (worker) process."""
    began = time.perf_counter()
    rows = [play_task(task, settings, agents) for task in tasks]
    return BatchResult(rows, time.perf_counter() - began)


@dataclass
class BatchSizer:
    """Sizes batches so that one takes about ``seconds`` in a worker.

    Sizes grow at most 2x a step, and near the end shrink so that the ``jobs`` workers finish
    together (no batch holds more than a ``2 * jobs``-th of the games left). The time per game
    is a running average that halves the weight of older batches, so the slow first batch of
    a worker (imports, compilation) is soon forgotten.
    """

    jobs: int = 1
    seconds: float = BATCH_SECONDS
    largest: int = LARGEST_BATCH
    _per_game: float | None = None
    _last: int = 0

    def record(self, games: int, seconds: float) -> None:
        """Learn from a finished batch."""
        latest = seconds / games
        self._per_game = latest if self._per_game is None else (self._per_game + latest) / 2

    def next_size(self, remaining: int) -> int:
        """The size of the next batch when ``remaining`` games are not yet dispatched."""
        if self._per_game is None:
            wanted = 1
        else:
            wanted = int(self.seconds / self._per_game) if self._per_game > 0 else self.largest
        share = -(-remaining // (2 * self.jobs))
        self._last = max(1, min(wanted, self.largest, 2 * self._last or 1, share))
        return self._last


def _batches(plan: MatchPlan, games: np.ndarray, sizer: BatchSizer) -> Iterator[list[GameTask]]:
    done = 0
    while done < len(games):
        size = sizer.next_size(len(games) - done)
        yield [plan.task(int(game)) for game in games[done:done + size]]
        done += size


# --- running ------------------------------------------------------------------------------


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


def _staged_results(
    plan: MatchPlan,
    stages: Iterator[np.ndarray],
    sizer: BatchSizer,
    jobs: int,
    backend: Backend,
    scheduler: str | None,
) -> Iterator[BatchResult]:
    """The batches of every stage, a stage's batches all returned before the next stage is
    dispatched; a dask cluster is joined once, when there is a game to play."""
    with ExitStack() as cluster:
        joined = False
        for games in stages:
            if not len(games):
                continue
            if backend == "dask" and not joined:
                cluster.enter_context(_dask_cluster(scheduler, jobs))
                cluster.enter_context(parallel_config(backend="dask"))
                joined = True
            yield from _results(_batches(plan, games, sizer), plan.settings, jobs, backend)


class WorkerDiedError(RuntimeError):
    """A worker process died while playing; the games it had not returned are replayed later."""


def _results(
    batches: Iterator[list[GameTask]],
    settings: GameSettings,
    jobs: int,
    backend: Backend,
) -> Iterator[BatchResult]:
    if backend == "loky" and jobs == 1:
        agents = AgentCache()
        for tasks in batches:
            yield play_batch(settings, tasks, agents)
        return
    calls = (delayed(play_batch)(settings, tasks) for tasks in batches)
    if backend == "dask":  # inside _staged_results' dask context
        from distributed import KilledWorker

        try:
            yield from Parallel(n_jobs=-1, batch_size=1, return_as="generator_unordered")(calls)
        except KilledWorker as error:
            raise WorkerDiedError(f"dask workers died while playing ({error})") from None
        return
    try:
        yield from Parallel(n_jobs=jobs, backend="loky", batch_size=1,
                            return_as="generator_unordered")(calls)
    except TerminatedWorkerError as error:
        codes = str(error).partition("The exit codes of the workers are ")[2].split("\n")[0]
        raise WorkerDiedError(f"a worker process died (exit codes {codes or 'unknown'}: "
                              "killed, out of memory, or crashed in native code)") from None


@contextmanager
def _dask_cluster(scheduler: str | None, jobs: int) -> Iterator[None]:
    """A dask.distributed client: joined to ``scheduler``, or to a new local cluster."""
    import distributed  # an optional extra, checked by check_workers

    if not scheduler:
        with (
            distributed.LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                     dashboard_address=None,
                                     silence_logs=logging.ERROR) as cluster,
            distributed.Client(cluster),
        ):
            yield
        return
    try:
        client = distributed.Client(scheduler)
    except (OSError, ValueError) as error:
        raise MatchSetupError(f"cannot reach the dask scheduler {scheduler}: {error}") from None
    with client:
        yield


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
        for batch in _staged_results(plan, stages, sizer, jobs, backend, scheduler):
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


def release_workers() -> None:
    """Stop the idle worker processes joblib keeps for reuse, and free their memory."""
    get_reusable_executor().shutdown(wait=True)


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
