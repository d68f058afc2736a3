"""The fused game loop against the hosted path: games a second and peak memory (not a test).

    python benchmarks/bench_fused.py                 # both measures below, one round each
    python benchmarks/bench_fused.py --rounds 3      # alternate hosted and fused runs 3 times
    python benchmarks/bench_fused.py --base /tmp/base-fused   # fused runs, that checkout's
                                                     # (before) alternating with this one's
    python benchmarks/bench_fused.py --base DIR --hosted      # hosted runs, the same way

Each measure runs whole runs (``arena.runs.playing.runner.run_games``, one job, into a fresh
temporary directory: games played, games.csv written, sorted and summarised) in a fresh
Python process each, alternating the hosted path (the fused loop switched off in that process)
and the fused loop, and prints for each the median games a second of the run (from the call
to its return), of the whole process (imports and start-up included) and, fused, of
the compiled calls alone (``play_games``: the games without the rows, games.csv and the
summary around them), and the largest peak resident memory of a process:

- random against random: ``--random-games`` (1,000,000) games fused, a tenth of them hosted;
- negamax depth 4 against negamax depth 4 (the README's first command without the report):
  ``--negamax-games`` (1,000) games either way.

With ``--base DIR`` (another checkout of the project, say a worktree of the commit before a
change) the fused runs of that checkout take the hosted runs' place: the same games either
way, and the ratio printed is this checkout's games a second over that one's; a checkout
from before the fused loop (say a749f67) plays its games hosted. With ``--hosted`` too, the
hosted runs of both checkouts are compared instead (the games through the agents' hosts, a
tenth as many random games). Both checkouts are then run as pip builds them
(``benchmarks/checkouts.py``: built on first use, kept by commit). A measure given 0 games
(``--random-games 0``) is left out. Every process runs in an empty directory.

Run it from the repository root with the package installed.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import tempfile
import time
from pathlib import Path

from checkouts import clean_environment, compare_checkouts, python_for

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import sys, time
from pathlib import Path
began = time.perf_counter()
from arena.runs import batches  # the names before runs/ had rooms: any checkout has them
from arena.runs.plan import GameSettings, match_plan
from arena.runs.request import RunRequest
from arena.runs.runner import run_games
agent_a, agent_b, games, out, path = sys.argv[1:6]
in_loop = [0.0]
if path == "hosted":
    for name in ("fused_kernels", "fused_players"):  # its name now, and before
        if hasattr(batches, name):
            setattr(batches, name, lambda *arguments: None)
else:
    try:
        import arena.search.kernels.games as kernel
    except ImportError:  # a checkout from before the fused loop: its games are hosted
        kernel = None
    if kernel is not None:
        play = kernel.play_games
        def timed(*arguments):
            began = time.perf_counter()
            play(*arguments)
            in_loop[0] += time.perf_counter() - began
        kernel.play_games = timed
plan = match_plan(agent_a, agent_b, int(games), GameSettings())
start = time.perf_counter()
run_games(plan, Path(out), RunRequest(jobs=1))
print(time.perf_counter() - start, in_loop[0])
"""


Run = tuple[float, float, float, int]


def run(agent_a: str, agent_b: str, games: int, path: str, root: Path = ROOT,
        hosted: bool = False) -> Run:
    """Seconds of the run, of the whole process and inside the compiled calls (0 for the
    hosted path), and the process's peak memory in bytes; the code of checkout ``root``
    (``path`` "before": its fused runs, or hosted ones if ``hosted``)."""
    with tempfile.TemporaryDirectory() as scratch:
        command = [python_for(root), "-c", CHILD, agent_a, agent_b, str(games),
                   str(Path(scratch) / "run"),
                   ("hosted" if hosted else "fused") if path == "before" else path]
        began = time.perf_counter()
        child = subprocess.Popen(command, env=clean_environment(),
                                 stdout=subprocess.PIPE, text=True, cwd=scratch)
        assert child.stdout is not None
        printed = child.stdout.read()
        _, status, usage = os.wait4(child.pid, 0)
        whole = time.perf_counter() - began
        child.returncode = os.waitstatus_to_exitcode(status)
        if child.returncode:
            raise SystemExit(f"the {path} run failed (exit {child.returncode})")
        in_run, in_loop = (float(word) for word in printed.split())
        return in_run, whole, in_loop, usage.ru_maxrss * 1024


def measure(label: str, agent_a: str, agent_b: str, hosted_games: int, fused_games: int,
            rounds: int, base: Path | None, hosted: bool = False) -> None:
    """Alternate hosted (or, with ``base``, that checkout's fused, or hosted with ``hosted``)
    and fused (this checkout's hosted, with ``hosted``) runs; print games a second and the
    ratio."""
    other = "hosted" if base is None else "before"
    mine = "hosted" if hosted else "fused"
    counts = {"hosted": hosted_games, "before": hosted_games if hosted else fused_games,
              "fused": fused_games}
    results: dict[str, list[Run]] = {other: [], mine: []}
    for _ in range(rounds):
        results[other].append(run(agent_a, agent_b, counts[other], other, base or ROOT,
                                  hosted))
        results[mine].append(run(agent_a, agent_b, counts[mine], mine))
    rates = {}
    for path in (other, mine):
        runs, games = results[path], counts[path]
        rates[path] = statistics.median(games / run[0] for run in runs)
        whole = statistics.median(games / run[1] for run in runs)
        peak = max(run[3] for run in runs) / 2**20
        in_loop = statistics.median(run[2] for run in runs)
        loop = (f"  {games / in_loop:>11,.0f} games/s in the compiled calls" if in_loop else "")
        print(f"{label:<28} {path:<7} {games:>9,} games  {rates[path]:>11,.0f} games/s in the "
              f"run  {whole:>11,.0f} games/s whole process  peak {peak:,.0f} MB{loop}")
    print(f"{label:<28} {mine} / {other}: {rates[mine] / rates[other]:.2f}x games/s "
          "in the run")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--random-games", type=int, default=1_000_000)
    parser.add_argument("--negamax-games", type=int, default=1_000)
    parser.add_argument("--base", type=Path, help="a checkout whose fused runs to compare")
    parser.add_argument("--hosted", action="store_true",
                        help="with --base: compare the two checkouts' hosted runs instead")
    options = parser.parse_args()
    base = options.base.resolve() if options.base else None
    compare_checkouts(ROOT, *([base] if base else []))
    if options.random_games:
        measure("random vs random", "random", "random", options.random_games // 10,
                options.random_games, options.rounds, base, options.hosted)
    if options.negamax_games:
        measure("negamax:depth=4 vs depth=4", "negamax:depth=4", "negamax:depth=4",
                options.negamax_games, options.negamax_games, options.rounds, base,
                options.hosted)


if __name__ == "__main__":
    main()
