"""Games per second of ``llm:`` against the local fake server (tests/helpers/llm_server.py)
answering every request after a fixed delay, at several ``--concurrency`` values, one
playing process, the server in a process of its own:
``python -m benchmarks.bench_llm_concurrency [--delay 0.1] [--games 64] [--hosting inline]
[1 8 32]`` (``--hosting auto``: the run's default, the agent in a child process per thread).

The goal (issue 33): at least 0.8 x concurrency / (delay x the model's moves per game)."""

from __future__ import annotations

import argparse
import multiprocessing
import os
import tempfile
import time
from pathlib import Path

from arena import load_games
from tests.helpers.cli import arena
from tests.helpers.llm_server import FakeModel, register_llm_kind, serving


def serve(delay: float, urls: multiprocessing.Queue[str]) -> None:
    """The fake server, answering after ``delay`` seconds, until this process is ended."""
    with serving(FakeModel(delay=delay)) as server:
        urls.put(server.url)
        while True:
            time.sleep(3600)


def main() -> None:
    """Print one line per concurrency: games, seconds, games/s, the goal."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("levels", nargs="*", type=int, default=[1, 8, 32])
    parser.add_argument("--delay", type=float, default=0.1)
    parser.add_argument("--games", type=int, default=64)
    parser.add_argument("--hosting", choices=("inline", "auto", "process"), default="inline")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        register_llm_kind(Path(folder) / "kind")
        os.environ["ARENA_BENCH_KEY"] = "sk-bench"
        context = multiprocessing.get_context("spawn")
        urls: multiprocessing.Queue[str] = context.Queue()
        server = context.Process(target=serve, args=(args.delay, urls), daemon=True)
        server.start()
        try:
            spec = f"llm:fake-model,base_url={urls.get(timeout=60)},key_env=ARENA_BENCH_KEY"
            for level in args.levels:
                out = Path(folder) / f"c{level}"
                games = max(args.games, 4 * level)
                began, cpu = time.perf_counter(), time.process_time()
                status, output = arena("match", spec, "random", "-n", str(games), "-j", "1",
                                       "--hosting", args.hosting,
                                       "--concurrency", str(level), "--no-report", "-q",
                                       "--out", str(out))
                seconds = time.perf_counter() - began
                busy = (time.process_time() - cpu) / seconds
                assert status == 0, output
                moves = load_games(out / "games.csv")["turns_a"].mean()
                rate = games / seconds
                goal = 0.8 * level / (args.delay * moves)
                print(f"concurrency {level:3d}: {games} games in {seconds:6.2f} s = "
                      f"{rate:6.2f} games/s; {moves:.2f} model moves a game; goal "
                      f"{goal:6.2f} games/s: {'met' if rate >= goal else 'NOT met'} "
                      f"({rate / goal:.2f} of it); the playing process {busy:.0%} busy")
        finally:
            server.terminate()
            server.join()


if __name__ == "__main__":
    main()
