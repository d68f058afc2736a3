"""The compiled core (the C++ extension arena.search.kernels._core): a machine-code module
whose types the stub declares, with the board's tables and the rules of arena.rules.board, and
the endings of move strings that the checks of a run's rows read."""

from __future__ import annotations

import ast
import importlib.machinery
import types
from pathlib import Path

import numpy as np
import pytest

from arena.rules.board import Position, Rules, has_line, threat_cells
from arena.search.kernels import _core, bitboard, endings
from arena.search.kernels.native import core
from tests.helpers.positions import EXTREME_RULES, random_positions

BOARDS = (*EXTREME_RULES, Rules(5, 6, 3), Rules(7, 8, 5), Rules(4, 5, 4), Rules(3, 3, 3))


def test_the_core_is_a_compiled_extension_module() -> None:
    assert core is _core
    assert str(_core.__file__).endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES))
    assert not isinstance(_core.has_line, types.FunctionType)  # machine code, not Python


def test_the_stub_declares_what_the_module_has() -> None:
    stub = ast.parse(Path(bitboard.__file__).with_name("_core.pyi").read_text())
    declared = {node.name for node in stub.body if isinstance(node, ast.FunctionDef)}
    declared |= {node.target.id for node in stub.body
                 if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}
    assert declared == {name for name in dir(_core) if not name.startswith("_")}


@pytest.mark.parametrize("rules", BOARDS, ids=str)
def test_the_tables_of_a_board_are_board_array_s(rules: Rules) -> None:
    packed = bitboard.board_array(rules)
    made = _core.board_tables(rules.rows, rules.cols, rules.connect)
    assert made.dtype == np.uint64 and len(made) == _core.BOARD_FIELDS == len(packed)
    assert made[:12].tolist() == packed[:12].tolist()  # all but the heuristics' planes


@pytest.mark.parametrize("rules", BOARDS, ids=str)
def test_the_rules_agree_with_the_python_rules(rules: Rules) -> None:
    packed = bitboard.board_array(rules)
    positions = [Position.empty(rules), *random_positions(rules, 12, seed=rules.cols)]
    for position in positions:
        cur, mask = position.current, position.mask
        for stones in (cur, cur ^ mask):
            assert _core.winning_cells(stones, mask, packed) == threat_cells(stones, mask, rules)
            assert _core.has_line(stones, packed) == has_line(stones, rules)
        assert _core.playable(mask, packed) == position.playable_cells()
        assert _core.legal_columns(mask, packed).tolist() == position.legal_moves()


def test_the_rules_on_a_hand_checked_position() -> None:
    """Moves 4455667 on 6 x 7: the first player's four in the bottom row, after 445566."""
    packed = bitboard.board_array(Rules())
    height = 7
    bottom_row = sum(1 << (c * height) for c in (3, 4, 5))  # x on d1, e1, f1
    o_discs = sum(1 << (c * height + 1) for c in (3, 4, 5))  # o on d2, e2, f2
    mask = bottom_row | o_discs
    assert _core.winning_cells(bottom_row, mask, packed) == 1 << (2 * height) | 1 << (6 * height)
    # c2 and g2 complete o's row too, though nothing is below them yet
    assert _core.winning_cells(o_discs, mask, packed) == 1 << (2 * height + 1) | 1 << (
        6 * height + 1)
    assert not _core.has_line(bottom_row, packed)
    assert _core.has_line(bottom_row | 1 << (6 * height), packed)
    full_column = (1 << 6) - 1
    assert _core.legal_columns(full_column, packed).tolist() == [1, 2, 3, 4, 5, 6]
    assert _core.popcount(mask) == 6 and _core.popcount(2**64 - 1) == 64


def test_bad_boards_are_refused() -> None:
    with pytest.raises(ValueError, match="fits a 64-bit bitboard"):
        _core.board_tables(8, 8, 4)
    with pytest.raises(TypeError):
        _core.has_line(1, np.zeros(3, dtype=np.uint64))  # not a board_array


def _endings(games: list[str], dtype: type = np.int64) -> list[int]:
    columns = np.array([int(c) - 1 for game in games for c in game], dtype=dtype)
    offsets = np.cumsum([0, *map(len, games)])
    return endings.game_endings(columns, offsets, 6, 7, 4).tolist()


def test_game_endings_is_the_core_s_on_hand_checked_games() -> None:
    """Played out by hand: 4455667 wins on its last move (d1 e1 f1 g1), a full board of no
    line is a draw, a seventh disc in column 1 is off the board, a move after a win is past
    the end; any integer dtype of columns gives the same codes, as int8 array."""
    drawn = "446323116125713546635334125521577677446722"
    games = ["", "4455667", drawn, "1111111", "44556671", "4455"]
    expected = [endings.ONGOING, endings.WON, endings.FULL, endings.BAD_COLUMN,
                endings.PAST_END, endings.ONGOING]
    assert _endings(games) == _endings(games, np.int8) == expected
    codes = endings.game_endings(np.zeros(0, dtype=np.int64), np.zeros(1, dtype=np.int64), 6, 7, 4)
    assert codes.dtype == np.int8 and codes.tolist() == []
    assert (endings.ONGOING, endings.WON, endings.FULL, endings.BAD_COLUMN, endings.PAST_END) \
        == (_core.ONGOING, _core.WON, _core.FULL, _core.BAD_COLUMN, _core.PAST_END)


def test_game_endings_refuses_offsets_past_the_moves() -> None:
    columns = np.zeros(3, dtype=np.int64)
    for offsets in ([0, 4], [2, 1, 3], [], [-1, 3]):
        with pytest.raises(ValueError, match="offsets"):
            endings.game_endings(columns, np.array(offsets, dtype=np.int64), 6, 7, 4)
    with pytest.raises(ValueError, match="fit a 64-bit bitboard"):
        endings.game_endings(columns, np.array([0, 3]), 8, 8, 4)
