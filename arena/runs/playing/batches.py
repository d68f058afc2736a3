"""What a worker does: play the games of a batch with the hosts of its agents.

Hosts are made from the batch's players on first use and reused for every game the process
plays, so an agent must not let one game influence the next (reset in ``new_game``). With
``--concurrency N`` a worker plays its hosted games N at a time in threads it keeps for every
batch (``arena.runs.playing.threads``), each thread with hosts of its own
(``AgentCache.slot``): for agents that spend their moves waiting on a server.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np

from arena.hosting.base import Host, Hosting
from arena.hosting.engines.engine import EngineHost
from arena.hosting.policy import make_host
from arena.hosting.process import ProcessHost
from arena.rules.board import Position, Rules
from arena.rules.notation import parse_moves, play_moves
from arena.rules.results import Side
from arena.runs.planning.plan import GameBatch, GameSettings, GameTask, MatchPlan
from arena.runs.planning.player import Player
from arena.runs.planning.seeds import game_rng, game_seed
from arena.runs.playing.adjudication import Adjudicator
from arena.runs.playing.fused import FusedGames, fused_kernels, play_fused
from arena.runs.playing.game import RunPlace, play_game
from arena.runs.playing.threads import GameThreads, Handover, Job
from arena.runs.store.directory import AgentOutput
from arena.runs.store.rows import GameRow
from arena.stats.tally import Tally
from arena.system.interrupts import ignore_interrupts

WAIT_SECONDS = 0.05
"""How long a step of a batch played in threads waits for its games before yielding None."""


class AgentCache:
    """The hosts of the agents a process plays: one per spec (a player's without its limit),
    side (A or B) and hosting."""

    def __init__(self) -> None:
        self._hosts: dict[tuple[str, Side, Hosting], Host] = {}
        self._slots: dict[int, AgentCache] = {}
        self._threads: GameThreads[GameRow] | None = None

    def slot(self, number: int) -> AgentCache:
        """The hosts of the ``number``-th thread playing games at once (0: these)."""
        if number == 0:
            return self
        return self._slots.setdefault(number, AgentCache())

    def threads(self, count: int) -> GameThreads[GameRow]:
        """The ``count`` threads that play this process's games at once (thread ``number``
        with the hosts of ``slot(number)``), started on first use."""
        if self._threads is None or self._threads.count != count:
            if self._threads is not None:
                self._threads.close()
            self._threads = GameThreads(count)
        return self._threads

    def get(self, player: Player, side: Side, hosting: Hosting) -> Host:
        """The host of ``player``'s agent playing as ``side`` (made on first use, started by
        its game)."""
        key = (player.text, side, hosting)
        host = self._hosts.get(key)
        if host is None:
            host = self._hosts[key] = make_host(player, hosting)
        return host

    def after_fork(self) -> None:
        """In a forked copy of this process: forget the parent's agent processes and
        threads."""
        self._threads = None
        for host in self._hosts.values():
            if isinstance(host, ProcessHost | EngineHost):
                host.abandon()
        for slot in self._slots.values():
            slot.after_fork()

    def close(self) -> None:
        """End the game threads after their games, then close every host: agents' close()
        called, agent processes ended."""
        if self._threads is not None:
            self._threads.close()
            self._threads = None
        for host in self._hosts.values():
            host.close()
        for slot in self._slots.values():
            slot.close()


_WORKER_AGENTS = AgentCache()


def close_worker_agents() -> None:
    """Close the hosts of this (worker) process."""
    _WORKER_AGENTS.close()


@lru_cache(maxsize=4096)
def _start(rules: Rules, opening: str) -> tuple[tuple[int, ...], Position]:
    columns = tuple(parse_moves(opening, rules))
    return columns, play_moves(Position.empty(rules), columns)


def play_task(task: GameTask, players: tuple[Player, Player], settings: GameSettings,
              agents: AgentCache, outputs: list[AgentOutput]) -> GameRow:
    """Play one game of ``players`` (A and B) and return its row; what the agents printed is
    added to ``outputs``."""
    seed, rng = game_seed(settings.seed, task.game), game_rng(settings.seed, task.game)
    player_a, player_b = players
    host_a = agents.get(player_a, Side.A, settings.hosting)
    host_b = agents.get(player_b, Side.B, settings.hosting)
    hosts, limits = [host_a, host_b], [player_a.limit, player_b.limit]
    if task.first is Side.B:
        hosts.reverse()
        limits.reverse()
    opening, start = _start(settings.rules, task.opening)
    adjudicator = None if settings.adjudicate is None else Adjudicator(settings.adjudicate)
    record = play_game(hosts, (rng, rng), start, opening, limits, settings.time_bank,
                       adjudicator=adjudicator,
                       place=RunPlace(task.game, settings.run_dir, settings.no_cache))
    for side, name, host in ((Side.A, task.agent_a, host_a), (Side.B, task.agent_b, host_b)):
        text = host.take_output()
        if text:
            outputs.append(AgentOutput(task.game, side, name, text))
    return GameRow.of_game(task, seed, record)


def play_fusable(settings: GameSettings, batch: GameBatch,
                 agents: AgentCache) -> tuple[list[FusedGames], GameBatch]:
    """Play the games of ``batch`` whose pairing can be fused (``arena.runs.playing.fused``), each
    pairing's in one compiled call: their games, and the games left for the hosts."""
    played: list[FusedGames] = []
    hosted = np.zeros(len(batch), dtype=bool)
    for pairing in np.flatnonzero(np.bincount(batch.pairings)).tolist():
        games = batch.pairings == pairing
        kernels = fused_kernels(settings, batch.players[pairing], agents)
        if kernels is None:
            hosted |= games
        else:
            played.append(play_fused(settings, batch.select(games), kernels))
    return played, batch.select(hosted)


def warm_fused(plan: MatchPlan, agents: AgentCache) -> None:
    """Load the compiled loop of every pairing of ``plan`` whose games can be fused, with
    calls of no game: processes forked after it start warm, and the first batch each plays
    takes the time of its games alone (the batches are sized by it). The row writer is the
    compiled core's, which has nothing to load."""
    first = plan.batch(np.arange(len(plan.pairings)))  # round 0: each pairing's first game
    none = first.select(np.zeros(len(first), dtype=bool))
    for pair in first.players:
        kernels = fused_kernels(plan.settings, pair, agents)
        if kernels is not None:
            play_fused(plan.settings, none, kernels)


@dataclass
class BatchResult:
    """Games of a batch (rows of hosted games, columns of fused ones), what their agents
    printed, and the seconds the worker spent on the ``timed`` games of the batch.

    A batch comes whole, or in parts as its games end (``play_steps``): then only its last part
    is timed, for the whole batch, and ``timed`` is 0 on the others. Its last part is ``last``;
    a batch stopped before its end holds fewer games, and is not timed.
    """

    rows: list[GameRow]
    outputs: list[AgentOutput]
    seconds: float
    fused: list[FusedGames] = field(default_factory=list)
    timed: int = 0
    last: bool = False

    @property
    def games(self) -> int:
        """How many games the batch (or this part of it) holds."""
        return len(self.rows) + sum(len(games) for games in self.fused)

    def tally(self) -> Tally:
        """Agent A's wins, draws and losses over the batch's games."""
        return sum((games.tally() for games in self.fused), Tally.of(row.result
                                                                    for row in self.rows))


def play_steps(settings: GameSettings, batch: GameBatch, agents: AgentCache,
               every: float | None = None,
               stop: Callable[[], bool] | None = None) -> Iterator[BatchResult | None]:
    """Play a batch a step at a time, by default with the hosts of this process: the pairings
    that can be fused in compiled code at the first step, then one hosted game a step.

    A step yields None while its games are held back, or the games not yet handed over: the
    whole batch at its last step, and with ``every`` (seconds) also before a game once that
    long has passed since the last hand-over (0: every game before the next one starts, so
    that a native crash of this process in that game loses none of them). The last result's
    ``timed`` is the batch's size. Once ``stop()`` is true, no further game starts: the games
    played so far are the last part, untimed (a compiled call of fused games is not cut; a
    batch that ``stop()`` finds unbegun comes back empty).
    """
    if len(batch) and not batch.players:
        raise ValueError("a batch is played with its players: make it from a plan that has "
                         "them (MatchPlan.with_players)")
    began = handed = time.perf_counter()
    if stop is not None and stop():
        yield BatchResult([], [], 0.0, last=True)
        return
    fused, left = play_fusable(settings, batch, agents)
    part = BatchResult([], [], 0.0, fused)
    if settings.concurrency > 1 and len(left) > 1:  # handed over whole, whatever ``every``
        handover, outputs = hand_over(settings, left, agents, stop)
        yield None  # the caller may hand over its next batch while these games are played
        while not handover.wait(WAIT_SECONDS):
            yield None
        if handover.failure is not None:
            raise handover.failure
        part.rows += [row for row in handover.results if row is not None]
        part.outputs += [output for game in outputs for output in game]
        if not handover.stopped:  # a stopped part is untimed
            part.seconds, part.timed = time.perf_counter() - began, len(batch)
        part.last = True
        yield part
        return
    for task, pairing in zip(left.tasks(), left.pairings.tolist(), strict=True):
        if stop is not None and stop():
            part.last = True
            yield part
            return
        if every is not None and part.games and time.perf_counter() - handed >= every:
            yield part
            part, handed = BatchResult([], [], 0.0), time.perf_counter()
        else:
            yield None
        part.rows.append(play_task(task, left.players[pairing], settings, agents,
                                   part.outputs))
    part.seconds, part.timed, part.last = time.perf_counter() - began, len(batch), True
    yield part


def hand_over(settings: GameSettings, batch: GameBatch, agents: AgentCache,
              stop: Callable[[], bool] | None
              ) -> tuple[Handover[GameRow], list[list[AgentOutput]]]:
    """Hand the (hosted) games of ``batch`` to this process's ``settings.concurrency`` game
    threads, each playing with the hosts of its slot; what the agents of each game print is
    added to that game's list."""
    tasks = list(zip(batch.tasks(), batch.pairings.tolist(), strict=True))
    outputs: list[list[AgentOutput]] = [[] for _ in tasks]

    def job(index: int) -> Job[GameRow]:
        task, pairing = tasks[index]
        return lambda number: play_task(task, batch.players[pairing], settings,
                                        agents.slot(number), outputs[index])

    threads = agents.threads(settings.concurrency)
    return threads.hand([job(index) for index in range(len(tasks))], stop), outputs


def play_batch(settings: GameSettings, batch: GameBatch,
               agents: AgentCache = _WORKER_AGENTS) -> BatchResult:
    """Play a batch of games in a worker, by default with the hosts of this process, and
    return it whole."""
    ignore_interrupts()
    *_, whole = play_steps(settings, batch, agents)
    assert whole is not None
    return whole
