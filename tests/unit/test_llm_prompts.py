"""The llm: agent's prompts and how it reads a model's answer (no server, no client)."""

from __future__ import annotations

import pytest

from arena.rules.board import Position, Rules
from arena.rules.notation import from_moves
from connect_four_agents.llm_prompts import PROMPT_VERSION, read_answer, system_prompt, user_prompt

FULL_4 = from_moves("4444443")  # column 4 full, player 2 to move


@pytest.mark.parametrize(("answer", "column"), [
    ("5", 4),
    ("Move: 5", 4),
    ("**Move:** 6", 5),
    ("Column 3 blocks nothing, so I play column 2.", 1),
    ("<think>7 or 2, or maybe 1</think>\nMove: 2", 1),
    ("answer: 1.", 0),
])
def test_an_answer_names_its_column(answer: str, column: int) -> None:
    assert read_answer(answer, FULL_4).column == column


@pytest.mark.parametrize(("answer", "reason"), [
    ("I would rather not say.", "names no column number"),
    ("Move: 4", "Column 4 is full"),
    ("Move: 9", "9 is not a column: the columns are 1 to 7"),
    ("3 or 5", "several numbers (3, 5)"),
    ("<think>Move: 5</think>", "names no column number"),
])
def test_an_invalid_answer_says_why(answer: str, reason: str) -> None:
    reading = read_answer(answer, FULL_4)
    assert reading.column is None
    assert reason in reading.reason


def test_the_system_prompt_states_the_rules_side_legal_columns_and_format() -> None:
    text = system_prompt(FULL_4, 2)
    assert "7 columns and 6 rows" in text and "4 of their own discs" in text
    assert "You play O, the second player" in text
    assert "legal columns now are: 1, 2, 3, 5, 6, 7." in text
    assert "'Move: N'" in text


def test_the_prompt_kinds_show_the_board_or_the_moves() -> None:
    board = user_prompt("board", FULL_4, [3, 3, 3, 3, 3, 3, 2])
    assert str(FULL_4) in board
    moves = user_prompt("moves", FULL_4, [3, 3, 3, 3, 3, 3, 2])
    assert "4, 4, 4, 4, 4, 4, 3." in moves
    empty = user_prompt("moves", Position.empty(Rules(5, 6, 4)), [])
    assert "none yet" in empty and "Legal columns: 1, 2, 3, 4, 5, 6." in empty
    assert PROMPT_VERSION
