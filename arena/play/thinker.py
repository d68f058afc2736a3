"""The agent thinks in a child process, so that a long search never freezes the window or
the terminal, and Ctrl-C ends it at once.

A thread alone would not do: pure-Python agents hold the GIL for the whole search (the
compiled kernels release it, other agents may not). The agent runs in the hosting layer's
child process (``ProcessHost``), and a background thread waits for its answer. A question no
longer wanted (the person took moves back, started a new game, closed the window or pressed
Ctrl-C) is abandoned by killing that process; a fresh one starts with the next question. What
the agent prints goes to standard error.
"""

from __future__ import annotations

import math
import sys
import threading
from dataclasses import dataclass

import numpy as np

from arena.hosting.process import ProcessHost
from arena.play.human_game import AgentReply, ask_agent, tell_new_game
from arena.protocol.agent import Limit
from arena.rules.board import Position
from arena.runs.playing.game import Clock


@dataclass(frozen=True)
class Question:
    """What the agent is asked: the position, the agent's player and the game's epoch
    (a new epoch tells the agent that a new game began)."""

    position: Position
    player: int
    epoch: int


class AgentProcess:
    """An agent, built from ``spec`` in a child process, asked one position at a time.

    ``ask`` returns at once; ``poll`` gives the reply once it has come. ``seed`` seeds the
    agent's generator. ``limit`` (None: none) and ``time_bank`` are its limit per move and its
    bank for each game, enforced as in a match (a Kaggle agent without a time limit plays under
    Kaggle's own); without a time limit a person waits as long as it thinks.
    """

    def __init__(self, spec: str, seed: np.random.SeedSequence, limit: Limit | None = None,
                 time_bank: float | None = None):
        self.host = ProcessHost(spec, move_bound=math.inf)
        self.rng = np.random.default_rng(seed)
        self.limit = limit or Limit()
        self.time_bank = time_bank
        self._clock = Clock(self.limit, time_bank)
        self._told: int | None = None  # the epoch the agent was last told of
        self._thread: threading.Thread | None = None
        self._reply: AgentReply | None = None

    @property
    def thinking(self) -> bool:
        """True while a question is unanswered."""
        return self._thread is not None

    def ask(self, question: Question) -> None:
        """Start thinking about ``question``; the reply comes by ``poll``."""
        self.cancel()
        self._reply = None
        self._thread = threading.Thread(target=self._think, args=(question,), daemon=True,
                                        name="arena agent")
        self._thread.start()

    def poll(self) -> AgentReply | None:
        """The reply to the question asked, once it has come; else None."""
        if self._thread is None or self._thread.is_alive():
            return None
        self._thread = None
        return self._reply

    def cancel(self) -> None:
        """Abandon the question being thought about: the process that thinks is ended."""
        if self._thread is None:
            return
        self.host.interrupt()
        self._thread.join()
        self._thread = None
        self._told = None  # the next question goes to a fresh process
        self.host.resume()

    def close(self) -> None:
        """Abandon any question and end the agent's process."""
        self.cancel()
        self.host.close()

    def _think(self, question: Question) -> None:
        """In the background thread: tell the agent of a new game if need be, then ask."""
        position = question.position
        reply = None
        if question.epoch != self._told:
            reply, self._clock = tell_new_game(self.host, position.rules, question.player,
                                               self.limit, self.time_bank)
            self._told = question.epoch
        reply = reply or ask_agent(self.host, position, self.rng, self._clock)
        if reply.column is None:
            self._told = None  # its process may be gone: tell the next one of the game
        sys.stderr.write(self.host.take_output())
        self._reply = reply
