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

A command that writes a run (the 10-game match, issue 39's) runs each time in a new empty
directory of its own, removed after it, so that every run plays its games (in the same
directory again it would find the run complete).

With --imports, each command then runs as many times again under ``python -X importtime``,
and the medians of what its imports cost are printed below its times, by whose modules they
are: the arena's own (``arena``, ``connect_four_agents``), numpy's, and the rest (the
standard library and other packages they pull in), every module numba or llvmlite imports
left out (numba leaves the project: issue 39), and Python's own start-up (``site``) too.

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
import shutil
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
MATCH_LABEL = "arena match random random -n 10"
COMMANDS = {
    "arena --help": ["--help"],
    "arena agents": ["agents"],
    f"arena solve {EASY}": ["solve", EASY],
    "arena solve 4453": ["solve", "4453"],  # issue 39's
    "arena solve 2252576...(37 moves)": ["solve", SEARCHED],
    MATCH_LABEL: ["match", "random", "random", "-n", "10", "--no-report"],  # issue 39's
    SET_LABEL: ["solve"],
}
WRITES_A_RUN = {MATCH_LABEL}
"""The commands run in a new empty directory each time."""


def timed(command: list[str], scratch: Path, env: dict[str, str] | None = None,
          stdin: Path | None = None, fresh: bool = False) -> tuple[float, str]:
    """Wall-clock seconds of ``command`` run in ``scratch`` (stdin from ``stdin``; with
    ``fresh``, in a new empty directory inside it, removed after), and its standard output."""
    where = Path(tempfile.mkdtemp(dir=scratch)) if fresh else scratch
    try:
        began = time.perf_counter()
        with open(stdin or os.devnull, "rb") as source:
            finished = subprocess.run(command, check=True, cwd=where, env=env, stdin=source,
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                      text=True)
        return time.perf_counter() - began, finished.stdout
    finally:
        if fresh:
            shutil.rmtree(where)


IMPORT_GROUPS = ("arena", "numpy", "rest")
LEFT_OUT = ("numba", "llvmlite")
"""The packages whose imports (and everything they import) --imports leaves out."""


def import_costs(stderr: str) -> dict[str, float]:
    """Milliseconds of the self times ``-X importtime`` wrote to ``stderr``, by group of
    ``IMPORT_GROUPS``, leaving out whatever a package of ``LEFT_OUT`` imported (and site's
    start-up). The report lists a module after those it imports, each indented one step more
    than its importer, so it is read backwards to know every module's importers."""
    costs = dict.fromkeys(IMPORT_GROUPS, 0.0)
    importers: list[tuple[int, str]] = []  # (indentation, name), outermost first
    for line in reversed(stderr.splitlines()):
        if not line.startswith("import time:") or "self [us]" in line:
            continue
        self_us, _, name = line.removeprefix("import time:").split("|")
        depth = len(name) - len(name.lstrip())
        module = name.strip()
        while importers and importers[-1][0] >= depth:
            importers.pop()
        importers.append((depth, module))
        chain = [importer for _, importer in importers]
        if chain[0] == "site" or any(top.partition(".")[0] in LEFT_OUT for top in chain):
            continue
        top = module.partition(".")[0]
        group = "arena" if top in ("arena", "connect_four_agents") else \
            "numpy" if top == "numpy" else "rest"
        costs[group] += max(0, int(self_us)) / 1000  # threads' imports can skew a self time
    return costs


def imports_line(command: list[str], scratch: Path, env: dict[str, str],
                 stdin: Path | None, fresh: bool, runs: int) -> str:
    """The medians of ``runs`` runs' import costs of ``command`` (a checkout's Python)."""
    found: dict[str, list[float]] = {group: [] for group in IMPORT_GROUPS}
    for _ in range(runs):
        where = Path(tempfile.mkdtemp(dir=scratch)) if fresh else scratch
        try:
            with open(stdin or os.devnull, "rb") as source:
                finished = subprocess.run([command[0], "-X", "importtime", *command[1:]],
                                          check=True, cwd=where, env=env, stdin=source,
                                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                                          text=True)
        finally:
            if fresh:
                shutil.rmtree(where)
        for group, ms in import_costs(finished.stderr).items():
            found[group].append(ms)
    return ", ".join(f"{group} {statistics.median(found[group]):.1f}" for group in IMPORT_GROUPS)


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
    parser.add_argument("--imports", action="store_true",
                        help="also the medians of what each command's imports cost (ms)")
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
        fresh = label in WRITES_A_RUN
        for name, (command, env) in commands.items():
            _, output = timed(command, scratch, env, stdin, fresh)  # caches filled, files read
            if stdin is not None:
                check_scores(output, expected, name)
        times: dict[str, list[float]] = {name: [] for name in commands}
        for _ in range(options.runs):
            for name, (command, env) in commands.items():
                times[name].append(timed(command, scratch, env, stdin, fresh)[0])
        medians = {name: statistics.median(values) for name, values in times.items()}
        line = f"{label:<34}" + "".join(
            f"{medians[name]:>12.3f}" if name in medians else f"{'':>12}" for name in columns)
        if options.base:
            line += f"   {medians['this'] / medians['base']:>9.2f}"
        if "C++" in medians:
            line += f"   {medians['this'] / medians['C++']:>9.2f}"
        print(line, flush=True)
        if options.imports:
            for name, (command, env) in commands.items():
                if name != "C++":
                    print(f"  {name} imports (ms): "
                          + imports_line(command, scratch, env, stdin, fresh, options.runs),
                          flush=True)
    moves.unlink()


if __name__ == "__main__":
    main()
