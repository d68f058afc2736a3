"""Agents called in the worker's own process: no overhead, every exception caught."""

from __future__ import annotations

import io
import sys
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import TextIO, TypeVar

import numpy as np

from arena.hosting.base import (
    AgentFault,
    BuildFault,
    Host,
    agent_fault,
    build_fault,
    traceback_text,
)
from arena.protocol.agent import (
    Agent,
    Choice,
    GameAbandoned,
    GameStart,
    Traits,
    start_game,
    traits_of,
)
from arena.rules.board import Position, Rules
from arena.system.interrupts import from_user

T = TypeVar("T")


class InlineHost(Host):
    """Hosts an agent in this process.

    Everything an agent raises, ``SystemExit`` and ``KeyboardInterrupt`` included, is an
    ``agent_error`` (a ``Disqualified`` is ``disqualified``; only the user's own Ctrl-C
    passes), and its traceback goes to the run's log (``take_output``). A move cannot be
    preempted: it is timed when it returns. With ``capture_output`` what the agent prints is
    kept for the run's log too instead of reaching the terminal (interactive agents always
    print).
    """

    def __init__(self, spec: str, factory: Callable[[], Agent], capture_output: bool = False):
        self.spec = spec
        self._factory = factory
        self._capture = capture_output
        self._agent: Agent | None = None
        self._traits: Traits | None = None
        self._broken: AgentFault | None = None
        self._warm: set[Rules] = set()
        self._output = io.StringIO()

    @classmethod
    def of(cls, agent: Agent, spec: str = "") -> InlineHost:
        """A host for an agent already built."""
        host = cls(spec or type(agent).__name__, lambda: agent)
        host._agent = agent
        return host

    @property
    def agent(self) -> Agent:
        """The agent, built on first use."""
        self.start()
        assert self._agent is not None
        return self._agent

    @property
    def traits(self) -> Traits:
        """What the agent declares (built if needed)."""
        if self._traits is None:
            self._traits = traits_of(self.agent)
        return self._traits

    def start(self) -> None:
        """Build the agent unless built; a constructor that fails breaks the host for good."""
        if self._agent is not None:
            return
        if self._broken is not None:
            raise self._broken.with_traceback(None)
        try:
            self._agent = self._call(self._factory, building=True)
        except AgentFault as fault:
            self._broken = fault
            raise

    def new_game(self, game: GameStart) -> None:
        """Warm the agent up for this board (untimed), then tell it of the game."""
        agent = self.agent
        if game.rules not in self._warm:
            warm_up = getattr(agent, "warm_up", None)
            if warm_up is not None:
                self._call(lambda: warm_up(game.rules))
            self._warm.add(game.rules)
        self._call(lambda: start_game(agent, game))

    def move(self, position: Position, rng: np.random.Generator,
             bound: float | None) -> tuple[int | Choice, float]:
        """Ask for a move; ``bound`` is not enforced here (the game loop times the answer, with
        garbage collection held off: see ``arena.runs.playing.game.play_game``)."""
        agent = self._agent
        assert agent is not None, "InlineHost.move before start"
        began = time.perf_counter()
        if self._capture:
            answer = self._call(lambda: agent.choose(position, rng))
        else:
            try:
                answer = agent.choose(position, rng)
            except BaseException as error:  # noqa: BLE001 - anything it raises is its forfeit
                raise self._fault(error) from None
        return answer, time.perf_counter() - began

    def take_output(self) -> str:
        """What the agent printed since the last call (when captured)."""
        text = self._output.getvalue()
        if text:
            self._output = io.StringIO()
        return text

    def close(self) -> None:
        """Call the agent's ``close()``, if it has one, and forget the agent."""
        agent, self._agent, self._traits = self._agent, None, None
        self._warm.clear()
        close = getattr(agent, "close", None)
        if close is not None:
            with suppress(AgentFault):  # a failing close() costs nothing: the games are over
                self._call(close)

    def _call(self, call: Callable[[], T], building: bool = False) -> T:
        """Run agent code: its prints captured if asked, its exceptions made AgentFaults."""
        capture = self._capture and not getattr(self._agent, "interactive", False)
        if capture and threading.current_thread() is not threading.main_thread():
            with routed_output(self._output):
                try:
                    return call()
                except BaseException as error:  # noqa: BLE001 - anything it raises is its forfeit
                    raise self._fault(error, building) from None
        streams = sys.stdout, sys.stderr
        if capture:
            sys.stdout = sys.stderr = self._output
        try:
            return call()
        except BaseException as error:  # noqa: BLE001 - anything it raises is its forfeit
            raise self._fault(error, building) from None
        finally:
            if capture:
                sys.stdout, sys.stderr = streams

    def _fault(self, error: BaseException, building: bool = False) -> AgentFault:
        """The forfeit for what the agent raised (``building`` it: see ``build_fault``), its
        traceback kept for the log; the user's Ctrl-C and a person quitting the game are
        raised again instead, since they stop the game for real."""
        if isinstance(error, GameAbandoned) or from_user(error):
            raise error
        fault = build_fault(error) if building else agent_fault(error)
        if not isinstance(fault, BuildFault):  # a spec error's traceback is the arena's
            self._output.write(traceback_text(error))
        return fault


class _Routes(threading.local):
    """Where this thread's prints go (None: the streams the routing replaced)."""

    output: io.StringIO | None = None


_ROUTES = _Routes()
_ROUTING = threading.Lock()
_routed: list[tuple[TextIO, TextIO]] = []  # the streams replaced, while threads are routed
_routing_threads = 0


class _RoutedStream(io.TextIOBase):
    """sys.stdout or sys.stderr while agents play in threads (``--concurrency``): each
    thread's text to the output of the host it is calling, other threads' where it went."""

    def __init__(self, which: int):
        self._which = which

    def _target(self) -> TextIO | io.StringIO:
        output = _ROUTES.output
        return output if output is not None else _routed[-1][self._which]

    def write(self, text: str) -> int:
        """Write to this thread's target."""
        return self._target().write(text)

    def flush(self) -> None:
        """Flush this thread's target."""
        self._target().flush()

    def writable(self) -> bool:
        """Text can be written."""
        return True


@contextmanager
def routed_output(output: io.StringIO) -> Iterator[None]:
    """While the block runs, what this thread prints goes to ``output`` (other threads'
    prints are untouched); sys.stdout and sys.stderr are routing streams while any thread
    is in such a block."""
    global _routing_threads
    with _ROUTING:
        if _routing_threads == 0:
            _routed.append((sys.stdout, sys.stderr))
            sys.stdout, sys.stderr = _RoutedStream(0), _RoutedStream(1)
        _routing_threads += 1
    _ROUTES.output = output
    try:
        yield
    finally:
        _ROUTES.output = None
        with _ROUTING:
            _routing_threads -= 1
            if _routing_threads == 0:
                sys.stdout, sys.stderr = _routed.pop()
