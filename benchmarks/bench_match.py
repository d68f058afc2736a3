"""`arena match` speed and memory, measured on whole commands (not a test).

    python benchmarks/bench_match.py speed      # random vs random, 100,000 games, --quiet
    python benchmarks/bench_match.py scaling [--before DIR]   # depth 6, 2,000 games, jobs 1 vs 2
    python benchmarks/bench_match.py timing     # ms/move of 20-game runs against `arena bench`
    python benchmarks/bench_match.py memory [--before DIR]  # random vs random, 1,000,000 games
    python benchmarks/bench_match.py against --before DIR --rounds 5   # this checkout / DIR's

Run them from the repository root with the package installed. Each runs
the real command in a fresh temporary run directory and prints wall-clock figures. ``speed``
also prints the CPU time of the command and its workers. ``scaling`` alternates --jobs 1 and
--jobs 2 runs of the same command, ``--rounds`` times, and prints the medians and ratios of
the whole command and of its game phase (timed inside the command, from the first batch
handed out to the last one written), the CPU seconds of each, the share of the game phase
each process spent inside its batches (this process's first: what a loaded machine changes
least), and the load average and the cores free before and after (``free_cores``: the same
pure-Python work on one process and split on two; a ratio of two jobs to one means
something only when it is near 2); with
``--before`` another checkout is measured the same way in the same rounds. ``timing``
plays each built-in agent 20 games against random and compares the mean milliseconds per move
in its summary with ``arena bench``'s mean on the positions of its ``games`` set. ``memory``
samples the resident memory of the whole process group (the command and its worker
processes) every 0.2 s (with ``--before``, that checkout's command first, then this one's).
``against`` runs the commands of ``AGAINST`` (built-in agents fused
and hosted, an agent of the user's inline, whose games are handed over as they end under a
crash watcher) with another checkout's arena (``--before``, say a worktree of an earlier
commit) and this one's, alternating (each first in every other round), ``--rounds`` times,
each from an empty folder, and prints the medians of wall-clock and CPU seconds and their
ratios. With ``--before`` both checkouts run as pip builds them (``benchmarks/checkouts.py``).
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from checkouts import clean_environment, compare_checkouts, python_for

from arena.analysis.bench import game_positions, measure
from arena.runs.planning.request import RunRequest
from arena.runs.playing.runner import run_games

ROOT = Path(__file__).resolve().parents[1]
# The `arena` command, run with this interpreter.
ARENA = "from arena.cli import main; main()"


def arena(*args: str, out: Path) -> list[str]:
    """The command line of `arena match ARGS --out OUT`."""
    return [sys.executable, "-c", ARENA, "match", *args, "--quiet", "--out", str(out)]


def with_checkout(command: list[str], checkout: Path) -> list[str]:
    """``command`` (an ``arena`` command line) run by ``checkout``'s Python."""
    return [python_for(checkout), *command[1:]]


def timed(command: list[str], checkout: Path = ROOT) -> tuple[float, float]:
    """Wall-clock and CPU seconds (the command and its workers) the command took, run from an
    empty folder with ``checkout``'s arena."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as empty:
        subprocess.run(with_checkout(command, checkout), env=clean_environment(), check=True,
                       cwd=empty, stdout=subprocess.DEVNULL)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def group_memory_bytes(group: int) -> tuple[int, int]:
    """Resident memory of every process in a process group, summed two ways: RSS (a page
    shared by a fork's parent and child counted in each) and PSS (shared pages split among
    the processes that share them: what the group really holds)."""
    rss = pss = 0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if int(fields[2]) != group:
                continue
            rss += int(fields[21]) * os.sysconf("SC_PAGE_SIZE")
            for line in (entry / "smaps_rollup").read_text().splitlines():
                if line.startswith("Pss:"):
                    pss += int(line.split()[1]) * 1024
        except (OSError, IndexError, ValueError):
            continue
    return rss, pss


def speed(games: int) -> None:
    """Games per second of the whole command, CSV included."""
    with tempfile.TemporaryDirectory() as scratch:
        out = Path(scratch) / "run"
        seconds, cpu = timed(arena("random", "random", "-n", str(games), out=out))
        rows = (out / "games.csv").read_bytes().count(b"\n") - 1
    print(f"arena match random random -n {games} --quiet: {seconds:.2f} s, "
          f"{rows / seconds:,.0f} games/s ({rows} rows written); {cpu:.2f} CPU seconds, "
          f"{1e6 * cpu / rows:.0f} CPU microseconds per game")


SCALING_AGENTS = ("negamax:depth=6", "negamax:depth=6,heuristic=threats")
TIMED_GAMES = """import atexit, os, sys, time
import arena.runs.pool as pool  # its name before runs/ had rooms: any checkout has it
results, steps, phase = pool.LocalPool.results, getattr(pool, "play_steps", None), [0.0]
def timed(self, *args):
    began = time.perf_counter()
    yield from results(self, *args)
    phase[0] += time.perf_counter() - began
def busy(*args, **kwargs):
    began = time.perf_counter()
    for part in steps(*args, **kwargs):
        if part is not None and part.last:
            os.write(2, f"batch {os.getpid()} {time.perf_counter() - began:.6f}\\n".encode())
        yield part
pool.LocalPool.results = timed
if steps is not None:  # the batches of an arena older than play_steps go untimed
    pool.play_steps = busy
atexit.register(lambda: print(f"game phase {os.getpid()} {phase[0]:.6f}", file=sys.stderr))
"""
"""The `arena` command with the seconds of its game phase printed (from the first batch handed
out to the last one written: the pool's results, consumed by the runner as they come), and
those of each batch, by the process that played it."""


class Phases(NamedTuple):
    """What ``timed_phases`` measures of one command."""

    wall: float  # the whole command
    games: float  # its game phase
    cpu: float  # the command and its workers, user + sys
    busy: tuple[float, ...]  # the share of the game phase each process spent in its batches,
    # this process first (none for an arena older than ``play_steps``)


def timed_phases(command: list[str], checkout: Path = ROOT) -> Phases:
    """The whole command and its game phase timed (``TIMED_GAMES``), run from an empty folder
    with ``checkout``'s arena."""
    command = [*command[:2], TIMED_GAMES + command[2], *command[3:]]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    with tempfile.TemporaryDirectory() as empty:
        done = subprocess.run(with_checkout(command, checkout), env=clean_environment(),
                              check=True, cwd=empty,
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    playing: dict[str, float] = {}
    for line in done.stderr.splitlines():
        if line.startswith(("batch ", "game phase ")):
            *_, pid, seconds = line.split()
            playing[pid] = playing.get(pid, 0.0) + float(seconds)
            phase, parent = float(seconds), pid  # the parent's line is the last
    busy = [playing[parent] - phase] + [value for pid, value in playing.items() if pid != parent]
    return Phases(wall, phase, (after.ru_utime + after.ru_stime) - (before.ru_utime
                                                                   + before.ru_stime),
                  tuple(value / phase for value in busy) if len(playing) > 1 or busy[0] else ())


def load() -> str:
    """The load averages of the last 1, 5 and 15 minutes, and the cores."""
    return " ".join(f"{value:.2f}" for value in os.getloadavg()) + \
        f" (cores: {os.cpu_count()})"


def _medians(runs: list[Phases]) -> Phases:
    """The median of each measure of ``runs``."""
    return Phases(statistics.median(run.wall for run in runs),
                  statistics.median(run.games for run in runs),
                  statistics.median(run.cpu for run in runs),
                  tuple(statistics.median(shares) for shares in zip(*(run.busy for run in runs),
                                                                    strict=True)))


def _spin(count: int) -> None:
    """Pure Python work, ``count`` steps."""
    total = 0
    for step in range(count):
        total += step * step


def free_cores(steps: int = 10_000_000) -> float:
    """How many cores this machine gives now: the same work done by one process, then split
    between two at once, wall-clock time of the one over that of the two (2 when the second
    core is free, 1 when other jobs take it)."""
    began = time.perf_counter()
    _spin(steps)
    one = time.perf_counter() - began
    context = multiprocessing.get_context("fork")
    began = time.perf_counter()
    workers = [context.Process(target=_spin, args=(steps // 2,)) for _ in range(2)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return one / (time.perf_counter() - began)


def scaling(games: int, rounds: int, before: Path | None) -> None:
    """--jobs 2 against --jobs 1: negamax depth 6 without and with threats, random 4-ply
    openings, --no-report, with this checkout's arena (and ``before``'s); medians of
    ``rounds`` alternating rounds (the order reversed in every other round), the whole
    command and its game phase, and the CPU time of each."""
    checkouts = [ROOT] if before is None else [before, ROOT]
    runs = [(checkout, jobs) for checkout in checkouts for jobs in (1, 2)]
    times: dict[tuple[Path, int], list[Phases]] = {run: [] for run in runs}
    print(f"load average before: {load()}; cores free: {free_cores():.2f}")
    with tempfile.TemporaryDirectory() as scratch:
        for round_ in range(rounds):
            for number, (checkout, jobs) in enumerate(runs if round_ % 2 == 0 else runs[::-1]):
                command = arena(*SCALING_AGENTS, "-n", str(games), "--openings", "random:4",
                                "--jobs", str(jobs), "--no-report",
                                out=Path(scratch) / f"{round_}-{number}")
                times[checkout, jobs].append(timed_phases(command, checkout))
    print(f"load average after:  {load()}; cores free: {free_cores():.2f}")
    print(f"{' vs '.join(SCALING_AGENTS)}, {games} games, random:4 openings, --no-report, "
          f"medians of {rounds} alternating rounds:")
    for checkout in checkouts:
        medians = {jobs: _medians(times[checkout, jobs]) for jobs in (1, 2)}
        for jobs, run in medians.items():
            shares = " and ".join(f"{share:.0%}" for share in run.busy) or "(not timed)"
            print(f"  {checkout}, --jobs {jobs}: whole command {run.wall:.2f} s, game phase "
                  f"{run.games:.2f} s, the rest {run.wall - run.games:.2f} s; {run.cpu:.2f} "
                  f"CPU s (user+sys, with workers); in batches {shares} of the game phase")
        one, two = medians[1], medians[2]
        print(f"{checkout}: --jobs 2 against --jobs 1: game phase {one.games / two.games:.2f}x, "
              f"whole command {one.wall / two.wall:.2f}x")


TIMING_AGENTS = ("random", "immediate-win", "immediate-win:block=true", "minimax:depth=4",
                 "negamax:depth=2", "negamax:depth=4",
                 "negamax:depth=6,heuristic=threats+positional", "negamax-id:time=0.005",
                 "mcts:iterations=2000")
# The solver is left out: on the early positions of 6 x 7 games a move costs it seconds to
# minutes without an opening book (benchmarks/bench_solver.py measures it).


def timing(games: int) -> None:
    """Mean milliseconds per move of each built-in agent in a short run against `arena bench`'s
    mean (means both: the same measure on both sides)."""
    print(f"{'agent':<46}{'run mean ms':>12}{'bench mean ms':>15}{'ratio':>8}")
    for spec in TIMING_AGENTS:
        request = RunRequest(seed=7, openings="random:4", jobs=1)
        plan = request.match_plan(spec, "random", games)
        with tempfile.TemporaryDirectory() as scratch:
            [summary] = run_games(plan, Path(scratch) / "run", request).summaries
        run_ms = summary.side_a.ms_per_move
        bench_ms = measure(spec, game_positions(), "games", repeat=1).ms_mean  # one call each
        print(f"{spec:<46}{run_ms:>12.4f}{bench_ms:>15.4f}{run_ms / bench_ms:>8.2f}")


def memory(games: int, checkout: Path = ROOT) -> None:
    """Peak resident memory of the command and its workers together (``checkout``'s arena)."""
    with tempfile.TemporaryDirectory() as scratch:
        command = arena("random", "random", "-n", str(games), out=Path(scratch) / "run")
        # Run from an empty folder: no arena importable but ``checkout``'s.
        process = subprocess.Popen(with_checkout(command, checkout), env=clean_environment(),
                                   start_new_session=True,
                                   stdout=subprocess.DEVNULL, cwd=scratch)
        peak_rss = peak_pss = 0
        began = time.perf_counter()
        try:
            while process.poll() is None:
                rss, pss = group_memory_bytes(process.pid)
                peak_rss, peak_pss = max(peak_rss, rss), max(peak_pss, pss)
                time.sleep(0.2)
        except KeyboardInterrupt:
            os.killpg(process.pid, signal.SIGINT)
            raise
        seconds = time.perf_counter() - began
    print(f"{checkout}: arena match random random -n {games}: {seconds:.1f} s, peak memory of "
          f"the process group {peak_pss / 2**20:.0f} MB proportional (PSS), "
          f"{peak_rss / 2**20:.0f} MB summed RSS (a forked child's shared pages counted twice)")


USER_AGENT = """from arena.protocol.agent import BaseAgent


class Uniform(BaseAgent):
    def choose(self, position, rng):
        return int(rng.choice(position.legal_moves()))
"""
"""An agent of the user's (a random column, in Python: no kernel agent, so never fused)."""
AGAINST = {
    "random vs random, fused, 100,000 games": ("random", "random", "-n", "100000"),
    "random vs random, hosted (a limit), 20,000 games": (
        "random", "random", "-n", "20000", "--time-per-move", "10"),
    "an agent of yours inline vs random, 20,000 games": (
        "{agent}:Uniform", "random", "-n", "20000", "--hosting", "inline"),
}


def against(before: Path, rounds: int, jobs: int) -> None:
    """The ``AGAINST`` commands with ``before``'s arena and this checkout's, alternating."""
    times: dict[tuple[str, Path], list[tuple[float, float]]] = {}
    with tempfile.TemporaryDirectory() as scratch:
        agent = Path(scratch) / "uniform.py"
        agent.write_text(USER_AGENT)
        for round_ in range(rounds):
            for number, (case, args) in enumerate(AGAINST.items()):
                order = (before, ROOT) if round_ % 2 == 0 else (ROOT, before)  # ABBA
                for side, checkout in enumerate(order):
                    out = Path(scratch) / f"{number}-{round_}-{side}"
                    command = arena(*(arg.format(agent=agent) for arg in args), "--jobs",
                                    str(jobs), "--no-report", out=out)
                    times.setdefault((case, checkout), []).append(timed(command, checkout))
    print(f"medians of {rounds} alternating rounds, --jobs {jobs}; after = {ROOT}, "
          f"before = {before}")
    for case in AGAINST:
        (wall_b, cpu_b), (wall_a, cpu_a) = (
            (statistics.median(t[0] for t in times[case, c]),
             statistics.median(t[1] for t in times[case, c])) for c in (before, ROOT))
        print(f"{case}: before {wall_b:.2f} s ({cpu_b:.2f} CPU s), after {wall_a:.2f} s "
              f"({cpu_a:.2f} CPU s); after/before wall {wall_a / wall_b:.3f}, "
              f"CPU {cpu_a / cpu_b:.3f}")


def main() -> None:
    """Run the benchmark named on the command line."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("which", choices=["speed", "scaling", "timing", "memory", "against"])
    parser.add_argument("-n", "--games", type=int, help="games (default per benchmark)")
    parser.add_argument("--before", type=Path,
                        help="against: the other checkout; scaling, memory: another to "
                        "measure too")
    parser.add_argument("--rounds", type=int, default=5, help="against, scaling: rounds")
    parser.add_argument("--jobs", type=int, default=1, help="against: --jobs of each run")
    args = parser.parse_args()
    compare_checkouts(ROOT, *([args.before] if args.before else []))
    if args.which == "against":
        if args.before is None:
            parser.error("against needs --before DIR")
        against(args.before.resolve(), args.rounds, args.jobs)
        return
    if args.which == "scaling":
        scaling(args.games or 2000, args.rounds,
                None if args.before is None else args.before.resolve())
        return
    if args.which == "memory":
        for checkout in ([] if args.before is None else [args.before.resolve()]) + [ROOT]:
            memory(args.games or 1_000_000, checkout)
        return
    default = {"speed": 100_000, "timing": 20}[args.which]
    run = {"speed": speed, "timing": timing}[args.which]
    run(args.games or default)


if __name__ == "__main__":
    main()
