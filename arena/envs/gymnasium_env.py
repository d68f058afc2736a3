"""One learner against any arena agent as a Gymnasium environment (needs the ``rl`` extra).

``OpponentEnv("negamax:depth=2")`` is a game against the agent of a spec string, with its own
limit if it has one (``solver:blunder=0.2``, ``mcts@time=0.05``, ``my_bot.py:Bot``, ...). The
opponent runs as in a match: in the host ``hosting`` chooses (``auto``: built-ins in this
process, the user's agents in a child process of their own), told of each game by
``new_game``, and drawing from the generator a match gives game ``g`` of run seed ``s``
(``arena.runs.planning.seeds.game_rng``): ``reset(seed=s)`` starts game 0 of run ``s``, each later
``reset()`` the next game. Who moves first: the learner in even games and the opponent in odd
ones (``first="alternate"``, as a match swaps colours), or always one of them.

Observations are dicts: ``observation``, the int8 planes of ``arena.envs.observation`` (plane
0 the learner's discs), and ``action_mask``, the columns the learner may play (also
``action_masks()``, as MaskablePPO asks). Rewards: +1 a win, -1 a loss or an illegal column
(which ends the game), 0 otherwise. An opponent that crashes, names an illegal column or
overruns its time forfeits: the learner wins, and ``info["termination"]`` says why (a
forfeit of its first move, in ``reset``, is a RuntimeError: there is no step to end).

Importing this module registers the environment with Gymnasium as ``ID``:
``gymnasium.make("arena.envs.gymnasium_env:arena/ConnectFour-v0", opponent="negamax:depth=2")``
imports it and makes one (``render_mode="ansi"`` draws the board in text).
"""

from __future__ import annotations

from typing import Any, Literal

import numpy as np

from arena.system.install import missing_extra

try:
    import gymnasium
    from gymnasium import spaces
except ModuleNotFoundError as missing:
    raise missing_extra(__name__, missing, "rl") from None

from arena.envs.observation import legal_mask, planes, shape
from arena.hosting.base import AgentFault, Host, Hosting
from arena.hosting.policy import make_host
from arena.protocol.agent import GameStart, Limit, as_choice, game_clock
from arena.protocol.players import check_limit, effective_limit, split_limit
from arena.rules.board import DEFAULT_RULES, Position, Rules
from arena.rules.render import render_plain
from arena.rules.results import Termination
from arena.runs.planning.seeds import MAX_SEED, game_rng
from arena.runs.playing.game import Clock, illegal_column

First = Literal["alternate", "learner", "opponent"]
FIRSTS: tuple[First, ...] = ("alternate", "learner", "opponent")
ID = "arena/ConnectFour-v0"
"""The environment's id in Gymnasium's registry (``gymnasium.make(ID, opponent=...)``)."""


class OpponentEnv(gymnasium.Env):
    """The learner's game against the agent of ``opponent`` (see the module docstring)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012
    """On the class, where ``gymnasium.make`` reads the render modes before making one; four
    frames a second for a recorder, as Gymnasium's own text games."""

    def __init__(self, opponent: str = "random", rules: Rules = DEFAULT_RULES,
                 first: First = "alternate", hosting: Hosting = "auto",
                 time_per_move: float | None = None, engines: object = None,
                 render_mode: str | None = None):
        if first not in FIRSTS:
            raise ValueError(f"first must be one of {', '.join(FIRSTS)}, got {first!r}")
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        self.rules, self.first, self.render_mode = rules, first, render_mode
        spec, own = split_limit(opponent)
        self.limit: Limit = effective_limit(own, time_per_move)
        self.host: Host = make_host(spec, hosting, engines)
        self.host.start()
        check_limit(opponent, self.limit, self.host.traits.supported_limits)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0, 1, shape(rules), dtype=np.int8),
            "action_mask": spaces.Box(0, 1, (rules.cols,), dtype=np.int8)})
        self.action_space = spaces.Discrete(rules.cols)
        self.position = Position.empty(rules)
        self.run_seed: int | None = None
        self.game = -1
        self._rng = game_rng(0, 0)
        self._clock = Clock(self.limit)

    @property
    def learner(self) -> int:
        """The learner's player number this game (1 moves first)."""
        if self.first == "alternate":
            return 1 + self.game % 2
        return 1 if self.first == "learner" else 2

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[dict[str, np.ndarray],
                                                              dict[str, Any]]:
        """Start the next game (``seed``: game 0 of that run seed)."""
        super().reset(seed=seed)
        if seed is not None:
            self.run_seed, self.game = seed & MAX_SEED, 0
        else:
            if self.run_seed is None:
                self.run_seed = int(self.np_random.integers(MAX_SEED + 1))
            self.game += 1
        self._rng = game_rng(self.run_seed, self.game)
        self.position = Position.empty(self.rules)
        info: dict[str, Any] = {"game": self.game, "learner": self.learner}
        opponent = 3 - self.learner
        try:
            limit, bank = game_clock(self.limit, None, self.host.traits)
            self._clock = Clock(limit, bank)
            self.host.new_game(GameStart(self.rules, opponent, limit, bank))
        except AgentFault as fault:
            raise RuntimeError(f"opponent {self.host.spec}: {fault}") from fault
        if opponent == 1 and self._opponent_moves(info) is not None:
            raise RuntimeError(f"opponent {self.host.spec} forfeited its first move: "
                               f"{info['error']}")
        return self._observe(), info

    def step(self, action: int) -> tuple[dict[str, np.ndarray], float, bool, bool,
                                         dict[str, Any]]:
        """The learner plays ``action``, then the opponent replies."""
        info: dict[str, Any] = {"game": self.game, "learner": self.learner}
        if self.position.is_terminal:
            raise RuntimeError("the game is over: call reset() first")
        if not self.position.can_play(int(action)):
            info["termination"] = Termination.ILLEGAL_MOVE.value
            return self._observe(), -1.0, True, False, info
        self.position = self.position.play(int(action))
        if self.position.is_terminal:
            return self._finish(1.0 if self.position.won else 0.0, info)
        ended = self._opponent_moves(info)
        if ended is not None:
            return self._observe(), ended, True, False, info
        if self.position.is_terminal:
            return self._finish(-1.0 if self.position.won else 0.0, info)
        return self._observe(), 0.0, False, False, info

    def _finish(self, reward: float, info: dict[str, Any]) -> tuple[
            dict[str, np.ndarray], float, bool, bool, dict[str, Any]]:
        info["termination"] = (Termination.FOUR_IN_A_ROW if self.position.won
                               else Termination.BOARD_FULL).value
        return self._observe(), reward, True, False, info

    def _opponent_moves(self, info: dict[str, Any]) -> float | None:
        """The opponent's move, as in a match; the learner's reward (+1) if it forfeits."""
        position = self.position
        try:
            answer, seconds = self.host.move(position, self._rng, self._clock.bound)
            column = as_choice(answer).column
        except AgentFault as fault:
            return self._forfeit(fault.termination, str(fault), info)
        except TypeError as error:
            return self._forfeit(Termination.ILLEGAL_MOVE, str(error), info)
        overrun = self._clock.charge(seconds, position.plies + 1)
        if overrun:
            return self._forfeit(Termination.TIME_FORFEIT, overrun, info)
        if not position.can_play(column):
            return self._forfeit(Termination.ILLEGAL_MOVE, illegal_column(column, position),
                                 info)
        info["opponent_column"] = column
        self.position = position.play(column)
        return None

    def _forfeit(self, termination: Termination, message: str,
                 info: dict[str, Any]) -> float:
        info["termination"], info["error"] = termination.value, message
        return 1.0

    def _observe(self) -> dict[str, np.ndarray]:
        return {"observation": planes(self.position, self.learner),
                "action_mask": self.action_masks().astype(np.int8)}

    def action_masks(self) -> np.ndarray:
        """The columns the learner may play now (bool)."""
        return legal_mask(self.position).astype(bool)

    def render(self) -> str | None:  # type: ignore[override]
        """The board drawn in text (X moved first)."""
        return render_plain(self.position) if self.render_mode == "ansi" else None

    def close(self) -> None:
        """Release the opponent (and its process, if it has one)."""
        self.host.close()


if ID not in gymnasium.registry:  # imported once more (a reload): registered already
    gymnasium.register(ID, entry_point=f"{__name__}:{OpponentEnv.__name__}")
