"""Kaggle ConnectX agents as arena agents.

A ConnectX agent is a function ``agent(observation, configuration) -> column``. ``KaggleAgent``
wraps one: Kaggle's own ``random`` and ``negamax`` (spec ``kaggle:random``, ``kaggle:negamax``;
they need kaggle-environments), the last callable of a submission file, as Kaggle loads it
(``kaggle:path/to/main.py``), or any function of that signature (``./main.py:my_agent``).

Every field Kaggle gives is filled from the game and the agent's limits: the observation's
``board`` (rows top to bottom, 0 empty, 1 and 2 the players), ``mark``, ``step`` and
``remainingOverageTime``; the configuration's ``rows``, ``columns``, ``inarow``,
``actTimeout``, ``timeout``, ``agentTimeout``, ``episodeSteps`` and ``runTimeout``. Kaggle
agents draw from Python's global ``random`` (and numpy's): both are seeded from the game's
Generator before every call, so a run gives the same games for any number of workers.
"""

from __future__ import annotations

import inspect
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np

from arena.protocol.agent import BaseAgent, GameStart
from arena.rules.board import Position
from arena.rules.errors import AgentSpecError
from arena.rules.notation import to_flat

PREFIX = "kaggle"
BUILT_IN = ("random", "negamax")
OBSERVATION_NAMES = ("observation", "obs")
DEFAULT_ACT_TIMEOUT = 2.0  # Kaggle's seconds per move
DEFAULT_OVERAGE = 60.0  # Kaggle's overage seconds per episode
EPISODE_STEPS = 1000
RUN_TIMEOUT = 1200


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


def last_callable(path: Path) -> Callable[..., Any]:
    """The last callable a submission file defines: the function Kaggle would play."""
    try:
        source = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise AgentSpecError(f"Kaggle submission {str(path)!r}: cannot read it: {error}") from None
    namespace: dict[str, Any] = {}
    sys.path.append(str(path.resolve().parent))  # as Kaggle does: it may import its neighbours
    try:
        exec(compile(source, str(path), "exec"), namespace)
    finally:
        sys.path.pop()
    found = [value for value in namespace.values() if callable(value)]
    if not found:
        raise AgentSpecError(f"Kaggle submission {str(path)!r} defines no function")
    return found[-1]


def kaggle_builtin(name: str) -> Callable[..., Any]:
    """Kaggle's own ConnectX agent ``name`` (random or negamax)."""
    try:
        from kaggle_environments.envs.connectx.connectx import agents
    except ImportError:
        raise AgentSpecError(f"kaggle:{name} needs kaggle-environments: "
                             "pip install 'connect-four-arena[kaggle]'") from None
    return agents[name]


class KaggleAgent(BaseAgent):
    """A Kaggle ConnectX agent: Kaggle's ``random`` or ``negamax``, or the last function of a
    submission file."""

    def __init__(self, source: str = "", function: Callable[..., Any] | None = None):
        if function is None:
            if source in BUILT_IN:
                function = kaggle_builtin(source)
            elif source.endswith(".py"):
                function = last_callable(Path(source))
            else:
                raise AgentSpecError(f"kaggle:{source}: expected kaggle:random, kaggle:negamax "
                                     "or kaggle:PATH.py (a submission file)")
        self.function = function
        self.configuration = Struct()
        self.overage = DEFAULT_OVERAGE

    def new_game(self, game: GameStart) -> None:
        """Fill the configuration for this game and the agent's limits."""
        super().new_game(game)
        act = game.limit.time if game.limit.time is not None else DEFAULT_ACT_TIMEOUT
        self.overage = game.time_bank if game.time_bank is not None else DEFAULT_OVERAGE
        rules = game.rules
        self.configuration = Struct(
            rows=rules.rows, columns=rules.cols, inarow=rules.connect, actTimeout=act,
            timeout=act, agentTimeout=self.overage, episodeSteps=EPISODE_STEPS,
            runTimeout=RUN_TIMEOUT)

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        """Ask the function, with Python's and numpy's global generators seeded from ``rng``."""
        seed = int(rng.integers(2**32))
        random.seed(seed)
        np.random.seed(seed)
        observation = Struct(board=to_flat(position), mark=position.side_to_move,
                             step=position.plies, remainingOverageTime=self.overage)
        began = time.perf_counter()
        column = self.function(observation, self.configuration)
        limit = self.configuration.actTimeout
        self.overage = max(0.0, self.overage - max(0.0, time.perf_counter() - began - limit))
        return int(column)
