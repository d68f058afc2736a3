"""MCTS warm, this checkout against another (``--base``), alternating (not a test).

    python benchmarks/bench_mcts.py --base DIR                  # 5 alternating rounds
    python benchmarks/bench_mcts.py --base DIR --rounds 9 --playouts 400000
    python benchmarks/bench_mcts.py --base DIR --kernels no-pdep   # this checkout's core as on
                                                  # a CPU without a fast pdep (_core.mcts_kernels)

Measures, on the 6 x 7 board from the empty board and from a middle-game position, with
``immediate_win`` off and on:

- playouts a second of ``mcts.playout_results``;
- iterations a second of ``mcts.search``, each a whole move: a fresh tree of room for every
  iteration, ``mcts.set_root``, one search call;
- games a second of the fused loop, ``games.play_games`` (with ``arena.runs.playing.fused``'s
  arguments), for ``mcts:iterations=200`` against random and against
  ``mcts:iterations=100,rollout=immediate-win`` (``--games`` games from the empty board,
  either side first).

These are the public calls of ``arena/search/kernels``, the same in both checkouts. Each
round of a case runs one fresh process per checkout (each checkout's own Python, built as pip
builds it: ``benchmarks/checkouts.py``), which calls once untimed to warm up, then times one
call; the checkouts alternate which goes first, round by round, on a noisy machine. Printed:
the median rate of each side and the median of the per-round ratios this / base, with their
range; the script exits if the two give different counts, trees or generator states.
"""

from __future__ import annotations

import argparse
import statistics
from pathlib import Path

from checkouts import ROOT, child_output, compare_checkouts

MIDGAME = "4436653251"  # ten discs, no threat of either side

CHILD = """
import sys, time, hashlib
import numpy as np
from arena.rules.board import Rules
from arena.rules.notation import from_moves
from arena.search.kernels import games, mcts
from arena.search.kernels.bitboard import board_array
case, moves, immediate_win, work = sys.argv[1], sys.argv[2], sys.argv[3] == "1", int(sys.argv[4])
if sys.argv[5] != "any":  # a checkout with the compiled core's choice of MCTS kernels
    from arena.search.kernels.native import core
    core.mcts_kernels(sys.argv[5])
rules = Rules()
position = from_moves(moves, rules)
cur, mask = np.uint64(position.current), np.uint64(position.mask)
packed = board_array(rules)

def digest(*arrays):
    return hashlib.sha1(b"".join(np.ascontiguousarray(a).tobytes() for a in arrays)).hexdigest()

def playouts():
    state = np.array([2026], dtype=np.uint64)
    began = time.perf_counter()
    counts = mcts.playout_results(cur, mask, work, immediate_win, state, packed)
    return time.perf_counter() - began, digest(counts, state)

def search():
    tree = mcts.new_tree(work + 1, rules.cols)
    mcts.set_root(*tree, cur, mask, packed)
    state = np.array([2026], dtype=np.uint64)
    began = time.perf_counter()
    count, done = mcts.search(*tree, 1, work, 1.4, immediate_win, state, packed)
    took = time.perf_counter() - began
    return took, digest(np.array([count, done]), state, *tree)

def fused():
    from arena.protocol.kernel_agents import kernel_agent
    from arena.runs.planning.plan import GameSettings
    from arena.runs.playing.fused import _arguments
    from connect_four_agents.mcts import MCTSAgent
    from connect_four_agents.random_agent import RandomAgent
    other = (MCTSAgent(100, rollout="immediate-win") if immediate_win else RandomAgent())
    kernels = tuple(kernel_agent(agent, rules) for agent in (MCTSAgent(200), other))
    seeds = np.arange(work, dtype=np.uint64)
    starts = np.zeros((work, 2), dtype=np.uint64)
    firsts = np.arange(work, dtype=np.int64) % 2
    arguments = _arguments(rules, kernels, GameSettings())
    out = games.new_outcomes(work, rules.rows * rules.cols)
    began = time.perf_counter()
    games.play_games(seeds, starts, firsts, games.NO_ADJUDICATION, *arguments, out)
    took = time.perf_counter() - began
    return took, digest(*(array for name, array in out._asdict().items() if name != "cycles"))

run = {"playouts": playouts, "search": search, "fused": fused}[case]
run()  # warm
took, answer = run()
print(work / took, answer)
"""


def measure(name: str, base: Path, case: str, moves: str, immediate_win: bool, work: int,
            rounds: int, kernels: str = "any") -> None:
    """Alternate this checkout's and ``base``'s processes; print the rates and ratios."""
    rates: dict[Path, list[float]] = {ROOT: [], base: []}
    answers = set()
    for round_ in range(rounds):
        order = [ROOT, base] if round_ % 2 == 0 else [base, ROOT]
        for checkout in order:
            rate, answer = child_output(checkout, CHILD, case, moves or "", int(immediate_win),
                                        work, kernels if checkout == ROOT else "any").split()
            rates[checkout].append(float(rate))
            answers.add(answer)
    if len(answers) != 1:
        raise SystemExit(f"{name}: the two checkouts differ")
    ratios = [c / n for c, n in zip(rates[ROOT], rates[base], strict=True)]
    print(f"{name:<40} this {statistics.median(rates[ROOT]):>12,.0f}/s  base "
          f"{statistics.median(rates[base]):>12,.0f}/s  ratio "
          f"{statistics.median(ratios):.3f}x [{min(ratios):.3f}, {max(ratios):.3f}]",
          flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True,
                        help="the checkout to compare with (e.g. the commit before a change)")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--playouts", type=int, default=200_000)
    parser.add_argument("--iterations", type=int, default=50_000)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--kernels", default="any",
                        choices=("any", "no-pdep", "generic", "portable"),
                        help="the MCTS kernels this checkout's core may take")
    parser.add_argument("--cases", nargs="+", default=["playouts", "search", "fused"],
                        choices=["playouts", "search", "fused"])
    args = parser.parse_args()
    base = args.base.resolve()
    compare_checkouts(ROOT, base)
    for label, moves in (("empty", ""), ("midgame", MIDGAME)):
        for immediate_win in (False, True):
            rollout = "immediate-win" if immediate_win else "random"
            if "playouts" in args.cases:
                measure(f"playouts 6x7 {label} {rollout}", base, "playouts", moves,
                        immediate_win, args.playouts, args.rounds, args.kernels)
            if "search" in args.cases:
                measure(f"search iterations 6x7 {label} {rollout}", base, "search", moves,
                        immediate_win, args.iterations, args.rounds, args.kernels)
    if "fused" in args.cases:
        measure("fused games mcts 200 v random", base, "fused", "", False, args.games,
                args.rounds, args.kernels)
        measure("fused games mcts 200 v mcts 100 iw", base, "fused", "", True, args.games,
                args.rounds, args.kernels)


if __name__ == "__main__":
    main()
