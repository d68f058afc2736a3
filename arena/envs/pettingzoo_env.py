"""Connect Four as a PettingZoo AEC environment, any board size (needs the ``rl`` extra).

``ConnectFourEnv(rules=Rules(6, 7, 4))`` has two agents, ``player_0`` (moves first) and
``player_1``. An observation is a dict: ``observation``, the (2, rows, cols) int8 planes of
``arena.envs.observation`` seen by the observing agent (plane 0 its own discs), and
``action_mask``, the int8 mask of the columns it may play (all 0 when it is not to move).
A win gives +1 to the winner and -1 to the loser, a draw 0 to both; a column that cannot be
played ends the game with -1 for the agent that named it and +1 for the other.

On 6 x 7 it plays the games of PettingZoo's ``connect_four_v3`` but for the differences
docs/tutorials/training.md lists (planes first, no mask once the game is over, an illegal
column a forfeit), each checked against it by tests/unit/test_pettingzoo_env.py.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from arena.system.install import missing_extra

try:
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import agent_selector
except ModuleNotFoundError as missing:
    raise missing_extra(__name__, missing, "rl") from None

from arena.envs.observation import legal_mask, planes, shape
from arena.rules.board import DEFAULT_RULES, Position, Rules
from arena.rules.render import render_plain

AGENTS = ("player_0", "player_1")


class ConnectFourEnv(AECEnv):
    """Two agents taking turns on one board of ``rules`` (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"], "name": "arena_connect_four_v0",
        "is_parallelizable": False}
    RENDER_MODES = ("ansi", "human")

    def __init__(self, rules: Rules = DEFAULT_RULES, render_mode: str | None = None):
        super().__init__()
        if render_mode is not None and render_mode not in self.RENDER_MODES:
            raise ValueError(f"render_mode must be one of {', '.join(self.RENDER_MODES)} "
                             f"or None, got {render_mode!r}")
        self.rules = rules
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        board = spaces.Box(0, 1, shape(rules), dtype=np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": board,
                                "action_mask": spaces.Box(0, 1, (rules.cols,), dtype=np.int8)})
            for agent in AGENTS}
        self.action_spaces = {agent: spaces.Discrete(rules.cols) for agent in AGENTS}
        self.position = Position.empty(rules)

    def observation_space(self, agent: str) -> spaces.Space:
        """The observation space of ``agent``."""
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        """The action space of ``agent``: a column, 0 = leftmost."""
        return self.action_spaces[agent]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """The board seen by ``agent`` and the columns it may play now."""
        player = AGENTS.index(agent) + 1
        mask = legal_mask(self.position)
        if player != self.position.side_to_move:
            mask[:] = 0
        return {"observation": planes(self.position, player), "action_mask": mask}

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game on the empty board (the game has no randomness: ``seed`` is unused)."""
        self.position = Position.empty(self.rules)
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0.0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0.0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in AGENTS}
        self._agent_selector = agent_selector.AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()

    def step(self, action: int | None) -> None:
        """The selected agent drops a disc in column ``action``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        other = AGENTS[1 - AGENTS.index(agent)]
        self._cumulative_rewards[agent] = 0.0
        if action is None or not self.position.can_play(int(action)):
            self._end({agent: -1.0, other: 1.0}, illegal=agent)
        else:
            self.position = self.position.play(int(action))
            if self.position.won:
                self._end({agent: 1.0, other: -1.0})
            elif self.position.is_full:
                self._end({agent: 0.0, other: 0.0})
            else:
                self.rewards = dict.fromkeys(AGENTS, 0.0)
        self.agent_selection = self._agent_selector.next()
        self._accumulate_rewards()
        if self.render_mode == "human":
            print(self.render())

    def _end(self, rewards: dict[str, float], illegal: str | None = None) -> None:
        self.rewards = rewards
        self.terminations = dict.fromkeys(AGENTS, True)
        if illegal is not None:
            self.infos[illegal]["illegal_move"] = True

    def render(self) -> str:
        """The board drawn in text (X moved first)."""
        return render_plain(self.position)

    def close(self) -> None:
        """Nothing to release."""
