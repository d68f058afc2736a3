"""The fused game loop: whole batches of games between two kernel players in one compiled call.

When both agents of a pairing declare a kernel player (``arena.protocol.kernel_players``), are
hosted in this process, and no limit, time bank or clock applies to them, a worker plays their
games with ``arena.search.kernels.games.play_games`` instead of asking the hosts move by move.
The games are the same (moves, results, endings, node counts, the seeds the agents draw
from); only the think time is measured differently: each move's time is read from the
processor's cycle counter when the player is asked and when it has chosen, inside the
compiled loop, and turned into seconds at the counter's rate (``CounterRate``), so a game's
``time_a`` and ``time_b`` are the seconds its two sides spent choosing, as in the hosted path,
without the hosts' own overhead.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from arena.hosting.base import Host, Hosting
from arena.hosting.inline import InlineHost
from arena.protocol.agent import Limit
from arena.protocol.kernel_players import (
    ImmediateWinPlayer,
    KernelPlayer,
    MCTSPlayer,
    NegamaxPlayer,
    RandomPlayer,
    SolverPlayer,
    kernel_player,
)
from arena.protocol.players import effective_limit, split_limit
from arena.rules.board import Position, Rules
from arena.rules.results import Result, Side, Termination
from arena.runs.plan import GameSettings, GameTask
from arena.runs.rows import GameRow
from arena.runs.seeds import game_seed

CALIBRATION_SECONDS = 0.002
"""How long the cycle counter's rate is first measured against ``time.perf_counter``."""

class KernelHosts(Protocol):
    """The hosts a process plays with (``arena.runs.batches.AgentCache``)."""

    def get(self, spec: str, side: Side, hosting: Hosting, engines: object = None) -> Host:
        """The host of ``spec`` playing as ``side``."""


def fused_players(settings: GameSettings, task: GameTask,
                  agents: KernelHosts) -> tuple[KernelPlayer, KernelPlayer] | None:
    """The kernel players of ``task``'s agents A and B when its games can be fused, else None:
    both agents hosted in this process, declaring a kernel player for the board, with no
    limit per move (their own or the run's) and no time bank."""
    if settings.time_per_move is not None or settings.time_bank is not None:
        return None
    players = []
    for side, name in ((Side.A, task.agent_a), (Side.B, task.agent_b)):
        spec, own = split_limit(name)
        if effective_limit(own, None) != Limit():
            return None
        host = agents.get(spec, side, settings.hosting, settings.engines)
        if not isinstance(host, InlineHost):
            return None
        player = kernel_player(host.agent, settings.rules)
        if player is None:
            return None
        players.append(player)
    return players[0], players[1]


def play_fused(settings: GameSettings, tasks: Sequence[GameTask], starts: Sequence[Position],
               players: tuple[KernelPlayer, KernelPlayer]) -> list[GameRow]:
    """Play ``tasks`` (games of one pairing, from ``starts``: the positions after their
    openings) between ``players`` in one compiled call."""
    import arena.search.kernels.games as games  # numba loads only for fused runs

    rules = settings.rules
    positions = np.array([(start.current, start.mask) for start in starts], dtype=np.uint64)
    seeds = np.array([game_seed(settings.seed, task.game) for task in tasks], dtype=np.uint64)
    firsts = np.array([task.first is Side.B for task in tasks], dtype=np.int64)
    out = games.new_outcomes(len(tasks), rules.rows * rules.cols)
    adjudicate = games.NO_ADJUDICATION if settings.adjudicate is None else settings.adjudicate
    arguments = (seeds, positions, firsts, adjudicate, *_arguments(rules, players, settings),
                 out)
    games.play_games(*arguments)
    return _rows(tasks, seeds.tolist(), out, _RATE.seconds_per_cycle())


_RESULTS = (Result.DRAW, Result.WIN, Result.LOSS)  # by the winning side + 1
_ENDINGS = {1: Termination.FOUR_IN_A_ROW, 2: Termination.BOARD_FULL,
            3: Termination.ADJUDICATED}  # by the kernel's codes
_TIEBREAKS = {"random": 0, "first": 1, "left": 2, "right": 3}  # the kernel's codes
FIRST_COLUMN = ord("1")  # column 0 in a move string


def _rows(tasks: Sequence[GameTask], seeds: list[int], out: Any,
          seconds: float) -> list[GameRow]:
    """The rows of the games of ``out``, cycles counted at ``seconds`` each."""
    cells = out.moves.shape[1]
    moves = (out.moves + np.uint8(FIRST_COLUMN)).tobytes().decode("ascii")
    times = np.round(out.cycles * seconds, 6).tolist()
    nodes = [[None if n < 0 else n for n in pair] for pair in out.nodes.tolist()]
    return [
        GameRow(task.game, task.pair, seed, task.agent_a, task.agent_b, task.first,
                task.opening,
                task.opening + moves[start:start + plies - len(task.opening)],
                _RESULTS[winner + 1], _ENDINGS[ending], plies, time[0], time[1],
                node[0], node[1], turn[0], turn[1], "")
        for task, seed, start, winner, ending, plies, time, node, turn in zip(
            tasks, seeds, range(0, cells * len(tasks), cells), out.winners.tolist(),
            out.endings.tolist(), out.plies.tolist(), times, nodes, out.turns.tolist(),
            strict=True)
    ]


def _arguments(rules: Rules, players: tuple[KernelPlayer, KernelPlayer],
               settings: GameSettings) -> tuple[Any, ...]:
    """``play_games``' arguments from the board to the solver's arrays."""
    import arena.search.kernels.games as games

    table = np.zeros((2, games.SETTINGS), dtype=np.int64)
    reals = np.zeros((2, games.REALS), dtype=np.float64)
    searches, trees = [], []
    for side, player in enumerate(players):
        row = table[side]
        iterations = 0
        search = games.no_negamax()
        if isinstance(player, RandomPlayer):
            row[games.KIND] = games.RANDOM
        elif isinstance(player, ImmediateWinPlayer):
            row[games.KIND], row[games.BLOCK] = games.IMMEDIATE_WIN, player.block
        elif isinstance(player, NegamaxPlayer):
            row[games.KIND], row[games.DEPTH] = games.NEGAMAX, player.depth
            row[games.TIEBREAK] = _TIEBREAKS[player.tiebreak]
            row[games.ALL_TIES] = player.all_ties
            search = games.NegamaxArrays(player.search, player.terms, player.lines,
                                         player.points, player.table, player.stats,
                                         player.stack, np.array(player.order, dtype=np.int64))
        elif isinstance(player, MCTSPlayer):
            row[games.KIND], row[games.ITERATIONS] = games.MCTS, player.iterations
            row[games.ROLLOUT_WINS] = player.rollout_wins
            reals[side, games.C] = player.c
            iterations = player.iterations
        else:
            row[games.KIND] = games.SOLVER
            reals[side, games.BLUNDER] = player.blunder
        searches.append(search)
        trees.append(games.new_tree(iterations + 1, rules.cols))
    solving = settings.adjudicate is not None or any(
        isinstance(player, SolverPlayer) for player in players)
    return (games.board_array(rules), table, reals, *searches, *trees,
            _solver_arrays(rules) if solving else games.no_solver())


def _solver_arrays(rules: Rules) -> Any:
    """The process's solver arrays for ``rules``: the adjudicator's and the solver agent's."""
    from arena.search.kernels.games import SolverArrays
    from arena.search.solver import shared_solver

    _, table, scratch, stats, keys, scores, depth = shared_solver().arguments(
        Position.empty(rules))
    return SolverArrays(table, scratch, stats, keys, scores, int(depth))


class CounterRate:
    """The seconds per cycle of the compiled loop's counter, measured against
    ``time.perf_counter`` from its first use in the process (then over at least
    ``CALIBRATION_SECONDS``) to now."""

    def __init__(self) -> None:
        self._first: tuple[int, float] | None = None

    def seconds_per_cycle(self) -> float:
        """The rate, as measured until now."""
        from arena.search.kernels.games import counter

        if self._first is None:
            self._first = (counter(), time.perf_counter())
            while time.perf_counter() - self._first[1] < CALIBRATION_SECONDS:
                pass
        ticks, wall = counter() - self._first[0], time.perf_counter() - self._first[1]
        return wall / ticks if ticks > 0 else 0.0


_RATE = CounterRate()
