"""What the window does, without drawing it: clicks, undo, new game, the agent's turn, hints.

The window turns pygame events into calls on ``PlayController`` and draws what it reports
(the game's position, the hovered column, the status line, the hint scores); everything
here runs and is tested without pygame.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import numpy as np

from arena.play.human_game import SYMBOLS, HumanGame, draw_human_side
from arena.play.thinker import AgentProcess, Question
from arena.rules.board import Position
from arena.rules.errors import describe_error
from arena.search.oracle import Oracle


class Hints:
    """The oracle's column scores, computed in a background thread, kept per position."""

    def __init__(self, oracle: Oracle):
        self.oracle = oracle
        self._scores: dict[int, dict[int, int]] = {}
        self._pending: set[int] = set()
        self._lock = threading.Lock()
        self.error = ""

    def scores(self, position: Position) -> dict[int, int] | None:
        """The scores of ``position``'s columns, or None while they are being computed."""
        key = position.key()
        with self._lock:
            if key in self._scores:
                return self._scores[key]
            if key in self._pending or position.is_terminal:
                return None
            self._pending.add(key)
        threading.Thread(target=self._compute, args=(position, key), daemon=True,
                         name="arena hints").start()
        return None

    def _compute(self, position: Position, key: int) -> None:
        try:
            scores = dict(self.oracle.column_scores(position))
        except Exception as error:  # noqa: BLE001 - shown in the status line
            self.error = f"hints failed: {describe_error(error)}"
            scores = {}
        with self._lock:
            self._scores[key] = scores
            self._pending.discard(key)


class PlayController:
    """A game in the window: a person (or two) against the agent that ``thinker`` runs.

    ``first`` (human, agent, random) picks the person's side at each new game with
    ``coin``; ``echo`` receives one line per game left (finished, replaced or abandoned).
    """

    def __init__(
        self,
        game: HumanGame,
        thinker: AgentProcess | None,
        agent_name: str,
        first: str = "random",
        coin: np.random.Generator | None = None,
        oracle: Oracle | None = None,
        echo: Callable[[str], None] = print,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.game = game
        self.thinker = thinker
        self.agent_name = agent_name
        self.first = first
        self.coin = coin or np.random.default_rng()
        self.hints = Hints(oracle) if oracle is not None else None
        self.show_hints = False
        self.echo = echo
        self.clock = clock
        self.hover: int | None = None
        self.notice = ""
        self._asked: tuple[int, int] | None = None  # (epoch, plies) of the open question
        self._asked_at = 0.0

    # --- what the window shows --------------------------------------------------------

    @property
    def thinking(self) -> bool:
        """True while the agent thinks about the current position."""
        return self._asked is not None

    def status(self) -> str:
        """The status line: whose turn, the agent thinking, a refusal, or the result."""
        game = self.game
        if game.over:
            return f"{game.verdict()}  N: new game, U: undo"
        if self.notice:
            return self.notice
        if self.hints is not None and self.hints.error:
            return self.hints.error
        if game.agent_to_move:
            seconds = self.clock() - self._asked_at if self.thinking else 0.0
            dots = "." * (1 + int(seconds * 3) % 3)
            return f"{self.agent_name} is thinking{dots:<3} {seconds:.1f} s"
        mover = game.position.side_to_move
        who = "Your move" if len(game.humans) == 1 else f"Player {mover}"
        solving = "  (hints: solving...)" if self.show_hints and self.hint_scores() is None else ""
        return f"{who} ({SYMBOLS[mover]}): click a column{solving}"

    def hint_scores(self) -> dict[int, int] | None:
        """The oracle's scores for the current position when hints are on and known."""
        if not self.show_hints or self.hints is None or self.game.over:
            return None
        return self.hints.scores(self.game.position)

    # --- what the person does ---------------------------------------------------------

    def drop(self, column: int) -> bool:
        """The person drops a disc in ``column``; False (with a notice) when refused."""
        game = self.game
        if game.over:
            self.notice = ""
            return False
        if not game.human_to_move:
            self.notice = f"Wait: {self.agent_name} is thinking."
            return False
        if not game.position.can_play(column):
            self.notice = f"Column {column + 1} is full: pick another."
            return False
        game.play(column)
        self.notice = ""
        return True

    def undo(self) -> bool:
        """Take back the last move pair (the agent stops thinking); False if nothing to undo."""
        if not self.game.undo_plies():
            self.notice = "Nothing to take back."
            return False
        self._abandon_question()
        self.game.undo()
        self.notice = ""
        return True

    def new_game(self) -> None:
        """Report the game being left and start a new one from the same start position."""
        self.echo(self.game.summary_line("new game"))
        self._abandon_question()
        if len(self.game.humans) == 1:
            self.game.restart({draw_human_side(self.first, self.coin)})
        else:
            self.game.restart()
        self.notice = ""

    def toggle_hints(self) -> None:
        """Show or hide the oracle's column scores (a notice when there is no oracle)."""
        if self.hints is None:
            self.notice = "No hints: no solver is available."
            return
        self.show_hints = not self.show_hints

    # --- time passing -----------------------------------------------------------------

    def tick(self) -> None:
        """Ask the agent when it is to move, and play its reply once it has come."""
        game = self.game
        if self.thinker is None:
            return
        key = (game.epoch, len(game.moves))
        if self._asked is not None:
            reply = self.thinker.poll()
            if reply is None:
                return
            asked, self._asked = self._asked, None
            if asked == key and game.agent_to_move:
                game.apply(reply)
                key = (game.epoch, len(game.moves))
        if game.agent_to_move and self._asked is None:
            position = game.position
            self.thinker.ask(Question(position, position.side_to_move, game.epoch))
            self._asked, self._asked_at = key, self.clock()

    def close(self, reason: str = "window closed") -> None:
        """Report the game (left for ``reason`` if unfinished) and end the agent's process."""
        self.echo(self.game.summary_line(reason))
        if self.thinker is not None:
            self.thinker.close()

    def _abandon_question(self) -> None:
        if self.thinker is not None and self._asked is not None:
            self.thinker.cancel()
        self._asked = None
