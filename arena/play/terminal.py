"""The terminal game: people type columns (or u to undo), the agent answers, until the end.

The agent thinks in a child process (``arena.play.thinker``): on a terminal a line says so
while it does, and Ctrl-C ends the game at once, however long the search. What is typed
while it thinks is discarded, never taken for the next move; the board marks the last
move's disc.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from contextlib import suppress
from typing import Literal, TextIO, overload

import click

from arena.play.human_game import SYMBOLS, AgentReply, HumanGame
from arena.play.thinker import AgentProcess, Question
from arena.protocol.agent import GameAbandoned
from arena.rules.board import Position
from arena.rules.notation import format_moves
from arena.rules.render import render_for_stdout
from arena.runs.playing.game import GameRecord

try:
    import termios
except ImportError:  # not POSIX: typeahead is kept
    termios = None  # type: ignore[assignment]

QUIT_WORDS = ("q", "quit", "exit")
UNDO_WORDS = ("u", "undo")
POLL_SECONDS = 0.1
"""How often the terminal game looks for the agent's reply (and redraws the thinking line)."""
QUIET_SECONDS = 0.3
"""A reply faster than this shows no thinking line (no flicker)."""


class ThinkingLine:
    """``NAME is thinking... 3.2 s`` on one line of a terminal, redrawn in place, then erased;
    nothing where ``stream`` is not a terminal."""

    def __init__(self, name: str, stream: TextIO | None = None):
        self.name = name
        self.stream = stream or sys.stdout
        self.enabled = self.stream.isatty()
        self._width = 0

    def show(self, seconds: float) -> None:
        """Say the agent has been thinking for ``seconds`` (after QUIET_SECONDS)."""
        if not self.enabled or seconds < QUIET_SECONDS:
            return
        dots = "." * (1 + int(seconds * 3) % 3)
        text = f"{self.name} is thinking{dots:<3} {seconds:.1f} s"
        self._width = max(self._width, len(text))
        self.stream.write("\r" + text.ljust(self._width))
        self.stream.flush()

    def clear(self) -> None:
        """Erase the line, if it was drawn."""
        if self._width:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0


def wait_for_agent(thinker: AgentProcess, line: ThinkingLine | None = None) -> AgentReply:
    """The reply to the question ``thinker`` was asked, ``line`` saying meanwhile that the
    agent thinks; Ctrl-C (KeyboardInterrupt) passes at once."""
    began = time.monotonic()
    try:
        while (reply := thinker.poll()) is None:
            if line is not None:
                line.show(time.monotonic() - began)
            time.sleep(POLL_SECONDS)
    finally:
        if line is not None:
            line.clear()
    return reply


class TerminalPrompt:
    """Asks the person at the terminal for columns: ``ask`` reads a line (``input``), ``tell``
    shows one (``click.echo``)."""

    def __init__(self) -> None:
        self.ask: Callable[[str], str] = input
        self.tell: Callable[[str], None] = click.echo

    @overload
    def ask_column(self, position: Position, can_undo: Literal[False] = False,
                   last: int | None = None) -> int: ...

    @overload
    def ask_column(self, position: Position, can_undo: bool,
                   last: int | None = None) -> int | None: ...

    def ask_column(self, position: Position, can_undo: bool = False,
                   last: int | None = None) -> int | None:
        """Show the board (``last``: the column of the last move, marked) and ask for a legal
        column; None when the person asks to undo (only offered when ``can_undo``). End of
        input or q abandons the game."""
        cols = position.rules.cols
        self.tell(render_for_stdout(position, last))
        prompt = f"Your move (1-{cols}, {'u to undo, ' if can_undo else ''}q to quit): "
        while True:
            try:
                answer = self.ask(prompt).strip().lower()
            except EOFError:
                raise GameAbandoned("end of input") from None
            if answer in QUIT_WORDS:
                raise GameAbandoned("you quit")
            if can_undo and answer in UNDO_WORDS:
                return None
            if not answer.isdigit() or not 1 <= int(answer) <= cols:
                self.tell(f"{answer!r} is not a column: type a number from 1 to {cols}.")
                continue
            column = int(answer) - 1
            if not position.can_play(column):
                self.tell(f"Column {answer} is full: pick another.")
                continue
            return column

    @staticmethod
    def discard_typeahead() -> None:
        """Forget the keys typed at the terminal and not read yet (while the agent thought):
        the next move is the one typed at the next question."""
        if termios is not None and sys.stdin.isatty():
            with suppress(termios.error, OSError):
                termios.tcflush(sys.stdin.fileno(), termios.TCIFLUSH)


def play_in_terminal(
    game: HumanGame,
    thinker: AgentProcess | None,
    prompt: TerminalPrompt | None = None,
    tell: Callable[[str], None] = click.echo,
    line: ThinkingLine | None = None,
) -> GameRecord:
    """Play ``game`` to its end: the people through ``prompt``, the other side by the agent
    of ``thinker`` (``line`` saying while it thinks). GameAbandoned (q, end of input) and
    KeyboardInterrupt pass through; the caller closes ``thinker``."""
    prompt = prompt or TerminalPrompt()
    while not game.over:
        mover = game.position.side_to_move
        if game.human_to_move:
            if len(game.humans) == 2:
                tell(f"Player {mover} ({SYMBOLS[mover]}) to move.")
            column = prompt.ask_column(game.position, can_undo=game.undo_plies() > 0,
                                       last=game.last_move)
            if column is None:
                taken = game.undo()
                tell(f"Took back {format_moves(taken)}. Moves now: "
                     f"{game.move_string or '(none)'}")
                continue
            game.play(column)
        else:
            if thinker is None:
                raise ValueError("the agent is to move but the game has no agent")
            thinker.ask(Question(game.position, mover, game.epoch))
            reply = wait_for_agent(thinker, line)
            prompt.discard_typeahead()
            game.apply(reply)
            if reply.column is None:
                break
            column = reply.column
        tell(f"{game.player_name(mover)} played column {column + 1}.")
    outcome = game.outcome()
    assert outcome is not None  # the loop ends only when the game is over
    return outcome
