"""Agents for the window and replay tests: one that sleeps, one that crashes, one that prints."""

from __future__ import annotations

import time

import numpy as np

from arena.protocol.agent import BaseAgent
from arena.rules.board import Position


class Sleeper(BaseAgent):
    """Sleeps ``seconds``, then plays the leftmost legal column."""

    def __init__(self, seconds: float = 60.0):
        self.seconds = seconds

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        time.sleep(self.seconds)
        return position.legal_moves()[0]


class Crasher(BaseAgent):
    """Raises on every move."""

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        raise RuntimeError("boom")


class Chatty(BaseAgent):
    """Prints a line on standard output, then plays the rightmost legal column."""

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        print("thinking out loud")
        return position.legal_moves()[-1]
