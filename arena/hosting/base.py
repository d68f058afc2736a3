"""What every host provides, and the faults it reports.

Every host times an agent's move around its ``choose`` alone, with garbage collection held off
meanwhile (by the game loop for agents in this process, by the child for the others; as
``arena bench`` measures), so that a collection of everyone's garbage is never charged to the
agent that happened to trigger it.
"""

from __future__ import annotations

import traceback
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Literal

import numpy as np

from arena.protocol.agent import Choice, Disqualified, GameStart, Traits, as_choice
from arena.rules.board import Position
from arena.rules.errors import AgentSpecError, describe_error
from arena.rules.results import Termination

Hosting = Literal["auto", "inline", "process"]
HOSTINGS: tuple[Hosting, ...] = ("auto", "inline", "process")

GRACE_SECONDS = 0.1
"""A move may overrun its time limit (and time bank) by this much before it is forfeited."""

TRACEBACK_FRAMES = 5
"""Frames of an agent's traceback kept in the run's log (the innermost ones)."""
HOSTING_DIRECTORY = str(Path(__file__).parent)
"""Where the hosts' frames come from (left out of agents' tracebacks)."""

DEFAULT_MOVE_BOUND = 60.0
"""Without a time limit, an agent in a child process is stopped after this many seconds on
one move (or on being told of a game), so that no run can hang for ever."""
BUILD_BOUND = 120.0
"""An agent in a child process, or an engine, is stopped after this many seconds on being
built or started (imports, weights, books), or after its bound on a move if that is longer: a
slow start is not cut by a short bound on moves."""

class AgentFault(Exception):
    """An agent failed: the game is lost for it with ``termination`` and this message."""

    def __init__(self, termination: Termination, message: str):
        super().__init__(message)
        self.termination = termination

    def prefixed(self, prefix: str) -> str:
        """The message after what failed or whose it is: ``new_game: ...``."""
        return f"{prefix}: {self}"


class BuildFault(AgentFault):
    """A spec that could not be built into an agent (an AgentSpecError while building): the
    message names the spec and the one thing wrong, and stands alone wherever it is told."""

    def __init__(self, message: str):
        super().__init__(Termination.AGENT_ERROR, message)

    def prefixed(self, prefix: str) -> str:
        """The message alone: it names the spec already."""
        return str(self)


def traceback_text(error: BaseException) -> str:
    """The traceback of what an agent raised as Python prints it, with its innermost
    TRACEBACK_FRAMES frames and without the hosts' own, for the run's log."""
    frames = error.__traceback__
    while (frames is not None and frames.tb_next is not None
           and frames.tb_frame.f_code.co_filename.startswith(HOSTING_DIRECTORY)):
        frames = frames.tb_next
    return "".join(traceback.format_exception(type(error), error, frames,
                                              limit=-TRACEBACK_FRAMES))


def agent_fault(error: BaseException) -> AgentFault:
    """The forfeit for what an agent raised, with its type and message: ``disqualified`` for
    a ``Disqualified``, else ``agent_error``."""
    termination = (Termination.DISQUALIFIED if isinstance(error, Disqualified)
                   else Termination.AGENT_ERROR)
    return AgentFault(termination, describe_error(error))


def build_fault(error: BaseException) -> AgentFault:
    """The fault of an agent that could not be built: a spec error as it is (a BuildFault),
    anything else ``could not build the agent: TYPE: message``."""
    if isinstance(error, AgentSpecError):
        return BuildFault(str(error))
    return AgentFault(Termination.AGENT_ERROR, f"could not build the agent: "
                                               f"{describe_error(error)}")


class Host(ABC):
    """Runs one agent: built on ``start``, told of each game, asked for moves. (A base class,
    not a protocol: ``isinstance`` on it is cheap enough for every game.)"""

    spec: str

    @property
    @abstractmethod
    def traits(self) -> Traits:
        """What the agent declares (builds it if needed)."""

    @abstractmethod
    def start(self) -> None:
        """Build the agent if it is not built yet; AgentFault if it cannot be."""

    @abstractmethod
    def new_game(self, game: GameStart) -> None:
        """Tell the agent a game begins; AgentFault if it fails."""

    @abstractmethod
    def move(self, position: Position, rng: np.random.Generator,
             bound: float | None) -> tuple[int | Choice, float]:
        """The agent's answer and the seconds it thought; AgentFault if it fails or, where
        the host can stop it, is not back within ``bound`` seconds."""

    @abstractmethod
    def take_output(self) -> str:
        """What the agent printed since the last call."""

    @abstractmethod
    def close(self) -> None:
        """Release the agent (and its process); the host can be started again."""


class StartedOnDemand(Host):
    """A host whose agent declares its traits when it starts (in a process of its own)."""

    _traits: Traits | None = None

    @property
    def traits(self) -> Traits:
        """What the agent declares (starts it if it never started)."""
        if self._traits is None:
            self.start()
        assert self._traits is not None
        return self._traits


def ask_choice(host: Host, position: Position, rng: np.random.Generator,
               bound: float | None = None) -> tuple[Choice, float]:
    """The host's answer as a Choice, and the seconds the agent thought; AgentFault when it
    fails, and ``illegal_move`` when its answer is not a column (for callers outside the game
    loop, which has its own faster path)."""
    answer, seconds = host.move(position, rng, bound)
    try:
        return as_choice(answer), seconds
    except TypeError as error:
        raise AgentFault(Termination.ILLEGAL_MOVE, str(error)) from None
