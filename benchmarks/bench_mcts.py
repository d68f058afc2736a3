"""MCTS in the compiled core against numba's kernels, warm, in one process (not a test).

    python benchmarks/bench_mcts.py                  # 5 alternating rounds of every case
    python benchmarks/bench_mcts.py --rounds 9 --playouts 400000 --iterations 100000
    python benchmarks/bench_mcts.py --kernels no-pdep   # the core as on a CPU without a fast
                                                     # pdep (_core.mcts_kernels)

Measures, on the 6 x 7 board from the empty board and from a middle-game position, with
``immediate_win`` off and on:

- playouts a second of ``mcts.playout_results`` (the core's) against numba's loop of
  ``mcts.playout`` (the numba ``playout_results`` before the port, compiled here);
- iterations a second of ``mcts.search`` (the core's) against ``mcts.search_jit`` (numba's,
  which the fused loop of numba still calls), each a whole move: a fresh tree of room for
  every iteration, set_root, one search call;
- games a second of the fused loop, ``_core.play_games`` against ``games.play_games_jit``,
  for ``mcts:iterations=200`` against random and against ``mcts:iterations=100,
  rollout=immediate-win`` (``--games`` games from the empty board, either side first).

Both sides run in this process, warm (each compiled and called once first), alternating round
by round (the core first in odd rounds, numba first in even ones) on a noisy machine; each
round times one call per side. It prints the median rate of each side and the median of the
per-round ratios core / numba, with their range, and checks that both sides give the same
counts, trees and generator states.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np
from numba import njit

from arena.protocol.kernel_agents import kernel_agent
from arena.rules.board import Rules
from arena.rules.notation import from_moves
from arena.runs.planning.plan import GameSettings
from arena.runs.playing.fused import _arguments
from arena.search.kernels import games, mcts
from arena.search.kernels.bitboard import board_array, unpack
from arena.search.kernels.native import core
from connect_four_agents.mcts import MCTSAgent
from connect_four_agents.random_agent import RandomAgent

MIDGAME = "4436653251"  # ten discs, no threat of either side


@njit(cache=True)
def numba_playout_results(cur: np.uint64, mask: np.uint64, games: int, immediate_win: bool,
                          state: np.ndarray, packed: np.ndarray) -> np.ndarray:
    """numba's playout_results as it was before the port (the loop of its ``playout``)."""
    t = unpack(packed)
    counts = np.zeros(3, dtype=np.int64)
    for _ in range(games):
        result = mcts.playout(cur, mask, t, immediate_win, state)
        counts[0 if result == 1.0 else 1 if result == 0.5 else 2] += 1
    return counts


def playout_case(moves: str, immediate_win: bool, games: int) -> tuple[Callable, Callable]:
    position = from_moves(moves, Rules())
    cur, mask = np.uint64(position.current), np.uint64(position.mask)
    packed = board_array(Rules())

    def run(kernel: Callable) -> Callable[[], tuple[float, object]]:
        def timed() -> tuple[float, object]:
            state = np.array([2026], dtype=np.uint64)
            began = time.perf_counter()
            counts = kernel(cur, mask, games, immediate_win, state, packed)
            return time.perf_counter() - began, (counts.tolist(), int(state[0]))
        return timed

    return run(mcts.playout_results), run(numba_playout_results)


def search_case(moves: str, immediate_win: bool, iterations: int) -> tuple[Callable, Callable]:
    position = from_moves(moves, Rules())
    cur, mask = np.uint64(position.current), np.uint64(position.mask)
    packed = board_array(Rules())

    def run(set_root: Callable, search: Callable) -> Callable[[], tuple[float, object]]:
        def timed() -> tuple[float, object]:
            tree = mcts.new_tree(iterations + 1, 7)
            set_root(*tree, cur, mask, packed)
            state = np.array([2026], dtype=np.uint64)
            began = time.perf_counter()
            count, done = search(*tree, 1, iterations, 1.4, immediate_win, state, packed)
            took = time.perf_counter() - began
            return took, (int(count), int(done), int(state[0]),
                          *(hash(array.tobytes()) for array in tree))
        return timed

    return run(mcts.set_root, mcts.search), run(mcts.set_root_jit, mcts.search_jit)


def fused_case(agents: tuple[object, object], count: int) -> tuple[Callable, Callable]:
    rules = Rules()
    kernels = tuple(kernel_agent(agent, rules) for agent in agents)  # type: ignore[arg-type]
    seeds = np.arange(count, dtype=np.uint64)
    starts = np.zeros((count, 2), dtype=np.uint64)
    firsts = np.arange(count, dtype=np.int64) % 2

    def run(loop: str) -> Callable[[], tuple[float, object]]:
        def timed() -> tuple[float, object]:
            arguments = _arguments(rules, kernels, GameSettings())  # type: ignore[arg-type]
            out = games.new_outcomes(count, rules.rows * rules.cols)
            began = time.perf_counter()
            if loop == "core":
                core.play_games(seeds, starts, firsts, *arguments[:7], *out)
            else:
                games.play_games_jit(seeds, starts, firsts, games.NO_ADJUDICATION, *arguments,
                                     out)
            took = time.perf_counter() - began
            return took, [array.tobytes() for name, array in out._asdict().items()
                          if name != "cycles"]
        return timed

    return run("core"), run("jit")


def measure(name: str, core_run: Callable, numba_run: Callable, work: int,
            rounds: int) -> None:
    assert core_run()[1] == numba_run()[1], f"{name}: the core and numba differ"  # and warm
    rates: dict[str, list[float]] = {"core": [], "numba": []}
    for round_ in range(rounds):
        order = [("core", core_run), ("numba", numba_run)]
        for side, run in order if round_ % 2 == 0 else order[::-1]:
            took, _ = run()
            rates[side].append(work / took)
    ratios = [c / n for c, n in zip(rates["core"], rates["numba"], strict=True)]
    print(f"{name:<44} core {statistics.median(rates['core']):>12,.0f}/s  numba "
          f"{statistics.median(rates['numba']):>12,.0f}/s  ratio "
          f"{statistics.median(ratios):.3f}x [{min(ratios):.3f}, {max(ratios):.3f}]",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--playouts", type=int, default=200_000)
    parser.add_argument("--iterations", type=int, default=50_000)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--kernels", default="any",
                        choices=("any", "no-pdep", "generic", "portable"))
    args = parser.parse_args()
    core.mcts_kernels(args.kernels)
    for label, moves in (("empty", ""), ("midgame", MIDGAME)):
        for immediate_win in (False, True):
            rollout = "immediate-win" if immediate_win else "random"
            core_run, numba_run = playout_case(moves, immediate_win, args.playouts)
            measure(f"playouts 6x7 {label} {rollout}", core_run, numba_run, args.playouts,
                    args.rounds)
            core_run, numba_run = search_case(moves, immediate_win, args.iterations)
            measure(f"search iterations 6x7 {label} {rollout}", core_run, numba_run,
                    args.iterations, args.rounds)
    pairings = (("fused games mcts 200 v random", (MCTSAgent(200), RandomAgent())),
                ("fused games mcts 200 v mcts 100 iw",
                 (MCTSAgent(200), MCTSAgent(100, rollout="immediate-win"))))
    for name, agents in pairings:
        core_run, numba_run = fused_case(agents, args.games)
        measure(name, core_run, numba_run, args.games, args.rounds)


if __name__ == "__main__":
    main()
