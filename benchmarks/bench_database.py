"""The figures of the 6 x 7 database (issue 29), each beside its reference, in one run.

    PYTHONPATH=. python benchmarks/bench_database.py --before ../wt-before
    PYTHONPATH=. python benchmarks/bench_database.py --parts early l1r3        # some parts
    PYTHONPATH=. python benchmarks/bench_database.py --before ../wt-before --parts before \\
        --l1r2 1000 --rounds 3                                # Test_L1_R2 in full (hours)

``--before DIR`` is a checkout of the project from before the database, made with
``git worktree add ../wt-before 8898c99``. The reference of the in-process parts is BitBully
(``pip install bitbully``, in the dev extra) with its default book, which is the same 12-ply
database; it searches with one thread, and so does our solver here. Parts (``--parts``,
default all; ``before`` only with ``--before``):

- ``command``: ``arena solve "" --columns`` as a user runs it (``python -c 'from arena.cli import
  main; main()' ...``, this checkout's arena, from an empty directory with an empty cache
  directory), the whole process, median of ``--runs`` after one untimed run that fills the caches
  (numba's, for a checkout that uses numba); with its default threads (every core) and with
  ``--threads 1``. Goal 1 s.
- ``empty``: ``Solver.column_scores`` of the empty board in this process, the kernels and the
  database loaded, from an empty table (cleared untimed), median of ``--runs``; BitBully's
  ``score_all_moves`` from its empty table beside it. Goal 0.1 s.
- ``early``: ``--early`` random positions of 0 to 12 discs (random games stopped, before
  their end, after a number of discs drawn uniformly), the score of every column of each,
  each from an empty table (cleared untimed: the goal's figure), then the same positions in
  turn on the table the earlier ones filled (warm); BitBully beside both. Median and
  maximum, also of the positions of fewer discs and of 12 apart (the columns of 12 discs lead
  beyond the database). Goal 50 ms both.
- ``l1r3``: every position of Pons' Test_L1_R3, the position's score from an empty table,
  ours (``Solver.solve``) and BitBully's (``mtdf``), the order alternating from position to
  position; mean per position, ratio ours / BitBully. Goal 1.0.
- ``before``: the first ``--l1r2`` positions of Test_L1_R2 (default 100; ``--l1r2 1000``: the
  whole set, about 100 s a round and checkout, then the empty board dominates no longer) and
  the empty board's score, without the database (``CONNECT_FOUR_ARENA_DATABASE=off``), by
  this checkout and by ``--before``, each in a child process of its checkout as pip builds it
  (``benchmarks/checkouts.py``; each
  position from an empty table, timed in the child), ``--rounds`` rounds, the order
  alternating; sums over the rounds, ratio this / before. Goal: not slower (1.0). The empty
  board takes about two minutes a round and checkout on an idle core.

The default run takes about 20 minutes on two shared cores, most of it the before part.
Timings on a shared machine are noisy; the ratios, measured side by side, are what to read.
Every score is checked: the sets' against their published scores, the others ours against
BitBully's or the two checkouts' against each other (and the empty board's against its
known score). Exit status 1 if any differs.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple, TypeVar

import numpy as np
from checkouts import clean_environment, compare_checkouts, python_for

from arena.analysis.scored_positions import load_set
from arena.rules.board import DEFAULT_RULES, Position
from arena.rules.notation import format_moves, from_moves
from arena.search.database import DATABASE_ENV, OFF, PLIES
from arena.search.solver import Solver
from arena.system.cachedir import CACHE_ENV
from benchmarks.text_table import aligned

if TYPE_CHECKING:
    from bitbully import BitBully

ROOT = Path(__file__).resolve().parents[1]
ARENA = "from arena.cli import main; main()"
EMPTY_SCORE = 1
EMPTY_COLUMNS = {0: -2, 1: -1, 2: 0, 3: 1, 4: 0, 5: -1, 6: -2}
"""The empty board's score and its columns' (Pons' convention; Allis, Allen, Tromp)."""
WARM_UP = "2252576253462244111563365343671351441"  # Test_L3_R1's first: kernels loaded
PARTS = ("command", "empty", "early", "l1r3", "before")
CHILD = """
import sys, time
from arena.rules.notation import from_moves
from arena.search.solver import Solver
solver = Solver()
solver.solve(from_moves(sys.argv[1]))
for line in sys.stdin:
    position = from_moves(line.strip())
    solver.clear()
    start = time.perf_counter()
    score = solver.solve(position)
    print(score, time.perf_counter() - start, solver.nodes, flush=True)
"""
"""A child process's loop, the same for every checkout: the score, seconds and nodes of
each move string read, each from an empty table."""

T = TypeVar("T")


class Figure(NamedTuple):
    """One measure: this checkout's figure, the reference's, their ratio and the goal."""

    measure: str
    this: str
    reference: str = ""
    ratio: str = ""
    goal: str = ""
    met: bool | None = None


class Timed(NamedTuple):
    """One solve: its answer, seconds and nodes."""

    answer: object
    seconds: float
    nodes: int


def timed(call: Callable[[], T]) -> tuple[T, float]:
    """What ``call`` returns, and the wall-clock seconds it took."""
    start = time.perf_counter()
    value = call()
    return value, time.perf_counter() - start


def note(text: str) -> None:
    """Progress, on standard error."""
    print(text, file=sys.stderr, flush=True)


def child_env(**variables: str) -> dict[str, str]:
    """The environment of a child, with bytecode caching."""
    env = {key: value for key, value in clean_environment().items()
           if key not in ("PYTHONDONTWRITEBYTECODE", DATABASE_ENV)}
    return {**env, **variables}


# --- command: the whole process --------------------------------------------------------


def shows_empty_columns(output: str) -> bool:
    """True if ``arena solve --columns`` printed the empty board's column scores."""
    wanted = [str(EMPTY_COLUMNS[column]) for column in range(DEFAULT_RULES.cols)]
    return any(line.split()[1:] == wanted and line.startswith("score")
               for line in output.splitlines())


def part_command(runs: int) -> list[Figure]:
    """``arena solve "" --columns`` as a whole process, default threads and one thread."""
    figures = []
    scratch = Path(tempfile.mkdtemp(prefix="bench-database-"))
    empty, cache = scratch / "cwd", scratch / "cache"
    empty.mkdir()
    env = child_env(**{CACHE_ENV: str(cache)})
    for label, extra in (("", []), (" --threads 1", ["--threads", "1"])):
        command = [sys.executable, "-c", ARENA, "solve", "", "--columns", *extra]
        seconds = []
        for run in range(runs + 1):
            finished, elapsed = timed(partial(subprocess.run, command, cwd=empty, env=env,
                                              capture_output=True, text=True, check=True))
            if run == 0:  # untimed: fills the caches
                if not shows_empty_columns(finished.stdout):
                    sys.exit(f"bench_database: arena solve '' --columns{label} printed other "
                             f"scores:\n{finished.stdout}")
            else:
                seconds.append(elapsed)
        median = statistics.median(seconds)
        figures.append(Figure(f'arena solve "" --columns{label}: whole process, median of '
                              f"{runs} (min {min(seconds):.2f}, max {max(seconds):.2f})",
                              f"{median:.3f} s", goal="1 s", met=median <= 1))
        note(f"command{label}: {median:.3f} s")
    shutil.rmtree(scratch)
    return figures


# --- in this process: ours beside BitBully's ---------------------------------------------


def ours(solver: Solver, position: Position, columns: bool, clear: bool = True) -> Timed:
    """Our solver's score of ``position`` (or of each column), from an empty table unless
    ``clear`` is False."""
    if clear:
        solver.clear()
    call = (lambda: solver.column_scores(position)) if columns else (
        lambda: solver.solve(position))
    answer, seconds = timed(call)
    return Timed(answer, seconds, solver.nodes)


def bitbullys(bitbully: BitBully, moves: Sequence[int], columns: bool,
              clear: bool = True) -> Timed:
    """BitBully's score of the position of ``moves`` (or of each column), from its empty
    table unless ``clear`` is False."""
    from bitbully import Board

    board = Board.from_moves(list(moves))
    if clear:
        bitbully.reset_transposition_table()
    bitbully.reset_node_counter()
    call = (lambda: bitbully.score_all_moves(board)) if columns else (
        lambda: bitbully.mtdf(board))
    answer, seconds = timed(call)
    return Timed(answer, seconds, bitbully.get_node_counter())


def side_by_side(solver: Solver, bitbully: BitBully, games: Sequence[Sequence[int]],
                 columns: bool, clear: bool = True) -> tuple[list[Timed], list[Timed]]:
    """Ours and BitBully's answers for the last position of each game, the order alternating
    from game to game."""
    mine, theirs = [], []
    for index, moves in enumerate(games):
        position = from_moves(format_moves(moves))
        for ours_now in (True, False) if index % 2 == 0 else (False, True):
            if ours_now:
                mine.append(ours(solver, position, columns, clear))
            else:
                theirs.append(bitbullys(bitbully, moves, columns, clear))
    return mine, theirs


def part_empty(solver: Solver, bitbully: BitBully, runs: int) -> tuple[list[Figure], int]:
    """The empty board's column scores in this process; the wrong answers."""
    mine, theirs = side_by_side(solver, bitbully, [[]] * runs, columns=True)
    wrong = sum(answer.answer != EMPTY_COLUMNS for answer in mine + theirs)
    ours_s = statistics.median(answer.seconds for answer in mine)
    theirs_s = statistics.median(answer.seconds for answer in theirs)
    note(f"empty: {ours_s:.4f} s, BitBully {theirs_s:.4f} s")
    return [Figure(f"empty board, column scores, empty table, in-process: median of {runs} "
                   f"({mine[0].nodes:,} nodes; BitBully {theirs[0].nodes:,})",
                   f"{ours_s * 1000:.1f} ms", f"{theirs_s * 1000:.1f} ms (BitBully)",
                   f"{ours_s / theirs_s:.2f}", "100 ms", ours_s <= 0.1)], wrong


def random_games(count: int, most: int, seed: int) -> list[list[int]]:
    """``count`` random games stopped, before their end, after 0 to ``most`` discs (drawn
    uniformly): their columns."""
    rng = np.random.default_rng(seed)
    games: list[list[int]] = []
    while len(games) < count:
        position, moves = Position.empty(DEFAULT_RULES), []
        for _ in range(int(rng.integers(most + 1))):
            legal = position.legal_moves()
            moves.append(legal[int(rng.integers(len(legal)))])
            position = position.play(moves[-1])
            if position.is_terminal:
                break
        else:
            games.append(moves)
    return games


def part_early(solver: Solver, bitbully: BitBully, count: int, seed: int
               ) -> tuple[list[Figure], int]:
    """Column scores of random positions of 0 to 12 discs, from an empty table each (all of
    them, then those of fewer discs and those of 12 apart) and on a warm table; the wrong
    answers."""
    games = random_games(count, PLIES, seed)
    groups = {f"0-{PLIES}": range(PLIES + 1), f"0-{PLIES - 1}": range(PLIES), f"{PLIES}": [PLIES]}
    figures, wrong = [], 0
    for clear, label in ((True, "empty table each"), (False, "warm table")):
        solver.clear()
        bitbully.reset_transposition_table()
        mine, theirs = side_by_side(solver, bitbully, games, columns=True, clear=clear)
        wrong += sum(a.answer != b.answer for a, b in zip(mine, theirs, strict=True))
        for group, discs in list(groups.items())[:3 if clear else 1]:
            chosen = [i for i, moves in enumerate(games) if len(moves) in discs]
            goal = clear and group == f"0-{PLIES}"
            for name, pick in (("median", statistics.median), ("max", max)):
                ours_s = pick(mine[i].seconds for i in chosen)
                theirs_s = pick(theirs[i].seconds for i in chosen)
                figures.append(Figure(
                    f"{len(chosen):,} positions of {group} discs, column scores, {label}: {name}",
                    f"{ours_s * 1000:.1f} ms", f"{theirs_s * 1000:.1f} ms (BitBully)",
                    f"{ours_s / theirs_s:.2f}", "50 ms" if goal else "",
                    ours_s <= 0.05 if goal else None))
        slowest: dict[int, float] = {}
        for moves, answer in zip(games, mine, strict=True):
            slowest[len(moves)] = max(slowest.get(len(moves), 0.0), answer.seconds)
        note(f"early, {label}: the slowest by discs (s) "
             + " ".join(f"{discs}: {slowest[discs]:.3f}" for discs in sorted(slowest)))
    return figures, wrong


def part_l1r3(solver: Solver, bitbully: BitBully) -> tuple[list[Figure], int]:
    """Every position of Test_L1_R3, from an empty table each; the wrong scores."""
    entries = load_set("Test_L1_R3")
    games = [[int(digit) - 1 for digit in entry.moves] for entry in entries]
    mine, theirs = side_by_side(solver, bitbully, games, columns=False)
    wrong = sum(a.answer != entry.score or b.answer != entry.score
                for a, b, entry in zip(mine, theirs, entries, strict=True))
    ours_s = statistics.mean(answer.seconds for answer in mine)
    theirs_s = statistics.mean(answer.seconds for answer in theirs)
    ours_nodes = statistics.mean(answer.nodes for answer in mine)
    theirs_nodes = statistics.mean(answer.nodes for answer in theirs)
    note(f"l1r3: {ours_s:.4f} s, BitBully {theirs_s:.4f} s")
    return [Figure(f"Test_L1_R3 ({len(entries):,}), empty table each: mean a position "
                   f"({ours_nodes:,.0f} nodes; BitBully {theirs_nodes:,.0f})",
                   f"{ours_s * 1000:.2f} ms", f"{theirs_s * 1000:.2f} ms (BitBully)",
                   f"{ours_s / theirs_s:.2f}", "ratio 1.0", ours_s <= theirs_s)], wrong


# --- before: another checkout, in child processes --------------------------------------


def run_child(checkout: Path, moves: Sequence[str]) -> list[Timed]:
    """Each move string solved by ``checkout``'s solver without the database, in a child
    process from an empty directory."""
    with tempfile.TemporaryDirectory(prefix="bench-database-") as empty:
        done = subprocess.run([python_for(checkout), "-c", CHILD, WARM_UP],
                              input="".join(line + "\n" for line in moves), cwd=empty,
                              env=child_env(**{DATABASE_ENV: OFF}),
                              capture_output=True, text=True, check=True)
    rows = [line.split() for line in done.stdout.splitlines()]
    if len(rows) != len(moves):
        sys.exit(f"bench_database: {checkout} answered {len(rows)} of {len(moves)} "
                 f"positions:\n{done.stderr}")
    return [Timed(int(score), float(seconds), int(nodes)) for score, seconds, nodes in rows]


def part_before(before: Path, count: int, rounds: int) -> tuple[list[Figure], int]:
    """Test_L1_R2[:count] and the empty board without the database, this checkout against
    ``before``, alternating rounds; the wrong scores."""
    entries = load_set("Test_L1_R2", limit=count)
    moves = [entry.moves for entry in entries] + [""]
    expected = [entry.score for entry in entries] + [EMPTY_SCORE]
    checkouts = {"this": ROOT, "before": before}
    answers: dict[str, list[list[Timed]]] = {name: [] for name in checkouts}
    for round_index in range(rounds):
        order = list(checkouts) if round_index % 2 == 0 else list(reversed(checkouts))
        for name in order:
            answers[name].append(run_child(checkouts[name], moves))
            note(f"before, round {round_index + 1}, {name}: "
                 f"{sum(a.seconds for a in answers[name][-1]):.1f} s")
    wrong = sum(answer.answer != score for runs in answers.values() for run in runs
                for answer, score in zip(run, expected, strict=True))
    figures = []
    for label, part in ((f"Test_L1_R2[:{count}]", slice(0, -1)), ("empty board", slice(-1, None))):
        sums = {name: [sum(a.seconds for a in run[part]) for run in runs]
                for name, runs in answers.items()}
        nodes = {name: sum(a.nodes for a in runs[0][part]) for name, runs in answers.items()}
        this, then = sum(sums["this"]) / rounds, sum(sums["before"]) / rounds
        per_round = ", ".join(f"{a / b:.2f}" for a, b in zip(sums["this"], sums["before"],
                                                            strict=True))
        figures.append(Figure(
            f"{label}, no database, score, empty table each: seconds a round (rounds "
            f"{per_round}; nodes {nodes['this']:,} / {nodes['before']:,})",
            f"{this:.2f} s", f"{then:.2f} s (before)", f"{this / then:.2f}", "ratio 1.0",
            this <= then))
    return figures, wrong


# --- the table ---------------------------------------------------------------------------


def format_figures(figures: Sequence[Figure]) -> str:
    """A table: one line per measure."""
    header = ("measure", "this", "reference", "ratio", "goal", "met")
    rows = [header] + [(f.measure, f.this, f.reference, f.ratio, f.goal,
                        "" if f.met is None else "yes" if f.met else "no") for f in figures]
    return aligned(rows)


def main() -> int:
    """Measure the parts asked for, print the table; 1 if any score is wrong."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--parts", nargs="+", choices=PARTS, default=list(PARTS),
                        help="which measures (default all; before needs --before)")
    parser.add_argument("--before", type=Path,
                        help="a checkout from before the database (git worktree add DIR 8898c99)")
    parser.add_argument("--runs", type=int, default=7,
                        help="timed runs of the command and of the empty board (default 7)")
    parser.add_argument("--early", type=int, default=1000,
                        help="random positions of 0-12 discs (default 1000)")
    parser.add_argument("--l1r2", type=int, default=100,
                        help="the first N positions of Test_L1_R2 (default 100; 1000: all)")
    parser.add_argument("--rounds", type=int, default=2,
                        help="rounds of the before part, the order alternating (default 2)")
    parser.add_argument("--seed", type=int, default=12, help="of the random positions")
    options = parser.parse_args()
    parts = list(dict.fromkeys(options.parts))
    if "before" in parts and options.before is None:
        if options.parts != list(PARTS):
            parser.error("--parts before needs --before DIR")
        note("no --before: the before part is left out")
        parts.remove("before")
    if options.before is not None and not (options.before / "arena").is_dir():
        parser.error(f"--before {options.before}: not a checkout of the project (no arena/)")
    compare_checkouts(ROOT, *([options.before] if "before" in parts else []))
    figures: list[Figure] = []
    wrong = 0
    if "command" in parts:
        figures += part_command(options.runs)
    if {"empty", "early", "l1r3"} & set(parts):
        from bitbully import BitBully

        solver, bitbully = Solver(), BitBully()
        for columns in (True, False):  # both kernels and the database loaded
            ours(solver, from_moves(WARM_UP), columns=columns)
            bitbullys(bitbully, [int(digit) - 1 for digit in WARM_UP], columns=columns)
        in_process = {"empty": lambda: part_empty(solver, bitbully, options.runs),
                      "early": lambda: part_early(solver, bitbully, options.early, options.seed),
                      "l1r3": lambda: part_l1r3(solver, bitbully)}
        for part in parts:
            if part in in_process:
                found, errors = in_process[part]()
                figures += found
                wrong += errors
    if "before" in parts:
        found, errors = part_before(options.before.resolve(), options.l1r2, options.rounds)
        figures += found
        wrong += errors
    print(format_figures(figures))
    if wrong:
        print(f"{wrong} wrong answers", file=sys.stderr)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
