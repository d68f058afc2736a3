"""How close agents play to perfection: on a set of positions with exact column scores,
the share of positions where an agent plays a best move (its accuracy), the share where
its move gives up the best theoretical result, win, draw or loss (its blunder rate), both
with 95% Wilson intervals, and what its moves cost (median milliseconds, mean nodes; a
language model's requests, tokens and dollars).

Agents are built from spec strings and hosted as in a match (``arena.hosting``: built-ins in
this process, agents from the user's files in a child process of their own), asked each
position as a new game, with a generator seeded by the run seed and the position's index
(several positions at once with ``concurrency``, each thread with an agent of its own).
An agent that fails, on any position, ends the measurement with one line naming it.

Unless told, the sets are ``default_sets``: random positions of the middle and end game, and
on 6 x 7, where the solver has the published 12-ply database, of the early game too.
"""

from __future__ import annotations

import gc
import statistics
import threading
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path

import numpy as np
import pandas as pd

from arena.analysis.position_sets import PositionSet
from arena.analysis.scores import ColumnScores
from arena.hosting.base import AgentFault, Host, ask_choice
from arena.hosting.policy import make_host
from arena.protocol.agent import Choice, GameStart
from arena.protocol.registry import plays_inline
from arena.rules.board import Position, Rules
from arena.rules.errors import ArenaError
from arena.runs.store.model_usage import ModelUsage, printed_usage, total_of
from arena.search.database import database_used
from arena.search.oracle import outcome_class
from arena.stats.elo import wilson

ACCURACY_FILE = "accuracy.csv"
CHOICES_FILE = "choices.csv"
CHART_FILE = "accuracy.png"
LATER_SETS = ("random:12-16", "random:17-24", "random:25-34")
EARLY_SET = "random:4-12"


def default_sets(rules: Rules) -> tuple[str, ...]:
    """The sets agents are tested on by default on ``rules``' board: ``LATER_SETS``, after
    ``EARLY_SET`` where the solver has the published database (6 x 7, unless turned off;
    the early positions of other big boards are costly to score)."""
    return (EARLY_SET, *LATER_SETS) if database_used(rules) else LATER_SETS


class AgentFailedError(ArenaError):
    """An agent crashed or played an illegal column on a test position."""


@dataclass(frozen=True)
class ChoiceRow:
    """One agent's move on one position, beside the exact scores."""

    agent: str
    set: str
    index: int
    position: str  # move string
    plies: int
    move: int  # the column played, 1 = leftmost (as in move strings)
    score: int  # the exact score of that move for the side to move
    best_score: int
    best_moves: str  # the best columns as a move string, e.g. "36"
    best: bool  # a best move
    kept: bool  # kept the best result (win, draw or loss)
    ms: float
    nodes: int | None


@dataclass(frozen=True)
class AccuracyRow:
    """One agent on one set."""

    agent: str
    set: str
    positions: int
    seed: int
    best: int
    accuracy: float
    accuracy_low: float
    accuracy_high: float
    blunders: int
    blunder_rate: float
    blunder_low: float
    blunder_high: float
    ms_per_move: float  # the median
    nodes_per_move: float | None  # the mean


def agent_move(host: Host, position: Position,
               rng: np.random.Generator) -> tuple[Choice, float]:
    """Ask the hosted agent for its move in ``position`` as a new game; the choice and the
    seconds it took. AgentFault if it fails (a child process also at the default bound)."""
    host.new_game(GameStart(position.rules, position.side_to_move))
    return ask_choice(host, position, rng)


def measure_agent(spec: str, positions: PositionSet, scores: Sequence[ColumnScores],
                  seed: int = 0, progress: Callable[[int], None] | None = None,
                  concurrency: int = 1,
                  ) -> tuple[AccuracyRow, list[ChoiceRow], ModelUsage | None]:
    """Ask the agent of ``spec`` for a move on every position and grade it, ``concurrency``
    positions at once (each in a thread with an agent of its own: for agents that wait on a
    server), after one untimed move so that loading or compiling its code is not counted
    (none for a kind that waits on a server, ``llm:``: its answer would be paid for
    nothing). Also what a language model spent (None for other agents)."""
    hosts = [make_host(spec, "auto") for _ in range(max(1, min(concurrency, len(scores))))]
    rows: list[ChoiceRow] = []
    try:
        for host in hosts:
            _start(host, spec, positions.positions[0].rules if positions.positions else None)
            if positions.positions and not plays_inline(spec):
                _ask(host, spec, positions, 0, np.random.default_rng([seed, len(positions)]))
        gc.disable()  # a collection would land on one agent's move
        rows = _graded_moves(hosts, spec, positions, scores, seed, progress)
    finally:
        gc.enable()
        spent = [printed_usage(host.take_output()) for host in hosts]
        for host in hosts:
            host.close()
    return summarise(spec, positions.label, seed, rows), rows, total_of(spent)


def _graded_moves(hosts: Sequence[Host], spec: str, positions: PositionSet,
                  scores: Sequence[ColumnScores], seed: int,
                  progress: Callable[[int], None] | None) -> list[ChoiceRow]:
    """Every position's move, graded, in order: each host in a thread of its own (with one,
    in this thread) takes the next position left, until none is left or one fails (then
    its error is raised, once the moves being asked have returned)."""
    rows: list[ChoiceRow | None] = [None] * len(scores)
    left = iter(range(len(scores)))
    lock = threading.Lock()
    failures: list[BaseException] = []

    def work(host: Host) -> None:
        while True:
            with lock:
                index = None if failures else next(left, None)
            if index is None:
                return
            try:
                choice, seconds = _ask(host, spec, positions, index,
                                       np.random.default_rng([seed, index]))
                row = _graded(spec, positions, index, choice, seconds, scores[index])
            except BaseException as error:  # noqa: BLE001 - raised again below
                with lock:
                    failures.append(error)
                return
            with lock:
                rows[index] = row
                if progress:
                    progress(1)

    if len(hosts) == 1:
        work(hosts[0])
    else:
        threads = [threading.Thread(target=work, args=(host,), daemon=True,
                                    name=f"accuracy-{number}")
                   for number, host in enumerate(hosts)]
        for thread in threads:
            thread.start()
        try:
            for thread in threads:
                thread.join()
        except BaseException as error:  # Ctrl-C: no thread takes another position
            with lock:
                failures.append(error)
            raise
    if failures:
        raise failures[0]
    return [row for row in rows if row is not None]


def _start(host: Host, spec: str, rules: Rules | None) -> None:
    """Build the agent (and warm it up for the set's board)."""
    try:
        host.start()
        if rules is not None:
            host.new_game(GameStart(rules, 1))
    except AgentFault as fault:
        raise AgentFailedError(fault.prefixed(f"agent {spec!r} failed to start")) from None


def _graded(spec: str, positions: PositionSet, index: int, choice: Choice, seconds: float,
            column_scores: ColumnScores) -> ChoiceRow:
    """The row of one choice, checked to be legal."""
    moves, position = positions.moves[index], positions.positions[index]
    if choice.column not in column_scores:
        raise AgentFailedError(f"agent {spec!r} played column {choice.column + 1} (it returned "
                               f"{choice.column}, counting from 0), which is not legal in "
                               f"position {moves or '(empty)'} of {positions.label}")
    best_score = max(column_scores.values())
    score = column_scores[choice.column]
    return ChoiceRow(
        agent=spec, set=positions.label, index=index, position=moves, plies=position.plies,
        move=choice.column + 1, score=score, best_score=best_score,
        best_moves="".join(str(c + 1) for c, s in column_scores.items() if s == best_score),
        best=score == best_score, kept=outcome_class(score) == outcome_class(best_score),
        ms=1000 * seconds, nodes=choice.nodes)


def _ask(host: Host, spec: str, positions: PositionSet, index: int,
         rng: np.random.Generator) -> tuple[Choice, float]:
    """``agent_move`` on position ``index`` of the set, a failure reported with the position."""
    try:
        return agent_move(host, positions.positions[index], rng)
    except AgentFault as fault:
        raise AgentFailedError(
            f"agent {spec!r} failed on position {positions.moves[index] or '(empty)'} of "
            f"{positions.label} ({fault.termination}): {fault}") from None


def summarise(spec: str, label: str, seed: int, rows: Sequence[ChoiceRow]) -> AccuracyRow:
    """The accuracy row of one agent's choices on one set."""
    count = len(rows)
    best = sum(row.best for row in rows)
    blunders = sum(not row.kept for row in rows)
    accuracy, blunder = wilson(best, count), wilson(blunders, count)
    nodes = [row.nodes for row in rows]
    return AccuracyRow(
        agent=spec, set=label, positions=count, seed=seed, best=best,
        accuracy=best / count, accuracy_low=accuracy.low, accuracy_high=accuracy.high,
        blunders=blunders, blunder_rate=blunders / count, blunder_low=blunder.low,
        blunder_high=blunder.high, ms_per_move=statistics.median(row.ms for row in rows),
        nodes_per_move=None if None in nodes else sum(n or 0 for n in nodes) / count)


def _merged(path: Path, new: pd.DataFrame) -> pd.DataFrame:
    """The table at ``path`` with its rows for the (agent, set) pairs of ``new`` replaced."""
    if not path.exists():
        return new
    old = read_table(path)
    replaced = old.set_index(["agent", "set"]).index.isin(new.set_index(["agent", "set"]).index)
    return pd.concat([old[~replaced], new], ignore_index=True)


def write_results(directory: Path, summaries: Sequence[AccuracyRow],
                  choices: Sequence[ChoiceRow]) -> pd.DataFrame:
    """Merge the rows into accuracy.csv and choices.csv in ``directory`` (an agent measured
    again on a set replaces its old rows); return the whole accuracy table."""
    directory.mkdir(parents=True, exist_ok=True)
    for name, rows, kind in ((ACCURACY_FILE, summaries, AccuracyRow),
                             (CHOICES_FILE, choices, ChoiceRow)):
        new = pd.DataFrame([asdict(row) for row in rows], columns=[f.name for f in fields(kind)])
        table = _merged(directory / name, new)
        temporary = directory / (name + ".tmp")
        table.to_csv(temporary, index=False)
        temporary.replace(directory / name)
    return read_table(directory / ACCURACY_FILE)


def read_table(path: Path) -> pd.DataFrame:
    """accuracy.csv or choices.csv with its proper dtypes."""
    table = pd.read_csv(path, dtype={"agent": str, "set": str, "position": str,
                                     "best_moves": str}, keep_default_na=False,
                        na_values={"nodes": [""], "nodes_per_move": [""]})
    if "nodes" in table:
        table["nodes"] = table["nodes"].astype("Int64")
    if "nodes_per_move" in table:
        table["nodes_per_move"] = table["nodes_per_move"].astype(float)
    return table
