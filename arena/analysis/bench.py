"""Speed of agents on fixed positions: milliseconds per move, nodes and playouts per second.

Two fixed position sets, both on the standard 6 x 7 board:

- ``pons``: the first 100 positions of Pascal Pons' Test_L2_R1 (middle game, 15 to 28
  discs, fewer than 14 moves from the end), for deep searches;
- ``games``: every position before a move in 8 games of ``immediate-win:block=true``
  against itself (game seeds 0 to 7): typical positions from the opening to the end.

Each agent is built fresh and plays the first position once untimed (compilation, loading
cached kernels), then every position ``repeat`` times; a position's time is its fastest
run on the wall clock, with garbage collection paused, so that other processes on the
machine disturb the figures less. Nodes per second is the sum of the nodes over the sum
of those times, playouts per second (for agents that report playouts, as MCTS does) the same
for the random games played out. The fresh-process row times a new Python process from its
start to its first move, on the empty board.
"""

from __future__ import annotations

import csv
import gc
import io
import math
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import NamedTuple

import numpy as np

from arena.analysis.scored_positions import load_set
from arena.hosting.base import AgentFault, ask_choice
from arena.hosting.policy import make_host
from arena.protocol.agent import GameStart
from arena.protocol.registry import make_agent, registered
from arena.rules.board import Position, Rules
from arena.rules.errors import ArenaError, MalformedInputError
from arena.runs.playing.game import play_game
from arena.system.files import write_atomically
from arena.system.processes import child_environment

PONS_SET = "Test_L2_R1"
PONS_POSITIONS = 100
GAME_OPENER = "immediate-win:block=true"
GAME_SEEDS = range(8)
FRESH_PROCESS = "fresh-process"
FRESH_PROCESS_SPEC = "negamax:depth=4"
QUICK_POSITIONS = 20
DEFAULT_REPEAT = 3


class PlanRow(NamedTuple):
    """One measurement to make: an agent on (the first ``limit`` positions of) a set."""

    spec: str
    set: str
    limit: int | None = None
    repeat: int = DEFAULT_REPEAT


DEFAULT_PLAN = (
    PlanRow("negamax:depth=10,heuristic=none", "pons"),
    PlanRow("negamax:depth=10,heuristic=positional+threats", "pons"),
    *(PlanRow(f"negamax:depth=4,heuristic={name}", "games") for name in (
        "none", "positional", "threats", "live-threats", "stacked-threats", "window",
        "positional+threats", "live-threats+stacked-threats+threats+positional")),
    PlanRow("minimax:depth=4", "games", limit=50),
    PlanRow("mcts:iterations=10000", "games"),
    PlanRow("mcts:iterations=10000,rollout=immediate-win", "games"),
    PlanRow("immediate-win:block=true", "games"),
    PlanRow("random", "games"),
)


@dataclass(frozen=True)
class BenchRow:
    """The speed of one agent on one position set."""

    agent: str
    set: str
    depth: int | None
    positions: int
    ms_per_move: float  # median
    ms_mean: float
    ms_max: float
    nodes_per_move: float | None
    nodes_per_second: float | None
    playouts_per_second: float | None = None  # random games played out, for MCTS


def pons_positions(limit: int | None = None) -> list[Position]:
    """The ``pons`` set (or its first ``limit`` positions)."""
    count = PONS_POSITIONS if limit is None else min(limit, PONS_POSITIONS)
    return [entry.position for entry in load_set(PONS_SET, limit=count)]


def game_positions(limit: int | None = None) -> list[Position]:
    """The ``games`` set (or its first ``limit`` positions)."""
    positions: list[Position] = []
    for seed in GAME_SEEDS:
        rngs = [np.random.default_rng(seed)] * 2
        players = [make_agent(GAME_OPENER), make_agent(GAME_OPENER)]
        outcome = play_game(players, rngs, Position.empty(Rules()))
        position = Position.empty(Rules())
        for column in outcome.moves:
            positions.append(position)
            position = position.play(column)
    return positions[:limit]


POSITION_SETS: dict[str, Callable[[int | None], list[Position]]] = {
    "pons": pons_positions,
    "games": game_positions,
}
SETS = tuple(POSITION_SETS)


class AgentFailedError(ArenaError):
    """An agent that failed while it was being measured."""


def measure(spec: str, positions: Sequence[Position], set_name: str,
            repeat: int = DEFAULT_REPEAT) -> BenchRow:
    """Time a fresh agent built from ``spec`` on every position, after one warm-up move.

    The agent is hosted as in a match (agents from the user's files in a child process,
    timed there); one that fails raises AgentFailedError."""
    host = make_host(spec, "auto")
    rng = np.random.default_rng(0)
    seconds, nodes, depths, playouts = [], [], [], []
    try:
        host.start()
        host.new_game(GameStart(positions[0].rules, positions[0].side_to_move))
        host.move(positions[0], rng, None)
        gc.disable()
        for position in positions:
            fastest = math.inf
            for _ in range(repeat):
                choice, took = ask_choice(host, position, rng)
                fastest = min(fastest, took)
            seconds.append(fastest)
            nodes.append(choice.nodes)
            depths.append(choice.depth)
            playouts.append(choice.playouts)
    except AgentFault as fault:
        raise AgentFailedError(f"agent {spec!r} failed while measured on {set_name} "
                               f"({fault.termination}): {fault}") from None
    finally:
        gc.enable()
        host.close()
    total_nodes = _total(nodes)
    total_playouts = _total(playouts)
    known_depths = [d for d in depths if d is not None]
    return BenchRow(
        agent=spec,
        set=set_name,
        depth=max(known_depths) if known_depths else None,
        positions=len(positions),
        ms_per_move=1000 * statistics.median(seconds),
        ms_mean=1000 * statistics.fmean(seconds),
        ms_max=1000 * max(seconds),
        nodes_per_move=None if total_nodes is None else total_nodes / len(positions),
        nodes_per_second=None if total_nodes is None else total_nodes / sum(seconds),
        playouts_per_second=None if total_playouts is None else total_playouts / sum(seconds),
    )


def _total(counts: list[int | None]) -> int | None:
    """The sum of ``counts``, or None if an agent did not report one of them."""
    return None if None in counts else sum(n for n in counts if n is not None)


def fresh_process_row(spec: str = FRESH_PROCESS_SPEC) -> BenchRow:
    """Time a new Python process from its start to the first move of ``spec``."""
    code = ("import numpy as np; from arena.protocol.registry import make_agent; "
            "from arena.rules.board import Position; "
            f"make_agent({spec!r}).choose(Position.empty(), np.random.default_rng(0))")
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=child_environment())
    ms = 1000 * (time.perf_counter() - start)
    return BenchRow(spec, FRESH_PROCESS, None, 1, ms, ms, ms, None, None)


def make_plan(specs: Sequence[str] = (), position_set: str = "games",
              quick: bool = False) -> list[PlanRow]:
    """``specs`` on ``position_set``, or else the default rows (of the agents registered).

    ``quick``: at most QUICK_POSITIONS positions per row, each timed once.
    """
    if position_set not in POSITION_SETS:
        raise MalformedInputError(
            f"unknown position set {position_set!r}: expected one of {', '.join(SETS)}")
    if specs:
        plan = [PlanRow(spec, position_set) for spec in specs]
    else:
        plan = [row for row in DEFAULT_PLAN if registered(row.spec.partition(":")[0])]
    if quick:
        plan = [row._replace(limit=min(row.limit or QUICK_POSITIONS, QUICK_POSITIONS), repeat=1)
                for row in plan]
    return plan


def run_bench(
    plan: Sequence[PlanRow],
    fresh_process: bool = True,
    progress: Callable[[str], None] | None = None,
) -> list[BenchRow]:
    """Measure every row of ``plan``, then optionally the first move of a fresh process."""
    for row in plan:
        make_agent(row.spec)  # a bad spec fails before anything is timed
    rows = []
    for row in plan:
        if progress:
            progress(f"measuring {row.spec} on {row.set}")
        positions = POSITION_SETS[row.set](row.limit)
        rows.append(measure(row.spec, positions, row.set, row.repeat))
    if fresh_process:
        if progress:
            progress(f"measuring the first move of {FRESH_PROCESS_SPEC} in a fresh process")
        rows.append(fresh_process_row())
    return rows


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:,.0f}" if value >= 1000 else f"{value:.3g}"
    return str(value)


def format_table(rows: Sequence[BenchRow]) -> str:
    """The rows as an aligned plain-text table."""
    names = [f.name for f in fields(BenchRow)]
    cells = [names] + [[_cell(getattr(row, name)) for name in names] for row in rows]
    widths = [max(len(line[i]) for line in cells) for i in range(len(names))]
    return "\n".join(
        "  ".join(text.ljust(width) if i < 2 else text.rjust(width)
                  for i, (text, width) in enumerate(zip(line, widths, strict=True))).rstrip()
        for line in cells
    )


def write_csv(rows: Sequence[BenchRow], path: Path) -> None:
    """Write the rows to ``path`` as CSV with a header (atomically)."""
    text = io.StringIO()
    writer = csv.DictWriter(text, fieldnames=[f.name for f in fields(BenchRow)],
                            lineterminator="\n")
    writer.writeheader()
    writer.writerows(asdict(row) for row in rows)
    write_atomically(path, text.getvalue())
