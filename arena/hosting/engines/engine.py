"""Engines: agents that are programs of their own, spoken to line by line, always supervised.

An ``EngineHost`` runs a program as an agent, with the guarantees of the ``ProcessHost``: it
is started once and reused for every game, told when a game starts, stopped at the move's
bound (a ``time_forfeit``), and a program that dies costs the game (an ``agent_crash``, with
its exit status and the last line of its stderr). Whatever goes wrong, the program is stopped
and started afresh for the next game. What it says is up to its *dialect*: the arena's own
line protocol (``arena.hosting.engines.line_protocol``, docs/engine-protocol.md) or the
native mode of Pascal Pons' solver (``arena.hosting.engines.pons``).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Sequence
from contextlib import suppress
from dataclasses import dataclass
from typing import Protocol, TypeVar

import numpy as np

from arena.hosting.base import (
    BUILD_BOUND,
    DEFAULT_MOVE_BOUND,
    GRACE_SECONDS,
    AgentFault,
    StartedOnDemand,
)
from arena.hosting.engines.channel import ChannelClosed, ChannelTimeout, LineChannel
from arena.hosting.supervised import MAX_OUTPUT, ChildProcess
from arena.protocol.agent import Choice, GameStart, Traits
from arena.rules.board import Position
from arena.rules.errors import MAX_MESSAGE
from arena.rules.notation import format_moves, play_moves, to_moves
from arena.rules.results import Termination

QUIT_SECONDS = 1.0
"""How long an engine may take to exit after ``quit`` before it is killed."""
SHOWN = 120
"""Characters of an engine's line quoted in a fault's message."""

T = TypeVar("T")


class ProtocolError(Exception):
    """The engine printed something it should not have at that point (the message quotes it)."""


class EngineRefused(Exception):
    """The engine said it cannot go on (``error ...``)."""


class BoardRefused(EngineRefused):
    """The engine cannot play on the game's board."""


class RefusedBoard(AgentFault):
    """The fault of an engine that cannot play on a board (an ``agent_error``)."""

    def __init__(self, message: str):
        super().__init__(Termination.AGENT_ERROR, message)


def quote(line: str) -> str:
    """A line the engine printed, quoted and shortened for a message."""
    return repr(line if len(line) <= SHOWN else line[:SHOWN - 3] + "...")


@dataclass(frozen=True)
class Program:
    """How to start a program: its arguments, working directory and options."""

    argv: tuple[str, ...]
    cwd: str | None = None
    options: tuple[tuple[str, str], ...] = ()

    @classmethod
    def of(cls, command: str, args: Sequence[str] = (), cwd: str | None = None,
           options: Sequence[tuple[str, str]] = ()) -> Program:
        """A program run as ``command args...``; a ``.py`` command runs with this Python."""
        interpreter = (sys.executable,) if command.endswith(".py") else ()
        return cls((*interpreter, command, *args), cwd, tuple(options))


@dataclass(frozen=True)
class Turn:
    """What a dialect needs to ask for a move: the position, the game, the clock."""

    position: Position
    moves: str
    """The position as a move string from the empty board (1 = leftmost column)."""
    game: GameStart
    bank: float | None
    """Seconds left in the time bank, when the game has one."""
    seed: int
    """A seed for the engine's randomness, drawn from the game's Generator."""


class Dialect(Protocol):
    """What a program is told, and how its answers are read; raises ProtocolError,
    EngineRefused, or the channel's ChannelClosed and ChannelTimeout."""

    def hello(self, talk: Talk, options: Sequence[tuple[str, str]]) -> Traits:
        """Greet a freshly started program (and set its options); what it declares."""
        ...

    def new_game(self, talk: Talk, game: GameStart) -> None:
        """Tell the program a game begins."""
        ...

    def move(self, talk: Talk, turn: Turn) -> Choice:
        """Ask for a move (the column is checked to be on the board, not that it is free)."""
        ...

    def goodbye(self, talk: Talk) -> None:
        """Ask the program to end (it is killed if it does not)."""
        ...


class Talk:
    """A conversation with a program under one deadline; lines it does not answer with are
    kept for the run's log."""

    def __init__(self, channel: LineChannel, deadline: float | None, notes: list[str]):
        self._channel = channel
        self.deadline = deadline
        self._notes = notes

    def send(self, *lines: str) -> None:
        """Send these lines."""
        self._channel.send("".join(line + "\n" for line in lines), self.deadline)

    def receive(self) -> str:
        """The next line that is not blank, stripped."""
        while True:
            line = self._channel.receive(self.deadline).strip()
            if line:
                return line

    def note(self, line: str) -> None:
        """Keep a line the program printed for the run's log."""
        self._notes.append(line)


class EngineHost(StartedOnDemand):
    """Hosts a program as an agent (see the module's docstring); whatever ``--hosting`` says,
    a program runs this way. Its stderr, and the lines of its stdout that are not answers,
    go to the run's log through ``take_output``."""

    def __init__(self, spec: str, program: Program, dialect: Dialect,
                 move_bound: float | None = None):
        self.spec = spec
        self.program = program
        self.dialect = dialect
        self.move_bound = DEFAULT_MOVE_BOUND if move_bound is None else move_bound
        self._child = ChildProcess()
        self._channel: LineChannel | None = None
        self._game: GameStart | None = None
        self._history: tuple[Position, str] | None = None
        self._notes: list[str] = []
        self._broken = ""

    def start(self) -> None:
        """Start the program and greet it, unless it runs; a program that cannot be started
        or fails its greeting breaks the host for good (every later game is lost)."""
        if self._channel is not None:
            return
        if self._broken:
            raise AgentFault(Termination.AGENT_ERROR, self._broken)
        try:
            process = self._child.spawn(self.program.argv, pipes=True, cwd=self.program.cwd)
        except OSError as error:
            self._broken = f"could not start the engine {' '.join(self.program.argv)}: " \
                           f"{error.strerror or error}"
            raise AgentFault(Termination.AGENT_ERROR, self._broken) from None
        assert process.stdin is not None and process.stdout is not None
        self._channel = LineChannel(process.stdin, process.stdout)
        try:
            self._traits = self._talk(lambda talk: self.dialect.hello(talk, self.program.options),
                                      max(BUILD_BOUND, self.move_bound), "its greeting")
        except AgentFault as fault:
            self._broken = f"could not start the engine: {fault}"
            raise AgentFault(Termination.AGENT_ERROR, self._broken) from None

    def new_game(self, game: GameStart) -> None:
        """Tell the engine of a game (starting it afresh after a fault)."""
        self.start()
        self._game = game
        opening = play_moves(Position.empty(game.rules), game.opening)
        self._history = opening, format_moves(game.opening)
        self._talk(lambda talk: self.dialect.new_game(talk, game), self.move_bound,
                   "the start of a game")

    def move(self, position: Position, rng: np.random.Generator,
             bound: float | None) -> tuple[int | Choice, float]:
        """Ask for a move; not back within ``bound`` seconds, the engine is killed."""
        game = self._game
        assert game is not None, "EngineHost.move before new_game"
        if self._channel is None:  # a fault since new_game stopped it
            raise AgentFault(Termination.AGENT_CRASH, "the engine is not running")
        moves = self._moves(position)
        turn = Turn(position, moves, game, _bank_left(game, bound), int(rng.integers(1 << 31)))
        began = time.perf_counter()
        choice = self._talk(lambda talk: self.dialect.move(talk, turn),
                            self.move_bound if bound is None else bound, "a move", move=True)
        seconds = time.perf_counter() - began
        if not position.can_play(choice.column):
            self._stop()
            raise AgentFault(Termination.ILLEGAL_MOVE,
                             f"the engine played column {choice.column + 1}, which is full in "
                             f"position {moves or '(empty)'}")
        self._history = position.play(choice.column), moves + str(choice.column + 1)
        return choice, seconds

    def take_output(self) -> str:
        """What the engine printed on stderr since the last call, then the lines of its stdout
        that were not answers (``info`` lines, say)."""
        text = self._child.take_output()
        if self._notes:
            notes = "".join(f"stdout: {line}\n" for line in self._notes)
            self._notes.clear()
            if len(notes) > MAX_OUTPUT:
                notes = notes[:MAX_OUTPUT] + f"\n[{len(notes) - MAX_OUTPUT} more characters " \
                                             "of output cut]\n"
            text += notes
        return text

    def close(self) -> None:
        """Ask the engine to quit; kill it if it does not within QUIT_SECONDS."""
        if self._channel is not None and self._child.process is not None:
            deadline = time.monotonic() + QUIT_SECONDS
            with suppress(Exception):  # whatever goes wrong, it is killed below
                self.dialect.goodbye(Talk(self._channel, deadline, self._notes))
                self._child.process.wait(max(0.0, deadline - time.monotonic()))
        self._stop()
        self._child.close()
        self._notes.clear()

    def abandon(self) -> None:
        """Forget the engine without touching it (in a forked copy of the host's process)."""
        self._channel = None
        self._child.abandon()

    def _moves(self, position: Position) -> str:
        """The game's moves up to ``position`` in the order they were played: the opening or
        the engine's last move, then the reply to it if any (a move string that reaches
        ``position`` when the game did not start from its opening)."""
        if self._history is not None:
            before, moves = self._history
            if (before.current, before.mask) == (position.current, position.mask):
                return moves
            for column in before.legal_moves():
                after = before.play(column)
                if (after.current, after.mask) == (position.current, position.mask):
                    return moves + str(column + 1)
        return to_moves(position)

    def _talk(self, conversation: Callable[[Talk], T], bound: float, what: str,
              move: bool = False) -> T:
        """Run a conversation within ``bound`` seconds; any failure stops the engine and is
        an AgentFault."""
        assert self._channel is not None
        deadline = None if bound == float("inf") else time.monotonic() + bound
        try:
            return conversation(Talk(self._channel, deadline, self._notes))
        except ChannelClosed:
            fault = AgentFault(Termination.AGENT_CRASH, f"the engine {self._child.ending()}")
        except ChannelTimeout:
            fault = AgentFault(Termination.TIME_FORFEIT if move else Termination.AGENT_ERROR,
                               f"no answer within {bound:.3g} s to {what}; the engine was "
                               "stopped")
        except BoardRefused as refusal:
            fault = RefusedBoard(_shorten(str(refusal)))
        except EngineRefused as refusal:
            fault = AgentFault(Termination.AGENT_ERROR, _shorten(str(refusal)))
        except ProtocolError as error:
            fault = AgentFault(Termination.ILLEGAL_MOVE if move else Termination.AGENT_ERROR,
                               _shorten(str(error)))
        self._stop()
        raise fault

    def _stop(self) -> None:
        self._child.stop()
        self._channel = None


def _bank_left(game: GameStart, bound: float | None) -> float | None:
    """The seconds left in the game's time bank: the game gives a move the limit, what is
    left of the bank and the grace (``arena.runs.playing.game``)."""
    if game.time_bank is None or game.limit.time is None or bound is None:
        return None
    return max(0.0, bound - game.limit.time - GRACE_SECONDS)


def _shorten(message: str) -> str:
    return message if len(message) <= MAX_MESSAGE else message[:MAX_MESSAGE - 3] + "..."
