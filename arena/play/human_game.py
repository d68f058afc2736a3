"""A game that people play, against an agent or each other: turns, take-backs, forfeits.

``HumanGame`` holds the state of such a game and nothing else: it draws nothing and asks
no agent. The terminal game and the pygame window both drive it, so both follow one set of
rules: a move string to start from, undo that gives the move back to a person, a new game
from the same start, and an agent that crashes or plays an illegal column losing the game.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

from arena.hosting.base import AgentFault, Host
from arena.protocol.agent import GameStart, Limit, as_choice, game_clock
from arena.rules.board import Position, Rules
from arena.rules.errors import IllegalMoveError
from arena.rules.notation import format_moves
from arena.rules.results import Termination
from arena.runs.playing.game import Clock, GameRecord, illegal_column

SYMBOLS = {1: "red, X", 2: "yellow, O"}
FIRST_CHOICES = ("human", "agent", "random")


def draw_human_side(first: str, coin: np.random.Generator) -> int:
    """The player (1 moves first) a person plays: ``first`` is human, agent or random."""
    if first not in FIRST_CHOICES:
        raise ValueError(f"first must be one of {', '.join(FIRST_CHOICES)}, got {first!r}")
    if first == "random":
        return 1 if coin.integers(2) else 2
    return 1 if first == "human" else 2


@dataclass(frozen=True)
class AgentReply:
    """An agent's answer to one position: a legal column, or the reason it forfeits."""

    column: int | None
    termination: str = ""  # the forfeit's when column is None
    error: str = ""


def ask_agent(host: Host, position: Position, rng: np.random.Generator,
              clock: Clock | None = None) -> AgentReply:
    """Ask the hosted agent for its move on its ``clock`` (None: no time limit); a failure,
    a move over its time or an illegal column becomes a forfeit, as in a match."""
    clock = clock or Clock(Limit())
    try:
        answer, seconds = host.move(position, rng, clock.bound)
    except AgentFault as fault:
        return AgentReply(None, fault.termination, str(fault))
    overrun = clock.charge(seconds, position.plies + 1)
    if overrun:
        return AgentReply(None, Termination.TIME_FORFEIT, overrun)
    try:
        column = as_choice(answer).column
    except TypeError as error:  # not a column
        return AgentReply(None, Termination.ILLEGAL_MOVE, str(error))
    if not position.can_play(column):
        return AgentReply(None, Termination.ILLEGAL_MOVE, illegal_column(column, position))
    return AgentReply(column)


def tell_new_game(host: Host, rules: Rules, player: int, limit: Limit | None = None,
                  time_bank: float | None = None) -> tuple[AgentReply | None, Clock]:
    """Tell the hosted agent a game starts in which it is ``player``, under ``limit`` (None:
    none) and ``time_bank`` (or the clock the agent declares, as in a match): a forfeit if
    that fails (else None), and the agent's clock for the game."""
    limit = limit or Limit()
    clock = Clock(limit, time_bank)
    try:
        clock = Clock(*game_clock(limit, time_bank, host.traits))
        host.new_game(GameStart(rules, player, clock.limit, clock.bank))
    except AgentFault as fault:
        return AgentReply(None, fault.termination, fault.prefixed("new_game")), clock
    return None, clock


class HumanGame:
    """One game at a time from a fixed start; ``humans`` are the players (1, 2) people play.

    The others are the agent's. ``epoch`` changes whenever moves are taken back or a new
    game starts: an agent must then be told of a new game before it is asked again.
    """

    def __init__(self, rules: Rules, humans: Collection[int], start: Sequence[int] = ()):
        self.rules = rules
        self.start = tuple(start)
        self.epoch = 0
        self._positions: list[Position] = []
        self._moves: list[int] = []
        self._forfeit: tuple[int, str, str] | None = None  # loser, termination, message
        self.humans = frozenset(humans)
        self.restart(self.humans)

    # --- state ------------------------------------------------------------------------

    @property
    def position(self) -> Position:
        """The current position."""
        return self._positions[-1]

    @property
    def moves(self) -> list[int]:
        """Every move of the game so far (0-based columns), the start included."""
        return list(self._moves)

    @property
    def last_move(self) -> int | None:
        """The column of the last move (None before any)."""
        return self._moves[-1] if self._moves else None

    @property
    def move_string(self) -> str:
        """The game so far as a move string."""
        return format_moves(self._moves)

    @property
    def over(self) -> bool:
        """True when the game has ended: a line, a full board or a forfeit."""
        return self._forfeit is not None or self.position.is_terminal

    @property
    def human_to_move(self) -> bool:
        """True when the game goes on and a person is to move."""
        return not self.over and self.position.side_to_move in self.humans

    @property
    def agent_to_move(self) -> bool:
        """True when the game goes on and the agent is to move."""
        return not self.over and self.position.side_to_move not in self.humans

    def outcome(self) -> GameRecord | None:
        """How the game ended, or None while it goes on."""
        if self._forfeit is not None:
            loser, termination, message = self._forfeit
            return GameRecord(3 - loser, Termination(termination), self.moves, message)
        position = self.position
        if not position.is_terminal:
            return None
        ending = Termination.FOUR_IN_A_ROW if position.won else Termination.BOARD_FULL
        return GameRecord(position.winner or 0, ending, self.moves)

    def player_name(self, player: int) -> str:
        """How a player is called in messages: "You", "The agent" or "Player N"."""
        if len(self.humans) != 1:
            return f"Player {player}"
        return "You" if player in self.humans else "The agent"

    def verdict(self) -> str:
        """The result in words ("You win!", "The agent wins.", "Draw."), or "" while playing."""
        outcome = self.outcome()
        if outcome is None:
            return ""
        if outcome.winner == 0:
            text = "Draw."
        elif self.player_name(outcome.winner) == "You":
            text = "You win!"
        else:
            text = f"{self.player_name(outcome.winner)} wins."
        if outcome.error:
            text += f" ({outcome.termination}: {outcome.error})"
        return text

    def summary_line(self, reason: str) -> str:
        """The result and the move string, or why the game was left and its moves so far."""
        if self.over:
            return f"{self.verdict()} Game: {self.move_string}"
        return f"Game abandoned ({reason}). Moves so far: {self.move_string or '(none)'}"

    # --- changes ----------------------------------------------------------------------

    def play(self, column: int) -> None:
        """The side to move drops a disc in ``column``; IllegalMoveError if it may not."""
        if self._forfeit is not None:
            raise IllegalMoveError(f"column {column + 1}: the game is over ({self.verdict()})")
        self._positions.append(self.position.play(column))
        self._moves.append(column)

    def apply(self, reply: AgentReply) -> None:
        """Play the agent's reply, or end the game with its forfeit."""
        if reply.column is None:
            self._forfeit = (self.position.side_to_move, reply.termination, reply.error)
        else:
            self.play(reply.column)

    def undo_plies(self) -> int:
        """How many plies ``undo`` would take back (0: nothing to take back).

        Undo takes back at least one ply and then as many as needed to give the move back
        to a person: after the agent's reply, that is the reply and the person's move.
        """
        if not self.humans:
            return 0
        for plies in range(1, len(self._moves) + 1):
            if self._positions[-1 - plies].side_to_move in self.humans:
                return plies
        return 0

    def undo(self) -> list[int]:
        """Take back the last move pair (see ``undo_plies``); returns the columns taken back."""
        plies = self.undo_plies()
        if not plies:
            return []
        taken = self._moves[-plies:]
        del self._moves[-plies:]
        del self._positions[-plies:]
        self._forfeit = None
        self.epoch += 1
        return taken

    def restart(self, humans: Collection[int] | None = None) -> None:
        """A new game from the start position; ``humans`` may swap who plays which side."""
        if humans is not None:
            self.humans = frozenset(humans)
        empty = Position.empty(self.rules)
        self._positions = [empty]
        for column in self.start:
            self._positions.append(self._positions[-1].play(column))
        self._moves = list(self.start)
        self._forfeit = None
        self.epoch += 1
