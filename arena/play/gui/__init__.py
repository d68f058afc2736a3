"""The pygame window for people who play the agents (the optional extra ``gui``).

``play_window`` opens it; pygame is imported only then, so the rest of the project runs
without it.
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable, Sequence

import numpy as np

from arena.play.human_game import HumanGame, draw_human_side
from arena.protocol.agent import Limit
from arena.rules.board import Rules
from arena.rules.errors import ArenaError
from arena.search.oracle import Oracle
from arena.system.install import needs_extra


class GuiUnavailableError(ArenaError):
    """The window was asked for but pygame is not installed."""


def require_pygame() -> None:
    """Raise GuiUnavailableError, saying how to install it, when pygame is missing."""
    if importlib.util.find_spec("pygame") is None:
        raise GuiUnavailableError(needs_extra("the window needs pygame, which is not installed",
                                              "gui"))


def play_window(
    agent: str,
    rules: Rules,
    start: Sequence[int] = (),
    first: str = "random",
    seed: np.random.SeedSequence | None = None,
    interactive_agent: bool = False,
    oracle: Oracle | None = None,
    show_hints: bool = False,
    echo: Callable[[str], None] = print,
    limit: Limit | None = None,
) -> HumanGame:
    """Play ``agent`` (a spec string) in a window until it is closed (or Ctrl-C, which sums
    the game up and passes on as KeyboardInterrupt); returns the game.

    ``start`` is the position's move list; ``first`` (human, agent, random) picks the
    person's side at every new game; ``seed`` seeds the coin and the agent, as in the
    terminal game. An interactive agent (``human``) makes it a game for two people at one
    window. ``oracle``, when given, offers hints (H; shown from the start with
    ``show_hints``). ``echo`` receives one line per game. ``limit`` is the agent's limit per
    move (None: none), enforced as in a match.
    """
    require_pygame()
    from arena.play.gui.controller import PlayController
    from arena.play.gui.window import GameWindow
    from arena.play.thinker import AgentProcess

    coin_seed, agent_seed = (seed or np.random.SeedSequence()).spawn(2)
    coin = np.random.default_rng(coin_seed)
    humans = {1, 2} if interactive_agent else {draw_human_side(first, coin)}
    game = HumanGame(rules, humans, start)
    thinker = None if interactive_agent else AgentProcess(agent, agent_seed, limit)
    controller = PlayController(game, thinker, agent, first, coin, oracle, echo)
    controller.show_hints = show_hints and oracle is not None
    window = None
    reason = "window closed"
    try:
        window = GameWindow(controller, f"Connect Four Arena: {agent}")
        window.run()
    except KeyboardInterrupt:  # the game is summed up, then the command stops
        reason = "interrupted"
        raise
    finally:
        controller.close(reason)
        if window is not None:
            window.close()
    return game

