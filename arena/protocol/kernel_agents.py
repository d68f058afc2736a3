"""Kernel agents: what a built-in agent declares so that whole games can be played in compiled
code (``arena.search.kernels.games``) instead of one hosted move at a time.

An agent that plays exactly as one of the kernel agents (same moves, same draws from the
game's Generator, same node counts) may have a method ``kernel_player(rules)`` returning its
description for that board, or None when its settings take it off the fused loop (a time
budget, a node budget, a temperature). The description counts only when the class that
declares it also defines ``choose``: a subclass that chooses differently is hosted.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

import numpy as np

from arena.rules.board import Rules


@dataclass(frozen=True)
class RandomKernel:
    """A uniformly random legal column: ``legal[int(rng.random() * len(legal))]``."""


@dataclass(frozen=True)
class ImmediateWinKernel:
    """A winning column, else (``block``) the block of a single threat, else any legal
    column, ``rng.integers`` among them, left to right."""

    block: bool = False


@dataclass(frozen=True, eq=False)
class NegamaxKernel:
    """Negamax's ``root_scores`` at ``depth`` with the agent's own search arrays, then a best
    column in ``order``, ties broken by ``tiebreak`` (random: ``rng.integers`` among the ties
    in ``order``); ``all_ties``: every tie's score is exact."""

    depth: int
    tiebreak: Literal["random", "first", "left", "right"]
    all_ties: bool
    search: np.ndarray
    terms: np.ndarray
    lines: np.ndarray
    points: np.ndarray
    table: np.ndarray
    stats: np.ndarray
    stack: np.ndarray
    order: tuple[int, ...]


@dataclass(frozen=True)
class MCTSKernel:
    """UCT with ``iterations`` per move from a fresh tree seeded by
    ``rng.integers(0, 2**63)``; the most visited column, then the best mean."""

    iterations: int
    c: float
    rollout_wins: bool


@dataclass(frozen=True)
class SolverKernel:
    """The process's exact solver without a node budget; with probability ``blunder``
    (``rng.random()``) a random legal column, else a random best one (``rng.integers``)."""

    blunder: float = 0.0


KernelAgent = RandomKernel | ImmediateWinKernel | NegamaxKernel | MCTSKernel | SolverKernel


def kernel_agent(agent: object, rules: Rules) -> KernelAgent | None:
    """The kernel agent ``agent`` declares for ``rules``, or None (it declares none, or its
    class chooses in a way of its own)."""
    kind = type(agent)
    declared = getattr(kind, "kernel_player", None)
    if declared is None or _owner(kind, "kernel_player") is not _owner(kind, "choose"):
        return None
    player: KernelAgent | None = declared(agent, rules)
    return player


kernel_player = kernel_agent
RandomPlayer = RandomKernel
ImmediateWinPlayer = ImmediateWinKernel
NegamaxPlayer = NegamaxKernel
MCTSPlayer = MCTSKernel
SolverPlayer = SolverKernel
KernelPlayer = KernelAgent
"""The earlier names, from when this module was ``arena.protocol.kernel_players`` (a player
is now only a run's ``Player``: docs/explanation/glossary.md)."""


def _owner(kind: type, name: str) -> type | None:
    """The class in ``kind``'s method resolution order that defines ``name``."""
    return next((base for base in kind.__mro__ if name in vars(base)), None)
