"""The positions agents are tested on, named by a set spec.

- a shipped benchmark set (``Test_L2_R1`` or ``L2_R1``) or a file of move strings;
- ``random:A-B`` (or ``random:K``): positions of uniformly random play, stopped at a number
  of discs drawn uniformly from A to B, distinct, drawn as the openings ``random:K`` of a
  match are: no line on the board and no immediate win for the side to move;
- ``games:DIR`` (or ``games:DIR:A-B``): the positions before each move of a run's games
  (with A to B discs), distinct, on the run's board.

With a count, a shipped set or a file gives its first positions, ``random:`` makes that
many and ``games:`` draws that many at random (kept in game order); the seed decides.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from arena.analysis.scored_positions import load_set
from arena.rules.board import Position, Rules
from arena.rules.errors import ArenaError
from arena.runs.planning.openings import random_walk
from arena.runs.store.reading import open_run

SET_HELP = ("a shipped set (Test_L2_R1 or L2_R1), a file of move strings, random:A-B "
            "(random play stopped at A to B discs) or games:DIR[:A-B] (positions from a "
            "run's games)")
DEFAULT_RANDOM_COUNT = 1000
ATTEMPTS_PER_POSITION = 1000


class PositionSetError(ArenaError):
    """A set spec that names no positions, or positions that cannot be made."""


@dataclass(frozen=True)
class PositionSet:
    """Named positions on one board, each with a move string that reaches it."""

    label: str
    rules: Rules
    moves: tuple[str, ...]
    positions: tuple[Position, ...]

    def __len__(self) -> int:
        return len(self.positions)


def parse_plies(text: str, spec: str) -> tuple[int, int]:
    """``A-B`` or ``K`` as an inclusive range of disc counts."""
    low, dash, high = text.partition("-")
    try:
        bounds = (int(low), int(high) if dash else int(low))
    except ValueError:
        raise PositionSetError(f"set {spec!r}: expected a number of discs K or a range A-B, "
                               f"got {text!r}") from None
    if not 0 <= bounds[0] <= bounds[1]:
        raise PositionSetError(f"set {spec!r}: the range {text!r} is empty or negative")
    return bounds


def load_position_set(spec: str, rules: Rules, count: int | None = None,
                      seed: int = 0) -> PositionSet:
    """The positions named by ``spec`` (see the module docstring)."""
    kind, _, rest = spec.partition(":")
    if kind == "random" and rest:
        low, high = parse_plies(rest, spec)
        moves = random_play(rules, low, high, count or DEFAULT_RANDOM_COUNT, seed, spec)
        return _positions(spec, rules, moves)
    if kind == "games" and rest:
        directory, _, plies = rest.partition(":")
        return game_positions(Path(directory), parse_plies(plies, spec) if plies else None,
                              count, seed, spec)
    entries = load_set(spec, rules, count)
    if not entries:
        raise PositionSetError(f"set {spec!r} holds no positions")
    over = [entry.moves for entry in entries if entry.position.is_terminal]
    if over:
        raise PositionSetError(f"set {spec!r}: the game is already over after {over[0]!r}")
    return PositionSet(spec, rules, tuple(e.moves for e in entries),
                       tuple(e.position for e in entries))


def _positions(label: str, rules: Rules, moves: list[str]) -> PositionSet:
    positions = []
    for text in moves:
        position = Position.empty(rules)
        for char in text:
            position = position.play(int(char) - 1)
        positions.append(position)
    return PositionSet(label, rules, tuple(moves), tuple(positions))


def random_play(rules: Rules, low: int, high: int, count: int, seed: int,
                spec: str) -> list[str]:
    """Move strings of ``count`` distinct positions of random play with ``low`` to ``high``
    discs, drawn as the openings ``random:K`` are: no line on the board and no immediate win
    for the side to move (such positions are trivial)."""
    cells = rules.rows * rules.cols
    if high >= cells:
        raise PositionSetError(f"set {spec!r}: a position that is not over has fewer than "
                               f"{cells} discs on {rules}")
    rng = np.random.default_rng(seed)
    found: dict[int, str] = {}
    for _ in range(count * ATTEMPTS_PER_POSITION):
        if len(found) == count:
            break
        drawn = random_walk(rules, int(rng.integers(low, high + 1)), rng)
        if drawn is not None:
            found.setdefault(drawn[1], drawn[0])
    if len(found) < count:
        raise PositionSetError(f"set {spec!r}: found only {len(found)} distinct positions "
                               f"of {count}")
    return list(found.values())


def game_positions(directory: Path, plies: tuple[int, int] | None, count: int | None,
                   seed: int, spec: str) -> PositionSet:
    """The distinct positions before each move of the games in ``directory`` (checked as
    ``arena.runs.store.reading.open_run`` checks them)."""
    try:
        reading = open_run(directory)
    except ArenaError as error:
        raise PositionSetError(f"set {spec!r}: {error}") from None
    rules = reading.meta.rules
    low, high = plies if plies else (0, rules.rows * rules.cols)
    found: dict[int, tuple[str, Position]] = {}
    for moves in (row.moves for row in reading.rows()):
        position = Position.empty(rules)
        for index, char in enumerate(moves):
            if low <= index <= high and not position.is_terminal:
                found.setdefault(position.key(), (moves[:index], position))
            position = position.play(int(char) - 1)
    entries = list(found.values())
    if count is not None and count < len(entries):
        keep = np.sort(np.random.default_rng(seed).choice(len(entries), count, replace=False))
        entries = [entries[i] for i in keep]
    if not entries:
        raise PositionSetError(f"set {spec!r}: no position in the games of {directory}")
    return PositionSet(spec, rules, tuple(m for m, _ in entries), tuple(p for _, p in entries))
