"""Processes left behind when a run is stopped by a signal, and how long it takes to stop
(Linux; not a test).

    python benchmarks/bench_leftovers.py [--tries 5] [--signals KILL,INT,TERM]
        [--targets group,command] [--scenarios NAME,...] [--compare OTHER_CHECKOUT]

Each scenario is a real ``arena match`` whose agent is stuck when the signal comes: an engine
that started a helper program and never answers, a Python agent looping in native code with
the GIL held or in plain Python, under each hosting (its own process; inline in a worker,
``-j 2``; the dask backend), and one that plays quickly (``dask-playing``: the time Ctrl-C
takes to stop a dask run). The command starts in a process group of its own; after a random
moment (0.3 to 4 s, so start-up is hit too; with dask, after games.csv appears, as its cluster
takes seconds to start) the signal (INT twice, 0.2 s apart, as the first Ctrl-C only lets the
games in progress finish; the time is counted from the second) goes to the whole group (target
``group``), as a terminal's Ctrl-C or ``kill -9 -- -PGID`` does, or to the command's process
alone (target ``command``: ``kill -9 PID``, which leaves its worker processes to fend for
themselves). A command still running 20 s after INT or TERM is counted
as not stopped and killed. Every process the run started carries a mark in its environment;
those still alive 5 s after the command ended are counted as left behind (then killed).

With ``--compare`` the tries alternate between this checkout and OTHER_CHECKOUT (e.g. a
worktree of an older commit, ``git worktree add /tmp/base COMMIT``): the arena is imported from
each in turn (both as pip builds them: ``benchmarks/checkouts.py``), the agents always come
from this checkout's tests/data. It prints, per scenario,
signal and checkout: tries, processes left behind (and in how many tries), tries the command
did not stop, and the median and longest seconds from the signal to its exit.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import itertools
import os
import random
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

from checkouts import clean_environment, compare_checkouts, python_for

HERE = Path(__file__).resolve().parents[1]
DATA = HERE / "tests" / "data"
AGENTS = DATA / "hosting_agents.py"
MARK = "ARENA_LEFTOVER_MARK"
PR_SET_CHILD_SUBREAPER = 36
STOP_SECONDS = 20.0
LEFT_SECONDS = 5.0

SCENARIOS: dict[str, tuple[str, ...]] = {
    "engine-hang": (f"engine:{DATA / 'engines' / 'hangs_with_helper.py'}", "random"),
    "process-gil": (f"{AGENTS}:HoldsGil", "random", "--hosting", "process"),
    "process-hang": (f"{AGENTS}:Hangs", "random", "--hosting", "process"),
    "worker-gil": (f"{AGENTS}:HoldsGil", "random", "--hosting", "inline", "-j", "2"),
    "dask-gil": (f"{AGENTS}:HoldsGil", "random", "--hosting", "inline", "-j", "2",
                 "--backend", "dask"),
    "dask-process-hang": (f"{AGENTS}:Hangs", "random", "--hosting", "process", "-j", "2",
                          "--backend", "dask"),
    "dask-playing": (f"{AGENTS}:Sleeps:seconds=0.02", "random", "-j", "2", "--backend",
                     "dask"),
}


def marked() -> dict[str, list[int]]:
    """The live (not zombie) processes of this machine by the mark in their environment."""
    found: dict[str, list[int]] = {}
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            if (entry / "stat").read_text().rpartition(")")[2].split()[0] == "Z":
                continue
            environ = (entry / "environ").read_bytes()
        except OSError:
            continue
        for item in environ.split(b"\0"):
            if item.startswith(MARK.encode() + b"="):
                found.setdefault(item.split(b"=", 1)[1].decode(), []).append(int(entry.name))
    return found


def reap() -> None:
    """Reap the orphans this process adopted as their subreaper."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def one_try(checkout: Path, scenario: str, sig: signal.Signals, group: bool, out: Path,
            rng: random.Random) -> tuple[int, bool, float | None]:
    """Run the scenario once and stop it with ``sig``: (processes left behind, whether the
    command stopped by itself, seconds from the signal to its exit)."""
    mark = uuid.uuid4().hex
    env = clean_environment(**{MARK: mark})
    command = [python_for(checkout), "-c", "from arena.cli import main; main()", "match",
               *SCENARIOS[scenario], "-n", "1000", "--quiet", "--no-report", "--out", str(out)]
    process = subprocess.Popen(command, env=env, cwd=out.parent, start_new_session=True,
                               stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    if scenario.startswith("dask"):  # its cluster takes seconds to start: wait for the games
        while not (out / "games.csv").exists() and process.poll() is None:
            time.sleep(0.05)
    time.sleep(rng.uniform(0.3, 4.0))
    for again in (False, True) if sig == signal.SIGINT else (False,):
        if again:  # the first Ctrl-C waits for the games in progress: the second stops
            time.sleep(0.2)
        sent = time.monotonic()
        if group:
            os.killpg(process.pid, sig)
        else:
            process.send_signal(sig)
    try:
        process.wait(STOP_SECONDS)
        stopped, seconds = True, time.monotonic() - sent
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait()
        stopped, seconds = False, None
    assert process.stderr is not None
    process.stderr.close()
    deadline = time.monotonic() + LEFT_SECONDS
    while (left := marked().get(mark, [])) and time.monotonic() < deadline:
        reap()
        time.sleep(0.05)
    for pid in left:  # the processes of this try only: they carry its mark
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)
    time.sleep(0.1)
    reap()
    return len(left), stopped, seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tries", type=int, default=5)
    parser.add_argument("--signals", default="KILL,INT,TERM")
    parser.add_argument("--targets", default="group,command")
    parser.add_argument("--scenarios", default=",".join(SCENARIOS))
    parser.add_argument("--compare", type=Path, help="another checkout, tried in alternation")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    ctypes.CDLL(None).prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    checkouts = [("this", HERE)] + ([("other", args.compare.resolve())] if args.compare else [])
    compare_checkouts(*(checkout for _, checkout in checkouts))
    signals = [signal.Signals[f"SIG{name}"] for name in args.signals.split(",")]
    rng = random.Random(args.seed)
    print(f"# {sys.executable} {' '.join(sys.argv)}")
    print("scenario            signal target  checkout tries left(tries) not-stopped "
          "median-stop-s max-stop-s")
    with tempfile.TemporaryDirectory(prefix="arena-leftovers-") as work:
        for scenario in args.scenarios.split(","):
            for sig, target in itertools.product(signals, args.targets.split(",")):
                results: dict[str, list[tuple[int, bool, float | None]]] = {
                    name: [] for name, _ in checkouts}
                for attempt in range(args.tries):
                    for name, checkout in checkouts:
                        out = Path(work) / f"{scenario}-{sig.name}-{target}-{name}-{attempt}"
                        results[name].append(one_try(checkout, scenario, sig, target == "group",
                                                     out, rng))
                for name, _ in checkouts:
                    runs = results[name]
                    left = sum(r[0] for r in runs)
                    tries_left = sum(1 for r in runs if r[0])
                    not_stopped = sum(1 for r in runs if not r[1])
                    times = [r[2] for r in runs if r[2] is not None]
                    median = f"{statistics.median(times):.2f}" if times else "-"
                    longest = f"{max(times):.2f}" if times else "-"
                    print(f"{scenario:19} {sig.name[3:]:6} {target:7} {name:8} {len(runs):5} "
                          f"{left:4}({tries_left}) {not_stopped:11} {median:>13} "
                          f"{longest:>10}", flush=True)


if __name__ == "__main__":
    main()
