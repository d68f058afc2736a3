"""Placing an agent on a board's ladder: games against the anchors nearest its current estimate
until its 95% interval is narrow enough.

Each step is a match (``batch`` games, colours alternating, so pair by pair with colours
swapped) against one anchor: the nearest one at or below the estimate and the nearest one
above it in turn, where a game says the most about the rating. After each step the run is
added to the ladder and the agent is rated from its games against the anchors, the anchors
held (``fit_agent``). The placement stops when the interval's half-width is at most the
target, or when the directory's steps that place the agent on the board hold ``max_games``
games (those of earlier commands included; the last step is cut short to fit); then the board
is refitted. Every step is a run
directory of its own, numbered on from the steps already in the directory, its seed drawn
from the placement's seed and its number, so the same command plays the same games. The
agent's games already in the ladder count: the same command again goes on from the estimate
they give (and plays nothing once it is narrow enough). A step cut short (Ctrl-C, a crash)
stays out of the ladder until it is finished: the same command again first finishes it where
it stopped, as the same match command would (an ``llm:`` agent replays the answers its run
directory keeps), then goes on.

``every`` is the yardstick the nearest-anchor rule is measured against: each step is one run
in which the agent plays every anchor (``batch`` games shared among them, at least 2 each).
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from contextlib import suppress
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

import numpy as np

from arena.competitions.ladder.adding import add_run
from arena.competitions.ladder.anchors import anchored_ladder, no_anchors, shipped_ladder
from arena.competitions.ladder.fit import Estimate, anchors_of, fit_agent, refit
from arena.competitions.ladder.store import Ladder, LadderError, board_key
from arena.competitions.tournaments import tournament_plan
from arena.protocol.labels import short_name
from arena.protocol.players import canonical_player
from arena.runs.planning.plan import MatchPlan
from arena.runs.planning.request import RunRequest
from arena.runs.playing.batches import AgentCache
from arena.runs.playing.progress import ProgressBar
from arena.runs.playing.runner import resolve_agents, run_games
from arena.runs.store.files import RunFiles
from arena.runs.store.meta import load_meta
from arena.runs.store.model_usage import ModelUsage, total_of
from arena.runs.store.reading import NoRunError, open_run
from arena.runs.store.summary import model_totals

__all__ = ["DEFAULT_BATCH", "DEFAULT_MAX_GAMES", "DEFAULT_TARGET", "Placement", "Step",
           "checked_agent", "directory_name", "place", "placeable", "placement_ladder", "slug"]

DEFAULT_TARGET = 30.0
"""The half-width of the 95% interval a placement stops at, in Elo."""
DEFAULT_BATCH = 40
"""Games per step against one anchor."""
DEFAULT_MAX_GAMES = 3000
"""A placement stops once its steps hold this many games, even if its interval is wider than
the target."""

Strategy = Literal["nearest", "every"]


@dataclass(frozen=True)
class Step:
    """One step of a placement: the anchor played, the games, the run and the estimate after,
    and what the agent, a language model, spent in the step's run (None for other agents)."""

    anchor: str
    games: int
    directory: Path
    estimate: Estimate
    spent: ModelUsage | None = None


@dataclass
class Placement:
    """A placement: the agent, its board, every step, and the estimate it ended with."""

    agent: str
    board: str
    start: Estimate | None
    """The estimate from the agent's games already in the ladder, None if it had none."""
    steps: list[Step] = field(default_factory=list)

    @property
    def games(self) -> int:
        """The games the placement played."""
        return sum(step.games for step in self.steps)

    @property
    def estimate(self) -> Estimate | None:
        """The last estimate, None before the agent's first game."""
        return self.steps[-1].estimate if self.steps else self.start

    @property
    def spent(self) -> ModelUsage | None:
        """What the agent, a language model, spent over the steps' runs (their answers
        replayed from a cache counted as when they were paid); None for other agents."""
        return total_of(step.spent for step in self.steps)


def _opponents(anchors: dict[str, float], rating: float, step: int,
               strategy: Strategy) -> list[str]:
    """The anchors the next step plays: every one, or the nearest at or below ``rating`` on
    even steps and the nearest above it on odd ones (the other side when one side has none)."""
    ordered = sorted(anchors, key=lambda name: (anchors[name], name))
    if strategy == "every":
        return ordered
    below = [name for name in ordered if anchors[name] <= rating]
    above = [name for name in ordered if anchors[name] > rating]
    sides = [below[-1:], above[:1]]
    return sides[step % 2] or sides[1 - step % 2]


def _label(opponents: list[str]) -> str:
    """What a step is named after: its one anchor, or every anchor."""
    return opponents[0] if len(opponents) == 1 else "every-anchor"


def step_seed(seed: int, number: int) -> int:
    """The seed of a placement's run ``number`` (32 bits, from the placement's seed)."""
    return int(np.random.SeedSequence(seed, spawn_key=(number,)).generate_state(1)[0])


def slug(text: str) -> str:
    """``text`` as one file name: other characters than letters, digits, ``.``, ``=`` and
    ``-`` made ``_``."""
    return re.sub(r"[^A-Za-z0-9.=-]+", "_", text).strip("_")


def directory_name(spec: str, board: str, seed: int) -> str:
    """The name of the folder a placement of ``spec`` on ``board`` with ``seed`` goes in by
    default (a placement on another board, or with another seed, goes in another)."""
    return f"{slug(short_name(spec, 40))}_{board}_seed{seed}"


def _places(step: Path, name: str, board: str) -> bool:
    """Whether the step directory ``step`` places agent ``name`` on ``board`` (one cut before
    its meta.json was written places nothing yet)."""
    if not RunFiles(step).meta.is_file():
        return False
    meta = load_meta(step)
    return board_key(meta.rules) == board and all(
        pairing.agent_a == name for pairing in meta.plan().pairings)


def _cut_step(last: Path, name: str, board: str) -> tuple[Path, MatchPlan] | None:
    """The step in ``last`` (the last step directory) with its plan, if a former command left
    it unfinished and it places agent ``name`` on ``board``; None otherwise."""
    if not _places(last, name, board):
        return None
    with suppress(NoRunError):  # none: cut before its first game was written
        if open_run(last).finished.all():
            return None
    return last, load_meta(last).plan()


def _held(steps: list[Path], name: str, board: str) -> int:
    """The games of agent ``name`` on ``board`` that the step directories ``steps`` hold."""
    held = 0
    for step in steps:
        if _places(step, name, board):
            with suppress(NoRunError):  # none: cut before its first game
                held += int(open_run(step).finished.sum())
    return held


def _step(ladder: Ladder, board: str, name: str, plan: MatchPlan, where: Path,
          request: RunRequest) -> Step:
    """Play (or finish) the step's run in ``where`` (a progress bar if ``request`` says so)
    and add it to the ladder: the step, its games those played now, with the agent's estimate
    after it."""
    with ProgressBar(enabled=request.progress) as bar:
        run = run_games(plan, where, request, progress=bar)
    add_run(ladder, where)
    estimate = fit_agent(ladder.connection, board, name)
    assert estimate is not None  # it has just played
    opponents = [pairing.agent_b for pairing in plan.pairings]
    return Step(_label(opponents), run.played, where, estimate,
                model_totals(run.summaries).get(name))


def placeable(ladder: Ladder, board: str, name: str) -> dict[str, float]:
    """The anchors of ``board`` to place agent ``name`` against, by name; LadderError when
    the board has none or ``name`` is one of them."""
    anchors = anchors_of(ladder.connection, board)
    if not anchors:
        raise no_anchors(board)
    if name in anchors:
        raise LadderError(f"{name} is an anchor of board {board}: its rating is fixed")
    return anchors


def checked_agent(spec: str, request: RunRequest) -> str:
    """The name of ``spec``'s agent, built and checked on the request's board and limits as a
    step's run checks it: a bad agent (AgentSpecError: a server that cannot be reached, a
    board it refuses) is refused before a ladder file or a directory is made."""
    agents = AgentCache()
    try:
        resolve_agents(request.match_plan(spec, spec, 2), agents)
    finally:
        agents.close()
    return canonical_player(spec, request.rules, request.engines)


def placement_ladder(path: Path, board: str, name: str) -> tuple[Ladder, str | None]:
    """The ladder in ``path`` to place agent ``name`` on ``board`` (``anchored_ladder``: made
    if there is none, the board's anchors taken in if it has none); LadderError, before any
    file is made, when the anchors it would have are none or ``name`` is one of them."""
    if not path.exists():
        with shipped_ladder() as shipped:
            placeable(shipped, board, name)
    ladder, taken = anchored_ladder(path, board)
    try:
        placeable(ladder, board, name)
    except BaseException:
        ladder.close()
        raise
    return ladder, taken


def place(ladder: Ladder, spec: str, request: RunRequest, directory: Path, *,
          target: float = DEFAULT_TARGET, batch: int = DEFAULT_BATCH,
          max_games: int = DEFAULT_MAX_GAMES, strategy: Strategy = "nearest",
          told: Callable[[Step], None] | None = None) -> Placement:
    """Place ``spec`` on the ladder of ``request``'s board (see the module's docstring); the
    steps' runs go under ``directory``, each with a progress bar when ``request.progress``;
    ``told`` hears of each step as it ends.

    LadderError when the board has no anchors, the agent is one of them, or it has no games
    in the ladder and ``max_games`` leaves none to play; what a run raises for a bad agent."""
    if not target > 0:
        raise LadderError(f"the target half-width must be positive, got {target}")
    if batch < 2 or batch % 2:
        raise LadderError(f"games per step must be even and at least 2, got {batch}")
    rules = request.rules
    board = board_key(rules)
    name = canonical_player(spec, rules, request.engines)
    anchors = placeable(ladder, board, name)
    estimate = fit_agent(ladder.connection, board, name)
    placement = Placement(name, board, estimate)
    median = float(np.median(list(anchors.values())))
    steps = sorted(directory.glob("[0-9][0-9][0-9]-vs-*")) if directory.is_dir() else []
    cut = _cut_step(steps[-1], name, board) if steps else None
    # A cut step is finished as this command's first; one cut before its meta.json (a kill
    # just after its folder was made) is played again under its number, into its folder.
    unborn = bool(steps) and not RunFiles(steps[-1]).meta.is_file()
    earlier = len(steps) - (cut is not None or unborn)
    held = _held(steps, name, board)

    def played(step: Step) -> Estimate:
        placement.steps.append(step)
        if told is not None:
            told(step)
        return step.estimate

    if cut is not None:
        where, plan = cut
        estimate = played(_step(ladder, board, name, plan, where,
                                dataclasses.replace(request, out=where)))
    while estimate is None or estimate.half_width > target:
        room = min(batch, max_games - held - placement.games)
        number = earlier + len(placement.steps)
        opponents = _opponents(anchors, estimate.rating if estimate else median, number,
                               strategy)
        each = room // 2 * 2 if len(opponents) == 1 else max(2, room // len(opponents) // 2 * 2)
        if each < 2 or each * len(opponents) > room:
            break
        where = directory / f"{number:03d}-vs-{slug(_label(opponents))}"
        settings = dataclasses.replace(request, seed=step_seed(request.seed, number), out=where)
        plan = tournament_plan([name, *opponents], each, settings, gauntlet=True)
        estimate = played(_step(ladder, board, name, plan, where, settings))
    if estimate is None:
        raise LadderError(f"{name} has no games in the ladder and {directory} holds {held} "
                          f"of its games on board {board} already, max_games {max_games}: "
                          "none are left to play")
    refit(ladder, board)
    return placement
