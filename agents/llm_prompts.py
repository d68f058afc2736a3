"""What the ``llm:`` agent says to a language model and how it reads the answer.

The prompts are versioned: ``PROMPT_VERSION`` names their text, and any change to a word of
them takes a new version, since it changes the games. The version is part of the agent's
fingerprint (meta.json), so runs under different prompts are never mixed up.

Columns are told and read 1-based (1 = leftmost), as in move strings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from arena.rules.board import Position

PROMPT_VERSION = "llm-prompt-1"
"""The version of every text below; bump it when one of them changes."""

PromptKind = Literal["board", "moves"]
PROMPT_KINDS: tuple[PromptKind, ...] = ("board", "moves")

DISCS = ("X", "O")
"""The first player's and the second player's discs, as ``str(Position)`` draws them."""


def system_prompt(position: Position, player: int) -> str:
    """The rules, the side played, the legal columns and the answer format."""
    rules = position.rules
    disc, other = DISCS[player - 1], DISCS[2 - player]
    order = "first" if player == 1 else "second"
    return (
        f"You are playing Connect Four on a board of {rules.cols} columns and {rules.rows} "
        f"rows. The two players take turns dropping one disc into a column; the disc falls "
        f"to the lowest empty cell of that column. A player who gets {rules.connect} of their "
        f"own discs in a line, horizontally, vertically or diagonally, wins. If the board "
        f"fills up with no such line, the game is a draw. A full column cannot be played.\n"
        f"You play {disc}, the {order} player; your opponent plays {other}.\n"
        f"Columns are numbered 1 to {rules.cols} from left to right. The legal columns now "
        f"are: {legal_text(position)}.\n"
        f"You may think first, but end your answer with one line of the form "
        f"'Move: N', where N is the number of the column you play."
    )


def user_prompt(kind: PromptKind, position: Position, moves: Sequence[int]) -> str:
    """The position, as the board's rows (``board``) or the game's moves (``moves``)."""
    if kind == "board":
        drawing = str(position)
        state = (f"The board now, top row first, column numbers above ('.' is an empty "
                 f"cell, X the first player's discs, O the second player's):\n{drawing}")
    else:
        played = ", ".join(str(column + 1) for column in moves) or "none yet"
        state = ("The moves so far, as column numbers, the first player's first and then "
                 f"alternating: {played}.")
    return f"{state}\nLegal columns: {legal_text(position)}. Your move?"


def retry_prompt(reason: str, position: Position) -> str:
    """What is said after an answer that names no legal column."""
    return (f"{reason} The legal columns are: {legal_text(position)}. Answer again, ending "
            f"with one line 'Move: N'.")


def legal_text(position: Position) -> str:
    """The legal columns, 1-based, comma separated."""
    return ", ".join(str(column + 1) for column in position.legal_moves())


@dataclass(frozen=True)
class Reading:
    """What an answer says: the column (0-based) if it names a legal one, else why not."""

    column: int | None
    reason: str = ""


_THINKING = re.compile(r"<think>.*?(</think>|$)", re.IGNORECASE | re.DOTALL)
_MARKED = re.compile(r"\b(?:move|column|col|answer|play)\b\s*(?:is|:|=|#|no\.?)?\s*\**\s*"
                     r"(-?\d+)", re.IGNORECASE)
_NUMBER = re.compile(r"(?<![\w.])\d+(?!\w|\.\d)")


def read_answer(text: str, position: Position) -> Reading:
    """The column an answer names: the last number marked as a move or column (``Move: 4``,
    ``column 4``), else the answer's only number; reasoning in ``<think>`` tags is left
    out. A number that is not a legal column, or no number, is a Reading without a
    column and with the reason, to tell the model."""
    visible = _THINKING.sub(" ", text)
    marked = _MARKED.findall(visible)
    if marked:
        number = int(marked[-1])
    else:
        numbers = {int(found) for found in _NUMBER.findall(visible)}
        if not numbers:
            return Reading(None, "Your answer names no column number.")
        if len(numbers) > 1:
            shown = ", ".join(str(n) for n in sorted(numbers))
            return Reading(None, f"Your answer names several numbers ({shown}) and no "
                                 "'Move: N' line.")
        number = numbers.pop()
    cols = position.rules.cols
    if not 1 <= number <= cols:
        return Reading(None, f"{number} is not a column: the columns are 1 to {cols}.")
    if not position.can_play(number - 1):
        return Reading(None, f"Column {number} is full.")
    return Reading(number - 1)
