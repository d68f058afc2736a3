"""The vector environment's step written out in plain Python on the rules engine
(``arena.rules.board``), from ``arena.search.kernels.vector``'s documentation: the splitmix64
draws, the opponents' choices and the auto-reset, for the tests of the compiled step. A
negamax opponent's root scores come from ``negamax.root_scores`` (tested on its own)."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from arena.rules.board import Position
from arena.search.kernels import negamax, vector

MASK64 = (1 << 64) - 1


@dataclass
class SplitMix:
    """splitmix64 on a Python int: ``below(n)`` is ``(next >> 32) * n >> 32``."""

    state: int

    def below(self, n: int) -> int:
        self.state = (self.state + 0x9E37_79B9_7F4A_7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58_476D_1CE4_E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D0_49BB_1331_11EB) & MASK64
        z ^= z >> 31
        return ((z >> 32) * n) >> 32


@dataclass
class Opponent:
    """A kernel opponent: its kind, depth and (for negamax) its search arrays."""

    kind: int
    depth: int = 0
    search: tuple[np.ndarray, ...] = field(default_factory=tuple)

    def column(self, position: Position, draws: SplitMix) -> int:
        """The opponent's column in ``position`` (not over, not full)."""
        if self.kind == vector.NEGAMAX:
            packed, terms, lines, points, tt, stats, stack = self.search
            scores = negamax.root_scores(np.uint64(position.current), np.uint64(position.mask),
                                         self.depth, packed, terms, lines, points, tt, stats,
                                         stack, True).tolist()
            best = max(scores)
            ties = [c for c, score in enumerate(scores) if score == best]
            return ties[draws.below(len(ties))]
        columns = position.legal_moves()
        if self.kind == vector.IMMEDIATE_WIN:
            columns = position.winning_moves() or columns
        return columns[draws.below(len(columns))]


def step(position: Position, action: int, opponent: Opponent, first: int,
         draws: SplitMix) -> tuple[Position, float, bool, bool, int, int]:
    """One board's step: the next position, reward, terminated, illegal, reply, opening."""
    reward, done, reply, opening = 0.0, False, vector.NONE, vector.NONE
    illegal = not (0 <= action < position.rules.cols and position.can_play(action))
    if illegal:
        reward, done = -1.0, True
    else:
        position = position.play(action)
        if position.winner is not None:
            reward, done = 1.0, True
        elif position.is_full:
            done = True
        elif opponent.kind != vector.SELF_PLAY:
            reply = opponent.column(position, draws)
            position = position.play(reply)
            if position.winner is not None:
                reward, done = -1.0, True
            done = done or position.is_full
    if done:
        position = Position.empty(position.rules)
        if opponent.kind != vector.SELF_PLAY and (
                first == vector.OPPONENT_FIRST
                or (first == vector.EITHER_FIRST and draws.below(2))):
            opening = opponent.column(position, draws)
            position = position.play(opening)
    return position, reward, done, illegal, reply, opening
