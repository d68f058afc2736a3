"""Work on positions or games spread over worker processes, each with its own solver."""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, TypeVar

from joblib import Parallel, delayed

T = TypeVar("T")
R = TypeVar("R")

SolverSettings = tuple[float, Path | None, int]  # table megabytes, book directory, threads


def solver_settings() -> SolverSettings:
    """The table size, book directory and threads of this process's solver, for its
    workers."""
    from arena.search.solver import shared_solver

    solver = shared_solver()
    return solver.table_mb, solver.book_dir, solver.threads


def chunked_map(function: Callable[..., list[R]], items: Sequence[T], jobs: int, chunk: int,
                *arguments: Any) -> Iterator[tuple[Sequence[T], list[R]]]:
    """``function(chunk_of_items, *arguments)`` on consecutive chunks of ``items``, in
    ``jobs`` loky processes (in this one when ``jobs`` is 1); each chunk with its results,
    in order, as they come."""
    chunks = [items[start:start + chunk] for start in range(0, len(items), chunk)]
    if jobs == 1:
        results: Iterator[list[R]] = (function(part, *arguments) for part in chunks)
    else:
        results = Parallel(n_jobs=jobs, backend="loky", return_as="generator")(
            delayed(function)(part, *arguments) for part in chunks)
    yield from zip(chunks, results, strict=True)
