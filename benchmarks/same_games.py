"""Do two versions of the arena play the same games? (not a test: a check for refactorings)

    python benchmarks/same_games.py REV            # this checkout against commit REV
    python benchmarks/same_games.py play SOURCE OUT  # the scenarios with the code in SOURCE
    python benchmarks/same_games.py compare OUT_A OUT_B

``REV`` is checked out into a temporary git worktree; the scenarios are played once with its
code and once with this checkout's, and every games.csv of the one is compared with the
other's, row by row, all columns but the timing ones (time_a, time_b). Each version is built
as pip builds it (``pip wheel``: its compiled core too, where it has one) and installed into
a venv of its own that sees this Python's packages but none of their start-up hooks
(``tests/helpers/venvs``): PYTHONPATH would not do, since an editable install's import hook
takes every ``import arena`` first. The scenarios: the README's first command,
experiments/seed-table.toml, a 5-agent tournament from random 4-ply openings, an SPRT, a run
on a local dask cluster, a Kaggle agent and an engine. Prints one line per run directory and
a total; exit status 1 if any game differs.
"""

from __future__ import annotations

import argparse
import csv
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.helpers.venvs import installed_python  # noqa: E402

ARENA = "from arena.cli import main; main()"
TIMING = ("time_a", "time_b")


def scenarios(files: Path) -> dict[str, list[str]]:
    """The commands to compare, by run name; input files come from ``files`` (a checkout)."""
    quiet = ["--quiet", "--no-report"]
    return {
        "readme": ["match", "negamax:depth=4,heuristic=threats+positional", "negamax:depth=4",
                   "-n", "1000", *quiet],
        "seed-table": ["run", str(files / "experiments" / "seed-table.toml"), "--quiet",
                       "--no-report"],
        "tournament": ["tournament", "random", "immediate-win", "negamax:depth=2",
                       "minimax:depth=2", "mcts:iterations=200", "-n", "20", "--openings",
                       "random:4", *quiet],
        "sprt": ["sprt", "negamax:depth=3", "negamax:depth=2", "--elo0", "0", "--elo1", "5",
                 "--max-games", "400", "--batch-pairs", "20", *quiet],
        "dask": ["match", "negamax:depth=2", "random", "-n", "200", "--backend", "dask",
                 "--jobs", "2", *quiet],
        "kaggle": ["match", "kaggle:negamax", "negamax:depth=2", "-n", "10", *quiet],
        "engine": ["match", f"engine:{files / 'examples' / 'engine.py'}", "random", "-n", "100",
                   *quiet],
    }


def installed(source: Path, scratch: Path) -> Path:
    """A Python that runs the arena built from the checkout ``source`` (in ``scratch``)."""
    began = time.perf_counter()
    python = installed_python(source, scratch)
    print(f"{source}: built and installed in {time.perf_counter() - began:.1f} s",
          file=sys.stderr)
    return python


def play(source: Path, out: Path, files: Path, scratch: Path) -> None:
    """Play every scenario with the code in ``source`` into ``out``/NAME."""
    python = installed(source, scratch)
    env = {name: value for name, value in os.environ.items() if name != "PYTHONPATH"}
    out.mkdir(parents=True, exist_ok=True)
    for name, args in scenarios(files).items():
        began = time.perf_counter()
        done = subprocess.run([str(python), "-c", ARENA, *args, "--out", str(out / name)],
                              cwd=out, env=env, capture_output=True, text=True)
        if done.returncode != 0:
            sys.exit(f"{source}: {name} failed ({done.returncode}): {done.stderr.strip()}")
        print(f"{source}: {name} in {time.perf_counter() - began:.1f} s", file=sys.stderr)


def rows(path: Path) -> list[dict[str, str]]:
    """The rows of a games.csv without the timing columns."""
    with path.open(newline="", encoding="utf-8") as file:
        return [{k: v for k, v in row.items() if k not in TIMING} for row in csv.DictReader(file)]


def compare(a: Path, b: Path) -> bool:
    """Print, per games.csv, how many games are identical; True if all are."""
    same = True
    files = sorted(path.relative_to(a) for path in a.rglob("games.csv"))
    total = differing = 0
    for relative in files:
        ours, theirs = rows(a / relative), rows(b / relative) if (b / relative).is_file() else []
        diff = sum(x != y for x, y in zip(ours, theirs, strict=False))
        diff += abs(len(ours) - len(theirs))
        total += len(ours)
        differing += diff
        same &= diff == 0
        print(f"{relative.parent}: {len(ours)} games, {len(theirs)} there, {diff} differ")
    missing = {p.relative_to(b) for p in b.rglob("games.csv")} - set(files)
    for relative in sorted(missing):
        print(f"{relative.parent}: only in {b}")
        same = False
    print(f"TOTAL {len(files)} runs, {total} games, {differing} differ")
    return same


def against(rev: str) -> bool:
    """This checkout against commit ``rev``: both play every scenario, then compare."""
    with tempfile.TemporaryDirectory(prefix="same-games-") as scratch:
        base = Path(scratch) / "base"
        subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(base), rev],
                       check=True, capture_output=True)
        try:
            play(base, Path(scratch) / "before", ROOT, Path(scratch) / "base-build")
            play(ROOT, Path(scratch) / "after", ROOT, Path(scratch) / "build")
            return compare(Path(scratch) / "before", Path(scratch) / "after")
        finally:
            subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(base)],
                           check=False)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="verb")
    run = sub.add_parser("play")
    run.add_argument("source", type=Path)
    run.add_argument("out", type=Path)
    both = sub.add_parser("compare")
    both.add_argument("a", type=Path)
    both.add_argument("b", type=Path)
    if len(sys.argv) == 2 and sys.argv[1] not in ("play", "compare", "-h", "--help"):
        sys.exit(0 if against(sys.argv[1]) else 1)
    args = parser.parse_args()
    if args.verb == "play":
        with tempfile.TemporaryDirectory(prefix="same-games-") as scratch:
            play(args.source.resolve(), args.out.resolve(), ROOT, Path(scratch))
    elif args.verb == "compare":
        sys.exit(0 if compare(args.a, args.b) else 1)
    else:
        parser.print_help()


if __name__ == "__main__":
    main()
