"""Pascal Pons' Connect Four solver in its native mode: one position a line in, scores out.

His ``c4solver`` (github.com/PascalPons/connect4, built with ``make``) reads move strings (1 =
leftmost column) from stdin, one a line, and with ``-a`` prints each line back followed by
the score of each of the 7 columns, ``-1000`` for a full one; a line it cannot read gets a
message on stderr and no answer. Scores are from the side to move's point of view: positive
when it wins (the sooner, the larger), 0 for a draw, negative when it loses. It solves the
6 x 7 board only, and looks for its opening book ``7x6.book`` in its working directory (the
binary's directory here); without the book, early positions take minutes.

``pons:PATH`` plays a best-scored column (ties broken by the game's seed); ``PonsOracle``
answers the ``arena.search.oracle.Oracle`` questions (``column_scores``, ``solve``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from arena.hosting.engines.channel import ChannelClosed, ChannelTimeout, LineChannel
from arena.hosting.engines.engine import BoardRefused, Program, ProtocolError, Talk, Turn, quote
from arena.hosting.supervised import ChildProcess
from arena.protocol.agent import Choice, GameStart, Traits
from arena.rules.board import DEFAULT_RULES, Position
from arena.rules.errors import ArenaError, UnsupportedBoardError
from arena.rules.notation import to_moves

RULES = DEFAULT_RULES
"""The only board his solver plays: 6 x 7, connect 4."""
INVALID_MOVE = -1000
"""The score his solver gives a full column."""
NOT_SUPPORTED = "Pascal Pons' solver plays only the 6x7 connect 4 board"


def pons_program(path: str) -> Program:
    """His solver at ``path`` in analysis mode (``-a``), run in its own directory (a ``.py``
    stand-in runs with this Python)."""
    binary = os.path.abspath(path)
    return Program.of(binary, ("-a",), os.path.dirname(binary))


def parse_scores(line: str, moves: str) -> dict[int, int]:
    """The scores of the legal columns (0-based) in the solver's answer to ``moves``;
    ProtocolError quoting the line if it is not one."""
    words = line.split()
    if moves:  # the line repeats the position; the empty one leaves nothing to repeat
        if not words or words[0] != moves:
            raise ProtocolError(f"the solver answered {quote(line)} to {moves}")
        words = words[1:]
    try:
        scores = [int(word) for word in words]
    except ValueError:
        scores = []
    if len(scores) != RULES.cols:
        raise ProtocolError(f"the solver answered {quote(line)} to {moves or '(empty)'}: "
                            f"expected the position and {RULES.cols} scores")
    return {column: score for column, score in enumerate(scores) if score != INVALID_MOVE}


def best_column(scores: dict[int, int], seed: int) -> Choice:
    """A column of the best score (``seed`` chooses among equals), with that score."""
    best = max(scores.values())
    columns = [column for column, score in scores.items() if score == best]
    return Choice(columns[seed % len(columns)], score=best)


class PonsDialect:
    """Talking to his solver as an agent: nothing to greet, positions in, scores out."""

    def hello(self, talk: Talk, options: Sequence[tuple[str, str]]) -> Traits:
        """Nothing is said: the solver has no options and no limits but time."""
        if options:
            raise ProtocolError("Pascal Pons' solver has no options")
        return Traits()

    def new_game(self, talk: Talk, game: GameStart) -> None:
        """Refuse every board but 6 x 7, connect 4."""
        if game.rules != RULES:
            raise BoardRefused(f"{NOT_SUPPORTED}, not {game.rules}")

    def move(self, talk: Talk, turn: Turn) -> Choice:
        """The position's scores, and a best column."""
        talk.send(turn.moves)
        scores = parse_scores(talk.receive(), turn.moves)
        if not scores:
            raise ProtocolError(f"the solver gave no legal column a score in {turn.moves}")
        return best_column(scores, turn.seed)

    def goodbye(self, talk: Talk) -> None:
        """Nothing: the solver ends when its input does."""


class OracleError(ArenaError):
    """Pascal Pons' solver could not answer: not found, crashed, silent, or unreadable."""


class PonsOracle:
    """Exact scores from Pascal Pons' solver (``path`` to his ``c4solver``) for 6 x 7
    positions; one solver process serves every question until ``close``.

    ``timeout`` bounds each answer in seconds (None: wait as long as it takes).
    """

    def __init__(self, path: str | Path, timeout: float | None = None):
        self.path = str(path)
        self.timeout = timeout
        self._child = ChildProcess()
        self._channel: LineChannel | None = None

    def column_scores(self, position: Position) -> dict[int, int]:
        """The exact score of each legal column (0-based) for the side to move."""
        if position.rules != RULES:
            raise UnsupportedBoardError(f"{NOT_SUPPORTED}, not {position.rules}")
        if position.is_terminal:
            raise OracleError(f"the game is over in {to_moves(position) or '(empty)'}")
        moves = to_moves(position)
        deadline = None if self.timeout is None else time.monotonic() + self.timeout
        channel = self._start()
        try:
            channel.send(moves + "\n", deadline)
            return parse_scores(channel.receive(deadline).strip(), moves)
        except ChannelClosed:
            problem = self._child.ending()
        except ChannelTimeout:
            problem = f"gave no answer within {self.timeout:g} s, and was stopped"
        except ProtocolError as error:
            problem = str(error)
        self._stop()
        raise OracleError(f"Pascal Pons' solver {self.path}: {problem} (position "
                          f"{moves or '(empty)'})")

    def solve(self, position: Position) -> int:
        """The exact score of ``position`` for the side to move."""
        return max(self.column_scores(position).values())

    def close(self) -> None:
        """End the solver's process."""
        self._stop()
        self._child.close()

    def __enter__(self) -> PonsOracle:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def _start(self) -> LineChannel:
        if self._channel is None:
            program = pons_program(self.path)
            try:
                process = self._child.spawn(program.argv, pipes=True, cwd=program.cwd)
            except OSError as error:
                raise OracleError(f"Pascal Pons' solver {self.path}: cannot start it: "
                                  f"{error.strerror or error}") from None
            assert process.stdin is not None and process.stdout is not None
            self._channel = LineChannel(process.stdin, process.stdout)
        return self._channel

    def _stop(self) -> None:
        self._child.stop()
        self._channel = None
