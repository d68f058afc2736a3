"""A minimal engine of the arena's protocol for the tests; each script here changes one thing.

Every engine prints ``started PID`` on stderr when it starts, so that the tests can tell its
processes apart in agents.log (and check that none is left running).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence


def say(line: str) -> None:
    print(line, flush=True)


def leftmost(moves: str, rows: int, cols: int) -> int:
    """The leftmost column (1-based) that is not full."""
    heights = [0] * cols
    for digit in moves:
        heights[int(digit) - 1] += 1
    return next(col for col in range(cols) if heights[col] < rows) + 1


class Game:
    """What the engine knows when it is asked to move."""

    def __init__(self) -> None:
        self.rows, self.cols, self.connect = 6, 7, 4
        self.moves = ""
        self.go: list[str] = []
        self.moves_asked = 0  # by this process, over all its games
        self.options: dict[str, str] = {}


def serve(answer: Callable[[Game], str] | None = None,
          hello: Sequence[str] = ("name test engine",),
          newgame: Callable[[Game], str] = lambda game: "ready",
          quits: bool = True) -> None:
    """Answer the arena until ``quit`` (ignored unless ``quits``) or the end of input;
    ``answer(game)`` is the line printed after ``go`` (default: the leftmost column)."""
    print(f"started {os.getpid()}", file=sys.stderr, flush=True)
    game = Game()
    for line in sys.stdin:
        command, *args = line.split() or [""]
        if command == "arena":
            for declaration in hello:
                say(declaration)
            say("ready")
        elif command == "setoption":
            game.options[args[0]] = " ".join(args[1:])
        elif command == "board":
            game.rows, game.cols, game.connect = map(int, args)
        elif command == "newgame":
            say(newgame(game))
        elif command == "position":
            game.moves = args[0] if args else ""
        elif command == "go":
            game.go = args
            game.moves_asked += 1
            say(answer(game) if answer else f"move {leftmost(game.moves, game.rows, game.cols)}")
        elif command == "quit" and quits:
            return
