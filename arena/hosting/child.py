"""The child process of a ``ProcessHost``: builds one agent and answers the host's requests.

Run as ``python -m arena.hosting.child READ_FD WRITE_FD``. Requests and replies are
pickled tuples on two pipes; the agent's prints (stdout and stderr) go to the file the host
gave the process as its stdout, never to the pipes. Every exception an agent raises, of any
kind, is sent back as an error (a ``Disqualified`` as a disqualification); the process
ignores Ctrl-C (its host decides). It dies with its host's process through the watchdog of
its process group (``arena.hosting.supervised``).
"""

from __future__ import annotations

import gc
import signal
import sys
import time
from contextlib import suppress
from functools import cache
from multiprocessing.connection import Connection
from typing import Any

import numpy as np

from arena.hosting.base import BuildFault, agent_fault, build_fault, traceback_text
from arena.protocol.agent import Agent, GameStart, as_choice, start_game, traits_of
from arena.protocol.registry import parse_spec
from arena.rules.board import Position, Rules
from arena.rules.results import Termination

FAULT_REPLIES = {Termination.AGENT_ERROR: "error", Termination.DISQUALIFIED: "disqualified"}
"""The reply sent for what the agent raised, by the forfeit it is (``agent_fault``)."""


@cache
def _rules(rows: int, cols: int, connect: int) -> Rules:
    return Rules(rows, cols, connect)


class ChildLoop:
    """The child's side of its host's requests: the agent of this process and the game it
    plays."""

    def __init__(self) -> None:
        self.agent: Agent | None = None
        self.rules: Rules | None = None
        self.warm: set[Rules] = set()

    def handle(self, request: tuple[Any, ...]) -> tuple[Any, ...]:
        """Answer one request (build, game, move) with ("ok", ...)."""
        kind = request[0]
        if kind == "build":
            try:
                self.agent = parse_spec(request[1]).build()
            except BaseException as error:  # noqa: BLE001 - a constructor may raise anything
                fault = build_fault(error)
                if not isinstance(fault, BuildFault):  # a spec error's traceback is the arena's
                    sys.stderr.write(traceback_text(error))
                return ("unbuilt", str(fault), isinstance(fault, BuildFault))
            return ("ok", traits_of(self.agent))
        agent = self.agent
        if agent is None:
            raise RuntimeError(f"request {kind!r} before the agent was built")
        if kind == "game":
            game: GameStart = request[1]
            self.rules = _rules(game.rules.rows, game.rules.cols, game.rules.connect)
            if self.rules not in self.warm:
                warm_up = getattr(agent, "warm_up", None)
                if warm_up is not None:
                    warm_up(self.rules)
                self.warm.add(self.rules)
            start_game(agent, game)
            return ("ok",)
        if kind == "move":
            _, current, mask, won, state = request
            assert self.rules is not None
            rng = np.random.Generator(np.random.PCG64())
            rng.bit_generator.state = state
            gc.disable()  # as in every host: no collection while a move is timed
            began = time.perf_counter()
            try:
                answer = agent.choose(Position(self.rules, current, mask, won), rng)
            finally:
                seconds = time.perf_counter() - began
                gc.enable()
            try:
                choice = as_choice(answer)
            except TypeError as error:
                return ("illegal", str(error), seconds)
            return ("ok", choice, seconds, rng.bit_generator.state)
        raise RuntimeError(f"unknown request {kind!r}")

    def close(self) -> None:
        """Call the agent's close(), if any."""
        close = getattr(self.agent, "close", None)
        if close is not None:
            close()


Session = ChildLoop
"""The earlier name of ``ChildLoop`` (a session is a command's record in meta.json)."""


def serve(reader: Connection, writer: Connection) -> None:
    """Answer requests until the host sends ("close",) or goes away."""
    loop = ChildLoop()
    while True:
        try:
            request = reader.recv()
        except (EOFError, OSError):
            break
        if request[0] == "close":
            break
        try:
            reply = loop.handle(request)
        except BaseException as error:  # noqa: BLE001 - anything the agent raises is its fault
            sys.stderr.write(traceback_text(error))  # to the run's log
            fault = agent_fault(error)
            reply = (FAULT_REPLIES[fault.termination], str(fault))
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
        try:
            writer.send(reply)
        except (OSError, ValueError):
            break
    with suppress(BaseException):  # nothing is left to report a failing close() to
        loop.close()


def main(argv: list[str]) -> None:
    """Serve the host on the pipes named by ``argv``."""
    read_fd, write_fd = (int(arg) for arg in argv[1:3])
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    serve(Connection(read_fd, writable=False), Connection(write_fd, readable=False))


if __name__ == "__main__":
    main(sys.argv)
