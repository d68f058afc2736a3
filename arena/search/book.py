"""The solver's opening book: the exact score of every position with at most ``depth``
discs, built once by the project (``arena book``) and kept in the cache directory.

A book holds the positions that are not over and where the side to move cannot win at
once (the solver never searches those), one entry for a position and its mirror image,
keyed as the kernel keys them: the smaller of ``Position.key()`` of the two. It is saved as
``books/<rows>x<cols>-connect<k>.npz`` under the cache directory (``arena.analysis.books``
builds it).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from arena.rules.board import Position, Rules
from arena.rules.errors import ArenaError

BOOKS = "books"


class BookError(ArenaError):
    """A book file that cannot be read or does not fit its board."""


@dataclass(frozen=True)
class Book:
    """Exact scores of every position with at most ``depth`` discs (sorted by key)."""

    rules: Rules
    depth: int
    keys: np.ndarray  # uint64, ascending
    scores: np.ndarray  # int8

    def __len__(self) -> int:
        return len(self.keys)

    def score(self, position: Position) -> int | None:
        """The book's score of ``position``, if it holds it."""
        key = book_key(position)
        index = int(np.searchsorted(self.keys, np.uint64(key)))
        if index < len(self.keys) and int(self.keys[index]) == key:
            return int(self.scores[index])
        return None


def book_key(position: Position) -> int:
    """The key a book files ``position`` under: the same for its mirror image."""
    return min(position.key(), position.mirror().key())


def book_path(directory: Path, rules: Rules) -> Path:
    """Where the book of ``rules`` lives in the cache ``directory``."""
    return directory / BOOKS / f"{rules.rows}x{rules.cols}-connect{rules.connect}.npz"


def save_book(book: Book, path: Path) -> None:
    """Write ``book`` to ``path`` atomically."""
    path.parent.mkdir(parents=True, exist_ok=True)
    temporary = path.with_suffix(".tmp.npz")
    board = np.array([book.rules.rows, book.rules.cols, book.rules.connect, book.depth])
    np.savez(temporary, board=board, keys=book.keys, scores=book.scores)
    os.replace(temporary, path)


def load_book(directory: Path, rules: Rules) -> Book | None:
    """The book of ``rules`` in the cache ``directory``, or None if there is none."""
    path = book_path(directory, rules)
    if not path.exists():
        return None
    try:
        with np.load(path) as data:
            rows, cols, connect, depth = (int(v) for v in data["board"])
            keys, scores = data["keys"].astype(np.uint64), data["scores"].astype(np.int8)
    except (OSError, ValueError, KeyError) as error:
        raise BookError(f"opening book {path} cannot be read: {error}; delete it or build "
                        "it again with `arena book`") from None
    if Rules(rows, cols, connect) != rules or len(keys) != len(scores):
        raise BookError(f"opening book {path} does not belong to {rules}")
    return Book(rules, depth, keys, scores)


def positions_by_ply(rules: Rules, depth: int) -> Iterator[list[Position]]:
    """For each number of discs from 0 to ``depth``, the positions a book holds, one of each
    mirror pair (in the order they are first reached)."""
    level = [Position.empty(rules)]
    for _ in range(depth + 1):
        seen: set[int] = set()
        unique = []
        for position in level:
            key = book_key(position)
            if key not in seen:
                seen.add(key)
                unique.append(position)
        yield [p for p in unique if not p.winning_moves()]
        level = [after for p in unique for c in p.legal_moves()
                 if not (after := p.play(c)).is_terminal]


def book_of(rules: Rules, depth: int, scores: dict[int, int]) -> Book:
    """A book of ``rules`` to ``depth`` holding ``scores`` (book key -> score)."""
    keys = np.array(sorted(scores), dtype=np.uint64)
    return Book(rules, depth, keys, np.array([scores[int(k)] for k in keys], dtype=np.int8))
