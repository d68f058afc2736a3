"""Functions as agents: ``f(position, rng) -> column`` and Kaggle ConnectX's
``agent(observation, configuration) -> column``.

A Kaggle function is called as Kaggle's evaluator calls it: with as many of (observation,
configuration) as its code takes positionally (``agent(obs)`` gets the observation alone), both
when it has no code of its own (a callable object). A function that cannot be called so is
refused when the agent is built, before any game.

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
from arena.rules.errors import AgentSpecError
from arena.rules.notation import to_flat

OBSERVATION_NAMES = ("observation", "obs")
KAGGLE_ARGUMENTS = ("observation", "configuration")
AGENT_FORMS = ("an agent is a class with choose(position, rng), a function f(position, rng) "
               "or Kaggle's agent(observation, configuration)")
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
    return bool(parameters) and parameters[0] in OBSERVATION_NAMES


def kaggle_argument_count(function: Callable[..., Any]) -> int:
    """How many of (observation, configuration) Kaggle's evaluator passes ``function``: its
    code's count of positional parameters (``__code__.co_argcount``, which counts a bound
    method's ``self``), at most two; both when it has no code (a callable object, a class)."""
    count = getattr(getattr(function, "__code__", None), "co_argcount", None)
    return len(KAGGLE_ARGUMENTS) if count is None else min(count, len(KAGGLE_ARGUMENTS))


def refused_call(function: Callable[..., Any], arguments: tuple[str, ...],
                 caller: str = "") -> str | None:
    """Why ``function``'s signature refuses a call with these positional ``arguments``
    (``name(params) cannot be called as [CALLER] name(arguments): reason``), or None when it
    accepts them or has no signature Python can read."""
    try:
        signature = inspect.signature(function)
    except (TypeError, ValueError):
        return None
    try:
        signature.bind(*arguments)
    except TypeError as error:
        name = getattr(function, "__name__", type(function).__name__)
        return (f"{name}{signature} cannot be called as {caller}{name}({', '.join(arguments)})"
                f": {error}")
    return None


class KaggleFunctionAgent(BaseAgent):
    """A Kaggle ConnectX function ``agent(observation, configuration)`` as an agent.

    It is told the limits the arena enforces: ``actTimeout`` is its time per move and
    ``remainingOverageTime`` what is left of its time bank (0 without one). A run that gives
    it no time limit plays it under Kaggle's own (``default_clock``).
    """

    default_clock = (DEFAULT_ACT_TIMEOUT, DEFAULT_OVERAGE)

    def __init__(self, function: Callable[..., Any], where: str = "Kaggle agent"):
        self.arguments = kaggle_argument_count(function)
        refused = refused_call(function, KAGGLE_ARGUMENTS[:self.arguments], "Kaggle calls it, ")
        if refused:
            raise AgentSpecError(f"{where}: {refused}")
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
        answer = self.function(*(observation, self.configuration)[:self.arguments])
        limit = self.configuration.actTimeout
        self.overage = max(0.0, self.overage - max(0.0, time.perf_counter() - began - limit))
        return answer


def agent_of_function(function: Callable[..., Any], where: str = "agent function") -> Agent:
    """The agent a function plays: a Kaggle ConnectX function (its first parameter is
    ``observation`` or ``obs``), or ``f(position, rng)``; AgentSpecError naming ``where`` for
    a function that cannot be called as either (``os:getcwd``)."""
    if is_kaggle_function(function):
        return KaggleFunctionAgent(function, where)
    refused = refused_call(function, ("position", "rng"))
    if refused:
        raise AgentSpecError(f"{where}: not an agent: {refused}; {AGENT_FORMS}")
    return FunctionAgent(function)
