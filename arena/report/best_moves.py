"""The report's section on best moves, from the moves.csv of ``arena analyze --best-moves``:
the share of each agent's graded moves that are a best move (a column with the highest
exact score, as ``arena.analysis.accuracy`` grades agents on position sets), over all its
moves and by phase of the game (those of ``arena.report.blunders``), with 95% Wilson
intervals."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from arena.analysis.annotate import load_moves
from arena.report.blunders import phase_counts, phase_names, phase_rates, rate_cells
from arena.report.markdown import markdown_table
from arena.runs.store.meta import load_meta


def best_move_rates(moves: pd.DataFrame, cells: int) -> pd.DataFrame:
    """Rows agent, phase (a phase name or ``all``), moves, best (the best moves), rate, low,
    high, from moves.csv's rows."""
    best = moves[moves["best"] == 1]
    return phase_rates(phase_counts(moves["agent"].tolist(), moves["ply"].tolist(), cells),
                       phase_counts(best["agent"].tolist(), best["ply"].tolist(), cells),
                       "best", cells)


@dataclass(frozen=True)
class BestMoves:
    """A run's best-move rates (``best_move_rates``) on a board of ``cells`` cells."""

    rates: pd.DataFrame
    cells: int


def load_best_moves(directory: Path) -> BestMoves | None:
    """The best moves of the run in ``directory`` (after ``arena analyze --best-moves``), or
    None without a moves.csv."""
    moves = load_moves(directory)
    if moves is None:
        return None
    rules = load_meta(directory).rules
    cells = rules.rows * rules.cols
    return BestMoves(best_move_rates(moves, cells), cells)


def best_move_lines(best: BestMoves, labels: Mapping[str, str]) -> list[str]:
    """The report's lines on best moves: a table of each agent's best-move rates over all
    its moves and by phase."""
    rows = [(labels.get(agent, agent), moves, *cells_of)
            for agent, moves, cells_of in rate_cells(best.rates, best.cells, "best")]
    return ["## Best moves", "",
            "The same moves by their exact scores: a best move is a column with the highest "
            "score of its position (as `arena accuracy` grades agents on position sets). A "
            "move can keep the theoretical result without being best: the score also counts "
            "how soon a game is won or lost. Rates are per move, with 95% intervals and "
            "counts.", "",
            markdown_table(("agent", "moves", "all moves", *phase_names(best.cells)), rows)]
