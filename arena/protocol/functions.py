"""Functions as agents: ``f(position, rng) -> column`` and Kaggle ConnectX's
``agent(observation, configuration) -> column``.

A Kaggle function is told every field Kaggle gives, filled from the game and the agent's
limits: the observation's ``board`` (rows top to bottom, 0 empty, 1 and 2 the players),
``mark``, ``step`` and ``remainingOverageTime``; the configuration's ``rows``, ``columns``,
``inarow``, ``actTimeout``, ``timeout``, ``agentTimeout``, ``episodeSteps`` and
``runTimeout``. Kaggle agents draw from Python's global ``random`` (and numpy's): both are
seeded from the game's Generator before every call, so a run gives the same games for any
number of workers. Their answer is judged as every agent's: a column is an int or a numpy
integer, and anything else (a string, None, a float even when whole) is an illegal move.
"""

from __future__ import annotations

import inspect
import random
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from arena.protocol.agent import Agent, BaseAgent, Choice, GameStart, game_clock, traits_of
from arena.rules.board import Position
from arena.rules.notation import to_flat

OBSERVATION_NAMES = ("observation", "obs")
DEFAULT_ACT_TIMEOUT = 2.0  # Kaggle's seconds per move
DEFAULT_OVERAGE = 60.0  # Kaggle's overage seconds per episode
EPISODE_STEPS = 1000
RUN_TIMEOUT = 1200


class FunctionAgent(BaseAgent):
    """Wraps a plain function ``f(position, rng) -> column`` as an agent."""

    def __init__(self, function: Callable[[Position, np.random.Generator], int | Choice]):
        self.function = function

    def choose(self, position: Position, rng: np.random.Generator) -> int | Choice:
        """Ask the wrapped function."""
        return self.function(position, rng)


class Struct(dict[str, Any]):
    """A dict whose keys are also attributes, as Kaggle's observations and configurations."""

    def __getattr__(self, name: str) -> Any:
        try:
            return self[name]
        except KeyError:
            raise AttributeError(name) from None


def is_kaggle_function(function: Callable[..., Any]) -> bool:
    """True for a function whose first parameter is Kaggle's ``observation`` (or ``obs``)."""
    try:
        parameters = list(inspect.signature(function).parameters)
    except (TypeError, ValueError):
        return False
    return len(parameters) == 2 and parameters[0] in OBSERVATION_NAMES


class KaggleFunctionAgent(BaseAgent):
    """A Kaggle ConnectX function ``agent(observation, configuration)`` as an agent.

    It is told the limits the arena enforces: ``actTimeout`` is its time per move and
    ``remainingOverageTime`` what is left of its time bank (0 without one). A run that gives
    it no time limit plays it under Kaggle's own (``default_clock``).
    """

    default_clock = (DEFAULT_ACT_TIMEOUT, DEFAULT_OVERAGE)

    def __init__(self, function: Callable[..., Any]):
        self.function = function
        self.configuration = Struct()
        self.overage = DEFAULT_OVERAGE

    def new_game(self, game: GameStart) -> None:
        """Fill the configuration for this game and the agent's limits."""
        super().new_game(game)
        limit, bank = game_clock(game.limit, game.time_bank, traits_of(self))
        act = limit.time
        self.overage = bank or 0.0
        rules = game.rules
        self.configuration = Struct(
            rows=rules.rows, columns=rules.cols, inarow=rules.connect, actTimeout=act,
            timeout=act, agentTimeout=self.overage, episodeSteps=EPISODE_STEPS,
            runTimeout=RUN_TIMEOUT)

    def choose(self, position: Position, rng: np.random.Generator) -> Any:
        """The function's answer, as it gave it (the host judges it), with Python's and
        numpy's global generators seeded from ``rng``."""
        seed = int(rng.integers(2**32))
        random.seed(seed)
        np.random.seed(seed)
        observation = Struct(board=to_flat(position), mark=position.side_to_move,
                             step=position.plies, remainingOverageTime=self.overage)
        began = time.perf_counter()
        answer = self.function(observation, self.configuration)
        limit = self.configuration.actTimeout
        self.overage = max(0.0, self.overage - max(0.0, time.perf_counter() - began - limit))
        return answer


def agent_of_function(function: Callable[..., Any]) -> Agent:
    """The agent a function plays: a Kaggle ConnectX function, or ``f(position, rng)``."""
    if is_kaggle_function(function):
        return KaggleFunctionAgent(function)
    return FunctionAgent(function)
