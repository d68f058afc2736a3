"""The exact solver with N threads on one position against one thread, in one run.

    PYTHONPATH=. python benchmarks/bench_parallel_solver.py                  # both parts
    PYTHONPATH=. python benchmarks/bench_parallel_solver.py --positions 10 --no-empty
    PYTHONPATH=. python benchmarks/bench_parallel_solver.py --threads 2 --rounds 2
    PYTHONPATH=. python benchmarks/bench_parallel_solver.py --threads 2 --one-window 6

(a) the first ``--positions`` positions of Test_L1_R3 (begin, hard; default 50, about 4.6 s a
position on one core), each solved from an empty table by one thread and by ``--threads``
threads (default: the available cores), the order alternating from one position to the next;
(b) the empty 6x7 board, from an empty table, once each way per round (``--rounds``, the
order alternating between rounds). Every score is checked against the set's (and the two
empty-board scores against each other). The table is the solver's default (64 MB). Wall
times are summed per way; the ratio is N threads over one thread. The machine's load
average is printed before and after, and the cores each way obtained (processor time over
wall time): on a shared machine only the ratio means something, and two threads gain only
as much as a second core is free. The processor time of the N threads over N, against one
thread's, is the wall-time ratio they would reach with a whole core each (if none waited).
``--one-window N`` measures instead how well the threads split one window between them: the
last two windows of each of the first N positions, each searched alone by one thread and by
N threads at once.
"""

from __future__ import annotations

import argparse
import os
import sys
import time

from arena.analysis.scored_positions import ScoredPosition, load_set
from arena.rules.board import Position, Rules
from arena.search.database import DATABASE_ENV, OFF
from arena.search.parallel import Task, new_lanes, solve_in_lanes
from arena.search.solver import Solver
from arena.search.table_size import DEFAULT_TABLE_MB
from arena.system.processes import available_cores

SET = "Test_L1_R3"


def timed_solve(solver: Solver, position: Position) -> tuple[int, float, float, int]:
    """Score, wall seconds, processor seconds (all threads) and nodes of one solve from an
    empty table."""
    solver.clear()
    start, start_cpu = time.perf_counter(), time.process_time()
    score = solver.solve(position)
    seconds, cpu = time.perf_counter() - start, time.process_time() - start_cpu
    assert score is not None  # no node budget
    return score, seconds, cpu, solver.nodes


def load() -> str:
    """The load averages over 1, 5 and 15 minutes."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg())


def compare(label: str, positions: list[tuple[Position, int | None]], solvers: list[Solver],
            rounds: int) -> None:
    """Solve every position with each solver (order alternating), print the totals and the
    ratio of the last solver's time to the first's."""
    seconds = [0.0] * len(solvers)
    cpu = [0.0] * len(solvers)
    nodes = [0] * len(solvers)
    wrong = 0
    turn = 0
    scores: dict[int, int] = {}
    for _ in range(rounds):
        for position, expected in positions:
            order = range(len(solvers)) if turn % 2 == 0 else reversed(range(len(solvers)))
            turn += 1
            for index in order:
                score, wall, used, searched = timed_solve(solvers[index], position)
                seconds[index] += wall
                cpu[index] += used
                nodes[index] += searched
                scores[index] = score
            wanted = scores[0] if expected is None else expected
            wrong += sum(score != wanted for score in scores.values())
    shown = f", score {scores[0]}" if len(positions) == 1 else ""
    report(label, [solver.threads for solver in solvers], seconds, cpu, nodes, wrong, shown)


def report(label: str, threads: list[int], seconds: list[float], cpu: list[float],
           nodes: list[int], wrong: int, shown: str = "") -> None:
    """Print each way's totals and the ratios of the last way to the first (one thread)."""
    for count, wall, used, searched in zip(threads, seconds, cpu, nodes, strict=True):
        print(f"{label:<22} {count} thread{'s' * (count > 1):<2} "
              f"{wall:9.2f} s {searched / 1e6:10.1f} M nodes, {used / wall:.2f} cores "
              f"obtained{shown}", flush=True)
    print(f"{label:<22} ratio {threads[-1]} threads / 1 thread: "
          f"{seconds[-1] / seconds[0]:.3f} wall time, {nodes[-1] / nodes[0]:.3f} nodes, "
          f"{cpu[-1] / threads[-1] / cpu[0]:.3f} processor time per thread; "
          f"{wrong} wrong", flush=True)


def compare_one_window(label: str, entries: list[ScoredPosition], threads: int) -> None:
    """Search the two last windows of each position (just below the score: it is above;
    at the score: it is not), each alone from an empty table, with one lane and with
    ``threads`` lanes that all take it (and so split it), the order alternating."""
    solver = Solver(DEFAULT_TABLE_MB)
    ways = [new_lanes(1, 42), new_lanes(threads, 42)]
    seconds, cpu, nodes = [0.0, 0.0], [0.0, 0.0], [0, 0]
    wrong = 0
    turn = 0
    for entry in entries:
        position, score = entry.position, entry.score
        assert score is not None  # the set gives every score
        packed, table, _, _, books = solver.arguments(position)
        for middle in (score - 1, score):
            task = Task(position.current, position.mask, middle, middle + 1)
            for index in (0, 1) if turn % 2 == 0 else (1, 0):
                solver.clear()
                start, start_cpu = time.perf_counter(), time.process_time()
                (found,), searched = solve_in_lanes([task], ways[index],
                                                    (packed, table, books))
                seconds[index] += time.perf_counter() - start
                cpu[index] += time.process_time() - start_cpu
                nodes[index] += searched
                wrong += found != score
            turn += 1
    report(label, [1, threads], seconds, cpu, nodes, wrong)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--threads", type=int, default=available_cores(),
                        help="threads against one (default: the available cores)")
    parser.add_argument("--positions", type=int, default=50,
                        help=f"the first positions of {SET} (default 50; 0: none)")
    parser.add_argument("--rounds", type=int, default=1,
                        help="rounds of each part (default 1)")
    parser.add_argument("--no-empty", action="store_true", help="skip the empty board")
    parser.add_argument("--one-window", type=int, default=0, metavar="N",
                        help=f"instead: the last two windows of the first N positions of {SET}, "
                             "each searched by all the threads at once")
    args = parser.parse_args()
    os.environ[DATABASE_ENV] = OFF  # the search itself is measured (Pons' solver has no book)
    if args.threads < 2:
        sys.exit("bench_parallel_solver: --threads must be at least 2")
    solvers = [Solver(DEFAULT_TABLE_MB), Solver(DEFAULT_TABLE_MB, threads=args.threads)]
    print(f"load average {load()} (cores available: {available_cores()})", flush=True)
    if args.one_window:
        compare_one_window(f"{SET}[:{args.one_window}] window",
                           load_set(SET, limit=args.one_window), args.threads)
        print(f"load average {load()}", flush=True)
        return
    if args.positions:
        entries = load_set(SET, limit=args.positions)
        compare(f"{SET}[:{args.positions}]",
                [(entry.position, entry.score) for entry in entries], solvers, args.rounds)
    if not args.no_empty:
        compare("empty 6x7 board", [(Position.empty(Rules()), None)], solvers, args.rounds)
    print(f"load average {load()}", flush=True)


if __name__ == "__main__":
    main()
