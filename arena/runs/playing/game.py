"""One game between two hosted agents -> a ``GameRecord``, with forfeits for every failure.

An agent that raises, crashes, names an illegal column, changes the position it was handed or
overruns its time loses the game, with the reason recorded; the other agent wins.

Time: with a time limit, a move may take ``limit.time`` seconds; overtime is drawn from the
agent's time bank for the game (when there is one), and a move that overruns limit and bank
by more than ``GRACE_SECONDS`` is a ``time_forfeit``. Agents in a child process are stopped at
that point; agents in the worker's process are timed when they return.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import numpy as np

from arena.hosting.base import GRACE_SECONDS, AgentFault, Host
from arena.hosting.inline import InlineHost
from arena.protocol.agent import Agent, GameStart, Limit, as_choice, game_clock
from arena.rules.board import Position
from arena.rules.errors import ArenaError
from arena.rules.notation import format_moves
from arena.rules.results import Termination
from arena.runs.playing.adjudication import Adjudicator

NO_LIMITS = (Limit(), Limit())


@dataclass
class GameRecord:
    """How a game went, from the players' point of view (player 1 moved first)."""

    winner: int = 0  # 0 for a draw
    termination: Termination = Termination.BOARD_FULL
    moves: list[int] = field(default_factory=list)
    error: str = ""
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    nodes: list[int | None] = field(default_factory=lambda: [None, None])
    turns: list[int] = field(default_factory=lambda: [0, 0])

    @property
    def move_string(self) -> str:
        """The whole game as a move string."""
        return format_moves(self.moves)

    def forfeit(self, loser: int, termination: Termination, message: str) -> GameRecord:
        """End the game: ``loser`` (1 or 2) forfeits for ``message``."""
        self.winner = 3 - loser
        self.termination = termination
        self.error = message
        return self


@dataclass(frozen=True)
class RunPlace:
    """Where a game is played: its number in the run, the run directory, and whether agents
    ask again what they kept from an earlier session (``GameStart``'s last three fields)."""

    game: int | None = None
    run_dir: str | None = None
    no_cache: bool = False


Observer = Callable[[Position, int | None], None]


def as_host(player: Agent | Host) -> Host:
    """A host for ``player``: itself if it is one, else an in-process host of the agent."""
    if isinstance(player, Host):
        return player
    return InlineHost.of(player)


def play_game(
    players: Sequence[Agent | Host],
    rngs: Sequence[np.random.Generator],
    start: Position,
    opening: Sequence[int] = (),
    limits: Sequence[Limit] = NO_LIMITS,
    time_bank: float | None = None,
    observer: Observer | None = None,
    adjudicator: Adjudicator | None = None,
    place: RunPlace = RunPlace(),
) -> GameRecord:
    """Play ``players[0]`` (player 1) against ``players[1]`` from ``start`` to the end.

    ``opening`` moves are already part of ``start``'s history. ``limits`` are the players'
    limits per move, ``time_bank`` the overtime reserve of each for the game.
    ``observer(position, column)`` is called with the start position (column None) and after
    every move. ``adjudicator`` ends the game when it is due, with the proven result.
    ``place`` tells the agents the game's number and run directory (``GameStart``).

    Garbage collection waits until the game is over, so that no collection lands in a timed
    move (agents in a child process get the same there, move by move).
    """
    collecting = gc.isenabled()
    gc.disable()
    try:
        return _play(players, rngs, start, opening, limits, time_bank, observer, adjudicator,
                     place)
    finally:
        if collecting:
            gc.enable()


def _play(players: Sequence[Agent | Host], rngs: Sequence[np.random.Generator],
          start: Position, opening: Sequence[int], limits: Sequence[Limit],
          time_bank: float | None, observer: Observer | None,
          adjudicator: Adjudicator | None, place: RunPlace) -> GameRecord:
    """The game of ``play_game``."""
    hosts = [as_host(player) for player in players]
    record = GameRecord(moves=list(opening))
    clocks = []
    for index, host in enumerate(hosts):
        try:
            clock = Clock(*game_clock(limits[index], time_bank, host.traits))
            host.new_game(GameStart(start.rules, index + 1, clock.limit, clock.bank,
                                    tuple(opening), place.game, place.run_dir,
                                    place.no_cache))
        except AgentFault as fault:
            return record.forfeit(index + 1, fault.termination, fault.prefixed("new_game"))
        clocks.append(clock)
    bounds = [clock.bound for clock in clocks]
    times = [clock.limit.time for clock in clocks]
    asks = [host.move for host in hosts]
    position = Position(start.rules, start.current, start.mask, start.won)  # ours alone
    if observer:
        observer(position, None)
    mover = position.side_to_move
    while not position.is_terminal:
        if adjudicator is not None and adjudicator.due(position):
            record.winner = adjudicator.winner(position)
            record.termination = Termination.ADJUDICATED
            return record
        side = mover - 1
        current, mask = position.current, position.mask
        try:
            answer, seconds = asks[side](position, rngs[side], bounds[side])
        except AgentFault as fault:
            record.turns[side] += 1
            return record.forfeit(mover, fault.termination, str(fault))
        record.seconds[side] += seconds
        record.turns[side] += 1
        if position.current != current or position.mask != mask:
            return record.forfeit(mover, Termination.AGENT_ERROR,
                                  "the agent changed the position it was given")
        limit = times[side]
        if limit is not None and seconds > limit:
            forfeit = clocks[side].charge(seconds, position.plies + 1)
            if forfeit:
                return record.forfeit(mover, Termination.TIME_FORFEIT, forfeit)
            bounds[side] = clocks[side].bound  # what is left of the bank
        if type(answer) is int:
            column = answer
        else:
            try:
                choice = as_choice(answer)
            except TypeError as error:
                return record.forfeit(mover, Termination.ILLEGAL_MOVE, str(error))
            column = choice.column
            if choice.nodes is not None:
                record.nodes[side] = (record.nodes[side] or 0) + choice.nodes
        try:
            position = position.play(column)
        except ArenaError:
            return record.forfeit(mover, Termination.ILLEGAL_MOVE,
                                  illegal_column(column, position, record.move_string))
        record.moves.append(column)
        mover = 3 - mover
        if observer:
            observer(position, column)
    record.winner = position.winner or 0
    record.termination = Termination.FOUR_IN_A_ROW if position.won else Termination.BOARD_FULL
    return record


def illegal_column(column: int, position: Position, moves: str | None = None) -> str:
    """Why an agent's column cannot be played in ``position`` (reached by the move string
    ``moves``; None: the position is described): columns are counted as in move strings,
    1 = leftmost, with the agent's answer (counted from 0) beside."""
    where = position.describe() if moves is None else moves or "(empty)"
    cols = position.rules.cols
    if not 0 <= column < cols:
        return (f"the agent returned {column}, not a column from 0 to {cols - 1} (columns 1 to "
                f"{cols} in move strings), in position {where}")
    return f"column {column + 1} is full in position {where} (the agent returned {column})"


class Clock:
    """One side's time in a game: its limit per move, its time bank (overtime for the whole
    game, None for none) and what is left of the bank."""

    def __init__(self, limit: Limit, bank: float | None = None):
        self.limit = limit
        self.bank = bank
        self.left = bank

    @property
    def bound(self) -> float | None:
        """How long a host may let a move run before it stops the agent (None: no time limit,
        the host's own bound)."""
        if self.limit.time is None:
            return None
        return self.limit.time + (self.left or 0.0) + GRACE_SECONDS

    def charge(self, seconds: float, ply: int) -> str:
        """Charge move ``ply``, which took ``seconds``: overtime is drawn from the bank; the
        time forfeit's message when limit, bank and grace are overrun, else ""."""
        limit = self.limit.time
        if limit is None or seconds <= limit:
            return ""
        over = seconds - limit
        if over <= (self.left or 0.0) + GRACE_SECONDS:
            if self.left is not None:
                self.left = max(0.0, self.left - over)
            return ""
        bank = f" + what was left of the {self.bank} s time bank" if self.bank is not None else ""
        return f"move {ply} took {seconds:.3f} s: limit {limit} s{bank} + {GRACE_SECONDS} s grace"
