"""Pascal Pons' benchmark positions: all parse, none is over, and the scores that need no
solver are right."""

from __future__ import annotations

from pathlib import Path

import pytest

from arena.rules.board import Position
from arena.rules.notation import from_moves
from tests.helpers.paths import PONS

PONS_FILES = sorted(PONS.glob("Test_*"))
LINES_PER_FILE = 1000


def read_set(path: Path) -> list[tuple[str, Position, int]]:
    """Every ``<moves> <score>`` line of a file, with the position it names."""
    entries = []
    for line in path.read_text().splitlines():
        moves, score = line.split()
        entries.append((moves, from_moves(moves), int(score)))
    return entries


def fastest_win(plies: int) -> int:
    """The README's score for winning with the next stone: 22 minus the winner's stones then."""
    return 22 - (plies // 2 + 1)  # the side to move has plies // 2 stones


def fastest_loss(plies: int) -> int:
    """The score when the opponent wins with its next stone (0 when one cell is left)."""
    return -(22 - ((plies + 1) // 2 + 1))  # the opponent has (plies + 1) // 2 stones


def wins_with_the_stone_after_next(position: Position) -> bool:
    """True if some move leaves the opponent only replies after which the side wins at once."""
    for col in position.legal_moves():
        after = position.play(col)
        if not after.is_terminal and all(after.play(reply).winning_moves()
                                         for reply in after.legal_moves()):
            return True
    return False


def test_readme_example() -> None:
    """``4455`` scores 18: no win with the 3rd stone, a forced win with the 4th."""
    position = from_moves("4455")
    assert position.winning_moves() == []
    assert wins_with_the_stone_after_next(position)
    assert fastest_win(position.plies) - 1 == 18


def test_the_six_sets_are_shipped() -> None:
    assert [path.name for path in PONS_FILES] == [
        "Test_L1_R1", "Test_L1_R2", "Test_L1_R3", "Test_L2_R1", "Test_L2_R2", "Test_L3_R1"]


@pytest.mark.parametrize("path", PONS_FILES, ids=lambda path: path.name)
def test_every_position_parses_and_is_not_over(path: Path) -> None:
    entries = read_set(path)
    assert len(entries) == LINES_PER_FILE
    for moves, position, score in entries:
        assert not position.is_terminal, moves
        assert position.plies == len(moves)
        assert abs(score) <= 21, moves


@pytest.mark.parametrize("path", PONS_FILES, ids=lambda path: path.name)
def test_scores_that_need_no_solver(path: Path) -> None:
    """No score beats a win with the next stone or falls below a loss to the opponent's next
    stone; the first is reached exactly when the side to move can win at once, the second
    (when it is a loss) exactly when every move lets the opponent win at once; a win with
    the stone after next is a forced win in three plies."""
    for moves, position, score in read_set(path):
        best, worst = fastest_win(position.plies), fastest_loss(position.plies)
        assert worst <= score <= best, moves
        assert (score == best) == bool(position.winning_moves()), moves
        every_move_loses = all(position.play(col).winning_moves()
                               for col in position.legal_moves())
        assert (score == worst < 0) == every_move_loses, moves
        if score == best - 1 > 0:
            assert wins_with_the_stone_after_next(position), moves
