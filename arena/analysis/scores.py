"""Exact column scores of positions, kept on disk so that each position is solved once.

The cache holds one text file per board under ``scores/`` in the cache directory (see
``arena.system.cachedir``): one line a position, its key (``Position.key()``, hexadecimal) and the
score of every column for the side to move (``-`` for a full column). Lines are appended
as positions are solved, so an interrupted run keeps what it finished.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from arena.analysis.parallel import SolverSettings, chunked_map, solver_settings
from arena.rules.board import Position, Rules

FULL = "-"
CHUNK = 4  # positions per task of the worker pool

ColumnScores = dict[int, int]
Progress = Callable[[int], None]  # told how many more positions are done


def cache_file(directory: Path, rules: Rules) -> Path:
    """The file of ``rules``' positions in the cache ``directory``."""
    return directory / "scores" / f"{rules.rows}x{rules.cols}-connect{rules.connect}.txt"


class ScoreCache:
    """The cached column scores of one board's positions."""

    def __init__(self, directory: Path, rules: Rules):
        self.rules = rules
        self.path = cache_file(directory, rules)
        self._scores: dict[int, ColumnScores] = {}
        if self.path.exists():
            for line in self.path.read_text().splitlines():
                words = line.split()
                if len(words) == rules.cols + 1:  # a line cut short by a crash is skipped
                    self._scores[int(words[0], 16)] = {
                        c: int(word) for c, word in enumerate(words[1:]) if word != FULL}

    def __len__(self) -> int:
        return len(self._scores)

    def get(self, position: Position) -> ColumnScores | None:
        """The column scores of ``position``, if cached."""
        return self._scores.get(position.key())

    def add(self, position: Position, scores: ColumnScores) -> None:
        """Remember the column scores of ``position``, on disk too."""
        key = position.key()
        if key in self._scores:
            return
        self._scores[key] = scores
        self.path.parent.mkdir(parents=True, exist_ok=True)
        words = [str(scores[c]) if c in scores else FULL for c in range(self.rules.cols)]
        with self.path.open("a") as handle:
            handle.write(f"{key:x} {' '.join(words)}\n")


def _solve_chunk(positions: Sequence[Position], settings: SolverSettings) -> list[ColumnScores]:
    """Column scores of a few positions, with the process's solver (in a worker: one like
    its parent's)."""
    from arena.search.solver import ensure_solver

    solver = ensure_solver(*settings)
    found = [solver.column_scores(position) for position in positions]
    return [scores for scores in found if scores is not None]


def score_positions(positions: Sequence[Position], cache: ScoreCache, jobs: int = 1,
                    progress: Progress | None = None) -> list[ColumnScores]:
    """The column scores of every position, solving (with ``jobs`` processes, each with a
    solver like the process's own) only those the cache lacks and adding them to it."""
    missing = list({p.key(): p for p in positions if cache.get(p) is None}.values())
    if progress:
        progress(len(positions) - len(missing))
    for chunk, scores in chunked_map(_solve_chunk, missing, jobs, CHUNK, solver_settings()):
        for position, column_scores in zip(chunk, scores, strict=True):
            cache.add(position, column_scores)
        if progress:
            progress(len(chunk))
    found = [cache.get(p) for p in positions]
    return [scores for scores in found if scores is not None]
