"""Agents in a child process of their own: preempted on time, isolated from crashes."""

from __future__ import annotations

import math
import os
import subprocess
import sys
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from arena.hosting.base import (
    BUILD_BOUND,
    DEFAULT_MOVE_BOUND,
    AgentFault,
    BuildFault,
    StartedOnDemand,
)
from arena.hosting.child import FAULT_REPLIES
from arena.hosting.supervised import ChildProcess
from arena.protocol.agent import Choice, GameStart
from arena.rules.board import Position
from arena.rules.results import Termination
from arena.system.processes import child_environment

CLOSE_SECONDS = 1.0
"""How long a child may take to close its agent before it is killed."""
REPLY_FAULTS = {reply: termination for termination, reply in FAULT_REPLIES.items()}
"""The forfeit each of the child's fault replies stands for."""

class ProcessHost(StartedOnDemand):
    """Hosts an agent in a child process (``arena.hosting.child``).

    A request not answered within its bound kills the child: a move is then a
    ``time_forfeit``, and the next game starts a fresh child. A child that dies is an
    ``agent_crash``, with its exit status and the last line it printed. A constructor that
    fails breaks the host for good: every later game of the agent forfeits with that reason.
    """

    def __init__(self, spec: str, move_bound: float | None = None):
        self.spec = spec
        self.move_bound = DEFAULT_MOVE_BOUND if move_bound is None else move_bound
        self._interrupted = False
        self._child = ChildProcess()
        self._reader: Connection | None = None
        self._writer: Connection | None = None
        self._broken: AgentFault | None = None

    def start(self) -> None:
        """Start the child and build the agent in it, unless that is done."""
        if self._child.process is not None:
            return
        if self._broken is not None:
            raise self._broken.with_traceback(None)
        self._spawn()
        try:
            reply = self._request(("build", self.spec), max(BUILD_BOUND, self.move_bound),
                                  "building it")
        except AgentFault as fault:
            self._stop()
            if self._interrupted:  # not the agent's fault: the next start tries again
                raise
            self._broken = AgentFault(Termination.AGENT_ERROR,
                                      f"could not build the agent: {fault}")
            raise self._broken from None
        if reply[0] == "unbuilt":  # the child's message, a spec error's standing alone
            _, message, spec_error = reply
            self._broken = (BuildFault(message) if spec_error
                            else AgentFault(Termination.AGENT_ERROR, message))
        elif reply[1].interactive:
            self._broken = AgentFault(Termination.AGENT_ERROR,
                                      "an interactive agent cannot run in a child process")
        if self._broken is not None:
            self._stop()
            raise self._broken
        self._traits = reply[1]

    def new_game(self, game: GameStart) -> None:
        """Tell the agent of a game (starting a fresh child after a kill or a crash)."""
        self.start()
        self._request(("game", game), self.move_bound, "starting a game")

    def move(self, position: Position, rng: np.random.Generator,
             bound: float | None) -> tuple[int | Choice, float]:
        """Ask for a move; not back within ``bound`` seconds, the child is killed."""
        state = rng.bit_generator.state
        reply = self._request(("move", position.current, position.mask, position.won, state),
                              self.move_bound if bound is None else bound, "a move")
        if reply[0] == "illegal":
            raise AgentFault(Termination.ILLEGAL_MOVE, reply[1])
        _, choice, seconds, state = reply
        rng.bit_generator.state = state
        return choice, seconds

    def take_output(self) -> str:
        """What the agent printed since the last call (at most MAX_OUTPUT bytes of it)."""
        return self._child.take_output()

    def close(self) -> None:
        """Ask the child to close its agent and end; kill it if it does not."""
        process = self._child.process
        if process is not None and self._writer is not None:
            try:
                self._writer.send(("close",))
                process.wait(CLOSE_SECONDS)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                pass
        self._stop()
        self._child.close()

    def interrupt(self) -> None:
        """From another thread: kill the child, so that the request it is answering fails at
        once (an ``agent_crash``); every request fails until ``resume``."""
        self._interrupted = True
        self._child.kill()

    def resume(self) -> None:
        """Take requests again after ``interrupt`` (a new child starts with the next game)."""
        self._interrupted = False

    def abandon(self) -> None:
        """Forget the child without touching it (in a forked copy of the host's process)."""
        for connection in (self._reader, self._writer):
            if connection is not None:
                connection.close()
        self._reader = self._writer = None
        self._child.abandon()

    def _spawn(self) -> None:
        child_read, host_write = os.pipe()
        host_read, child_write = os.pipe()
        env = child_environment()
        try:
            self._child.spawn(
                [sys.executable, "-m", "arena.hosting.child", str(child_read), str(child_write)],
                pipes=False, pass_fds=(child_read, child_write), env=env)
        finally:
            os.close(child_read)
            os.close(child_write)
        self._reader = Connection(host_read, writable=False)
        self._writer = Connection(host_write, readable=False)

    def _request(self, request: tuple[Any, ...], bound: float, what: str) -> tuple[Any, ...]:
        """Send a request and wait for its reply, at most ``bound`` seconds."""
        if self._interrupted:
            self._stop()
            raise AgentFault(Termination.AGENT_CRASH, "the agent's process was interrupted")
        if self._reader is None or self._writer is None:
            raise AgentFault(Termination.AGENT_CRASH, "the agent's process is not running")
        try:
            self._writer.send(request)
            answered = self._reader.poll(None if math.isinf(bound) else bound)
            reply = self._reader.recv() if answered else None
        except (EOFError, OSError):
            raise self._crashed() from None
        if reply is None:
            self._stop()
            kind = Termination.TIME_FORFEIT if request[0] == "move" else Termination.AGENT_ERROR
            raise AgentFault(kind, f"no answer within {bound:.3g} s to {what}; the agent's "
                                   "process was stopped")
        if reply[0] in REPLY_FAULTS:
            raise AgentFault(REPLY_FAULTS[reply[0]], reply[1])
        return reply

    def _crashed(self) -> AgentFault:
        """The fault of a child that died: how it ended, and the last line it printed."""
        ending = self._child.ending()
        self._stop()
        return AgentFault(Termination.AGENT_CRASH, f"the agent's process {ending}")

    def _stop(self) -> None:
        """Kill the child (if any) and close the pipes."""
        self._child.stop()
        for connection in (self._reader, self._writer):
            if connection is not None:
                connection.close()
        self._reader = self._writer = None
