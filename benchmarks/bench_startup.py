"""How fast short commands start, whole process (not a test).

    python benchmarks/bench_startup.py                       # this checkout alone
    python benchmarks/bench_startup.py --base ../base-commit  # against another checkout
    python benchmarks/bench_startup.py --pons /path/to/c4solver  # the solve set against C++

Each command runs as a user runs it (``python -c 'from arena.cli import main; main()' ARGS``) by the
checkout's Python (with --base, each checkout as pip builds it: ``benchmarks/checkouts.py``), from
an empty directory (``python -c`` puts the current directory first on sys.path), after one untimed
run that fills the caches (numba's, where the checkout uses numba) and Python's bytecode cache
(PYTHONDONTWRITEBYTECODE is unset for the children: an installed arena has its ``.pyc`` files, and
compiling every module again would be timed otherwise). With --base the two checkouts alternate, run
by run, so that both see the same load; the medians and their ratio (this checkout / base) are
printed per command.

The last command solves the 1,000 positions of Pons' Test_L3_R1 set (move strings on stdin,
one a line). With --pons, his ``c4solver`` reads the same lines in the same rounds, from the
same empty directory (no opening book), and the ratio this checkout / C++ is printed too;
build it from github.com/PascalPons/connect4 with ``make c4solver`` (commit 5e8f0b8, which
``bench_solver.py`` uses, clears its 80 MB table before every position; newer commits do
not, and start in a few milliseconds). The untimed first run checks both solvers' scores
against the set's.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from checkouts import clean_environment, compare_checkouts, python_for

ROOT = Path(__file__).resolve().parents[1]
ARENA = "from arena.cli import main; main()"
EASY = "44444433333322222"  # the next disc decides every column: no search at all
SEARCHED = "2252576253462244111563365343671351441"  # Test_L3_R1's first: a search of 3 nodes
SET = ROOT / "arena" / "analysis" / "data" / "pons" / "Test_L3_R1"
SET_LABEL = "arena solve < Test_L3_R1 (1,000)"
COMMANDS = {
    "arena --help": ["--help"],
    "arena agents": ["agents"],
    f"arena solve {EASY}": ["solve", EASY],
    "arena solve 2252576...(37 moves)": ["solve", SEARCHED],
    SET_LABEL: ["solve"],
}


def timed(command: list[str], scratch: Path, env: dict[str, str] | None = None,
          stdin: Path | None = None) -> tuple[float, str]:
    """Wall-clock seconds of ``command`` run in ``scratch`` (stdin from ``stdin``), and its
    standard output."""
    began = time.perf_counter()
    with open(stdin or os.devnull, "rb") as source:
        finished = subprocess.run(command, check=True, cwd=scratch, env=env, stdin=source,
                                  stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return time.perf_counter() - began, finished.stdout


def arena_env() -> dict[str, str]:
    """The environment of a child ``arena``, with bytecode caching."""
    return {key: value for key, value in clean_environment().items()
            if key != "PYTHONDONTWRITEBYTECODE"}


def check_scores(output: str, expected: list[str], solver: str) -> None:
    """Exit with a message unless ``output`` has the set's score on each line: the word after
    the move string (``arena solve``, Pons' 5e8f0b8), or the only one (his newer commits)."""
    scores = [words[1] if len(words) > 1 else words[0]
              for words in map(str.split, output.splitlines()) if words]
    wrong = sum(got != want for got, want in zip(scores, expected, strict=False))
    if len(scores) != len(expected) or wrong:
        sys.exit(f"{solver}: {wrong} wrong scores, {len(scores)} of {len(expected)} lines")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, help="another checkout to compare against")
    parser.add_argument("--pons", type=Path, help="Pons' c4solver, for the solve set")
    parser.add_argument("--runs", type=int, default=7, help="timed runs per command and checkout")
    options = parser.parse_args()
    checkouts = {"this": ROOT} | ({"base": options.base.resolve()} if options.base else {})
    compare_checkouts(*checkouts.values())
    columns = [*checkouts, *(["C++"] if options.pons else [])]
    print(f"{'command':<34}" + "".join(f"{name + ' (s)':>12}" for name in columns)
          + ("   this/base" if options.base else "") + ("   this/C++" if options.pons else ""))
    scratch = Path(tempfile.mkdtemp(prefix="bench-startup-"))
    rows = [line.split() for line in SET.read_text().splitlines() if line.strip()]
    moves = scratch.parent / f"{scratch.name}-Test_L3_R1.moves"  # outside the empty cwd
    moves.write_text("".join(row[0] + "\n" for row in rows))
    expected = [row[1] for row in rows]
    for label, args in COMMANDS.items():
        stdin = moves if label == SET_LABEL else None
        commands = {name: ([python_for(checkout), "-c", ARENA, *args], arena_env())
                    for name, checkout in checkouts.items()}
        if options.pons and label == SET_LABEL:
            commands["C++"] = ([str(options.pons.resolve())], dict(os.environ))
        for name, (command, env) in commands.items():
            _, output = timed(command, scratch, env, stdin)  # caches filled, files read once
            if stdin is not None:
                check_scores(output, expected, name)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(options.runs):
            for name, (command, env) in commands.items():
                times[name].append(timed(command, scratch, env, stdin)[0])
        medians = {name: statistics.median(values) for name, values in times.items()}
        line = f"{label:<34}" + "".join(
            f"{medians[name]:>12.3f}" if name in medians else f"{'':>12}" for name in columns)
        if options.base:
            line += f"   {medians['this'] / medians['base']:>9.2f}"
        if "C++" in medians:
            line += f"   {medians['this'] / medians['C++']:>9.2f}"
        print(line, flush=True)
    moves.unlink()


if __name__ == "__main__":
    main()
