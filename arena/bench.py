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
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import NamedTuple

import numpy as np

from arena.agent import GameStart, as_choice
from arena.board import Position, Rules
from arena.errors import MalformedInputError
from arena.files import write_atomically
from arena.game import play_game
from arena.notation import from_moves
from arena.registry import make_agent

PONS_TEST_L2_R1 = """
5554224333234511764415115 52753311433677442422121 1233722555341451114725221333
271713432331713132 6672375354252731116762237724 763452543756455357732314
662222576343651642712157 3455565261655364217 4661237137541742643224
21253774536432517717274325 715371563635542612576371 4435612735531457155143
3457741246677474572223453551 754732466173162124726115261 64115442265757253615
34651743747475571565 36127316172165452675422251 4235245615377275211512
122435527534575161761 473175162213611457122724 5533212164224336233241461
1231426213112346726266353 45277231624411643516213 1667675535724753771415352132
41416453222527221644 1715764132212113656454 651142666562345525716135112 7532455277545526
2737772244262123677516643354 5746741223753516274755 736655673445166272447546
5237261635627332664143376 5617131757733341415 6561461362133747245312317267
3111642212167362762555645527 46212622667241121631756 47611556754127222 3262221111647466
7722654117336331661371176 3237735666151513515634 71521736623715176174362 544111732146347
47724652442416755146 54527613337336351111622 35531254275547623 16773414341241421774376322
175617344365477255 411717625255115123554 13227167421566572721 1456346777667336372
3464123621337153667644637227 31266511114762722166672 137616613112365341
6237377156733264225773 55371476331451637535 615475226615213226217557 5127773675347376151
7717464322265274226441151 55772343111646575236 72276133256716235275764
65452257612667655615271112 2577525532532441626 35653272262316437167672
1243234332773245342572475767 7535125153114313 253527614166761447574
245715112455274665623715716 56222765165254226556673774 77426557613323765616122535
4644613266742167756722771541 452631744441223222647115 6462662734332655671542313
4373163754466323 45542744735462742 52225553533233247312617 3246237456535345371512
212532617775164141 67421253275551744225213 33313546767235271352 411364471753646417433177755
1224277247774721613545115 76543123446324223431432127 5165132157277276134227475
7646171641443471716532164 27625643743643521753111 522264452736756
57553212327714336423676622 553332366276267756111555776 7725135517613477
7555726532567141222715416466 734476631737161177341324354 62623724435526761122431133
271411161457254361726 7617657562173664715555 777322726313643756152546 16445643742326746657
3612577271337526673343274 7125417577721225375266556 65644113777615216373313743
546167317562564251256237162
"""
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
    return [from_moves(moves) for moves in PONS_TEST_L2_R1.split()[:limit]]


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


def measure(spec: str, positions: Sequence[Position], set_name: str,
            repeat: int = DEFAULT_REPEAT) -> BenchRow:
    """Time a fresh agent built from ``spec`` on every position, after one warm-up move."""
    agent = make_agent(spec)
    rng = np.random.default_rng(0)
    agent.new_game(GameStart(positions[0].rules, positions[0].side_to_move))
    agent.choose(positions[0], rng)
    seconds, nodes, depths, playouts = [], [], [], []
    gc.disable()
    try:
        for position in positions:
            fastest = math.inf
            for _ in range(repeat):
                start = time.perf_counter()
                choice = as_choice(agent.choose(position, rng))
                fastest = min(fastest, time.perf_counter() - start)
            seconds.append(fastest)
            nodes.append(choice.nodes)
            depths.append(choice.depth)
            playouts.append(choice.playouts)
    finally:
        gc.enable()
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
    code = ("import numpy as np; from arena.registry import make_agent; "
            "from arena.board import Position; "
            f"make_agent({spec!r}).choose(Position.empty(), np.random.default_rng(0))")
    root = str(Path(__file__).resolve().parents[1])
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        filter(None, (root, os.environ.get("PYTHONPATH"))))}
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=env)
    ms = 1000 * (time.perf_counter() - start)
    return BenchRow(spec, FRESH_PROCESS, None, 1, ms, ms, ms, None, None)


def make_plan(specs: Sequence[str] = (), position_set: str = "games",
              quick: bool = False) -> list[PlanRow]:
    """``specs`` on ``position_set``, or else the default rows (minimax only if it exists).

    ``quick``: at most QUICK_POSITIONS positions per row, each timed once.
    """
    if position_set not in POSITION_SETS:
        raise MalformedInputError(
            f"unknown position set {position_set!r}: expected one of {', '.join(SETS)}")
    if specs:
        plan = [PlanRow(spec, position_set) for spec in specs]
    else:
        minimax = Path(__file__).resolve().parents[1] / "agents" / "minimax.py"
        plan = [row for row in DEFAULT_PLAN
                if minimax.exists() or not row.spec.startswith("minimax")]
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
