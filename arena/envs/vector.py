"""The vectorized environment: N boards stepped in one call of the compiled core, with
auto-reset.

``VectorEnv(1024, opponent="negamax:depth=2")`` holds 1024 games in which the learner moves
and a built-in kernel opponent replies. ``reset()`` and ``step(actions)`` return observations
as int8 planes (``obs[i, 0]``: the learner's discs, ``obs[i, 1]``: the opponent's; row 0 is the
top row, as boards are drawn) and the legal columns as a boolean mask. A game that ends starts
again in the same step (the observation returned is the new game's first); ``terminated`` says
which did, ``rewards`` give +1 for a win, -1 for a loss or an illegal column (which ends the
game), 0 otherwise. The opponent moves first with probability one half (``first``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from arena.rules.board import DEFAULT_RULES, Position, Rules
from arena.rules.errors import AgentSpecError
from arena.search.heuristics import centre_first, parse_heuristic, terms_array
from arena.search.kernels import negamax, vector
from arena.search.kernels.bitboard import board_array
from arena.search.kernels.evaluation import board_windows

OPPONENTS = ("random", "immediate-win", "negamax:depth=D", "self")
First = Literal["learner", "opponent", "either"]
FIRSTS: dict[str, int] = {"learner": vector.LEARNER_FIRST, "opponent": vector.OPPONENT_FIRST,
                          "either": vector.EITHER_FIRST}
MAX_NEGAMAX_DEPTH = 12


@dataclass(frozen=True)
class Opponent:
    """A kernel opponent: its kind (``arena.search.kernels.vector``) and search depth."""

    kind: int
    depth: int = 0


def parse_opponent(text: str) -> Opponent:
    """The kernel opponent named ``text`` (see ``OPPONENTS``); AgentSpecError if none is."""
    name, _, params = text.strip().partition(":")
    simple = {"random": vector.RANDOM, "immediate-win": vector.IMMEDIATE_WIN,
              "self": vector.SELF_PLAY}
    if name in simple and not params:
        return Opponent(simple[name])
    if name == "negamax":
        key, equals, value = params.partition("=")
        if key.strip() == "depth" and equals and value.strip().isdigit() \
                and 1 <= int(value) <= MAX_NEGAMAX_DEPTH:
            return Opponent(vector.NEGAMAX, int(value))
    raise AgentSpecError(f"vectorized opponent {text!r}: expected one of "
                         f"{', '.join(OPPONENTS)} (D from 1 to {MAX_NEGAMAX_DEPTH})")


class VectorEnv:
    """``num_envs`` games of one learner against a kernel opponent, stepped together."""

    def __init__(self, num_envs: int, opponent: str = "random", rules: Rules = DEFAULT_RULES,
                 first: First = "either", seed: int | None = None):
        if isinstance(num_envs, bool) or not isinstance(num_envs, int) or num_envs < 1:
            raise ValueError(f"num_envs must be a whole number >= 1, got {num_envs!r}")
        if first not in FIRSTS:
            raise ValueError(f"first must be one of {', '.join(FIRSTS)}, got {first!r}")
        self.num_envs, self.rules, self.first = num_envs, rules, first
        self.opponent = parse_opponent(opponent)
        windows = board_windows(rules)
        depth = max(self.opponent.depth, 1)
        self._search = (
            negamax.search_array(board_array(rules), centre_first(rules.cols)),
            terms_array(parse_heuristic("none")), windows.lines, windows.points,
            negamax.new_table(min(20, 6 + depth)), negamax.new_stats(),
            negamax.new_stack(depth))
        self._state = np.zeros(1, dtype=np.uint64)
        self.current = np.zeros(num_envs, dtype=np.uint64)
        self.mask = np.zeros(num_envs, dtype=np.uint64)
        self.rewards = np.zeros(num_envs, dtype=np.float32)
        self.terminated = np.zeros(num_envs, dtype=np.bool_)
        self.truncated = np.zeros(num_envs, dtype=np.bool_)  # never set: games end by rule
        self.illegal = np.zeros(num_envs, dtype=np.bool_)
        self.replies = np.full(num_envs, vector.NONE, dtype=np.int64)
        self.openings = np.full(num_envs, vector.NONE, dtype=np.int64)
        self.observations = np.zeros((num_envs, 2, rules.rows, rules.cols), dtype=np.int8)
        self.action_masks = np.zeros((num_envs, rules.cols), dtype=np.bool_)
        self.seed(seed)

    def seed(self, seed: int | None) -> None:
        """Seed the opponents' and the first mover's random stream (None: from the OS)."""
        self._state[:] = np.random.SeedSequence(seed).generate_state(1, np.uint64)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
        """Start a new game on every board: (observations, action masks)."""
        if seed is not None:
            self.seed(seed)
        self.current[:] = 0
        self.mask[:] = 0
        # an illegal column on every board ends its game and starts the next one
        self._step(np.full(self.num_envs, -1, dtype=np.int64))
        self.rewards[:] = 0
        self.terminated[:] = False
        self.illegal[:] = False
        return self.observations, self.action_masks

    def step(self, actions: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                  np.ndarray, np.ndarray]:
        """Play ``actions`` (one column per board): (observations, rewards, terminated,
        truncated, action masks). The arrays are the environment's own, overwritten by the
        next step."""
        self._step(np.asarray(actions, dtype=np.int64))
        return (self.observations, self.rewards, self.terminated, self.truncated,
                self.action_masks)

    def _step(self, actions: np.ndarray) -> None:
        if actions.shape != (self.num_envs,):
            raise ValueError(f"actions must have shape ({self.num_envs},), got {actions.shape}")
        opponent = self.opponent
        vector.step_boards(self._search[0], opponent.kind, opponent.depth, FIRSTS[self.first],
                           *self._search[1:], self._state, self.current, self.mask, actions,
                           self.rewards, self.terminated, self.illegal, self.replies,
                           self.openings)
        vector.observe(self._search[0], self.current, self.mask, self.observations,
                       self.action_masks)

    def positions(self) -> list[Position]:
        """The boards as Positions (the learner to move, or in self-play the side to move)."""
        return [Position(self.rules, int(c), int(m))
                for c, m in zip(self.current, self.mask, strict=True)]
