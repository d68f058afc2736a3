"""Openings: the positions games start from, so that deterministic agents play varied games.

An opening spec is ``none`` (every game starts from the empty board), ``random:K`` (K random
plies per opening, with nobody having won and no immediate win for the side to move, distinct
positions where possible) or the path of a file of move strings, one per line (the first word
of a line is the move string; further words such as a score are ignored, as are blank lines and
lines starting with ``#``). With openings, games come in pairs: opening ``k`` is played twice,
colours swapped. File openings are used in file order and reused from the top when the file has
fewer openings than the run has pairs.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from arena.board import Position, Rules
from arena.errors import ArenaError, IllegalMoveError, MalformedInputError
from arena.notation import format_moves, from_moves

# Random openings come from SeedSequence(run seed, spawn_key=(OPENINGS_STREAM,)).
OPENINGS_STREAM = 1

# Tries for one random opening that is legal (no line, no immediate win for the side to move).
VALID_ATTEMPTS = 1000
# Tries for an opening not yet used in the current cycle before the pool counts as exhausted.
DISTINCT_ATTEMPTS = 100


class OpeningsError(ArenaError):
    """An openings spec or file that cannot be used on this board."""


class OpeningBook(Protocol):
    """Where the games of a run start."""

    @property
    def paired(self) -> bool:
        """True when each opening is played twice with colours swapped."""

    def opening(self, pair: int) -> str:
        """The move string of opening ``pair`` (0-based)."""

    def describe(self) -> dict[str, Any]:
        """What decides the openings, for comparing runs (JSON-friendly)."""


class NoOpenings:
    """Every game starts from the empty board."""

    paired = False

    def opening(self, pair: int) -> str:
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
        cells = self.rules.rows * self.rules.cols
        if not 1 <= self.plies < cells:
            raise OpeningsError(
                f"openings random:{self.plies}: expected 1 to {cells - 1} plies on a "
                f"{self.rules} board"
            )
        sequence = np.random.SeedSequence(self.seed, spawn_key=(OPENINGS_STREAM,))
        self._rng = np.random.Generator(np.random.PCG64(sequence))
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
    position = Position.empty(rules)
    columns: list[int] = []
    for _ in range(plies):
        safe = [c for c in position.legal_moves() if not position.play(c).won]
        if not safe:
            return None
        column = safe[int(rng.integers(len(safe)))]
        position = position.play(column)
        columns.append(column)
    if position.winning_moves():
        return None
    return format_moves(columns), position.key()


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


def load_openings(spec: str, rules: Rules, seed: int) -> OpeningBook:
    """The opening book named by ``spec``: ``none``, ``random:K`` or a file path."""
    text = spec.strip()
    if text == "none":
        return NoOpenings()
    kind, colon, count = text.partition(":")
    if kind == "random" and colon:
        if not count.strip().isdigit():
            raise OpeningsError(
                f"openings {spec!r}: expected random:K with K a whole number of plies, "
                "e.g. random:4"
            )
        return RandomOpenings(int(count), rules, seed)
    path = Path(text)
    if not path.is_file():
        raise OpeningsError(
            f"openings {spec!r}: no such file; expected none, random:K (e.g. random:4) or "
            "a file of move strings"
        )
    return read_openings_file(path, rules)
