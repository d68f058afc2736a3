"""The terminal game: people type columns (or u to undo), the agent answers, until the end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, overload

import click
import numpy as np

from arena.hosting.inline import InlineHost
from arena.play.human_game import SYMBOLS, HumanGame, ask_agent, tell_new_game
from arena.protocol.agent import Agent, GameAbandoned
from arena.rules.board import Position
from arena.rules.notation import format_moves
from arena.rules.render import render_for_stdout
from arena.runs.game import GameRecord

QUIT_WORDS = ("q", "quit", "exit")
UNDO_WORDS = ("u", "undo")


class TerminalPrompt:
    """Asks the person at the terminal for columns: ``ask`` reads a line (``input``), ``tell``
    shows one (``click.echo``)."""

    def __init__(self) -> None:
        self.ask: Callable[[str], str] = input
        self.tell: Callable[[str], None] = click.echo

    @overload
    def ask_column(self, position: Position, can_undo: Literal[False] = False) -> int: ...

    @overload
    def ask_column(self, position: Position, can_undo: bool) -> int | None: ...

    def ask_column(self, position: Position, can_undo: bool = False) -> int | None:
        """Show the board and ask for a legal column; None when the person asks to undo
        (only offered when ``can_undo``). End of input or q abandons the game."""
        cols = position.rules.cols
        self.tell(render_for_stdout(position))
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


def play_in_terminal(
    game: HumanGame,
    agent: Agent | None,
    rng: np.random.Generator,
    prompt: TerminalPrompt | None = None,
    tell: Callable[[str], None] = click.echo,
) -> GameRecord:
    """Play ``game`` to its end: the people through ``prompt``, the other side
    by ``agent``. GameAbandoned (q, end of input) and KeyboardInterrupt pass through."""
    prompt = prompt or TerminalPrompt()
    host = InlineHost.of(agent) if agent is not None else None
    told_epoch = None
    while not game.over:
        mover = game.position.side_to_move
        if game.human_to_move:
            if len(game.humans) == 2:
                tell(f"Player {mover} ({SYMBOLS[mover]}) to move.")
            column = prompt.ask_column(game.position, can_undo=game.undo_plies() > 0)
            if column is None:
                taken = game.undo()
                tell(f"Took back {format_moves(taken)}. Moves now: "
                     f"{game.move_string or '(none)'}")
                continue
            game.play(column)
        else:
            if host is None:
                raise ValueError("the agent is to move but the game has no agent")
            reply = None
            if told_epoch != game.epoch:
                told_epoch = game.epoch
                reply = tell_new_game(host, game.rules, mover)
            reply = reply or ask_agent(host, game.position, rng)
            game.apply(reply)
            if reply.column is None:
                break
            column = reply.column
        tell(f"{game.player_name(mover)} played column {column + 1}.")
    outcome = game.outcome()
    assert outcome is not None  # the loop ends only when the game is over
    return outcome
