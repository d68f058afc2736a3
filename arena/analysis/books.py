"""Building the solver's opening book (see ``arena.search.book``): every position up to
a depth, the deepest first, each shallower ply with the deeper ones already in the book,
the positions of a ply solved in parallel. The scores found so far are appended to a
``.partial`` file beside the book, so that an interrupted build resumes where it stopped.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from arena.analysis.parallel import SolverSettings, chunked_map, solver_settings
from arena.rules.board import Position, Rules
from arena.search.book import Book, book_key, book_of, book_path, positions_by_ply, save_book
from arena.system.files import truncate_partial_line

CHUNK = 1  # positions per task of the worker pool: each is saved as soon as it is solved


@dataclass
class BookBuild:
    """A book being built: its positions ply by ply and the scores found so far."""

    rules: Rules
    depth: int
    path: Path  # where the finished book goes
    partial: Path  # the scores found so far, one ``key score`` line each
    levels: list[list[Position]]
    known: dict[int, int]

    @property
    def total(self) -> int:
        """The positions of the book."""
        return sum(map(len, self.levels))


def plan_book(rules: Rules, depth: int, directory: Path) -> BookBuild:
    """The book of ``rules`` to ``depth`` in the cache ``directory``, with the scores an
    interrupted build left."""
    path = book_path(directory, rules)
    partial = path.with_name(f"{path.stem}-depth{depth}.partial")
    known: dict[int, int] = {}
    if partial.exists():
        truncate_partial_line(partial)
        for line in partial.read_text().splitlines():
            key, score = line.split()
            known[int(key, 16)] = int(score)
    return BookBuild(rules, depth, path, partial, list(positions_by_ply(rules, depth)), known)


def _solve_chunk(positions: Sequence[Position], below: Book | None,
                 settings: SolverSettings) -> list[int]:
    """Exact scores of a few positions with the book made so far, by the process's solver
    (in a worker: one like its parent's)."""
    from arena.search.solver import ensure_solver

    solver = ensure_solver(*settings)
    solver.use_book(below)
    scores = [solver.solve(position) for position in positions]
    return [score for score in scores if score is not None]


def build_book(build: BookBuild, jobs: int = 1,
               progress: Callable[[int], None] | None = None) -> Book:
    """Solve the positions of ``build`` not solved yet (with ``jobs`` processes), then save
    the book; ``progress(n)`` is told as positions are done (first the ones an earlier
    build did)."""
    if progress:
        progress(len(build.known))
    build.partial.parent.mkdir(parents=True, exist_ok=True)
    settings = solver_settings()
    with build.partial.open("a") as handle:
        for ply in reversed(range(build.depth + 1)):
            below = book_of(build.rules, build.depth, build.known) if build.known else None
            todo = [p for p in build.levels[ply] if book_key(p) not in build.known]
            for chunk, scores in chunked_map(_solve_chunk, todo, jobs, CHUNK, below, settings):
                for position, score in zip(chunk, scores, strict=True):
                    build.known[book_key(position)] = score
                    handle.write(f"{book_key(position):x} {score}\n")
                handle.flush()
                if progress:
                    progress(len(chunk))
    book = book_of(build.rules, build.depth, build.known)
    save_book(book, build.path)
    build.partial.unlink()
    return book
