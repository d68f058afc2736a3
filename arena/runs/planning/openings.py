"""Openings: the positions games start from, so that deterministic agents play varied games.

An opening spec is ``none`` (every game starts from the empty board), ``random:K`` (K random
plies per opening, with nobody having won and no immediate win for the side to move, distinct
positions where possible), ``uniform:K`` (K uniformly random legal plies drawn afresh for every
game, as seed 002 started its games) or the path of a file of move strings, one per line (the
first word of a line is the move string; further words such as a score are ignored, as are
blank lines and lines starting with ``#``). With ``random:K`` and file openings, games come in
pairs: opening ``k`` is played twice, colours swapped. File openings are used in file order and
reused from the top when the file has fewer openings than the run has pairs. ``uniform:K``
openings are unpaired: game ``i`` of a run gets its own, from the run seed and ``i``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from arena.rules.board import Position, Rules
from arena.rules.errors import ArenaError, IllegalMoveError, MalformedInputError
from arena.rules.notation import format_moves, from_moves
from arena.runs.planning.seeds import openings_rng, uniform_opening_rng

DEFAULT_OPENINGS: dict[str, str] = {"match": "none", "tournament": "none", "sprt": "random:8"}
"""The openings of each kind of run when none are asked for (``--openings``, an experiment
file's ``openings``, the API's ``openings=``), decided here and nowhere else; every result
names the openings it was played under (``RunDescription.conditions``). A match and a
tournament start every game from the empty board. An SPRT plays colour-swapped pairs, so it
needs paired openings, and may play 10,000 pairs: 8 random plies give millions of distinct
openings, where 4 give 1,120 positions that a long test would play again and again (with
deterministic agents, the same pair of games counted as new evidence)."""

# Tries for one random opening that is legal (no line, no immediate win for the side to move).
VALID_ATTEMPTS = 1000
# Tries for an opening not yet used in the current cycle before the pool counts as exhausted.
DISTINCT_ATTEMPTS = 100


class OpeningsError(ArenaError):
    """An openings spec or file that cannot be used on this board."""


class OpeningSet(Protocol):
    """Where the games of a run start: its openings."""

    @property
    def paired(self) -> bool:
        """True when each opening is played twice with colours swapped."""

    def opening(self, index: int) -> str:
        """The move string of opening ``index`` (0-based): a pair's when the set is paired,
        else a game's (its index in the run)."""

    def describe(self) -> dict[str, Any]:
        """What decides the openings, for comparing runs (JSON-friendly)."""


def _check_plies(kind: str, plies: int, rules: Rules) -> None:
    """Refuse a ply count that leaves no empty cell, or none at all."""
    cells = rules.rows * rules.cols
    if not 1 <= plies < cells:
        raise OpeningsError(
            f"openings {kind}:{plies}: expected 1 to {cells - 1} plies on a {rules} board")


class NoOpenings:
    """Every game starts from the empty board."""

    paired = False

    def opening(self, index: int) -> str:
        """The empty move string."""
        return ""

    def describe(self) -> dict[str, Any]:
        """The spec ``none``."""
        return {"openings": "none"}


@dataclass
class RandomOpenings:
    """K random plies per opening, drawn in order from the run's openings stream.

    Each ply is a uniformly random legal column that does not complete a line; an opening whose
    side to move could win at once is drawn again. A position already used in the current cycle
    is drawn again up to ``DISTINCT_ATTEMPTS`` times; after that the pool counts as exhausted,
    a new cycle begins and positions may repeat.
    """

    plies: int
    rules: Rules
    seed: int
    paired = True
    _drawn: list[str] = field(default_factory=list, init=False, repr=False)
    _used: set[int] = field(default_factory=set, init=False, repr=False)
    _rng: np.random.Generator = field(init=False, repr=False)

    def __post_init__(self) -> None:
        _check_plies("random", self.plies, self.rules)
        self._rng = openings_rng(self.seed)
        self.opening(0)  # fails now, before any game, if no such opening exists

    def opening(self, pair: int) -> str:
        """Opening ``pair``; the openings before it are drawn first."""
        while len(self._drawn) <= pair:
            self._drawn.append(self._draw_distinct())
        return self._drawn[pair]

    def describe(self) -> dict[str, Any]:
        """The spec ``random:K`` (the seed and board are part of the run already)."""
        return {"openings": f"random:{self.plies}"}

    def _draw_distinct(self) -> str:
        for _ in range(DISTINCT_ATTEMPTS):
            moves, key = self._draw_valid()
            if key not in self._used:
                break
        else:
            self._used.clear()
        self._used.add(key)
        return moves

    def _draw_valid(self) -> tuple[str, int]:
        for _ in range(VALID_ATTEMPTS):
            drawn = self._walk()
            if drawn is not None:
                return drawn
        raise OpeningsError(
            f"openings random:{self.plies}: found no {self.plies}-ply opening on a {self.rules} "
            "board without a line or an immediate win for the side to move"
        )

    def _walk(self) -> tuple[str, int] | None:
        return random_walk(self.rules, self.plies, self._rng)


def random_walk(rules: Rules, plies: int, rng: np.random.Generator) -> tuple[str, int] | None:
    """``plies`` uniformly random columns among those that complete no line, as a move
    string, with the key of the position reached; None when the walk gets stuck or the
    side to move could win at once."""
    # On the bitboards themselves (a Position only to look for wins, from the ply where the
    # side to move could have one): the parent of a run draws every opening of it.
    tops, bottoms = rules.geometry.column_tops, rules.geometry.column_bottoms
    current = mask = 0
    columns: list[int] = []
    while True:
        winning = [] if current.bit_count() < rules.connect - 1 else \
            Position(rules, current, mask).winning_moves()
        if len(columns) == plies:
            return None if winning else (format_moves(columns), current + mask)
        safe = [c for c in range(rules.cols) if not mask & tops[c] and c not in winning]
        if not safe:
            return None
        column = safe[int(rng.integers(len(safe)))]
        current, mask = current ^ mask, mask | (mask + bottoms[column])  # the other side's turn
        columns.append(column)


@dataclass(frozen=True)
class UniformOpenings:
    """K uniformly random legal plies for each game, drawn from the run seed and the game's
    index alone (so a run gives the same openings whatever the order games are played in).

    Each ply is a uniformly random legal column, with no other filter: the side to move may
    have a win in one. Only a walk that ends the game (possible from ``2 * connect - 1``
    plies on) is drawn again.
    """

    plies: int
    rules: Rules
    seed: int
    paired = False

    def __post_init__(self) -> None:
        _check_plies("uniform", self.plies, self.rules)
        self.opening(0)  # fails now, before any game, if no such opening exists

    def opening(self, index: int) -> str:
        """The opening of game ``index``."""
        rng = uniform_opening_rng(self.seed, index)
        for _ in range(VALID_ATTEMPTS):
            position = Position.empty(self.rules)
            columns: list[int] = []
            while len(columns) < self.plies and not position.is_terminal:
                legal = position.legal_moves()
                columns.append(legal[int(rng.integers(len(legal)))])
                position = position.play(columns[-1])
            if not position.is_terminal:
                return format_moves(columns)
        raise OpeningsError(
            f"openings uniform:{self.plies}: found no {self.plies}-ply opening on a "
            f"{self.rules} board that leaves the game open"
        )

    def describe(self) -> dict[str, Any]:
        """The spec ``uniform:K`` (the seed and board are part of the run already)."""
        return {"openings": f"uniform:{self.plies}"}


@dataclass(frozen=True)
class FileOpenings:
    """Openings read from a file of move strings, used in order and reused when exhausted."""

    path: Path
    moves: tuple[str, ...]
    paired = True

    def opening(self, pair: int) -> str:
        """The move string on the file's ``pair``-th opening line (cycling)."""
        return self.moves[pair % len(self.moves)]

    def describe(self) -> dict[str, Any]:
        """How many openings and a digest of them (the path may change, the openings not)."""
        digest = hashlib.sha256("\n".join(self.moves).encode()).hexdigest()
        return {"openings": "file", "count": len(self.moves), "sha256": digest}


def read_openings_file(path: Path, rules: Rules) -> FileOpenings:
    """Read and check every opening of a file: legal on ``rules`` and not already over."""
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise OpeningsError(f"openings file {str(path)!r}: cannot read it: {error}") from None
    moves = []
    for number, line in enumerate(text.splitlines(), start=1):
        words = line.split()
        if not words or words[0].startswith("#"):
            continue
        where = f"openings file {str(path)!r}, line {number}"
        moves.append(_checked_opening(words[0], rules, where))
    if not moves:
        raise OpeningsError(f"openings file {str(path)!r}: no move strings in it")
    return FileOpenings(path, tuple(moves))


def _checked_opening(moves: str, rules: Rules, where: str) -> str:
    try:
        position = from_moves(moves, rules)
    except (MalformedInputError, IllegalMoveError) as error:
        raise OpeningsError(f"{where}: {error}") from None
    if position.is_terminal:
        raise OpeningsError(f"{where}: opening {moves!r} already ends the game")
    return moves


GENERATED: dict[str, Callable[[int, Rules, int], OpeningSet]] = {
    "random": RandomOpenings, "uniform": UniformOpenings}


def names_a_file(spec: str) -> bool:
    """True unless ``spec`` is ``none``, ``random:K`` or ``uniform:K`` (any K)."""
    text = spec.strip()
    return text != "none" and text.partition(":")[0] not in GENERATED


def load_openings(spec: str, rules: Rules, seed: int) -> OpeningSet:
    """The openings named by ``spec``: ``none``, ``random:K``, ``uniform:K`` or a file."""
    text = spec.strip()
    if text == "none":
        return NoOpenings()
    kind, _, count = text.partition(":")
    if not names_a_file(text):
        if not count.strip().isdigit():
            raise OpeningsError(
                f"openings {spec!r}: expected {kind}:K with K a whole number of plies, "
                f"e.g. {kind}:4"
            )
        return GENERATED[kind](int(count), rules, seed)
    path = Path(text)
    if not path.is_file():
        what = "a directory, not a file" if path.is_dir() else "no such file"
        raise OpeningsError(
            f"openings {spec!r}: {what}; expected none, random:K (e.g. random:4), "
            "uniform:K or a file of move strings"
        )
    return read_openings_file(path, rules)


OpeningBook = OpeningSet
"""The earlier name of ``OpeningSet`` (a book is the solver's: docs/explanation/glossary.md)."""
