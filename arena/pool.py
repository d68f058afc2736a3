"""Workers that play batches of games in parallel: loky processes or a dask.distributed cluster.

Batches are sized so that each takes about ``BATCH_SECONDS`` in a worker; results come back in
completion order. A worker process that dies ends the stream with ``WorkerDiedError``.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass
from typing import Literal

import numpy as np
from joblib import Parallel, delayed, parallel_config
from joblib.externals.loky import get_reusable_executor
from joblib.externals.loky.process_executor import TerminatedWorkerError

from arena.plan import GameSettings, GameTask, MatchPlan, MatchSetupError
from arena.worker import AgentCache, BatchResult, play_batch

Backend = Literal["loky", "dask"]


# Batches are sized so that one takes about this long in a worker.
BATCH_SECONDS = 0.25


LARGEST_BATCH = 5000


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


def staged_results(
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
    if backend == "dask":  # inside staged_results' dask context
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


def release_workers() -> None:
    """Stop the idle worker processes joblib keeps for reuse, and free their memory."""
    get_reusable_executor().shutdown(wait=True)


def available_cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1
