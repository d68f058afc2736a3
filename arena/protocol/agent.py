"""The Agent protocol and the value types agents exchange with the harness.

An agent is given a position and a numpy Generator and returns a column (0-based), or a
``Choice`` that also reports nodes, depth and score. If it has ``new_game``, it is told when a
new game starts, with a ``GameStart`` that carries its ``Limit``. A plain function
``f(position, rng) -> int`` is an agent too. Agents are built from spec strings by
``arena.protocol.registry``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Protocol, runtime_checkable

import numpy as np

from arena.rules.board import Position, Rules


@dataclass(frozen=True)
class Choice:
    """A chosen column with what the agent reports about the search behind it.

    ``nodes``: positions searched; ``depth``: plies searched; ``score``: the agent's value
    of the move, in its own units (negamax: ``arena.search.heuristics``' scale; MCTS: the mean
    playout result, 1 a win, 0.5 a draw, 0 a loss); ``playouts``: random games played;
    ``visit_share``: the share of a tree search's visits the chosen move received; ``pv``: the
    principal variation, the columns the agent expects to be played from this move on.
    """

    column: int
    nodes: int | None = None
    depth: int | None = None
    score: float | None = None
    playouts: int | None = None
    visit_share: float | None = None
    pv: tuple[int, ...] | None = None


@dataclass(frozen=True)
class Limit:
    """What an agent may spend on one move; None leaves that measure unbounded.

    ``time`` is wall-clock seconds per move; ``depth`` (plies) and ``nodes`` bound a search,
    for the agents that support them.
    """

    time: float | None = None
    depth: int | None = None
    nodes: int | None = None


@dataclass(frozen=True)
class GameStart:
    """What an agent is told when a game begins: the board, which mover it is (``player``:
    1 moves first), its limit per move, its time bank (seconds of overtime for the whole game) and
    the opening (the columns played from the empty board before the agents' first move).

    In a run, also the game's number (``game``) and the run directory (``run_dir``), where an
    agent may keep files of its own (``llm:`` keeps the answers it paid for and each game's
    transcript), and whether answers kept from an earlier session are to be asked again
    (``no_cache``, the run's ``--no-cache``); outside a run, None, None and False."""

    rules: Rules
    player: int
    limit: Limit = Limit()
    time_bank: float | None = None
    opening: tuple[int, ...] = ()
    game: int | None = None
    run_dir: str | None = None
    no_cache: bool = False

    @property
    def mover(self) -> int:
        """Which mover the agent is, 1 (moves first) or 2: the field ``player``, whose name
        agents have used since the first version (a player is a run's ``Player``)."""
        return self.player

    @property
    def time_per_move(self) -> float | None:
        """The time limit per move in seconds, or None."""
        return self.limit.time


class GameAbandoned(BaseException):
    """Raised by an agent (a person at the terminal) to stop the game; it is not a forfeit."""


class Disqualified(Exception):
    """Raised by an agent that a rule of its own disqualifies (``llm:``: no legal column in
    any of its answers to one move): it loses the game, recorded as ``disqualified`` with the
    message, not as an ``agent_error``."""


@runtime_checkable
class Agent(Protocol):
    """What the harness needs of an agent: ``choose``. Everything else is optional:
    ``new_game(game)`` (called with a ``GameStart`` before the agent's first move of every
    game), ``warm_up(rules)``, ``close()`` and the traits (see ``BaseAgent``)."""

    def choose(self, position: Position, rng: np.random.Generator) -> int | Choice:
        """The column to play in ``position`` (the agent is the side to move)."""


def start_game(agent: Agent, game: GameStart) -> None:
    """Tell ``agent`` a game begins, if it has a ``new_game``."""
    new_game = getattr(agent, "new_game", None)
    if new_game is not None:
        new_game(game)


LIMITS = frozenset({"time", "depth", "nodes"})  # the measures of a Limit


class BaseAgent:
    """A convenient base class: remembers the game and plays on every board.

    What an agent may declare or provide besides ``choose`` (all optional): ``new_game(game)``,
    ``interactive``
    (it asks a person), ``reproducible`` (False when its moves depend on the clock),
    ``supported_limits`` (the limits it honours besides time: "depth", "nodes"),
    ``default_clock`` (the time per move and bank it plays under when given no time limit),
    ``unlabelled`` (parameters that do not change its play, e.g. where it is served or what
    it costs: labels leave them out), ``warm_up(rules)`` (load or compile what its first
    move would; never timed) and
    ``close()`` (release processes or files; called when a worker is done with it).
    """

    game: GameStart | None = None
    interactive: bool = False
    reproducible: bool = True
    supported_limits: frozenset[str] = frozenset({"time"})
    unlabelled: tuple[str, ...] = ()

    def check_rules(self, rules: Rules) -> None:
        """Raise UnsupportedBoardError if this agent cannot play on ``rules``."""

    def new_game(self, game: GameStart) -> None:
        """Check the board and remember the game."""
        self.check_rules(game.rules)
        self.game = game

    def choose(self, position: Position, rng: np.random.Generator) -> int | Choice:
        """The column to play; subclasses decide."""
        raise NotImplementedError

    def warm_up(self, rules: Rules) -> None:
        """Prepare for games on ``rules`` before the first timed move (nothing by default)."""

    def close(self) -> None:
        """Release what the agent holds (nothing by default)."""


@dataclass(frozen=True)
class Traits:
    """What an agent declares about itself (class attributes, with these defaults)."""

    interactive: bool = False
    """It asks a person: it runs inline, with one worker."""
    reproducible: bool = True
    """The same position and seed give the same move (False for agents that use their time)."""
    supported_limits: frozenset[str] = frozenset({"time"})
    """Which limits it honours: time always (the host enforces it); depth and nodes if it
    says so."""
    default_clock: tuple[float, float] | None = None
    """The time per move and the time bank, in seconds, it plays under when the run gives it
    no time limit (Kaggle's agents: Kaggle's own, 2 s a move and 60 s of overage a game)."""


def traits_of(agent: object) -> Traits:
    """The traits ``agent`` declares."""
    clock = getattr(agent, "default_clock", None)
    return Traits(
        interactive=bool(getattr(agent, "interactive", False)),
        reproducible=bool(getattr(agent, "reproducible", True)),
        supported_limits=frozenset(getattr(agent, "supported_limits", ())) | {"time"},
        default_clock=None if clock is None else (float(clock[0]), float(clock[1])),
    )


def game_clock(limit: Limit, time_bank: float | None,
               traits: Traits) -> tuple[Limit, float | None]:
    """The limit and the time bank an agent plays a game under: the run's, or where the run
    sets it no time limit, the agent's ``default_clock`` (with the run's bank, if any)."""
    if limit.time is not None or traits.default_clock is None:
        return limit, time_bank
    time, bank = traits.default_clock
    return replace(limit, time=time), bank if time_bank is None else time_bank


def as_choice(answer: int | Choice) -> Choice:
    """Normalise an agent's answer to a Choice (numpy integers are accepted)."""
    column = answer.column if isinstance(answer, Choice) else answer
    if not isinstance(column, (int, np.integer)) or isinstance(column, bool):
        raise TypeError(f"agent returned {answer!r}, expected a column number or a Choice")
    if isinstance(answer, Choice):
        return answer if type(column) is int else replace(answer, column=int(column))
    return Choice(int(column))


def check_agent_rules(agent: Agent, rules: Rules) -> None:
    """Raise UnsupportedBoardError if ``agent`` says it cannot play on ``rules``."""
    check = getattr(agent, "check_rules", None)
    if check is not None:
        check(rules)
