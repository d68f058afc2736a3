"""What playing through the engine protocol costs: the example engine against the same code
as a Python agent, in one run (not a test).

    python benchmarks/bench_engine.py [--games 400] [--rounds 3]

Three players with the same rules (win, else block, else a random column) play ``random``
from the empty board, one worker, in rounds:

- ``inline``: the example engine's ``choose`` as a Python agent in the worker (``--hosting
  inline``);
- ``process``: the same agent in a child process (``ProcessHost``, the default for files);
- ``engine``: ``engine:examples/engine.py``, the example engine over the line protocol
  (``EngineHost``).

Each round plays N and 2N games with each player. It prints games per second of the N-game
run (the start of the player's process included), games per second at the margin (the N
extra games of the longer run: N / (t(2N) - t(N)), no start-up), and what one move of the
player costs more than inline at the margin (the extra milliseconds per game over the moves
the player made per game); medians of the rounds.
Run it from the repository root with the package installed (or PYTHONPATH=.).
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from arena.protocol.agent import BaseAgent
from arena.rules.board import Position
from arena.runs.planning.request import RunRequest
from arena.runs.playing.runner import run_games
from arena.runs.store.reading import load_games

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "engine.py"


def _example() -> object:
    loader = importlib.util.spec_from_file_location("example_engine", EXAMPLE)
    assert loader is not None and loader.loader is not None
    module = importlib.util.module_from_spec(loader)
    loader.loader.exec_module(module)
    return module


class ExampleAgent(BaseAgent):
    """The example engine's choice as a Python agent: win, else block, else random."""

    def __init__(self) -> None:
        self.choose_column = _example().choose  # type: ignore[attr-defined]

    def choose(self, position: Position, rng: np.random.Generator) -> int:
        rules = position.rules
        columns = [[position.cell(col, row) for row in range(rules.rows)
                    if position.cell(col, row)] for col in range(rules.cols)]
        return int(self.choose_column(columns, rules.rows, rules.connect,
                                      position.side_to_move, True, int(rng.integers(1 << 31))))


PLAYERS = {
    "inline": (f"{Path(__file__).resolve()}:ExampleAgent", "inline"),
    "process": (f"{Path(__file__).resolve()}:ExampleAgent", "auto"),
    "engine": (f"engine:{EXAMPLE}", "auto"),
}


def run_seconds(name: str, games: int) -> tuple[float, float]:
    """Wall-clock seconds of a fresh run of ``games`` games, and the player's moves per game."""
    spec, hosting = PLAYERS[name]
    request = RunRequest(seed=1, hosting=hosting, jobs=1, progress=False)  # type: ignore[arg-type]
    plan = request.match_plan(spec, "random", games)
    with tempfile.TemporaryDirectory() as directory:
        began = time.perf_counter()
        run_games(plan, Path(directory) / "run", request)
        seconds = time.perf_counter() - began
        moves = load_games(Path(directory) / "run" / "games.csv")["turns_a"].mean()
    return seconds, float(moves)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=400, help="N")
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    n = options.games
    rows: dict[str, list[tuple[float, float, float, float]]] = {name: [] for name in PLAYERS}
    for _ in range(options.rounds):
        for name in PLAYERS:
            short, _ = run_seconds(name, n)
            long, moves = run_seconds(name, 2 * n)
            rows[name].append((n / short, n / (long - short), 1000 * (long - short) / n, moves))
    print(f"{n} and {2 * n} games against random, one worker, medians of {options.rounds} "
          f"rounds (python {sys.version.split()[0]})")
    print(f"{'player':<8} {'games/s':>8} {'marginal':>9} {'ms/game':>8} {'moves/game':>10} "
          f"{'+ms/move':>9}")
    inline_ms = statistics.median(row[2] for row in rows["inline"])
    for name, runs in rows.items():
        rate, marginal, ms, moves = (statistics.median(row[i] for row in runs) for i in range(4))
        print(f"{name:<8} {rate:8.1f} {marginal:9.1f} {ms:8.3f} {moves:10.1f} "
              f"{(ms - inline_ms) / moves:+9.3f}")


if __name__ == "__main__":
    main()
