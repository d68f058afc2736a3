"""Workers that play batches of games in parallel: local processes or a dask cluster.

``LocalPool``: the process that runs the match plays games itself, and ``jobs - 1`` worker
processes play beside it. Where the platform can fork, workers are forked from the warm
parent (agents built, kernels loaded) and are ready at once; elsewhere they are spawned. The
parent plays one game at a time between looks at its workers, and each worker holds the
batch after the one it plays, so none waits for the parent (which a compiled call of fused
games keeps from looking for as long as a batch takes). With ``--concurrency`` above 1, a
process plays two batches at a time (``own_batches``): its game threads begin the next while
the last games of one end. With a
``crash_log`` (an agent of the user's plays inline, whose native crash would end the process
that plays it), games are handed over as they end, not a batch at a time (the parent's each
before its next game, a worker's every ``HANDOVER_SECONDS``: a message a game would cost more
than the game), and a worker's native crash leaves its Python traceback in that log (the
run's agents.log).
``DaskPool``: batches are submitted to a dask.distributed cluster (joined, or started on this
machine). Both keep their workers for every stage of a run.

Batches are sized so that each takes about ``BATCH_SECONDS``; results come back in completion
order. A worker process that dies ends the stream with ``WorkerDiedError``. After ``stop()``
no batch is handed out: local processes end their batches after the game each is playing (a
flag they share with the parent, read before each game; a compiled call of fused games, sized
like a batch, is not cut; a batch a worker holds but has not begun comes back empty), and a
dask cluster finishes the batches already submitted (at most
two per worker thread).
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from collections.abc import Iterator
from contextlib import nullcontext, suppress
from dataclasses import dataclass
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from arena.runs.planning.plan import GameBatch, GameSettings, MatchPlan, MatchSetupError
from arena.runs.planning.request import BACKENDS as BACKENDS  # the names it had
from arena.runs.planning.request import Backend
from arena.runs.playing.batches import (
    AgentCache,
    BatchResult,
    close_worker_agents,
    play_batch,
    play_steps,
)
from arena.runs.playing.crashes import crashes_logged, reported_by_faulthandler
from arena.system.interrupts import ignore_interrupts, interrupts_held
from arena.system.processes import die_with_parent

BATCH_SECONDS = 0.25
"""Batches are sized so that one takes about this long in a worker."""
LARGEST_BATCH = 5000
GAMES_PER_THREAD = 4
"""With ``--concurrency N``, a batch holds at least this many games per thread."""
HELD_BATCHES = 2
"""Batches a local worker holds at a time: the one it plays and the next, so that it never
waits for this process, which may be in a compiled call of its own (fused games)."""
HANDOVER_SECONDS = 0.02
"""With a crash log, how often a worker hands over the games it finished."""
STOP_SECONDS = 5.0
"""How long a worker may take to close its agents at the end before it is killed."""


@dataclass
class BatchSizer:
    """Sizes batches so that one takes about ``seconds`` in a worker.

    Sizes grow at most 2x a step, and near the end shrink so that the ``jobs`` workers finish
    together (no batch holds more than a ``2 * jobs``-th of the games left). The time per game
    is a running average that halves the weight of older batches.
    """

    jobs: int = 1
    seconds: float = BATCH_SECONDS
    largest: int = LARGEST_BATCH
    concurrency: int = 1
    """Games a worker plays at once (``--concurrency``): above 1, a batch holds at least
    ``GAMES_PER_THREAD`` games per thread while that many are left, to fill its threads."""
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
        least = GAMES_PER_THREAD * self.concurrency if self.concurrency > 1 else 1
        self._last = max(1, min(least, remaining),
                         min(wanted, self.largest, 2 * self._last or 1, share))
        return self._last


def batches(plan: MatchPlan, games: np.ndarray, sizer: BatchSizer) -> Iterator[GameBatch]:
    """The games of ``games`` in batches sized by ``sizer`` as they are taken."""
    done = 0
    while done < len(games):
        size = sizer.next_size(len(games) - done)
        yield plan.batch(games[done:done + size])
        done += size


def own_batches(settings: GameSettings) -> int:
    """Batches a process plays at a time: with ``--concurrency`` above 1, its game threads
    go on to the next batch while the last games of one end."""
    return HELD_BATCHES if settings.concurrency > 1 else 1


class WorkerDiedError(RuntimeError):
    """A worker process died while playing; the games it had not returned are played again later."""


class Pool(Protocol):
    """Plays batches of games; closed once at the end of the run."""

    def results(self, batches: Iterator[GameBatch],
                settings: GameSettings) -> Iterator[BatchResult]:
        """Play every batch; yield the results as they finish."""

    def stop(self) -> None:
        """Hand out no more batches; the games in progress finish and come back (safe in a
        signal handler of the main thread)."""

    @property
    def stopped(self) -> bool:
        """Whether ``stop`` was called."""

    def close(self, abort: bool = False) -> None:
        """Release the workers: at once with ``abort``, else after they closed their agents."""


def _serve(connection: Connection, agents: AgentCache | None, parent: int,
           crash_log: Path | None, stopping: Any) -> None:
    """A local worker: play the batches the parent sends until it sends None or goes away
    (each sent back whole, or with a ``crash_log`` in parts as its games end; with
    ``--concurrency``, the next batch held begins before the last games of one end)."""
    ignore_interrupts()
    die_with_parent(parent)
    if agents is None:  # spawned, not forked
        agents = AgentCache()
    else:
        agents.after_fork()
    try:
        every = None if crash_log is None else HANDOVER_SECONDS
        playing: list[Iterator[BatchResult | None]] = []
        at_once = 1
        with crashes_logged(crash_log) if crash_log is not None else nullcontext():
            while True:
                while not playing or (len(playing) < at_once and connection.poll()):
                    try:
                        message = connection.recv()
                    except (EOFError, OSError):
                        return
                    if message is None:
                        return
                    settings, batch = message
                    at_once = own_batches(settings)
                    playing.append(play_steps(settings, batch, agents, every,
                                              lambda: bool(stopping.value)))
                for steps in list(playing):
                    part = next(steps)
                    if part is not None:
                        connection.send(part)
                        if part.last:
                            playing.remove(steps)
    finally:
        agents.close()


class _Worker:
    """A local worker process and the parent's end of its pipe."""

    def __init__(self, context: Any, agents: AgentCache, forked: bool, crash_log: Path | None,
                 stopping: Any):
        self.crash_log = crash_log if forked else None  # a spawned worker has no faulthandler
        self.connection, child = multiprocessing.Pipe()
        self.process: BaseProcess = context.Process(
            target=_serve,
            args=(child, agents if forked else None, os.getpid(), crash_log, stopping),
            daemon=True)
        self.process.start()
        child.close()

    def died(self) -> WorkerDiedError:
        """The error of this worker's death."""
        self.process.join(1.0)
        code = self.process.exitcode
        if code is not None and self.crash_log is not None and reported_by_faulthandler(code):
            return WorkerDiedError(
                f"a worker process crashed ({signal.strsignal(-code)}), most likely in an agent "
                f"of yours hosted inline; its Python traceback is in {self.crash_log}")
        how = "was killed" if code is not None and code < 0 else "exited"
        return WorkerDiedError(f"a worker process {how} (exit code {code}: killed, out of "
                               "memory, or crashed in native code)")


class LocalPool:
    """This process plays, with ``jobs - 1`` worker processes beside it; with a
    ``crash_log``, games are handed over as they end (see the module) and a worker's native
    crash leaves its traceback in that log."""

    def __init__(self, jobs: int, agents: AgentCache, crash_log: Path | None = None):
        self.agents = agents
        self.every = None if crash_log is None else 0.0  # this process's own: each game
        forked = "fork" in multiprocessing.get_all_start_methods()
        context = multiprocessing.get_context("fork" if forked else "spawn")
        self._stopping = context.RawValue("b", 0)  # shared with the workers: see stop()
        with interrupts_held():  # no worker ever sees the user's Ctrl-C
            self._workers = [_Worker(context, agents, forked, crash_log, self._stopping)
                             for _ in range(jobs - 1)]

    def results(self, batches: Iterator[GameBatch],
                settings: GameSettings) -> Iterator[BatchResult]:
        """Play every batch: each worker holds up to ``HELD_BATCHES`` whole batches, this
        process plays one game at a time between looks at them (the games of a pairing that
        can be fused all at once; with ``--concurrency``, ``own_batches`` batches in its game
        threads). A batch's last result is the one with ``timed`` set."""
        held = {worker.connection: 0 for worker in self._workers}
        workers = {worker.connection: worker for worker in self._workers}
        own: list[Iterator[BatchResult | None]] = []
        exhausted = False
        while True:
            busy = [connection for connection, count in held.items() if count]
            ready = wait(busy, 0 if own or not exhausted else None) if busy else []
            for connection in (connection for connection in busy if connection in ready):
                while True:  # every message waiting: a worker's results may have piled up
                    result = self._receive(workers[connection])  # while this process played
                    if result.last:
                        held[connection] -= 1
                    yield result
                    if not held[connection] or not connection.poll():
                        break
            while not exhausted and held:  # before this process plays: it may be a while
                connection = min(held, key=held.__getitem__)  # the emptiest first
                if held[connection] >= HELD_BATCHES:
                    break
                batch = None if self._stopping.value else next(batches, None)
                if batch is None:
                    exhausted = True
                    break
                self._send(workers[connection], (settings, batch))
                held[connection] += 1
            while len(own) < own_batches(settings) and not exhausted:
                batch = None if self._stopping.value else next(batches, None)
                if batch is None:
                    exhausted = True
                else:
                    own.append(play_steps(settings, batch, self.agents, self.every,
                                          lambda: bool(self._stopping.value)))
            for steps in list(own):
                step = next(steps)
                if step is not None:
                    if step.last:
                        own.remove(steps)
                    yield step
            if not own and exhausted and not any(held.values()):
                return

    def stop(self) -> None:
        """Hand out no more batches: this process and the workers stop theirs after the game
        each is playing."""
        self._stopping.value = 1

    @property
    def stopped(self) -> bool:
        """Whether ``stop`` was called."""
        return bool(self._stopping.value)

    def close(self, abort: bool = False) -> None:
        """End the workers (politely unless ``abort``) and close this process's agents."""
        for worker in self._workers:
            if abort:
                worker.process.kill()  # they block SIGTERM (interrupts_held)
            else:
                with suppress(OSError):
                    worker.connection.send(None)
        for worker in self._workers:
            worker.process.join(0.5 if abort else STOP_SECONDS)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.connection.close()
        self._workers = []
        self.agents.close()

    def _send(self, worker: _Worker, message: Any) -> None:
        try:
            worker.connection.send(message)
        except OSError:
            raise worker.died() from None

    def _receive(self, worker: _Worker) -> BatchResult:
        try:
            result: BatchResult = worker.connection.recv()
        except (EOFError, OSError):
            raise worker.died() from None
        return result


class DaskPool:
    """Batches played on a dask.distributed cluster: joined at ``scheduler``, or started here
    with ``jobs`` worker processes."""

    def __init__(self, scheduler: str | None, jobs: int):
        import distributed  # an optional extra, checked before the run

        self._cluster = None
        self._workers: list[int] = []
        self.stopped = False
        if scheduler:
            try:
                with interrupts_held():
                    self._client = distributed.Client(scheduler)
            except (OSError, ValueError) as error:
                raise MatchSetupError(
                    f"cannot reach the dask scheduler {scheduler}: {error}") from None
        else:
            try:
                self._start_cluster(distributed, jobs)
            except BaseException:  # a Ctrl-C held while it started comes now: stop it
                if self._cluster is not None:
                    self._cluster.close()
                raise

    def _start_cluster(self, distributed: Any, jobs: int) -> None:
        """Start a local cluster of ``jobs`` workers that die with this process."""
        import logging  # only here and in close: a dask cluster's logs; local runs log nothing

        with interrupts_held():  # Ctrl-C is this thread's to handle, not the cluster's
            self._cluster = distributed.LocalCluster(
                n_workers=jobs, threads_per_worker=1, processes=True,
                dashboard_address=":0", scheduler_kwargs={"dashboard": False},
                silence_logs=logging.ERROR)  # any free port: 8787 may be taken
            self._client = distributed.Client(self._cluster)
        self._workers = list(self._client.run(_adopt_worker, os.getpid()).values())

    def results(self, batches: Iterator[GameBatch],
                settings: GameSettings) -> Iterator[BatchResult]:
        """Submit the batches, at most two per worker thread at a time."""
        from distributed import KilledWorker, as_completed

        capacity = 2 * max(1, sum(self._client.nthreads().values()))
        # Results come with their futures: waiting on a future's result() would hold this
        # thread in a 10 s wait that a Ctrl-C delivered to another thread cannot cut short.
        running = as_completed(with_results=True)
        try:
            for batch in batches:
                if self.stopped:
                    break
                running.add(self._client.submit(play_batch, settings, batch, pure=False))
                while running.count() >= capacity:
                    yield next(running)[1]
            for _, result in running:
                yield result
        except KilledWorker as error:
            raise WorkerDiedError(f"dask workers died while playing ({error})") from None

    def stop(self) -> None:
        """Submit no more batches; those submitted finish."""
        self.stopped = True

    def close(self, abort: bool = False) -> None:
        """Close the agents on every worker, then leave (or stop) the cluster; with ``abort``,
        the workers of a cluster started here are killed first (a graceful close takes
        about a second: a Ctrl-C should not wait for it)."""
        if not abort:
            with suppress(OSError, RuntimeError):
                self._client.run(close_worker_agents)
            self._leave()
            return
        import logging

        silenced = logging.root.manager.disable
        # Results on their way from a killed worker fail, in distributed's and tornado's
        # loggers (some with levels of their own, as tornado.application's): no news.
        logging.disable(logging.CRITICAL)
        try:
            if self._cluster is not None:
                for nanny in self._cluster.workers.values():
                    nanny.close_gracefully()  # no new worker in place of a killed one
            for worker in self._workers:
                with suppress(ProcessLookupError):
                    os.kill(worker, signal.SIGKILL)
            self._leave()
        finally:
            logging.disable(silenced)

    def _leave(self) -> None:
        self._client.close()
        if self._cluster is not None:
            self._cluster.close()


def _adopt_worker(parent: int) -> int:
    """In a dask worker this process started: die with it, however it dies, and leave the
    user's Ctrl-C to it; the worker's pid."""
    die_with_parent(parent)
    ignore_interrupts()
    return os.getpid()


def open_pool(backend: Backend, jobs: int, scheduler: str | None, agents: AgentCache,
              crash_log: Path | None = None) -> Pool:
    """The workers of a run (``crash_log``: see ``LocalPool``; a dask cluster's workers
    hand over whole batches)."""
    if backend == "dask":
        return DaskPool(scheduler, jobs)
    return LocalPool(jobs, agents, crash_log)
