"""The fused game loop: whole batches of games between two kernel agents in one compiled call.

When both agents of a pairing declare a kernel agent (``arena.protocol.kernel_agents``), are
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

import csv
import io
import time
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from arena.hosting.base import Host, Hosting
from arena.hosting.inline import InlineHost
from arena.protocol.agent import Limit
from arena.protocol.kernel_agents import (
    ImmediateWinKernel,
    KernelAgent,
    MCTSKernel,
    NegamaxKernel,
    RandomKernel,
    SolverKernel,
    kernel_agent,
)
from arena.rules.board import Position, Rules
from arena.rules.notation import parse_moves, play_moves
from arena.rules.results import Side, Termination
from arena.runs.planning.plan import GameBatch, GameSettings
from arena.runs.planning.player import Player
from arena.runs.planning.seeds import GAME_BITS
from arena.runs.store.summary import RESULT_CODES, TERMINATION_CODES, GameColumns
from arena.stats.tally import Tally

CALIBRATION_SECONDS = 0.002
"""How long the cycle counter's rate is first measured against ``time.perf_counter``."""

MICROS = 1_000_000
"""The rows' think times are whole microseconds (``round(seconds, 6)``)."""


class KernelHosts(Protocol):
    """The hosts a process plays with (``arena.runs.playing.batches.AgentCache``)."""

    def get(self, player: Player, side: Side, hosting: Hosting) -> Host:
        """The host of ``player``'s agent playing as ``side``."""


def fused_kernels(settings: GameSettings, pair: tuple[Player, Player],
                  agents: KernelHosts) -> tuple[KernelAgent, KernelAgent] | None:
    """The kernel agents of ``pair``'s agents A and B when their games can be fused, else
    None: both agents hosted in this process, declaring a kernel agent for the board, with
    no limit per move (their own or the run's) and no time bank."""
    if settings.time_per_move is not None or settings.time_bank is not None:
        return None
    kernels = []
    for side, player in zip((Side.A, Side.B), pair, strict=True):
        if player.limit != Limit():
            return None
        host = agents.get(player, side, settings.hosting)
        if not isinstance(host, InlineHost):
            return None
        kernel = kernel_agent(host.agent, settings.rules)
        if kernel is None:
            return None
        kernels.append(kernel)
    return kernels[0], kernels[1]


@dataclass(frozen=True)
class FusedGames:
    """Games of one pairing played in one compiled call, as columns: the games of ``batch``
    with their seeds, the kernel's ``outcomes``, and the seconds of a counter cycle."""

    batch: GameBatch
    seeds: np.ndarray
    outcomes: Any  # arena.search.kernels.games.Outcomes (loaded only for fused runs)
    seconds_per_cycle: float

    def __len__(self) -> int:
        return len(self.batch)

    @property
    def agents(self) -> tuple[str, str]:
        """Agents A and B."""
        return self.batch.agents[int(self.batch.pairings[0])]

    @property
    def results(self) -> np.ndarray:
        """Agent A's results as ``RESULT_CODES`` indices."""
        return (self.outcomes.winners + 1).astype(np.int8)

    @property
    def micros(self) -> np.ndarray:
        """Each side's think time in whole microseconds (games, 2), as the rows round it."""
        return np.rint(self.outcomes.cycles * self.seconds_per_cycle * MICROS).astype(np.int64)

    def tally(self) -> Tally:
        """Agent A's wins, draws and losses."""
        draws, wins, losses = np.bincount(self.results, minlength=3).tolist()
        return Tally(wins, draws, losses)

    def text(self) -> tuple[bytes, np.ndarray]:
        """The games' rows of games.csv (the bytes the csv module writes for their
        ``GameRow``), and the hash of who moved first and the moves of each
        (``arena.runs.store.summary.GameColumns``)."""
        from arena.search.kernels.row_text import ROW_BYTES, fused_rows, move_hashes

        batch, out = self.batch, self.outcomes
        agents = _cells(*self.agents) if len(batch) else b""  # no game (``warm_fused``)
        words = [agents, *FIRST_WORDS, *RESULT_WORDS, *ENDING_WORDS,
                 *(opening.encode("ascii") for opening in batch.openings)]
        starts = np.cumsum([0, *(len(word) for word in words)], dtype=np.int64)
        firsts = np.where(batch.a_first, 1, 2)
        cells = out.moves.shape[1]
        size = len(batch) * (ROW_BYTES + len(words[0]) + 2 * cells)
        text, moves_at = np.empty(size, dtype=np.uint8), np.empty(len(batch), dtype=np.int64)
        length = fused_rows(
            batch.games, batch.pairs, self.seeds, 0, firsts,
            OPENING_WORD + batch.opening_index, RESULT_WORD + self.results.astype(np.int64),
            ENDING_WORD - 1 + out.endings.astype(np.int64),
            np.frombuffer(b"".join(words), dtype=np.uint8), starts, out.moves, out.plies,
            self.micros, out.nodes, out.turns, text, moves_at)
        return text[:length].tobytes(), move_hashes(text, moves_at, out.plies, firsts)

    def columns(self, hashes: np.ndarray) -> GameColumns:
        """The games as the summary counts them, ``hashes`` from ``text``."""
        out = self.outcomes
        return GameColumns(self.batch.games, self.batch.pairs, self.results,
                           ENDING_CODE[out.endings - 1].astype(np.int8),
                           out.plies.astype(np.int16), self.micros / MICROS,
                           out.turns.astype(np.int16), out.nodes, hashes)


def play_fused(settings: GameSettings, batch: GameBatch,
               kernels: tuple[KernelAgent, KernelAgent]) -> FusedGames:
    """Play the games of ``batch`` (of one pairing) between ``kernels`` in one compiled
    call."""
    import arena.search.kernels.games as games  # loaded only for fused runs

    rules = settings.rules
    starts = [play_moves(Position.empty(rules), parse_moves(opening, rules))
              for opening in batch.openings]
    positions = np.array([(start.current, start.mask) for start in starts],
                         dtype=np.uint64).reshape(-1, 2)[batch.opening_index]
    seeds = (np.uint64(settings.seed) << np.uint64(GAME_BITS)) | batch.games.astype(np.uint64)
    firsts = (~batch.a_first).astype(np.int64)
    out = games.new_outcomes(len(batch), rules.rows * rules.cols)
    adjudicate = games.NO_ADJUDICATION if settings.adjudicate is None else settings.adjudicate
    arguments = (seeds, positions, firsts, adjudicate, *_arguments(rules, kernels, settings),
                 out)
    games.play_games(*arguments)
    return FusedGames(batch, seeds, out, _RATE.seconds_per_cycle())


def _cells(*texts: str) -> bytes:
    """``texts`` as cells of a row the csv module writes (quoted where they need it)."""
    line = io.StringIO()
    csv.writer(line, lineterminator="").writerow(texts)
    return line.getvalue().encode("utf-8")


FIRST_WORDS = (_cells(Side.A), _cells(Side.B))
RESULT_WORDS = tuple(_cells(result) for result in RESULT_CODES)
ENDING_CODES = (Termination.FOUR_IN_A_ROW, Termination.BOARD_FULL, Termination.ADJUDICATED)
"""By the kernel's codes, from 1."""
ENDING_WORDS = tuple(_cells(ending) for ending in ENDING_CODES)
RESULT_WORD = 1 + len(FIRST_WORDS)
ENDING_WORD = RESULT_WORD + len(RESULT_WORDS)
OPENING_WORD = ENDING_WORD + len(ENDING_WORDS)
ENDING_CODE = np.array([TERMINATION_CODES.index(ending) for ending in ENDING_CODES])
_TIEBREAKS = {"random": 0, "first": 1, "left": 2, "right": 3}  # the kernel's codes


def _arguments(rules: Rules, kernels: tuple[KernelAgent, KernelAgent],
               settings: GameSettings) -> tuple[Any, ...]:
    """``play_games``' arguments from the board to the solver's arrays."""
    import arena.search.kernels.games as games

    table = np.zeros((2, games.SETTINGS), dtype=np.int64)
    reals = np.zeros((2, games.REALS), dtype=np.float64)
    searches, trees = [], []
    for side, kernel in enumerate(kernels):
        row = table[side]
        search, tree = None, None  # arrays of the kinds it is not: None, not compiled in
        if isinstance(kernel, RandomKernel):
            row[games.KIND] = games.RANDOM
        elif isinstance(kernel, ImmediateWinKernel):
            row[games.KIND], row[games.BLOCK] = games.IMMEDIATE_WIN, kernel.block
        elif isinstance(kernel, NegamaxKernel):
            row[games.KIND], row[games.DEPTH] = games.NEGAMAX, kernel.depth
            row[games.TIEBREAK] = _TIEBREAKS[kernel.tiebreak]
            row[games.ALL_TIES] = kernel.all_ties
            search = games.NegamaxArrays(kernel.search, kernel.terms, kernel.lines,
                                         kernel.points, kernel.table, kernel.stats,
                                         kernel.stack, np.array(kernel.order, dtype=np.int64),
                                         np.empty(rules.cols, dtype=np.int64))
        elif isinstance(kernel, MCTSKernel):
            row[games.KIND], row[games.ITERATIONS] = games.MCTS, kernel.iterations
            row[games.ROLLOUT_WINS] = kernel.rollout_wins
            reals[side, games.C] = kernel.c
            tree = games.new_tree(kernel.iterations + 1, rules.cols)
        else:
            row[games.KIND] = games.SOLVER
            reals[side, games.BLUNDER] = kernel.blunder
        searches.append(search)
        trees.append(tree)
    solving = settings.adjudicate is not None or any(
        isinstance(kernel, SolverKernel) for kernel in kernels)
    return (games.board_array(rules), table, reals, *searches, *trees,
            _solver_arrays(rules) if solving else None)


def _solver_arrays(rules: Rules) -> Any:
    """The process's solver arrays for ``rules``: the adjudicator's and the solver agent's."""
    from arena.search.kernels.games import SolverArrays
    from arena.search.solver import shared_solver

    _, table, scratch, stats, books = shared_solver().arguments(Position.empty(rules))
    return SolverArrays(table, scratch, stats, books)


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
