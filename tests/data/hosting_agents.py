"""Misbehaving agents for the hosting tests: each fails in one way a user's agent can."""

from __future__ import annotations

import ctypes
import gc
import itertools
import multiprocessing
import os
import sys
import time
from pathlib import Path

from arena.protocol.agent import BaseAgent, Disqualified


class Leftmost(BaseAgent):
    """Plays the leftmost legal column: a well-behaved opponent with predictable games."""

    def choose(self, position, rng):
        return position.legal_moves()[0]


class Hangs(BaseAgent):
    """Loops for ever on its first move."""

    def choose(self, position, rng):
        while True:
            pass


class HoldsGil(BaseAgent):
    """Loops for ever in native code that never lets go of the GIL (no thread of its
    process runs, no signal handler either) on its first move."""

    def choose(self, position, rng):
        return sum(itertools.repeat(1, 1 << 62))


class Segfaults(BaseAgent):
    """Crashes its process in native code (a read at address 0) on its first move."""

    def choose(self, position, rng):
        return ctypes.string_at(0)


class SegfaultsOnce(BaseAgent):
    """Plays a random column, but crashes its process in native code (a read at address 0) on
    the first move of its ``game``-th game in that process (counting from 1: the check before
    the run is not one), unless the file ``marker`` exists, which it writes first; with
    ``in_worker``, only in a worker process of the run."""

    def __init__(self, marker: str, game: int = 5, in_worker: bool = False):
        self.marker = Path(marker)
        self.crash_at = game
        self.in_worker = in_worker
        self.games = -1  # a forked worker's copy counts on from the check's game

    def new_game(self, game):
        super().new_game(game)
        self.games += 1

    def choose(self, position, rng):
        worker = multiprocessing.parent_process() is not None
        if self.games == self.crash_at and worker == self.in_worker and not self.marker.exists():
            self.marker.write_text("crashed")
            ctypes.string_at(0)
        return int(rng.choice(position.legal_moves()))


class NotesChildren(BaseAgent):
    """Plays the leftmost legal column; on its first move writes the command lines of its
    process's child processes to the file ``path``, one a line (arguments split by tabs)."""

    def __init__(self, path: str):
        self.path = Path(path)

    def choose(self, position, rng):
        if not self.path.exists():
            lines = []
            for entry in Path("/proc").glob("[0-9]*"):
                try:
                    parent = int((entry / "stat").read_text().rpartition(")")[2].split()[1])
                    if parent == os.getpid():
                        arguments = (entry / "cmdline").read_bytes().decode().split("\0")
                        lines.append(f"{entry.name}\t" + "\t".join(arguments[:-1]))
                except OSError:
                    continue
            self.path.write_text("".join(line + "\n" for line in lines))
        return position.legal_moves()[0]


class Sleeps(BaseAgent):
    """Sleeps ``seconds`` on every move (only on its first move with ``first_only``)."""

    def __init__(self, seconds: float = 3.0, first_only: bool = False):
        self.seconds = seconds
        self.first_only = first_only

    def choose(self, position, rng):
        if not self.first_only or position.plies < 2:
            time.sleep(self.seconds)
        return position.legal_moves()[0]


class Exits(BaseAgent):
    """Calls sys.exit(code) on its first move."""

    def __init__(self, code: int = 0):
        self.code = code

    def choose(self, position, rng):
        sys.exit(self.code)


class HardExits(BaseAgent):
    """Ends its process with os._exit(3) on its first move."""

    def choose(self, position, rng):
        os._exit(3)


class Interrupts(BaseAgent):
    """Raises KeyboardInterrupt itself, as if Ctrl-C were pressed."""

    def choose(self, position, rng):
        raise KeyboardInterrupt


class Disqualifies(BaseAgent):
    """Is disqualified by a rule of its own on its first move."""

    def choose(self, position, rng):
        raise Disqualified("it broke a rule of its own")


class BadConstructor(BaseAgent):
    """Cannot be built."""

    def __init__(self):
        raise RuntimeError("no weights file")


class BuildsOnce(BaseAgent):
    """Builds once (the check before the run); every later build fails, as in a worker
    whose machine lacks something."""

    def __init__(self, marker: str):
        path = Path(marker)
        if path.exists():
            raise RuntimeError("missing on this worker")
        path.write_text("built")

    def choose(self, position, rng):
        return position.legal_moves()[0]


class Answers(BaseAgent):
    """Answers ``answer`` to every move, as given: a column off the board, or not a column."""

    def __init__(self, answer: str = "7"):
        self.answer = int(answer) if answer.lstrip("-").isdigit() else answer

    def choose(self, position, rng):
        return self.answer


class FillsFirstColumn(BaseAgent):
    """Plays the leftmost column whether or not it is full."""

    def choose(self, position, rng):
        return 0


class Mutates(BaseAgent):
    """Changes the position it is handed (through the frozen dataclass), then plays."""

    def __init__(self, clear: bool = False):
        self.clear = clear

    def choose(self, position, rng):
        column = position.legal_moves()[0]
        object.__setattr__(position, "mask", 0)
        if self.clear:
            object.__setattr__(position, "current", 0)
        return column


class Chatty(BaseAgent):
    """Prints a line on every move, to stdout and stderr."""

    def choose(self, position, rng):
        print(f"thinking about ply {position.plies}")
        print("a warning", file=sys.stderr)
        return position.legal_moves()[0]


class SlowWarmUp(BaseAgent):
    """Takes half a second to warm up, then plays at once."""

    def warm_up(self, rules):
        time.sleep(0.5)

    def choose(self, position, rng):
        return position.legal_moves()[0]


class Remembers(BaseAgent):
    """Writes its pid to ``directory`` when built, and a file when closed."""

    supported_limits = frozenset({"time", "depth"})

    def __init__(self, directory: str):
        self.directory = Path(directory)
        (self.directory / f"built-{os.getpid()}").write_text(str(os.getpid()))

    def choose(self, position, rng):
        depth = self.game.limit.depth
        if depth is not None and depth != 3:
            return -1  # only the depth it was given is right
        return position.legal_moves()[0]

    def close(self):
        (self.directory / f"closed-{os.getpid()}").write_text("closed")


class DiesInWorkers(BaseAgent):
    """Kills the worker process that runs it (not the process running the command)."""

    def choose(self, position, rng):
        if multiprocessing.parent_process() is not None:
            os._exit(4)
        return position.legal_moves()[0]


class ChecksCollection(BaseAgent):
    """Raises if garbage collection could run while its move is timed."""

    def choose(self, position, rng):
        if gc.isenabled():
            raise RuntimeError("garbage collection is on while the move is timed")
        return position.legal_moves()[0]
