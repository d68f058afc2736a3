"""`arena match` speed and memory, measured on whole commands (not a test).

    python benchmarks/bench_match.py speed      # random vs random, 100,000 games, --quiet
    python benchmarks/bench_match.py scaling    # negamax:depth=6 self-play, 200 games, jobs 1 vs 2
    python benchmarks/bench_match.py memory     # random vs random, 1,000,000 games: peak memory

Run them from the repository root with the package installed (or PYTHONPATH=.). Each runs
the real command in a fresh temporary run directory and prints wall-clock figures. ``speed``
also prints the CPU time of the command and its workers. ``scaling`` also times the playing
alone: ``run_games`` in this process, once the workers are started and have built (and
compiled) their agents in a first, untimed run. ``memory`` samples the resident memory of the
whole process group (the command and its worker processes) every 0.2 s.
"""

from __future__ import annotations

import argparse
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from arena.board import Rules
from arena.openings import load_openings
from arena.plan import GameSettings, MatchPlan, Pairing
from arena.runner import run_games

ROOT = Path(__file__).resolve().parents[1]
# The `arena` command, run with this interpreter.
ARENA = "from arena.cli import main; main()"


def arena(*args: str, out: Path) -> list[str]:
    """The command line of `arena match ARGS --out OUT`."""
    return [sys.executable, "-c", ARENA, "match", *args, "--quiet", "--out", str(out)]


def environment() -> dict[str, str]:
    """This process's environment with the repository importable."""
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def timed(command: list[str]) -> tuple[float, float]:
    """Wall-clock and CPU seconds (the command and its workers) the command took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    subprocess.run(command, env=environment(), check=True, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def group_rss_bytes(group: int) -> int:
    """Resident memory of every process in a process group."""
    total = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) == group:
                total += int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
        except (OSError, IndexError, ValueError):
            continue
    return total


def speed(games: int) -> None:
    """Games per second of the whole command, CSV included."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "run"
        seconds, cpu = timed(arena("random", "random", "-n", str(games), out=out))
        rows = (out / "games.csv").read_bytes().count(b"\n") - 1
    print(f"arena match random random -n {games} --quiet: {seconds:.2f} s, "
          f"{rows / seconds:,.0f} games/s ({rows} rows written); {cpu:.2f} CPU seconds, "
          f"{1e6 * cpu / rows:.0f} CPU microseconds per game")


def scaling(games: int) -> None:
    """--jobs 2 against --jobs 1 for negamax:depth=6 self-play with random openings."""
    agent = "negamax:depth=6"
    times = {}
    with tempfile.TemporaryDirectory() as scratch:
        for jobs in (1, 2):
            command = arena(agent, agent, "-n", str(games), "--openings", "random:4",
                            "--jobs", str(jobs), out=Path(scratch) / f"jobs{jobs}")
            times[jobs] = timed(command)[0]
            print(f"{agent} self-play, {games} games, --jobs {jobs}: {times[jobs]:.2f} s")
    print(f"--jobs 2 is {times[1] / times[2]:.2f} times as fast as --jobs 1 (whole command)")
    warm = {jobs: warm_seconds(agent, games, jobs) for jobs in (1, 2)}
    for jobs, seconds in warm.items():
        print(f"playing only, workers started, --jobs {jobs}: {seconds:.2f} s")
    print(f"--jobs 2 is {warm[1] / warm[2]:.2f} times as fast as --jobs 1 (playing only)")


def warm_seconds(agent: str, games: int, jobs: int) -> float:
    """Seconds ``run_games`` takes once the workers have played a first run."""
    rules = Rules()

    def plan(seed: int) -> MatchPlan:
        return MatchPlan((Pairing(agent, agent, games),), GameSettings(rules, seed),
                         load_openings("random:4", rules, seed))

    with tempfile.TemporaryDirectory() as scratch:
        run_games(plan(1), Path(scratch) / "warm-up", jobs=jobs)
        began = time.perf_counter()
        run_games(plan(2), Path(scratch) / "timed", jobs=jobs)
        return time.perf_counter() - began


def memory(games: int) -> None:
    """Peak resident memory of the command and its workers together."""
    with tempfile.TemporaryDirectory() as scratch:
        command = arena("random", "random", "-n", str(games), out=Path(scratch) / "run")
        process = subprocess.Popen(command, env=environment(), start_new_session=True,
                                   stdout=subprocess.DEVNULL)
        peak = 0
        began = time.perf_counter()
        try:
            while process.poll() is None:
                peak = max(peak, group_rss_bytes(process.pid))
                time.sleep(0.2)
        except KeyboardInterrupt:
            os.killpg(process.pid, signal.SIGINT)
            raise
        seconds = time.perf_counter() - began
    print(f"arena match random random -n {games}: {seconds:.1f} s, peak memory of the "
          f"process group {peak / 2**20:.0f} MB")


def main() -> None:
    """Run the benchmark named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("which", choices=["speed", "scaling", "memory"])
    parser.add_argument("-n", "--games", type=int, help="games (default per benchmark)")
    args = parser.parse_args()
    default = {"speed": 100_000, "scaling": 200, "memory": 1_000_000}[args.which]
    {"speed": speed, "scaling": scaling, "memory": memory}[args.which](args.games or default)


if __name__ == "__main__":
    main()
