"""What a worker does: play the games of a batch with agents built once per process.

Agents are built from their spec strings on first use and reused for every game the process
plays, so an agent must not let one game influence the next (reset in ``new_game``).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from arena.agent import Agent
from arena.board import Position, Rules
from arena.game import play_game
from arena.notation import parse_moves, play_moves
from arena.plan import GameSettings, GameTask, game_seed
from arena.records import GameRow
from arena.registry import parse_spec


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
